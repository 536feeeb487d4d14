"""Training cells: overflow gating (injected inf/NaN leaves parameters and optimizer
state bit-identical), the two dynamic loss-scale rules against references written
from MindSpore's source, gradient accumulation (tutorial pattern and the
optax.MultiSteps wrapper) against one large batch, mixed precision, the parallel
context on one device."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn

W = np.array([[0.5, -1.0, 0.25], [1.5, 0.2, -0.75]], np.float32)
B = np.array([0.1, -0.3], np.float32)
X = np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0], [-2.0, 0.3, 0.7], [1.2, 0.4, -0.6]], np.float32)
Y = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, -0.5], [2.0, 1.0]], np.float32)


@pytest.fixture(autouse=True)
def _pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _net():
    net = nn.Dense(3, 2)
    net.weight.set_data(ms.Tensor(W.copy()))
    net.bias.set_data(ms.Tensor(B.copy()))
    return net


def _state(opt):
    return {name: p.asnumpy().copy() for name, p in opt.parameters_and_names()}


# ---------------------------------------------------------------------------
# overflow: the step is skipped, bit for bit
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("make_opt", [lambda p: nn.Adam(p, 0.05), lambda p: nn.Momentum(p, 0.1, 0.9),
                                      lambda p: nn.SGD(p, 0.1, momentum=0.9)], ids=["adam", "momentum", "sgd"])
def test_overflow_step_is_skipped_bit_identical(mode, bad, make_opt):
    ms.set_context(mode=mode)
    net = _net()
    opt = make_opt(net.trainable_params())
    upd = nn.DynamicLossScaleUpdateCell(2.0 ** 10, 2, 1000)
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt, upd)
    y = ms.Tensor(Y)
    cell(ms.Tensor(X), y)
    before = _state(opt)
    xb = X.copy()
    xb[2, 1] = bad
    loss, cond, scale = cell(ms.Tensor(xb), y)
    assert bool(cond.asnumpy())
    after = _state(opt)
    assert before.keys() == after.keys()
    for k in before:
        np.testing.assert_array_equal(after[k], before[k], err_msg=k)
    assert float(scale.asnumpy()) == 2.0 ** 9
    loss, cond, _ = cell(ms.Tensor(X), y)        # and training goes on
    assert not bool(cond.asnumpy())
    assert not np.array_equal(opt.global_step.asnumpy(), before["global_step"])


def test_overflow_from_huge_fp16_gradients():
    """A float16 network whose scaled gradients overflow: skipped, then the scale drops."""
    net = _net()
    net.to_float(ms.float16)
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt,
                                            nn.DynamicLossScaleUpdateCell(2.0 ** 24, 2, 1000))
    w0 = net.weight.asnumpy().copy()
    _, cond, scale = cell(ms.Tensor(X * 100), ms.Tensor(Y))
    assert bool(cond.asnumpy())
    np.testing.assert_array_equal(net.weight.asnumpy(), w0)
    assert float(scale.asnumpy()) == 2.0 ** 23
    assert net.weight.dtype == ms.float32


def _update_cell_reference(flags, scale, factor, window):
    """nn.DynamicLossScaleUpdateCell.construct, transcribed from MindSpore's source."""
    cur, last, out = 1, 0, []
    for overflow in flags:
        on_overflow = max(scale / factor, 1.0) if overflow else scale
        should_inc = window <= cur - last
        if overflow or should_inc:
            last = cur
        scale = on_overflow * factor if (should_inc and not overflow) else on_overflow
        cur += 1
        out.append((scale, cur, last))
    return out


def _scaler_reference(flags, scale, factor, window):
    """amp.DynamicLossScaler.adjust, transcribed from MindSpore's source."""
    counter, out = 0, []
    for finite in flags:
        if finite:
            if counter == window - 1:
                grown = np.float32(scale) * np.float32(factor)
                scale = float(grown) if np.isfinite(grown) else scale
        else:
            scale = max(1.0, scale / factor)
        counter = (counter + 1) % window * int(finite)
        out.append((scale, counter))
    return out


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_dynamic_update_cell_rule(mode):
    ms.set_context(mode=mode)
    rs = np.random.RandomState(3)
    flags = list(rs.rand(40) < 0.3)
    upd = nn.DynamicLossScaleUpdateCell(16.0, 2, 3)
    scale = ms.Parameter(ms.Tensor(16.0, ms.float32), name="scale")
    got = []
    for f in flags:
        upd(scale, ms.Tensor(bool(f)))
        got.append((float(scale.asnumpy()), int(upd.cur_iter.asnumpy()), int(upd.last_overflow_iter.asnumpy())))
    assert got == _update_cell_reference(flags, 16.0, 2, 3)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_dynamic_loss_scaler_rule(mode):
    ms.set_context(mode=mode)
    rs = np.random.RandomState(4)
    flags = list(rs.rand(40) > 0.3)
    s = ms.amp.DynamicLossScaler(2.0 ** 6, 2, 3)
    got = []
    for f in flags:
        s.adjust(ms.Tensor(bool(f)))
        got.append((float(s.scale_value.asnumpy()), int(s.counter.asnumpy())))
    assert got == _scaler_reference(flags, 2.0 ** 6, 2, 3)


def test_dynamic_loss_scaler_inside_jit():
    """The scaler's state is Parameters: it updates inside a compiled function too."""
    s = ms.amp.DynamicLossScaler(8.0, 2, 1)

    @ms.jit
    def step(g):
        finite = ms.amp.all_finite(g)
        s.adjust(finite)
        return finite

    step(ms.Tensor(np.ones(2, np.float32)))
    assert float(s.scale_value.asnumpy()) == 16.0
    step(ms.Tensor(np.array([np.inf, 1.0], np.float32)))
    assert float(s.scale_value.asnumpy()) == 8.0


def test_loss_scale_seeds_backward_with_scale():
    """sens = ones_like(loss) * scale seeds the backward pass (MindSpore's rule): the
    unscaled gradients equal the plain ones for a power-of-two scale."""
    net, ref = _net(), _net()
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1),
                                            ms.Tensor(np.array([2.0 ** 20], np.float32)))
    plain = nn.TrainOneStepCell(nn.WithLossCell(ref, nn.MSELoss()), nn.SGD(ref.trainable_params(), 0.1))
    loss_a, _, _ = cell(ms.Tensor(X), ms.Tensor(Y))
    loss_b = plain(ms.Tensor(X), ms.Tensor(Y))
    assert float(loss_a.asnumpy()) == float(loss_b.asnumpy())
    np.testing.assert_array_equal(net.weight.asnumpy(), ref.weight.asnumpy())


# ---------------------------------------------------------------------------
# gradient accumulation == one large batch
# ---------------------------------------------------------------------------
def _big_batch_reference(steps=2):
    net = _net()
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    for _ in range(steps):
        cell(ms.Tensor(X), ms.Tensor(Y))
    return net.weight.asnumpy(), net.bias.asnumpy()


def test_grad_accumulation_tutorial_pattern():
    """value_and_grad per micro-batch, accumulate into Parameters, step every N."""
    net = _net()
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    acc = ms.ParameterTuple([ms.Parameter(ms.ops.zeros_like(p), name="acc." + p.name)
                             for p in net.trainable_params()])
    grad_fn = ms.value_and_grad(loss_net, None, opt.parameters)
    assign_add = getattr(ms.ops, "assign_add", None)
    n = 2
    for _ in range(2):
        for i in range(n):
            _, grads = grad_fn(ms.Tensor(X[2 * i:2 * i + 2]), ms.Tensor(Y[2 * i:2 * i + 2]))
            for a, g in zip(acc, grads):
                if assign_add is not None:
                    assign_add(a, g / n)
                else:
                    a.set_data(a + g / n)
        opt(tuple(a.value() for a in acc))
        for a in acc:
            a.set_data(ms.ops.zeros_like(a))
    w_ref, b_ref = _big_batch_reference()
    np.testing.assert_allclose(net.weight.asnumpy(), w_ref, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(net.bias.asnumpy(), b_ref, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_grad_accumulation_multisteps(mode):
    ms.set_context(mode=mode)
    net = _net()
    inner = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    opt = nn.GradAccumulationOptimizer(inner, every_k=2)
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    w0 = net.weight.asnumpy().copy()
    cell(ms.Tensor(X[:2]), ms.Tensor(Y[:2]))
    np.testing.assert_array_equal(net.weight.asnumpy(), w0)       # accumulated only
    assert int(opt.mini_step.asnumpy()) == 1
    cell(ms.Tensor(X[2:]), ms.Tensor(Y[2:]))
    cell(ms.Tensor(X[:2]), ms.Tensor(Y[:2]))
    cell(ms.Tensor(X[2:]), ms.Tensor(Y[2:]))
    w_ref, b_ref = _big_batch_reference()
    np.testing.assert_allclose(net.weight.asnumpy(), w_ref, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(net.bias.asnumpy(), b_ref, rtol=1e-6, atol=1e-7)
    assert int(inner.global_step.asnumpy()[0]) == 2
    names = [n for n, _ in opt.parameters_and_names()]
    assert "acc_grads.weight" in names and "mini_step" in names


# ---------------------------------------------------------------------------
# mixed precision
# ---------------------------------------------------------------------------
def test_to_float_bf16_keeps_float32_master_weights():
    net = _net()
    net.to_float(ms.bfloat16)
    x = ms.Tensor(X)
    y = net(x)
    assert y.dtype == ms.bfloat16
    ref = X @ W.T + B
    np.testing.assert_allclose(y.astype(ms.float32).asnumpy(), ref, rtol=2e-2, atol=2e-2)
    grads = ms.grad(lambda xx: net(xx).sum(), None, net.trainable_params())(x)
    assert all(g.dtype == ms.float32 for g in grads) and net.weight.dtype == ms.float32


def test_o2_keeps_batchnorm_in_float32():
    if not hasattr(nn, "BatchNorm1d"):
        pytest.skip("nn.BatchNorm1d not available")
    seq = nn.SequentialCell([_net(), nn.BatchNorm1d(2), nn.ReLU()])
    net = ms.amp.auto_mixed_precision(seq, "O2")
    seq.set_train()
    y = net(ms.Tensor(X))
    assert y.dtype == ms.float32
    bn = seq[1]
    assert bn.fp32 and not bn.fp16 and seq[0].fp16
    for p in seq.get_parameters():
        assert p.dtype == ms.float32, p.name


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_build_train_network_o2_trains_with_dynamic_loss_scale(mode):
    """MindSpore's CPU build refuses O2's dynamic loss scale; msjax runs it everywhere."""
    ms.set_context(mode=mode)
    net = _net()
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    cell = ms.amp.build_train_network(net, opt, nn.MSELoss(), level="O2")
    assert type(cell).__name__ == "TrainOneStepWithLossScaleCell"
    w0 = net.weight.asnumpy().copy()
    losses, conds, scales = [], [], []
    for _ in range(14):
        loss, cond, scale = cell(ms.Tensor(X), ms.Tensor(Y))
        losses.append(float(loss.asnumpy()))
        conds.append(bool(cond.asnumpy()))
        scales.append(float(scale.asnumpy()))
    # the default scale 2**24 overflows float16 gradients: halved until the steps go through
    assert conds[0] and not conds[-1] and scales[0] == 2.0 ** 23
    assert loss.dtype == ms.float32 and net.weight.dtype == ms.float32
    assert not np.array_equal(net.weight.asnumpy(), w0)
    assert losses[-1] < losses[0]


# ---------------------------------------------------------------------------
# parallel context and reducers on one device
# ---------------------------------------------------------------------------
def test_parallel_utils_and_data_parallel_identity():
    from msjax.parallel import _utils
    assert _utils._get_parallel_mode() == ms.ParallelMode.STAND_ALONE
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True, device_num=1)
    try:
        assert (_utils._get_parallel_mode(), _utils._get_gradients_mean(), _utils._get_device_num()) == \
            ("data_parallel", True, 1)
        net = _net()
        cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
        assert isinstance(cell.grad_reducer, nn.DistributedGradReducer)
        cell(ms.Tensor(X), ms.Tensor(Y))
    finally:
        ms.reset_auto_parallel_context()
    ref = _net()
    nn.TrainOneStepCell(nn.WithLossCell(ref, nn.MSELoss()), nn.SGD(ref.trainable_params(), 0.1))(
        ms.Tensor(X), ms.Tensor(Y))
    np.testing.assert_array_equal(net.weight.asnumpy(), ref.weight.asnumpy())


def test_distributed_grad_reducer_mean_degree():
    g = (ms.Tensor(W), ms.Tensor(np.array([1, 2], np.float16)))
    out = nn.DistributedGradReducer([], mean=True, degree=2)(g)
    np.testing.assert_array_equal(out[0].asnumpy(), W / 2)
    assert out[1].dtype == ms.float16
    out = nn.DistributedGradReducer([], mean=False, degree=1)(g)
    np.testing.assert_array_equal(out[0].asnumpy(), W)
    with pytest.raises(ValueError):
        nn.DistributedGradReducer([], degree=0)


# ---------------------------------------------------------------------------
# deep copies train on their own
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("make_opt", [lambda p: nn.Momentum(p, 0.1, 0.9), lambda p: nn.Adam(p, 0.05)],
                         ids=["momentum", "adam"])
def test_deep_copied_train_cell_trains_independently(mode, make_opt):
    """``copy.deepcopy`` of a TrainOneStepCell (ParameterTuples of the optimizer included):
    the copy's optimizer updates the copy's own weights and state, the original stays as it
    was, and training the original afterwards gives what it would have given uncopied.
    (MindSpore 2.10 copies Cells but not optimizers: its ``Map`` primitive does not pickle.)"""
    import copy
    ms.set_context(mode=mode)
    x, y = ms.Tensor(X), ms.Tensor(Y)

    def step_cell():
        net = _net()
        return nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), make_opt(net.trainable_params()))

    original = step_cell()
    original(x, y)
    saved = {n: p.asnumpy().copy() for n, p in original.parameters_and_names()}
    twin = copy.deepcopy(original)
    assert [(n, p.name) for n, p in twin.parameters_and_names()] == \
        [(n, p.name) for n, p in original.parameters_and_names()]
    weights = [twin.network._backbone.weight, twin.network._backbone.bias]
    assert list(twin.weights) == weights and list(twin.optimizer.parameters) == weights   # still shared
    assert not set(map(id, twin.get_parameters())) & set(map(id, original.get_parameters()))
    for _ in range(2):
        twin(x, y)
    for n, p in original.parameters_and_names():
        np.testing.assert_array_equal(p.asnumpy(), saved[n], err_msg=n)
    for _ in range(2):
        original(x, y)
    reference = step_cell()
    for _ in range(3):
        reference(x, y)
    for cell in (twin, original):
        for (n, p), (_, q) in zip(cell.parameters_and_names(), reference.parameters_and_names()):
            np.testing.assert_allclose(p.asnumpy(), q.asnumpy(), rtol=1e-6, err_msg=n)


def test_deep_copied_cell_holding_an_optimizer():
    import copy
    from flax import nnx

    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = _net()
            self.opt = nn.Adam(self.net.trainable_params(), 0.05)

    holder = Holder()
    twin = copy.deepcopy(holder)
    assert twin.opt.parameters[0] is twin.net.weight and twin.opt.moment1[0] is not holder.opt.moment1[0]
    assert isinstance(twin.opt.moment1, type(holder.opt.moment1))
    assert [p.name for p in twin.opt.moment1] == ["opt.moment1.net.weight", "opt.moment1.net.bias"]
    twin.opt((ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones(2, np.float32))))
    assert np.all(twin.opt.moment1[0].asnumpy() != 0) and np.all(holder.opt.moment1[0].asnumpy() == 0)
    np.testing.assert_array_equal(holder.net.weight.asnumpy(), W)
    assert len(nnx.to_flat_state(nnx.state(holder.opt, nnx.Param))) == len(list(holder.opt.get_parameters()))
