"""``Cell.shard(in_strategy, out_strategy=None, parameter_plan=None)``: strategies for a
whole Cell, as MindSpore's shard function (``ms.shard``).

In a semi-auto/auto-parallel step the Cell's Tensor inputs (and outputs, with
``out_strategy``) are constrained to the strategies and the Parameters named in
``parameter_plan`` are placed as their strategies say; XLA's propagation decides
the rest of the Cell, as MindSpore's sharding propagation does inside a shard
function. Elsewhere the Cell runs unchanged. Difference: ``device`` and ``level``
are accepted and ignored (XLA partitions for every backend).

``parameter_plan`` is resolved when ``shard`` is called, as MindSpore's
``Shard._set_param_layout_into_parameter``: a key is a Parameter's name with a leading
``self.`` dropped (``'self.block1.dense2.weight'`` names ``block1.dense2.weight``) among
the Cell's trainable Parameters; a name that matches none is ignored with a warning, a
Parameter given a plan before keeps its first one (a warning), a tuple of the wrong length
or one that does not divide the shape is a ``ValueError``.
"""
from __future__ import annotations

from .. import log as logger
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
        if not isinstance(pname, str):
            raise TypeError("For 'Shard', the type of each key and value in 'parameter_plan' must be str and "
                            f"tuple/Layout, but got {type(pname).__name__} and {type(s).__name__}")
        _strategy.check_shard_args(name, (s,), None, what="parameter_plan")
    object.__setattr__(cell, "_ms_shard", (in_strategy, out_strategy, _resolve_plan(cell, parameter_plan or {})))
    return cell


def _resolve_plan(cell, parameter_plan):
    """``[(Parameter, strategy)]`` for the plan's names (MindSpore's lookup and checks)."""
    by_name = {p.name: p for p in cell.trainable_params()}
    resolved = []
    for pname, strategy in parameter_plan.items():
        param = by_name.get(pname.replace("self.", ""))
        if param is None:
            logger.warning(f"{pname} is not exist, ignored its setting.")
            continue
        if getattr(param, "_ms_plan_strategy", None) is not None:
            logger.warning(f"The layout of parameter '{pname}' has been set, current setting will be ignored.")
            continue
        if isinstance(strategy, tuple):
            if len(strategy) != len(param.shape):
                raise ValueError(f"For {pname}, the length of param_strategy: {len(strategy)}, "
                                 f"is not equal to param_shape len: {len(param.shape)}.")
            for i, (dim, cut) in enumerate(zip(param.shape, strategy)):
                if dim % cut != 0:
                    raise ValueError(f"For '{pname}', the param_shape is {tuple(param.shape)} and the setting "
                                     f"param_strategy is {strategy}. The param_shape[{i}]: {dim} cannot be "
                                     f"divisible by param_strategy[{i}]: {cut}.")
        object.__setattr__(param, "_ms_plan_strategy", strategy)
        resolved.append((param, strategy))
    return resolved


def run_sharded(cell, construct, *args, **kwargs):
    """``construct(*args, **kwargs)`` with the Cell's strategies (inside a sharded step)."""
    in_strategy, out_strategy, parameter_plan = cell.__dict__["_ms_shard"]
    if _apply.active() is None:
        return construct(*args, **kwargs)
    name = type(cell).__name__
    if parameter_plan:
        _apply.note_parameter_plan(parameter_plan, name)
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
