"""Elementwise math beyond the basics: ``DivNoNan``, ``MulNoNan``, ``Mod``, ``hypot``,
``heaviside``, ``lcm``, ``logit``, ``nan_to_num``, ``lgamma``/``digamma``, ``igamma``/``igammac``,
the Bessel functions, ``L2Loss``, ``cdist``, ``einsum``.

Dtype rules are MindSpore 2.10's on CPU (``tests/golden/ops_extra_pynative.json``): ``DivNoNan``
and ``hypot`` take float Tensors only, ``lcm`` Int32/Int64 only; ``Mod`` is C's ``fmod``.
``Einsum`` has no CPU kernel in MindSpore; here it is ``jnp.einsum``.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np

from ..._core.registry import op
from ._util import arr
from .math import _binary, _binop, _dn, _float_fn, _float_input, _need_tensor, _out, _rtype, _unary


def _type_error(prim, arg, allowed, x):
    names = ", ".join(f"Tensor[{a}]" for a in allowed)
    raise TypeError(f"For primitive[{prim}], the input argument[{arg}] must be a type of {{{names}}}, "
                    f"but got Tensor[{_dn(x)}].")


def _only(prim, allowed, compute):
    def checked(x, y, name):
        for argname, a in (("x1", x), ("x2", y)):
            if hasattr(a, "dtype") and not getattr(a, "weak_type", False) and _dn(jnp.asarray(a)) not in allowed:
                _type_error(prim, argname, allowed, jnp.asarray(a))
        return compute(x, y, name)
    return checked


def _div_no_nan(x, y, name):
    t = _rtype(x, y)
    if not jnp.issubdtype(t, jnp.inexact):
        raise TypeError(f"Select CPU operator[DivNoNan] fail! Unsupported data type! The supported data types are "
                        f"Float16, Float32, Float64, Complex64, Complex128, but get input[{_dn(jnp.zeros((), t))}].")
    x, y = jnp.asarray(x, t), jnp.asarray(y, t)
    zero = y == 0
    return _binop(name, lambda a, b: jnp.where(zero, jnp.zeros((), t), a / jnp.where(zero, jnp.ones((), t), b)), x, y)


@jax.custom_vjp
def _mul_no_nan_k(x, y):
    return jnp.where(y == 0, jnp.zeros((), x.dtype), x * y)


def _mnn_fwd(x, y):
    return _mul_no_nan_k(x, y), (x, y)


def _unbroadcast(g, shape):
    while g.ndim > len(shape):
        g = g.sum(0)
    return g.sum(tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1), keepdims=True).reshape(shape)


def _mnn_bwd(res, g):
    x, y = res
    gx = jnp.where(y == 0, jnp.zeros((), g.dtype), g * y)     # MindSpore: mul_no_nan(dout, y)
    gy = jnp.where(g == 0, jnp.zeros((), g.dtype), x * g)     # mul_no_nan(x, dout)
    return _unbroadcast(gx, x.shape), _unbroadcast(gy, y.shape)


_mul_no_nan_k.defvjp(_mnn_fwd, _mnn_bwd)


def _mul_no_nan(x, y, name):
    t = _rtype(x, y)
    x, y = jnp.asarray(x, t), jnp.asarray(y, t)
    x, y = _binop(name, jnp.broadcast_arrays, x, y)
    return _mul_no_nan_k(x, y)


def _lcm(x, y, name):
    return _binop(name, jnp.lcm, x, y)


def _heaviside(x, y, name):
    return _binop(name, lambda a, v: jnp.where(a == 0, v, (a > 0).astype(_rtype(a, v))), x, y)


div_no_nan = _binary("prim_div_no_nan", _div_no_nan, "DivNoNan", (),
                     "``ops.DivNoNan()(x, y)``: ``x / y``, 0 where ``y == 0`` (float Tensors).")
mul_no_nan = _binary("prim_mul_no_nan", _mul_no_nan, "MulNoNan", (),
                     "``ops.MulNoNan()(x, y)``: ``x * y``, 0 where ``y == 0`` (even if ``x`` is inf or nan).")
mod = _binary("prim_mod", lambda x, y, name: _binop(name, jnp.fmod, x, y), "Mod", (),
              "``ops.Mod()(x, y)``: C's ``fmod`` (the result has the sign of ``x``).")
hypot = _binary("hypot", _only("Hypot", ("Float32", "Float64"), lambda x, y, name: _binop(name, jnp.hypot, x, y)),
                "Hypot", "hypot", "``ops.hypot(input, other)``: ``sqrt(input**2 + other**2)`` (Float32/Float64).")
heaviside = _binary("heaviside", _heaviside, "Heaviside", "heaviside",
                    "``ops.heaviside(input, values)``: 0 below 0, 1 above, ``values`` at 0.")
lcm = _binary("lcm", _only("Lcm", ("Int32", "Int64"), _lcm), "Lcm", "lcm",
              "``ops.lcm(input, other)``: Int32/Int64 Tensors.")
igamma = _binary("igamma", lambda x, y, name: _binop(name, jsp.gammainc, x, y), "Igamma", "igamma",
                 "``ops.igamma(input, other)``: regularized lower incomplete gamma P(input, other).")
igammac = _binary("igammac", lambda x, y, name: _binop(name, jsp.gammaincc, x, y), "Igammac", "igammac",
                  "``ops.igammac(input, other)``: regularized upper incomplete gamma Q(input, other).")


@op("logit", primitive="Logit", prim_args=("eps",), methods="logit", family="math")
def logit(input, eps=None):
    """``ops.logit(input, eps=None)``: ``log(x / (1 - x))``, ``x`` clipped to ``[eps, 1 - eps]`` when
    ``eps`` is given (a negative ``eps``, the Primitive's default -1.0, means no clipping)."""
    _need_tensor("logit", "input", input)
    x = input._data
    _float_input("logit", x)
    if eps is not None and eps >= 0:
        x = jnp.clip(x, jnp.asarray(eps, x.dtype), jnp.asarray(1 - eps, x.dtype))
    return _out(jnp.log(x / (1 - x)))


@op("nan_to_num", primitive="NanToNum", prim_args=("nan", "posinf", "neginf"), methods="nan_to_num",
    family="math")
def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """``ops.nan_to_num(input, nan=0.0, posinf=None, neginf=None)``: inf/-inf default to the dtype's
    largest/lowest finite value."""
    _need_tensor("nan_to_num", "input", input)
    x = input._data
    _float_input("nan_to_num", x)
    return _out(jnp.nan_to_num(x, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf))


lgamma = _unary("lgamma", _float_fn(jsp.gammaln), "Lgamma", "lgamma", "``ops.lgamma(input)``: ``log|Gamma(input)|``.")
def _digamma(x):
    # the pole at zero is -1/x as in MindSpore (-inf at +0, +inf at -0); jax gives NaN
    return jnp.where(x == 0, -1.0 / x, jsp.digamma(x))


digamma = _unary("digamma", _float_fn(_digamma), "Digamma", "digamma", "``ops.digamma(input)``: ``d/dx lgamma``.")
bessel_i0 = _unary("bessel_i0", _float_fn(jsp.i0), "BesselI0", "i0")
bessel_i1 = _unary("bessel_i1", _float_fn(jsp.i1), "BesselI1", ())
bessel_i0e = _unary("bessel_i0e", _float_fn(jsp.i0e), "BesselI0e", ())
bessel_i1e = _unary("bessel_i1e", _float_fn(jsp.i1e), "BesselI1e", ())


# Bessel functions of the first kind: power series for |x| <= 12 and Hankel's asymptotic
# expansion above, evaluated in float64 (at least) and rounded to the input dtype.
def _jn_series(x, n):
    h2 = -(x / 2) ** 2
    term = (x / 2) ** n / float(np.prod(np.arange(1, n + 1)) if n else 1.0)
    total = term
    for k in range(1, 60):
        term = term * h2 / (k * (k + n))
        total = total + term
    return total


def _jn_asym(x, n):
    mu = 4.0 * n * n
    p, q, a = jnp.ones_like(x), jnp.zeros_like(x), jnp.ones_like(x)
    for k in range(1, 24):
        a = a * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        sign = (-1) ** (k // 2)
        if k % 2:
            q = q + sign * a
        else:
            p = p + sign * a
    chi = x - (n / 2 + 0.25) * np.pi
    return jnp.sqrt(2 / (np.pi * x)) * (p * jnp.cos(chi) - q * jnp.sin(chi))


def _jn(x, n):
    ax = jnp.abs(x)
    small = ax <= 12
    v = jnp.where(small, _jn_series(jnp.where(small, ax, 0.0), n), _jn_asym(jnp.where(small, 13.0, ax), n))
    return v if n == 0 else jnp.sign(x) * v


def _wide(x):
    return x.astype(jnp.float64) if jax.config.jax_enable_x64 else x


@jax.custom_jvp
def _j0(x):
    return _jn(_wide(x), 0).astype(x.dtype)


@jax.custom_jvp
def _j1(x):
    return _jn(_wide(x), 1).astype(x.dtype)


@_j0.defjvp
def _j0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _j0(x), -_j1(x) * t


@_j1.defjvp
def _j1_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    safe = jnp.where(x == 0, jnp.ones_like(x), x)
    d = jnp.where(x == 0, jnp.asarray(0.5, x.dtype), _j0(x) - _j1(x) / safe)
    return _j1(x), d * t


bessel_j0 = _unary("bessel_j0", _float_fn(_j0), "BesselJ0", ())
bessel_j1 = _unary("bessel_j1", _float_fn(_j1), "BesselJ1", ())


@op("prim_l2_loss", primitive="L2Loss", family="loss")
def l2_loss(input):
    """``ops.L2Loss()(x)``: ``sum(x ** 2) / 2``, a scalar of ``x``'s dtype."""
    _need_tensor("L2Loss", "input", input)
    x = input._data
    _float_input("L2Loss", x)
    return _out(jnp.sum(x * x) / 2)


@op("cdist", primitive="Cdist", prim_args=("p",), family="math")
def cdist(x1, x2, p=2.0):
    """``ops.cdist(x1, x2, p=2.0)``: p-norm distances between the rows of ``x1`` (B, P, M) and ``x2``
    (B, R, M); ``p=0`` counts differing coordinates, ``p=inf`` is the largest difference."""
    _need_tensor("cdist", "x1", x1)
    _need_tensor("cdist", "x2", x2)
    a, b = x1._data, x2._data
    _float_input("cdist", a, "x1")
    if a.ndim != b.ndim or a.ndim not in (2, 3):
        raise ValueError(f"For 'cdist', rank of input_x and input_y must be 2 or 3 and equal, but got "
                         f"{a.ndim} and {b.ndim}.")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"For 'cdist', the last dimensions of x1 and x2 must be the same, but got "
                         f"{a.shape[-1]} and {b.shape[-1]}.")
    if p < 0:
        raise ValueError(f"For 'cdist', p must be a non-negative value, but got {p}.")
    d = a[..., :, None, :] - b[..., None, :, :]
    ad = jnp.abs(d)
    if p == 0:
        return _out(jnp.sum((ad != 0).astype(a.dtype), -1))
    if np.isinf(p):
        return _out(jnp.max(ad, -1))
    if p == 2.0:
        s = jnp.sum(d * d, -1)
        safe = jnp.where(s == 0, jnp.ones_like(s), s)
        return _out(jnp.where(s == 0, jnp.zeros_like(s), jnp.sqrt(safe)))
    if p == 1.0:
        return _out(jnp.sum(ad, -1))
    s = jnp.sum(ad ** p, -1)
    safe = jnp.where(s == 0, jnp.ones_like(s), s)
    return _out(jnp.where(s == 0, jnp.zeros_like(s), safe ** (1.0 / p)))


@op("einsum", family="math")
def einsum(equation, *operands):
    """``ops.einsum(equation, *operands)`` (MindSpore 2.10's CPU build has no Einsum kernel; this is
    ``jnp.einsum``)."""
    if not isinstance(equation, str):
        raise TypeError(f"For 'Einsum', the 'equation' must be a str, but got {type(equation).__name__}.")
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    return _out(jnp.einsum(equation.replace(" ", ""), *(arr(o) for o in operands)))


def _check_equation(equation=None):
    if not isinstance(equation, str):
        raise TypeError(f"For 'Einsum', the 'equation' must be a str, but got {type(equation).__name__}.")


@op("prim_einsum", primitive="Einsum", prim_args=("equation",), family="math", prim_check=_check_equation)
def prim_einsum(operands, equation):
    """``ops.Einsum(equation)((a, b, ...))``: the operands come as one tuple."""
    return einsum(equation, *operands)
