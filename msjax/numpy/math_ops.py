"""``mindspore.numpy.math_ops``: element-wise math, reductions, linear algebra and statistics.

Arguments are array-likes (Tensors, or Python numbers and lists, which become Int32/Float32
Tensors); results are Tensors, cast to ``dtype`` where one is given. Two Tensors promote as
MindSpore's Tensors do; integer and Bool inputs of float functions (``sqrt``, ``sin``,
``divide``...) compute in Float32. Functions MindSpore writes over a Tensor method (``sum``,
``std``, ``var``, ``ptp``, ``cumsum``, ``argmax``...) are that method of msjax's Tensor.
"""
from __future__ import absolute_import

import builtins
import math

import jax
import jax.numpy as jnp
import numpy as _np

from .._core import dtype as mstype
from .. import ops as _ops
from .._core.tensor import Tensor
from . import _util
from ._util import arr, check_axis, need_tensor, np_dtype, out, to_float
from .dtypes import inf, nan  # noqa: F401
from .logic_ops import not_equal  # noqa: F401  (MindSpore's math_ops lists it too)


_binary = _util.broadcastable


def _both_float(x1, x2):
    a, b = _binary(x1, x2)
    if not _util.is_float(a) and not _util.is_float(b):
        a, b = a.astype(jnp.float32), b.astype(jnp.float32)
    return a, b


# ---------------------------------------------------------------------------
# element-wise arithmetic
# ---------------------------------------------------------------------------

def add(x1, x2, dtype=None):
    a, b = _binary(x1, x2)
    return out(jnp.add(a, b) if not (a.dtype == b.dtype == jnp.bool_) else jnp.logical_or(a, b), dtype)


subtract = _util.elementwise(jnp.subtract, _binary)
def multiply(x1, x2, dtype=None):
    a, b = _binary(x1, x2)
    return out(jnp.multiply(a, b) if not (a.dtype == b.dtype == jnp.bool_) else jnp.logical_and(a, b), dtype)


divide = _util.elementwise(jnp.true_divide, _both_float, name="divide")
true_divide = divide


power = _util.elementwise(jnp.power, _binary)
def float_power(x1, x2, dtype=None):
    """Computes in Float32 (MindSpore casts both operands to Float32; NumPy uses Float64)."""
    a, b = _binary(x1, x2)
    return out(jnp.power(a.astype(jnp.float32), b.astype(jnp.float32)), dtype)


def _prop_nan(fn, a, b):
    res = fn(a, b)
    if _util.is_float(res):
        res = jnp.where(jnp.isnan(a), a.astype(res.dtype), jnp.where(jnp.isnan(b), b.astype(res.dtype), res))
    return res


def minimum(x1, x2, dtype=None):
    a, b = _binary(x1, x2)
    return out(_prop_nan(jnp.minimum, a, b), dtype)


def maximum(x1, x2, dtype=None):
    a, b = _binary(x1, x2)
    return out(_prop_nan(jnp.maximum, a, b), dtype)


def _unary_float(fn):
    return _util.elementwise(fn, lambda x: (to_float(arr(x)),), arity=1,
                             doc=f"Element-wise ``{fn.__name__}``; integer and Bool inputs compute in Float32.")


def _trig_float(x):
    """MindSpore's ``rule_for_trigonometric``: Int8/UInt8/Bool compute in Float16, other
    integers in Float32."""
    a = arr(x)
    if a.dtype in (jnp.int8, jnp.uint8, jnp.bool_):
        return (a.astype(jnp.float16),)
    return (to_float(a),)


def _trig(fn):
    return _util.elementwise(fn, _trig_float, arity=1,
                             doc=f"Element-wise ``{fn.__name__}``; Int8/UInt8/Bool inputs compute in Float16, "
                                 "other integers in Float32.")


sqrt = _unary_float(jnp.sqrt)
log = _unary_float(jnp.log)
exp = _unary_float(jnp.exp)
expm1 = _unary_float(jnp.expm1)
log1p = _unary_float(jnp.log1p)
log2 = _unary_float(jnp.log2)
log10 = _unary_float(jnp.log10)
sin = _trig(jnp.sin)
cos = _trig(jnp.cos)
tan = _trig(jnp.tan)
arcsin = _trig(jnp.arcsin)
arctan = _trig(jnp.arctan)
sinh = _trig(jnp.sinh)
cosh = _trig(jnp.cosh)
tanh = _trig(jnp.tanh)
arcsinh = _trig(jnp.arcsinh)
arccosh = _trig(jnp.arccosh)
arctanh = _trig(jnp.arctanh)


def _at_least_float32(a):
    """Float32 for every input but Float64 (MindSpore's kernels for cbrt, cov, norm...)."""
    return a if a.dtype == jnp.float64 else a.astype(jnp.float32)


cbrt = _util.elementwise(jnp.cbrt, lambda x: (_at_least_float32(arr(x)),), arity=1,
                         doc="Element-wise cube root, computed in Float32 (Float64 stays Float64).")


def exp2(x, dtype=None):
    """``2 ** x``; integer inputs keep their dtype and Bool gives Int64 (MindSpore's ``pow(2, x)``)."""
    a = arr(x)
    if _util.is_float(a):
        return out(jnp.exp2(a), dtype)
    a = a.astype(jnp.int64) if a.dtype == jnp.bool_ else a
    return out(jnp.left_shift(jnp.ones((), a.dtype), a), dtype)
deg2rad = _unary_float(jnp.deg2rad)
rad2deg = _unary_float(jnp.rad2deg)
radians = _unary_float(jnp.radians)


def arccos(input, dtype=None):  # noqa: A002 - MindSpore's parameter name
    return out(jnp.arccos(*_trig_float(input)), dtype)


def floor(x, dtype=None):
    return out(jnp.floor(to_float(arr(x))), dtype)


def ceil(x, dtype=None):
    """Computes in Float32 whatever the input dtype (as MindSpore)."""
    return out(jnp.ceil(arr(x).astype(jnp.float32)), dtype)


def rint(x, dtype=None):
    return out(jnp.rint(to_float(arr(x))), dtype)


def fix(x):
    """Rounds towards zero; Float16 stays Float16, every other dtype comes back as Float32
    (as MindSpore)."""
    need_tensor("fix", x)
    a = x._data
    return out(jnp.trunc(a if a.dtype == jnp.float16 else a.astype(jnp.float32)))


def trunc(x, dtype=None):
    """``fix`` of an array-like."""
    return out(fix(out(arr(x)))._data, dtype)


def around(a, decimals=0):
    x = arr(a)
    if isinstance(decimals, bool) or not isinstance(decimals, int):
        raise TypeError("decimals should be an integer")
    return out(jnp.round(x, decimals))   # integers keep their dtype


def square(x, dtype=None):
    return out(jnp.square(arr(x)), dtype)


def reciprocal(x, dtype=None):
    """``1 / x``; integer inputs divide as integers (MindSpore's ``tensor_div(1, x)``), truncating."""
    a = arr(x)
    if _util.is_float(a):
        return out(jnp.reciprocal(a), dtype)
    a = a.astype(jnp.int64) if a.dtype == jnp.bool_ else a
    return out(jnp.trunc(1.0 / a.astype(jnp.float32)).astype(a.dtype), dtype)


def absolute(x, dtype=None):
    a = arr(x)
    return out(jnp.abs(a) if a.dtype != jnp.bool_ else a, dtype)


def negative(a, dtype=None):
    return out(jnp.negative(arr(a)), dtype)


def positive(a, dtype=None):
    return out(jnp.positive(arr(a)), dtype)


def sign(x, dtype=None):
    a = arr(x)
    if a.dtype == jnp.bool_:
        raise TypeError("For 'sign', unsupported input type Bool.")
    return out(jnp.sign(a if _util.is_float(a) else a.astype(jnp.float32)), dtype)   # integers: Float32


def copysign(x1, x2, dtype=None):
    a, b = _binary(x1, x2)
    if a.dtype == jnp.bool_ or b.dtype == jnp.bool_:
        raise TypeError("For 'copysign', Bool inputs are not supported.")
    # MindSpore tests ``x2 < 0``: a negative zero counts as positive
    dt = jnp.promote_types(a.dtype, b.dtype)
    mag = jnp.abs(a.astype(dt))
    return out(jnp.where(b < 0, -mag, mag), dtype)


def heaviside(x1, x2, dtype=None):
    a, b = _binary(x1, x2)
    dt = jnp.promote_types(a.dtype, b.dtype)
    return out(jnp.heaviside(a.astype(dt), b.astype(dt)).astype(dt), dtype)


hypot = _util.elementwise(jnp.hypot, _both_float)
floor_divide = _util.elementwise(jnp.floor_divide, _binary)
remainder = _util.elementwise(jnp.remainder, _binary)
mod = remainder


fmod = _util.elementwise(jnp.fmod, _binary)
def divmod_(x1, x2, dtype=None):
    return floor_divide(x1, x2, dtype), remainder(x1, x2, dtype)


def _gcd(a, b):
    """Euclid's algorithm on the promoted dtype (floats too, as MindSpore's ``gcd``)."""
    dt = jnp.promote_types(a.dtype, b.dtype)
    if dt == jnp.bool_:
        dt = jnp.dtype(jnp.uint8)
    a, b = jnp.broadcast_arrays(jnp.abs(a.astype(dt)), jnp.abs(b.astype(dt)))
    if jnp.issubdtype(dt, jnp.integer):
        return jnp.gcd(a, b)

    def body(ab):
        x, y = ab
        nz = y != 0
        return jnp.where(nz, y, x), jnp.where(nz, jnp.fmod(x, jnp.where(nz, y, 1)), 0)
    return jax.lax.while_loop(lambda ab: jnp.any(ab[1] != 0), body, (a, b))[0]


def _lcm(a, b):
    g = _gcd(a, b)
    dt = g.dtype
    a, b = jnp.abs(a.astype(dt)), jnp.abs(b.astype(dt))
    if jnp.issubdtype(dt, jnp.integer):
        return jnp.where(g == 0, 0, a // jnp.where(g == 0, 1, g) * b)
    return jnp.where(g == 0, 0, a / jnp.where(g == 0, 1, g) * b)


gcd = _util.elementwise(_gcd, _binary, name="gcd", doc="Greatest common divisor of array-likes (floats too).")
lcm = _util.elementwise(_lcm, _binary, name="lcm", doc="Least common multiple of array-likes (floats too).")
logaddexp = _util.elementwise(jnp.logaddexp, _both_float)
logaddexp2 = _util.elementwise(jnp.logaddexp2, _both_float)
arctan2 = _util.elementwise(jnp.arctan2, _both_float)
def clip(x, xmin, xmax, dtype=None):
    if xmin is None and xmax is None:
        raise ValueError("One of max or min must be given.")
    a = arr(x)
    res = a
    if xmin is not None:
        res = jnp.maximum(res, arr(xmin).astype(a.dtype) if isinstance(xmin, (int, float)) else arr(xmin))
    if xmax is not None:
        res = jnp.minimum(res, arr(xmax).astype(res.dtype) if isinstance(xmax, (int, float)) else arr(xmax))
    return out(res, dtype)


bitwise_and = _util.elementwise(jnp.bitwise_and, _binary)
bitwise_or = _util.elementwise(jnp.bitwise_or, _binary)
bitwise_xor = _util.elementwise(jnp.bitwise_xor, _binary)
def invert(x, dtype=None):
    a = arr(x)
    if not jnp.issubdtype(a.dtype, jnp.integer):
        raise TypeError(f"For primitive[Invert], the input argument[x] must be an integer Tensor, but got "
                        f"{mstype.from_np(a.dtype)}.")
    return out(jnp.invert(a), dtype)


# ---------------------------------------------------------------------------
# reductions and statistics
# ---------------------------------------------------------------------------

def _tensor(x):
    return x if isinstance(x, Tensor) else out(arr(x))


def sum_(a, axis=None, dtype=None, keepdims=False, initial=None):
    return _tensor(a).sum(axis, dtype, keepdims, initial)


def _reduce(a, fn, cmp_fn, axis, keepdims, initial, where, dtype=None, name="reduce"):
    x = arr(a)
    axes = check_axis(axis, x.ndim) if axis is not None else None
    if initial is not None and not isinstance(initial, (int, float, bool, Tensor)):
        raise TypeError("initial should be scalar")
    if x.size == 0 and initial is None and cmp_fn is not None:
        raise ValueError("initial value must be provided for zero-size arrays")
    if initial is not None:
        x = cmp_fn(x, jnp.asarray(arr(initial), x.dtype))
    if isinstance(where, Tensor):
        if initial is None:
            raise ValueError("initial value must be provided for where masks")
        x = jnp.where(where._data, x, jnp.asarray(arr(initial), x.dtype))
    res = fn(x, axis=axes, keepdims=keepdims)
    return out(res, dtype or x.dtype)


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    return _reduce(a, jnp.max, jnp.maximum, axis, keepdims, initial, where, name="amax")


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    return _reduce(a, jnp.min, jnp.minimum, axis, keepdims, initial, where, name="amin")


def mean(a, axis=None, keepdims=False, dtype=None):
    """Mean; an integer input keeps its dtype (MindSpore's ReduceMean truncates)."""
    x = arr(a)
    axes = check_axis(axis, x.ndim) if axis is not None else None
    res = jnp.mean(to_float(x), axis=axes, keepdims=keepdims)
    if not _util.is_float(x):
        res = jnp.trunc(res).astype(x.dtype)
    return out(res, dtype)


def std(x, axis=None, ddof=0, keepdims=False):
    return _tensor(x).std(axis, ddof, keepdims)


def var(x, axis=None, ddof=0, keepdims=False):
    return _tensor(x).var(axis, ddof, keepdims)


def ptp(x, axis=None, keepdims=False):
    need_tensor("ptp", x)
    return x.ptp(axis, keepdims)


def average(x, axis=None, weights=None, returned=False):
    need_tensor("average", x)
    a = to_float(x._data)
    axes = check_axis(axis, a.ndim) if axis is not None else None
    if weights is None:
        avg = mean(x, axis)._data   # integers truncate, as MindSpore's mean
        wsum = jnp.full(avg.shape, a.size / builtins.max(avg.size, 1), avg.dtype)
    else:
        need_tensor("average", weights)
        w = weights._data
        dt = jnp.promote_types(a.dtype, w.dtype)
        a, w = a.astype(dt), w.astype(dt)
        if w.shape != a.shape:
            if w.ndim != 1:
                raise TypeError("Weights should be None, 1-D or the same shape as input x.")
            if not isinstance(axis, int):
                raise TypeError("Axis must be specified when shapes of x and weights differ.")
            shape = [1] * a.ndim
            shape[axes[0]] = w.shape[0]
            w = w.reshape(shape)
        wsum = jnp.sum(jnp.broadcast_to(w, a.shape), axis=axes)
        avg = jnp.sum(a * w, axis=axes) / wsum
    if returned:
        return out(avg), out(jnp.broadcast_to(wsum, avg.shape).astype(avg.dtype))
    return out(avg)


def count_nonzero(x, axis=None, keepdims=False):
    a = arr(x)
    axes = check_axis(axis, a.ndim) if axis is not None else None
    return out(jnp.count_nonzero(a, axis=axes, keepdims=keepdims).astype(jnp.int32))


def argmax(a, axis=None):
    t = _tensor(a)
    if t.dtype == mstype.bool_:
        t = t.astype(mstype.int32)
    return t.argmax(axis)


def argmin(a, axis=None):
    t = _tensor(a)
    if t.dtype == mstype.bool_:
        t = t.astype(mstype.int32)
    return t.argmin(axis)


def _nan_reduce(fn, x, axis, dtype, keepdims, **kw):
    axes = check_axis(axis, x.ndim) if axis is not None else None
    return out(fn(x, axis=axes, keepdims=keepdims, **kw), dtype)


def nansum(a, axis=None, dtype=None, keepdims=False):
    x = arr(a)
    return _nan_reduce(jnp.nansum, x, axis, dtype or x.dtype, keepdims)   # keeps the input's dtype


def nanmean(a, axis=None, dtype=None, keepdims=False):
    return _nan_reduce(jnp.nanmean, to_float(arr(a)), axis, dtype or mstype.float32, keepdims)


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    return _nan_reduce(jnp.nanvar, to_float(arr(a)), axis, dtype or mstype.float32, keepdims, ddof=ddof)


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    return _nan_reduce(jnp.nanstd, to_float(arr(a)), axis, dtype or mstype.float32, keepdims, ddof=ddof)


def nanmax(a, axis=None, dtype=None, keepdims=False):
    return _nan_reduce(jnp.nanmax, arr(a), axis, dtype, keepdims)


def nanmin(a, axis=None, dtype=None, keepdims=False):
    return _nan_reduce(jnp.nanmin, arr(a), axis, dtype, keepdims)


def cumsum(a, axis=None, dtype=None):
    need_tensor("cumsum", a)
    return a.cumsum(axis, dtype)


def _int32_if_small(x):
    """Bool and UInt8 accumulate in Int32 (MindSpore's cumulative kernels)."""
    return x.astype(jnp.int32) if x.dtype in (jnp.bool_, jnp.uint8) else x


def nancumsum(a, axis=None, dtype=None):
    x = _int32_if_small(arr(a))
    if axis is None:
        x, axis = x.ravel(), 0
    return out(jnp.nancumsum(x, axis=axis), dtype)


def cumprod(a, axis=None, dtype=None):
    x = arr(a)
    x = x.astype({jnp.dtype(jnp.bool_): jnp.int32, jnp.dtype(jnp.uint8): jnp.uint32}.get(x.dtype, x.dtype))
    if axis is None:
        x, axis = x.ravel(), 0
    return out(jnp.cumprod(x, axis=axis).astype(x.dtype), dtype)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    x = arr(a)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"For 'diff', n must be a non-negative integer, but got {n}.")
    kw = {}
    if prepend is not None:
        kw["prepend"] = arr(prepend)
    if append is not None:
        kw["append"] = arr(append)
    return out(jnp.diff(x, n, axis, **kw))


def ediff1d(ary, to_end=None, to_begin=None):
    x = arr(ary).ravel()
    parts = []
    if to_begin is not None:
        parts.append(arr(to_begin).ravel().astype(x.dtype))
    parts.append(jnp.diff(x))
    if to_end is not None:
        parts.append(arr(to_end).ravel().astype(x.dtype))
    return out(jnp.concatenate(parts))


def trapz(y, x=None, dx=1.0, axis=-1):
    ya = arr(y)
    ya = ya if ya.dtype in (jnp.float16, jnp.float32) else ya.astype(jnp.float32)   # MindSpore's result dtypes
    xa = None if x is None else arr(x).astype(ya.dtype)
    return out(jax.scipy.integrate.trapezoid(ya, xa, dx=dx, axis=axis))


def gradient(f, *varargs, axis=None, edge_order=1):
    fa = _at_least_float32(arr(f))
    if edge_order != 1:
        raise ValueError("For 'gradient', only edge_order=1 is supported (as MindSpore).")
    spacing = [arr(v) if isinstance(v, (Tensor, list, tuple)) else v for v in varargs]
    res = jnp.gradient(fa, *spacing, axis=axis)
    if isinstance(res, (list, tuple)):
        return [out(r) for r in res] if len(res) > 1 else out(res[0])
    return out(res)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    ma = _at_least_float32(arr(m))
    ya = None if y is None else _at_least_float32(arr(y))
    res = jnp.cov(ma, ya, rowvar=rowvar, bias=bias, ddof=ddof,
                  fweights=None if fweights is None else arr(fweights),
                  aweights=None if aweights is None else arr(aweights))
    return out(res, dtype)


def corrcoef(x, y=None, rowvar=True, dtype=None):
    xa = _at_least_float32(arr(x))
    ya = None if y is None else _at_least_float32(arr(y))
    return out(jnp.corrcoef(xa, ya, rowvar=rowvar), dtype)


def histogram(a, bins=10, range=None, weights=None, density=False):  # noqa: A002
    x = to_float(arr(a))
    b = arr(bins) if isinstance(bins, (Tensor, list, tuple)) else bins
    w = None if weights is None else arr(weights)
    hist, edges = jnp.histogram(x, b, range, weights=w, density=density)
    return out(hist.astype(jnp.float32)), out(edges.astype(jnp.float32))   # Float32 counts, as MindSpore


def histogramdd(sample, bins=10, range=None, weights=None, density=False):  # noqa: A002
    s = to_float(arr(sample)) if not isinstance(sample, (list, tuple)) else \
        jnp.stack([to_float(arr(v)) for v in sample], axis=-1)
    w = None if weights is None else arr(weights)
    hist, edges = jnp.histogramdd(s, bins, range, weights=w, density=density)
    return out(hist.astype(jnp.float32)), [out(e.astype(jnp.float32)) for e in edges]


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):  # noqa: A002
    w = None if weights is None else arr(weights)
    hist, ex, ey = jnp.histogram2d(to_float(arr(x)), to_float(arr(y)), bins, range, weights=w, density=density)
    return out(hist.astype(jnp.float32)), out(ex.astype(jnp.float32)), out(ey.astype(jnp.float32))


def bincount(x, weights=None, minlength=0, length=None):
    a = arr(x)
    if not jnp.issubdtype(a.dtype, jnp.integer):
        raise TypeError(f"For 'bincount', the input must be an integer Tensor, but got {a.dtype}.")
    if length is None:
        conc = _util.concrete(a, "bincount")
        length = builtins.max(int(conc.max()) + 1 if conc.size else 0, minlength)
    w = None if weights is None else arr(weights)
    res = jnp.bincount(jnp.maximum(a, 0), w, minlength=minlength, length=length)   # negatives count as 0
    return out(res.astype(jnp.float32))   # Float32 counts, as MindSpore


def digitize(x, bins, right=False):
    xa, ba = arr(x), arr(bins)
    return out(jnp.digitize(xa, ba, right).astype(jnp.int32))


def searchsorted(a, v, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError(f"'{side}' is an invalid value for keyword 'side'")
    aa, va = arr(a), arr(v)
    if aa.ndim != 1:
        raise ValueError("`a` should be 1-D array")
    if sorter is not None:
        aa = aa[arr(sorter)]
    return out(jnp.searchsorted(aa, va, side=side).astype(jnp.int32))


def interp(x, xp, fp, left=None, right=None):
    xa, xpa, fpa = arr(x), arr(xp).astype(jnp.float32), arr(fp).astype(jnp.float32)
    if xpa.ndim != 1 or fpa.ndim != 1:
        raise ValueError("xp and fp must be 1-d sequences")
    if xpa.shape != fpa.shape:
        raise ValueError("the y-coordinates must have the same length as `xp`")
    dt = jnp.promote_types(xa.dtype, jnp.float32)
    # both bounds always given: jax.numpy.interp's compiled cache confuses ``left=v`` with an
    # earlier call's ``right=v`` (JAX 0.10: interp(x, xp, fp, left=0.3) after interp(..., right=0.7)
    # put 0.3 on the right), so None is never passed; None means the end values, as NumPy
    left = fpa[0] if left is None else jnp.asarray(left, jnp.float32)
    right = fpa[-1] if right is None else jnp.asarray(right, jnp.float32)
    return out(jnp.interp(xa.astype(dt), xpa, fpa, left, right).astype(dt))


def unwrap(p, discont=math.pi, axis=-1):
    return out(jnp.unwrap(_at_least_float32(arr(p)), discont, axis))


# ---------------------------------------------------------------------------
# linear algebra
# ---------------------------------------------------------------------------

def _same_dtype(name, x, y):
    if x.dtype != y.dtype:
        raise TypeError(f"For '{name}', the type of 'x2' should be same as 'x1', but got 'x1' with type "
                        f"Tensor[{mstype.from_np(x.dtype)}] and 'x2' with type Tensor[{mstype.from_np(y.dtype)}].")


def dot(a, b):
    """Dot product of two Tensors of one dtype (MindSpore's MatMul does not promote)."""
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        raise TypeError("the input x must be Tensor!")
    x, y = a._data, b._data
    if x.ndim and y.ndim:
        _same_dtype("MatMul", x, y)
    if x.ndim and y.ndim and x.shape[-1] != (y.shape[-2] if y.ndim >= 2 else y.shape[-1]):
        raise ValueError("shapes are not aligned")
    return out(jnp.dot(x, y))


def matmul(x1, x2, dtype=None):
    """``mindspore.ops.matmul`` (MindSpore's own definition), cast to ``dtype``."""
    res = _ops.matmul(_tensor(x1), _tensor(x2))
    return res if dtype is None else out(res._data, dtype)


def inner(a, b):
    x, y = arr(a), arr(b)
    if x.ndim and y.ndim:
        if x.shape[-1] != y.shape[-1]:
            raise ValueError("shapes are not aligned")
        _same_dtype("MatMul", x, y)
    return out(jnp.inner(x, y))


def outer(a, b):
    need_tensor("outer", a, b)
    _same_dtype("MatMul", a._data, b._data)
    return out(jnp.outer(a._data, b._data))


def tensordot(a, b, axes=2):
    x, y = arr(a), arr(b)
    try:
        return out(jnp.tensordot(x, y, axes))
    except (TypeError, ValueError):
        raise ValueError(f"For 'tensor_dot', the contracted axes {axes} of shapes {list(x.shape)} and "
                         f"{list(y.shape)} must have equal sizes.") from None


def kron(a, b):
    return out(jnp.kron(arr(a), arr(b)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    x, y = _binary(a, b)
    return out(jnp.cross(x, y, axisa, axisb, axisc, axis))


def multi_dot(arrays):
    arrs = [arr(a) for a in arrays]
    if len(arrs) < 2:
        raise ValueError("Expecting at least 2 arrays.")
    return out(jnp.linalg.multi_dot(arrs))


def matrix_power(a, n):
    need_tensor("matrix_power", a)
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"exponent must be an integer, but got {type(n).__name__}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("For 'matrix_power', the input must be a square matrix (or a batch of them).")
    return out(jnp.linalg.matrix_power(a._data, n))


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002
    if not isinstance(ord, (int, float)) and ord not in (None, "fro", "nuc"):
        raise ValueError("invalid value for `ord`")
    a = _at_least_float32(arr(x))
    if axis is None:
        if ord is None:
            return out(jnp.linalg.norm(a.ravel(), None, None, keepdims).reshape((1,) * a.ndim if keepdims else ()))
        if a.ndim not in (1, 2):
            raise ValueError("for None axis, array must a vector or a 2-D matrix")
    else:
        axis = check_axis(axis, a.ndim)
        if len(axis) not in (1, 2):
            raise ValueError("invalid number of dimensions to norm")
        axis = axis[0] if len(axis) == 1 else axis
    return out(jnp.linalg.norm(a, ord, axis, keepdims))


def _conv1d(fn, a, v, mode, ndim_msg, keep_int=True):
    """The result keeps the inputs' promoted dtype (``convolve`` keeps integers, ``correlate``
    gives Float32 for them, as MindSpore)."""
    x, y = arr(a), arr(v)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(ndim_msg)
    if mode not in ("full", "same", "valid"):
        raise ValueError("mode must be one of ['full', 'same', 'valid']")
    dt = jnp.promote_types(x.dtype, y.dtype)
    res = fn(_at_least_float32(x), _at_least_float32(y), mode)
    if not jnp.issubdtype(dt, jnp.inexact):
        return out(jnp.round(res).astype(dt) if keep_int else res)
    return out(res.astype(dt))


def convolve(a, v, mode="full"):
    return _conv1d(jnp.convolve, a, v, mode, "object too deep for desired array")


def correlate(a, v, mode="valid"):
    return _conv1d(jnp.correlate, a, v, mode, "only support 1-dimensional inputs.", keep_int=False)


# ---------------------------------------------------------------------------
# polynomials
# ---------------------------------------------------------------------------

def _poly(p, name):
    """MindSpore's ``_to_poly1d``: a scalar is a degree-0 polynomial; more than 1-D is a ValueError."""
    a = jnp.atleast_1d(arr(p))
    if a.ndim > 1:
        raise ValueError("input array must be scalar or 1-d sequence")
    return a


def polyadd(a1, a2):
    return out(jnp.polyadd(_poly(a1, "polyadd"), _poly(a2, "polyadd")))


def polysub(a1, a2):
    return out(jnp.polysub(_poly(a1, "polysub"), _poly(a2, "polysub")))


def polymul(a1, a2):
    return convolve(out(_poly(a1, "polymul")), out(_poly(a2, "polymul")))   # MindSpore's polymul is a convolution: integer inputs stay integers


def polyval(p, x):
    pa, xa = _poly(p, "polyval"), arr(x)
    dt = jnp.promote_types(pa.dtype, xa.dtype)
    dt = dt if dt == jnp.float64 else jnp.float32   # MindSpore evaluates in Float32
    return out(jnp.polyval(pa.astype(dt), xa.astype(dt)))


def polyder(p, m=1):
    if isinstance(m, bool) or not isinstance(m, int) or m < 0:
        raise ValueError("Order of derivative must be positive")
    pa = _poly(p, "polyder")
    if pa.dtype in (jnp.bool_, jnp.uint8):
        pa = pa.astype(jnp.int32)
    if m >= pa.shape[0]:   # MindSpore returns an empty Float32 Tensor (NumPy: [0])
        return out(jnp.zeros((0,), jnp.float32))
    return out(jnp.polyder(pa, m).astype(pa.dtype))   # integers stay integers


def polyint(p, m=1, k=None):
    if isinstance(m, bool) or not isinstance(m, int) or m < 0:
        raise ValueError("Order of integral must be positive")
    pa = to_float(_poly(p, "polyint"))
    return out(jnp.polyint(pa, m, 0 if k is None else (arr(k) if not isinstance(k, (int, float)) else k)))


# ---------------------------------------------------------------------------
# dtypes and index helpers
# ---------------------------------------------------------------------------

def promote_types(type1, type2):
    """The MindSpore dtype both promote to (MindSpore's ``promotion_rule``)."""
    return mstype.from_np(jnp.promote_types(np_dtype(type1), np_dtype(type2)))


def result_type(*arrays_and_dtypes):
    """The dtype ``arrays_and_dtypes`` promote to; Python ints count as Int32, floats as Float32."""
    ds = []
    for x in arrays_and_dtypes:
        if isinstance(x, Tensor):
            ds.append(x._data.dtype)
        elif isinstance(x, bool):
            ds.append(_np.dtype(_np.bool_))
        elif isinstance(x, int):
            ds.append(_np.dtype(_np.int32))
        elif isinstance(x, float):
            ds.append(_np.dtype(_np.float32))
        else:
            ds.append(np_dtype(x))
    res = ds[0]
    for d in ds[1:]:
        res = jnp.promote_types(res, d)
    return mstype.from_np(res)


def ravel_multi_index(multi_index, dims, mode="clip", order="C"):
    idx = [arr(i) for i in multi_index]
    if any(not jnp.issubdtype(i.dtype, jnp.integer) for i in idx):
        raise TypeError("only int indices permitted")
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(f"invalid mode {mode}")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    res = jnp.ravel_multi_index(tuple(idx), tuple(dims), mode="clip" if mode == "raise" else mode, order=order)
    return out(res.astype(jnp.float32))   # MindSpore 2.10 returns Float32 indices
