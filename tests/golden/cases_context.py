"""Golden cases for ``set_context``/``get_context``: every key MindSpore 2.10
accepts, its type check, value checks and what ``get_context`` reads back
(MindSpore's CPU build)."""

# valid values that put a key back to MindSpore's CPU default (the cases share
# one process under msjax)
_RESTORE = {"mode": 1, "device_target": "CPU", "device_id": 0, "save_graphs": 0, "max_call_depth": 1000,
            "jit_syntax_level": 2, "debug_level": 0, "memory_optimize_level": "O0", "exec_order": "bfs",
            "deterministic": "OFF", "runtime_num_threads": 2, "inter_op_parallel_num": 0, "op_timeout": 900,
            "pynative_synchronize": False, "check_bprop": False, "enable_graph_kernel": False,
            "reserve_class_name_in_scope": True, "graph_kernel_flags": "", "jit_config": {}}


def _set_get(ms, **kwargs):
    try:
        ms.set_context(**kwargs)
        return {k: ms.get_context(k) for k in kwargs if k != "jit_config"}
    finally:
        ms.set_context(**{k: _RESTORE[k] for k in kwargs if k in _RESTORE})


def case_defaults(ms):
    keys = ["mode", "device_target", "device_id", "save_graphs", "save_graphs_path", "max_call_depth",
            "jit_syntax_level", "debug_level", "memory_optimize_level", "exec_order", "deterministic",
            "runtime_num_threads", "inter_op_parallel_num", "op_timeout", "pynative_synchronize", "check_bprop",
            "enable_graph_kernel", "reserve_class_name_in_scope", "jit_config", "jit_level", "enable_compile_cache",
            "compile_cache_path", "max_device_memory", "variable_memory_max_size", "print_file_path",
            "enable_reduce_precision", "graph_kernel_flags", "aoe_tune_mode", "ascend_config", "gpu_config"]
    return {k: ms.get_context(k) for k in keys}


def case_tutorial_settings(ms):
    return _set_get(ms, mode=ms.GRAPH_MODE, device_target="CPU", jit_syntax_level=ms.STRICT, max_call_depth=2000,
                    save_graphs=False, pynative_synchronize=True)


def case_save_graphs_bool_int(ms):
    return [_set_get(ms, save_graphs=True), _set_get(ms, save_graphs=3)]


def case_memory_optimize_level(ms):
    return _set_get(ms, memory_optimize_level="O1")


def case_misc_numbers(ms):
    return _set_get(ms, runtime_num_threads=4, inter_op_parallel_num=2, op_timeout=10, debug_level=1,
                    exec_order="dfs", deterministic="ON", check_bprop=True, graph_kernel_flags="--opt_level=1",
                    reserve_class_name_in_scope=False)


def case_jit_config(ms):
    try:
        ms.set_context(jit_config={"jit_level": "O1"})
        return [ms.get_context("jit_config"), ms.get_context("jit_level")]
    finally:
        ms.set_context(jit_config={"jit_level": "O0"})


def case_device_specific_ignored_on_cpu(ms):
    # Ascend/GPU-only settings are ignored on CPU (MindSpore warns)
    ms.set_context(max_device_memory="3.5GB", variable_memory_max_size="2GB", mempool_block_size="2GB",
                   enable_reduce_precision=False, ascend_config={"precision_mode": "force_fp16"})
    return [ms.get_context("max_device_memory"), ms.get_context("mempool_block_size"),
            ms.get_context("enable_reduce_precision"), ms.get_context("ascend_config")]


def case_ignored_keys(ms):
    ms.set_context(enable_sparse=True, auto_tune_mode="GA", enable_auto_mixed_precision=True)
    return ms.get_context("mode")


# set_context calls MindSpore rejects: case name -> keyword arguments
_REJECTED = {
    "err_type_mode": {"mode": "graph"}, "err_type_save_graphs": {"save_graphs": "yes"},
    "err_type_max_call_depth": {"max_call_depth": 1.5}, "err_type_device_target": {"device_target": 1},
    "err_type_pynative_synchronize": {"pynative_synchronize": 1}, "err_value_mode": {"mode": 3},
    "err_value_device_target": {"device_target": "TPU"}, "err_value_device_id": {"device_id": 4096},
    "err_value_max_call_depth": {"max_call_depth": 0}, "err_value_save_graphs": {"save_graphs": 4},
    "err_value_jit_syntax_level": {"jit_syntax_level": 5}, "err_value_debug_level": {"debug_level": 2},
    "err_value_memory_optimize_level": {"memory_optimize_level": "O2"},
    "err_value_deterministic": {"deterministic": "on"}, "err_value_exec_order": {"exec_order": "random"},
    "err_value_runtime_num_threads": {"runtime_num_threads": -1},
    "err_value_jit_config_key": {"jit_config": {"level": "O1"}},
    "err_value_jit_config_level": {"jit_config": {"jit_level": "O3"}}, "err_unknown_key": {"not_a_key": 1},
    "err_removed_key": {"grad_for_scalar": True}, "err_ascend_config_key_directly": {"precision_mode": "force_fp16"},
}


def _rejected(kwargs):
    def case(ms):
        ms.set_context(**kwargs)
    return case


for _name, _kwargs in _REJECTED.items():
    globals()["case_" + _name] = _rejected(_kwargs)


def case_err_get_unknown(ms):
    return ms.get_context("not_a_key")


def case_err_get_write_only(ms):
    return ms.get_context("save_compile_cache")


def all_cases():
    return {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}
