"""``mindspore.parallel._auto_parallel_context``: the ``auto_parallel_context()``
object whose getters and setters real scripts call
(``auto_parallel_context().get_device_num()``, ``.get_pipeline_stages()``...).

It is a view of the one auto-parallel context (``msjax.parallel._context``, what
``set_auto_parallel_context`` writes): keys msjax's context has are read and
written there; MindSpore's other internal settings (fusion, pipeline scheduling)
are recorded here with MindSpore 2.10's defaults and have no effect on msjax.
"""
from __future__ import annotations

import copy

from . import _context as _parallel

__all__ = ["auto_parallel_context"]

# MindSpore 2.10's defaults for the settings msjax's context does not keep.
_EXTRA = {
    "all_reduce_fusion_split_indices": [], "all_reduce_fusion_split_sizes": [], "auto_parallel_new_interface": False,
    "communi_parallel_mode": "all_group_parallel", "dump_device_local_norm": False, "dump_local_norm_path": "",
    "enable_all_gather_fusion": False, "enable_all_reduce_fusion": False, "enable_fold_pipeline": False,
    "enable_reduce_scatter_fusion": False, "force_fp32_communication": False, "grad_accumulation_shard": False,
    "init_param_in_compile": True, "loss_repeated_mean": True, "optimizer_weight_shard_aggregated_save": False,
    "optimizer_weight_shard_size": -1, "parallel_optimizer_threshold": -1, "pipeline_interleave": False,
    "pipeline_scheduler": "1f1b", "pipeline_segments": 1, "sharding_propagation": False,
    "strategy_search_mode": "recursive_programming", "auto_parallel_search_mode": "recursive_programming",
    "enable_alltoall": False, "group_ckpt_save_file": "", "parallel_optimizer_config": {}, "pipeline_config": {},
}
_IS_SET = ("device_num", "global_rank", "full_batch", "parameter_broadcast")


class _AutoParallelContext:
    """MindSpore's ``_AutoParallelContext`` (one instance, ``auto_parallel_context()``)."""

    def __init__(self):
        self._extra = copy.deepcopy(_EXTRA)

    def _get(self, key):
        if key == "dataset_strategy" and _parallel.get_auto_parallel_context("full_batch") \
                and "dataset_strategy" not in _parallel._explicit:
            return "full_batch"   # MindSpore's full_batch=True is the dataset strategy 'full_batch'
        if key in _parallel._DEFAULTS and key not in ("auto_parallel_search_mode",):
            return _parallel.get_auto_parallel_context(key)
        return copy.deepcopy(self._extra[key])

    def _put(self, key, value):
        if key in _parallel._DEFAULTS or key in _parallel._SET_ONLY:
            _parallel.set_auto_parallel_context(**{key: value})
        if key in self._extra:
            self._extra[key] = value

    def reset(self):
        """Back to the defaults (``reset_auto_parallel_context``)."""
        _parallel.reset_auto_parallel_context()
        self._extra = copy.deepcopy(_EXTRA)

    def check_context_handle(self):
        """MindSpore checks its C++ handle here; msjax's context always exists."""


def _getter(key):
    def get(self):
        return self._get(key)
    get.__name__ = get.__qualname__ = f"get_{key}"
    get.__doc__ = f"The auto-parallel setting ``{key}``."
    return get


def _setter(key):
    def put(self, value):
        self._put(key, value)
    put.__name__ = put.__qualname__ = f"set_{key}"
    put.__doc__ = f"Set the auto-parallel setting ``{key}`` (as ``set_auto_parallel_context({key}=...)``)."
    return put


def _is_set(key):
    def is_set(self):
        return key in _parallel._explicit
    is_set.__name__ = is_set.__qualname__ = f"get_{key}_is_set"
    return is_set


for _key in sorted(set(_parallel._DEFAULTS) | set(_EXTRA)):
    setattr(_AutoParallelContext, f"get_{_key}", _getter(_key))
    setattr(_AutoParallelContext, f"set_{_key}", _setter(_key))
for _key in _IS_SET:
    setattr(_AutoParallelContext, f"get_{_key}_is_set", _is_set(_key))

_INSTANCE = None


def auto_parallel_context():
    """The auto-parallel context object (MindSpore's ``auto_parallel_context()``)."""
    global _INSTANCE
    if _INSTANCE is None:
        _INSTANCE = _AutoParallelContext()
    return _INSTANCE
