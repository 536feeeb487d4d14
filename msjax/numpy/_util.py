"""Conversions shared by ``msjax.numpy`` (MindSpore's ``mindspore/numpy/utils.py`` rules).

* Array-likes are Tensors, or Python ``int``/``float``/``bool``/``list``/``tuple``; those
  become Tensors with 32-bit defaults (``int`` -> Int32, ``float`` -> Float32) as
  MindSpore's ``_to_tensor`` does. numpy arrays are not array-likes in MindSpore either:
  ``TypeError("Expect input to be array like.")``.
* Results are Tensors; a ``dtype=`` argument casts the result.
"""
from __future__ import annotations

import numbers

import jax.numpy as jnp
import numpy as _np

from .._core import dtype as mstype
from .._core.tensor import Tensor, TracedValueError, to_array, wrap

_SCALARS = (bool, int, float)


def _type_error(msg):
    raise TypeError(msg)


def is_arraylike(x):
    return isinstance(x, (Tensor,) + _SCALARS + (list, tuple))


def arr(x, keep64=False):
    """The ``jax.Array`` of an array-like (MindSpore's ``_to_tensor``)."""
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, _SCALARS + (list, tuple)):
        if isinstance(x, (list, tuple)) and not x:
            return jnp.zeros((0,), jnp.float32)
        a = to_array(x)
        if not keep64:
            if a.dtype == jnp.float64:
                a = a.astype(jnp.float32)
            elif a.dtype == jnp.int64:
                a = a.astype(jnp.int32)
        return a
    raise TypeError("Expect input to be array like.")


def arrs(*xs):
    return tuple(arr(x) for x in xs)


def need_tensor(name, *xs):
    for x in xs:
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'mindspore.numpy.{name}', expect Tensor, but got {type(x).__name__}.")


_DEFAULTS = {int: _np.int32, "int": _np.int32, "uint": _np.uint32, float: _np.float32, "float": _np.float32}


def np_dtype(dtype):
    """numpy dtype of a MindSpore dtype (or numpy dtype, name, Python type); ``int``/``float``
    are Int32/Float32 here, as in MindSpore's numpy."""
    if dtype is None:
        return None
    hit = _DEFAULTS.get(dtype) if isinstance(dtype, (type, str)) else None
    return _np.dtype(hit) if hit is not None else mstype.to_np(dtype)


def out(a, dtype=None):
    """A Tensor of ``a`` (cast to ``dtype`` if given)."""
    if dtype is not None:
        d = np_dtype(dtype)
        if a.dtype != d:
            a = a.astype(d)
    return wrap(jnp.asarray(a))


def elementwise(fn, prepare, name=None, doc=None, arity=2):
    """A MindSpore-numpy element-wise function ``f(x1, x2, dtype=None)`` (``f(x, dtype=None)``
    for ``arity=1``) computing ``fn`` on the arrays ``prepare`` makes of the arguments."""
    if arity == 1:
        def f(x, dtype=None):
            return out(fn(*prepare(x)), dtype)
    else:
        def f(x1, x2, dtype=None):
            return out(fn(*prepare(x1, x2)), dtype)
    f.__name__ = f.__qualname__ = name or fn.__name__
    f.__doc__ = doc or f"Element-wise ``{fn.__name__}`` of array-likes (``dtype`` casts the result)."
    return f


def broadcastable(x1, x2):
    """The arrays of two array-likes, checked to broadcast (MindSpore's ValueError)."""
    a, b = arr(x1), arr(x2)
    try:
        jnp.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"For mindspore.numpy, x1.shape and x2.shape need to broadcast, but got x1.shape = "
                         f"{list(a.shape)} and x2.shape = {list(b.shape)}.") from None
    return a, b


def is_float(a):
    return jnp.issubdtype(a.dtype, jnp.inexact)


def to_float(a):
    """Integer and Bool inputs of float functions compute in Float32 (MindSpore's kernels)."""
    return a if is_float(a) else a.astype(jnp.float32)


def check_axis(axis, ndim, name="axis"):
    """Normalised tuple of axes; MindSpore's TypeError/ValueError for bad ones."""
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    res = []
    for ax in axes:
        if isinstance(ax, bool) or not isinstance(ax, numbers.Integral):
            raise TypeError(f"integer argument expected, but got {type(ax).__name__}")
        if not -ndim <= ax < max(ndim, 1) and not (ndim == 0 and ax in (0, -1)):
            raise ValueError(f"axis {ax} is out of bounds for array of dimension {ndim}")
        res.append(ax % ndim if ndim else 0)
    if len(set(res)) != len(res):
        raise ValueError("duplicate value in 'axis'")
    return tuple(res)


def check_int(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{name}', the input must be int, but got {type(value).__name__}.")
    return int(value)


def concrete(a, what):
    """A concrete numpy value of ``a``; data-dependent shapes cannot be traced (a RuntimeError that
    ``ms.jit``/GRAPH_MODE catch to run the function uncompiled, as MindSpore runs a dynamic shape)."""
    try:
        return _np.asarray(a)
    except Exception:  # noqa: BLE001 - a jax tracer
        raise TracedValueError(f"mindspore.numpy.{what}: the result's shape depends on the input's values, "
                           "which are not known inside ms.jit/ms.grad on msjax (JAX traces shapes); "
                           "call it outside the compiled function.") from None
