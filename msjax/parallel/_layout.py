"""Tensor layouts in MindSpore's notation, and which piece of a tensor each rank holds.

A layout is a *device matrix* (the job's ranks arranged row-major in a grid: rank
``r`` sits at ``numpy.unravel_index(r, dev_matrix)``) and a *tensor map*: entry ``i``
names the device-matrix axis that cuts tensor dimension ``i``, counted from the
RIGHT (``0`` is the last axis), ``-1`` for not cut, a tuple for several axes (the
first one major). Axes that cut no dimension repeat the data; with optimizer
parallel (``opt_shard_size`` > 0, or -1 for all of them) those repeated axes cut
the first dimension of each rank's piece once more. MindSpore takes the repeated
axes from the right, splitting an axis into ``(d // k, k)`` when only ``k`` of it
is needed; ``opt_shard_step`` is the rank distance between neighbours in one
optimizer group.

In msjax a sharded Parameter holds a ``jax.Array`` with a ``NamedSharding``: the
mesh's shape is the device matrix and the ``PartitionSpec`` is the tensor map
(:func:`_layout_of`). Only JAX and NumPy are imported here.
"""
from __future__ import annotations

import collections
import functools
import math

import jax
import numpy as np

from .._core.tensor import to_array

__all__ = ["TensorLayout", "make_layout", "_layout_of", "slice_for_rank", "slice_bounds", "merge_slices", "assemble",
           "full_shape", "fake_shape", "pieces_needed", "rank_checkpoint_params", "job_devices"]


class TensorLayout(collections.namedtuple("TensorLayout", "dev_matrix tensor_map opt_shard_size opt_shard_step "
                                                          "shape", defaults=(0, 0, None))):
    """One parameter's layout: ``dev_matrix``, ``tensor_map`` (MindSpore's conventions),
    optimizer-parallel ``opt_shard_size``/``opt_shard_step`` and, when known, the full ``shape``."""

    @property
    def device_num(self):
        return math.prod(self.dev_matrix)


def _axes(entry):
    return entry if isinstance(entry, tuple) else (() if entry == -1 else (entry,))


def make_layout(dev_matrix, tensor_map, opt_shard_size=0, shape=None):
    """A checked :class:`TensorLayout` (its ``opt_shard_step`` computed as MindSpore records it)."""
    dev = tuple(int(d) for d in dev_matrix)
    if not dev or any(isinstance(d, bool) or d <= 0 for d in dev):
        raise ValueError(f"The device matrix should be a non-empty tuple of positive int, but got {dev_matrix}.")
    tmap = tuple(tuple(int(a) for a in e) if isinstance(e, (tuple, list)) else int(e) for e in tensor_map)
    used = [a for e in tmap for a in _axes(e)]
    if any(not 0 <= a < len(dev) for a in used) or any(isinstance(e, int) and e < -1 for e in tmap):
        raise ValueError(f"The tensor map {tuple(tensor_map)} should hold -1 or device-matrix axes counted from the "
                         f"right (0 to {len(dev) - 1}) for the device matrix {dev}.")
    if len(used) != len(set(used)):
        raise ValueError(f"The tensor map {tuple(tensor_map)} uses a device-matrix axis twice.")
    if shape is not None and len(shape) != len(tmap):
        raise ValueError(f"The tensor map {tuple(tensor_map)} has {len(tmap)} entries, but the tensor has shape "
                         f"{tuple(shape)}.")
    lay = TensorLayout(dev, tmap, int(opt_shard_size), 0, None if shape is None else tuple(shape))
    step = 0
    if lay.opt_shard_size:
        groups = _opt_groups(lay)
        if groups:
            step = math.prod(dev[groups[-1][0] + 1:])
    return lay._replace(opt_shard_step=step)


def _dim_parts(lay):
    """How many pieces each tensor dimension is cut into (before optimizer parallel)."""
    n = len(lay.dev_matrix)
    return [math.prod(lay.dev_matrix[n - 1 - a] for a in _axes(e)) for e in lay.tensor_map]


@functools.lru_cache(maxsize=256)
def _opt_groups(lay):
    """The repeated device-matrix axes optimizer parallel cuts by, left to right, each as
    ``(axis index, part of its size)``: MindSpore takes them from the right, using only the
    low ``k`` of an axis when only ``k`` more are needed. Empty without optimizer parallel."""
    if not lay.opt_shard_size or not lay.tensor_map:
        return []
    n = len(lay.dev_matrix)
    used = {n - 1 - a for e in lay.tensor_map for a in _axes(e)}
    repeated = [i for i, d in enumerate(lay.dev_matrix) if i not in used and d > 1]
    if not repeated:
        raise ValueError(f"The device_matrix {list(lay.dev_matrix)} and tensor_map {list(lay.tensor_map)} cannot "
                         "sharding opt_shard")
    need = lay.opt_shard_size if lay.opt_shard_size > 0 else math.prod(lay.dev_matrix[i] for i in repeated)
    out = []
    for i in reversed(repeated):
        d = lay.dev_matrix[i]
        k = d if need >= d else need
        if (need >= d and need % d) or (need < d and d % need):
            raise ValueError(f"The optimizer shard size {lay.opt_shard_size} does not fit the repeated device-matrix "
                             f"axes of {list(lay.dev_matrix)} (tensor map {list(lay.tensor_map)}).")
        out.insert(0, (i, k))
        need //= k
        if need == 1:
            break
    if need != 1:
        raise ValueError(f"The optimizer shard size {lay.opt_shard_size} is larger than the repeated devices of the "
                         f"device matrix {list(lay.dev_matrix)} (tensor map {list(lay.tensor_map)}).")
    return out


def _piece(lay, rank):
    """``(block index per dimension, optimizer-shard index, optimizer-shard count)`` of ``rank``."""
    if not 0 <= rank < lay.device_num:
        raise ValueError(f"The rank {rank} is out of the device matrix {list(lay.dev_matrix)} "
                         f"({lay.device_num} devices).")
    coord = np.unravel_index(rank, lay.dev_matrix)
    n = len(lay.dev_matrix)
    blocks = []
    for e in lay.tensor_map:
        b = 0
        for a in _axes(e):
            b = b * lay.dev_matrix[n - 1 - a] + int(coord[n - 1 - a])
        blocks.append(b)
    opt, count = 0, 1
    for i, k in _opt_groups(lay):
        opt, count = opt * k + int(coord[i]) % k, count * k
    return tuple(blocks), opt, count


def slice_bounds(lay, shape, rank):
    """``[(start, stop)]`` per dimension of the piece ``rank`` holds of a tensor of ``shape``."""
    shape = tuple(shape)
    if len(shape) != len(lay.tensor_map):
        raise ValueError(f"The tensor map {list(lay.tensor_map)} has {len(lay.tensor_map)} entries, but the tensor "
                         f"has shape {shape}.")
    blocks, opt, count = _piece(lay, rank)
    out = []
    for i, (size, parts, b) in enumerate(zip(shape, _dim_parts(lay), blocks)):
        if size % parts:
            raise ValueError(f"The dimension {i} of shape {shape} can not be split into {parts} parts by the device "
                             f"matrix {list(lay.dev_matrix)} and tensor map {list(lay.tensor_map)}.")
        step = size // parts
        start, stop = b * step, (b + 1) * step
        if i == 0 and count > 1:
            if step % count:
                raise ValueError(f"The first dimension of the slice ({step}) of shape {shape} can not be split into "
                                 f"{count} parts for the optimizer shard.")
            start, stop = start + opt * step // count, start + (opt + 1) * step // count
        out.append((start, stop))
    return out


def slice_for_rank(full, dev_matrix, tensor_map, rank, opt_shard_size=0):
    """The piece of ``full`` (a NumPy array) that ``rank`` holds under the layout (a copy)."""
    full = np.asarray(full)
    lay = make_layout(dev_matrix, tensor_map, opt_shard_size, full.shape)
    return np.array(full[tuple(slice(a, b) for a, b in slice_bounds(lay, full.shape, rank))])


def full_shape(lay, piece_shape):
    """The full tensor's shape from the shape of one rank's piece."""
    shape = [s * p for s, p in zip(piece_shape, _dim_parts(lay))]
    if shape:
        shape[0] *= _piece(lay, 0)[2]
    return tuple(shape)


def merge_slices(slices, lay):
    """The full array from ``{rank: piece}`` (each rank's piece under ``lay``); one rank per
    distinct piece is enough. Raises ``ValueError`` when a piece is missing or a piece's shape
    disagrees with the layout."""
    if not slices:
        raise ValueError("There are no slices to merge.")
    first = np.asarray(slices[min(slices)])
    if len(first.shape) != len(lay.tensor_map):
        raise ValueError(f"The slice of rank {min(slices)} has shape {first.shape}, which does not match the tensor "
                         f"map {list(lay.tensor_map)}.")
    shape = full_shape(lay, first.shape)
    return assemble(slices, lay, shape, [(0, s) for s in shape])


@functools.lru_cache(maxsize=256)
def _holders(lay):
    """``{piece: [ranks holding it]}`` of a layout."""
    out = {}
    for r in range(lay.device_num):
        out.setdefault(_piece(lay, r)[:2], []).append(r)
    return out


def _overlaps(have, want):
    return all(a < d and c < b for (a, b), (c, d) in zip(have, want))


def fake_shape(src, dst):
    """A shape every layout involved splits evenly (rank lists do not depend on the real one)."""
    out = []
    for i in range(len(src.tensor_map)):
        n = 1
        for lay in (src, dst):
            if lay is not None:
                n = math.lcm(n, _dim_parts(lay)[i] * (_piece(lay, 0)[2] if i == 0 else 1))
        out.append(n)
    return tuple(out)


def pieces_needed(src, dst, shape, dst_rank):
    """The source ranks whose pieces cover what ``dst_rank`` holds under ``dst`` (``None``: the
    whole tensor): one rank per distinct piece, the one whose place in the source device
    matrix is nearest to ``dst_rank``'s (so a rank that keeps its data reads its own file)."""
    want = [(0, s) for s in shape] if dst is None else slice_bounds(dst, shape, dst_rank)
    ref = np.array(np.unravel_index(dst_rank % src.device_num, src.dev_matrix))
    out = []
    for ranks in _holders(src).values():
        if shape and not _overlaps(slice_bounds(src, shape, ranks[0]), want):
            continue
        out.append(min(ranks, key=lambda r: (int(np.sum(np.array(np.unravel_index(r, src.dev_matrix)) != ref)), r)))
    return sorted(out)


def assemble(pieces, lay, shape, bounds):
    """The region ``bounds`` of the full tensor (``shape``) from ``{rank: piece}`` under ``lay``;
    raises ``ValueError`` naming a missing rank."""
    first = np.asarray(next(iter(pieces.values())))
    out = np.empty(tuple(b - a for a, b in bounds), first.dtype)
    for key, ranks in _holders(lay).items():
        have = slice_bounds(lay, shape, ranks[0])
        if shape and not _overlaps(have, bounds):
            continue
        rank = next((r for r in ranks if r in pieces), None)
        if rank is None:
            raise ValueError(f"The checkpoint file of rank {ranks[0]} is missing.")
        piece = np.asarray(pieces[rank])
        if piece.shape != tuple(b - a for a, b in have):
            raise ValueError(f"The slice of rank {rank} has shape {piece.shape}, but the layout (device matrix "
                             f"{list(lay.dev_matrix)}, tensor map {list(lay.tensor_map)}) gives "
                             f"{tuple(b - a for a, b in have)}.")
        lo = [max(a, c) for (a, _), (c, _) in zip(have, bounds)]
        hi = [min(b, d) for (_, b), (_, d) in zip(have, bounds)]
        src = tuple(slice(l - a, h - a) for l, h, (a, _) in zip(lo, hi, have))
        dst = tuple(slice(l - c, h - c) for l, h, (c, _) in zip(lo, hi, bounds))
        out[dst] = piece[src]
    return out


# ---------------------------------------------------------------------------
# From sharded jax Arrays
# ---------------------------------------------------------------------------
def job_devices():
    """All devices of the job in rank order (process, then local id)."""
    return tuple(sorted(jax.devices(), key=lambda d: (d.process_index, d.id)))


def _coalesce(names, sizes, spec):
    """Adjacent mesh axes that act as one (cut together, in order, by one tensor dimension, or
    both uncut) merged, so semi-auto parallel's mesh of prime-sized axes gives MindSpore's
    device matrix: (2, 2, 2) cut as ``(('_p1', '_p2'), None)`` is (2, 4) with tensor map (0, -1)."""
    entries = [() if e is None else e if isinstance(e, tuple) else (e,) for e in spec]
    owner = {a: (i, entry.index(a)) for i, entry in enumerate(entries) for a in entry}
    groups = [[names[0]]]
    for a in names[1:]:
        prev = groups[-1][-1]
        po, ao = owner.get(prev), owner.get(a)
        if (po is None and ao is None) or (po is not None and ao is not None and po[0] == ao[0]
                                           and ao[1] == po[1] + 1):
            groups[-1].append(a)
        else:
            groups.append([a])
    merged = {g[0]: g for g in groups}
    new_names = [g[0] for g in groups]
    new_sizes = [int(np.prod([sizes[names.index(a)] for a in g])) for g in groups]
    new_spec = []
    for entry in entries:
        kept = tuple(a for a in entry if a in merged)
        new_spec.append(None if not kept else kept[0] if len(kept) == 1 else kept)
    return new_names, new_sizes, tuple(new_spec)


def _layout_of(array):
    """``(dev_matrix, tensor_map)`` of a ``jax.Array`` in MindSpore's conventions: the
    mesh's shape and its ``PartitionSpec`` with axes counted from the right (-1: not
    split). An unsharded array gives ``((device count,), (-1, ...))``."""
    sharding = getattr(array, "sharding", None)
    ndim = len(array.shape)
    if isinstance(sharding, jax.sharding.NamedSharding):
        mesh = sharding.mesh
        names = list(mesh.axis_names)
        rank = {d: i for i, d in enumerate(job_devices())}
        order = [rank.get(d, -1) for d in mesh.devices.flat]
        if order != sorted(order) or -1 in order:
            raise ValueError(f"The mesh's devices {list(mesh.devices.flat)} are not in rank order, so MindSpore's "
                             "row-major device matrix can not describe the sharding.")
        spec = tuple(sharding.spec) + (None,) * (ndim - len(sharding.spec))
        sizes = [int(s) for s in mesh.devices.shape]
        if all(n.startswith("_p") for n in names):     # semi-auto parallel's mesh of prime-sized axes
            names, sizes, spec = _coalesce(names, sizes, spec)
        dev_matrix = tuple(sizes)
        tmap = []
        for entry in spec:
            axes = () if entry is None else entry if isinstance(entry, tuple) else (entry,)
            idx = tuple(len(names) - 1 - names.index(a) for a in axes)
            tmap.append(-1 if not idx else idx[0] if len(idx) == 1 else idx)
        return dev_matrix, tuple(tmap)
    if sharding is None or sharding.is_fully_replicated:
        count = len(sharding.device_set) if sharding is not None else 1
        return (count,), (-1,) * ndim
    raise TypeError(f"The sharding {sharding} is not a NamedSharding, so it has no device matrix.")


def _array_piece(array, rank):
    """The piece of a ``jax.Array`` on the device of ``rank`` (as NumPy)."""
    sharding = getattr(array, "sharding", None)
    if sharding is None or sharding.is_fully_replicated:
        return np.asarray(array)
    devices = job_devices()
    if not 0 <= rank < len(devices):
        raise ValueError(f"The rank {rank} is out of the job's {len(devices)} devices.")
    for shard in array.addressable_shards:
        if shard.device == devices[rank]:
            return np.asarray(shard.data)
    raise ValueError(f"The piece of rank {rank} is not on a device of this process (process "
                     f"{jax.process_index()}), so this process can not save it.")


def rank_checkpoint_params(net, rank):
    """``{parameter name: NumPy piece}`` that ``rank`` holds of each Parameter of ``net``
    (what MindSpore's ``save_checkpoint(net, ..., integrated_save=False)`` writes on that rank)."""
    out = collections.OrderedDict()
    for _, p in net.parameters_and_names():
        out[p.name] = _array_piece(to_array(p), rank)
    return out
