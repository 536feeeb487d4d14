"""``mindspore.ops.function.array_func.max_ext``/``min_ext``: ``mint.max``/``mint.min`` without
the ``other`` overload (the maximum of every element, or ``(values, indices)`` along ``dim``)."""
from __future__ import annotations

from . import reduction


def _extreme(name, pick, input, dim, keepdim):
    if dim is None:
        if keepdim is not False:
            raise ValueError(f"For '{name}', the `keepdim` must be False when the `dim` is None, but got {keepdim}")
        return pick(input)[0]
    return pick(input, dim, keepdim)


def max_ext(input, dim=None, keepdim=False):
    """``max_ext(input, dim=None, keepdim=False)``: the maximum, or ``(values, indices)`` along ``dim``."""
    return _extreme("max", reduction.max, input, dim, keepdim)


def min_ext(input, dim=None, keepdim=False):
    """``min_ext(input, dim=None, keepdim=False)``: as ``max_ext`` for the minimum."""
    return _extreme("min", reduction.min, input, dim, keepdim)
