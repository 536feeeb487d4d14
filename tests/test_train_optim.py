"""Optimizers beyond the golden fixtures: the ones MindSpore's CPU build cannot run
(Lamb, LARS, gradient centralization) against numpy references of MindSpore's
formulas; GRAPH_MODE vs PYNATIVE step for step; one trace per signature; state in
Parameters; learning rates that change without recompiling; donation safety."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn
from msjax._core import transforms
from msjax.common._cell_cache import cell_functions

W = np.array([[0.5, -1.0, 0.25], [1.5, 0.2, -0.75]], np.float32)
B = np.array([0.1, -0.3], np.float32)
X = np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0], [-2.0, 0.3, 0.7], [1.2, 0.4, -0.6]], np.float32)
Y = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, -0.5], [2.0, 1.0]], np.float32)


@pytest.fixture(autouse=True)
def _pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _grads(w, b):
    d = X @ w.T + b - Y
    n = d.size
    return 2 * d.T @ X / n, 2 * d.sum(0) / n


def _fit(make_opt, steps=4, wname="w", bname="b"):
    w = ms.Parameter(ms.Tensor(W.copy()), name=wname)
    b = ms.Parameter(ms.Tensor(B.copy()), name=bname)
    opt = make_opt([w, b])
    x, y = ms.Tensor(X), ms.Tensor(Y)

    def loss_fn(xx, yy):
        d = ms.ops.matmul(xx, w.T) + b - yy
        return (d * d).mean()

    grad_fn = ms.value_and_grad(loss_fn, None, opt.parameters)
    traj = []
    for _ in range(steps):
        _, g = grad_fn(x, y)
        opt(g)
        traj.append((w.asnumpy().copy(), b.asnumpy().copy()))
    return traj, opt


# ---------------------------------------------------------------------------
# numpy references (MindSpore's documented formulas)
# ---------------------------------------------------------------------------
def test_lamb_matches_reference():
    lr, b1, b2, eps, wd = 0.05, 0.9, 0.999, 1e-6, 0.1
    traj, _ = _fit(lambda p: nn.Lamb(p, lr, b1, b2, eps, weight_decay=wd), wname="w", bname="bias_gamma")
    w, b = W.astype(np.float64), B.astype(np.float64)
    m = [np.zeros_like(w), np.zeros_like(b)]
    v = [np.zeros_like(w), np.zeros_like(b)]
    for t in range(1, 5):
        gs = _grads(w, b)
        new = []
        for i, (p, g, decay) in enumerate(zip((w, b), gs, (True, False))):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            r = (m[i] / (1 - b1 ** t)) / (np.sqrt(v[i] / (1 - b2 ** t)) + eps)
            if decay:
                r = r + wd * p
            wn, rn = np.linalg.norm(p), np.linalg.norm(r)
            ratio = wn / rn if wn > 0 and rn > 0 else 1.0
            new.append(p - lr * ratio * r)
        w, b = new
        np.testing.assert_allclose(traj[t - 1][0], w, rtol=2e-5, atol=1e-6)
        np.testing.assert_allclose(traj[t - 1][1], b, rtol=2e-5, atol=1e-6)


def test_lars_matches_reference():
    lr, mom, coef, eps, wd = 0.1, 0.9, 0.01, 1e-5, 0.05
    traj, opt = _fit(lambda p: nn.LARS(nn.Momentum(p, lr, mom, weight_decay=wd), epsilon=eps, coefficient=coef),
                     wname="w", bname="bias")
    w, b = W.astype(np.float64), B.astype(np.float64)
    acc = [np.zeros_like(w), np.zeros_like(b)]
    for step in range(4):
        gw, gb = _grads(w, b)
        # LARS scales the weight's gradient (the filter skips 'bias'); the inner optimizer's decay is off
        wn, gn = np.linalg.norm(w), np.linalg.norm(gw)
        gw = coef * wn / (gn + wd * wn + eps) * (gw + wd * w)
        new = []
        for i, (p, g) in enumerate(((w, gw), (b, gb))):
            acc[i] = mom * acc[i] + g
            new.append(p - lr * acc[i])
        w, b = new
        np.testing.assert_allclose(traj[step][0], w, rtol=2e-5, atol=1e-6)
        np.testing.assert_allclose(traj[step][1], b, rtol=2e-5, atol=1e-6)
    assert opt.opt.exec_weight_decay is False


def test_grad_centralization_reference():
    w0 = np.linspace(-1, 1, 2 * 16 * 2).reshape(2, 16, 2).astype(np.float32)
    xs = np.linspace(0, 2, w0.size).reshape(w0.shape).astype(np.float32)
    w = ms.Parameter(ms.Tensor(w0), name="w")
    opt = nn.Momentum([{"params": [w], "grad_centralization": True}], 0.1, 0.9)
    g_fn = ms.grad(lambda x: (w * w * x).sum(), None, opt.parameters)
    ref, acc = w0.astype(np.float64), np.zeros_like(w0, np.float64)
    for _ in range(2):
        opt(g_fn(ms.Tensor(xs)))
        g = 2 * ref * xs
        g = g - g.mean(axis=(1, 2), keepdims=True)
        acc = 0.9 * acc + g
        ref = ref - 0.1 * acc
    np.testing.assert_allclose(w.asnumpy(), ref, rtol=1e-5, atol=1e-6)


def test_lr_list_past_the_end_raises_in_pynative():
    with pytest.raises(RuntimeError, match="Gather"):
        _fit(lambda p: nn.Momentum(p, ms.Tensor(np.array([0.1, 0.05], np.float32)), 0.9), steps=3)


# ---------------------------------------------------------------------------
# GRAPH_MODE vs PyNative, tracing, state
# ---------------------------------------------------------------------------
_OPTS = {
    "momentum": lambda p: nn.Momentum(p, 0.05, 0.9, weight_decay=0.01),
    "sgd": lambda p: nn.SGD(p, 0.05, momentum=0.9, dampening=0.1),
    "adam": lambda p: nn.Adam(p, nn.ExponentialDecayLR(0.05, 0.9, 2)),
    "adamw": lambda p: nn.AdamWeightDecay(p, 0.05, weight_decay=0.1),
    "rmsprop": lambda p: nn.RMSProp(p, 0.01, centered=True, momentum=0.5),
    "lamb": lambda p: nn.Lamb(p, 0.05),
    "groups": lambda p: nn.Adam([{"params": [p[0]], "lr": 0.1}, {"params": [p[1]], "weight_decay": 0.1}], 0.05),
}


@pytest.mark.parametrize("name", sorted(_OPTS))
def test_graph_matches_pynative(name):
    pyn, _ = _fit(_OPTS[name])
    ms.set_context(mode=ms.GRAPH_MODE)
    gra, _ = _fit(_OPTS[name])
    for (pw, pb), (gw, gb) in zip(pyn, gra):
        np.testing.assert_allclose(gw, pw, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(gb, pb, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_one_trace_per_signature_and_lr_change_does_not_retrace(mode):
    ms.set_context(mode=mode)
    net = nn.Dense(3, 2)
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    x, y = ms.Tensor(X), ms.Tensor(Y)
    cell(x, y)
    after_first = transforms.TRACES[0]
    for lr in (0.01, 0.02, 0.5):
        opt.learning_rate.set_data(ms.Tensor(lr, ms.float32))
        cell(x, y)
    assert transforms.TRACES[0] == after_first
    w_before = net.weight.asnumpy().copy()
    opt.learning_rate.set_data(ms.Tensor(0.0, ms.float32))
    opt.momentum.set_data(ms.Tensor(0.0, ms.float32))
    cell(x, y)
    np.testing.assert_array_equal(net.weight.asnumpy(), w_before)
    assert transforms.TRACES[0] == after_first
    cell(ms.Tensor(X[:2]), ms.Tensor(Y[:2]))     # a new input signature traces once more
    assert transforms.TRACES[0] == after_first + 1


def test_graph_train_step_is_one_compiled_function():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(3, 2)
    opt = nn.Adam(net.trainable_params(), 0.01)
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    before = transforms.TRACES[0]
    for _ in range(3):
        cell(ms.Tensor(X), ms.Tensor(Y))
    assert transforms.TRACES[0] == before + 1
    sf = cell_functions(cell)["train_step"]
    assert len(sf._cache) == 1
    entry = next(iter(sf._cache.values()))
    names = {p.name for p in entry.state}
    assert {"weight", "bias", "moment1.weight", "moment2.bias", "beta1_power", "global_step",
            "learning_rate"} <= names


def test_optimizer_state_lives_in_parameters():
    net = nn.Dense(3, 2)
    opt = nn.Adam(net.trainable_params(), 0.01)
    names = [n for n, _ in opt.parameters_and_names()]
    assert names == ["global_step", "learning_rate", "weight", "bias", "beta1_power", "beta2_power",
                     "moment1.weight", "moment1.bias", "moment2.weight", "moment2.bias"]
    g = (ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones(2, np.float32)))
    opt(g)
    assert float(opt.beta1_power.asnumpy()) == pytest.approx(0.9)
    assert int(opt.global_step.asnumpy()[0]) == 1
    assert np.all(opt.moment1[0].asnumpy() != 0)


class _TwoLayers(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(2, 3)
        self.fc2 = nn.Dense(3, 1)

    def construct(self, x):
        return self.fc2(self.fc1(x))


def test_parameter_tuple_members_listed_by_their_names_when_assigned(tmp_path):
    """A Cell lists the members of a ParameterTuple attribute (an optimizer's parameters and
    moments, TrainOneStepCell.weights) under their names at assignment, as MindSpore's
    ``_params`` keys: a prefix added later (the optimizer assigned in a parent Cell) is not
    added twice. Names recorded from MindSpore 2.10."""
    class Owner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = _TwoLayers()
            self.opt = nn.Adam(self.net.trainable_params())

    owner = Owner()
    moment = ["moment1.net.fc1.weight", "moment1.net.fc1.bias", "moment1.net.fc2.weight", "moment1.net.fc2.bias"]
    assert [(n, p.name) for n, p in owner.parameters_and_names()][4:9] == [
        ("opt.global_step", "opt.global_step"), ("opt.learning_rate", "opt.learning_rate"),
        ("opt.beta1_power", "opt.beta1_power"), ("opt.beta2_power", "opt.beta2_power"),
        ("opt." + moment[0], "opt." + moment[0])]
    assert [n for n, _ in owner.parameters_and_names()][:4] == ["net.fc1.weight", "net.fc1.bias",
                                                                 "net.fc2.weight", "net.fc2.bias"]
    assert owner.net.fc1.weight.name == "opt.net.fc1.weight"

    class MyTrain(nn.Cell):
        def __init__(self, net, opt):
            super().__init__()
            self.net = net
            self.opt = opt
            self.weights = opt.parameters

    net = _TwoLayers()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    mine = MyTrain(nn.WithLossCell(net, nn.MSELoss()), opt)
    layers = ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    expected = [f"opt.{n}" for n in layers + ["global_step", "learning_rate", "momentum"] +
                [f"moments.{m}" for m in layers]]
    assert [(n, p.name) for n, p in mine.parameters_and_names()] == [(n, n) for n in expected]

    net = _TwoLayers()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Adam(net.trainable_params()))
    names = ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    state = ["global_step", "learning_rate", "beta1_power", "beta2_power"] + \
        [f"moment{i}.{n}" for i in (1, 2) for n in names]
    assert [(n, p.name) for n, p in step.parameters_and_names()] == \
        [(n, n) for n in names] + [("optimizer." + n, n) for n in state]
    ms.save_checkpoint(step, str(tmp_path / "step.ckpt"))
    saved = ms.load_checkpoint(str(tmp_path / "step.ckpt"))
    assert list(saved) == names + state
    step.optimizer.moment1[0].set_data(ms.Tensor(np.zeros((3, 2), np.float32) + 5))
    assert ms.load_param_into_net(step, saved) == ([], [])
    assert float(step.optimizer.moment1[0].asnumpy().max()) == 0.0


def test_custom_optimizer_subclass_runs_as_written():
    class MyMomentum(nn.Optimizer):
        def __init__(self, params, learning_rate, momentum=0.9):
            super().__init__(learning_rate, params)
            self.moments = self.parameters.clone(prefix="moments", init="zeros")
            self.momentum = momentum

        def construct(self, gradients):
            lr = self.get_lr()
            gradients = self.decay_weight(gradients)
            gradients = self.scale_grad(gradients)
            for param, mom, grad in zip(self.parameters, self.moments, gradients):
                mom.set_data(mom * self.momentum + grad)
                param.set_data(param - lr * mom)
            return True

    traj, opt = _fit(lambda p: MyMomentum(p, 0.05))
    ref, _ = _fit(lambda p: nn.Momentum(p, 0.05, 0.9))
    assert opt.moments[0].name == "moments.w"
    np.testing.assert_allclose(traj[-1][0], ref[-1][0], rtol=1e-6)


def test_donated_step_keeps_user_references_valid():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(3, 2)
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    x, y = ms.Tensor(X), ms.Tensor(Y)
    cell(x, y)
    held = net.weight.value()            # a Tensor sharing the Parameter's buffer
    snapshot = held.asnumpy().copy()
    cell(x, y)
    np.testing.assert_array_equal(held.asnumpy(), snapshot)   # still readable, unchanged
    assert not np.array_equal(net.weight.asnumpy(), snapshot)
    ptr = net.weight._raw_get().unsafe_buffer_pointer()
    cell(x, y)   # nothing else references the buffer now: updated in place
    assert net.weight._raw_get().unsafe_buffer_pointer() == ptr


def test_donated_step_runs_the_network_once():
    """The donating program calls the step's one trace: the network's construct runs
    at that trace only, never again for the donation or the later steps."""
    ms.set_context(mode=ms.GRAPH_MODE)
    calls = []

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2)

        def construct(self, x):
            calls.append(1)
            return self.fc(x)

    net = Net()
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    losses = [float(cell(ms.Tensor(X), ms.Tensor(Y))) for _ in range(3)]
    assert len(calls) == 1
    assert losses[2] < losses[1] < losses[0]


def test_unsupported_optimizers_raise_clear_errors():
    net = nn.Dense(3, 2)
    with pytest.raises(NotImplementedError, match="thor"):
        nn.thor(net, 0.1, 0.1, 0.9)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    for cls in (nn.AdaSumByGradWrapCell, nn.AdaSumByDeltaWeightWrapCell, nn.OptTFTWrapper):
        with pytest.raises(RuntimeError, match="msjax does not implement"):
            cls(opt)


def test_lars_graph_matches_pynative():
    # (the other optimizers run in both modes in the golden suite)
    make = lambda p: nn.LARS(nn.SGD(p, 0.1, momentum=0.5), coefficient=0.01)  # noqa: E731
    ref, _ = _fit(make, steps=2)
    ms.set_context(mode=ms.GRAPH_MODE)
    traj, _ = _fit(make, steps=2)
    np.testing.assert_allclose(traj[-1][0], ref[-1][0], rtol=1e-6, atol=1e-7)


def test_momentum_nesterov_documented_formula():
    """MindSpore 2.10's CPU ApplyMomentum ignores use_nesterov; msjax follows the
    documented rule: param -= lr * (grad + momentum * moments)."""
    lr, mom = 0.05, 0.9
    traj, _ = _fit(lambda p: nn.Momentum(p, lr, mom, use_nesterov=True))
    w, b = W.astype(np.float64), B.astype(np.float64)
    acc = [np.zeros_like(w), np.zeros_like(b)]
    for step in range(4):
        gs = _grads(w, b)
        new = []
        for i, (p, g) in enumerate(zip((w, b), gs)):
            acc[i] = mom * acc[i] + g
            new.append(p - lr * (g + mom * acc[i]))
        w, b = new
        np.testing.assert_allclose(traj[step][0], w, rtol=2e-5, atol=1e-6)


def test_ftrl_l1_documented_formula():
    """MindSpore 2.10's CPU ApplyFtrl shrinks a negative 'linear' by +l1; msjax follows the
    documented rule: param = (sign(linear) * l1 - linear) / quadratic when |linear| > l1."""
    lr, l1, l2, lp = 0.1, 0.05, 0.02, -0.5
    traj, _ = _fit(lambda p: nn.FTRL(p, learning_rate=lr, l1=l1, l2=l2, lr_power=lp))
    w, b = W.astype(np.float64), B.astype(np.float64)
    accs = [np.full_like(w, 0.1), np.full_like(b, 0.1)]
    lins = [np.zeros_like(w), np.zeros_like(b)]
    for step in range(4):
        gs = _grads(w, b)
        new = []
        for i, (p, g) in enumerate(zip((w, b), gs)):
            an = accs[i] + g * g
            lins[i] = lins[i] + g - (an ** -lp - accs[i] ** -lp) / lr * p
            quad = an ** -lp / lr + 2 * l2
            new.append(np.where(np.abs(lins[i]) > l1, (np.sign(lins[i]) * l1 - lins[i]) / quad, 0.0))
            accs[i] = an
        w, b = new
        np.testing.assert_allclose(traj[step][0], w, rtol=2e-5, atol=1e-6)
        np.testing.assert_allclose(traj[step][1], b, rtol=2e-5, atol=1e-6)


def test_fused_weight_scale_apply_momentum_and_nesterov_primitive():
    v0, a0, g = np.array([0.6, -0.4], np.float32), np.array([0.1, 0.2], np.float32), np.array([2.0, 4.0], np.float32)
    v = ms.Parameter(ms.Tensor(v0), name="v")
    a = ms.Parameter(ms.Tensor(a0), name="a")
    out = ms.ops.FusedWeightScaleApplyMomentum()(ms.Tensor(0.01, ms.float32), ms.Tensor(0.5, ms.float32), v, a,
                                                 ms.Tensor(0.1, ms.float32), ms.Tensor(g), ms.Tensor(0.9, ms.float32))
    acc = 0.9 * a0 + (v0 * 0.01 + g * 0.5)
    np.testing.assert_allclose(a.asnumpy(), acc, rtol=1e-6)
    np.testing.assert_allclose(v.asnumpy(), v0 - 0.1 * acc, rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), v.asnumpy())
    v.set_data(ms.Tensor(v0))
    a.set_data(ms.Tensor(a0))
    ms.ops.ApplyMomentum(use_nesterov=True)(v, a, 0.1, ms.Tensor(g), 0.9)
    acc = 0.9 * a0 + g
    np.testing.assert_allclose(v.asnumpy(), v0 - 0.1 * (g + 0.9 * acc), rtol=1e-6)
