"""Small helpers shared by the op implementations."""
from __future__ import annotations

import numbers

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor, _operand, rounded, to_array, wrap  # noqa: F401 (rounded: the ops' import)

__all__ = ["arr", "wrap", "Tensor", "operand_pair", "axis_arg", "mstype", "to_array", "shape_text"]


def shape_text(shape):
    """A shape as MindSpore's C++ messages print it: ``[const vector]{2, 3}``."""
    return "[const vector]{" + ", ".join(str(d) for d in shape) + "}"


def arr(x):
    """The array behind a Tensor (or a Tensor made of anything MindSpore accepts)."""
    if isinstance(x, Tensor):
        return x._data
    return to_array(x)


def operand_pair(a, b):
    """Two operands with MindSpore's promotion (Python float + integer Tensor -> Float32)."""
    if isinstance(a, Tensor):
        x = a._data
        return x, _operand(b, x)
    if isinstance(b, Tensor):
        y = b._data
        return _operand(a, y), y
    return to_array(a), to_array(b)


def axis_arg(axis):
    if axis is None or axis == ():
        return None
    if isinstance(axis, list):
        return tuple(axis)
    if isinstance(axis, Tensor):
        return tuple(int(v) for v in jnp.ravel(axis._data))
    return axis


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _prim_of(fn, prim, prim_args=(), doc=None):
    """A Primitive whose call is ``fn`` itself (the functional op registered elsewhere)."""
    def f(*args, **kwargs):
        return fn(*args, **kwargs)
    f.__name__ = f.__qualname__ = "prim_" + fn.__name__
    f.__doc__ = doc or f"``ops.{prim}()``: ``ops.{fn.__name__}``."
    return op("prim_" + fn.__name__, primitive=prim, prim_args=prim_args, family="array")(f)
