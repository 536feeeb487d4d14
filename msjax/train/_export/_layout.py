"""Layouts shared by the writers: where lax's one-axis gather puts its dimensions.

MindSpore's ``Gather(x, indices, axis)`` and ONNX's ``Gather`` put the index dimensions at
``axis``, between the operand's leading and trailing dimensions; lax's ``gather`` puts the
operand's remaining dimensions at ``offset_dims`` and the index dimensions in the positions
left free.
"""
from __future__ import annotations

__all__ = ["gather_layout", "gather_nd_layout", "gather_nd_out_perm", "scatter_nd_layout"]


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


def gather_nd_layout(dn, slice_sizes, shape):
    """The point gather (``ops.GatherNd``, ``x[i, j]`` with index arrays) as ``GatherNd`` on the
    operand transposed so that the indexed dimensions come first, in ``start_index_map``'s order:
    ``(operand_perm, rest)``, ``rest`` the operand's dimensions kept whole (``gather_nd_out_perm``
    places them); ``None`` for another gather (partial slices, batching dimensions)."""
    k = [int(d) for d in dn.start_index_map]
    if (getattr(dn, "operand_batching_dims", ()) or sorted(int(d) for d in dn.collapsed_slice_dims) != sorted(k)
            or any(int(slice_sizes[d]) != 1 for d in k)):
        return None
    rest = [d for d in range(len(shape)) if d not in k]
    if any(str(slice_sizes[d]) != str(shape[d]) for d in rest):
        return None
    return k + rest, rest


def gather_nd_out_perm(offset_dims, n_batch, n_rest):
    """``GatherNd``'s result (``n_batch`` index dimensions, then ``n_rest`` operand dimensions) to
    lax's layout, where the operand's dimensions sit at ``offset_dims``."""
    offset = [int(o) for o in offset_dims]
    perm, b, o = [], 0, 0
    for pos in range(n_batch + n_rest):
        if pos in offset:
            perm.append(n_batch + o)
            o += 1
        else:
            perm.append(b)
            b += 1
    return perm


def scatter_nd_layout(dn, shape, n_batch):
    """A scatter at points of some axes, whole slices of the others (``x[i] = v``, ``TensorScatterUpdate``),
    as ``TensorScatter*``/``ScatterND`` on the operand transposed so that the indexed axes come first:
    ``(operand_perm, updates_perm)``, ``updates_perm`` transposing lax's updates (window dimensions at
    ``update_window_dims``) to (``n_batch`` index dimensions, then the operand's other ones); ``None``
    for another scatter (partial windows, batching dimensions)."""
    k = [int(d) for d in dn.scatter_dims_to_operand_dims]
    if getattr(dn, "operand_batching_dims", ()) or sorted(int(d) for d in dn.inserted_window_dims) != sorted(k):
        return None
    rest = [d for d in range(len(shape)) if d not in k]
    to_lax = gather_nd_out_perm(dn.update_window_dims, n_batch, len(rest))
    return k + rest, [to_lax.index(j) for j in range(len(to_lax))]
