"""Golden cases for mixed precision (suite ``amp``): four small networks (LeNet5, a ResNet basic
block with BatchNorm, a transformer encoder layer, Unet's double convolution) at the four AMP
levels O0/O1/O2/O3, recorded from MindSpore 2.10's CPU build (which runs float16).

Each ``case_<net>_<level>`` returns the network output (its dtype shows which ops ran in
float16), the loss and the gradient of every trainable Parameter. ``case_train_*`` trains 20
steps from the same weights with a dynamic loss scale that starts too high, so the recorded
run holds MindSpore's overflow decisions, scale updates and skipped steps (and each trained
Parameter's sum of squares).

Tolerances: float16 keeps 11 significant bits, and MindSpore and XLA sum in different
orders, so values are compared at rtol 2e-2 / atol 2e-3 (scaled gradients at their own
size). That is loose against rounding and tight against accumulating in float16: the
conv+BatchNorm case of issue 22 was 5.3x off.

MindSpore's CPU build cannot run ``TrainOneStepWithLossScaleCell``'s NPU overflow check; the
training cases override ``get_overflow_status`` with an all-finite test (what msjax does on
every backend), as ``cases_train`` does.
"""
import numpy as np

RTOL = 2e-2
ATOL = 2e-3

LEVELS = ("O0", "O1", "O2", "O3")


def _init(ms, net, seed):
    """Deterministic weights: each trainable Parameter from its own seeded normal draw."""
    rng = np.random.RandomState(seed)
    for p in net.trainable_params():
        shape = tuple(p.shape)
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        if p.name.endswith(("gamma", "weight")) and len(shape) == 1:
            value = 1.0 + 0.1 * rng.randn(*shape)
        elif len(shape) == 1:
            value = 0.1 * rng.randn(*shape)
        else:
            value = rng.randn(*shape) / np.sqrt(fan_in)
        p.set_data(ms.Tensor(value.astype(np.float32)))
    return net


def _summary(t, full=4096):
    """A Tensor in full when small, else its dtype, first 256 values, sum and sum of squares
    (keeps the fixture small; the sums see every element)."""
    a = t.asnumpy()
    if a.size <= full:
        return t
    f = a.astype(np.float64).ravel()
    return {"dtype": str(a.dtype), "shape": list(a.shape), "head": a.ravel()[:256].copy(),
            "sum": np.float32(f.sum()), "sumsq": np.float32((f * f).sum())}


def _public(cls):
    """MindSpore's O1 rewrites a network's source and resolves its class by name in this module."""
    globals()[cls.__name__] = cls
    return cls


def _lenet(ms):
    nn = ms.nn

    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, 10)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            x = self.flatten(x)
            return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

    _public(LeNet5)
    x = np.random.RandomState(1).randn(4, 1, 32, 32).astype(np.float32)
    y = np.array([1, 3, 5, 7], np.int32)
    return _init(ms, LeNet5(), 10), x, y, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _resblock(ms):
    nn = ms.nn

    class BasicBlock(nn.Cell):
        def __init__(self, cin=4, cout=8, classes=3):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride=2, pad_mode="pad", padding=1, has_bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, pad_mode="same", has_bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = nn.Conv2d(cin, cout, 1, stride=2, has_bias=False)
            self.bn_down = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.mean = ms.ops.ReduceMean(keep_dims=False)
            self.fc = nn.Dense(cout, classes)

        def construct(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            out = self.relu(out + self.bn_down(self.down(x)))
            return self.fc(self.mean(out, (2, 3)))

    _public(BasicBlock)
    x = np.random.RandomState(2).randn(4, 4, 8, 8).astype(np.float32)
    y = np.array([0, 1, 2, 1], np.int32)
    net = _init(ms, BasicBlock(), 20)
    net.set_train(True)
    return net, x, y, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _transformer(ms):
    nn = ms.nn

    class Encoder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layer = nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, dropout=0.0, batch_first=True)
            self.mean = ms.ops.ReduceMean(keep_dims=False)
            self.fc = nn.Dense(16, 3)

        def construct(self, x):
            return self.fc(self.mean(self.layer(x), 1))

    _public(Encoder)
    x = np.random.RandomState(3).randn(2, 4, 16).astype(np.float32)
    y = np.array([2, 0], np.int32)
    return _init(ms, Encoder(), 30), x, y, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _double_conv(ms):
    nn = ms.nn

    class DoubleConv(nn.Cell):
        def __init__(self):
            super().__init__()
            self.double_conv = nn.SequentialCell([
                nn.Conv2d(1, 8, 3, has_bias=True, pad_mode="valid"), nn.ReLU(),
                nn.Conv2d(8, 8, 3, has_bias=True, pad_mode="valid"), nn.ReLU()])

        def construct(self, x):
            return self.double_conv(x)

    _public(DoubleConv)
    rng = np.random.RandomState(4)
    x = rng.randn(2, 1, 12, 12).astype(np.float32)
    y = rng.rand(2, 8, 8, 8).astype(np.float32)
    return _init(ms, DoubleConv(), 40), x, y, ms.nn.MSELoss()


NETS = {"lenet": _lenet, "resblock": _resblock, "transformer": _transformer, "double_conv": _double_conv}


def _forward_and_grads(ms, make, level):
    net, x, y, loss_fn = make(ms)
    amp_net = ms.amp.auto_mixed_precision(net, level)
    params = net.trainable_params()
    xt, yt = ms.Tensor(x), ms.Tensor(y)
    out = amp_net(xt)

    def fn(a, b):
        return loss_fn(amp_net(a), b)

    loss, grads = ms.value_and_grad(fn, None, params)(xt, yt)
    return {"out": out, "loss": loss, "grads": [_summary(g) for g in grads]}


def _make_level_case(name, level):
    def case(ms):
        return _forward_and_grads(ms, NETS[name], level)
    case.__name__ = f"case_{name}_{level.lower()}"
    return case


for _name in NETS:
    for _level in LEVELS:
        globals()[f"case_{_name}_{_level.lower()}"] = _make_level_case(_name, _level)


def _custom(ms, make, **lists):
    net, x, y, loss_fn = make(ms)
    amp_net = ms.amp.custom_mixed_precision(net, **{k: v(ms) for k, v in lists.items()})
    xt, yt = ms.Tensor(x), ms.Tensor(y)
    out = amp_net(xt)
    loss, grads = ms.value_and_grad(lambda a, b: loss_fn(amp_net(a), b), None, net.trainable_params())(xt, yt)
    return {"out": out, "loss": loss, "grads": [_summary(g) for g in grads]}


def case_custom_white_list_resblock(ms):
    return _custom(ms, _resblock, white_list=lambda m: [m.nn.Conv2d, m.nn.Dense])


def case_custom_black_list_lenet(ms):
    return _custom(ms, _lenet, black_list=lambda m: [m.nn.Dense])


def case_custom_amp_lists_transformer(ms):
    return _custom(ms, _transformer, black_list=lambda m: m.amp.get_black_list())


def _train(ms, make, level, steps=20, scale=2.0 ** 24):
    net, x, y, loss_fn = make(ms)

    class AllFiniteLossScaleCell(ms.nn.TrainOneStepWithLossScaleCell):
        def get_overflow_status(self, status, compute_output):
            flags = [ms.ops.isfinite(g).all() for g in compute_output]
            ok = flags[0]
            for f in flags[1:]:
                ok = ms.ops.logical_and(ok, f)
            return ms.ops.logical_not(ok)

    with_loss = ms.amp.auto_mixed_precision(ms.nn.WithLossCell(net, loss_fn), level)
    opt = ms.nn.Momentum(net.trainable_params(), 0.01, 0.9)
    update = ms.nn.DynamicLossScaleUpdateCell(loss_scale_value=scale, scale_factor=4, scale_window=3)
    cell = AllFiniteLossScaleCell(with_loss, opt, update)
    xt, yt = ms.Tensor(x), ms.Tensor(y)
    out = {"loss": [], "overflow": [], "scale": []}
    for _ in range(steps):
        loss, cond, sc = cell(xt, yt)
        out["loss"].append(np.float32(loss.asnumpy()))
        out["overflow"].append(bool(cond.asnumpy()))
        out["scale"].append(np.float32(sc.asnumpy()))
    res = {k: np.array(v) for k, v in out.items()}
    # each Parameter's sum of squares: elementwise, float16 runs part where a ReLU input rounds to
    # the other side of 0 (one fc2 value of 256 is 10% off after 20 steps of LeNet at O2)
    res["params_sumsq"] = np.array([np.square(p.asnumpy().astype(np.float64)).sum() for p in net.trainable_params()],
                                   np.float32)
    return res


def case_train_lenet_o2(ms):
    return _train(ms, _lenet, "O2")


def case_train_lenet_o3(ms):
    return _train(ms, _lenet, "O3")


def case_train_double_conv_o3(ms):
    return _train(ms, _double_conv, "O3")


def case_train_resblock_o2(ms):
    return _train(ms, _resblock, "O2")


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}


def _shuffle_block(ms):
    """A ShuffleNetV1-style unit (issue 36): pointwise conv + BatchNorm + ReLU, a channel shuffle of
    3 groups, a depthwise 3x3 conv (``group`` = channels) + BatchNorm, a pointwise conv, a residual
    ReLU; large inputs so that, scaled by 1024, some float16 gradients overflow in MindSpore."""
    nn, ops = ms.nn, ms.ops

    class ShuffleUnit(nn.Cell):
        def __init__(self, c=12, mid=6, groups=3):
            super().__init__()
            self.groups = groups
            self.reduce = nn.Conv2d(c, mid, 1, has_bias=False)
            self.bn1 = nn.BatchNorm2d(mid)
            self.depthwise = nn.Conv2d(mid, mid, 3, pad_mode="pad", padding=1, group=mid, has_bias=False)
            self.bn2 = nn.BatchNorm2d(mid)
            self.expand = nn.Conv2d(mid, c, 1, has_bias=False)
            self.relu = nn.ReLU()

        def construct(self, x):
            y = self.relu(self.bn1(self.reduce(x)))
            n, c, h, w = ops.shape(y)
            y = ops.reshape(ops.transpose(ops.reshape(y, (n, self.groups, c // self.groups, h, w)),
                                          (0, 2, 1, 3, 4)), (n, c, h, w))
            y = self.expand(self.bn2(self.depthwise(y)))
            return self.relu(x + y)
    _public(ShuffleUnit)
    rng = np.random.RandomState(36)
    x = (rng.randn(4, 12, 8, 8) * 40).astype(np.float32)
    y = (rng.randn(4, 12, 8, 8) * 40).astype(np.float32)
    return _init(ms, ShuffleUnit(), 36), x, y, ms.nn.MSELoss()


def case_shuffle_unit_o3_scaled(ms):
    """O3 forward + backward with the loss scaled by 1024 (as ``Model``'s fixed loss scale): which
    float16 gradients overflow (per Parameter: non-finite count) and the finite values."""
    net, x, y, loss_fn = _shuffle_block(ms)
    amp_net = ms.amp.auto_mixed_precision(net, "O3")
    xt, yt = ms.Tensor(x), ms.Tensor(y)

    def fn(a, b):
        return loss_fn(amp_net(a).astype(ms.float32), b) * 1024.0

    loss, grads = ms.value_and_grad(fn, None, net.trainable_params())(xt, yt)
    arrays = [g.asnumpy().astype(np.float32) for g in grads]
    return {"loss": loss, "nonfinite": [int((~np.isfinite(a)).sum()) for a in arrays],
            "finite": [np.where(np.isfinite(a), a, 0).astype(np.float32) for a in arrays]}
