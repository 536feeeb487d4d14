"""``ops.TensorToTuple``: a Tensor's values as a Python tuple (MindSpore's internal Primitive that
its dynamic-shape tests use to pass a tuple argument through a Tensor)."""
from __future__ import annotations

from ..._core.registry import Primitive
from ..._core.tensor import Tensor
from .array import _need_concrete


class TensorToTuple(Primitive):
    """``ops.TensorToTuple()(x)``: ``tuple(x.asnumpy().tolist())`` for a 0-D or 1-D Tensor (a 0-D
    one raises ``TypeError``: its list is a number, as in MindSpore), ``None`` for anything else.
    In compiled code the values must be known: msjax then runs the function op by op."""

    def __call__(self, x):
        if not isinstance(x, Tensor) or x.ndim > 1:
            return None
        return tuple(_need_concrete(x._data, "TensorToTuple").tolist())
