"""ms.grad / value_and_grad / GradOperation against hand-written JAX references."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax._core import transforms


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 1, has_bias=False)
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        logits = self.fc(x).squeeze()
        return self.loss(logits, y), logits


W = np.array([[2.0, 3.0, 4.0]], np.float32)
X = np.array([[1.0, 2.0, 3.0]], np.float32)
Y = np.float32(19.0)


def ref_fn(w, x, y):
    logits = jnp.squeeze(x @ w.T)
    return jnp.mean((logits - y) ** 2), logits


def ref_grads(has_aux=True):
    if has_aux:
        f = lambda w, x, y: ref_fn(w, x, y)[0]  # noqa: E731
    else:
        f = lambda w, x, y: sum(ref_fn(w, x, y))  # noqa: E731
    return [np.asarray(g) for g in jax.grad(f, argnums=(0, 1, 2))(W, X, Y)]


@pytest.fixture
def net():
    n = Net()
    n.fc.weight.set_data(ms.Tensor(W))
    return n


def args():
    return ms.Tensor(X), ms.Tensor(Y)


def close(t, ref):
    assert isinstance(t, ms.Tensor), type(t)
    np.testing.assert_allclose(t.asnumpy(), ref, rtol=1e-6)


@pytest.mark.parametrize("has_aux", [True, False])
def test_grad_table(net, mode, has_aux):
    gw, gx, gy = ref_grads(has_aux)
    w = net.trainable_params()
    rows = {
        0: lambda g: close(g, gx),
        1: lambda g: close(g, gy),
        (0, 1): lambda g: (len(g) == 2, close(g[0], gx), close(g[1], gy)),
    }
    for gp, check in rows.items():
        out = ms.grad(net, grad_position=gp, weights=None, has_aux=has_aux)(*args())
        if has_aux:
            out, aux = out
            assert isinstance(aux, tuple) and len(aux) == 1
            close(aux[0], 20.0)
        check(out)
    # weights only: a tuple of one gradient stays a tuple
    out = ms.grad(net, grad_position=None, weights=w, has_aux=has_aux)(*args())
    g = out[0] if has_aux else out
    assert isinstance(g, tuple) and len(g) == 1
    close(g[0], gw)
    # position and weights: (input grad, (weight grads,))
    out = ms.grad(net, grad_position=0, weights=w, has_aux=has_aux)(*args())
    g = out[0] if has_aux else out
    close(g[0], gx)
    assert isinstance(g[1], tuple) and len(g[1]) == 1
    close(g[1][0], gw)
    out = ms.grad(net, grad_position=(0, 1), weights=w, has_aux=has_aux)(*args())
    g = out[0] if has_aux else out
    close(g[0][0], gx)
    close(g[0][1], gy)
    close(g[1][0], gw)


def test_value_and_grad_nesting(net, mode):
    gw, gx, gy = ref_grads()
    value, grad = ms.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params(),
                                    has_aux=True)(*args())
    assert isinstance(value, tuple) and len(value) == 2
    close(value[0], 1.0)
    close(value[1], 20.0)
    close(grad[0][0], gx)
    close(grad[0][1], gy)
    close(grad[1][0], gw)
    value, grad = ms.value_and_grad(net, grad_position=0)(*args())
    assert isinstance(value, tuple)
    close(grad, ref_grads(False)[1])


def test_single_parameter_weights_give_single_gradient(net):
    g = ms.grad(net, grad_position=None, weights=net.fc.weight, has_aux=True)(*args())[0]
    close(g, ref_grads()[0])
    g = ms.grad(net, grad_position=None, weights=ms.ParameterTuple(net.trainable_params()), has_aux=True)(*args())[0]
    assert isinstance(g, tuple) and len(g) == 1


def test_position_tuple_of_one_is_single(net):
    g = ms.grad(net, grad_position=(0,), has_aux=True)(*args())[0]
    close(g, ref_grads()[1])


def test_non_scalar_output_uses_ones_cotangent(mode):
    def f(x):
        return x * x * 3.0
    x = np.array([[1.0, -2.0], [0.5, 4.0]], np.float32)
    close(ms.grad(f)(ms.Tensor(x)), 6 * x)


def test_sens_param():
    def f(x, y):
        return x * y
    x, y, s = (np.array([1.0, 2.0], np.float32), np.array([-2.0, 3.0], np.float32),
               np.array([1.0, 2.0], np.float32))
    g = ms.grad(f, grad_position=(0, 1), sens_param=True)(ms.Tensor(x), ms.Tensor(y), ms.Tensor(s))
    close(g[0], y * s)
    close(g[1], x * s)


def test_closure_over_parameters(net, mode):
    scale = ms.amp.StaticLossScaler(1024.0)

    def forward_fn(x, y):
        loss, logits = net(x, y)
        return scale.scale(loss), logits

    (loss, logits), grad = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=True)(*args())
    close(loss, 1024.0)
    close(grad[0], 1024 * ref_grads()[0])


def test_closure_through_helper_function_is_discovered(net):
    """A Parameter reached through an unlisted route is found by the trace, then
    passed as an input (not baked in): updating it changes the next result."""
    holder = {"n": net}

    def forward_fn(x, y):
        return holder["n"](x, y)[0]

    gf = ms.value_and_grad(forward_fn, None, net.trainable_params())
    loss1, _ = gf(*args())
    net.fc.weight.set_data(ms.Tensor(W * 0))
    loss2, _ = gf(*args())
    close(loss1, 1.0)
    close(loss2, 361.0)


def test_parameters_read_at_call_time_and_no_retrace(net, mode):
    gf = ms.value_and_grad(net, None, net.trainable_params(), has_aux=True)
    (loss, _), _ = gf(*args())
    close(loss, 1.0)
    before = transforms.TRACES[0]
    for k in range(3):
        net.fc.weight.set_data(ms.Tensor(W * (k + 2)))
        (loss, logits), (g,) = gf(*args())
        close(logits, 20.0 * (k + 2))
    assert transforms.TRACES[0] == before
    gf(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones(2, np.float32)))
    assert transforms.TRACES[0] == before + 1


def test_requires_grad_false_and_trainable_params():
    class MatNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ops.MatMul()
            self.z = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name="z", requires_grad=False)

        def construct(self, x, y):
            return self.matmul(x * self.z, y)

    n = MatNet()
    assert n.trainable_params() == []
    assert [p.name for p in n.untrainable_params()] == ["z"]
    g = ops.GradOperation(get_by_list=True)(n, ms.ParameterTuple(n.trainable_params()))(
        ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((3, 3), np.float32)))
    assert g == ()


def test_stop_gradient(mode):
    def f(x, y):
        out1 = ops.matmul(x, y)
        out2 = ops.stop_gradient(ops.matmul(x, y))
        return out1 + out2
    x = np.random.RandomState(0).randn(2, 3).astype(np.float32)
    y = np.random.RandomState(1).randn(3, 3).astype(np.float32)
    g = ops.GradOperation()(f)(ms.Tensor(x), ms.Tensor(y))
    close(g, np.ones((2, 3), np.float32) @ y.T)


def test_grad_of_grad(mode):
    def f(x):
        return x * x * x
    x = ms.Tensor(np.array([1.0, 2.0, -3.0], np.float32))
    close(ms.grad(f)(x), 3 * x.asnumpy() ** 2)
    close(ms.grad(ms.grad(f))(x), 6 * x.asnumpy())
    close(ms.grad(ms.grad(ms.grad(f)))(x), np.full(3, 6.0, np.float32))


class MatMulNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.z = ms.Parameter(ms.Tensor(np.array([1.5], np.float32)), name="z")

    def construct(self, x, y):
        return self.matmul(x * self.z, y)


def _matmul_ref():
    rs = np.random.RandomState(3)
    x, y = rs.randn(2, 3).astype(np.float32), rs.randn(3, 4).astype(np.float32)
    s = rs.randn(2, 4).astype(np.float32)
    f = lambda z, x, y: (x * z) @ y  # noqa: E731

    def grads(sens):
        _, vjp = jax.vjp(f, np.array([1.5], np.float32), x, y)
        return [np.asarray(g) for g in vjp(sens)]
    return x, y, s, grads


@pytest.mark.parametrize("get_all", [False, True])
@pytest.mark.parametrize("get_by_list", [False, True])
@pytest.mark.parametrize("sens_param", [False, True])
def test_grad_operation_flags_inside_construct(mode, get_all, get_by_list, sens_param):
    x, y, s, grads = _matmul_ref()
    net = MatMulNet()

    class GradNet(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.params = ms.ParameterTuple(net.trainable_params())
            self.grad_op = ops.GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)

        def construct(self, *a):
            if get_by_list:
                return self.grad_op(self.net, self.params)(*a)
            return self.grad_op(self.net)(*a)

    call_args = (ms.Tensor(x), ms.Tensor(y)) + ((ms.Tensor(s),) if sens_param else ())
    out = GradNet(net)(*call_args)
    gz, gx, gy = grads(s if sens_param else np.ones((2, 4), np.float32))
    if get_all:
        inputs = out[0] if get_by_list else out
        assert isinstance(inputs, tuple) and len(inputs) == 2
        close(inputs[0], gx)
        close(inputs[1], gy)
    elif not get_by_list:
        close(out, gx)
    if get_by_list:
        weights = out[1] if get_all else out
        assert isinstance(weights, tuple) and len(weights) == 1
        close(weights[0], gz)


def test_return_ids(net):
    out = ms.grad(net, grad_position=(0, 1), weights=net.trainable_params(), has_aux=True, return_ids=True)(*args())
    (pos, wts), aux = out
    assert [p[0] for p in pos] == [0, 1]
    assert wts[0][0] == "fc.weight"
    close(ms.get_grad(out[0], 1), ref_grads()[2])
    close(ms.get_grad(out[0], net.fc.weight), ref_grads()[0])


def test_integer_inputs_are_differentiated_like_mindspore():
    """MindSpore 2.10 differentiates Int inputs as real numbers (recorded:
    grad of x * n w.r.t. an Int64 n is Int64 x; of (n / 3).sum() is Float32 1/3)."""
    def f(x, n):
        return x * n
    g = ms.grad(f, grad_position=(0, 1))(ms.Tensor([1.0, 2.0]), ms.Tensor([3, 4]))
    close(g[0], np.array([3.0, 4.0], np.float32))
    assert g[1].dtype == ms.int64
    np.testing.assert_array_equal(g[1].asnumpy(), [1, 2])
    g = ms.grad(lambda n: (n / 3).sum())(ms.Tensor([1, 2]))
    assert g.dtype == ms.float32
    np.testing.assert_allclose(g.asnumpy(), [1 / 3, 1 / 3], rtol=1e-6)


@pytest.mark.parametrize("kwargs, exc, msg", [
    (dict(grad_position=None, weights=None), ValueError, "can not be None at the same time"),
    (dict(grad_position=-1), ValueError, "grad_position must be >= 0"),
    (dict(grad_position=(0, -1)), ValueError, "must be >= 0"),
    (dict(grad_position=1.5), TypeError, "must be int or tuple"),
    (dict(grad_position="0"), TypeError, "must be int or tuple"),
    (dict(grad_position=[0, 1]), TypeError, "must be int or tuple"),
    (dict(grad_position=(0, 0)), ValueError, "duplicate positions"),
    (dict(grad_position=(0, 1.0)), TypeError, "must be int"),
    (dict(has_aux=1), TypeError, "has_aux"),
])
def test_argument_errors(net, kwargs, exc, msg):
    with pytest.raises(exc, match=msg):
        ms.grad(net, **kwargs)(*args())


def test_call_errors(net):
    with pytest.raises(RuntimeError, match="Position index 5 is exceed input size"):
        ms.grad(net, grad_position=5)(*args())
    with pytest.raises(RuntimeError, match="should not be empty"):
        ms.grad(net, grad_position=())(*args())

    def single(x):
        return x * 2.0
    with pytest.raises(ValueError, match="requires more than one outputs"):
        ms.grad(single, has_aux=True)(ms.Tensor([1.0]))


def test_writes_inside_grad_come_back_out(mode):
    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([2.0]), name="w")
            self.count = ms.Parameter(ms.Tensor(0.0), name="count", requires_grad=False)

        def construct(self, x):
            self.count.set_data(self.count + 1.0)
            return (self.w * x).sum()

    c = Counter()
    gf = ms.grad(c, grad_position=None, weights=c.trainable_params())
    for _ in range(3):
        g = gf(ms.Tensor([3.0]))
    close(g[0], np.array([3.0], np.float32))
    close(c.count, 3.0)
    assert not isinstance(c.count._data, jax.core.Tracer)


def test_tracer_cannot_leak_into_parameter():
    p = ms.Parameter(ms.Tensor([1.0]), name="p")

    @jax.jit
    def bad(x):
        p.set_data(ms.Tensor(x))
        return x

    with pytest.raises(RuntimeError, match="traced value"):
        bad(jnp.ones(1))
    close(p, np.array([1.0], np.float32))


def test_print_inside_differentiated_function_prints_each_call(net, capsys, mode):
    def forward_fn(x, y):
        loss, logits = net(x, y)
        print("loss", loss)
        return loss, logits

    gf = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=True)
    gf(*args())
    gf(*args())
    # GRAPH_MODE compiles the function: print is MindSpore's Print op there (checked with MindSpore 2.10)
    assert capsys.readouterr().out == ("loss\n1\n" if mode == "graph" else "loss 1.0\n") * 2


def test_data_dependent_control_flow_falls_back_to_eager(mode):
    def f(x):
        if (x.sum() > 0).item() if False else bool(x.sum() > 0):
            return x * 2.0
        return x * 3.0
    close(ms.grad(f)(ms.Tensor([1.0, 2.0])), np.array([2.0, 2.0], np.float32))
    close(ms.grad(f)(ms.Tensor([-1.0, -2.0])), np.array([3.0, 3.0], np.float32))


def test_jit_decorator_reads_and_writes_parameters():
    w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")

    @ms.jit
    def step(x):
        w.set_data(w + x)
        return w * 2.0

    out = step(ms.Tensor([1.0, 1.0]))
    close(out, np.array([4.0, 6.0], np.float32))
    close(w, np.array([2.0, 3.0], np.float32))
    before = transforms.TRACES[0]
    step(ms.Tensor([1.0, 1.0]))
    close(w, np.array([3.0, 4.0], np.float32))
    assert transforms.TRACES[0] == before


def test_jit_on_construct_method_and_writes_in_graph_mode(mode):
    class Acc(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
            self.total = ms.Parameter(ms.Tensor(0.0), name="total", requires_grad=False)

        @ms.jit
        def construct(self, x):
            out = (self.w * x).sum()
            self.total.set_data(self.total + out)
            return out

    acc = Acc()
    before = transforms.TRACES[0]
    for _ in range(3):
        out = acc(ms.Tensor([1.0, 1.0]))
    close(out, 3.0)
    close(acc.total, 9.0)
    assert transforms.TRACES[0] - before == 1
    # a gradient through the jitted construct sees the same numbers
    g = ms.grad(acc, None, acc.trainable_params())(ms.Tensor([2.0, 3.0]))
    close(g[0], np.array([2.0, 3.0], np.float32))
    close(acc.total, 17.0)


def test_grad_all_with_an_int_tensor_index_into_a_cell_tuple():
    """``self.layers[index](x)`` with an Int32 Tensor index (tests/st/ops/test_control_ops.py): the
    index's gradient is a zero of its dtype; the float0 tangent JAX gives it never reaches NumPy's
    host path for small eager programs (a JaxRuntimeError before)."""
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = (ms.nn.ReLU(), ms.nn.Tanh())
            self.z = ms.Parameter(ms.Tensor(np.full((2, 3), 0.5, np.float32)), name="z")

        def construct(self, index, x):
            return self.layers[index](x) * self.z

    x = ms.Tensor(np.full((2, 3), 0.6, np.float32))
    for i in (0, 1):
        gi, gx = ms.ops.GradOperation(get_all=True)(Net())(ms.Tensor(i, ms.int32), x)
        assert gi.dtype == ms.int32 and int(gi) == 0
        expect = 0.5 if i == 0 else 0.5 * (1 - np.tanh(0.6) ** 2)
        np.testing.assert_allclose(gx.asnumpy(), np.full((2, 3), expect, np.float32), rtol=1e-6)
