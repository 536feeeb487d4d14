"""Small top-level functions of MindSpore: ``is_tensor``, ``tensor``, ``mutable``,
``no_inline``, ``recompute``.

``mutable``, ``no_inline`` and ``recompute`` steer MindSpore's graph compiler.
msjax traces with JAX instead: every Python scalar/sequence argument of a
compiled function is already handled per call signature, functions are
inlined by XLA, and XLA decides what to rematerialise. They check their
arguments as MindSpore does; ``mutable`` returns its input marked (a gradient
differentiates a marked sequence, ``_mutable.py``), ``recompute`` runs the block,
so results and gradients equal MindSpore's.
"""
from __future__ import annotations

from .._core import state
from .._core.tensor import Tensor
from .._core.transforms import _is_cell
from . import _mutable, _recompute


def is_tensor(obj):
    """``mindspore.is_tensor``: ``True`` for a Tensor (a Parameter is one)."""
    return isinstance(obj, Tensor)


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """``mindspore.tensor``: builds a Tensor, as ``mindspore.Tensor(...)`` does."""
    return Tensor(input_data, dtype=dtype, shape=shape, init=init, const_arg=const_arg, device=device)


def _valid_mutable(value, seen):
    if id(value) in seen:
        return False
    seen.add(id(value))
    try:
        if isinstance(value, (tuple, list)):
            return all(_valid_mutable(v, seen) for v in value)
        if isinstance(value, dict):
            return all(_valid_mutable(v, seen) for v in value.values())
        return isinstance(value, (Tensor, int, float))
    finally:
        seen.discard(id(value))


def mutable(input_data, dynamic_len=False):
    """``mindspore.mutable``: marks a value as a variable input of a compiled graph.
    msjax checks it as MindSpore does and returns it marked (``common/_mutable.py``: a gradient
    differentiates a marked sequence as one input); a Tensor or a bool comes back unchanged."""
    if not _valid_mutable(input_data, set()):
        raise TypeError(
            f"For 'mutable', the 'input_data' should be one of (bool, int, float, Tensor, tuple, list, dict) "
            f"or their nested structures with no self-reference, but got {type(input_data).__name__}: {input_data}.")
    if not isinstance(dynamic_len, bool):
        # MindSpore's message names the type of input_data here.
        raise TypeError(f"For 'mutable', the second input should be bool, but got: {type(input_data).__name__}")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError(f"For 'mutable', when the variable_len is True, the first input should be list or tuple, "
                        f"but got: {type(input_data).__name__}")
    return _mutable.marked(input_data)


def no_inline(fn=None):
    """``mindspore.no_inline``: sets ``fn.no_inline = True`` and returns ``fn``
    (usable with or without parentheses)."""
    def wrap(f):
        f.no_inline = True
        return f
    return wrap(fn) if fn is not None else wrap


def recompute(block, *args, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None, **kwargs):
    """``mindspore.recompute``: ``block(*args, **kwargs)`` whose activations the backward pass
    recomputes (``jax.checkpoint`` inside a trace, ``common/_recompute.py``; values and
    gradients are the same). Outside compiled code
    MindSpore accepts only a Cell (unless ``use_reentrant=False``); msjax checks
    that outside any trace (inside ``ms.grad`` too, where MindSpore would check)."""
    if not state.frames:
        if output_recompute:
            use_reentrant = False
        if use_reentrant and not _is_cell(block):
            raise TypeError("Recompute function now only support block which inherited from Cell when "
                            "use_reentrant=True!")
        if use_reentrant and context_fn is not None:
            raise ValueError("context_fn is only supported when use_reentrant=False.")
    return _recompute.call_recomputed(block, block, args, kwargs)
