"""MindSpore's dynamic-shape helpers: ``ConvertToDynamic`` (``ops.operations._inner_ops``) and the
``is_sequence_value_unknown``/``is_sequence_shape_unknown`` queries of ``ops.functional``.

MindSpore's ``ConvertToDynamic`` marks a Tensor's shape (or rank) unknown for the graph compiler, so
that its tests run an op on dynamic shapes; its value passes through, and so does its gradient.
msjax compiles each shape as it comes (JAX's shapes are always known), so here it is the identity
and the queries answer False.
"""
from __future__ import annotations

from ..._core.registry import op
from ._util import arr, wrap
from .math import _need_tensor


@op("convert_to_dynamic", primitive="ConvertToDynamic", prim_args=("is_dynamic_rank",), family="array")
def convert_to_dynamic(input, is_dynamic_rank=False):
    """``ConvertToDynamic(is_dynamic_rank=False)(input)``: ``input`` (its shape is known to msjax)."""
    _need_tensor("ConvertToDynamic", "input", input)
    return wrap(arr(input))


def is_sequence_value_unknown(x):
    """``F.is_sequence_value_unknown(shape)``: False (msjax's shapes and sequences are known)."""
    return False


def is_sequence_shape_unknown(x):
    """``F.is_sequence_shape_unknown(shape)``: False (msjax's sequences have a known length)."""
    return False
