"""Golden cases: NaN and +-inf through activations and pooling, float32 and float16 (issue 36).

MindSpore's CPU kernels decide what a NaN becomes: ReLU/ReLU6 give 0 (``x > 0 ? x : 0``),
HSwish gives 0 for -inf (its piecewise definition), MaxPool drops a NaN that a later tap of the
window follows, MaxPool3DWithArgmax propagates it, MaxPoolWithArgmaxV2 skips it, AdaptiveMaxPool2D
keeps it only as a window's first element, and adaptive average pooling keeps it inside its
windows. Gradients are of ``sum(out)`` (which tap of a pooling window receives it). Ops whose CPU
kernel differs from MindSpore's documentation here (Hardtanh, Softplus, Mish, Softmax with NaN)
follow the documentation and are not recorded: docs/differences.md.

Every ``case_<name>(ms)`` uses only the module passed in.
"""
import numpy as np

# MindSpore rounds tanh(7) to 1 (its gradient 1 - y*y is 0, the analytic one 3e-6)
ATOL = 1e-5

NAN, INF = float("nan"), float("inf")
V = [NAN, 1.0, -INF, INF, -1.0, 0.0, 7.0, -7.0]
# 2x2 windows (row-major taps a, b, c, d) that tell the kernels' NaN rules apart
WINDOWS = [[NAN, 1, 2, 3], [1, NAN, 3, 2], [3, NAN, 1, 2], [1, 2, NAN, 3], [3, 2, 1, NAN], [-INF] * 4,
           [NAN, -INF, -INF, -INF], [2, 1, NAN, 0], [NAN] * 4, [-INF, NAN, -INF, -INF], [5, NAN, 5, NAN]]
# a 4x4 plane for padded and overlapping windows
PLANE = [NAN, 1, 1, NAN, NAN, -INF, -INF, NAN, NAN, NAN, -INF, INF, INF, NAN, -1, -INF]


def _windows():
    x = np.zeros((1, 1, 2, 2 * len(WINDOWS)), np.float32)
    for i, w in enumerate(WINDOWS):
        x[0, 0, :, 2 * i:2 * i + 2] = np.array(w, np.float32).reshape(2, 2)
    return x


def _both(ms, fn, x, grad=True):
    """fn on float32 (with the gradient of sum(out)) and on float16."""
    out = {}
    for name, dt in (("f32", ms.float32), ("f16", ms.float16)):
        t = ms.Tensor(np.array(x, np.float32), dt)
        out[name] = fn(t)
    if grad:
        out["grad"] = ms.grad(lambda t: fn(t).sum())(ms.Tensor(np.array(x, np.float32), ms.float32))
    return out


def _act(ms, fn):
    return _both(ms, fn, V)


def case_relu(ms):
    return _act(ms, ms.nn.ReLU())


def case_relu_functional(ms):
    return _act(ms, ms.ops.relu)


def case_relu6(ms):
    return _act(ms, ms.nn.ReLU6())


def case_hswish(ms):
    return _act(ms, ms.nn.HSwish())


def case_hsigmoid(ms):
    return _act(ms, ms.nn.HSigmoid())


def case_leaky_relu_prelu(ms):
    return [_act(ms, ms.nn.LeakyReLU(0.2)), _both(ms, ms.nn.PReLU(), V, grad=False)]


def case_elu_celu_selu(ms):
    return [_act(ms, ms.nn.ELU()), _act(ms, ms.nn.CELU()), _act(ms, ms.nn.SeLU())]


def case_gelu(ms):
    return [_act(ms, ms.nn.GELU()), _act(ms, ms.nn.GELU(approximate=False))]


def case_sigmoid_tanh_silu(ms):
    return [_act(ms, ms.nn.Sigmoid()), _act(ms, ms.nn.Tanh()), _act(ms, ms.nn.SiLU())]


def case_shrinks_threshold(ms):
    return [_act(ms, ms.nn.SoftShrink()), _act(ms, ms.nn.HShrink()), _both(ms, ms.nn.Threshold(0.5, 9.0), V)]


def case_softsign_tanhshrink(ms):
    return [_act(ms, ms.nn.Softsign()), _act(ms, ms.nn.Tanhshrink())]


def case_sign(ms):
    return _both(ms, ms.ops.sign, V, grad=False)


# ----------------------------------------------------------------- max pooling
def _pool(ms, fn):
    return _both(ms, fn, _windows())


def case_maxpool2d(ms):
    """MaxPool: ``m = m > x ? m : x`` over the taps; the gradient skips NaN."""
    return _pool(ms, ms.nn.MaxPool2d(2, 2))


def case_maxpool2d_same(ms):
    return [_pool(ms, ms.nn.MaxPool2d(2, 2, pad_mode="same")),
            _both(ms, ms.nn.MaxPool2d(3, 2, pad_mode="same"), np.reshape(PLANE, (1, 1, 4, 4)))]


def case_maxpool2d_pad(ms):
    """pad_mode='pad' is MaxPool3DWithArgmax: NaN propagates, the gradient goes to the last NaN."""
    return [_pool(ms, ms.nn.MaxPool2d(2, 2, pad_mode="pad", padding=0)),
            _both(ms, ms.nn.MaxPool2d(2, 2, pad_mode="pad", padding=1), np.reshape(PLANE, (1, 1, 4, 4)))]


def case_maxpool1d(ms):
    return _both(ms, ms.nn.MaxPool1d(2, 2), np.reshape(PLANE, (1, 1, 16)))


def case_maxpool3d(ms):
    return [_pool(ms, lambda t: ms.nn.MaxPool3d((1, 2, 2), (1, 2, 2))(t.expand_dims(2)).squeeze(2)),
            _pool(ms, lambda t: ms.nn.MaxPool3d((1, 2, 2), (1, 2, 2), pad_mode="pad")(t.expand_dims(2)).squeeze(2))]


def case_max_pool2d_functional(ms):
    """ops.max_pool2d is MaxPoolWithArgmaxV2: NaN skipped, from the dtype's lowest value."""
    return _pool(ms, lambda t: ms.ops.max_pool2d(t, 2, 2))


def case_maxpool_primitive(ms):
    return _pool(ms, ms.ops.MaxPool(2, 2))


def case_max_pool_with_argmax(ms):
    out = _pool(ms, lambda t: ms.ops.MaxPoolWithArgmax(2, 2)(t)[0])
    out["mask"] = ms.ops.MaxPoolWithArgmax(2, 2)(ms.Tensor(_windows()))[1]
    return out


def case_adaptive_max_pool(ms):
    """AdaptiveMaxPool1d pools with MaxPool; AdaptiveMaxPool2d/3d keep NaN only as a window's first."""
    return [_both(ms, ms.nn.AdaptiveMaxPool1d(8), np.reshape(PLANE, (1, 1, 16))),
            _pool(ms, ms.nn.AdaptiveMaxPool2d((1, len(WINDOWS)))),
            ms.ops.adaptive_max_pool2d(ms.Tensor(_windows()), (1, len(WINDOWS)), True)[1]]


# ----------------------------------------------------------------- average and Lp pooling
def case_avg_pools(ms):
    plane = np.reshape(PLANE, (1, 1, 4, 4))
    return [_both(ms, ms.nn.AvgPool2d((1, 2), (1, 2)), np.reshape(PLANE, (1, 1, 1, 16))),
            _both(ms, ms.nn.AvgPool2d(3, 2, pad_mode="same"), plane),
            _both(ms, ms.nn.AvgPool2d(2, 2, pad_mode="pad", padding=1), plane),
            _both(ms, ms.nn.AvgPool1d(2, 2), np.reshape(PLANE, (1, 1, 16)))]


def case_adaptive_avg_pools(ms):
    """Each window's own elements only: a NaN or inf does not reach the other windows."""
    return [_both(ms, ms.nn.AdaptiveAvgPool1d(8), np.reshape(PLANE, (1, 1, 16))),
            _both(ms, ms.nn.AdaptiveAvgPool2d((1, 8)), np.reshape(PLANE, (1, 1, 1, 16))),
            _both(ms, ms.nn.AdaptiveAvgPool2d((3, 3)), np.reshape(PLANE, (1, 1, 4, 4))),
            _both(ms, ms.nn.AdaptiveAvgPool3d((1, 1, 8)), np.reshape(PLANE, (1, 1, 1, 1, 16)))]


def case_lp_pools(ms):
    """LPPool is sign(s) * relu(|s|) of the window sums s: a NaN window gives 0."""
    return [_both(ms, ms.nn.LPPool1d(2, 2, 2), np.reshape(PLANE, (1, 1, 16)), grad=False),
            _both(ms, ms.nn.LPPool2d(2, (1, 2), (1, 2)), np.reshape(PLANE, (1, 1, 1, 16)), grad=False)]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
