"""Golden cases for what MindSpore's own control-flow system tests (``tests/st/compiler/control``,
``gradient``, ``auto_monad``) exercise that msjax got wrong, written anew (other values, same
constructs). Recorded in GRAPH_MODE only::

    /tmp/ms/bin/python tests/golden/record_mindspore.py --suite st_control --mode graph

and replayed in GRAPH_MODE by ``tests/test_st_control.py``.
"""
import numpy as np


def _raised(f):
    """``f()``, or the exception's type name and message head (errors of several calls in one case)."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the type is the result
        return type(e).__name__ + ": " + str(e).split("\n")[0]


def case_loop_else_refused(ms):
    """``for ... else`` and ``while ... else`` in a compiled function: MindSpore's parser refuses
    them (RuntimeError) even where the loop runs in Python."""
    @ms.jit
    def with_for(x, y):
        for _ in range(2):
            y += x
            break
        else:
            y = x - 1
        return y

    @ms.jit
    def with_while(x, y):
        while x > y:
            y += x
            break
        else:
            y = x * 4
        return y
    x, y = ms.Tensor([3], ms.int32), ms.Tensor([1], ms.int32)
    return [_raised(lambda: with_for(x, y)), _raised(lambda: with_while(x, y))]


def _assign_net(ms, variant, dtype):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.assign = ms.ops.operations.Assign()
            self.p = ms.Parameter(ms.Tensor(np.array([4, -1]), dtype), name="p")

        def construct(self, x, y):
            if variant == "assign_then_read":
                self.assign(self.p, x + self.p)
                return self.p * 3 + y
            if variant == "assign_scaled_self":
                self.assign(self.p, 2 * self.p)
                return self.p * 5 - x
            if variant == "attribute_write":
                self.p = self.p * x
                return self.p * y
            if variant == "assign_add":
                ms.ops.assign_add(self.p, x * y)
                return self.p * y
            out = self.assign(self.p, x * y)     # the Assign's output
            return out * 2 + y
    return Net()


def _assign_grads(ms, dtype):
    out = {}
    for variant in ("assign_then_read", "assign_scaled_self", "attribute_write", "assign_add", "assign_output"):
        net = _assign_net(ms, variant, dtype)
        grad = ms.ops.GradOperation(get_all=True, get_by_list=True)(net, ms.ParameterTuple(net.trainable_params()))
        x, y = ms.Tensor(np.array([3, 2]), dtype), ms.Tensor(np.array([-2, 5]), dtype)
        out[variant] = (grad(x, y), net.p.value())
    return out


def case_parameter_written_in_gradient_float(ms):
    """A Parameter written (Assign, assign_add, attribute) inside a differentiated Cell: its later
    reads are the Parameter (their gradient goes to the weight), the value written gets none."""
    return _assign_grads(ms, ms.float32)


def case_parameter_written_in_gradient_int(ms):
    """The same with Int32 inputs and Parameter: an input also assigned into the Parameter keeps
    its gradient from the other uses."""
    return _assign_grads(ms, ms.int32)


def case_int_input_assigned_then_looped(ms):
    """An Int32 input assigned into a Parameter and doubled in a loop (``test_single_for_03``'s
    shape): its gradient through the loop."""
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.assign = ms.ops.operations.Assign()
            self.a = ms.Parameter(ms.Tensor([7], ms.int32), name="a")
            self.b = ms.Parameter(ms.Tensor([1], ms.int32), name="b")

        def step(self, x):
            x = x * 3
            for _ in range(4):
                x = x + x
                self.b = self.b + 2
            return x - self.b

        def construct(self, x, y):
            self.assign(self.a, x + self.a)
            return self.a + y + self.step(x), self.b

    x, y = ms.Tensor([2], ms.int32), ms.Tensor([6], ms.int32)
    return Net()(x, y), ms.ops.GradOperation(get_all=True)(Net())(x, y)


def case_augmented_assignment_on_parameter_alias(ms):
    """``out = self.a; out += self.b; out *= x`` in a graph: the Parameter takes the new value, and the
    returned value keeps its gradient to ``x`` (unlike an ``Assign``'s)."""
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = ms.Parameter(ms.Tensor(np.array([3.0, -2.0]), ms.float32), name="a")
            self.b = ms.Parameter(ms.Tensor(np.array([1.5, 4.0]), ms.float32), name="b")

        def construct(self, x):
            out = self.a
            out += self.b
            out *= x
            return out

    x = ms.Tensor(np.array([2.0, -3.0]), ms.float32)
    net, grad_net = Net(), Net()
    return net(x), net.a.value(), ms.ops.GradOperation(get_all=True)(grad_net)(x), grad_net.a.value()


def case_cell_list_indexed_by_tensor(ms):
    """A CellList indexed by an Int32 Tensor in a graph, in a ``while`` over a Tensor counter
    (``test_call_tuple_transform``): MindSpore's graph switches over the layers."""
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = ms.nn.CellList([ms.nn.ReLU(), ms.nn.Tanh(), ms.nn.Sigmoid()])

        def construct(self, x, i):
            outs = ()
            while i < 3:
                outs = outs + (self.layers[i](x),)
                i += 1
            return outs, self.layers[ms.Tensor(1, ms.int32)](x)

    return Net()(ms.Tensor(np.array([-1.0, 0.5]), ms.float32), ms.Tensor(0, ms.int32))


def case_functional_switch_and_make_tuple(ms):
    """``F.switch`` on a Bool Tensor and ``F.make_tuple`` in a ``while`` over Tensors, compiled."""
    F = ms.ops.functional

    @ms.jit
    def pick(c, a, b):
        return F.switch(c, a * 2, b), F.switch(c, a, b - 1)

    @ms.jit
    def loop(x, y, z):
        while x < y:
            z = F.make_tuple(F.tuple_getitem(z, 0) * 2, F.tuple_getitem(z, 1) - 1)
            x = x + 1
        return z
    a, b = ms.Tensor([3], ms.int32), ms.Tensor([7], ms.int32)
    return (pick(ms.Tensor(True), a, b), pick(ms.Tensor(False), a, b),
            loop(ms.Tensor([1], ms.int32), ms.Tensor([4], ms.int32), (a, b)))


def case_vmap_assign_into_parameter_rows(ms):
    """``vmap`` of a function that assigns into its mapped Parameter argument: the Parameter takes
    the rows (``test_auto_monad_vmap``'s shape, without the Cell and outside ``ms.jit``: msjax does
    not write back there yet)."""
    def write(x, v):
        ms.ops.assign(x, v)
        return x * 2

    a = ms.Parameter(ms.Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.int32), name="a")
    out = ms.ops.vmap(write, (0, None))(a, ms.Tensor(np.array([7, 8, 9]), ms.int32))
    b = ms.Parameter(ms.Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.int32), name="b")
    return out, a.value(), ms.ops.vmap(write, (1, None))(b, ms.Tensor(np.array([-1, -2]), ms.int32)), b.value()


def case_vjp_fn_called_twice_updates_state_once(ms):
    """``ops.vjp`` of a Cell that updates Parameters (training BatchNorm's moving statistics, an
    ``assign_add``), its ``vjp_fn`` called twice in a graph: the forward's side effects happen once
    (``test_vjp_multiple_outputs_merge_forward``)."""
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.bn = ms.ops.BatchNorm(is_training=True, momentum=0.2)
            self.scale = ms.Parameter(ms.Tensor(np.array([1.0, 2.0]), ms.float32), name="scale")
            self.bias = ms.Parameter(ms.Tensor(np.array([0.5, -0.5]), ms.float32), name="bias")
            self.mean = ms.Parameter(ms.Tensor(np.array([0.0, 1.0]), ms.float32), name="mean")
            self.var = ms.Parameter(ms.Tensor(np.array([1.0, 3.0]), ms.float32), name="var")
            self.count = ms.Parameter(ms.Tensor(np.array([0.0]), ms.float32), name="count")

        def construct(self, x):
            ms.ops.assign_add(self.count, ms.Tensor(np.array([1.0]), ms.float32))
            return self.bn(x, self.scale, self.bias, self.mean, self.var)[0] * 2

    class Grad(ms.nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x):
            out, vjp_fn = ms.ops.vjp(self.net, x)
            return out, vjp_fn(ms.ops.ones_like(out)), vjp_fn(ms.ops.ones_like(out) * 3)

    net = Net()
    x = ms.Tensor(np.array([[1.0, -2.0], [3.0, 0.5], [-1.0, 4.0]]), ms.float32)
    return Grad(net)(x), net.mean.value(), net.var.value(), net.count.value()


def all_cases():
    return {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}


graph_cases = all_cases
