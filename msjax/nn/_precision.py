"""``Cell.to_float``: a Cell that computes in float16/bfloat16 (MindSpore's
``fp16``/``fp32``/``bf16`` flags).

``cell.to_float(ms.float16)`` marks the cell and its sub-cells. Calling a marked
cell casts its floating-point Tensor inputs to that type and, for the duration of
the call, presents its Parameters cast to that type: the ops inside compute in
float16/bfloat16 while the Parameters keep their float32 values (the master
weights). The cast is part of the traced computation, so gradients reach the
float32 Parameters as float32. A sub-cell marked with another type (BatchNorm kept
in float32 by O2) casts from the master values, not from the outer cast. Values a
cell writes to its Parameters (BatchNorm statistics) are stored back in the
Parameter's own type. The AMP levels built on it are in ``msjax.amp``.
"""
from __future__ import annotations

import functools

import jax.numpy as jnp

from .._core import context, state
from .._core import dtype as mstype
from .._core.tensor import Tensor, wrap
from .._core.transforms import StatefulFunction, bump_version, to_tensors
from ..common._cell_cache import cell_function
from ..ops._impl import normalization as _normalization

_MASTER: dict = {}      # id(Parameter) -> its value outside every precision scope


def _master_value(param):
    """``param``'s value outside the precision scopes it is presented in, or None."""
    return _MASTER.get(id(param))


_normalization.precision_master = _master_value


def _is_float(a):
    return jnp.issubdtype(a.dtype, jnp.floating)


def _cast_tree(x, dt):
    if isinstance(x, Tensor):
        a = x._data
        return wrap(a.astype(dt)) if _is_float(a) and a.dtype != dt else x
    if isinstance(x, tuple):
        return tuple(_cast_tree(v, dt) for v in x)
    if isinstance(x, list):
        return [_cast_tree(v, dt) for v in x]
    if isinstance(x, dict):
        return {k: _cast_tree(v, dt) for k, v in x.items()}
    return x


def cell_to_float(cell, dst_type):
    """``Cell.to_float(dst_type)``: run the cell and its sub-cells in ``dst_type``."""
    if dst_type not in (mstype.float16, mstype.float32, mstype.bfloat16):
        raise ValueError("For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or "
                         f"mstype.bfloat16, but got type: {type(dst_type)} and value: {dst_type}.")
    flags = {"fp16": dst_type == mstype.float16, "fp32": dst_type == mstype.float32,
             "bf16": dst_type == mstype.bfloat16}
    for _, c in cell.cells_and_names():
        for k, v in flags.items():
            object.__setattr__(c, k, v)
        object.__setattr__(c, "_ms_float_dtype", dst_type)
    bump_version()
    return cell


def precision_flags(cell, flags):
    """``cell.add_flags(fp16=True)`` (or ``fp32``/``bf16``): as in MindSpore, the cell alone (not its
    sub-cells: ``add_flags_recursive`` marks those) computes in that type; a later flag wins."""
    for flag, dst_type in (("fp16", mstype.float16), ("fp32", mstype.float32), ("bf16", mstype.bfloat16)):
        if flags.get(flag):
            object.__setattr__(cell, "_ms_float_dtype", dst_type)
    bump_version()


def precision_call(cell, args, kwargs):
    """``cell(*args, **kwargs)`` for a cell marked by ``to_float``."""
    if context.is_graph_mode() and not state.frames:
        fn = cell_function(cell, "to_float", lambda: StatefulFunction(functools.partial(_run, cell)))
        return to_tensors(fn(*args, **kwargs))
    return _run(cell, *args, **kwargs)


def _run(cell, *args, **kwargs):
    dt = mstype.to_np(cell.__dict__["_ms_float_dtype"])
    args = _cast_tree(args, dt)
    kwargs = _cast_tree(kwargs, dt)
    swapped, added = [], []
    for p in cell.get_parameters():
        prev = p._raw_get()
        if not _is_float(prev):
            continue
        master = _MASTER.get(id(p))
        if master is None:
            master = _MASTER[id(p)] = prev
            added.append(id(p))
        new = master if master.dtype == dt else master.astype(dt)
        p._raw_set(new)
        swapped.append((p, prev, new))
    try:
        out = cell._ms_construct(*args, **kwargs)
    finally:
        for p, prev, new in reversed(swapped):
            cur = p._raw_get()
            if cur is new:
                p._raw_set(prev)
            else:   # written inside: keep the new value, in the Parameter's type (a value written in
                # the master's type, BatchNorm's float32 statistics, stays so through nested scopes)
                master = _MASTER.get(id(p))
                keep = cur.dtype == prev.dtype or (master is not None and cur.dtype == master.dtype)
                p._raw_set(cur if keep else cur.astype(prev.dtype))
        for k in added:
            _MASTER.pop(k, None)
    out_dt = cell.__dict__.get("_ms_output_dtype")
    if out_dt is not None:
        out = _cast_tree(out, mstype.to_np(out_dt))
    return out
