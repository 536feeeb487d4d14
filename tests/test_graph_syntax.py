"""MindSpore's static-graph Python in GRAPH_MODE beyond the recorded cases (those are replayed by
``test_golden_graph_suites.py`` from ``tests/golden/cases_graph_syntax.py``): in-place ops on
gradient leaves, Assign on views, Cells made inside a graph, reading methods, lambdas and code
without source, and the missing-attribute wording."""
import numpy as np
import pytest

import msjax as ms


@pytest.fixture(autouse=True)
def _graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _inplace_net():
    class Net(ms.nn.Cell):
        def construct(self, x, y):
            x.add_(y)
            return x
    return Net()


def test_inplace_on_grad_leaf_pynative_raises():
    """static_graph, "View and In-place Operations": in PyNative an in-place op on an input the
    gradient differentiates raises (MindSpore's docs; its 2.10 CPU build returns 1 without
    writing back); in a compiled function it is differentiated (1)."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = _inplace_net()
    x, y = ms.Tensor(2, ms.int32), ms.Tensor(3, ms.int32)
    assert int(net(x, y)) == 5
    with pytest.raises(RuntimeError, match="A leaf tensor that requires grad is being used in an inplace "
                                           "operator, InplaceAddExt, which is forbidden!"):
        ms.grad(net)(ms.Tensor(2, ms.int32), y)
    assert int(ms.grad(net, grad_position=1)(ms.Tensor(2, ms.int32), y)) == 0   # x is not differentiated
    net.construct = ms.jit(net.construct)
    assert (int(net(ms.Tensor(2, ms.int32), y)), int(ms.grad(net)(ms.Tensor(2, ms.int32), y))) == (5, 1)


def test_assign_on_a_view_refused_in_pynative():
    """PyNative ``Assign`` refuses any view output, contiguous or not, with MindSpore 2.10's text;
    the base Tensor is unchanged (in a graph only a non-contiguous view is refused: golden sg34)."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    x = ms.Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.int32)
    for perm, layout in (((1, 0), "shape=[3, 2]  strides=[1, 3]  storage_offset=0  ori_shape=[2, 3]  "
                                  "ori_strides=[3, 1]  is_contiguous=0"),
                         ((0, 1), "shape=[2, 3]  strides=[3, 1]  storage_offset=0  ori_shape=[2, 3]  "
                                  "ori_strides=[3, 1]  is_contiguous=1")):
        view = ms.ops.operations.TransposeView()(x, perm)
        with pytest.raises(RuntimeError) as err:
            ms.ops.operations.Assign()(view, view + 5)
        assert str(err.value) == ("Check view and inplace failed! Not support view input for inplace op Assign. "
                                  f"Got input with storage_info:TensorStorageInfo({layout})")
    assert (x.asnumpy() == [[1, 2, 3], [4, 5, 6]]).all()


def test_tensor_attribute_of_a_cell_made_inside_the_graph():
    """A Cell built inside the compiled function may keep a computed Tensor as an attribute
    (local to the call; not state), and compiling it terminates."""
    class Inner(ms.nn.Cell):
        def construct(self, x):
            self.t = x * 2
            return self.t + 1

    @ms.jit
    def f(x):
        return Inner()(x)
    assert [float(f(ms.Tensor([v]))[0]) for v in (1.0, 2.0)] == [3.0, 5.0]


def test_graph_reading_of_methods_lambdas_and_code_without_source():
    """``ms.jit`` of a bound method is read as its function and bound again; a lambda and a
    function with no source file run as written."""
    class Net(ms.nn.Cell):
        def construct(self, x):
            table = {"k": x}
            return table.has_key("k"), table.values()

    net = Net()
    net.construct = ms.jit(net.construct)
    found, values = net(ms.Tensor([2.0]))
    assert found is True and isinstance(values, tuple) and float(values[0][0]) == 2.0
    assert float(ms.jit(lambda x: x + 1)(ms.Tensor([1.0]))[0]) == 2.0
    scope = {}
    exec("def f(x):\n    return x * 3\n", scope)   # noqa: S102 - no source file to read
    assert float(ms.jit(scope["f"])(ms.Tensor([1.0]))[0]) == 3.0


def test_missing_cell_attribute_wording():
    """static_graph block 39: a missing Cell attribute read in a graph raises MindSpore's
    ``ClassMember`` AttributeError (without its C++ stack); outside a graph, its Cell's wording."""
    import re

    class Net(ms.nn.Cell):
        def construct(self, x):
            return x + self.y
    net = Net()
    graph = rf"^ClassMember: 'Namespace:{re.escape(Net.__module__)}\.\.<Net::{id(net)}>' object has no attribute 'y'"
    for call in (lambda: net(1), lambda: ms.grad(net)(ms.Tensor(1.0))):
        with pytest.raises(AttributeError, match=graph):
            call()
    with pytest.raises(AttributeError, match=r"^The 'Net' object has no attribute 'y'\.$"):
        net.y
    assert not hasattr(net, "y") and getattr(net, "y", 3) == 3
    ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(AttributeError, match=r"^The 'Net' object has no attribute 'y'\.$"):
        net(1)
