"""Golden cases: activation ops (functional, Primitive, Tensor method) and the activation Cells.

Every ``case_<name>(ms)`` uses only the module passed in. Inputs are fixed values chosen away
from the kinks of the piecewise ops (0, +-0.5, +-1, +-3, 6); gradients are taken of
``sum(out * c)`` for a fixed ``c`` so every output element matters. RReLU (random) and
LogSoftmaxExt (no CPU kernel in MindSpore 2.10) are tested in tests/test_losses.py.

Name prefixes: f_ functional ops, p_ Primitives, m_ Tensor methods, c_ Cells, d_ dtypes,
i_ integer inputs, err_ errors.
"""
import numpy as np

# MindSpore's CPU LogSoftmax along a non-last axis is accurate to ~3e-6 only.
ATOL = 1e-5

X = [[-2.7, -1.3, -0.6, -0.2], [0.15, 0.7, 1.6, 2.4]]
XW = [[-4.2, -2.1, 0.4, 2.9], [5.3, 7.1, -0.8, 1.3]]
C = [[0.3, -1.2, 0.7, 2.0], [-0.4, 1.1, 0.9, -1.7]]


def _t(ms, v=X, dt=np.float32):
    return ms.Tensor(np.array(v, dt))


def _fg(ms, fn, v=X, dt=np.float32):
    """(fn(x), d/dx sum(fn(x) * c))."""
    x = _t(ms, v, dt)
    out = fn(x)
    c = ms.Tensor(np.array(C, dt)[:, :out.shape[-1]] if out.ndim == 2 and out.shape[0] == 2 else
                  np.ones(out.shape, dt))

    def loss(a):
        return (fn(a) * c).sum()
    return {"out": out, "grad": ms.grad(loss)(x)}


def _dt(ms, fn, dt, v=X):
    """dtype and shape only (Float16 values differ in the last bit between kernels)."""
    out = fn(_t(ms, v, dt))
    return str(out.dtype), list(out.shape)


# ===========================================================================
# functional ops, Float32, with gradients
# ===========================================================================
def case_f_relu(ms):
    return _fg(ms, ms.ops.relu)


def case_f_relu6(ms):
    return _fg(ms, ms.ops.relu6, XW)


def case_f_leaky_relu(ms):
    return _fg(ms, ms.ops.leaky_relu)


def case_f_leaky_relu_alpha(ms):
    return _fg(ms, lambda x: ms.ops.leaky_relu(x, 0.05)), _fg(ms, lambda x: ms.ops.leaky_relu(x, 1.5))


def case_f_elu(ms):
    return _fg(ms, ms.ops.elu)


def case_f_gelu(ms):
    return _fg(ms, ms.ops.gelu), _fg(ms, lambda x: ms.ops.gelu(x, approximate="tanh"))


def case_f_fast_gelu(ms):
    return _fg(ms, ms.ops.fast_gelu)


def case_f_silu(ms):
    return _fg(ms, ms.ops.silu)


def case_f_mish(ms):
    return _fg(ms, ms.ops.mish)


def case_f_selu(ms):
    return _fg(ms, ms.ops.selu)


def case_f_celu(ms):
    return _fg(ms, ms.ops.celu), _fg(ms, lambda x: ms.ops.celu(x, 0.5))


def case_f_hardswish(ms):
    return _fg(ms, ms.ops.hardswish, XW)


def case_f_hardsigmoid(ms):
    return _fg(ms, ms.ops.hardsigmoid, XW)


def case_f_hardtanh(ms):
    return _fg(ms, ms.ops.hardtanh), _fg(ms, lambda x: ms.ops.hardtanh(x, -2, 2.0))


def case_f_sigmoid(ms):
    return _fg(ms, ms.ops.sigmoid)


def case_f_tanh(ms):
    return _fg(ms, ms.ops.tanh)


def case_f_softplus(ms):
    return _fg(ms, ms.ops.softplus), _fg(ms, lambda x: ms.ops.softplus(x, beta=2, threshold=3), XW)


def case_f_softsign(ms):
    return _fg(ms, ms.ops.softsign)


def case_f_logsigmoid(ms):
    return _fg(ms, ms.ops.logsigmoid)


def case_f_glu(ms):
    return _fg(ms, ms.ops.glu), _fg(ms, lambda x: ms.ops.glu(x, axis=0))


def case_f_prelu(ms):
    w = ms.Tensor(np.array([0.1, 0.2, 0.3, 0.4], np.float32))
    x = _t(ms)
    out = ms.ops.prelu(x, w)
    gx, gw = ms.grad(lambda a, b: (ms.ops.prelu(a, b) * _t(ms, C)).sum(), grad_position=(0, 1))(x, w)
    return out, gx, gw


def case_f_prelu_shared_weight(ms):
    w = ms.Tensor(np.array([0.25], np.float32))
    x = ms.Tensor(np.array(X, np.float32).reshape(2, 2, 2))
    out = ms.ops.prelu(x, w)
    gx, gw = ms.grad(lambda a, b: ms.ops.prelu(a, b).sum(), grad_position=(0, 1))(x, w)
    return out, gx, gw


def case_f_prelu_1d_and_nd(ms):
    x1 = ms.Tensor(np.array([-1.0, 2.0, -3.0], np.float32))
    x3 = ms.Tensor(np.array(X, np.float32).reshape(1, 2, 4))
    return (ms.ops.prelu(x1, ms.Tensor(np.array([0.1], np.float32))),
            ms.ops.prelu(x3, ms.Tensor(np.array([0.1, 0.2], np.float32))))


def case_f_softmax(ms):
    return (_fg(ms, ms.ops.softmax), _fg(ms, lambda x: ms.ops.softmax(x, axis=0)),
            _fg(ms, lambda x: ms.ops.softmax(x, 0, dtype=ms.float64)))


def case_f_log_softmax(ms):
    return _fg(ms, ms.ops.log_softmax), _fg(ms, lambda x: ms.ops.log_softmax(x, 0))


def case_f_softmin(ms):
    return _fg(ms, ms.ops.softmin), _fg(ms, lambda x: ms.ops.softmin(x, axis=0))


def case_f_softmax_3d(ms):
    x = np.array(X + XW, np.float32).reshape(2, 2, 4)
    return (_fg(ms, lambda a: ms.ops.softmax(a, axis=1), x), _fg(ms, lambda a: ms.ops.log_softmax(a, 1), x))


def case_f_threshold(ms):
    return _fg(ms, lambda x: ms.ops.threshold(x, 0.3, 20)), _fg(ms, lambda x: ms.ops.threshold(x, -1, -7.5))


def case_f_hardshrink(ms):
    return _fg(ms, ms.ops.hardshrink), _fg(ms, lambda x: ms.ops.hardshrink(x, 1.5))


def case_f_softshrink(ms):
    return _fg(ms, ms.ops.softshrink), _fg(ms, lambda x: ms.ops.softshrink(x, lambd=1.5))


def case_f_tanhshrink(ms):
    return _fg(ms, ms.ops.tanhshrink)


# ===========================================================================
# Primitives and Tensor methods
# ===========================================================================
def case_p_relu_family(ms):
    o = ms.ops
    return (_fg(ms, o.ReLU()), _fg(ms, o.ReLU6(), XW), _fg(ms, o.Elu()), _fg(ms, o.SeLU()),
            _fg(ms, o.CeLU(alpha=2.0)), _fg(ms, o.HSwish(), XW), _fg(ms, o.HSigmoid(), XW))


def case_p_smooth_family(ms):
    o = ms.ops
    return (_fg(ms, o.GeLU()), _fg(ms, o.FastGeLU()), _fg(ms, o.Sigmoid()), _fg(ms, o.Tanh()),
            _fg(ms, o.Softplus()), _fg(ms, o.Softsign()), _fg(ms, o.Mish()))


def case_p_softmax(ms):
    o = ms.ops
    return (_fg(ms, o.Softmax()), _fg(ms, o.Softmax(axis=0)), _fg(ms, o.Softmax((0,))),
            _fg(ms, o.LogSoftmax()), _fg(ms, o.LogSoftmax(0)))


def case_p_shrink_glu(ms):
    o = ms.ops
    return (_fg(ms, o.HShrink()), _fg(ms, o.HShrink(lambd=1.5)), _fg(ms, o.SoftShrink(1.5)),
            _fg(ms, o.GLU()), _fg(ms, o.GLU(axis=0)))


def case_p_prelu(ms):
    w = ms.Tensor(np.array([0.1, 0.2, 0.3, 0.4], np.float32))
    return _fg(ms, lambda x: ms.ops.PReLU()(x, w))


def case_m_methods(ms):
    x = _t(ms)
    return x.sigmoid(), x.tanh(), x.softmax(0), x.softmax(-1), x.hardshrink(), x.hardshrink(1.5)


def case_m_softmax_dtype(ms):
    return _t(ms).softmax(1, ms.float64)


# ===========================================================================
# dtypes
# ===========================================================================
def case_d_float64_values(ms):
    o = ms.ops
    x = _t(ms, X, np.float64)
    return (o.relu(x), o.leaky_relu(x), o.elu(x), o.gelu(x), o.gelu(x, "tanh"), o.silu(x), o.mish(x),
            o.selu(x), o.celu(x), o.hardswish(x), o.hardsigmoid(x), o.hardtanh(x), o.sigmoid(x), o.tanh(x),
            o.softplus(x), o.softsign(x), o.logsigmoid(x), o.glu(x), o.softmax(x), o.log_softmax(x),
            o.softmin(x), o.threshold(x, 0.3, 2), o.tanhshrink(x))


def case_d_float64_grads(ms):
    o = ms.ops
    return (_fg(ms, o.gelu, X, np.float64), _fg(ms, o.softmax, X, np.float64),
            _fg(ms, o.mish, X, np.float64), _fg(ms, o.logsigmoid, X, np.float64))


def case_d_float16(ms):
    o = ms.ops
    f16 = np.float16
    return [_dt(ms, fn, f16) for fn in (o.relu, o.relu6, o.leaky_relu, o.elu, o.gelu, o.fast_gelu, o.silu,
                                        o.mish, o.selu, o.celu, o.hardswish, o.hardsigmoid, o.hardtanh,
                                        o.sigmoid, o.tanh, o.softplus, o.softsign, o.logsigmoid, o.glu,
                                        o.softmax, o.log_softmax, o.softmin, o.hardshrink, o.softshrink,
                                        o.tanhshrink)]


def case_d_prelu_mixed(ms):
    x = _t(ms)
    return ms.ops.prelu(x, ms.Tensor(np.array([0.1, 0.2, 0.3, 0.4], np.float16))).dtype == ms.float32


# ===========================================================================
# integer inputs
# ===========================================================================
IV = [-5, -2, -1, 0, 1, 2, 3, 7, -7]


def case_i_int32(ms):
    o = ms.ops
    x = _t(ms, IV, np.int32)
    return (o.relu(x), o.hardswish(x), o.hardsigmoid(x), o.selu(x), o.tanhshrink(x[1:7]), o.leaky_relu(x),
            o.leaky_relu(x, 1.5), o.hardtanh(x), o.hardtanh(x, -2, 4), o.threshold(x, 0.5, 9),
            o.threshold(x, 1, 2.7), o.ReLU()(x), o.HSwish()(x))


def case_i_int64(ms):
    o = ms.ops
    x = _t(ms, IV, np.int64)
    return o.relu(x), o.hardswish(x), o.hardsigmoid(x), o.tanhshrink(x[1:7]), o.hardtanh(x)


# ===========================================================================
# Cells
# ===========================================================================
def _cell(ms, net, v=X, dt=np.float32):
    x = _t(ms, v, dt)
    out = net(x)
    c = ms.Tensor(np.array(C, dt)[:, :out.shape[-1]] if out.ndim == 2 and out.shape[0] == 2 else
                  np.ones(out.shape, dt))
    return {"out": out, "grad": ms.grad(lambda a: (net(a) * c).sum())(x)}


def case_c_basic(ms):
    nn = ms.nn
    return [_cell(ms, c) for c in (nn.ReLU(), nn.Sigmoid(), nn.Tanh(), nn.SiLU(), nn.SeLU(), nn.Mish(),
                                   nn.Softsign(), nn.Tanhshrink(), nn.LogSigmoid(), nn.FastGelu(), nn.ELU(),
                                   nn.CELU(), nn.CELU(alpha=0.7))]


def case_c_piecewise(ms):
    nn = ms.nn
    return [_cell(ms, c, XW) for c in (nn.ReLU6(), nn.HSwish(), nn.HSigmoid(), nn.Hardtanh(),
                                       nn.Hardtanh(-2.0, 2.5), nn.LeakyReLU(), nn.LeakyReLU(alpha=0.01))]


def case_c_gelu(ms):
    nn = ms.nn
    return _cell(ms, nn.GELU()), _cell(ms, nn.GELU(approximate=False))


def case_c_softmax(ms):
    nn = ms.nn
    return (_cell(ms, nn.Softmax()), _cell(ms, nn.Softmax(0)), _cell(ms, nn.LogSoftmax()),
            _cell(ms, nn.LogSoftmax(axis=0)), _cell(ms, nn.Softmin()), _cell(ms, nn.Softmin(0)))


def case_c_softmax2d(ms):
    x = np.array(X + XW, np.float32).reshape(1, 2, 2, 4)
    net = ms.nn.Softmax2d()
    t = ms.Tensor(x)
    c = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 4) / 7)
    return net(t), ms.grad(lambda a: (net(a) * c).sum())(t), net(ms.Tensor(x[0]))


def case_c_shrink_threshold(ms):
    nn = ms.nn
    return (_cell(ms, nn.SoftShrink()), _cell(ms, nn.SoftShrink(1.5)), _cell(ms, nn.HShrink()),
            _cell(ms, nn.HShrink(lambd=1.5)), _cell(ms, nn.Threshold(0.3, 20)),
            _cell(ms, nn.Threshold(-1, -7.5)))


def case_c_glu(ms):
    return _cell(ms, ms.nn.GLU()), _cell(ms, ms.nn.GLU(axis=0))


def case_c_prelu(ms):
    net = ms.nn.PReLU(channel=4, w=[0.1, 0.2, 0.3, 0.4])
    x = _t(ms)
    c = _t(ms, C)
    fn = lambda a: (net(a) * c).sum()  # noqa: E731
    gx = ms.grad(fn)(x)
    gw = ms.grad(fn, grad_position=None, weights=net.trainable_params())(x)
    return net(x), gx, gw, net.w


def case_c_prelu_default(ms):
    net = ms.nn.PReLU()
    x = ms.Tensor(np.array(X, np.float32).reshape(2, 2, 2))
    gw = ms.grad(lambda a: net(a).sum(), grad_position=None, weights=net.trainable_params())(x)
    return net(x), gw, net.w, net.w.name


def case_c_prelu_init(ms):
    nn = ms.nn
    return (nn.PReLU(channel=3, w=0.1).w, nn.PReLU(channel=2, w=ms.Tensor(np.array([0.5, 0.6], np.float32))).w,
            nn.PReLU(2, np.float32(0.3)).w)


def case_c_prelu_ext(ms):
    net = ms.nn.PReLUExt()
    x = _t(ms)
    gw = ms.grad(lambda a: net(a).sum(), grad_position=None, weights=net.trainable_params())(x)
    return net(x), gw, net.weight, net.weight.name, ms.nn.PReLUExt(4, 0.1).weight


def case_c_get_activation(ms):
    nn = ms.nn
    x = _t(ms)
    out = {}
    for name in ("softmin", "softmax", "logsoftmax", "relu", "relu6", "silu", "tanh", "tanhshrink",
                 "hardtanh", "gelu", "fast_gelu", "elu", "sigmoid", "softsign", "prelu", "leakyrelu", "hswish",
                 "hsigmoid", "logsigmoid", "softshrink", "hshrink", "mish"):
        cell = nn.get_activation(name)
        out[name] = (type(cell).__name__, cell(x))
    out["none"] = nn.get_activation(None)
    out["prim"] = type(nn.get_activation("relu", prim_name="Dense")).__name__
    return out


def case_c_get_activation_classes(ms):
    nn = ms.nn
    return [type(nn.get_activation(n)).__name__ for n in ("softmax2d", "rrelu", "preluExt", "logsoftmaxExt")]


def case_c_float64(ms):
    nn = ms.nn
    return [_cell(ms, c, X, np.float64) for c in (nn.ReLU(), nn.GELU(), nn.Softmax(), nn.LogSigmoid(),
                                                  nn.SiLU(), nn.Softmin())]


# ===========================================================================
# errors
# ===========================================================================
def case_err_relu6_float64(ms):
    return ms.ops.relu6(_t(ms, X, np.float64))


def case_err_relu6_int(ms):
    return ms.ops.relu6(_t(ms, IV, np.int32))


def case_err_sigmoid_int(ms):
    return ms.ops.sigmoid(_t(ms, IV, np.int32))


def case_err_tanh_int(ms):
    return ms.ops.tanh(_t(ms, IV, np.int64))


def case_err_softmax_int(ms):
    return ms.ops.softmax(_t(ms, IV, np.int32))


def case_err_gelu_int(ms):
    return ms.ops.gelu(_t(ms, IV, np.int32))


def case_err_gelu_approximate(ms):
    return ms.ops.gelu(_t(ms), approximate="tanhh")


def case_err_fast_gelu_float64(ms):
    return ms.ops.fast_gelu(_t(ms, X, np.float64))


def case_err_softmax_axis_tuple(ms):
    return ms.ops.softmax(_t(ms), axis=(0,))


def case_err_softmax_axis_range(ms):
    return ms.ops.softmax(_t(ms), axis=2)


def case_err_log_softmax_axis_range(ms):
    return ms.ops.log_softmax(_t(ms), axis=5)


def case_err_elu_alpha(ms):
    return ms.ops.elu(_t(ms), alpha=0.5)


def case_err_celu_alpha(ms):
    return ms.ops.celu(_t(ms), alpha=0.0)


def case_err_prelu_weight_len(ms):
    return ms.ops.prelu(_t(ms), ms.Tensor(np.array([0.1, 0.2], np.float32)))


def case_err_prelu_weight_ndim(ms):
    return ms.ops.prelu(_t(ms), ms.Tensor(np.ones((1, 4), np.float32)))


def case_err_prelu_float64(ms):
    return ms.ops.prelu(_t(ms, X, np.float64), ms.Tensor(np.array([0.1], np.float64)))


def case_err_glu_odd(ms):
    return ms.ops.glu(ms.Tensor(np.ones((2, 3), np.float32)))


def case_err_softplus_beta(ms):
    return ms.ops.softplus(_t(ms), beta=0)


def case_err_softplus_int(ms):
    return ms.ops.softplus(_t(ms, IV, np.int32))


def case_err_hardtanh_type(ms):
    return ms.ops.hardtanh(_t(ms), "1")


def case_err_leaky_relu_alpha(ms):
    return ms.ops.leaky_relu(_t(ms), "2")


def case_err_leaky_relu_list(ms):
    return ms.ops.leaky_relu([1.0, -2.0])


def case_err_threshold_type(ms):
    return ms.ops.threshold(_t(ms), "1", 2)


def case_err_hardshrink_float64(ms):
    return ms.ops.hardshrink(_t(ms, X, np.float64))


def case_err_softshrink_lambd(ms):
    return ms.ops.softshrink(_t(ms), lambd=-1.0)


def case_err_mish_int(ms):
    return ms.ops.mish(_t(ms, IV, np.int32))


def case_err_selu_int64(ms):
    return ms.ops.selu(_t(ms, IV, np.int64))


def case_err_hswish_bool(ms):
    return ms.ops.hardswish(ms.Tensor(np.array([True, False])))


def case_err_rrelu_bounds(ms):
    return ms.ops.rrelu(_t(ms), 0.5, 0.2)


def case_err_cell_get_activation(ms):
    return ms.nn.get_activation("foo")


def case_err_cell_gelu_approximate(ms):
    return ms.nn.GELU(approximate=1)


def case_err_cell_hardtanh(ms):
    return ms.nn.Hardtanh(1.0, 0.5)


def case_err_cell_rrelu(ms):
    return ms.nn.RReLU(0.5, 0.2)


def case_err_cell_rrelu_type(ms):
    return ms.nn.RReLU("a", 0.2)


def case_err_cell_prelu_w_int(ms):
    return ms.nn.PReLU(channel=2, w=1)


def case_err_cell_prelu_w_list(ms):
    return ms.nn.PReLU(channel=2, w=[0.1])


def case_err_cell_prelu_w_tensor(ms):
    return ms.nn.PReLU(channel=3, w=ms.Tensor(np.array([0.1, 0.2], np.float32)))


def case_err_cell_softmax2d(ms):
    return ms.nn.Softmax2d()(_t(ms))


def case_err_cell_elu_alpha(ms):
    return ms.nn.ELU(alpha=0.5)(_t(ms))


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
