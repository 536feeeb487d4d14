"""Special functions: ``lgamma``, ``digamma``, ``mvlgamma``, the regularized incomplete gamma
functions ``igamma``/``igammac`` and the Bessel functions (``bessel_i0/i1/i0e/i1e``,
``bessel_j0/j1``, ``i0``), the Hurwitz ``zeta`` and ``polygamma``, elementwise, on float Tensors (MindSpore 2.10's CPU
dtype rules, like math's)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np

from ..._core import eager
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import arr, wrap
from .math import _alias, _binary, _binop, _dn, _float_fn, _float_input, _unary


igamma = _binary("igamma", lambda x, y, name: _binop(name, jsp.gammainc, x, y), "Igamma", "igamma",
                 "``ops.igamma(input, other)``: regularized lower incomplete gamma P(input, other).")
igammac = _binary("igammac", lambda x, y, name: _binop(name, jsp.gammaincc, x, y), "Igammac", "igammac",
                  "``ops.igammac(input, other)``: regularized upper incomplete gamma Q(input, other).")


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


@op("mvlgamma", methods="mvlgamma", family="math")
def mvlgamma(input, p):
    """``ops.mvlgamma(input, p)``: multivariate log-gamma of dimension ``p``."""
    x = arr(input)
    _float_input("mvlgamma", x)
    j = jnp.arange(p, dtype=x.dtype)
    r = jnp.sum(jax.scipy.special.gammaln(x[..., None] - j / 2), axis=-1)
    return wrap(r + jnp.asarray(p * (p - 1) / 4 * np.log(np.pi), x.dtype))


i0 = _alias("i0", bessel_i0)


@jax.custom_jvp
def _hurwitz(x, q):
    return jsp.zeta(x, q)


@_hurwitz.defjvp
def _hurwitz_jvp(primals, tangents):
    (x, q), (_, tq) = primals, tangents
    return _hurwitz(x, q), -x * _hurwitz(x + 1, q) * tq   # MindSpore's bprop: no gradient for x


_zeta_kernel = eager.hot(_hurwitz)


@op("zeta", primitive="Zeta", family="math")
def zeta(input, other):
    """``ops.zeta(input, other)``: the Hurwitz zeta function ``sum_k (k + other) ** -input``
    (Float32/Float64). A Python number takes the other operand's dtype; the operand with fewer
    elements is broadcast to the other's shape, as MindSpore's. Gradient: only ``other``'s
    (``-input * zeta(input + 1, other)``); ``input``'s is zero, as MindSpore's bprop."""
    if isinstance(input, (int, float)) and not isinstance(input, bool):
        if not isinstance(other, Tensor):
            raise TypeError("For 'zeta', at least one of the inputs should be Tensor.")
        input = Tensor(jnp.asarray(input, other._data.dtype))
    if isinstance(other, (int, float)) and not isinstance(other, bool):
        if not isinstance(input, Tensor):
            raise TypeError("For 'zeta', at least one of the inputs should be Tensor.")
        other = Tensor(jnp.asarray(other, input._data.dtype))
    for what, t in (("x", input), ("q", other)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For primitive[Zeta], the input argument[{what}] must be a Tensor, "
                            f"but got {type(t).__name__}.")
    x, q = input._data, other._data
    if x.dtype != q.dtype:
        raise TypeError("For primitive[Zeta], the input type must be same.")
    if x.dtype not in (jnp.float32, jnp.float64):
        raise TypeError(f"For primitive[Zeta], the input argument[q] must be a type of {{Tensor[Float32], "
                        f"Tensor[Float64]}}, but got Tensor[{other.dtype}].")
    if x.size < q.size:
        x = jnp.broadcast_to(x, q.shape)
    elif x.size > q.size:
        q = jnp.broadcast_to(q, x.shape)
    if x.shape != q.shape:
        raise ValueError(f"For primitive[Zeta], the shape of 'x' {list(x.shape)} and the shape of 'q' "
                         f"{list(q.shape)} must be the same.")
    return wrap(_zeta_kernel(x, q))


def _polygamma_f(n, x):
    """psi^(n)(x) for an integer ``n`` (traced) in ``x``'s dtype, computed in float64 where x64 is on.
    MindSpore's kernel gives the poles (``x`` a non-positive integer, and ``-inf``) ``(-1)**(n+1) * inf``
    for ``n >= 1`` (jax: NaN for even ``n``), ``digamma``'s ``-1/x`` at zero for ``n == 0`` and NaN for ``n < 0``."""
    w = _wide(x)
    nw = n.astype(jnp.int64 if w.dtype == jnp.float64 else jnp.int32)
    pole = (w <= 0) & (jnp.floor(w) == w)
    sign = jnp.where(nw % 2 == 1, 1.0, -1.0).astype(w.dtype)
    r = jnp.where(pole, sign * jnp.inf, jsp.polygamma(jnp.maximum(nw, 0), w))
    r = jnp.where(nw == 0, _digamma(w), r)
    return jnp.where(nw < 0, jnp.nan, r).astype(x.dtype)


@jax.custom_jvp
def _polygamma(n, x):
    return _polygamma_f(n, x)


@_polygamma.defjvp
def _polygamma_jvp(primals, tangents):
    (n, x), (_, tx) = primals, tangents
    return _polygamma(n, x), _polygamma(n + 1, x) * tx


_polygamma_kernel = eager.hot(_polygamma)


def _ms_type_name(v):
    if isinstance(v, Tensor):
        return f"Tensor[{v.dtype}]"
    return {bool: "Bool", int: "Int64", float: "Float32"}.get(type(v), type(v).__name__)


@op("polygamma", primitive="Polygamma", family="math")
def polygamma(n, input):
    """``ops.polygamma(n, input)``: the ``n``-th derivative of ``digamma`` (``n`` a 0-d Int32/Int64 Tensor,
    ``input`` Float16/Float32/Float64), computed in float64 (float32 without x64) and rounded to the input
    dtype, so float32 results can differ from MindSpore's float32 kernel in the last bits. Poles and ``n < 0``
    as MindSpore's CPU kernel; gradient ``polygamma(n + 1, input)`` for ``input``, none for ``n``. MindSpore
    2.10 has no ``Tensor.polygamma``; neither does msjax."""
    for i, v in enumerate((n, input)):
        if not isinstance(v, Tensor):
            raise TypeError(f"For primitive[Polygamma], the input[{i}] should be a Tensor, but got {_ms_type_name(v)}.")
    a, x = n._data, input._data
    if a.dtype not in (jnp.int32, jnp.int64):
        raise TypeError("For primitive[Polygamma], the input argument[a] must be a type of {Tensor[Int32], "
                        f"Tensor[Int64]}}, but got {_ms_type_name(n)}.")
    if x.dtype not in (jnp.float16, jnp.float32, jnp.float64):
        raise TypeError("For primitive[Polygamma], the input argument[x] must be a type of {Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got {_ms_type_name(input)}.")
    if a.ndim != 0:
        raise ValueError(f"For 'Polygamma', 'a' should be a 0-dim Tensor, but got rank: {a.ndim}.")
    return wrap(_polygamma_kernel(a, x))


@jax.custom_jvp
def _betainc(a, b, x):
    return jsp.betainc(a, b, x)


@_betainc.defjvp
def _betainc_jvp(primals, tangents):
    a, b, x = primals
    dx = jnp.exp((a - 1) * jnp.log(x) + (b - 1) * jnp.log1p(-x) - jsp.betaln(a, b))
    return _betainc(a, b, x), jnp.where(x > 0, dx, jnp.zeros_like(dx)) * tangents[2]


@op("prim_betainc", primitive="Betainc", family="math")
def betainc(a, b, x):
    """``math_ops.Betainc()(a, b, x)``: the regularized incomplete beta function ``I_x(a, b)`` (NaN outside
    ``0 <= x <= 1``) of three Float32 or Float64 Tensors of one dtype and shape. Gradient as MindSpore's:
    ``x**(a-1) * (1-x)**(b-1) / B(a, b)`` for ``x``, 0 for ``a`` and ``b``."""
    arrays = [arr(v) for v in (a, b, x)]
    for name, v in zip("abx", arrays):
        if v.dtype not in (jnp.float32, jnp.float64):
            raise TypeError(f"For primitive[Betainc], the input argument[{name}] must be a type of "
                            f"{{Tensor[Float32], Tensor[Float64]}}, but got Tensor[{_dn(v)}].")
    if len({v.dtype for v in arrays}) > 1:
        raise TypeError("For primitive[Betainc], the input type must be same.")
    for name, v in (("b", arrays[1]), ("x", arrays[2])):
        if v.shape != arrays[0].shape:
            raise ValueError(f"For 'Betainc, shape of {name} ({', '.join(map(str, v.shape))}) are not consistent "
                             f"with the shape a ({', '.join(map(str, arrays[0].shape))}) .")
    aa, bb, xx = arrays
    inside = (xx >= 0) & (xx <= 1)
    out = _betainc(aa, bb, jnp.where(inside, xx, jnp.zeros_like(xx)))
    return wrap(jnp.where(inside, out, jnp.full_like(out, jnp.nan)))
