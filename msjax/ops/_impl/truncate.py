"""``ops.truncate_div``/``ops.TruncateDiv`` and ``ops.truncate_mod``/``ops.TruncateMod``: division rounded
toward zero and its remainder (the sign of ``x``, C's ``fmod``), with broadcasting and MindSpore's type
promotion. As MindSpore 2.10's CPU kernels: an integer divided by zero gives the dtype's max for a
positive dividend, its min for a negative one and 0 for 0, an integer remainder by zero is 0; Bool and
complex operands are refused, and ``truncate_mod`` takes only Float16/32/64, Int8, Int32 and UInt8.
MindSpore has no gradient for either (its ``grad`` raises); msjax's is 0 for ``truncate_div`` and
``fmod``'s for ``truncate_mod``.
"""
from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from ..._core import dtype as mstype
from .math import _binary, _binop
from .scatter_int_div import truncating_divide

_MOD_TYPES = (jnp.float16, jnp.float32, jnp.float64, jnp.int32, jnp.int8, jnp.uint8)


def _promoted(x, y, name, prim):
    t = jnp.result_type(x, y)
    if t == jnp.bool_ or jnp.issubdtype(t, jnp.complexfloating) or (name == "truncate_mod" and t not in _MOD_TYPES):
        allowed = "Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int32], Tensor[Int8], Tensor[UInt8]" \
            if name == "truncate_mod" else "Tensor[Number] but Bool and complex"
        raise TypeError(f"For primitive[{prim}], the input argument[x] must be a type of {{{allowed}}}, but got "
                        f"Tensor[{mstype.from_np(t)}].")
    return jnp.asarray(x, t), jnp.asarray(y, t)


def _div(x, y, name):
    x, y = _promoted(x, y, name, "TruncateDiv")
    if jnp.issubdtype(x.dtype, jnp.integer):
        return _binop(name, truncating_divide, x, y)
    return _binop(name, lambda a, b: jnp.trunc(a / b), x, y)


def _mod(x, y, name):
    x, y = _promoted(x, y, name, "TruncateMod")
    if jnp.issubdtype(x.dtype, jnp.integer):
        return _binop(name, _int_rem, x, y)
    return _binop(name, jnp.fmod, x, y)


def _int_rem(a, b):
    a, b = jnp.broadcast_arrays(a, b)
    return jnp.where(b == 0, jnp.zeros_like(a), lax.rem(a, jnp.where(b == 0, jnp.ones_like(b), b)))


truncate_div = _binary("truncate_div", _div, "TruncateDiv", (),
                       "``ops.truncate_div(x, y)``: ``x / y`` rounded toward zero.\n\n" + __doc__)
truncate_mod = _binary("truncate_mod", _mod, "TruncateMod", (),
                       "``ops.truncate_mod(x, y)``: the remainder of ``truncate_div`` (C's ``fmod``).\n\n" + __doc__)
