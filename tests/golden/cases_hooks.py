"""Golden cases for gradient hooks: Cell forward/backward (pre-)hooks, Tensor and
Parameter ``register_hook``, ``ops.HookBackward``, ``ops.InsertGradientOf``: call
order, what the hooks see, replaced inputs/outputs/gradients, handles. Hooks
record what they see in lists (concrete Tensors, as in MindSpore's PyNative)."""
import numpy as np


def _try(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}


def _relu_net(ms, setup):
    nn = ms.nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.relu = nn.ReLU()
            setup(self.relu)

        def construct(self, x, y):
            x = x + y
            return self.relu(x)
    return Net()


def _xy(ms):
    return ms.Tensor(np.array([1.0, -3.0], np.float32)), ms.Tensor(np.array([1.0, 2.0], np.float32))


def case_forward_pre_hook_sees_and_replaces(ms):
    seen = []

    def pre(cell, inputs):
        seen.append(("pre", type(cell).__name__, len(inputs), inputs[0].shape))
        return inputs[0] * 3

    net = _relu_net(ms, lambda c: c.register_forward_pre_hook(pre))
    x, y = _xy(ms)
    out = net(x, y)
    g = ms.grad(net, grad_position=(0, 1))(x, y)
    return [out, g, seen]


def case_forward_pre_hook_new_data_cuts_gradient(ms):
    def pre(cell, inputs):
        return ms.Tensor(np.ones([2], np.float32))

    net = _relu_net(ms, lambda c: c.register_forward_pre_hook(pre))
    return ms.grad(net, grad_position=(0, 1))(*_xy(ms))


def case_forward_hook_replaces_output_and_remove(ms):
    seen = []

    def hook(cell, inputs, outputs):
        seen.append(outputs.shape)
        return outputs * 2 + inputs[0]

    holder = {}
    net = _relu_net(ms, lambda c: holder.setdefault("h", c.register_forward_hook(hook)))
    x, y = _xy(ms)
    g1 = ms.grad(net, grad_position=(0, 1))(x, y)
    out1 = net(x, y)
    holder["h"].remove()
    g2 = ms.grad(net, grad_position=(0, 1))(x, y)
    out2 = net(x, y)
    return [g1, out1, g2, out2, seen[-1]]


def case_hook_order_prepend(ms):
    order = []

    def mk(tag, kind):
        if kind == "pre":
            return lambda cell, inputs: order.append(tag)
        return lambda cell, inputs, out: order.append(tag)

    def setup(c):
        c.register_forward_pre_hook(mk("pre1", "pre"))
        c.register_forward_pre_hook(mk("pre0", "pre"), prepend=True)
        c.register_forward_hook(mk("post1", "post"))
        c.register_forward_hook(mk("post0", "post"), prepend=True)
    net = _relu_net(ms, setup)
    net(*_xy(ms))
    return order


def case_forward_hooks_with_kwargs(ms):
    nn = ms.nn
    seen = []

    class Scale(nn.Cell):
        def construct(self, x, k=1.0):
            return x * k

    s = Scale()

    def pre(cell, args, kwargs):
        seen.append(sorted(kwargs))
        return (args[0] + 1,), {"k": 3.0}

    def post(cell, args, kwargs, out):
        seen.append(kwargs["k"])
        return out - 1

    s.register_forward_pre_hook(pre, with_kwargs=True)
    s.register_forward_hook(post, with_kwargs=True)
    out = s(ms.Tensor([1.0, 2.0]), k=2.0)
    return [out, seen]


def case_forward_pre_hook_with_kwargs_bad_return(ms):
    nn = ms.nn

    class Id(nn.Cell):
        def construct(self, x):
            return x

    c = Id()
    c.register_forward_pre_hook(lambda cell, args, kwargs: args[0], with_kwargs=True)
    return _try(lambda: c(ms.Tensor([1.0])))


def _conv_bn(ms, attach):
    nn = ms.nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones", pad_mode="valid")
            self.bn = nn.BatchNorm2d(2, momentum=0.99, eps=0.00001, gamma_init="ones")
            self.handle = attach(self.bn)
            self.relu = nn.ReLU()

        def construct(self, x):
            return self.relu(self.bn(self.conv(x)))
    return Net()


def case_backward_pre_hook(ms):
    seen = []
    net = _conv_bn(ms, lambda bn: bn.register_backward_pre_hook(lambda cell, g: seen.append(g)))
    x = ms.Tensor(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3))
    g1 = ms.grad(net)(x)
    net.handle.remove()
    g2 = ms.grad(net)(x)
    return [g1, g2, len(seen), seen[0]]


def case_backward_hook_sees_both(ms):
    seen = []
    net = _conv_bn(ms, lambda bn: bn.register_backward_hook(lambda cell, gi, go: seen.append((gi, go))))
    x = ms.Tensor(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3))
    g1 = ms.grad(net)(x)
    net.handle.remove()
    g2 = ms.grad(net)(x)
    return [g1, g2, len(seen), seen[0]]


def case_backward_hook_replaces_grad_input(ms):
    net = _relu_net(ms, lambda c: c.register_backward_hook(lambda cell, gi, go: (gi[0] * 5,)))
    return ms.grad(net, grad_position=(0, 1))(*_xy(ms))


def case_backward_pre_hook_replaces_grad_output(ms):
    net = _relu_net(ms, lambda c: c.register_backward_pre_hook(lambda cell, go: (go[0] * 7,)))
    return ms.grad(net, grad_position=(0, 1))(*_xy(ms))


def case_all_four_hooks_order(ms):
    order = []

    def setup(c):
        c.register_forward_pre_hook(lambda cell, i: order.append("forward_pre"))
        c.register_forward_hook(lambda cell, i, o: (order.append("forward"), o + o)[1])
        c.register_backward_pre_hook(lambda cell, g: (order.append(("backward_pre", g)), None)[1])
        c.register_backward_hook(lambda cell, gi, go: (order.append(("backward", gi, go)), None)[1])
    net = _relu_net(ms, setup)
    x = ms.Tensor(np.ones([1], np.float32))
    g = ms.grad(net, grad_position=(0, 1))(x, ms.Tensor(np.ones([1], np.float32)))
    return [g, order]


def case_tensor_register_hook(ms):
    seen = []

    def hook(grad):
        seen.append(grad)
        return grad * 2

    def f(x, y):
        z = x * y
        z.register_hook(hook)
        return z * y

    g = ms.grad(f, grad_position=(0, 1))(ms.Tensor(1.0, ms.float32), ms.Tensor(2.0, ms.float32))
    return [g, seen]


def case_tensor_register_hook_removed_before_backward(ms):
    def f(x, y):
        z = x * y
        h = z.register_hook(lambda grad: grad * 2)
        z = z * y
        h.remove()
        return z
    return ms.grad(f, grad_position=(0, 1))(ms.Tensor(1.0, ms.float32), ms.Tensor(2.0, ms.float32))


def case_tensor_hook_on_input(ms):
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    h = x.register_hook(lambda g: g * 3)
    f = lambda a: (a * a).sum()   # noqa: E731
    g1 = ms.grad(f)(x)
    h.remove()
    g2 = ms.grad(f)(x)
    return [g1, g2, type(h).__name__]


def case_tensor_hook_returns_none(ms):
    seen = []

    def f(x):
        y = x * 3
        y.register_hook(lambda g: seen.append(g))
        return (y * y).sum()
    return [ms.grad(f)(ms.Tensor(np.array([1.0, -1.0], np.float32))), seen]


def case_parameter_register_hook(ms):
    nn = ms.nn
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    h = net.weight.register_hook(lambda g: g * 10)
    x = ms.Tensor(np.array([[1.0, 2.0]], np.float32))
    g1 = ms.grad(net, grad_position=None, weights=net.trainable_params())(x)
    h.remove()
    g2 = ms.grad(net, grad_position=None, weights=net.trainable_params())(x)
    return [g1, g2]


def case_hook_backward_tuple(ms):
    seen = []
    hook = ms.ops.HookBackward(lambda g: seen.append(g))

    def f(x, y):
        a, b = hook(x * y, x + y)
        return a * b
    g = ms.grad(f, grad_position=(0, 1))(ms.Tensor(3.0, ms.float32), ms.Tensor(2.0, ms.float32))
    return [g, seen]


def case_hook_backward_replaces(ms):
    # (inside ms.jit MindSpore 2.10 skips HookBackward; msjax applies it: tests/test_hooks.py)
    hook = ms.ops.HookBackward(lambda g: (g[0] * 3,))

    def f(x, y):
        return hook(x * y) * y
    return ms.grad(f, grad_position=(0, 1))(ms.Tensor(1.0, ms.float32), ms.Tensor(2.0, ms.float32))


def case_insert_gradient_of(ms):
    ops = ms.ops

    def clip(dx):
        return ops.clip_by_value(dx, ms.Tensor(-0.1, ms.float32), ms.Tensor(0.1, ms.float32))
    ig = ops.InsertGradientOf(clip)

    def g(a, b):
        return ig(a * b) * b
    a = ms.Tensor(np.array([1.0, 2.0], np.float32))
    b = ms.Tensor(np.array([3.0, 4.0], np.float32))

    @ms.jit
    def gj(a, b):
        return ms.grad(g, grad_position=(0, 1))(a, b)
    return [ms.grad(g, grad_position=(0, 1))(a, b), gj(a, b), ig(a)]


def case_hook_not_callable(ms):
    nn = ms.nn
    c = nn.ReLU()
    return [_try(lambda: c.register_forward_pre_hook(1)), _try(lambda: c.register_forward_hook(None)),
            _try(lambda: c.register_backward_hook("f")), _try(lambda: c.register_backward_pre_hook(2.0)),
            _try(lambda: ms.Tensor([1.0]).register_hook(3)), _try(lambda: ms.ops.HookBackward(None))]


def case_hook_on_cell_in_grad_with_weights(ms):
    nn = ms.nn
    seen = []
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    net.register_backward_hook(lambda cell, gi, go: seen.append((gi, go)))
    x = ms.Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
    g = ms.grad(net, grad_position=0, weights=net.trainable_params())(x)
    return [g, seen]


def case_forward_hook_always_call(ms):
    nn = ms.nn
    seen = []

    class Boom(nn.Cell):
        def construct(self, x):
            raise ValueError("boom")

    b = Boom()
    b.register_forward_hook(lambda c, i, o: seen.append(("always", o)), always_call=True)
    b.register_forward_hook(lambda c, i, o: seen.append(("plain", o)))
    return [_try(lambda: b(ms.Tensor([1.0]))), seen]


def case_register_hook_inside_jit(ms):
    relu = ms.nn.ReLU()

    @ms.jit
    def f(x):
        relu.register_forward_pre_hook(lambda c, i: None)
        return relu(x)
    return _try(lambda: f(ms.Tensor([1.0])))


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
