"""A loaded strategy file (``strategy_ckpt_load_file``, ``strategy_ckpt_config``'s ``load_file``,
``AutoParallel.load_param_strategy_file``): each Parameter the file names is placed as the file
says for the step.

MindSpore uses the file's layouts for the operators that consume those Parameters (so an eval
network compiled after training cuts its Parameters as the train step did: the zoo's Wide&Deep
``EvalCallBack`` sets the file its train step saved). msjax places each named Parameter with the
file's device matrix and tensor map (optimizer-parallel cuts included) instead of its first
consumer's strategy; XLA then moves blocks where an operator's strategy differs. Differences:
MindSpore raises when an operator's strategy contradicts the file; msjax does not compare them.
Parameters the file does not name keep their strategies' placement.
"""
from __future__ import annotations

import math
import os

import jax

from . import _context, _strategy
from ._layout import _axes, _opt_groups
from ._strategy_file import layout_from_message, read_strategy_file

__all__ = ["load_file", "loaded_shardings"]

P = jax.sharding.PartitionSpec


def load_file():
    """The strategy file to load, or ``""``."""
    cfg = _context.get_auto_parallel_context("strategy_ckpt_config") or {}
    return cfg.get("load_file") or _context.get_auto_parallel_context("strategy_ckpt_load_file") or ""


def _opt_axes(lay, groups):
    """The canonical-mesh axes optimizer parallel cuts dimension 0 by once more (MindSpore takes
    the low ``k`` of a repeated device-matrix axis when only ``k`` are needed: its innermost axes)."""
    out = []
    for i, k in _opt_groups(lay):
        axes, size = [], 1
        for name in reversed(groups[i]):
            if size == k:
                break
            axes.insert(0, name)
            size *= _strategy.canonical_mesh(_strategy.mesh_devices()).shape[name]
        if size != k:
            raise ValueError(f"The optimizer shard size {lay.opt_shard_size} of the loaded layout (device matrix "
                             f"{list(lay.dev_matrix)}) cuts a device-matrix axis into parts msjax's mesh does not "
                             "have.")
        out.extend(axes)
    return tuple(out)


def sharding_of(name, lay, shape, devices):
    """The ``NamedSharding`` over ``devices`` (the job's, rank order) of a :class:`TensorLayout`."""
    if lay.device_num != len(devices):
        raise ValueError(f"The layout of parameter '{name}' in the strategy file has the device matrix "
                         f"{list(lay.dev_matrix)} ({lay.device_num} devices), but the job has {len(devices)}.")
    if len(lay.tensor_map) != len(shape):
        raise ValueError(f"The layout of parameter '{name}' in the strategy file has the tensor map "
                         f"{list(lay.tensor_map)}, but the parameter has shape {list(shape)}.")
    mesh = _strategy.canonical_mesh(tuple(devices))
    groups = _strategy._assign(mesh, list(lay.dev_matrix), name, "device matrix")
    n = len(lay.dev_matrix)
    spec = [tuple(ax for a in _axes(e) for ax in groups[n - 1 - a]) for e in lay.tensor_map]
    if lay.opt_shard_size and spec:
        spec[0] = spec[0] + _opt_axes(lay, groups)
    for d, (size, entry) in enumerate(zip(shape, spec)):
        parts = math.prod(mesh.shape[a] for a in entry)
        if size % parts:
            raise ValueError(f"The layout of parameter '{name}' in the strategy file cuts dimension {d} (size "
                             f"{size}) into {parts} parts.")
    return jax.sharding.NamedSharding(mesh, P(*[None if not e else e[0] if len(e) == 1 else e for e in spec]))


def loaded_shardings(state_params, devices):
    """``{state index: NamedSharding}`` of the Parameters the loaded strategy file names (empty
    without a file). A missing file: ``RuntimeError`` with the text of MindSpore's C++ check
    ("CheckPoint file is not found"; its CPU build compiles no such step, so not observed there)."""
    path = load_file()
    if not path:
        return {}
    if not os.path.isfile(path):
        raise RuntimeError(f"CheckPoint file is not found: the strategy file {path} (strategy_ckpt_load_file) "
                           "does not exist.")
    layouts = read_strategy_file(path)
    out = {}
    for j, p in enumerate(state_params):
        msg = layouts.get(getattr(p, "name", None))
        if msg is not None:
            out[j] = sharding_of(p.name, layout_from_message(p.name, msg), tuple(p.shape), devices)
    return out
