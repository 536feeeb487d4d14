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



# --- ops.op_info_register: kernel registration info (the builders and DataType) -------------------
def _reg(ms):
    return _mod(ms, ".ops.op_info_register")


def case_opinfo_datatype_table(ms):
    dt = _reg(ms).DataType
    return {k: v for k, v in sorted(vars(dt).items()) if not k.startswith("_")}


def case_opinfo_datatype_is_ops_datatype(ms):
    r = _reg(ms)
    return [ms.ops.DataType is r.DataType, ms.ops.TBERegOp is r.TBERegOp, callable(ms.ops.op_info_register),
            r.BUILT_IN_OPS_REGISTER_PATH, r.BUILT_IN_CUSTOM_OPS_REGISTER_PATH, r.KEY_NAME, r.ASCEND_CUSTOM_OPP_PATH]


def case_opinfo_tbe_full(ms):
    r = _reg(ms)
    d = r.DataType
    return r.TBERegOp("OpName").fusion_type("ELEMWISE").async_flag(False).binfile_name("op_name.so") \
        .compute_cost(12).kernel_name("op_name").partial_flag(True).op_pattern("formatAgnostic") \
        .need_check_supported(True).dynamic_shape(True).dynamic_rank_support(True).dynamic_compile_static(True) \
        .attr("format", "required", "str", "all").attr("keep_dims", "optional", "bool", "all", "false") \
        .input(0, "x1", None, "required", None).input(0, "x2", False, "required", "all", "optional") \
        .input(1, "axis", None, "required", None, extra=3).output(0, "y", True, "required", "all") \
        .real_input_index([1, 0]).input_to_attr_index([2]).unknown_shape_formats(["ND", "ND", "ND", "ND"]) \
        .reshape_type("NC").is_dynamic_format(True) \
        .dtype_format(d.F16_None, d.F16_None, d.F16_None, d.F16_None) \
        .dtype_format(d.F32_5HD, d.I32_Default_Tuple, d.BOOL_Default, d.F32_FracZNLSTM).get_op_info()


def case_opinfo_tbe_defaults(ms):
    return _reg(ms).TBERegOp("Abs").get_op_info()


def case_opinfo_aicpu(ms):
    r = _reg(ms)
    d = r.DataType
    return r.AiCPURegOp("Stack").fusion_type("OPAQUE").attr("axis", "int").attr("method", "str", "bilinear") \
        .input(0, "x", "dynamic").output(0, "y", "required").dtype_format(d.I8_Default, d.I8_Default) \
        .dtype_format(d.C64_Default, d.C128_Default_Tuple).get_op_info()


def case_opinfo_cpu_and_akg(ms):
    r = _reg(ms)
    d = r.DataType
    cpu = r.CpuRegOp("Add").input(0, "x", "required").output(0, "y", "required").attr("a", "int", "1") \
        .dtype_format(d.F64_Default, d.F64_Default).get_op_info()
    akg = [cls("Gelu").input(0, "x").output(0, "y").attr("approximate", "required", "bool")
           .dtype_format(d.BF16_ND_RNNBIAS, d.U64_NHWC).get_op_info()
           for cls in (r.AkgGpuRegOp, r.AkgAscendRegOp, r.AkgCpuRegOp)]
    return [cpu, akg]


def case_opinfo_custom(ms):
    r = _reg(ms)
    d = r.DataType
    info = r.CustomRegOp().input(0, "x", "dynamic").input(1, "y").output(0, "z", None) \
        .attr("scale", "required", "float", "1.0").dtype_format(d.F16_Default, d.F16_Default, d.F16_Default) \
        .target("Ascend").get_op_info()
    return [info, r.CustomRegOp("MyOp").get_op_info(), r.CustomRegOp().target().get_op_info()["target"]]


def case_opinfo_custom_info_register(ms):
    r = _reg(ms)
    info = r.CustomRegOp().input(0, "x").output(0, "y").target("CPU").get_op_info()

    def func(x):
        """doc"""
        return x * 2
    wrapped = r.custom_info_register(info, {"k": 1})(func)
    return [wrapped(3), wrapped.reg_info, wrapped.__name__, wrapped.__doc__, func.reg_info == wrapped.reg_info]


def case_err_opinfo_op_info_type(ms):
    _reg(ms).op_info_register(3)(lambda: None)


def case_err_opinfo_empty_name(ms):
    _reg(ms).TBERegOp("  ")


def case_err_opinfo_name_type(ms):
    _reg(ms).TBERegOp(3)


def case_err_opinfo_value_depend(ms):
    _reg(ms).TBERegOp("A").input(0, "x", None, "required", None, "bogus")


def case_err_opinfo_dtype_format_size(ms):
    r = _reg(ms)
    r.TBERegOp("A").input(0, "x").dtype_format(r.DataType.F16_None, r.DataType.F16_None)


def case_err_opinfo_dtype_format_pair(ms):
    _reg(ms).CpuRegOp("A").input(0, "x").dtype_format(("float16",))


def case_err_opinfo_dtype_format_str(ms):
    _reg(ms).AiCPURegOp("A").output(0, "x").dtype_format(("float16", 1))


def case_err_opinfo_custom_dtype_format_size(ms):
    r = _reg(ms)
    r.CustomRegOp().input(0, "x").dtype_format(r.DataType.F16_Default, r.DataType.F16_Default)


def case_err_opinfo_bool_flag(ms):
    _reg(ms).TBERegOp("A").async_flag(1)


def case_err_opinfo_int_flag(ms):
    _reg(ms).TBERegOp("A").compute_cost("10")


def case_err_opinfo_list_flag(ms):
    _reg(ms).TBERegOp("A").real_input_index((1, 0))


def case_err_opinfo_input_index_type(ms):
    _reg(ms).CpuRegOp("A").input("0", "x")


def case_err_opinfo_attr_type(ms):
    _reg(ms).TBERegOp("A").attr("x", 1)


def case_err_opinfo_target_type(ms):
    _reg(ms).CustomRegOp().target(1)



# --- train.train_thor.dataset_helper.DatasetHelper: argument checks; sink mode (CPU) raises ---------
def _thor_helper(ms, **kw):
    ds = import_module(ms.__name__ + ".dataset")
    data = ds.NumpySlicesDataset({"a": np.arange(6, dtype=np.float32).reshape(3, 2)}, shuffle=False)
    return _mod(ms, ".train.train_thor.dataset_helper").DatasetHelper(data, **kw)


def case_thor_dataset_helper_no_sink(ms):
    return type(_thor_helper(ms, dataset_sink_mode=False, sink_size=2, epoch_num=2, iter_first_order=3)).__name__


def case_err_thor_dataset_helper_sink_cpu(ms):
    _thor_helper(ms)


def case_err_thor_dataset_helper_sink_size_zero(ms):
    _thor_helper(ms, dataset_sink_mode=False, sink_size=0)


def case_err_thor_dataset_helper_sink_size_neg(ms):
    _thor_helper(ms, sink_size=-2)


def case_err_thor_dataset_helper_sink_size_float(ms):
    _thor_helper(ms, dataset_sink_mode=False, sink_size=1.0)


def case_err_thor_dataset_helper_sink_mode_int(ms):
    _thor_helper(ms, dataset_sink_mode=1)



# --- common.api.cells_compile_cache: id(cell) -> cell.compile_cache for every live Cell --------------
def case_cells_compile_cache_registry(ms):
    import copy
    cache = _mod(ms, ".common.api").cells_compile_cache
    net = ms.nn.Dense(2, 2)
    twin = copy.deepcopy(net)
    out = [isinstance(cache, dict), id(net) in cache, cache[id(net)] is net.compile_cache, len(net.compile_cache),
           id(net.weight) in cache, id(twin) in cache]
    cache[id(twin)] = twin.compile_cache
    out.append(cache[id(twin)] is twin.compile_cache)
    del cache[id(twin)]
    out.append(id(twin) in cache)
    return out


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
