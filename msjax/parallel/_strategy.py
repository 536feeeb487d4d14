"""Sharding strategies and ``Layout``: MindSpore's operator-parallel notation as JAX shardings.

A MindSpore strategy gives, for every input of an operator, how many parts each
dimension is cut into: ``ops.MatMul().shard(((2, 4), (4, 1)))`` cuts ``x`` into 2 x 4
blocks and ``w`` into 4 rows. With ``n`` devices and a strategy whose product is
``p``, MindSpore's device matrix is ``(n / p, *strategy)``: the leading factor is the
*repeated calculation* (devices holding the same block). Here every strategy is a
``PartitionSpec`` on one mesh of the job's devices in rank order with an axis per prime
factor of the device count (``'_p0'``, ``'_p1'``...; 8 devices: 2 x 2 x 2): each strategy
dimension takes a group of axes whose sizes multiply to its cut, in MindSpore's device-matrix
order with the repeated calculation innermost; a matrix product uses its operator-level
device matrix ``(batch..., i, j, k, repeat)`` for both inputs. A ``Layout((2, 2, 2), ("dp", "sp", "mp"))``
is the same with the user's device matrix and names; ``layout("mp", ("sp", "dp"))``
shards dimension 0 over ``mp`` and dimension 1 over ``sp`` and ``dp`` together
(``"None"``: not cut). The alias ``"interleaved_parallel"`` (MindSpore's
micro-interleaving inside one device) adds no device axis here.

Differences from MindSpore: outside the matrix products and the element-wise (broadcasting)
operators the device matrix is taken per input (MindSpore derives one per operator); the results are the same, only the placement
of repeated blocks may differ. ``leaf`` layer: imports
only JAX and NumPy.
"""
from __future__ import annotations

import functools
import math

import jax
import numpy as np

__all__ = ["Layout", "check_shard_args", "Strategy", "to_strategies", "op_strategies", "mesh_devices"]

_INTERLEAVED = "interleaved_parallel"


class Layout:
    """``mindspore.parallel.Layout(device_matrix, alias_name, rank_list=None)``.

    Calling it with one entry per tensor dimension (an alias, a tuple of aliases or
    ``"None"``) gives a Layout of a tensor (``to_dict()`` shows MindSpore's
    ``device_matrix``/``tensor_map``: tensor-map entries count device-matrix axes from
    the right, -1 for not split)."""

    def __init__(self, device_matrix, alias_name, rank_list=None, init_backend=True):
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ValueError("device_matrix.len must be equal to alias_name.len")
        for v in device_matrix:
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise TypeError(f"device_matrix must be a tuple of positive int, but got {device_matrix}")
        for name in alias_name:
            if not isinstance(name, str):
                raise TypeError(f"alias_name must be tuple of str, but got:{type(name)}")
            if name == "None":
                raise ValueError("The alias_name cannot be 'None', it is a reserved word.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"Each element of alias_name {alias_name} must be different")
        if rank_list is not None and (not isinstance(rank_list, (list, tuple))
                                      or any(not isinstance(r, int) for r in rank_list)):
            raise TypeError(f"rank_list must be a list of int, but got {rank_list}")
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._rank_list = list(rank_list) if rank_list is not None else None
        self._tensor_map = None

    def __call__(self, *tensor_map):
        out = Layout(self._device_shape, self._alias_name, self._rank_list)
        for entry in tensor_map:
            names = entry if isinstance(entry, tuple) else (entry,)
            for name in names:
                if not isinstance(name, str):
                    raise TypeError(f"The tensor map of a Layout must be str or tuple of str, but got {entry}")
                if name != "None" and name not in self._alias_name:
                    raise ValueError(f"The value of tensor_map {entry} must be in alias_name {self._alias_name} "
                                     "or 'None'")
            if isinstance(entry, tuple) and "None" in entry and len(entry) > 1:
                raise ValueError(f"'None' cannot be combined with other aliases in {entry}")
        used = [n for e in tensor_map for n in (e if isinstance(e, tuple) else (e,)) if n != "None"]
        if len(used) != len(set(used)):
            raise ValueError(f"Each alias may be used once in a tensor map, but got {tensor_map}")
        out._tensor_map = tensor_map
        return out

    def to_dict(self):
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        n = len(self._alias_name)
        index = {name: n - 1 - i for i, name in enumerate(self._alias_name)}

        def entry(e):
            names = e if isinstance(e, tuple) else (e,)
            vals = tuple(-1 if x == "None" else index[x] for x in names)
            return vals if isinstance(e, tuple) else vals[0]

        return {"device_matrix": self._device_shape, "tensor_map": tuple(entry(e) for e in self._tensor_map),
                "interleaved_parallel": _INTERLEAVED in self._alias_name, "alias_name": self._alias_name,
                "rank_list": self._rank_list}

    def __repr__(self):
        return (f"Layout(device_matrix={self._device_shape}, alias_name={self._alias_name}, "
                f"tensor_map={self._tensor_map})")


def _is_layout(s):
    return isinstance(s, Layout)


def check_shard_args(name, in_strategy, out_strategy, what="strategy"):
    """MindSpore's checks of ``Primitive.shard``'s arguments (types only: shapes and the
    device count are checked when the operator meets its inputs)."""
    for label, strategy in (("in_strategy", in_strategy), ("out_strategy", out_strategy)):
        if strategy is None:
            continue
        if not isinstance(strategy, tuple):
            raise TypeError(f"For '{name}', the '{label}' must be tuple type, but got:{type(strategy)}")
        for element in strategy:
            if _is_layout(element):
                if element._tensor_map is None:
                    raise ValueError(f"For '{name}', a Layout in '{label}' must be called with its tensor map, "
                                     f"like layout('dp', 'None'), but got {element}")
                continue
            if not isinstance(element, tuple):
                raise TypeError(f"For '{name}', the element of {what} must be tuple type or Layout, "
                                f"but got:{type(element)}")
            for v in element:
                if isinstance(v, bool) or not isinstance(v, int):
                    raise TypeError(f"The {label}: {strategy} of {name} is not valid, the value of strategy "
                                    f"must be int type, but got:{type(v)}")
                if v <= 0:
                    raise ValueError(f"The {label}: {strategy} of {name} is not valid, the value of strategy "
                                     f"must be positive, but got {v}")
    if in_strategy is None and out_strategy is not None:
        raise ValueError(f"The out_strategy of {name} is {out_strategy}, need to set in_strategy, but got none")


def mesh_devices():
    """All devices of the job in rank order (process, then local id): MindSpore's rank order."""
    return tuple(sorted(jax.devices(), key=lambda d: (d.process_index, d.id)))


def _primes(n):
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


@functools.lru_cache(maxsize=None)
def canonical_mesh(devices):
    """The one mesh of a job: an axis per prime factor of the device count (``'_p0'``, ...),
    devices in rank order. Every strategy and Layout is expressed on it, because XLA needs
    one mesh for a program with host callbacks (``print``/``ops.Print``)."""
    primes = _primes(len(devices)) or [1]
    return jax.sharding.Mesh(np.array(devices, dtype=object).reshape(primes),
                             tuple(f"_p{i}" for i in range(len(primes))))


def _assign(mesh, sizes, opname, what):
    """Disjoint groups of mesh axes whose sizes multiply to ``sizes[i]``, the last size taking
    the innermost axes (MindSpore's device matrix is row-major): a tuple of axis names per size."""
    free = list(mesh.axis_names)
    groups = [()] * len(sizes)
    for i in reversed(range(len(sizes))):
        k, group = sizes[i], []
        for name in reversed(list(free)):
            p = mesh.shape[name]
            if p > 1 and k % p == 0:
                group.insert(0, name)
                free.remove(name)
                k //= p
            if k == 1:
                break
        if k != 1:
            raise RuntimeError(f"For '{opname}', the {what} {tuple(sizes)} does not fit the device number "
                               f"{math.prod(mesh.devices.shape)}: invalid strategy.")
        groups[i] = tuple(group)
    return groups


def _entry(group):
    return None if not group else group[0] if len(group) == 1 else group


class Strategy:
    """One tensor's strategy on ``n`` devices: a mesh and a PartitionSpec."""

    def __init__(self, mesh, spec, parts):
        self.mesh, self.spec, self.parts = mesh, spec, parts   # parts[d]: how many pieces dimension d is cut into

    @property
    def sharding(self):
        return jax.sharding.NamedSharding(self.mesh, self.spec)

    def check_shape(self, opname, index, shape, strategy):
        if len(shape) != len(self.parts):
            raise RuntimeError(f"For '{opname}', the strategy {strategy} of input {index} has "
                               f"{len(self.parts)} dimensions, but the input has {len(shape)} "
                               f"(shape {list(shape)}): invalid strategy.")
        for d, (size, k) in enumerate(zip(shape, self.parts)):
            if k > 1 and size % k:
                raise RuntimeError(f"For '{opname}', the strategy {strategy} cuts dimension {d} of input "
                                   f"{index} (shape {list(shape)}) into {k} parts, but {size} is not "
                                   f"divisible by {k}: invalid strategy.")


def _from_tuple(opname, strategy, devices, repeat_left=False):
    n = len(devices)
    p = math.prod(strategy)
    if n % p:
        raise RuntimeError(f"For '{opname}', the product of the strategy {strategy} is {p}, which does not "
                           f"divide the device number {n}: invalid strategy.")
    mesh = canonical_mesh(devices)
    # the repeated calculation is the last (innermost) device-matrix dimension, as MindSpore's
    # operators; the first for a dataset strategy (its VirtualDatasetInfo: rank r holds slice r % p)
    if repeat_left:
        groups = _assign(mesh, [n // p] + list(strategy), opname, "strategy")[1:]
    else:
        groups = _assign(mesh, list(strategy) + [n // p], opname, "strategy")[:-1]
    return Strategy(mesh, jax.sharding.PartitionSpec(*[_entry(g) for g in groups]), tuple(strategy))


_MATMULS = {"MatMul": ("transpose_a", "transpose_b"), "BatchMatMul": ("transpose_a", "transpose_b"),
            "matmul": (None, None), "mm": (None, None), "bmm": (None, None)}


# MindSpore's ArithmeticBase operators: one device matrix from the inputs' strategies
# aligned to the right (broadcasting), as its InferDevMatrixShape
_BROADCASTING = frozenset((
    "Add", "Sub", "Mul", "RealDiv", "Div", "DivNoNan", "Maximum", "Minimum", "Pow", "FloorDiv", "FloorMod",
    "Mod", "SquaredDifference", "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
    "LogicalAnd", "LogicalOr", "Atan2", "Xdivy", "Xlogy"))


def _broadcast_strategies(opname, strategy, devices):
    """An element-wise operator's strategies on its one device matrix: the inputs' strategies
    aligned to the right, each dimension the cut of the inputs that cut it (MindSpore's
    ``(max..., repeat)``), so a broadcast bias sits on the devices of the rows it is added to."""
    if not strategy or not all(isinstance(st, tuple) and st for st in strategy):
        return None
    rank = max(len(st) for st in strategy)
    dev = [1] * rank
    for st in strategy:
        for d, k in enumerate(st, rank - len(st)):
            if k != 1 and dev[d] not in (1, k):
                return None     # the per-input path reports the error
            dev[d] = max(dev[d], k)
    n, p = len(devices), math.prod(dev)
    if n % p:
        return None
    mesh = canonical_mesh(devices)
    groups = _assign(mesh, dev + [n // p], opname, "strategy")
    return [Strategy(mesh, jax.sharding.PartitionSpec(*[_entry(groups[d]) if k > 1 else None
                                                        for d, k in enumerate(st, rank - len(st))]), tuple(st))
            for st in strategy]


def op_strategies(opname, strategy, devices, attrs):
    """An operator's strategies on its operator-level device matrix: a matrix product's is
    MindSpore's ``(batch..., i, j, k, repeat)``, so ``x``'s and ``w``'s shared dimension ``j``
    sit on the same devices and XLA moves nothing between them; an element-wise operator's
    (:func:`_broadcast_strategies`); None for other operators (their inputs each get their own
    device matrix)."""
    if opname in _BROADCASTING:
        return _broadcast_strategies(opname, strategy, devices)
    flags = _MATMULS.get(opname)
    if flags is None or len(strategy) != 2 or not all(isinstance(st, tuple) for st in strategy):
        return None
    x, w = strategy
    if len(x) < 2 or len(w) < 2:
        return None
    ta = bool(attrs.get(flags[0])) if flags[0] else False
    tb = bool(attrs.get(flags[1])) if flags[1] else False
    i, j = (x[-1], x[-2]) if ta else (x[-2], x[-1])
    j2, k = (w[-1], w[-2]) if tb else (w[-2], w[-1])
    batch, wbatch = x[:-2], w[:-2]
    if j != j2 or len(wbatch) > len(batch) or any(b not in (1, a) for a, b in zip(batch[::-1], wbatch[::-1])):
        return None
    n, p = len(devices), math.prod(batch) * i * j * k
    if n % p:
        return None      # the per-input path reports the error
    mesh = canonical_mesh(devices)
    g = _assign(mesh, list(batch) + [i, j, k, n // p], opname, "strategy")
    gb, gi, gj, gk = g[:len(batch)], g[-4], g[-3], g[-2]
    xs = list(gb) + ([gj, gi] if ta else [gi, gj])
    wb = [gb[len(batch) - len(wbatch) + t] if wbatch[t] > 1 else () for t in range(len(wbatch))]
    ws = wb + ([gk, gj] if tb else [gj, gk])
    return [Strategy(mesh, jax.sharding.PartitionSpec(*[_entry(a) for a in xs]), tuple(x)),
            Strategy(mesh, jax.sharding.PartitionSpec(*[_entry(a) for a in ws]), tuple(w))]


def _from_layout(opname, layout, devices):
    n = len(devices)
    if layout._rank_list is not None and list(layout._rank_list) != list(range(n)):
        raise NotImplementedError(f"For '{opname}', msjax does not support a Layout over a subset of the devices "
                                  f"(rank_list {layout._rank_list}); a Layout spans all {n} devices.")
    dims = [(d, a) for d, a in zip(layout._device_shape, layout._alias_name) if a != _INTERLEAVED]
    p = math.prod(d for d, _ in dims)
    if p != n:
        raise RuntimeError(f"For '{opname}', the device matrix {layout._device_shape} of the Layout has "
                           f"{p} devices, but the job has {n}: invalid layout.")
    mesh = canonical_mesh(devices)
    axes = dict(zip((a for _, a in dims), _assign(mesh, [d for d, _ in dims], opname, "device matrix")))
    size = {a: d for d, a in dims}
    spec, parts = [], []
    for e in layout._tensor_map:
        names = tuple(x for x in (e if isinstance(e, tuple) else (e,)) if x not in ("None", _INTERLEAVED))
        spec.append(_entry(sum((axes[x] for x in names), ())))
        parts.append(math.prod(size[x] for x in names))
    return Strategy(mesh, jax.sharding.PartitionSpec(*spec), tuple(parts))


def to_strategies(opname, strategy, devices=None, repeat_left=False):
    """The per-tensor :class:`Strategy` list of an in/out strategy (tuples or Layouts);
    ``repeat_left``: a tuple's repeated calculation is the first device-matrix dimension."""
    devices = mesh_devices() if devices is None else devices
    return [_from_layout(opname, s, devices) if _is_layout(s) else _from_tuple(opname, s, devices, repeat_left)
            for s in strategy]


def replicated(devices=None):
    devices = mesh_devices() if devices is None else devices
    return jax.sharding.NamedSharding(canonical_mesh(devices), jax.sharding.PartitionSpec())


def split_dim0(ndim, devices=None, parts=None):
    """Dimension 0 cut over ``parts`` devices (all of them by default), the rest repeated."""
    devices = mesh_devices() if devices is None else devices
    mesh = canonical_mesh(devices)
    parts = len(devices) if parts is None else parts
    group = _assign(mesh, [parts], "dataset_strategy", "split")[0]
    return jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*((_entry(group),) + (None,) * (ndim - 1))))


def unused_axes(sharding):
    """The mesh axes a sharding does not cut along: its repeated calculation."""
    used = set()
    for e in sharding.spec:
        used.update(e if isinstance(e, tuple) else (() if e is None else (e,)))
    return tuple(a for a in sharding.mesh.axis_names if a not in used and sharding.mesh.shape[a] > 1)
