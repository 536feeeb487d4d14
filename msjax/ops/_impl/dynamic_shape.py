"""MindSpore's dynamic-shape markers: ``_inner_ops.ConvertToDynamic`` and ``F.is_sequence_value_unknown``,
and ``F.is_sequence_shape_unknown``.

MindSpore compiles a graph for shapes (or sequence lengths) it may not know; these mark and ask about
such unknowns. msjax traces every call with concrete shapes and sequence lengths (a new shape is a new
trace), so nothing is ever unknown: the marker is the identity, and each question answers ``False``
after the argument checks MindSpore makes."""
from __future__ import annotations

from ..._checkparam import check_value_type
from ..._core.registry import Primitive
from ..._core.tensor import Tensor, wrap
from ._util import arr

__all__ = ["ConvertToDynamic", "is_sequence_value_unknown", "is_sequence_shape_unknown"]


def _abstract_name(x):
    """The type name MindSpore's type checks print for a non-Tensor input."""
    return {bool: "Bool", int: "Int64", float: "Float32"}.get(type(x), type(x).__name__)


class ConvertToDynamic(Primitive):
    """``_inner_ops.ConvertToDynamic(is_dynamic_rank=False)(x)``: ``x``, its shape (or rank) marked
    unknown in MindSpore's graph. In msjax the identity (gradient: the identity): shapes are always
    known. A non-Tensor input raises ``TypeError`` as in MindSpore; a 0-D Tensor is accepted, as in
    MindSpore's PyNative mode (its graph mode rejects it)."""

    def __init__(self, is_dynamic_rank=False):
        check_value_type("is_dynamic_rank", is_dynamic_rank, [bool], "ConvertToDynamic")
        super().__init__()
        self.is_dynamic_rank = is_dynamic_rank
        self._attrs = {}

    def __call__(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'ConvertToDynamic', input[0] should be Tensor, but got {_abstract_name(x)}.")
        return wrap(arr(x))


def _abstract(x):
    """MindSpore's abstract value of ``x`` as its messages print it (Python ints, bools and None;
    other inputs by type name)."""
    if x is None:
        return "AbstractNone(Value: None)"
    if isinstance(x, (bool, int)):
        return f"AbstractScalar(Type: {_abstract_name(x)}, Value: {x}, Shape: NoShape)"
    return type(x).__name__


def _sequence_check(prim, x, kinds="tuple or list"):
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"The input of {prim} should be {kinds} but got {_abstract(x)}")


def is_sequence_value_unknown(x):
    """Whether a sequence's values are unknown at compile time: ``False`` in msjax (every value is
    known when traced). A non-sequence raises ``TypeError``, as in MindSpore."""
    _sequence_check("IsShapeUnKnown", x)
    return False


def is_sequence_shape_unknown(x):
    """Whether a sequence's length is unknown at compile time: ``False`` in msjax (every length is
    known when traced). A non-sequence raises ``TypeError``, as in MindSpore."""
    _sequence_check("IsDimUnKnown", x, "tuple")
    return False

