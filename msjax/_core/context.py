"""``ms.set_context`` / ``ms.get_context``: execution mode and device settings.

GRAPH_MODE compiles Cell calls and gradient functions with ``jax.jit``;
PYNATIVE_MODE runs Cell calls op by op and serves gradient functions from the
same compiled cache (same numbers, see ``transforms``). Device settings are
accepted and recorded; XLA picks the device.
"""
from __future__ import annotations

GRAPH_MODE = 0
PYNATIVE_MODE = 1

_KNOWN = {
    "mode", "device_target", "device_id", "save_graphs", "save_graphs_path", "precompile_only",
    "enable_graph_kernel", "max_call_depth", "jit_config", "jit_level", "max_device_memory",
    "variable_memory_max_size", "enable_reduce_precision", "pynative_synchronize", "runtime_num_threads",
    "memory_optimize_level", "deterministic", "check_bprop", "print_file_path", "enable_dump",
    "ascend_config", "graph_kernel_flags", "inter_op_parallel_num", "mempool_block_size",
    "op_timeout", "aoe_tune_mode", "aoe_config", "enable_compile_cache", "compile_cache_path",
    "disable_format_transform", "gpu_config", "env_config_path", "auto_tune_mode",
    "enable_auto_mixed_precision", "grad_for_scalar", "reserve_class_name_in_scope", "debug_level",
}

_ctx = {"mode": PYNATIVE_MODE, "device_target": "CPU", "device_id": 0, "jit_level": "",
        "max_call_depth": 1000, "save_graphs": False}


def set_context(**kwargs):
    for key, value in kwargs.items():
        if key not in _KNOWN:
            raise ValueError(f"For 'context.set_context', the keyword argument {key} is not recognized! "
                             f"For detailed usage of 'set_context', please refer to the Mindspore official website.")
        if key == "mode" and value not in (GRAPH_MODE, PYNATIVE_MODE):
            raise ValueError(f"For 'set_context', the argument 'mode' should be context.GRAPH_MODE (0) "
                             f"or context.PYNATIVE_MODE (1), but got {value}.")
        if key == "device_target" and value not in ("CPU", "GPU", "Ascend"):
            raise ValueError(f"For 'set_context', the argument 'device_target' must be one of "
                             f"['CPU', 'GPU', 'Ascend'], but got {value}.")
        _ctx[key] = value


def get_context(attr_key):
    if attr_key not in _KNOWN:
        raise ValueError(f"For 'context.get_context', the argument {attr_key} is not supported.")
    return _ctx.get(attr_key)


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


from .parallel import ParallelMode, get_auto_parallel_context, reset_auto_parallel_context, set_auto_parallel_context  # noqa: E402,F401,E501
