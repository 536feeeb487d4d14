"""Golden cases for issue 10 part A: custom backward (``Cell.bprop``, ``custom_vjp``),
no-grad, Cells built inside traced functions, clipping helpers.

Cases named ``graph_*`` are recorded from MindSpore 2.10 in GRAPH_MODE (the case
switches real MindSpore to it): where MindSpore's PyNative differs for a custom
bprop (its PyNative runs the Cell's construct under no-grad), msjax follows
GRAPH_MODE in both modes. Every other case
is recorded in PyNative; all are replayed through msjax in both modes."""
import numpy as np


def _graph(ms):
    """Record this case in MindSpore's GRAPH_MODE (msjax: the mode the test chose)."""
    if ms.__name__ == "mindspore":
        ms.set_context(mode=ms.GRAPH_MODE)


def _graph_call(ms):
    """GRAPH_MODE in both: MindSpore (and msjax) check ``set_inputs`` on a compiled call only."""
    ms.set_context(mode=ms.GRAPH_MODE)


def _x(ms):
    return ms.Tensor(np.array([1.0, 2.0], np.float32))


def _y(ms):
    return ms.Tensor(np.array([3.0, 4.0], np.float32))


def _grad_all(ms):
    return ms.ops.GradOperation(get_all=True)


def _custom_vjp(ms):
    import importlib
    return importlib.import_module(ms.__name__ + ".ops.function.grad.grad_func").custom_vjp


# --- Cell.bprop --------------------------------------------------------------------------
def _mul_cell(ms):
    class Mul(ms.nn.Cell):
        def construct(self, x, y):
            return x * y

        def bprop(self, x, y, out, dout):
            return 2 * dout, 3 * dout * x
    return Mul()


def _weight_cell(ms, extra=False):
    class WNet(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([2.0, 3.0], np.float32)), name="w")

        def construct(self, x):
            return x * self.w

        def bprop(self, x, out, dout):
            return (dout * self.w * 10, dout * 100) if extra else (dout * self.w * 10,)
    return WNet()


def case_bprop_direct(ms):
    return ms.grad(_mul_cell(ms), grad_position=(0, 1))(_x(ms), _y(ms))


def case_bprop_gradoperation(ms):
    return _grad_all(ms)(_mul_cell(ms))(_x(ms), _y(ms))


def case_bprop_value_and_grad(ms):
    return ms.value_and_grad(_mul_cell(ms), grad_position=(0, 1))(_x(ms), _y(ms))


def case_bprop_vjp(ms):
    out, fn = ms.vjp(_mul_cell(ms), _x(ms), _y(ms))
    return out, fn(ms.Tensor(np.array([1.0, -2.0], np.float32)))


def case_bprop_sens(ms):
    g = ms.ops.GradOperation(get_all=True, sens_param=True)(_mul_cell(ms))
    return g(_x(ms), _y(ms), ms.Tensor(np.array([0.5, -1.0], np.float32)))


def case_bprop_forward(ms):
    return _mul_cell(ms)(_x(ms), _y(ms))


def case_bprop_nested(ms):
    class Outer(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.m = _mul_cell(ms)

        def construct(self, x, y):
            return self.m(x, y) * x + ms.ops.sin(y)
    return ms.grad(Outer(), grad_position=(0, 1))(_x(ms), _y(ms))


def case_bprop_weights(ms):
    n = _weight_cell(ms)
    return ms.grad(n, grad_position=0, weights=n.trainable_params())(_x(ms))


def case_bprop_weights_extra_entries(ms):
    n = _weight_cell(ms, extra=True)
    return ms.grad(n, grad_position=0, weights=n.trainable_params())(_x(ms))


def case_bprop_weights_in_outer_net(ms):
    class Outer(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = _weight_cell(ms)
            self.v = ms.Parameter(ms.Tensor(np.array([0.5, -1.0], np.float32)), name="v")

        def construct(self, x):
            return (self.inner(x * self.v) * self.v).sum()
    n = Outer()
    return ms.grad(n, grad_position=0, weights=n.trainable_params())(_x(ms))


def case_bprop_extra_entries_no_weights(ms):
    class Extra(ms.nn.Cell):
        def construct(self, x, y):
            return x * y

        def bprop(self, x, y, out, dout):
            return dout, dout * 2, dout * 3
    return ms.grad(Extra(), grad_position=(0, 1))(_x(ms), _y(ms))


def case_bprop_higher_order_constant(ms):
    return ms.grad(ms.grad(_mul_cell(ms), grad_position=0), grad_position=0)(_x(ms), _y(ms))


def case_bprop_higher_order(ms):
    class Cube(ms.nn.Cell):
        def construct(self, x):
            return x * x * x

        def bprop(self, x, out, dout):
            return (dout * x * x * 3,)
    return ms.grad(ms.grad(Cube()))(_x(ms))


def case_bprop_two_outputs(ms):
    class TwoOut(ms.nn.Cell):
        def construct(self, x, y):
            return x * y, x + y

        def bprop(self, x, y, out, dout):
            return dout[0] * 2 + dout[1], dout[1] * 5 + out[0]
    return ms.grad(TwoOut(), grad_position=(0, 1))(_x(ms), _y(ms))


def case_bprop_scalar_input(ms):
    class Scale(ms.nn.Cell):
        def construct(self, x, k):
            return x * k

        def bprop(self, x, k, out, dout):
            return dout * 4, 0
    return ms.grad(Scale())(_x(ms), 3)


def case_bprop_uses_out(ms):
    class Exp(ms.nn.Cell):
        def construct(self, x):
            return ms.ops.exp(x)

        def bprop(self, x, out, dout):
            return (out * dout * 2,)
    return ms.grad(Exp())(_x(ms))


def case_bprop_in_jit_function(ms):
    m = _mul_cell(ms)

    @ms.jit
    def f(x, y):
        return m(x, y) + x * y
    return ms.grad(f, grad_position=(0, 1))(_x(ms), _y(ms))


def case_graph_bprop_direct(ms):
    _graph(ms)
    return ms.grad(_mul_cell(ms), grad_position=(0, 1))(_x(ms), _y(ms))


def case_graph_bprop_wrong_arity(ms):
    _graph(ms)

    class Wrong(ms.nn.Cell):
        def construct(self, x, y):
            return x * y

        def bprop(self, x, y, out, dout):
            return (dout,)
    return ms.grad(Wrong(), grad_position=(0, 1))(_x(ms), _y(ms))


def case_bprop_not_tuple(ms):
    class Single(ms.nn.Cell):
        def construct(self, x):
            return x * x

        def bprop(self, x, out, dout):
            return dout * 7
    return ms.grad(Single())(_x(ms))


def _bprop_add(ms, grads):
    class Add(ms.nn.Cell):
        def construct(self, x, y):
            return x + y

        def bprop(self, x, y, out, dout):
            return grads(ms, dout)
    x = ms.Tensor(np.array([3.0, 3.0, 3.0], np.float32))
    y = ms.Tensor(np.ones((3, 3), np.float32))
    return ms.ops.GradOperation(get_all=True)(Add())(x, y)


def case_bprop_gradient_summed_to_input_shape_and_cast(ms):
    return _bprop_add(ms, lambda ms, d: (ms.Tensor(np.arange(9.0).reshape(3, 3), ms.int64),
                                         ms.Tensor(np.ones((3, 3)), ms.int64)))


def case_bprop_gradient_not_broadcastable(ms):
    return _bprop_add(ms, lambda ms, d: (ms.Tensor(np.ones((3, 4), np.float32)), d))


def case_bprop_lone_tensor_for_two_inputs(ms):
    return _bprop_add(ms, lambda ms, d: d * 2)


def case_graph_bprop_construct_computes_grad(ms):
    _graph(ms)

    class Inner(ms.nn.Cell):
        def construct(self, x):
            return x * x * x

    class GradInside(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()
            self.g = ms.ops.GradOperation()

        def construct(self, x):
            return self.g(self.inner)(x)

        def bprop(self, x, out, dout):
            return (dout * out,)
    return ms.grad(GradInside())(_x(ms))


def _bn_bprop_net(ms):
    class B(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.bn = ms.nn.BatchNorm1d(2)

        def construct(self, x):
            return self.bn(x) * 2

        def bprop(self, x, out, dout):
            return (dout * 3,)

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.b = B()
            self.w = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")

        def construct(self, x):
            return (self.b(x * self.w)).sum()
    return Net()


def case_bprop_cell_writes_state(ms):
    n = _bn_bprop_net(ms)
    n.set_train()
    x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 5.0]], np.float32))
    g = ms.grad(n, grad_position=0, weights=n.trainable_params())(x)
    return g, n.b.bn.moving_mean.value(), n.b.bn.moving_variance.value()


def case_bprop_train_one_step(ms):
    n = _bn_bprop_net(ms)
    opt = ms.nn.SGD(n.trainable_params(), learning_rate=0.1)
    step = ms.nn.TrainOneStepCell(n, opt)
    step.set_train()
    x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 5.0]], np.float32))
    losses = [step(x) for _ in range(2)]
    return losses, [p.value() for p in n.trainable_params()]


def case_graph_bprop_missing_dout(ms):
    _graph(ms)

    class NoDout(ms.nn.Cell):
        def construct(self, x, y):
            return x + y

        def bprop(self, x, y, out):
            return ms.ops.zeros_like(out), ms.ops.zeros_like(out)
    return _grad_all(ms)(NoDout())(ms.Tensor(2.0, ms.float32), ms.Tensor(6.0, ms.float32))


def case_bprop_tensor_control_flow(ms):
    class TwoInput(ms.nn.Cell):
        def construct(self, x, y):
            return x * y

    class Ctl(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.f = TwoInput()
            self.grad = ms.ops.GradOperation(get_all=True)

        def construct(self, x, y):
            if x > y:
                x = self.f(x, y)
            else:
                x = self.f(x, y) + 1
            return x

        def bprop(self, x, y, out, dout):
            if x > y:
                grads = self.grad(self.f)(x, y)
            else:
                grads = self.grad(self.f)(x, y)
            return grads[0] * 2, grads[1] * 2
    return _grad_all(ms)(Ctl())(ms.Tensor(2.0, ms.float32), ms.Tensor(3.0, ms.float32))


def _sq_cell(ms):
    class Sq(ms.nn.Cell):
        def construct(self, x):
            return x * x

        def bprop(self, x, out, dout):
            return (dout * 3 * x,)
    return Sq()


def case_bprop_jvp(ms):
    return ms.jvp(_sq_cell(ms), _x(ms), ms.Tensor(np.array([0.5, -1.0], np.float32)))


def case_bprop_jacfwd(ms):
    return ms.jacfwd(_sq_cell(ms))(_x(ms))


def case_bprop_jacrev(ms):
    return ms.jacrev(_sq_cell(ms))(_x(ms))


def case_bprop_parameter_as_input(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.m = _mul_cell(ms)
            self.w = ms.Parameter(ms.Tensor(np.array([1.0, -2.0], np.float32)), name="w")

        def construct(self, x):
            return self.m(self.w, x).sum()
    n = Net()
    return ms.grad(n, grad_position=0, weights=n.trainable_params())(_y(ms))


# --- custom_vjp ---------------------------------------------------------------------------
def _mul_add(ms):
    @_custom_vjp(ms)
    def mul_add(x, y):
        return 2 * x + y

    def bprop_mul_add(x, y, out, dout):
        return 2 * dout, 2 * y
    mul_add.defbwd(bprop_mul_add)
    return mul_add


def case_custom_vjp_vjp(ms):
    out, fn = ms.ops.functional.vjp(_mul_add(ms), _x(ms), _y(ms))
    return out, fn(_x(ms))


def case_custom_vjp_grad(ms):
    return ms.grad(_mul_add(ms), grad_position=(0, 1))(_x(ms), _y(ms))


def case_custom_vjp_int_inline_jit(ms):
    mul_add = _mul_add(ms)

    @ms.jit
    def inline_mul_add(x, y):
        return mul_add(x, y) + x + 2 * y
    x, y = ms.Tensor(1, ms.int32), ms.Tensor(2, ms.int32)
    _, fn = ms.ops.functional.vjp(inline_mul_add, x, y)
    return fn(ms.Tensor(1, ms.int32))


def case_custom_vjp_in_cell(ms):
    mul_add = _mul_add(ms)

    class Net(ms.nn.Cell):
        def construct(self, x, y):
            return mul_add(x, y) * x
    return ms.grad(Net(), grad_position=(0, 1))(_x(ms), _y(ms))


def case_graph_custom_vjp_grad_in_forward(ms):
    _graph(ms)     # MindSpore's PyNative raises here: it runs the forward under no-grad
    grad_all = _grad_all(ms)

    def fn_1(x, y):
        return ms.ops.ReLU()(x)

    @_custom_vjp(ms)
    def fn_2(x, y):
        grads = grad_all(fn_1)(x, y)
        return fn_1(x, y), grads[0], grads[1]

    def bprop_fn_2(x, y, out, dout):
        grads = grad_all(fn_1)(x, y)
        return out[1], grads[1]
    fn_2.defbwd(bprop_fn_2)

    @_custom_vjp(ms)
    def fn_3(x, y):
        return fn_2(x, y)

    def bprop_fn_3(x, y, out, dout):
        return x + y + y + out[0], x + x + y + y + dout[0]
    fn_3.defbwd(bprop_fn_3)
    v = ms.Tensor(np.ones([2, 2], np.float32))
    x = ms.Tensor(np.array([[1.0, -1.0], [2.0, 0.5]], np.float32))
    y = ms.Tensor(np.array([[0.5, 1.0], [1.5, -2.0]], np.float32))
    _, grad_fn = ms.ops.functional.vjp(fn_3, x, y)
    return grad_fn(v, v, v)


def case_custom_vjp_net_inside(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.z = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name="z")

        def construct(self, x, y):
            return ms.ops.matmul(x * self.z, y)

    @_custom_vjp(ms)
    def fn(x, y):
        return Net()(x, y)

    def fn_bprop(x, y, out, dout):
        return x + x, y + y
    fn.defbwd(fn_bprop)
    x = ms.Tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], ms.float32)
    y = ms.Tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], ms.float32)
    return _grad_all(ms)(fn)(x, y)


def case_custom_vjp_one_input(ms):
    @_custom_vjp(ms)
    def fn(x):
        return ms.ops.ReLU()(x)

    def bprop_fn(x, out, dout):
        return (5 * x,)
    fn.defbwd(bprop_fn)
    return ms.grad(fn)(_x(ms))


# --- no-grad -------------------------------------------------------------------------------
def case_no_grad_block(ms):
    def f(x):
        with ms._no_grad():
            z = x * x
        return z * x
    return ms.grad(f)(_x(ms))


def case_no_grad_decorator(ms):
    @ms._no_grad()
    def inner(x):
        return x * x

    def f(x):
        return inner(x) * x
    return ms.grad(f)(_x(ms))


def case_no_grad_cell_weights(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([2.0, 3.0], np.float32)), name="w")

        def construct(self, x):
            with ms._no_grad():
                h = x * self.w
            return h * self.w + x
    n = Net()
    return ms.grad(n, grad_position=0, weights=n.trainable_params())(_x(ms))


def case_no_grad_grad_inside(ms):
    with ms._no_grad():
        return ms.grad(ms.ops.sin)(_x(ms))


def case_no_grad_gradoperation_inside(ms):
    with ms._no_grad():
        return ms.ops.GradOperation()(ms.ops.sin)(_x(ms))


def case_no_grad_vjp_inside(ms):
    def cube(a):
        return a * a * a
    with ms._no_grad():
        out, fn = ms.vjp(cube, _x(ms))
        return out, fn(_x(ms))


def case_no_grad_jvp_inside(ms):
    def cube(a):
        return a * a * a
    with ms._no_grad():
        return ms.jvp(cube, _x(ms), _x(ms))


def case_no_grad_forward_and_after(ms):
    net = ms.nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    x = ms.Tensor(np.array([[1.0, 2.0]], np.float32))
    with ms._no_grad():
        out = net(x)
    after = ms.grad(lambda a: (net(a) ** 2).sum())(x)
    return out, after


def case_no_grad_exception_restores(ms):
    try:
        with ms._no_grad():
            raise ValueError("boom")
    except ValueError:
        pass
    return ms.grad(lambda a: a * a)(_x(ms))


# --- Cells created inside traced functions -------------------------------------------------------
def _network(ms):
    class Network(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.flatten = ms.nn.Flatten()
            self.seq = ms.nn.SequentialCell(ms.nn.Dense(4, 3, weight_init="ones", bias_init="zeros"), ms.nn.ReLU(),
                                            ms.nn.Dense(3, 2, weight_init="ones", bias_init="ones"))

        def construct(self, x):
            return self.seq(self.flatten(x))
    return Network


def case_jit_builds_cell(ms):
    Network = _network(ms)

    @ms.jit
    def run(x):
        return Network()(x)
    x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 2, 2) - 3)
    return run(x), run(x * 2)


def case_jit_call_builds_cell(ms):
    Network = _network(ms)

    def run(x):
        return Network()(x)
    x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 2, 2) - 3)
    return ms.jit(run)(x)


def case_grad_function_builds_cell(ms):
    Network = _network(ms)

    def loss(x):
        return Network()(x).sum()
    x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 2, 2) - 3)
    return ms.grad(loss)(x)


def case_construct_builds_cell(ms):
    class Outer(ms.nn.Cell):
        def construct(self, x):
            return ms.nn.Dense(2, 3, weight_init="ones", bias_init="ones")(x) * 2
    x = ms.Tensor(np.array([[1.0, -2.0]], np.float32))
    return Outer()(x), ms.grad(Outer())(x)


# --- clip_by_norm, nn.ClipByNorm, ParameterUpdate, Cell.phase, set_inputs ----------------------------
def _clip_x(ms):
    return ms.Tensor([[0.8748, 0.1425, 0.0076], [0.7721, 0.4084, 0.0552], [4.6376, 0.2914, 2.1120]])


def case_clip_by_norm_doc(ms):
    return ms.ops.clip_by_norm(_clip_x(ms), max_norm=1)


def case_clip_by_norm_not_clipped(ms):
    return ms.ops.clip_by_norm(_clip_x(ms), max_norm=100)


def case_clip_by_norm_list(ms):
    x = _clip_x(ms)
    return ms.ops.clip_by_norm([x, x * 2], 1.0)


def case_clip_by_norm_tuple_inf(ms):
    x = _clip_x(ms)
    return ms.ops.clip_by_norm((x, x * 2), 1.0, norm_type=float("inf"))


def case_clip_by_norm_order1(ms):
    return ms.ops.clip_by_norm(_clip_x(ms), 2, norm_type=1)


def case_clip_by_norm_nonfinite(ms):
    return ms.ops.clip_by_norm(ms.Tensor([1.0, float("inf")]), 1.0, error_if_nonfinite=True)


def case_clip_by_norm_int(ms):
    return ms.ops.clip_by_norm(ms.Tensor([3, 4]), 1.0)


def case_clip_by_norm_grad(ms):
    return ms.grad(lambda a: ms.ops.clip_by_norm(a, 1.0).sum())(_clip_x(ms))


def case_clip_by_norm_jit(ms):
    @ms.jit
    def f(a):
        return ms.ops.clip_by_norm(a, 1.0) * 2
    return f(_clip_x(ms))


def case_nn_clip_by_norm_all_axes(ms):
    y = ms.Tensor(np.array([[3.0, 4.0], [6.0, 8.0]], np.float32))
    return ms.nn.ClipByNorm()(y, ms.Tensor(np.array([5.0], np.float32)))


def case_nn_clip_by_norm_float16(ms):
    return ms.nn.ClipByNorm()(ms.Tensor(np.array([3.0, 4.0], np.float16)), ms.Tensor(2.0, ms.float32))


def case_parameter_update(ms):
    p = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="p")
    pu = ms.nn.ParameterUpdate(p)
    out = pu(ms.Tensor(np.array([5.0, 6.0], np.float32)))
    out_int = pu(ms.Tensor(np.array([7, 8], np.int32)))
    return out, out_int, p.value(), [x.name for x in pu.get_parameters()]


def case_parameter_update_shape_error(ms):
    p = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="p")
    return ms.nn.ParameterUpdate(p)(ms.Tensor(np.array([5.0, 6.0, 7.0], np.float32)))


def case_parameter_update_in_cell(ms):
    class N(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
            self.up = ms.nn.ParameterUpdate(self.w)

        def construct(self, x):
            self.up(x * 2)
            return self.w + 0
    n = N()
    return n(ms.Tensor(np.array([3.0, 4.0], np.float32))), n.w.value(), [x.name for x in n.get_parameters()]


def case_parameter_update_not_parameter(ms):
    return ms.nn.ParameterUpdate(ms.Tensor([1.0]))


def case_cell_phase(ms):
    c = ms.nn.Dense(2, 2)
    first = c.phase
    c.phase = "eval"
    assigned = c.phase
    c.set_train(False)
    predict = c.phase
    c.set_train(True)
    return first, assigned, predict, c.phase


def case_cell_phase_not_str(ms):
    c = ms.nn.Dense(2, 2)
    c.phase = 3
    return c.phase


def case_dynamic_shape_tensor(ms):
    t = ms.Tensor(shape=[None, 3], dtype=ms.float32)
    r = ms.Tensor(shape=None, dtype=ms.float32)
    return repr(t), t.shape, str(t.dtype), repr(r), r.shape


def case_dynamic_shape_tensor_needs_dtype(ms):
    return ms.Tensor(shape=[None, 3])


def _relu_net(ms):
    class Net(ms.nn.Cell):
        def construct(self, x, y=None):
            return x * 2 if y is None else x + y
    return Net()


def _set(ms, *inputs, **kwargs):
    n = _relu_net(ms)
    n.set_inputs(*inputs, **kwargs)
    return n


def _dyn(ms):
    return ms.Tensor(shape=[None, 3], dtype=ms.float32)


def _ones(ms, *shape, dtype=np.float32):
    return ms.Tensor(np.ones(shape, dtype))


def case_set_inputs_dynamic(ms):
    n = _set(ms, _dyn(ms))
    return n(_ones(ms, 4, 3)), n(_ones(ms, 2, 3)).shape, n.get_inputs()[0].shape


def case_set_inputs_keyword(ms):
    return _set(ms, x=_dyn(ms))(_ones(ms, 4, 3)).shape


def case_set_inputs_dynamic_rank(ms):
    return _set(ms, ms.Tensor(shape=None, dtype=ms.float32))(_ones(ms, 4, 3, 2)).shape


def case_set_inputs_both_modes(ms):
    return _set(ms, _dyn(ms), x=_dyn(ms))


def case_set_inputs_unknown_keyword(ms):
    return _set(ms, z=_dyn(ms))


def case_graph_set_inputs_bad_dim(ms):
    _graph_call(ms)
    return _set(ms, _dyn(ms))(_ones(ms, 4, 5))


def case_graph_set_inputs_bad_rank(ms):
    _graph_call(ms)
    return _set(ms, _dyn(ms))(_ones(ms, 4, 3, 1))


def case_graph_set_inputs_bad_dtype(ms):
    _graph_call(ms)
    return _set(ms, _dyn(ms))(_ones(ms, 4, 3, dtype=np.float64))


def case_graph_set_inputs_bad_count(ms):
    _graph_call(ms)
    return _set(ms, _dyn(ms))(_ones(ms, 4, 3), _ones(ms, 4, 3))


def case_graph_set_inputs_keyword_bad(ms):
    _graph_call(ms)
    return _set(ms, x=_dyn(ms))(_ones(ms, 4, 2))


def case_graph_set_inputs_static(ms):
    _graph_call(ms)
    return _set(ms, _ones(ms, 2, 3))(_ones(ms, 4, 3))


def case_set_inputs_pynative_unchecked(ms):
    """PyNative calls, and gradients in either mode, are not checked against set_inputs."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    n = _set(ms, _dyn(ms))
    out = [n(_ones(ms, 4, 5)).shape, str(n(_ones(ms, 2, 3, dtype=np.int32)).dtype)]
    out.append(ms.ops.GradOperation()(n)(_ones(ms, 4, 5)))
    ms.set_context(mode=ms.GRAPH_MODE)
    out.append(ms.ops.GradOperation()(n)(_ones(ms, 2, 2)))
    return out


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
