"""Golden cases for the breadth of ``mindspore.ops``: Primitive classes and
functional names migrating model code hits (Einsum, DivNoNan, Bessel functions,
matrix ops, Inplace*, Apply* optimizer primitives...)."""
import numpy as np


def _t(ms, a, dt=None):
    return ms.Tensor(np.array(a), dt)


# --- elementwise math -------------------------------------------------------

def case_div_no_nan(ms):
    x = _t(ms, [1.0, 2.0, -3.0, 0.0], ms.float32)
    y = _t(ms, [0.0, 4.0, 2.0, 0.0], ms.float32)
    out = ms.ops.DivNoNan()(x, y)
    g = ms.grad(lambda a, b: ms.ops.DivNoNan()(a, b).sum(), (0, 1))(x, y)
    return [out, g]


def case_div_no_nan_int(ms):
    return ms.ops.DivNoNan()(_t(ms, [3, 4, 5], ms.int32), _t(ms, [2, 0, -2], ms.int32))


def case_mul_no_nan(ms):
    x = _t(ms, [1.0, np.inf, np.nan, 2.0], ms.float32)
    y = _t(ms, [0.0, 0.0, 0.0, 3.0], ms.float32)
    out = ms.ops.MulNoNan()(x, y)
    g = ms.grad(lambda a, b: ms.ops.MulNoNan()(a, b).sum(), (0, 1))(_t(ms, [1.0, 2.0], ms.float32),
                                                                    _t(ms, [0.0, 3.0], ms.float32))
    return [out, g]


def case_mod(ms):
    x = _t(ms, [-5.0, 5.0, -5.5, 7.0], ms.float32)
    y = _t(ms, [3.0, -3.0, 2.0, 2.5], ms.float32)
    xi = _t(ms, [-5, 5, -7, 7], ms.int32)
    yi = _t(ms, [3, -3, 2, 4], ms.int32)
    return [ms.ops.Mod()(x, y), ms.ops.Mod()(xi, yi), ms.ops.Mod()(xi, 2.5)]


def case_hypot(ms):
    x = _t(ms, [3.0, 5.0, -8.0], ms.float32)
    y = _t(ms, [4.0, 12.0, 15.0], ms.float32)
    g = ms.grad(lambda a, b: ms.ops.hypot(a, b).sum(), (0, 1))(x, y)
    return [ms.ops.hypot(x, y), ms.ops.Hypot()(x.astype(ms.float64), y.astype(ms.float64)), g]


def case_hypot_int_error(ms):
    return ms.ops.hypot(_t(ms, [3, 5], ms.int32), _t(ms, [4, 12], ms.int32))


def case_heaviside(ms):
    x = _t(ms, [-1.5, 0.0, 2.0, 0.0], ms.float32)
    v = _t(ms, [0.5, 0.5, 0.5, 0.7], ms.float32)
    xi = _t(ms, [-2, 0, 3], ms.int32)
    return [ms.ops.heaviside(x, v), ms.ops.Heaviside()(xi, _t(ms, [9, 9, 9], ms.int32))]


def case_lcm(ms):
    a = _t(ms, [4, 6, -9, 0], ms.int32)
    b = _t(ms, [6, 4, 6, 5], ms.int32)
    return [ms.ops.lcm(a, b), ms.ops.Lcm()(a.astype(ms.int64), b.astype(ms.int64))]


def case_lcm_float_error(ms):
    return ms.ops.lcm(_t(ms, [4.0], ms.float32), _t(ms, [6.0], ms.float32))


def case_logit(ms):
    x = _t(ms, [0.1, 0.5, 0.9, 0.0, 1.0], ms.float32)
    g = ms.grad(lambda a: ms.ops.logit(a, 0.05).sum())(_t(ms, [0.02, 0.5, 0.9], ms.float32))
    return [ms.ops.logit(x), ms.ops.logit(x, eps=0.2), ms.ops.Logit(eps=0.1)(x), g]


def case_nan_to_num(ms):
    x = _t(ms, [np.nan, np.inf, -np.inf, 3.5], ms.float32)
    return [ms.ops.nan_to_num(x), ms.ops.nan_to_num(x, 1.0, 100.0, -100.0),
            ms.ops.NanToNum(nan=2.0, posinf=5.0, neginf=-5.0)(x),
            ms.ops.nan_to_num(x.astype(ms.float16))]


def case_lgamma_digamma(ms):
    x = _t(ms, [0.5, 1.0, 2.5, 7.0, -0.5], ms.float32)
    g = ms.grad(lambda a: ms.ops.lgamma(a).sum())(x)
    return [ms.ops.lgamma(x), ms.ops.Lgamma()(x), ms.ops.digamma(x), ms.ops.Digamma()(x), g]


def case_igamma(ms):
    a = _t(ms, [0.5, 1.0, 2.0, 3.0], ms.float32)
    x = _t(ms, [0.3, 1.0, 1.5, 5.0], ms.float32)
    g = ms.grad(lambda u: ms.ops.igamma(a, u).sum())(x)
    return [ms.ops.igamma(a, x), ms.ops.igammac(a, x), ms.ops.Igamma()(a, x), ms.ops.Igammac()(a, x), g]


def case_bessel(ms):
    x = _t(ms, [-1.5, 0.0, 0.5, 2.0, 10.0], ms.float32)
    return [ms.ops.bessel_i0(x), ms.ops.bessel_i1(x), ms.ops.bessel_i0e(x), ms.ops.bessel_i1e(x),
            ms.ops.bessel_j0(x), ms.ops.bessel_j1(x)]


def case_bessel_prims(ms):
    x = _t(ms, [0.25, 1.0, 3.0], ms.float64)
    return [ms.ops.BesselI0()(x), ms.ops.BesselI1()(x), ms.ops.BesselI0e()(x), ms.ops.BesselI1e()(x),
            ms.ops.BesselJ0()(x), ms.ops.BesselJ1()(x)]


def case_bessel_grad(ms):
    x = _t(ms, [0.5, 2.0], ms.float32)
    return [ms.grad(lambda a: ms.ops.bessel_i0(a).sum())(x), ms.grad(lambda a: ms.ops.bessel_j0(a).sum())(x)]


def case_l2_loss(ms):
    x = _t(ms, [1.0, 2.0, -3.0], ms.float32)
    g = ms.grad(lambda a: ms.ops.L2Loss()(a))(x)
    return [ms.ops.L2Loss()(x), ms.ops.L2Loss()(x.astype(ms.float16)), g]


def case_cdist(ms):
    x = _t(ms, [[[1.0, 1.0], [2.0, 2.0]]], ms.float32)
    y = _t(ms, [[[3.0, 3.0], [3.0, 4.0], [0.0, 1.0]]], ms.float32)
    g = ms.grad(lambda a: ms.ops.cdist(a, y).sum())(x)
    return [ms.ops.cdist(x, y), ms.ops.cdist(x, y, 1.0), ms.ops.Cdist(p=3.0)(x, y), ms.ops.cdist(x[0], y[0]), g]


def case_cdist_inf(ms):
    x = _t(ms, [[1.0, 1.0], [2.0, 5.0]], ms.float32)
    y = _t(ms, [[3.0, 3.0], [0.0, 4.0]], ms.float32)
    return [ms.ops.cdist(x, y, float("inf")), ms.ops.cdist(x, y, 0.0)]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
