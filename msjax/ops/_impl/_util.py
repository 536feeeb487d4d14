"""Small helpers shared by the op implementations."""
from __future__ import annotations

import numbers

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor, _operand, to_array, wrap

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


def rounded(x):
    """``x`` (a product) rounded to its dtype before it meets an addition: XLA:CPU contracts
    ``a * b + c`` inside one fused loop into a fused multiply-add (one rounding), where MindSpore's
    CPU kernels (``ApplyMomentum``, ``Mul`` then ``AddN``) round the product first. A select
    that only ever takes ``x`` (NaN stays NaN) sits between them and keeps the two roundings."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return x
    return jnp.where(jnp.isnan(x), jnp.array(jnp.nan, x.dtype), x)
