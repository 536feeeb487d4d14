"""Golden cases for names behind MindSpore's module paths that real scripts
import: the parallel contexts, the logger, private helpers the model zoo uses."""
from importlib import import_module

import numpy as np


def _mod(ms, path):
    return import_module(ms.__name__ + path)


_ALGO = ["fully_use_devices", "elementwise_op_strategy_follow", "tensor_slice_align_enable",
         "tensor_slice_align_size", "enable_algo_approxi", "algo_approxi_epsilon"]


def case_algo_parameters_defaults(ms):
    p = _mod(ms, ".parallel")
    return [p.get_algo_parameters(k) for k in _ALGO]


def case_algo_parameters_set_get(ms):
    p = _mod(ms, ".parallel")
    try:
        p.set_algo_parameters(elementwise_op_strategy_follow=True, fully_use_devices=True,
                              tensor_slice_align_size=True, algo_approxi_epsilon=0.25, enable_algo_approxi=True)
        return [ms.get_algo_parameters(k) for k in _ALGO]
    finally:
        p.reset_algo_parameters()


def case_algo_parameters_reset(ms):
    p = _mod(ms, ".parallel")
    p.set_algo_parameters(tensor_slice_align_size=64)
    p.reset_algo_parameters()
    return [p.get_algo_parameters(k) for k in _ALGO]


def case_err_algo_type(ms):
    _mod(ms, ".parallel").set_algo_parameters(fully_use_devices=1)


def case_err_algo_float_type(ms):
    _mod(ms, ".parallel").set_algo_parameters(algo_approxi_epsilon=1)


def case_err_algo_align_size(ms):
    _mod(ms, ".parallel").set_algo_parameters(tensor_slice_align_size=0)


def case_err_algo_epsilon(ms):
    _mod(ms, ".parallel").set_algo_parameters(algo_approxi_epsilon=1.5)


def case_err_algo_unknown(ms):
    _mod(ms, ".parallel").set_algo_parameters(foo=1)


def case_err_algo_get_unknown(ms):
    _mod(ms, ".parallel").get_algo_parameters("foo")


_APC = ["device_num", "global_rank", "parallel_mode", "gradients_mean", "full_batch", "pipeline_stages",
        "enable_parallel_optimizer", "grad_accumulation_step", "strategy_ckpt_load_file", "dataset_strategy",
        "loss_repeated_mean", "pipeline_segments", "communi_parallel_mode", "sharding_propagation",
        "optimizer_weight_shard_size", "gradient_fp32_sync", "parameter_broadcast", "strategy_ckpt_config"]


def case_auto_parallel_context_defaults(ms):
    ctx = _mod(ms, ".parallel._auto_parallel_context").auto_parallel_context()
    return [getattr(ctx, "get_" + k)() for k in _APC] + \
        [ctx.get_device_num_is_set(), ctx.get_global_rank_is_set(), ctx.get_full_batch_is_set()]


def case_auto_parallel_context_after_set(ms):
    ctx = _mod(ms, ".parallel._auto_parallel_context").auto_parallel_context()
    try:
        ms.set_auto_parallel_context(device_num=8, global_rank=3, gradients_mean=True, full_batch=True,
                                     parallel_mode=ms.ParallelMode.DATA_PARALLEL)
        return [getattr(ctx, "get_" + k)() for k in _APC] + \
            [ctx.get_device_num_is_set(), ctx.get_global_rank_is_set(), ctx.get_full_batch_is_set(),
             ctx.get_parameter_broadcast_is_set()]
    finally:
        ms.reset_auto_parallel_context()


def case_auto_parallel_context_reset(ms):
    ctx = _mod(ms, ".parallel._auto_parallel_context").auto_parallel_context()
    ms.set_auto_parallel_context(device_num=4)
    ms.reset_auto_parallel_context()
    return [ctx.get_device_num(), ctx.get_device_num_is_set()]


def case_log_functions_exist(ms):
    log = _mod(ms, ".log")
    log.info("msjax golden case: info is below the default level")
    log.debug("msjax golden case: debug is below the default level")
    return [callable(getattr(log, n)) for n in ("debug", "info", "warning", "error", "critical")]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
