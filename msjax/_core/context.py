"""``ms.set_context`` / ``ms.get_context``: execution mode and device settings.

GRAPH_MODE compiles Cell calls and gradient functions with ``jax.jit``;
PYNATIVE_MODE runs Cell calls op by op, a small gradient function op by op too
(``runtime._stepwise``), a larger one compiled (``transforms``). Device settings are
accepted and recorded; XLA picks the device.
"""
from __future__ import annotations

import copy
import os
import re

from . import compile_cache, provided

GRAPH_MODE = 0
PYNATIVE_MODE = 1

# MindSpore 2.10's readable settings on CPU and their defaults (its C++ context
# parameters plus the Python-side ones: jit_config, ascend_config...).
_DEFAULTS = {
    "check_bprop": False, "enable_graph_kernel": False, "enable_reduce_precision": True, "enable_profiling": False,
    "save_graphs": 0, "enable_parallel_split": False, "max_device_memory": 1024.0, "mempool_block_size": 1.0,
    "mode": PYNATIVE_MODE, "device_target": "CPU", "inter_op_parallel_num": 0, "runtime_num_threads": 2,
    "print_file_path": "", "profiling_options": "training_trace", "deterministic": "OFF", "precision_mode": "",
    "jit_compile": "", "atomic_clean_policy": "", "matmul_allow_hf32": "", "conv_allow_hf32": "",
    "op_precision_mode": "", "ge_options": "", "save_graphs_path": ".", "enable_compile_cache": None,
    "compile_cache_path": "", "variable_memory_max_size": "0",
    "device_id": int(os.environ["DEVICE_ID"]) if os.environ.get("DEVICE_ID", "").isdigit() else 0, "aoe_tune_mode": "",
    "aoe_job_type": "2", "max_call_depth": 1000, "env_config_path": "", "graph_kernel_flags": "",
    "pynative_synchronize": False, "disable_format_transform": False, "memory_optimize_level": 0, "op_timeout": 900,
    "jit_syntax_level": 2, "conv_fprop_algo": "normal", "conv_dgrad_algo": "normal", "conv_wgrad_algo": "normal",
    "conv_allow_tf32": True, "recompute_comm_overlap": "", "matmul_grad_comm_overlap": "", "pp_1f1b_overlap": "",
    "recompute_allgather_overlap_fagrad": False, "matmul_allow_tf32": False, "jit_level": "", "infer_boost": "off",
    "enable_task_opt": False, "enable_grad_comm_opt": False, "enable_opt_shard_comm_opt": False,
    "compute_communicate_fusion_level": 0, "dataset_broadcast_opt_level": 0, "debug_level": 0,
    "interleaved_matmul_comm": False, "interleaved_layernorm_comm": False, "bias_add_comm_swap": False,
    "enable_begin_end_inline_opt": False, "enable_concat_eliminate_opt": False, "enable_fused_cast_add_opt": False,
    "host_scheduling_max_threshold": "", "topo_order": "", "exec_order": "bfs", "cur_step_num": 0, "need_ckpt": False,
    "save_checkpoint_steps": 0, "last_triggered_step": 0, "hccl_watchdog": True,
    "enable_flash_attention_load_balance": False, "enable_allreduce_slice_to_reducescatter": False,
    "enable_interleave_split_concat_branch": False, "enable_interleave_parallel_branch": False,
    "enable_offloading_packed_experts": True, "op_debug_option": "", "jit_config": {},
    "reserve_class_name_in_scope": True, "ascend_config": {}, "gpu_config": {}, "aoe_config": {},
}
# set_context's keyword types (MindSpore's args_type_check)
_TYPES = {
    "mode": int, "device_target": str, "device_id": int, "save_graphs": (bool, int), "save_graphs_path": str,
    "aoe_tune_mode": str, "aoe_config": dict, "enable_reduce_precision": bool, "variable_memory_max_size": str,
    "enable_auto_mixed_precision": bool, "inter_op_parallel_num": int, "enable_graph_kernel": bool,
    "reserve_class_name_in_scope": bool, "check_bprop": bool, "max_device_memory": str, "print_file_path": str,
    "max_call_depth": int, "env_config_path": str, "graph_kernel_flags": str, "save_compile_cache": bool,
    "runtime_num_threads": int, "load_compile_cache": bool, "pynative_synchronize": bool,
    "mempool_block_size": str, "disable_format_transform": bool, "op_timeout": int, "deterministic": str,
    "ascend_config": dict, "jit_syntax_level": int, "debug_level": int, "jit_enable_inplace_ops": bool,
    "gpu_config": dict, "jit_config": dict, "enable_compile_cache": bool,
}
_IGNORED = ("enable_sparse", "auto_tune_mode", "enable_auto_mixed_precision")   # MindSpore logs and skips them
_WRITE_ONLY = ("save_compile_cache", "load_compile_cache", "jit_enable_inplace_ops")
_REMOVED = {"exception_dump": ("2.6", "device_context.ascend.op_debug.aclinit_config()"),
            "precompile_only": ("2.10", "env MS_DEV_PRECOMPILE_ONLY"),
            "grad_for_scalar": ("2.10", "tensor derivative")}
_VIA_ASCEND_CONFIG = ("precision_mode", "jit_compile", "atomic_clean_policy", "matmul_allow_hf32", "conv_allow_hf32",
                      "op_precision_mode", "host_scheduling_max_threshold", "ge_options", "op_debug_option")
# settings MindSpore only applies on these devices (elsewhere it warns and ignores them)
_DEVICE_ONLY = {"enable_reduce_precision": ("Ascend",), "print_file_path": ("Ascend",),
                "variable_memory_max_size": ("Ascend",), "max_device_memory": ("Ascend", "GPU"),
                "mempool_block_size": ("GPU", "Ascend"), "disable_format_transform": ("GPU",),
                "ascend_config": ("Ascend",), "gpu_config": ("GPU",)}
RELEASE = 0
DEBUG = 1
_SIZE = re.compile(r"^\d+[.]?\d*GB$")

_ctx = copy.deepcopy(_DEFAULTS)


def _one_of(key, value, allowed):
    if value not in allowed:
        raise ValueError(f"For 'context.set_context', the argument '{key}' must be one of {allowed}, but got {value}.")


def _check_gb(key, value, what):
    if not _SIZE.match(value):
        raise ValueError(f"For 'context.set_context', the argument '{key}' should be in correct format! {what}, "
                         f"but got {value}.")
    return float(value[:-2])


def _set_jit_config(cfg):
    allowed = {"jit_level": ["O0", "O1", "O2"], "infer_boost": ["on", "off"]}
    for key, value in cfg.items():
        if key not in allowed:
            raise ValueError(f"For 'context.set_context', the key of argument 'jit_config' must be one of "
                             f"{allowed}, but got {key}.")
        if value not in allowed[key]:
            raise ValueError(f"For 'jit_config', the value of argument {key} must be one of {allowed[key]}, "
                             f"but got {value}.")
        _ctx[key] = value
    _ctx["jit_config"] = cfg
    if cfg.get("infer_boost") == "on" and cfg.get("jit_level") in ("O1", "O2"):
        raise ValueError("Only jit_level set O0 can set infer_boost to on.")


def _set_one(key, value):
    """Validate and store one setting; the value MindSpore's get_context returns."""
    if key == "mode":
        if value not in (GRAPH_MODE, PYNATIVE_MODE):
            raise ValueError(f"For 'context.set_context', the argument 'mode' should be context.GRAPH_MODE (0) "
                             f"or context.PYNATIVE_MODE (1), but got {value}.")
    elif key == "device_target":
        _one_of(key, value, ["CPU", "GPU", "Ascend", "Davinci"])
        value = "Ascend" if value == "Davinci" else value
    elif key == "device_id" and not 0 <= value <= 4095:
        raise ValueError(f"For 'context.set_context', the argument 'device_id' must be in range [0, 4095], "
                         f"but got {value}.")
    elif key == "max_call_depth" and value <= 0:
        raise ValueError(f"For 'context.set_context', the argument 'max_call_depth' must be greater than 0, "
                         f"but got {value}.")
    elif key == "save_graphs":
        value = {True: 2, False: 0}.get(value, value) if isinstance(value, bool) else value
        if value > 3:
            raise ValueError(f"value for save_graphs should be 0-3 but got '{value}'")
    elif key == "jit_syntax_level" and value not in (0, 1, 2):
        raise ValueError(f"For 'jit_syntax_level', the value should be context.STRICT or context.LAX, but got {value}.")
    elif key == "debug_level" and value not in (RELEASE, DEBUG):
        raise ValueError(f"For 'debug_level', the value should be context.DEBUG or context.RELEASE, but got {value}.")
    elif key == "memory_optimize_level":
        _one_of(key, value, ["O0", "O1"])
        value = 0 if value == "O0" else 1
    elif key == "exec_order":
        _one_of(key, value, ["bfs", "dfs"])
    elif key == "deterministic":
        _one_of(key, value, ["ON", "OFF"])
    elif key == "aoe_tune_mode" and value not in ("online", "offline"):
        raise ValueError(f"For 'context.set_context', the argument 'aoe_tune_mode' must be in "
                         f"['online', 'offline'], but got {value}.")
    elif key in ("runtime_num_threads", "inter_op_parallel_num") and value < 0:
        what = "thread" if key == "runtime_num_threads" else "parallel thread"
        raise ValueError(f"The num of {what} must bigger than or equal to 0.")
    elif key == "op_timeout" and value < 0:
        raise ValueError("The num of op exe timeout must bigger than or equal to 0.")
    elif key == "max_device_memory":
        value = _check_gb(key, value, "It must be a string ending with 'GB', in addition to that, it must contain "
                                      "only numbers or decimal points, such as \"5GB\" or \"3.5GB\"")
        if value == 0:
            raise ValueError("For 'context.set_context', the argument 'max_device_memory' should not be \"0GB\".")
    elif key == "mempool_block_size":
        value = _check_gb(key, value, "Such as \"10GB\"")
        if value < 1.0:
            raise ValueError("For 'context.set_context',  the argument 'mempool_block_size' should be greater or "
                             f"equal to \"1GB\", but got {value}GB")
    elif key == "aoe_config":
        for k, v in value.items():
            if k != "job_type":
                raise ValueError(f"For 'context.set_context', the key of argument 'aoe_config' must be one of "
                                 f"{{'job_type': ['1', '2']}}, but got {k}.")
            if v not in ("1", "2"):
                raise ValueError(f"For 'aoe_config', the value of argument job_type must be one of ['1', '2'], "
                                 f"but got {v}.")
            _ctx["aoe_job_type"] = v
    elif key == "save_graphs_path":
        os.makedirs(value, exist_ok=True)   # MindSpore creates the directory and keeps its real path
        value = os.path.realpath(value)
    _ctx[key] = value


def set_context(**kwargs):
    """``mindspore.set_context``: every key MindSpore 2.10 accepts, with its type and
    value checks. ``mode`` switches between op-by-op and ``jax.jit`` execution; the
    other settings are recorded (``get_context`` returns them) and documented in
    docs/migrating.md (mindspore.runtime): XLA picks devices, memory and threads."""
    for key, value in kwargs.items():
        expected = _TYPES.get(key)
        if expected is not None and value is not None and not isinstance(value, expected):
            raise TypeError(f"The parameter '{key}' must be {expected}, but got {type(value)}")
    if "device_target" in kwargs:
        _set_one("device_target", kwargs["device_target"])
    for key, value in kwargs.items():
        provided.need("context_deprecated")(key)     # MindSpore's deprecation warning, if any
        if key in _REMOVED:
            version, instead = _REMOVED[key]
            raise ValueError(f"For 'context.set_context', the parameter '{key}' has been removed since MindSpore "
                             f"{version} version. Please use the {instead} instead.")
        if key in _IGNORED:
            continue
        if key in _VIA_ASCEND_CONFIG:
            raise ValueError(f"Please set '{key}' through parameter ascend_config")
        if key in _DEVICE_ONLY and _ctx["device_target"] not in _DEVICE_ONLY[key]:
            continue
        if key == "jit_config":
            _set_jit_config(value)
        elif key == "enable_compile_cache":
            _ctx[key] = value
        elif key in _DEFAULTS or key in _WRITE_ONLY:
            if key not in _WRITE_ONLY:
                _set_one(key, value)
        else:
            raise ValueError(f"For 'context.set_context', the keyword argument {key} is not recognized! For detailed "
                             f"usage of 'set_context', please refer to the Mindspore official website.")
    if "enable_compile_cache" in kwargs or ("compile_cache_path" in kwargs and _ctx["enable_compile_cache"]):
        _apply_compile_cache()


def _apply_compile_cache():
    """``enable_compile_cache`` turns on JAX's persistent cache (``compile_cache``)."""
    if _ctx["enable_compile_cache"]:
        compile_cache.enable(_ctx["compile_cache_path"] or None)
    else:
        compile_cache.disable()


def get_context(attr_key):
    """``mindspore.get_context``: the value of one setting."""
    if attr_key not in _DEFAULTS:
        raise ValueError(f"For 'context.get_context', the argument {attr_key} is not recognized! For detailed "
                         f"usage of 'get_context', please refer to the Mindspore official website.")
    return copy.deepcopy(_ctx[attr_key])


def _reset_context():
    """Back to the defaults (tests)."""
    _ctx.clear()
    _ctx.update(copy.deepcopy(_DEFAULTS))
    compile_cache.disable()


def mode():
    return _ctx["mode"]


def is_graph_mode():
    return _ctx["mode"] == GRAPH_MODE


def set_device(device_target, device_id=None):
    """``mindspore.set_device``: recorded; XLA places computations on JAX's
    default backend (CPU, GPU or TPU)."""
    if device_target not in ("CPU", "GPU", "Ascend"):
        raise ValueError(f"The argument 'device_target' must be one of ['CPU', 'GPU', 'Ascend'], "
                         f"but got {device_target}.")
    _ctx["device_target"] = device_target
    if device_id is not None:
        _ctx["device_id"] = device_id


_ps = {"enable_ps": False}
_PS_KEYS = ("server_mode", "ms_role", "enable_ps", "worker_num", "server_num", "scheduler_ip", "scheduler_port",
            "enable_ssl", "client_password", "server_password", "config_file_path")


def set_ps_context(**kwargs):
    """Parameter-server mode is not supported; ``enable_ps=False`` and MindSpore's other
    keys are recorded, an unknown key raises ``ValueError`` like MindSpore."""
    for key in kwargs:
        if key not in _PS_KEYS:
            raise ValueError(f"Set PS context keyword {key} is not recognized!")
    if kwargs.get("enable_ps"):
        raise RuntimeError("Parameter server training (set_ps_context(enable_ps=True)) is not supported by msjax.")
    _ps.update(kwargs)


def get_ps_context(attr_key):
    return _ps.get(attr_key)


if os.environ.get("MS_COMPILER_CACHE_ENABLE") == "1":   # MindSpore's environment switch for the same cache
    _ctx["enable_compile_cache"] = True
    _ctx["compile_cache_path"] = os.environ.get("MS_COMPILER_CACHE_PATH", "")
    _apply_compile_cache()
