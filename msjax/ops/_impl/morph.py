"""``ops.Morph(fn, infer_shape, infer_dtype, bprop_fn=None)``: a user function used as a Primitive.

MindSpore expands it into ``fn`` in GRAPH_MODE before differentiating (its gradient is ``fn``'s, or
``bprop_fn(*inputs, out, dout)`` when given) and refuses it in PyNative. msjax runs ``fn`` inside compiled
code (GRAPH_MODE, ``ms.jit``) with the core's custom-backward rule for ``bprop_fn``; ``infer_shape`` and
``infer_dtype`` are kept (JAX infers shapes itself). Outside compiled code: MindSpore's RuntimeError."""
from __future__ import annotations

import inspect

from ..._core import state
from ..._core.custom_grad import call_with_bprop
from ..._core.registry import Primitive

__all__ = ["Morph"]


class Morph(Primitive):
    """``ops.Morph``: ``fn`` applied to the inputs in compiled code (see the module docstring)."""

    def __init__(self, fn, infer_shape, infer_dtype, bprop_fn=None):
        super().__init__()
        self._infer_shape, self._infer_dtype = infer_shape, infer_dtype
        self.__morph_fn__, self.__morph_bprop_fn__ = fn, None
        if bprop_fn:
            for param in inspect.signature(fn).parameters.values():
                if not (param.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and param.default is inspect.Parameter.empty):
                    raise ValueError(f"When use `bprop` in Morph, Morph `fn` only support positional or keyword "
                                     f"parameters with default value is empty, but got param '{param.name}' of kind "
                                     f"'{param.kind.name}' with default value '{param.default}'.")
            self.__morph_bprop_fn__ = bprop_fn

    def infer_shape(self, *args):
        return self._infer_shape(*args)

    def infer_dtype(self, *args):
        return self._infer_dtype(*args)

    def __call__(self, *args, **kwargs):
        if not (state.compiled() and state.in_transform()):
            raise RuntimeError("Morph is only supported in GRAPH_MODE.")
        if self.__morph_bprop_fn__ is None:
            return self.__morph_fn__(*args, **kwargs)
        return call_with_bprop(self, self.__morph_fn__, self.__morph_bprop_fn__, args, kwargs)
