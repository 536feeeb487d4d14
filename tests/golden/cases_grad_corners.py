"""Golden cases for gradient corners: MindSpore 2.10's gradient at the
non-differentiable points of the registry's ops (kinks, clip bounds, ties of
max/min/maximum/minimum/argmax-based ops and pools, losses at zero error), integer
and bool inputs and integer-typed weights, GradOperation on a Cell without
inputs, return_ids through compiled Cells, Parameter construction rules,
optimizer call-argument errors and complex Python scalars in Tensor(...)."""
import numpy as np


def _try(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}


def _T(ms, a, dt=None):
    return ms.Tensor(np.array(a, np.float32), dt or ms.float32)


def _g(ms, f, *args):
    return ms.grad(f, grad_position=tuple(range(len(args))))(*args)


# --- kinks ---------------------------------------------------------------------------
_KINKS = {
    # name: (function of (ms, x), points)
    "abs": (lambda ms, x: ms.ops.abs(x), [-1.0, 0.0, 1.0]),
    "relu": (lambda ms, x: ms.ops.relu(x), [-1.0, 0.0, 1.0]),
    "relu_cell": (lambda ms, x: ms.nn.ReLU()(x), [-1.0, 0.0, 1.0]),
    "relu6": (lambda ms, x: ms.ops.relu6(x), [0.0, 6.0, 3.0, -1.0, 7.0]),
    "relu6_cell": (lambda ms, x: ms.nn.ReLU6()(x), [0.0, 6.0, 3.0]),
    "sign": (lambda ms, x: ms.ops.sign(x), [-1.0, 0.0, 1.0]),
    "leaky_relu": (lambda ms, x: ms.nn.LeakyReLU(0.2)(x), [-1.0, 0.0, 1.0]),
    "elu": (lambda ms, x: ms.nn.ELU()(x), [-1.0, 0.0, 1.0]),
    "elu_ops": (lambda ms, x: ms.ops.elu(x), [-1.0, 0.0, 1.0]),
    "hardswish": (lambda ms, x: ms.ops.hardswish(x), [-3.0, 3.0, 0.0, -4.0, 4.0]),
    "hswish_cell": (lambda ms, x: ms.nn.HSwish()(x), [-3.0, 3.0, 0.0]),
    "hardsigmoid": (lambda ms, x: ms.ops.hardsigmoid(x), [-3.0, 3.0, 0.0, -4.0, 4.0]),
    "hsigmoid_cell": (lambda ms, x: ms.nn.HSigmoid()(x), [-3.0, 3.0, 0.0]),
    "hardtanh": (lambda ms, x: ms.ops.hardtanh(x, -1.0, 1.0), [-1.0, 1.0, 0.0]),
    "softshrink": (lambda ms, x: ms.ops.softshrink(x, 0.5), [-0.5, 0.5, 0.0]),
    "hardshrink": (lambda ms, x: ms.ops.hardshrink(x, 0.5), [-0.5, 0.5, 0.0]),
    "clamp": (lambda ms, x: ms.ops.clamp(x, -1.0, 1.0), [-1.0, 1.0, 0.5, 2.0]),
    "clip_by_value": (lambda ms, x: ms.ops.clip_by_value(x, _T(ms, -1.0), _T(ms, 1.0)), [-1.0, 1.0, 0.5, 2.0]),
    "sqrt_at_0": (lambda ms, x: ms.ops.sqrt(x), [0.0, 4.0]),
    "floor": (lambda ms, x: ms.ops.floor(x), [1.0, 1.5]),
    "round": (lambda ms, x: ms.ops.round(x), [0.5, 1.5]),
    "pow2_at_0": (lambda ms, x: ms.ops.pow(x, 2.0), [0.0]),
    "norm_at_0": (lambda ms, x: ms.ops.norm(x), [0.0, 0.0]),
    "log_at_0": (lambda ms, x: ms.ops.log(x), [0.0]),
    "where_sqrt": (lambda ms, x: ms.ops.where(x > 0, ms.ops.sqrt(x), _T(ms, [0.0, 0.0])), [0.0, 4.0]),
}


def _kink_case(name):
    fn, pts = _KINKS[name]

    def case(ms):
        return ms.grad(lambda x: fn(ms, x))(_T(ms, pts))
    case.__name__ = "case_kink_" + name
    return case


for _n in _KINKS:
    globals()["case_kink_" + _n] = _kink_case(_n)


# --- ties -----------------------------------------------------------------------------
def case_tie_maximum_minimum(ms):
    a, b = _T(ms, [1.0, 2.0]), _T(ms, [1.0, 1.0])
    return [_g(ms, ms.ops.maximum, a, b), _g(ms, ms.ops.minimum, a, b)]


def case_nan_maximum_minimum(ms):
    """Where either input is NaN, MindSpore's MaximumGrad/MinimumGrad give both inputs the
    gradient (the forward values are left out: MindSpore's CPU kernel returns the other input
    for a NaN first input, against its documentation)."""
    x = ms.Tensor(np.array([np.nan, 2.0, np.nan, 1.0, 3.0], np.float32))
    y = ms.Tensor(np.array([1.7, np.nan, np.nan, 1.0, 1.0], np.float32))
    d = ms.Tensor(np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32))
    return [ms.ops.GradOperation(get_all=True, sens_param=True)(f)(x, y, d) for f in (ms.ops.maximum, ms.ops.minimum)]


def case_tie_reductions(ms):
    ops = ms.ops
    x, y = _T(ms, [1.0, 3.0, 3.0]), _T(ms, [2.0, 1.0, 1.0])
    return [ms.grad(lambda v: ops.max(v)[0])(x), ms.grad(lambda v: ops.min(v)[0])(y),
            ms.grad(lambda v: ops.amax(v))(x), ms.grad(lambda v: ops.amin(v))(y),
            ms.grad(lambda v: ops.ReduceMax()(v))(x), ms.grad(lambda v: ops.ReduceMin()(v))(y),
            ms.grad(lambda v: ops.ArgMaxWithValue()(v)[1])(x), ms.grad(lambda v: ops.ArgMinWithValue()(v)[1])(y)]


def case_tie_sort(ms):
    return ms.grad(lambda v: ms.ops.sort(v)[0] * _T(ms, [1.0, 2.0, 3.0]))(_T(ms, [3.0, 1.0, 3.0]))


def case_tie_maxpool(ms):
    ones = _T(ms, np.ones((1, 1, 2, 2)))
    nine = _T(ms, np.ones((1, 1, 3, 3)))
    return [ms.grad(lambda v: ms.nn.MaxPool2d(2, 2)(v))(ones),
            ms.grad(lambda v: ms.ops.max_pool2d(v, 2, 1, 0))(nine),
            ms.grad(lambda v: ms.nn.AvgPool2d(2, 1)(v))(nine)]


def case_tie_adaptive_max_pool_fmax(ms):
    # (ops.fmin has no CPU kernel in MindSpore 2.10; msjax gives its ties to the first input too)
    ones = _T(ms, np.ones((1, 1, 2, 2)))
    a, b = _T(ms, [1.0, 2.0]), _T(ms, [1.0, 1.0])
    return [ms.grad(lambda v: ms.ops.adaptive_max_pool2d(v, (1, 1)))(ones), _g(ms, ms.ops.fmax, a, b)]


def case_kink_celu_and_margin_ranking(ms):
    return [ms.grad(lambda v: ms.ops.celu(v))(_T(ms, [-1.0, 0.0, 1.0])),
            _g(ms, lambda p, q: ms.ops.margin_ranking_loss(p, q, _T(ms, [1.0, -1.0]), 0.0), _T(ms, [1.0, 2.0]),
               _T(ms, [1.0, 2.0]))]


# --- losses at zero error ---------------------------------------------------------------
def case_loss_l1_at_zero(ms):
    a, b = _T(ms, [1.0, 2.0]), _T(ms, [1.0, 3.0])
    return [_g(ms, lambda p, q: ms.nn.L1Loss()(p, q), a, b),
            _g(ms, lambda p, q: ms.ops.l1_loss(p, q, reduction="sum"), a, b)]


def case_loss_smooth_l1_huber_at_kinks(ms):
    a, b = _T(ms, [0.0, 1.0, -1.0]), _T(ms, [0.0, 0.0, 0.0])
    return [_g(ms, lambda p, q: ms.nn.SmoothL1Loss()(p, q), a, b),
            _g(ms, lambda p, q: ms.nn.HuberLoss(delta=1.0)(p, q), a, b)]


# --- degenerate points: zero norms, probabilities 0/1, equal values ----------------------
def case_degenerate_renorm(ms):
    ops = ms.ops
    z = _T(ms, [[0.0, 0.0], [3.0, 4.0]])
    w = _T(ms, [[1.0, 2.0], [3.0, 4.0]])
    return [ms.grad(lambda v: ops.renorm(v, 2, 0, 1.0))(z),
            ms.grad(lambda v: (ops.renorm(v, 2, 0, 1.0) * w).sum())(_T(ms, [[0.0, 0.0], [0.6, 0.8]])),
            ms.grad(lambda v: ops.renorm(v, 3, 0, 1.0))(_T(ms, [[0.0, 0.0], [0.5, 0.0], [1.0, 2.0]])),
            ms.grad(lambda v: ops.renorm(v, 2, 1, 5.0))(_T(ms, [[0.0, 1.0], [0.0, 1.0]])),
            ms.grad(lambda v: v.renorm(2, 0, 1.0))(z)]


def case_degenerate_clip_by_norm(ms):
    ops, z = ms.ops, _T(ms, [0.0, 0.0])
    return [ms.grad(lambda v: ops.clip_by_norm(v, 1.0))(z),
            _g(ms, lambda a, b: ops.clip_by_norm([a, b], 1.0)[0].sum() + ops.clip_by_norm([a, b], 1.0)[1].sum(),
               z, _T(ms, [0.0])),
            ms.grad(lambda v: ops.clip_by_norm(v, 1.0, norm_type=1.0))(z),
            ms.grad(lambda v: ops.clip_by_norm(v, 1.0, norm_type=float("inf")))(z),
            ms.grad(lambda v: ops.clip_by_norm(v, 1.0, norm_type=3.0))(z),
            ms.grad(lambda v: (ops.clip_by_norm(v, 1.0) * _T(ms, [1.0, 2.0])).sum())(z),
            ms.grad(lambda v: ops.clip_by_norm(v, 1.0))(_T(ms, [3.0, 4.0])),
            ms.grad(lambda v: ops.clip_by_norm(v, 0.0))(z)]


def case_degenerate_binary_cross_entropy(ms):
    ops = ms.ops
    p, y = _T(ms, [0.0, 1.0, 0.3, 1e-13, 0.0, 1.0]), _T(ms, [1.0, 0.0, 0.2, 0.5, 0.0, 1.0])
    w = _T(ms, [2.0, 2.0, 2.0, 2.0, 0.0, 0.0])
    return [_g(ms, lambda a, b, c: ops.binary_cross_entropy(a, b, c, reduction="sum"), p, y, w),
            _g(ms, lambda a, b: ms.nn.BCELoss(reduction="none")(a, b), p, y),
            _g(ms, lambda a, b, c: ops.BinaryCrossEntropy(reduction="mean")(a, b, c), p, y, w),
            _g(ms, lambda a, b: ops.binary_cross_entropy(a, b), _T(ms, [0.0, 1.0, 0.5]), _T(ms, [1.0, 0.0, 1.0]))]


def case_degenerate_var_std(ms):
    ops, e = ms.ops, _T(ms, [2.0, 2.0, 2.0])
    return [ms.grad(lambda v: ops.var(v))(e), ms.grad(lambda v: ops.var(v, ddof=1))(e),
            ms.grad(lambda v: ops.var(v, ddof=2))(_T(ms, [2.0, 2.0, 2.0, 2.0])),
            ms.grad(lambda v: ops.var(v, axis=0, keepdims=True))(_T(ms, [[1.0, 2.0], [1.0, 4.0]])),
            ms.grad(lambda v: ops.var(v, axis=1))(_T(ms, [[2.0, 2.0], [1.0, 3.0]])),
            ms.grad(lambda v: ops.var_mean(v)[0])(e), ms.grad(lambda v: ops.var_mean(v)[1])(e),
            ms.grad(lambda v: ops.var_mean(v, ddof=2)[1])(e),
            ms.grad(lambda v: ops.std(v))(e), ms.grad(lambda v: ops.std_mean(v)[1])(e),
            ms.grad(lambda v: ops.ReduceStd(unbiased=False)(v)[1])(e),
            ms.grad(lambda v: v.var())(e), ms.grad(lambda v: v.std(ddof=1))(e),
            ms.grad(lambda v: ops.var(v))(_T(ms, [1.0, 2.0, 4.0])),
            ms.grad(lambda v: ops.var(v))(ms.Tensor([2.0, 2.0], ms.float16))]


# --- integer and bool inputs, integer weights ---------------------------------------------
def case_int_inputs(ms):
    ops, i32 = ms.ops, ms.int32
    return [_g(ms, lambda x, y: x * y, ms.Tensor([2, 3], i32), _T(ms, [1.0, 2.0])),
            _g(ms, lambda x, y: x + y, ms.Tensor([True, False]), _T(ms, [1.0, 2.0])),
            ms.grad(ops.abs)(ms.Tensor([-2, 0, 2], i32)),
            ms.grad(ops.relu)(ms.Tensor([-2, 0, 2], i32)),
            ms.grad(lambda x: ops.cast(x, ms.float32) * 2)(ms.Tensor([1, 2], i32)),
            ms.grad(lambda x: x / 3)(ms.Tensor([1, 2], i32)),
            ms.grad(lambda x: x.sum())(ms.Tensor([1, 2], i32)),
            _g(ms, ops.matmul, ms.Tensor([[1, 2]], i32), ms.Tensor([[1], [2]], i32)),
            ms.grad(ops.square)(ms.Tensor([3], i32))]


def _int_weight_cell(ms, cast):
    class IW(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([2, 3], ms.int32), name="w")

        def construct(self, x):
            return x * (self.w.astype(ms.float32) if cast else self.w)
    return IW()


def case_int_weight(ms):
    net, net2 = _int_weight_cell(ms, False), _int_weight_cell(ms, True)
    x = _T(ms, [1.5, 2.0])
    return [ms.grad(net, grad_position=None, weights=net.trainable_params())(x),
            ms.ops.GradOperation(get_by_list=True)(net, net.trainable_params())(x),
            ms.grad(net2, grad_position=None, weights=net2.trainable_params())(x),
            ms.value_and_grad(net, grad_position=0, weights=net.trainable_params())(x)]


# --- GradOperation without inputs, return_ids compiled -----------------------------------
def _no_input(ms):
    class NoIn(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(_T(ms, [1.0, 2.0]), name="w")

        def construct(self):
            return (self.w * self.w).sum()
    return NoIn()


def case_no_input_cell(ms):
    ni, ops = _no_input(ms), ms.ops
    return [ops.GradOperation(get_by_list=True)(ni, ni.trainable_params())(),
            ops.GradOperation()(ni)(), ops.GradOperation(get_all=True)(ni)(),
            ms.grad(ni, grad_position=None, weights=ni.trainable_params())(),
            ms.value_and_grad(ni, grad_position=None, weights=ni.trainable_params())()]


def case_no_input_cell_default_position(ms):
    return ms.grad(_no_input(ms))()


def _ids_net(ms):
    class D(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(_T(ms, [1.0, 2.0]), name="w")

        def construct(self, x, y):
            return (x * y * self.w).sum()
    return D()


def case_return_ids(ms):
    d = _ids_net(ms)
    x, y = _T(ms, [1.0, 1.0]), _T(ms, [2.0, 3.0])
    both = ms.grad(d, grad_position=(0, 1), weights=d.trainable_params(), return_ids=True)(x, y)
    return [ms.grad(d, grad_position=(0, 1), return_ids=True)(x, y),
            ms.grad(d, grad_position=0, weights=d.trainable_params(), return_ids=True)(x, y),
            both, ms.get_grad(both, d.w), ms.get_grad(both, 1)]


def case_return_ids_in_compiled_cell(ms):
    d = _ids_net(ms)

    class G(ms.nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.g = ms.grad(net, grad_position=(0, 1), weights=net.trainable_params(), return_ids=True)

        def construct(self, x, y):
            return self.g(x, y)

    @ms.jit
    def f(x, y):
        return ms.grad(d, grad_position=0, return_ids=True)(x, y)
    x, y = _T(ms, [1.0, 1.0]), _T(ms, [2.0, 3.0])
    return [G(d)(x, y), f(x, y)]


# --- Parameter construction ---------------------------------------------------------------
def case_parameter_default_dtypes(ms):
    P = ms.Parameter
    return [str(P(1).dtype), str(P(1.0).dtype), str(P([1, 2]).dtype), str(P([1.0, 2]).dtype),
            str(P(np.array([1.0])).dtype), str(P(np.array([1], np.int32)).dtype), str(P(_T(ms, [1.0])).dtype)]


def case_parameter_bad_default_input(ms):
    P = ms.Parameter
    return [_try(lambda: P(True)), _try(lambda: P(1 + 2j)), _try(lambda: P((1, 2))), _try(lambda: P(None)),
            _try(lambda: P("abc")), _try(lambda: P({"a": 1}))]


def case_parameter_names(ms):
    P, t = ms.Parameter, _T(ms, [1.0])
    p = P(t, name="a")

    def rename(v):
        p.name = v
        return p.name
    return [P(t, name="").name.startswith("Parameter"), P(t, name="  b  ").name, P(t, name="a.b").name,
            _try(lambda: P(t, name=1)), _try(lambda: P(t, name="x" * 2000)), _try(lambda: rename(3)),
            rename(None).startswith("Parameter"), rename("c")]


def case_parameter_flag_validation(ms):
    P, t = ms.Parameter, _T(ms, [1.0])
    return [_try(lambda: P(t, name="a", layerwise_parallel="x")), _try(lambda: P(t, name="a", layerwise_parallel=1)),
            _try(lambda: P(t, name="a", requires_grad=1)), _try(lambda: P(t, name="a", parallel_optimizer=1)),
            P(t, name="a", requires_grad=False, layerwise_parallel=False, parallel_optimizer=False).requires_grad]


# --- optimizer call arguments ---------------------------------------------------------------
def case_optimizer_call_errors(ms):
    nn, ops = ms.nn, ms.ops
    net = nn.Dense(2, 1)
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    adam = nn.Adam(net.trainable_params())
    return [_try(lambda: opt()), _try(lambda: opt((_T(ms, [1.0]),))), _try(lambda: opt(None)),
            _try(lambda: opt(_T(ms, [1.0]))), _try(lambda: opt(tuple(ops.zeros((3, 3)) for _ in range(2)))),
            _try(lambda: adam((_T(ms, [1.0]),))), _try(lambda: nn.SGD([], learning_rate=0.1)),
            _try(lambda: nn.SGD([_T(ms, [1.0])], learning_rate=0.1)),
            _try(lambda: nn.SGD(net.trainable_params(), learning_rate=-0.1)),
            _try(lambda: nn.Momentum(net.trainable_params(), 0.1, -1.0))]


def case_optimizer_call_ok(ms):
    nn = ms.nn
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), learning_rate=0.5)
    opt(tuple(ms.ops.ones_like(p) for p in net.trainable_params()))
    return [net.weight.value(), net.bias.value()]


# --- complex Python scalars ------------------------------------------------------------------
def case_tensor_complex_scalars(ms):
    T = ms.Tensor
    return [str(T(1 + 2j).dtype), repr(T(1 + 2j)), str(T([1 + 2j, 3]).dtype), repr(T([1 + 2j, 3])),
            repr(T([[1.5 - 2.25j, 0j], [1e-5 + 1j, 100 + 0.5j]])), repr(T(-1.5j)),
            repr(T(1 + 2j, ms.float32)), str(T(1 + 2j, ms.complex64).dtype), str(T([1.5, 2j]).dtype),
            str(T(np.complex64(1 + 2j)).dtype)]


def case_tensor_complex_scalar_operand(ms):
    x = _T(ms, [1.0])
    return [_try(lambda: x + (1 + 2j)), _try(lambda: (1 + 2j) * x), (x + 2).dtype == ms.float32]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
