"""``mindspore.dataset.config``: global settings of the data pipeline.

The seed drives every random choice of the pipeline (shuffle buffers, random
samplers, random transforms). As in MindSpore, a pipeline built with no seed set
(``get_seed()`` returns MindSpore's default 5489) shuffles differently on every
run, and one built after ``set_seed(n)`` (or ``mindspore.set_seed(n)``) repeats
the same order. Worker counts, prefetch size and the other knobs are recorded;
``num_parallel_workers`` is the default worker count of ``map``/``batch``/sources.
"""
from __future__ import annotations

import os
import random
import threading

import numpy as np

from ..common.seed import also_seed

__all__ = ["set_seed", "get_seed", "set_prefetch_size", "get_prefetch_size", "set_num_parallel_workers",
           "get_num_parallel_workers", "set_numa_enable", "get_numa_enable", "set_monitor_sampling_interval",
           "get_monitor_sampling_interval", "set_callback_timeout", "get_callback_timeout",
           "set_auto_num_workers", "get_auto_num_workers", "set_enable_shared_mem", "get_enable_shared_mem",
           "set_sending_batches", "set_enable_autotune", "get_enable_autotune", "set_autotune_interval",
           "get_autotune_interval", "set_auto_offload", "get_auto_offload", "set_enable_watchdog",
           "get_enable_watchdog", "set_multiprocessing_timeout_interval", "get_multiprocessing_timeout_interval",
           "set_dynamic_shape", "get_dynamic_shape", "set_fast_recovery", "get_fast_recovery", "set_debug_mode",
           "get_debug_mode", "set_error_samples_mode", "get_error_samples_mode", "set_iterator_mode",
           "get_iterator_mode", "set_multiprocessing_start_method", "get_multiprocessing_start_method",
           "set_video_backend", "get_video_backend", "load", "ErrorSamplesMode"]

UINT32_MAX = 4294967295
DEFAULT_SEED = 5489        # std::mt19937::default_seed: MindSpore's "no seed set"
INT32_MAX = 2147483647

_state = {
    "seed": DEFAULT_SEED,
    "prefetch_size": 16,
    "num_parallel_workers": min(8, os.cpu_count() or 1),
    "numa_enable": False,
    "monitor_sampling_interval": 1000,
    "callback_timeout": 60,
    "auto_num_workers": False,
    "enable_shared_mem": True,
    "sending_batches": 0,
    "enable_autotune": False,
    "autotune_interval": 0,
    "auto_offload": False,
    "enable_watchdog": True,
    "multiprocessing_timeout_interval": 300,
    "dynamic_shape": False,
    "fast_recovery": True,
    "debug_mode": False,
    "error_samples_mode": 0,
    "iterator_mode": {"do_copy": False, "parallel_convert": False},
    "start_method": "fork",
    "video_backend": "CPU",
}
# bumped by set_seed: pipelines created afterwards restart their random streams
_generation = [0]


class ErrorSamplesMode:
    RETURN = 0
    REPLACE = 1
    SKIP = 2


def _check_int(name, value, lo, hi):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} isn't of type int.")
    if value < lo or value > hi:
        raise ValueError(f"{name} given is not within the required range [{lo}, {hi}].")


def set_seed(seed):
    """Seed of the pipeline's random choices (also numpy's and Python's, as MindSpore does)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("seed isn't of type int.")
    if seed < 0 or seed > UINT32_MAX:
        raise ValueError("seed given is not within the required range [0, UINT32_MAX(4294967295)].")
    _state["seed"] = seed
    _generation[0] += 1
    random.seed(seed)
    np.random.seed(seed)


@also_seed
def _set_seed_from_global(seed):
    """``mindspore.set_seed`` also seeds the data pipeline, and Python's ``random`` (MindSpore's
    calls ``dataset.config.set_seed``; Python-implemented transforms such as ``RandomOrder``
    draw from ``random``)."""
    if 0 <= seed <= UINT32_MAX:
        _state["seed"] = seed
        _generation[0] += 1
        random.seed(seed)


def get_seed():
    return _state["seed"]


def _base_seed():
    """The seed random pipeline parts start from: the configured one, or a fresh
    random one when no seed was set (MindSpore draws from /dev/urandom then)."""
    seed = _state["seed"]
    if seed == DEFAULT_SEED:
        return int.from_bytes(os.urandom(4), "little")
    return seed


def set_prefetch_size(size):
    _check_int("size", size, 1, INT32_MAX)
    _state["prefetch_size"] = size


def get_prefetch_size():
    return _state["prefetch_size"]


def set_num_parallel_workers(num):
    if not isinstance(num, int) or isinstance(num, bool):
        raise TypeError("num isn't of type int.")
    if num <= 0 or num > INT32_MAX:
        raise ValueError("Number of parallel workers given is not within the required range.")
    _state["num_parallel_workers"] = num


def get_num_parallel_workers():
    return _state["num_parallel_workers"]


def _setter(key, kind):
    def set_(value):
        if kind is bool and not isinstance(value, bool):
            raise TypeError(f"{key} is not a boolean.")
        if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise TypeError(f"{key} isn't of type int.")
        if kind is int and value < 0:
            raise ValueError(f"{key} should be a non-negative int.")
        _state[key] = value
    set_.__name__ = "set_" + key
    return set_


def _getter(key):
    def get_():
        return _state[key]
    get_.__name__ = "get_" + key
    return get_


set_numa_enable, get_numa_enable = _setter("numa_enable", bool), _getter("numa_enable")
set_monitor_sampling_interval = _setter("monitor_sampling_interval", int)
get_monitor_sampling_interval = _getter("monitor_sampling_interval")
set_callback_timeout, get_callback_timeout = _setter("callback_timeout", int), _getter("callback_timeout")
set_enable_shared_mem, get_enable_shared_mem = _setter("enable_shared_mem", bool), _getter("enable_shared_mem")
set_sending_batches = _setter("sending_batches", int)
set_autotune_interval, get_autotune_interval = _setter("autotune_interval", int), _getter("autotune_interval")
set_auto_offload, get_auto_offload = _setter("auto_offload", bool), _getter("auto_offload")
set_enable_watchdog, get_enable_watchdog = _setter("enable_watchdog", bool), _getter("enable_watchdog")
set_multiprocessing_timeout_interval = _setter("multiprocessing_timeout_interval", int)
get_multiprocessing_timeout_interval = _getter("multiprocessing_timeout_interval")
set_dynamic_shape, get_dynamic_shape = _setter("dynamic_shape", bool), _getter("dynamic_shape")
set_fast_recovery, get_fast_recovery = _setter("fast_recovery", bool), _getter("fast_recovery")
get_debug_mode = _getter("debug_mode")
get_error_samples_mode = _getter("error_samples_mode")
get_video_backend = _getter("video_backend")
get_enable_autotune = _getter("enable_autotune")


def set_auto_num_workers(enable):
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    _state["auto_num_workers"] = enable


def get_auto_num_workers():
    return _state["auto_num_workers"]


def set_enable_autotune(enable, filepath_prefix=None):
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    _state["enable_autotune"] = enable


def set_debug_mode(debug_mode_flag: bool, debug_hook_list: list = None):
    if not isinstance(debug_mode_flag, bool):
        raise TypeError("debug_mode_flag isn't of type boolean.")
    _state["debug_mode"] = debug_mode_flag


def set_error_samples_mode(error_samples_mode):
    _state["error_samples_mode"] = error_samples_mode


def set_iterator_mode(do_copy=False, parallel_convert=False):
    _state["iterator_mode"] = {"do_copy": do_copy, "parallel_convert": parallel_convert}


def get_iterator_mode():
    return dict(_state["iterator_mode"])


def set_multiprocessing_start_method(start_method="fork"):
    if start_method not in ("fork", "spawn"):
        raise ValueError(f"start_method should be 'fork' or 'spawn', but got {start_method}.")
    _state["start_method"] = start_method


def get_multiprocessing_start_method():
    return _state["start_method"]


def set_video_backend(backend):
    if backend not in ("CPU", "Ascend"):
        raise ValueError(f"backend should be 'CPU' or 'Ascend', but got {backend}.")
    _state["video_backend"] = backend


def load(file):
    """Load settings from a JSON file (MindSpore's keys: seed, numParallelWorkers, ...)."""
    import json
    with open(file) as f:
        cfg = json.load(f)
    if "seed" in cfg:
        set_seed(int(cfg["seed"]))
    if "numParallelWorkers" in cfg:
        set_num_parallel_workers(int(cfg["numParallelWorkers"]))
    if "opConnectorSize" in cfg:
        set_prefetch_size(int(cfg["opConnectorSize"]))


def __str__():
    return str(dict(_state))


# The generator msjax's random augmentations (vision's Random*, transforms' RandomApply/
# RandomChoice/RandomOrder) draw from: seeded by the configured seed, fresh after each
# set_seed. (MindSpore's C++ augmentations have their own streams; see docs/differences.md.)
_augment_lock = threading.Lock()
_augment_state = {"gen": -1, "rng": None}


def _augment_rng():
    with _augment_lock:
        if _augment_state["gen"] != _generation[0] or _augment_state["rng"] is None:
            _augment_state["rng"] = np.random.default_rng([_base_seed(), 7919])
            _augment_state["gen"] = _generation[0]
        return _augment_state["rng"]
