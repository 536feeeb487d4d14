"""Gradient hooks beyond the golden cases (tests/golden/cases_hooks.py): compiled
functions, higher-order gradients, errors raised by hooks, caching after
registering and removing hooks."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _f(hook):
    def f(x, y):
        return hook(x * y) * y
    return f


def test_hook_backward_inside_jit_matches_pynative(mode):
    # MindSpore 2.10 skips HookBackward inside ms.jit (docs/gradients.md: differences); msjax applies it
    hook = ops.HookBackward(lambda g: (g[0] * 3,))
    f = _f(hook)

    @ms.jit
    def gj(x, y):
        return ms.grad(f, grad_position=(0, 1))(x, y)
    x, y = ms.Tensor(1.0, ms.float32), ms.Tensor(2.0, ms.float32)
    eager = ms.grad(f, grad_position=(0, 1))(x, y)
    compiled = gj(x, y)
    # z = h(x*y) * y: dz/d(xy) = y = 2, hooked to 6; dx = 6*y = 12, dy = 6*x + x*y = 8
    assert [float(g) for g in eager] == [12.0, 8.0]
    assert [float(g) for g in compiled] == [12.0, 8.0]


def test_hook_sees_concrete_values_every_call(mode):
    seen = []
    hook = ops.HookBackward(lambda g: seen.append(g[0].asnumpy().copy()))
    gf = ms.grad(_f(hook), grad_position=0)
    for k in (2.0, 3.0, 4.0):
        gf(ms.Tensor(1.0, ms.float32), ms.Tensor(k, ms.float32))
    assert [float(s) for s in seen] == [2.0, 3.0, 4.0]


def test_hook_backward_made_in_construct_runs_each_calls_own_hook():
    """A HookBackward built inside ``construct`` is a new hook every call (MindSpore rebuilds the
    gradient graph; tests/st/pynative/hook's test_hookbackward_should_two_zero): each call's hook runs
    once, not the first call's hook again."""
    calls = []

    def make_hook(k):
        def hook(g):
            calls.append((k, float(g[0].asnumpy().sum())))
        return hook

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 2, weight_init="ones")
            self.made = 0

        def construct(self, x):
            self.made += 1
            return ops.HookBackward(make_hook(self.made))(self.dense(x)).sum()

    net = Net()
    gf = ms.grad(net, grad_position=None, weights=net.trainable_params())
    for _ in range(3):
        gf(ms.Tensor(np.ones((1, 3), np.float32)))
    assert [k for k, _ in calls] == [1, 2, 3]
    assert all(v == 2.0 for _, v in calls)


def test_hook_under_second_order_gradient(mode):
    # the hook doubles the gradient of x**3 at its output: d/dx (2 * 3x^2) = 12x
    hook = ops.HookBackward(lambda g: (g[0] * 2,))

    def f(x):
        return hook(x ** 3)
    g2 = ms.grad(ms.grad(f))(ms.Tensor(2.0, ms.float32))
    assert float(g2) == pytest.approx(24.0)


def test_hook_exception_reaches_the_user(mode):
    def bad(g):
        raise KeyError("from the hook")
    f = _f(ops.HookBackward(bad))
    with pytest.raises(KeyError, match="from the hook"):
        ms.grad(f)(ms.Tensor(1.0, ms.float32), ms.Tensor(2.0, ms.float32))
    # the next call is clean
    ok = ms.grad(_f(ops.HookBackward(lambda g: None)))(ms.Tensor(1.0, ms.float32), ms.Tensor(2.0, ms.float32))
    assert float(ok) == 4.0


def test_hook_wrong_count_and_shape(mode):
    f = _f(ops.HookBackward(lambda g: (g[0], g[0])))
    with pytest.raises(ValueError, match="must return 1 gradient"):
        ms.grad(f)(ms.Tensor(1.0, ms.float32), ms.Tensor(2.0, ms.float32))
    f = _f(ops.HookBackward(lambda g: (ms.Tensor(np.ones((3, 2), np.float32)),)))
    with pytest.raises(ValueError, match="shape"):
        ms.grad(f)(ms.Tensor([1.0, 2.0], ms.float32), ms.Tensor([2.0, 3.0], ms.float32))


def test_register_and_remove_take_effect_on_cached_functions(mode):
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    gf = ms.grad(net, grad_position=0)
    x = ms.Tensor(np.array([[1.0, 2.0]], np.float32))
    base = gf(x).asnumpy()
    h = net.register_backward_hook(lambda cell, gi, go: (gi[0] * 4,))
    np.testing.assert_allclose(gf(x).asnumpy(), base * 4)
    h.remove()
    np.testing.assert_allclose(gf(x).asnumpy(), base)
    h2 = net.register_forward_hook(lambda cell, args, out: out * 3)
    np.testing.assert_allclose(gf(x).asnumpy(), base * 3)
    np.testing.assert_allclose(net(x).asnumpy(), [[9.0]])
    h2.remove()
    np.testing.assert_allclose(net(x).asnumpy(), [[3.0]])


def test_backward_hook_in_training_step(mode):
    # a backward pre-hook scaling the loss gradient inside TrainOneStepCell
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    loss = nn.WithLossCell(net, nn.MSELoss())
    seen = []
    net.register_backward_pre_hook(lambda cell, go: seen.append(go[0].shape))
    step = nn.TrainOneStepCell(loss, nn.SGD(net.trainable_params(), learning_rate=0.1))
    step.set_train()
    x = ms.Tensor(np.array([[1.0, 2.0]], np.float32))
    y = ms.Tensor(np.array([[1.0]], np.float32))
    l1 = float(step(x, y).asnumpy())
    l2 = float(step(x, y).asnumpy())
    assert l2 < l1
    assert seen == [(1, 1), (1, 1)]


def test_backward_hook_of_a_cell_with_bprop_sees_bprops_gradients():
    """MindSpore 2.10 calls a bprop Cell's backward hook with bprop's gradients (recorded:
    grad_input [[15, 40]], grad_output [[3, 4]]); found by MindSpore's
    tests/st/pynative/hook/test_pynative_hook_grad.py."""
    seen = []

    class B(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (x * 5 * dout,)

    net = B()
    net.register_backward_hook(lambda c, gi, go: seen.append(([g.asnumpy().tolist() for g in gi],
                                                             [g.asnumpy().tolist() for g in go])))
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    g = ms.ops.GradOperation(get_all=True, sens_param=True)(net)(x, ms.Tensor(np.array([3.0, 4.0], np.float32)))
    assert g[0].asnumpy().tolist() == [15.0, 40.0]
    assert seen == [([[15.0, 40.0]], [[3.0, 4.0]])]


def test_cell_with_bprop_returns_new_tensors_not_its_inputs():
    """MindSpore's custom-bprop node gives new output Tensors in PyNative (tests/st/pynative/grad's
    test_custom_function_return_self_net); other outputs and non-Tensor values pass through."""
    class Net(nn.Cell):
        def construct(self, x, k):
            return x, k, x * 2

        def bprop(self, x, k, out, dout):
            return (dout[0], 0)

    x = ms.Tensor(np.ones(3, np.float32))
    out = Net()(x, 1)
    assert out[0] is not x and np.array_equal(out[0].asnumpy(), x.asnumpy())
    assert out[1] == 1 and out[2].asnumpy().tolist() == [2.0] * 3


def test_tensor_hooks_lists_registered_hooks_and_requires_grad_false_refuses():
    """``Tensor.hooks()`` (MindSpore's TensorPy method; tests/st/pynative/hook/test_tensor_hook.py) and
    its RuntimeError for a Parameter that does not require grad."""
    x = ms.Tensor(np.ones(2, np.float32))
    assert x.hooks() == []

    def h1(g):
        return g * 2

    def h2(g):
        return g * 3
    first = x.register_hook(h1)
    x.register_hook(h2)
    assert x.hooks() == [h1, h2]
    first.remove()
    assert x.hooks() == [h2]
    g = ms.grad(lambda t: (t * t).sum())(x)
    assert g.asnumpy().tolist() == [6.0, 6.0]
    p = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="p", requires_grad=False)
    with pytest.raises(RuntimeError, match="The tensor requires grad is false, which can not register tensor hook"):
        p.register_hook(h1)
