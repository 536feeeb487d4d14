"""MindSpore's ``AddExt``/``SubExt``: ``input + alpha * other`` and ``input - alpha * other``.

They are ``gen_ops_def.add_ext``/``sub_ext`` and what ``mint.add``/``mint.sub`` and
``Tensor.add``/``Tensor.sub`` call, with their checks: a float ``alpha`` needs a
floating result, a bool ``alpha`` a bool one (``TypeError`` naming the promoted
dtype twice, as MindSpore); two bool inputs give bools (``add``: ``input or
(alpha and other)``, ``sub``: ``input xor (alpha and other)``, MindSpore's CPU
kernels' answers) where ``ops.add`` has no bool kernel. Differs from MindSpore: two bool
inputs with a bool ``alpha`` give bools too (MindSpore's CPU build has no kernel for them).

``math_ops.AddV2``: ``x + y`` for two Tensors of one shape (MindSpore's CPU kernel does not broadcast).
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._core.registry import op
from ..._core.tensor import Tensor
from . import math as _math
from ._util import operand_pair, wrap

_SHOWN = {str: "string", type(None): "None"}


def _shown(v):
    return "Tensor" if isinstance(v, Tensor) else _SHOWN.get(type(v), type(v).__name__)


def _check(prim, input, other, alpha):
    if not (all(isinstance(v, Tensor) or _math._is_number(v) for v in (input, other))
            and _math._is_number(alpha)):
        raise TypeError(f'Failed calling {prim} with "{prim}()(input={_shown(input)}, other={_shown(other)}, '
                        f'alpha={_shown(alpha)})".\nThe valid calling should be: \n'
                        f'"{prim}()(input=<Number, Tensor>, other=<Number, Tensor>, alpha=<Number>)".')


def _result_dtype(input, other):
    if isinstance(input, Tensor) and isinstance(other, Tensor):
        return jnp.result_type(input._data, other._data)
    return jnp.result_type(*operand_pair(input, other))


def _alpha_op(prim, combine, bool_combine, input, other, alpha):
    _check(prim, input, other, alpha)
    both_bool = all(isinstance(v, (bool, np.bool_)) or (isinstance(v, Tensor) and v._data.dtype == jnp.bool_)
                    for v in (input, other))
    if both_bool or isinstance(alpha, (bool, np.bool_, float, np.floating)):
        t = _result_dtype(input, other)
        if isinstance(alpha, (bool, np.bool_)) and t != jnp.bool_:
            what = "boolean"
        elif isinstance(alpha, (float, np.floating)) and not jnp.issubdtype(t, jnp.inexact):
            what = "floating"
        else:
            what = None
        if what:
            name = _math._dn(jnp.zeros((), t))
            raise TypeError(f"For '{prim}', {what} alpha need {what} input and other, but got {name} and {name}")
        if t == jnp.bool_:
            x, y = operand_pair(input, other)
            return wrap(bool_combine(x.astype(bool), y.astype(bool) & bool(alpha)))
    return combine(input, _math._times_alpha(other, alpha))


def add_ext(input, other, alpha=1):
    """``gen_ops_def.add_ext(input, other, alpha=1)``: ``input + alpha * other`` (AddExt)."""
    return _alpha_op("AddExt", _math.add, jnp.logical_or, input, other, alpha)


def sub_ext(input, other, alpha=1):
    """``gen_ops_def.sub_ext(input, other, alpha=1)``: ``input - alpha * other`` (SubExt)."""
    return _alpha_op("SubExt", _math.sub, jnp.logical_xor, input, other, alpha)


# Tensor.add/sub/subtract with MindSpore's overloads (alpha=...) run AddExt/SubExt; a list or tuple
# ``other`` matches only the older ``add(other)``/``sub(y)``, which makes it a Tensor of the input's dtype
# (MindSpore's ``deprecated_tensor_add``/``deprecated_tensor_sub``: ``x.add([1, 2])`` works,
# ``x.add([1, 2], alpha=2)`` is a TypeError).
def _tensor_add_alpha(self, other, *, alpha=1):
    return add_ext(self, other, alpha)


def _tensor_sub_alpha(self, other, *, alpha=1):
    return sub_ext(self, other, alpha)


def _not_sequence(args):
    return not isinstance(args.get("other"), (list, tuple))


def _sequence_as_tensor(self, value):
    if isinstance(value, (list, tuple)):
        return Tensor(np.asarray(value).astype(self._data.dtype)) if value else Tensor(value, self.dtype)
    return value


def _tensor_add_other(self, other):
    return _math.add(self, _sequence_as_tensor(self, other))


def _tensor_sub_y(self, y):
    return _math.sub(self, _sequence_as_tensor(self, y))


_math._tensor_method("tensor_m_add", "add", _math._dispatch("add", (_tensor_add_alpha, _not_sequence),
                                                            _tensor_add_other),
                     "``Tensor.add(other, *, alpha=1)``: ``self + alpha * other``; ``Tensor.add(other)`` "
                     "takes a list or tuple too.")
_math._tensor_method("tensor_m_sub", "sub", _math._dispatch("sub", (_tensor_sub_alpha, _not_sequence), _tensor_sub_y),
                     "``Tensor.sub(other, *, alpha=1)``: ``self - alpha * other``; ``Tensor.sub(y)`` takes a "
                     "list or tuple too.")
_math._tensor_method("tensor_m_subtract", "subtract", _math._dispatch("subtract", _tensor_sub_alpha),
                     "``Tensor.subtract(other, *, alpha=1)``.")


_ADD_V2_TYPES = ("Complex128", "Complex64", "Float16", "Float32", "Float64", "Float", "Int16", "Int32", "Int64",
                 "Int8", "UInt16", "UInt32", "UInt64", "UInt8")


def _shape_text(shape):
    return "[" + "".join(f"{d}," for d in shape) + "]"


@op("prim_add_v2", primitive="AddV2", family="math")
def add_v2(x, y):
    """``ops.operations.math_ops.AddV2()(x, y)``: ``x + y`` with ``ops.add``'s type promotion, for inputs of
    one shape (a number is a 0-D input: ``ValueError`` as MindSpore's CPU kernel, which does not broadcast);
    Bool inputs raise ``TypeError``."""
    for name, v in (("x", x), ("y", y)):
        if isinstance(v, Tensor) and str(v.dtype) == "Bool":
            raise TypeError(f"For primitive[AddV2], the input argument[{name}] must be a type of "
                            f"{{{', '.join(f'Tensor[{t}]' for t in _ADD_V2_TYPES)}}}, but got Tensor[Bool].")
    xs, ys = (tuple(v.shape) if isinstance(v, Tensor) else () for v in (x, y))
    if xs != ys:
        raise ValueError(f"For primitive[AddV2], the input_shape: {_shape_text(xs)} must be equal to {_shape_text(ys)}")
    return _math.add(x, y)
