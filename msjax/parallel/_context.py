"""``ParallelMode`` and the auto-parallel context (``ms.set_auto_parallel_context``).

The settings are validated and recorded like MindSpore's (same keys, defaults
and errors), and training cells read ``parallel_mode``/``gradients_mean``/
``device_num`` from here. ``communication.init()`` records the world size
(``set_world_size``); ``get_device_num``/``get_global_rank`` then follow
MindSpore's ``_get_device_num``/``_get_global_rank`` (1 and 0 in STAND_ALONE, else
the value set, else the group's). Data parallelism itself is ``msjax/communication/_runtime.py``.
"""
from __future__ import annotations

import contextlib
import copy

from .._checkparam import check_bool

__all__ = ["ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context",
           "reset_auto_parallel_context", "get_parallel_mode", "get_device_num", "get_gradients_mean",
           "get_global_rank", "set_world_size"]


class ParallelMode:
    """``mindspore.ParallelMode``: the parallel mode names."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_DEFAULTS = {
    "device_num": 1,
    "global_rank": 0,
    "gradients_mean": False,
    "gradient_fp32_sync": True,
    "parallel_mode": ParallelMode.STAND_ALONE,
    "search_mode": "recursive_programming",
    "auto_parallel_search_mode": "recursive_programming",
    "parameter_broadcast": False,
    "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "",
    "full_batch": False,
    "enable_parallel_optimizer": False,
    "enable_alltoall": False,
    "all_reduce_fusion_config": [],
    "pipeline_stages": 1,
    "grad_accumulation_step": 1,
    "dataset_strategy": "data_parallel",
    "comm_fusion": {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                    "allgather": {"mode": "auto", "config": None},
                    "reducescatter": {"mode": "auto", "config": None}},
    "pipeline_result_broadcast": False,
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
    "auto_pipeline": False,
    "dump_local_norm": False,
}
# keys that can be set but not read back (MindSpore behaves the same way)
_SET_ONLY = {"parallel_optimizer_config", "pipeline_config", "group_ckpt_save_file", "auto_parallel_search_mode",
             "sharding_propagation", "enable_alltoall", "hccl_time_out", "force_fp32_communication",
             "dump_local_norm_path", "dump_device_local_norm", "optimizer_weight_shard_size"}

_ctx = copy.deepcopy(_DEFAULTS)
_explicit = set()   # keys set since the last reset (MindSpore's ``get_<key>_is_set``)
_set_only = {}      # values of the set-only keys (optimizer parallel reads them)
_LEVELS = ("level1", "level2", "level3")


def set_auto_parallel_context(**kwargs):
    """``mindspore.set_auto_parallel_context``: record parallel settings (one device)."""
    for key, value in kwargs.items():
        if key not in _DEFAULTS and key not in _SET_ONLY:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
            raise ValueError("The context configuration parameter 'parallel_mode' only support 'stand_alone', "
                             "'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', "
                             f"but got the value : {value}.")
        _check_pipeline(key, value)
        if key == "device_num" and (isinstance(value, bool) or not isinstance(value, int) or
                                    not 1 <= value <= 4096):
            raise ValueError(f"For 'set_auto_parallel_context', the argument 'device_num' must be in range "
                             f"[1, 4096], but got {value}.")
        if key in ("gradients_mean", "full_batch", "enable_parallel_optimizer", "parameter_broadcast") and \
                not isinstance(value, bool):
            raise TypeError(f"For 'set_auto_parallel_context', the argument '{key}' must be bool, "
                            f"but got {type(value).__name__}.")
        if key == "parallel_optimizer_config":
            _check_optimizer_config(value)
        if key == "pipeline_config":
            _check_pipeline_config(value)
        if key in _SET_ONLY:
            _set_only[key] = copy.deepcopy(value)
            continue
        _ctx[key] = value
        _explicit.add(key)


def _check_optimizer_config(value):
    if not isinstance(value, dict):
        raise TypeError(f"For 'set_auto_parallel_context', the argument 'parallel_optimizer_config' must be dict, "
                        f"but got {type(value).__name__}.")
    known = ("gradient_accumulation_shard", "parallel_optimizer_threshold", "optimizer_weight_shard_size",
             "optimizer_level")
    for k, v in value.items():
        if k not in known:
            raise ValueError(f"The key '{k}' of parallel_optimizer_config is not recognized, it must be one of "
                             f"{list(known)}.")
        if k == "optimizer_level" and v not in _LEVELS:
            raise ValueError(f"Optimizer level should in ['level1', 'level2', 'level3'], but got {v}")
        if k in ("parallel_optimizer_threshold", "optimizer_weight_shard_size") and \
                (isinstance(v, bool) or not isinstance(v, int)):
            raise TypeError(f"The value of '{k}' must be int, but got {type(v).__name__}.")


def optimizer_parallel_config():
    """Optimizer parallel as configured: ``enabled``, ``shard_size`` (-1: all data-parallel
    devices), ``threshold`` (KB below which a Parameter is not cut), ``level``."""
    cfg = _set_only.get("parallel_optimizer_config", {})
    size = cfg.get("optimizer_weight_shard_size", _set_only.get("optimizer_weight_shard_size", -1))
    return {"enabled": bool(_ctx["enable_parallel_optimizer"]), "shard_size": size,
            "threshold": cfg.get("parallel_optimizer_threshold", 64), "level": cfg.get("optimizer_level", "level1")}


@contextlib.contextmanager
def scoped(settings):
    """The context with ``settings`` (full keys, as ``set_auto_parallel_context`` takes them)
    for the duration of a block: ``AutoParallel`` runs its network this way."""
    saved, saved_explicit, saved_only = copy.deepcopy(_ctx), set(_explicit), copy.deepcopy(_set_only)
    try:
        set_auto_parallel_context(**settings)
        yield
    finally:
        _ctx.clear()
        _ctx.update(saved)
        _explicit.clear()
        _explicit.update(saved_explicit)
        _set_only.clear()
        _set_only.update(saved_only)


def get_auto_parallel_context(attr_key):
    """``mindspore.get_auto_parallel_context``."""
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return copy.deepcopy(_ctx[attr_key])


def reset_auto_parallel_context():
    """``mindspore.reset_auto_parallel_context``: back to the defaults."""
    _ctx.clear()
    _ctx.update(copy.deepcopy(_DEFAULTS))
    _explicit.clear()
    _set_only.clear()


def get_parallel_mode():
    return _ctx["parallel_mode"]


_WORLD = [None, 0]   # (processes in the job, this process's rank) once communication.init() ran


def set_world_size(size, rank=0):
    _WORLD[0], _WORLD[1] = size, rank


def get_device_num():
    """MindSpore's ``_get_device_num``: 1 in STAND_ALONE, else ``device_num`` if set, else the group size."""
    if _ctx["parallel_mode"] == ParallelMode.STAND_ALONE:
        return 1
    if "device_num" in _explicit or _WORLD[0] is None:
        return _ctx["device_num"]
    return _WORLD[0]


def get_gradients_mean():
    return _ctx["gradients_mean"]


def get_global_rank():
    """MindSpore's ``_get_global_rank``: 0 in STAND_ALONE, else ``global_rank`` if set, else the rank."""
    if _ctx["parallel_mode"] == ParallelMode.STAND_ALONE:
        return 0
    if "global_rank" in _explicit or _WORLD[0] is None:
        return _ctx["global_rank"]
    return _WORLD[1]


def _check_pipeline(key, value):
    """MindSpore's checks of ``pipeline_stages`` (an int >= 1) and ``pipeline_result_broadcast``
    (a bool): its ``args_type_check`` first, then ``set_pipeline_stages``."""
    if key == "pipeline_stages":
        if not isinstance(value, int):
            raise TypeError(f"The parameter 'pipeline_stages' must be {int}, but got {type(value)}")
        if isinstance(value, bool):
            raise TypeError("For 'set_auto_parallel_context', the argument 'pipeline_stages' must be int, "
                            f"but got the type : {type(value)}.")
        if value < 1:
            raise ValueError("For 'set_auto_parallel_context', the argument 'pipeline_stages' should be greater "
                             f"or equal 1, but got the value of stages : {value}.")
    if key == "pipeline_result_broadcast" and not isinstance(value, bool):
        raise TypeError(f"The parameter 'pipeline_result_broadcast' must be {bool}, but got {type(value)}")


_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")


def _check_pipeline_config(value):
    """MindSpore 2.10's ``set_pipeline_config`` checks (``pipeline_interleave``, ``pipeline_scheduler``)."""
    if not isinstance(value, dict):
        raise TypeError(f"The parameter 'pipeline_config' must be {dict}, but got {type(value)}")
    unknown = [k for k in value if k not in ("pipeline_interleave", "pipeline_scheduler")]
    if unknown:
        raise ValueError(f"Unknown config: {unknown[:1]}")
    interleave = check_bool(value["pipeline_interleave"], "pipeline_interleave", "pipeline_interleave")
    scheduler = value["pipeline_scheduler"]
    if scheduler not in _SCHEDULERS:
        raise ValueError(f"The 'parameter' must be str and must be in '{list(_SCHEDULERS) + ['seqsmartvpp']}', "
                         f"but got {scheduler!r}.")
    if not interleave and scheduler != "1f1b":
        raise TypeError(f"When pipeline_interleave is False, {scheduler!r} is not supported, only '1f1b' is allowed.")


def pipeline_scheduler():
    """The pipeline schedule in effect (``pipeline_config``'s ``pipeline_scheduler``, default ``"1f1b"``)."""
    return (_set_only.get("pipeline_config") or {}).get("pipeline_scheduler", "1f1b")
