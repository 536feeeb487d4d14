"""``mindspore.numpy.logic_ops``: comparisons, logic and set tests, Bool Tensors out."""
from __future__ import absolute_import

import jax.numpy as jnp
import numpy as _np

from . import _util
from ._util import arr, check_axis, out


def _cmp(fn):
    return _util.elementwise(fn, _util.broadcastable,
                             doc=f"Element-wise ``{fn.__name__}`` (Bool Tensor, or ``dtype``).")


not_equal = _cmp(jnp.not_equal)
less_equal = _cmp(jnp.less_equal)
less = _cmp(jnp.less)
greater_equal = _cmp(jnp.greater_equal)
greater = _cmp(jnp.greater)
equal = _cmp(jnp.equal)
logical_and = _cmp(jnp.logical_and)
logical_or = _cmp(jnp.logical_or)
logical_xor = _cmp(jnp.logical_xor)


def logical_not(a, dtype=None):
    return out(jnp.logical_not(arr(a)), dtype)


def isfinite(x, dtype=None):
    return out(jnp.isfinite(arr(x)), dtype)


def isnan(x, dtype=None):
    return out(jnp.isnan(arr(x)), dtype)


def isinf(x, dtype=None):
    return out(jnp.isinf(arr(x)), dtype)


def _float_only(name, x):
    a = arr(x)
    if not _util.is_float(a):
        raise TypeError(f"For '{name}', the input must be a float Tensor, but got {a.dtype}.")
    return a


def isposinf(x):
    return out(jnp.isposinf(_float_only("isposinf", x)))


def isneginf(x):
    return out(jnp.isneginf(_float_only("isneginf", x)))


def signbit(x, dtype=None):
    a = arr(x)
    return out(jnp.signbit(a) if a.dtype != jnp.bool_ else jnp.zeros(a.shape, bool), dtype)


def isscalar(element):
    """True for Python numbers and strings (a Tensor is not a scalar here, as in MindSpore)."""
    return isinstance(element, (int, float, bool, complex, str, bytes))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    x, y = arr(a), arr(b)
    dt = jnp.promote_types(x.dtype, y.dtype)
    if not jnp.issubdtype(dt, jnp.inexact):
        dt = jnp.float32
    return out(jnp.isclose(x.astype(dt), y.astype(dt), rtol, atol, equal_nan))


def in1d(ar1, ar2, invert=False):
    a, b = arr(ar1), arr(ar2)
    res = jnp.isin(a.ravel(), b.ravel())
    return out(jnp.logical_not(res) if invert else res)


def isin(element, test_elements, invert=False):
    a, b = arr(element), arr(test_elements)
    res = jnp.isin(a, b)
    return out(jnp.logical_not(res) if invert else res)


def sometrue(a, axis=None, keepdims=False):
    x = arr(a)
    axes = check_axis(axis, x.ndim) if axis is not None else None
    return out(jnp.any(x.astype(bool), axis=axes, keepdims=keepdims))


def array_equal(a1, a2, equal_nan=False):
    x, y = arr(a1), arr(a2)
    if x.shape != y.shape:
        return out(jnp.asarray(False))
    eq = x == y
    if equal_nan:
        eq = eq | (jnp.isnan(x) & jnp.isnan(y))
    return out(jnp.all(eq))


def array_equiv(a1, a2):
    x, y = arr(a1), arr(a2)
    try:
        shape = jnp.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return out(jnp.asarray(False))
    return out(jnp.all(jnp.broadcast_to(x, shape) == jnp.broadcast_to(y, shape)))


def setdiff1d(ar1, ar2, assume_unique=False):
    a = _util.concrete(arr(ar1), "setdiff1d")
    b = _util.concrete(arr(ar2), "setdiff1d")
    if not isinstance(assume_unique, bool):
        raise TypeError("assume_unique is not bool type.")
    return out(jnp.asarray(_np.setdiff1d(a, b, assume_unique)))


__all__ = ["not_equal", "less_equal", "less", "greater_equal", "greater", "equal", "isfinite", "isnan",
           "isinf", "isposinf", "isneginf", "isscalar", "logical_and", "logical_not", "logical_or",
           "logical_xor", "in1d", "isin", "isclose", "signbit", "sometrue", "array_equal", "array_equiv",
           "setdiff1d"]
