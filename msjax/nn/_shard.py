"""``Cell.shard(in_strategy, out_strategy=None, parameter_plan=None)``: strategies for a
whole Cell, as MindSpore's shard function (``ms.shard``).

In a semi-auto/auto-parallel step the Cell's Tensor inputs (and outputs, with
``out_strategy``) are constrained to the strategies and the Parameters named in
``parameter_plan`` are placed as their strategies say; XLA's propagation decides
the rest of the Cell, as MindSpore's sharding propagation does inside a shard
function. Elsewhere the Cell runs unchanged. Difference: ``device`` and ``level``
are accepted and ignored (XLA partitions for every backend).
"""
from __future__ import annotations

from ..parallel import _apply, _strategy

__all__ = ["cell_shard", "run_sharded"]


def cell_shard(cell, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
    name = type(cell).__name__
    if not isinstance(in_strategy, tuple):
        raise TypeError(f"For 'Cell.shard', 'in_strategy' must be a tuple, but got {type(in_strategy).__name__}.")
    if out_strategy is not None and not isinstance(out_strategy, tuple):
        raise TypeError(f"For 'Cell.shard', 'out_strategy' must be a tuple or None, but got "
                        f"{type(out_strategy).__name__}.")
    if parameter_plan is not None and not isinstance(parameter_plan, dict):
        raise TypeError(f"For 'Cell.shard', 'parameter_plan' must be a dict or None, but got "
                        f"{type(parameter_plan).__name__}.")
    if device not in ("Ascend", "GPU", "CPU"):
        raise ValueError(f"For 'Cell.shard', 'device' must be one of ['Ascend', 'GPU', 'CPU'], but got {device}.")
    # MindSpore allows None entries in in_strategy (an input left to propagation)
    _strategy.check_shard_args(name, tuple(s for s in in_strategy if s is not None), out_strategy)
    for pname, s in (parameter_plan or {}).items():
        _strategy.check_shard_args(name, (s,), None, what="parameter_plan")
    object.__setattr__(cell, "_ms_shard", (in_strategy, out_strategy, dict(parameter_plan or {})))
    return cell


def run_sharded(cell, construct, *args, **kwargs):
    """``construct(*args, **kwargs)`` with the Cell's strategies (inside a sharded step)."""
    in_strategy, out_strategy, parameter_plan = cell.__dict__["_ms_shard"]
    if _apply.active() is None:
        return construct(*args, **kwargs)
    name = type(cell).__name__
    if parameter_plan:
        _apply.note_parameter_plan({p.name: p for p in cell.get_parameters()}, parameter_plan, name)
    keep = [i for i, s in enumerate(in_strategy) if s is not None]   # None: left to propagation
    args = list(args)
    constrained = _apply.apply(name, tuple(in_strategy[i] for i in keep), None, _identity,
                               tuple(args[i] for i in keep), {})
    for i, v in zip(keep, constrained):
        args[i] = v
    out = construct(*args, **kwargs)
    if out_strategy is None:
        return out
    single = not isinstance(out, (tuple, list))
    outs = _apply.apply(name, out_strategy, None, _identity, (out,) if single else tuple(out), {})
    return outs[0] if single else type(out)(outs)


def _identity(*xs):
    return xs
