"""Layouts shared by the writers: where lax's one-axis gather puts its dimensions.

MindSpore's ``Gather(x, indices, axis)`` and ONNX's ``Gather`` put the index dimensions at
``axis``, between the operand's leading and trailing dimensions; lax's ``gather`` puts the
operand's remaining dimensions at ``offset_dims`` and the index dimensions in the positions
left free.
"""
from __future__ import annotations

__all__ = ["gather_layout"]


def gather_layout(offset_dims, n_index, ndim, axis):
    """``(perm, lax_dims)``: ``perm`` transposes the one-axis Gather's result into lax's layout;
    ``lax_dims`` names lax's output dimensions (``("b", i)``: index dimension ``i``, ``("o", d)``:
    operand dimension ``d``)."""
    rest = [d for d in range(ndim) if d != axis]
    gather_dims = [("o", d) for d in range(axis)] + [("b", i) for i in range(n_index)] + \
        [("o", d) for d in range(axis + 1, ndim)]
    offset = [int(o) for o in offset_dims]
    lax_dims, bi, oi = [], 0, 0
    for pos in range(n_index + len(rest)):
        if pos in offset:
            lax_dims.append(("o", rest[oi]))
            oi += 1
        else:
            lax_dims.append(("b", bi))
            bi += 1
    return [gather_dims.index(d) for d in lax_dims], lax_dims
