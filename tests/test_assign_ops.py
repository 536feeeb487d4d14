"""In-place state ops (assign & co) across msjax's transforms, and the runtime Print.

A write to a Parameter inside ``ms.jit``, a GRAPH_MODE ``construct`` or ``ms.grad``
must leave the Parameter holding the new concrete value after the call, with no
tracer left behind."""
import jax
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops

T, P = ms.Tensor, ms.Parameter


def _concrete(p):
    return not isinstance(p._data, jax.core.Tracer)


def test_assign_eager_returns_new_value_and_updates():
    w = P(T([1.0, 2.0]), name="w")
    r = ops.assign(w, T([3.0, 4.0]))
    assert type(r) is T and r.asnumpy().tolist() == [3.0, 4.0]
    assert w.asnumpy().tolist() == [3.0, 4.0]
    ops.assign_add(w, T([1.0, 1.0]))
    ops.AssignSub()(w, T([0.5, 0.5]))
    assert w.asnumpy().tolist() == [3.5, 4.5]
    t = T([1.0])
    ops.assign(t, T([2.0]))
    assert t.asnumpy().tolist() == [2.0]


def test_assign_inside_jit():
    w = P(T([1.0, 2.0]), name="w")
    steps = P(T(0, ms.int32), name="steps", requires_grad=False)

    @ms.jit
    def step(x):
        ops.assign(w, w * x)
        ops.assign_add(steps, T(1, ms.int32))
        return w + 0

    out = step(T([2.0, 3.0]))
    assert out.asnumpy().tolist() == [2.0, 6.0]
    step(T([2.0, 3.0]))
    assert w.asnumpy().tolist() == [4.0, 18.0] and int(steps) == 2
    assert _concrete(w) and _concrete(steps)


def test_assign_in_graph_mode_cell(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = P(T([1.0, 2.0]), name="w")
            self.count = P(T(0.0), name="count", requires_grad=False)

        def construct(self, x):
            ops.assign_add(self.count, T(1.0))
            ops.assign(self.w, self.w + x)
            return self.w * 2

    net = Net()
    assert net(T([1.0, 1.0])).asnumpy().tolist() == [4.0, 6.0]
    assert net(T([1.0, 1.0])).asnumpy().tolist() == [6.0, 8.0]
    assert net.w.asnumpy().tolist() == [3.0, 4.0] and float(net.count) == 2.0
    assert _concrete(net.w) and _concrete(net.count)


def test_assign_inside_grad(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = P(T([1.0, 2.0]), name="w")
            self.seen = P(T(0.0), name="seen", requires_grad=False)
            self.last = P(T([0.0, 0.0]), name="last", requires_grad=False)

        def construct(self, x):
            ops.assign_add(self.seen, T(1.0))
            ops.assign(self.last, x)
            return (self.w * x * x).sum()

    net = Net()
    g = ms.grad(net, grad_position=0, weights=net.trainable_params())
    gx, gw = g(T([1.0, 3.0]))
    assert gx.asnumpy().tolist() == [2.0, 12.0] and gw[0].asnumpy().tolist() == [1.0, 9.0]
    g(T([2.0, 1.0]))
    assert float(net.seen) == 2.0 and net.last.asnumpy().tolist() == [2.0, 1.0]
    assert all(_concrete(p) for p in (net.w, net.seen, net.last))

    vg = ms.value_and_grad(net, None, net.trainable_params())
    loss, _ = vg(T([1.0, 1.0]))
    assert float(loss) == 3.0 and float(net.seen) == 3.0


def test_optimizer_like_update_inside_jit():
    """An SGD step written with assign_sub inside a compiled train step."""
    w = P(T([1.0, -1.0]), name="w")

    def loss_fn(x):
        return ((w * x) ** 2).sum()

    grad_fn = ms.grad(loss_fn, grad_position=None, weights=[w])

    @ms.jit
    def train_step(x):
        (g,) = grad_fn(x)
        ops.assign_sub(w, g * 0.1)
        return loss_fn(x)

    for _ in range(3):
        train_step(T([1.0, 2.0]))
    expected = np.array([1.0, -1.0])
    for _ in range(3):
        expected = expected - 0.1 * 2 * expected * np.array([1.0, 4.0])
    assert np.allclose(w.asnumpy(), expected) and _concrete(w)


def test_other_in_place_ops_on_parameters_inside_jit():
    p = P(T(np.zeros((2, 3), np.float32)), name="p")

    @ms.jit
    def f(y):
        ops.index_add(p, T([0, 2], ms.int32), y, 1)
        return p + 0

    f(T([[1.0, 2.0], [3.0, 4.0]]))
    assert p.asnumpy().tolist() == [[1.0, 0.0, 2.0], [3.0, 0.0, 4.0]] and _concrete(p)

    q = P(T([1.0, 2.0]), name="q")

    @ms.jit
    def g():
        q.fill_(5.0)
        return q * 1

    assert g().asnumpy().tolist() == [5.0, 5.0] and q.asnumpy().tolist() == [5.0, 5.0]


def test_assign_errors():
    w = P(T([1.0, 2.0]), name="w")
    with pytest.raises(ValueError):
        ops.assign(w, T([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError):
        ops.assign(w, 1.0)
    with pytest.raises(TypeError):
        ops.assign(w, T([1.0, 2.0], ms.float64))
    with pytest.raises(TypeError):
        ops.assign_add(P(T([1, 2], ms.int32), name="i"), T([1, 1]))


def test_value_method():
    w = P(T([1.0, 2.0]), name="w")
    v = w.value()
    assert type(v) is T and v.asnumpy().tolist() == [1.0, 2.0]
    assert T([3.0]).value().asnumpy().tolist() == [3.0]


# ---------------------------------------------------------------------------
# Print
# ---------------------------------------------------------------------------
_PRINTED = ("hi\n"
            "Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])\n"
            "3\n")


def test_print_eager(capsys):
    assert ops.print_("hi", T([1.0, 2.0]), 3) is None
    ops.Print()(T(np.array([[1, 2], [3, 4]], np.int32)), (T(1), 2), P(T([1.0]), name="w"), 3.5, True)
    out = capsys.readouterr().out
    assert out == _PRINTED + (
        "Tensor(shape=[2, 2], dtype=Int32, value=\n[[1, 2],\n [3, 4]])\n"
        "(Tensor(shape=[], dtype=Int64, value= 1), 2)\n"
        "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00])\n"
        "3.5\nTrue\n")


def test_print_inside_jit_prints_every_run(capsys):
    @ms.jit
    def f(x):
        ops.print_("hi", x, 3)
        return x * 2

    f(T([1.0, 2.0]))
    f(T([1.0, 2.0]))
    out = capsys.readouterr().out
    # compiled: MindSpore's graph Print op writes Tensors without commas (checked with MindSpore 2.10)
    assert out == "hi\nTensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  2.00000000e+00])\n3\n" * 2


def test_print_in_graph_cell(capsys):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ops.Print()

        def construct(self, x):
            self.p("value:", x + 1)
            return x

    ms.set_context(mode=ms.GRAPH_MODE)
    Net()(T([1.0]))
    assert capsys.readouterr().out == "value:\nTensor(shape=[1], dtype=Float32, value=[ 2.00000000e+00])\n"


def test_hook_backward_prints_gradient(capsys):
    def hook_fn(grad):
        print("hook:", grad)

    hook = ops.HookBackward(hook_fn)

    def f(x, y):
        return hook(x * y) * y

    gx, gy = ms.grad(f, grad_position=(0, 1))(T(1.0, ms.float32), T(2.0, ms.float32))
    assert float(gx) == 4.0 and float(gy) == 4.0
    assert capsys.readouterr().out == "hook: (Tensor(shape=[], dtype=Float32, value= 2),)\n"
