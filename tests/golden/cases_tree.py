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


def case_initializer_assignment(ms):
    f = _mod(ms, ".common.initializer")._assignment
    return [f(np.zeros((2, 3), np.float32), 5), f(np.zeros((), np.float32), 2.5),
            f(np.zeros((2, 2), np.int32), np.array([[1, 2], [3, 4]]))]


def case_merge_sliced_parameter(ms):
    merge = _mod(ms, ".parallel").merge_sliced_parameter
    parts = [ms.Parameter(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) + 6 * i), "w") for i in range(2)]
    p = merge(parts)
    return [p, p.name, tuple(p.shape)]


def case_err_merge_sliced_parameter_shapes(ms):
    merge = _mod(ms, ".parallel").merge_sliced_parameter
    merge([ms.Parameter(ms.Tensor(np.zeros((2, 3), np.float32)), "w"),
           ms.Parameter(ms.Tensor(np.zeros((2, 4), np.float32)), "w")])


def case_err_merge_sliced_parameter_type(ms):
    _mod(ms, ".parallel").merge_sliced_parameter((1, 2))


def case_cell_attr_register(ms):
    reg = _mod(ms, "._extends").cell_attr_register

    class Block(ms.nn.Cell):
        @reg
        def __init__(self, a, b=2):
            super().__init__()
            self.a = a

    class Named(ms.nn.Cell):
        @reg(attrs=["a", "missing"])
        def __init__(self, a):
            super().__init__()
            self.a = a

    return [Block(1).cell_init_args, Block(3, b=4).cell_init_args, Named(7).cell_init_args]


def case_update_param(ms):
    upd = _mod(ms, ".train.serialization")._update_param
    p = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), "p")
    upd(p, ms.Parameter(ms.Tensor(np.array([1.0, 2.0, 3.0], np.float64)), "p"), False)
    return p


def case_err_update_param_shape(ms):
    upd = _mod(ms, ".train.serialization")._update_param
    upd(ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), "p"), ms.Parameter(ms.Tensor(np.zeros(4, np.float32)), "p"),
        False)


def case_err_check_input_3d(ms):
    _mod(ms, ".nn.layer.conv")._check_input_3d((1, 2), "Conv1d")


def case_loss_base_alias(ms):
    loss = _mod(ms, ".nn.loss.loss")._Loss(reduction="sum")
    return [isinstance(loss, ms.nn.LossBase), loss.reduction, loss.get_loss(ms.Tensor([1.0, 2.0], ms.float32))]


def case_convert_model_utils_plain(ms):
    net = ms.nn.Dense(2, 2)
    model = ms.Model(net, ms.nn.MSELoss(), ms.nn.Momentum(net.trainable_params(), 0.1, 0.9))
    thor = _mod(ms, ".train.train_thor")
    return thor.ConvertModelUtils.convert_to_thor_model(model, net, optimizer=model._optimizer) is model


def case_tensor_to_np_type(ms):
    f = _mod(ms, ".train.serialization").tensor_to_np_type
    return [str(f("Float32")), str(f("Int8")), f("Bool") is np.bool_, f("nope")]


def case_quant_dtype(ms):
    q = _mod(ms, ".common.dtype").QuantDtype
    return [str(q.INT8), q.INT8.value(), q.UINT16.value(), [m.name for m in q][:3], len(list(q))]


def case_pipeline_grad_scale(ms):
    ls = _mod(ms, ".nn.wrap.loss_scale")
    accu = ms.Parameter(ms.Tensor(np.array([2.0, 4.0], np.float32)), "accu")
    accu2 = ms.Parameter(ms.Tensor(np.array([6.0, 8.0], np.float32)), "accu2")
    scale, grad = ms.Tensor(2.0, ms.float32), ms.Tensor(np.array([10.0, 20.0], np.float32))
    return [ls.grad_scale(scale, grad, accu), accu, ls.shard_grad_scale(scale, grad, accu2), accu2]


def case_checkparam_validator(ms):
    v = _mod(ms, ".train.serialization").Validator
    return v.check_positive_int(3, "x", "Net")


def case_err_checkparam_validator(ms):
    _mod(ms, ".train.serialization").Validator.check_positive_int(-3, "x", "Net")


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
