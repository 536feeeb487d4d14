"""Golden cases for top-level names outside the op surface: sparse tensor
containers, communication queries on one process, jit/context helpers."""
import numpy as np


def case_coo_to_dense(ms):
    c = ms.COOTensor(ms.Tensor([[0, 1], [1, 2]], ms.int32), ms.Tensor([1.0, 2.0], ms.float32), (3, 4))
    return [c.to_dense(), c.indices, c.values, tuple(c.shape), str(c.dtype), c.ndim]


def case_coo_astype_abs(ms):
    c = ms.COOTensor(ms.Tensor([[0, 0], [2, 3]], ms.int32), ms.Tensor([-1.5, 2.0], ms.float32), (3, 4))
    return [c.abs().to_dense(), c.astype(ms.float64).to_dense()]


def case_row_tensor(ms):
    r = ms.RowTensor(ms.Tensor([0, 2], ms.int32), ms.Tensor([[1.0, 2.0], [3.0, 4.0]], ms.float32), (3, 2))
    return [r.indices, r.values, tuple(r.dense_shape)]


def case_communication_single_process(ms):
    from importlib import import_module
    comm = import_module(ms.__name__ + ".communication")
    return [comm.get_rank(), comm.get_group_size(), comm.get_local_rank(), comm.get_local_rank_size(),
            comm.HCCL_WORLD_COMM_GROUP, comm.NCCL_WORLD_COMM_GROUP]


def case_jit_config(ms):
    cfg = ms.JitConfig(jit_level="O1")
    return [cfg.jit_config_dict["jit_level"], ms.STRICT, ms.COMPATIBLE, ms.LAX]


case_jit_config.checks = ("mindspore.STRICT", "mindspore.COMPATIBLE", "mindspore.LAX")


def case_jit_config_bad_level(ms):
    return ms.JitConfig(jit_level="O7")


def case_jit_class(ms):
    @ms.jit_class
    class Helper:
        def __init__(self, k):
            self.k = k

        def scale(self, x):
            return x * self.k

    h = Helper(3.0)

    @ms.jit
    def f(x):
        return h.scale(x)
    return f(ms.Tensor([1.0, 2.0], ms.float32))


def case_jit_class_not_class(ms):
    return ms.jit_class(lambda x: x)


def case_lazy_inline(ms):
    class Block(ms.nn.Cell):
        @ms.lazy_inline
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([2.0], ms.float32), name="w")

        def construct(self, x):
            return x * self.w

    return Block()(ms.Tensor([1.5], ms.float32))


def case_get_context_mode(ms):
    return [ms.get_context("mode") in (ms.GRAPH_MODE, ms.PYNATIVE_MODE), ms.GRAPH_MODE, ms.PYNATIVE_MODE]


case_get_context_mode.checks = ("mindspore.GRAPH_MODE", "mindspore.PYNATIVE_MODE")


def case_set_context_bad_mode(ms):
    return ms.set_context(mode=5)


def case_grad_int_ids_embedding(ms):
    """Integer ids at a differentiated position: no gradient path (zeros)."""
    ms.set_seed(1)
    net = ms.nn.Embedding(5, 3, embedding_table="ones")
    ids = ms.Tensor([[0, 2], [4, 2]], ms.int32)
    g_ids, (g_table,) = ms.grad(net, grad_position=0, weights=net.trainable_params())(ids)
    return [g_ids, g_table]


def case_grad_int_index_gather_times_scale(ms):
    """Gather indices and a real scale both at differentiated positions."""
    def f(x, idx, s):
        return ms.ops.gather(x, idx, 0) * s
    x = ms.Tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32)
    idx = ms.Tensor([2, 0, 2], ms.int32)
    return ms.grad(f, grad_position=(0, 1, 2))(x, idx, ms.Tensor(2.0, ms.float32))


def case_parameter_names_attribute_paths(ms):
    """Parameter names follow attribute paths, custom names included; update_parameters_name prefixes them."""
    nn = ms.nn

    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([1.0]))
            self.c = ms.Parameter(ms.Tensor([1.0]), name="custom")
            self.d = nn.Dense(2, 2)
            self.bn = nn.BatchNorm1d(2)

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()
            self.seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
            self.lst = nn.CellList([nn.Dense(1, 1)])

    alone = Inner()
    net = Outer()
    before = [p.name for p in net.get_parameters()]
    net.update_parameters_name("pre.")
    return [[p.name for p in alone.get_parameters()], before, [p.name for p in net.get_parameters()]]


# ---------------------------------------------------------------------------
# Tensor attributes and conversions
# ---------------------------------------------------------------------------
def case_tensor_device_layout(ms):
    """device, itemsize, nbytes and (C-contiguous, byte) strides."""
    out = []
    for dt, shape in ((ms.float32, (2, 3, 4)), (ms.float64, (2, 3)), (ms.int8, (5,)), (ms.float16, (3, 1)),
                      (ms.bool_, (2, 2)), (ms.int64, ()), (ms.float32, (2, 0, 3))):
        t = ms.Tensor(np.zeros(shape), dt)
        out.append([t.device, t.itemsize, t.nbytes, t.strides])
    p = ms.Parameter(ms.Tensor(np.zeros((2, 3), np.float64)), name="q")
    out.append([p.device, p.itemsize, p.nbytes, p.strides])
    return out


def case_tensor_to_int_long(ms):
    t = ms.Tensor([[1.7, -1.7, 2.5]], ms.float32)
    return [t.to(ms.int32), t.to(), t.to(None), t.to("CPU"), t.to("cpu", ms.float16),
            t.to(dtype=ms.int64, non_blocking=True, copy=True), t.to(ms.bool_), t.int(), t.long(),
            ms.Tensor([True, False]).long(), ms.Tensor([3], ms.int64).int(), ms.Tensor([1.5], ms.float64).int(),
            t.to(ms.Tensor([1], ms.int8)), t.to(other=ms.Tensor([1], ms.float64), copy=True)]


def case_tensor_to_bad_dtype(ms):
    return ms.Tensor([1.0]).to(3)


def case_tensor_to_bad_keyword(ms):
    return ms.Tensor([1.0]).to(ms.int32, foo=1)


def case_tensor_to_bad_device(ms):
    return ms.Tensor([1.0]).to("GPU:0")


def _initializer_module(ms):
    from importlib import import_module
    return import_module(ms.__name__ + ".common.initializer")


def case_tensor_init_data(ms):
    """A Tensor made with ``init`` reports ``has_init`` until its one ``init_data()``."""
    init = _initializer_module(ms)
    a = ms.Tensor(shape=(2, 3), dtype=ms.float32, init=init.One())
    before = a.has_init
    out = a.init_data()
    b = init.initializer(init.Constant(2), [2, 2], ms.int32)
    z = init.initializer(init.Zero(), (3,), ms.float16)
    p = ms.Parameter(init.initializer(init.One(), (2,), ms.float32), name="p")
    return [before, out, a.has_init, b.has_init, b.init_data(), z.init_data(), p.init_data(),
            init.initializer("ones", (2, 1), ms.float64).init_data()]


def case_tensor_init_data_twice(ms):
    init = _initializer_module(ms)
    a = init.initializer(init.One(), (2,), ms.float32)
    a.init_data()
    return a.init_data()


def case_tensor_init_data_without_init(ms):
    return ms.Tensor([1.0, 2.0]).init_data()


# ---------------------------------------------------------------------------
# top-level helpers and constants
# ---------------------------------------------------------------------------
def case_dtype_helpers(ms):
    return [str(ms.dtype_to_nptype(ms.float16)), str(ms.dtype_to_nptype(ms.int32)), str(ms.dtype_to_nptype(ms.int8)),
            str(ms.dtype_to_pytype(ms.int32)), str(ms.dtype_to_pytype(ms.float64)), str(ms.dtype_to_pytype(ms.bool_)),
            repr(ms.pytype_to_dtype(float)), repr(ms.pytype_to_dtype(int)), repr(ms.pytype_to_dtype(bool)),
            [repr(d) for d in (ms.float16, ms.float32, ms.float64, ms.int32, ms.dtype.float32, ms.dtype.int8)],
            [str(d) for d in (ms.float16, ms.float32, ms.float64, ms.int32)],
            ms.dtype.float32 == ms.float32, str(ms.Tensor([1], ms.dtype.int16).dtype)]


case_dtype_helpers.checks = ("mindspore.dtype", "mindspore.float16", "mindspore.float32", "mindspore.float64",
                             "mindspore.int32")


def case_parallel_mode(ms):
    P = ms.ParallelMode
    return [P.STAND_ALONE, P.DATA_PARALLEL, P.SEMI_AUTO_PARALLEL, P.AUTO_PARALLEL, P.HYBRID_PARALLEL, P.MODE_LIST]


case_parallel_mode.checks = ("mindspore.ParallelMode",)


def case_set_device_and_ps_context(ms):
    ms.set_device("CPU")
    ms.set_device("CPU", 0)
    ms.set_ps_context(enable_ps=False)
    return [ms.get_context("device_target"), ms.get_ps_context("enable_ps")]


def case_set_device_bad_target(ms):
    return ms.set_device("TPU")


def case_set_ps_context_bad_key(ms):
    return ms.set_ps_context(foo=1)


def case_parameter_tuple(ms):
    a = ms.Parameter(ms.Tensor([1.0, 2.0], ms.float32), name="a")
    b = ms.Parameter(ms.Tensor([[3]], ms.int32), name="b", requires_grad=False)
    pt = ms.ParameterTuple([a, b])
    c = pt.clone("x")
    z = pt.clone("y", init="zeros")
    return [pt, len(pt), [p.name for p in c], c, z, isinstance(pt, tuple), pt[1] is b]


def case_csr_tensor(ms):
    csr = ms.CSRTensor(ms.Tensor([0, 1, 3], ms.int32), ms.Tensor([2, 0, 3], ms.int32),
                       ms.Tensor([1.5, -2.0, 4.0], ms.float32), (2, 4))
    return [csr.to_dense(), csr.indptr, csr.indices, csr.values, tuple(csr.shape), str(csr.dtype), csr.ndim,
            csr.size, csr.abs().to_dense(), csr.astype(ms.float64).values, csr.to_tuple()]


def case_communication_init_bad_backend(ms):
    from importlib import import_module
    return import_module(ms.__name__ + ".communication").init("bad")


def case_communication_init_backend_type(ms):
    from importlib import import_module
    return import_module(ms.__name__ + ".communication").init(1)


def case_communication_init_wrong_device(ms):
    """hccl needs an Ascend device_target (CPU here)."""
    from importlib import import_module
    return import_module(ms.__name__ + ".communication").init("hccl")


def case_distributed_grad_reducer_attributes(ms):
    params = [ms.Parameter(ms.Tensor([1.0], ms.float32), name="w")]
    r = ms.nn.DistributedGradReducer(params, mean=True, degree=4)
    d = ms.nn.DistributedGradReducer(params)
    return [r.mean, r.degree, d.mean, d.degree]


def case_distributed_grad_reducer_bad_degree(ms):
    return ms.nn.DistributedGradReducer([ms.Parameter(ms.Tensor([1.0]), name="w")], degree=0)



def _err(fn):
    """A failure as its type and its message's first part (without MindSpore's C++ call stack)."""
    try:
        fn()
    except (TypeError, ValueError, RuntimeError) as e:
        return [type(e).__name__, str(e).split("\n---")[0].strip()]
    return "no error"


def case_optimizer_parameters_type(ms):
    """``optimizer.parameters`` is a ParameterTuple; a Parameter given twice (group learning rates) stays twice."""
    net = ms.nn.Dense(2, 2)
    opt = ms.nn.SGD(net.trainable_params(), 0.1)
    twice = ms.ParameterTuple([net.weight, net.bias, net.weight])
    return [type(opt.parameters).__name__, [p.name for p in opt.parameters], len(twice),
            type(twice.clone("c", "zeros")).__name__]


def case_tensor_numpy_dtype_error(ms):
    """A numpy dtype, a string or a Python type as ``Tensor``'s dtype is MindSpore's TypeError."""
    return [_err(lambda d=d: ms.Tensor(np.ones(3, np.float32), d)) for d in (np.float32, np.int32, float, "float32")]


def case_tensor_mul_sequence_error(ms):
    """``Tensor * tuple`` (either side) and ``list / Tensor`` are TypeErrors (Mul takes no sequence); ``+`` works."""
    t = ms.Tensor(np.ones(2, np.float32))
    return [_err(lambda: t * (1, 2)), _err(lambda: [1.0, 2.0] * t), _err(lambda: t * ((1, 2), 3)),
            _err(lambda: (1.0,) / t), t + (1, 2)]


def case_matmul_dimension_errors(ms):
    """MindSpore's texts: Dense ("For 'MatMul' the input dimensions"), nn.MatMul's own. (MindSpore's
    PyNative raises ops.MatMul's shape error later, at the next synchronisation: not recorded.)"""
    a, b = ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((2, 3), np.float32))
    return [_err(lambda: ms.nn.Dense(3, 4)(ms.Tensor(np.ones((2, 5), np.float32)))),
            _err(lambda: ms.nn.MatMul()(a, b)),
            _err(lambda: ms.nn.Dense(3, 4)(ms.Tensor(np.ones((2, 3), np.float16))))]

def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}


# ---------------------------------------------------------------------------
# generator, seeds, small top-level helpers
# ---------------------------------------------------------------------------
def case_generator_manual_seed(ms):
    g = ms.Generator()
    first = g.initial_seed()
    same = g.manual_seed(5) is g
    return [first, same, g.initial_seed(), g.manual_seed(-5).initial_seed(), g.manual_seed(2 ** 63).initial_seed(),
            g.manual_seed(True).initial_seed()]


def case_generator_state_roundtrip(ms):
    g = ms.Generator()
    g.manual_seed(5)
    state = g.get_state()
    s = g.seed()
    g.set_state(state)
    return [str(state.dtype), tuple(state.shape), isinstance(s, int), g.initial_seed()]


def case_generator_manual_seed_float(ms):
    return ms.Generator().manual_seed(1.5)


def case_generator_manual_seed_tensor(ms):
    return ms.Generator().manual_seed(ms.Tensor(3))


def case_manual_seed_initial_seed(ms):
    ret = ms.manual_seed(13)
    seeded = ms.initial_seed()
    ms.set_seed(7)   # the global seed leaves the default generator's seed alone
    return [ret is ms.default_generator, seeded, ms.initial_seed(), ms.get_seed(),
            isinstance(ms.default_generator, ms.Generator)]


case_manual_seed_initial_seed.checks = ("mindspore.default_generator",)


def case_rng_state_roundtrip(ms):
    ms.manual_seed(21)
    state = ms.get_rng_state()
    ms.seed()
    ms.set_rng_state(state)
    return [str(state.dtype), tuple(state.shape), ms.initial_seed()]


def case_set_rng_state_numpy(ms):
    return ms.set_rng_state(np.zeros(16, np.uint8))


def case_set_rng_state_bad_size(ms):
    return ms.set_rng_state(ms.Tensor(np.zeros(8, np.uint8)))


def case_set_rng_state_bad_dtype(ms):
    return ms.set_rng_state(ms.Tensor(np.zeros(16, np.int64)))


def case_is_tensor(ms):
    return [ms.is_tensor(ms.Tensor(1)), ms.is_tensor(np.array(1)), ms.is_tensor(ms.Parameter(ms.Tensor(1.0))),
            ms.is_tensor(1), ms.is_tensor([ms.Tensor(1)])]


def case_tensor_function(ms):
    return [ms.tensor([1, 2]), ms.tensor([1.0, 2.0], ms.float16), ms.tensor(np.float64(1.5)), ms.tensor(True),
            ms.tensor(3), ms.tensor(3.0), ms.tensor(np.arange(6).reshape(2, 3), dtype=ms.int32)]


def _set_deterministic_once(ms):
    try:
        ms.set_deterministic(True)
    except RuntimeError:   # a replay in the same process has set it already (once per process);
        ms.set_context(deterministic="ON")   # other cases may have changed the setting since


def case_set_deterministic(ms):
    _set_deterministic_once(ms)
    return ms.get_context("deterministic")


def case_set_deterministic_repeated(ms):
    _set_deterministic_once(ms)
    return ms.set_deterministic(False)


def case_set_deterministic_int(ms):
    return ms.set_deterministic(1)


def case_synchronize(ms):
    x = ms.Tensor(np.ones((2, 2), np.float32)) * 3
    return [ms.synchronize(), x]


def case_mutable_values(ms):
    out = []
    for v in [(1, 2), [ms.Tensor(1)], {"a": ms.Tensor(1.0)}, 3, 1.5, True, (1, [2, 3.0])]:
        r = ms.mutable(v)
        out.append([r == v if not isinstance(v, (list, dict)) else len(r) == len(v), isinstance(r, type(v))])
    t = ms.Tensor(2)
    out.append(ms.mutable(t) is t)
    out.append(list(ms.mutable([1, 2], dynamic_len=True)))
    return out


def case_mutable_str(ms):
    return ms.mutable("s")


def case_mutable_none_in_tuple(ms):
    return ms.mutable((1, None))


def case_mutable_dynamic_len_not_bool(ms):
    return ms.mutable([1, 2], dynamic_len=1)


def case_mutable_dynamic_len_int(ms):
    return ms.mutable(3, dynamic_len=True)


def case_mutable_in_grad(ms):
    def f(x, n):
        return (x * n[0] + n[1]).sum()
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    return ms.grad(f)(x, ms.mutable((ms.Tensor(3.0), ms.Tensor(1.0))))


def case_no_inline(ms):
    def f(x):
        return x * 3 + 2
    g = ms.no_inline(f)
    h = ms.no_inline()(lambda x: x)
    return [g is f, f.no_inline, h.no_inline, g(ms.Tensor(np.array([1.0], np.float32)))]


def case_recompute_cell_grad(ms):
    class Block(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)), name="w")

        def construct(self, x):
            return ms.ops.tanh(ms.ops.matmul(x, self.w))

    block = Block()

    def loss(x):
        return (ms.recompute(block, x) ** 2).sum()
    x = ms.Tensor(np.array([[0.1, -0.2]], np.float32))
    return [ms.recompute(block, x), ms.grad(loss)(x)]


def case_recompute_function_reentrant(ms):
    return ms.recompute(lambda x: x * 2, ms.Tensor(1.0))


def case_recompute_function_not_reentrant(ms):
    return ms.recompute(lambda x: x * 2, ms.Tensor(np.array([1.0, 2.0], np.float32)), use_reentrant=False)


def case_constexpr_top_level(ms):
    @ms.constexpr
    def double(n):
        return n * 2
    return [double(3), ms.constexpr is ms.ops.constexpr]


def case_type_constants(ms):
    return [str(ms.string), repr(ms.string), str(ms.tuple_), repr(ms.tuple_), str(ms.list_), repr(ms.list_),
            str(ms.type_none), repr(ms.type_none), str(ms.float8_e4m3fn), repr(ms.float8_e4m3fn),
            str(ms.float8_e5m2), repr(ms.float8_e5m2), ms.string == ms.dtype.string, ms.tuple_ == ms.list_]


case_type_constants.checks = ("mindspore.string", "mindspore.tuple_", "mindspore.list_", "mindspore.type_none",
                              "mindspore.float8_e4m3fn", "mindspore.float8_e5m2")


def case_int_type(ms):
    return [str(ms.Int(32)), ms.Int(32) == ms.int32, ms.Int(8) == ms.int8, ms.Int(64) == ms.int64,
            isinstance(ms.int32, ms.Int), isinstance(ms.float32, ms.Int)]


def case_int_type_bad_bits(ms):
    return ms.Int(7)


def case_tensor_type(ms):
    t = ms.TensorType(ms.float32)
    return [str(t), repr(t), t == ms.TensorType(ms.float32), t == ms.TensorType(ms.int32), str(t.element_type()),
            isinstance(ms.float32, ms.TensorType)]


def case_get_current_device(ms):
    d = ms.get_current_device()
    return [tuple(d), d.device_target, d.device_id, isinstance(d, tuple)]


def case_memory_queries_cpu(ms):
    ms.empty_cache()
    ms.reset_peak_memory_stats()
    ms.reset_max_memory_allocated()
    ms.reset_max_memory_reserved()
    return [ms.memory_allocated(), ms.max_memory_allocated(), ms.memory_reserved(), ms.max_memory_reserved(),
            ms.memory_stats()]


def case_memory_summary_cpu(ms):
    return ms.memory_summary()
