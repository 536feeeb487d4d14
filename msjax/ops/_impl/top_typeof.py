"""``ops.operations._inner_ops.TopTypeof``: the top type of a value (MindSpore's inner Primitive behind
``ops.typeof`` for the kinds it caches): a Tensor's ``TensorType`` (with the Tensor's element type, where
MindSpore's cache gives the bare ``Tensor`` type), ``Int``, ``Bool``, ``Float32``, ``Tuple``,
``List``, ``None`` and ``String`` as ``mindspore.dtype`` objects. msjax has no type objects for a slice, an
Ellipsis or a dict (MindSpore's ``Slice``, ``Ellipsis``, ``Dictionary``): those raise TypeError."""
from __future__ import annotations

from ..._core import dtype as mstype
from ..._core.registry import Primitive
from ..._core.tensor import Tensor

__all__ = ["TopTypeof"]

_TOP = {bool: mstype.bool_, int: mstype.int_, float: mstype.float32, tuple: mstype.tuple_, list: mstype.list_,
        type(None): mstype.type_none, str: mstype.string}


class TopTypeof(Primitive):
    """``TopTypeof()(x)``: ``x``'s top type (see the module docstring)."""

    def __call__(self, x):
        if isinstance(x, Tensor):
            return mstype.TensorType(x.dtype)
        top = _TOP.get(type(x))
        if top is None:
            raise TypeError(f"For 'TopTypeof', msjax has no MindSpore type object for {type(x).__name__}.")
        return top
