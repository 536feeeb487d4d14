"""Cell as an NNX Module: names, traversal, nnx.state/split/merge, GRAPH_MODE calls."""
import jax
import numpy as np
import pytest
from flax import nnx

import msjax as ms
from msjax import nn
from msjax._core import transforms


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.z = ms.Parameter(ms.Tensor([1.0]))
        self.fc = nn.Dense(3, 1, has_bias=False)
        self.seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
        self.loss = nn.MSELoss()

    def construct(self, x):
        return self.fc(x) * self.z


def test_names_and_traversal_like_mindspore():
    net = Net()
    # recorded from MindSpore 2.10: own params first, then children's in order
    assert [p.name for p in net.get_parameters()] == ["z", "fc.weight", "seq.0.weight", "seq.0.bias"]
    assert [n for n, _ in net.parameters_and_names()] == ["z", "fc.weight", "seq.0.weight", "seq.0.bias"]
    assert [n for n, _ in net.cells_and_names()] == ["", "fc", "seq", "seq.0", "seq.1", "loss"]
    assert list(net.name_cells()) == ["fc", "seq", "loss"]
    assert net.training is False and net.fc.training is False
    net.set_train()
    assert net.seq[1].training is True
    assert repr(net) == (
        "Net(\n"
        "  (fc): Dense(input_channels=3, output_channels=1)\n"
        "  (seq): SequentialCell(\n"
        "    (0): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
        "    (1): ReLU()\n"
        "  )\n"
        "  (loss): MSELoss()\n"
        ")")


def test_insert_param_to_cell():
    c = nn.Cell()
    c.insert_param_to_cell("w", ms.Parameter(ms.Tensor([1.0])))
    assert [p.name for p in c.get_parameters()] == ["w"]
    with pytest.raises(KeyError):
        c.insert_param_to_cell("a.b", ms.Parameter(ms.Tensor([1.0])))
    with pytest.raises(TypeError):
        c.insert_param_to_cell("v", 3)


def test_nnx_state_split_merge_round_trip():
    net = Net()
    params = nnx.state(net, nnx.Param)
    leaves = jax.tree_util.tree_leaves(params)
    assert len(leaves) == 4
    graphdef, params, rest = nnx.split(net, nnx.Param, ...)
    doubled = jax.tree_util.tree_map(lambda a: a * 2, params)
    net2 = nnx.merge(graphdef, doubled, rest)
    assert isinstance(net2.fc.weight, ms.Parameter)
    assert net2.fc.weight.name == "fc.weight"
    np.testing.assert_allclose(net2.fc.weight.asnumpy(), net.fc.weight.asnumpy() * 2)
    x = ms.Tensor(np.ones((1, 3), np.float32))
    np.testing.assert_allclose(net2(x).asnumpy(), net(x).asnumpy() * 4, rtol=1e-6)


def test_nnx_update_and_jax_grad_on_cell():
    """A Cell works with plain JAX tools through nnx.split/merge."""
    net = Net()
    graphdef, params, rest = nnx.split(net, nnx.Param, ...)
    x = ms.Tensor(np.ones((1, 3), np.float32))

    def loss(p):
        return nnx.merge(graphdef, p, rest)(x)._data.sum()

    g = jax.grad(loss)(params)
    ref = ms.grad(net, None, net.trainable_params())(x)
    np.testing.assert_allclose(np.asarray(g["fc"]["weight"][...]), ref[1].asnumpy(), rtol=1e-6)


def test_graph_mode_cell_call_compiles_once_and_matches_pynative():
    net = Net()
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    eager = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    before = transforms.TRACES[0]
    out = net(x)
    net(x)
    assert transforms.TRACES[0] == before + 1
    np.testing.assert_allclose(out.asnumpy(), eager, rtol=1e-6)
    net.z.set_data(ms.Tensor([2.0]))
    np.testing.assert_allclose(net(x).asnumpy(), eager * 2, rtol=1e-6)
    assert transforms.TRACES[0] == before + 1


def test_train_eval_switch_reuses_compiled_functions():
    """set_train toggles pick the compiled function of that mode: no retrace."""
    net = Net()
    x = ms.Tensor(np.ones((2, 3), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    net.set_train(True)
    net(x)
    net.set_train(False)
    net(x)
    before = transforms.TRACES[0]
    for mode_flag in (True, False, True, False):
        net.set_train(mode_flag)
        net(x)
    assert transforms.TRACES[0] == before


# -- MindSpore's attribute rules, container edits, compile without running (found by
#    MindSpore's tests/ut/python/nn/test_cell.py and test_container.py; outputs recorded
#    from MindSpore 2.10) -------------------------------------------------------------------

def test_containers_set_delete_insert_renumber_like_mindspore():
    class Two(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([nn.Dense(2, 2), nn.Dense(2, 3)])
            self.seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU(), nn.Dense(2, 2)])

    net = Two()
    net.layers.insert(0, nn.Dense(2, 4))
    net.layers.append(nn.Dense(3, 1))
    del net.seq[1]
    assert [p.name for p in net.get_parameters()] == [
        "layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias", "layers.2.weight",
        "layers.2.bias", "layers.3.weight", "layers.3.bias", "seq.0.weight", "seq.0.bias", "seq.1.weight",
        "seq.1.bias"]
    net.layers[1] = nn.Dense(2, 5)
    del net.layers[0]
    assert len(net.layers) == 3 and list(net.layers.name_cells()) == ["0", "1", "2"]
    assert net.layers[0].weight.shape == (5, 2) and net.layers[0].weight.name == "layers.0.weight"
    relu = nn.ReLU()
    net.layers += [relu]
    assert net.layers[3] is relu and net.seq(ms.Tensor(np.ones((1, 2), np.float32))).shape == (1, 2)
    with pytest.raises(IndexError, match=r"range \[-4, 4\), but got 5"):
        net.layers[5]
    with pytest.raises(TypeError, match="'index' must be int"):
        net.layers["a"] = relu
    del net.layers[:]
    assert not net.layers and type(net.layers) is nn.CellList


def test_parameter_and_cell_attributes_follow_mindspore_rules():
    t = ms.Tensor(np.ones((2, 3), np.float32))

    class Early(nn.Cell):
        def __init__(self):
            self.w = ms.Parameter(t, name="w")
            super().__init__()

    with pytest.raises(AttributeError, match="call Cell.__init__"):
        Early()

    class Retyped(nn.Cell):
        def __init__(self, second):
            super().__init__()
            self.a = ms.Parameter(t, name="a")
            self.a = None
            self.a = t          # a Tensor may replace a Parameter
            self.c = nn.ReLU()
            self.c = None
            self.c = second

    Retyped(nn.Tanh())
    with pytest.raises(TypeError, match="Sub cell 'c' already exists"):
        Retyped(3)
    with pytest.raises(KeyError, match="the c parameter already exists"):
        Retyped(ms.Parameter(t, name="p"))

    class NoSuper(nn.Cell):
        def __init__(self):
            self.a = 1

        def construct(self):
            return self.a

    with pytest.raises(AttributeError, match=r"Please use 'super\(\).__init__\(\)'"):
        NoSuper()()
    with pytest.raises(AttributeError, match="'construct' is not defined"):
        nn.Cell()(t)
    seen = []
    nn.SequentialCell(nn.Dense(2, 2), nn.ReLU()).apply(lambda c: seen.append(type(c).__name__))
    assert seen == ["Dense", "ReLU", "SequentialCell"]


def test_compile_traces_without_running_or_writing():
    from msjax.common.api import _cell_graph_executor
    bn = nn.SequentialCell(nn.Dense(3, 4), nn.BatchNorm1d(4))
    bn.set_train()
    before = bn[1].moving_mean.asnumpy().copy()
    x = ms.Tensor(np.random.rand(5, 3).astype(np.float32))
    phase, first = _cell_graph_executor.compile(bn, x)
    assert first and phase.startswith("predict.")
    assert _cell_graph_executor.compile(bn, x) == (phase, False)
    assert bn.compile(x) is None
    np.testing.assert_array_equal(bn[1].moving_mean.asnumpy(), before)    # nothing ran
    with pytest.raises((ValueError, TypeError)):
        bn.compile(ms.Tensor(np.ones((5, 2), np.float32)))                 # wrong feature size

    class Dup(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w1 = ms.Parameter(ms.Tensor([1.0]), name="weight")
            self.w2 = ms.Parameter(ms.Tensor([1.0]), name="weight")

        def construct(self, x):
            return x * self.w1 * self.w2

    with pytest.raises(ValueError, match="its name 'weight' already exists"):
        _cell_graph_executor.compile(Dup(), ms.Tensor([2.0]))


def test_argument_errors_have_mindspores_types():
    a = ms.Tensor(np.ones((3, 3), np.float32))
    b = ms.Tensor(np.ones((2, 2), np.float32))
    # a loss whose arithmetic meets shapes that do not broadcast: ValueError (JAX says TypeError)
    with pytest.raises(ValueError, match=r"need to broadcast, but got input.shape = \[2, 2\] and other.shape = \[3, 3\]"):
        nn.HingeEmbeddingLoss()(a, b)
    with pytest.raises(TypeError, match="'weights' must be a Tensor"):
        nn.L1Regularizer(0.5)("sss")
    with pytest.raises(TypeError, match="'filter_size' must be int"):
        nn.SSIM(filter_size=1.1)
    with pytest.raises(ValueError, match="'filter_size' must be int and must >= 1"):
        nn.MSSSIM(filter_size=0)
    with pytest.raises(TypeError, match="'filter_sigma' must be float"):
        nn.SSIM(filter_sigma=1)


def test_a_tensor_assigned_to_a_parameter_name_becomes_its_data():
    """MindSpore 2.10 (printed there): the Parameter stays (same object, name), takes the
    value cast to its dtype, also as ``self.weight = x`` inside ``ms.jit``."""
    import numpy as np
    import msjax as ms
    from msjax import nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")

        @ms.jit
        def assign(self, x):
            self.weight = x
            return self.weight

    net = Net()
    p = net.weight
    net.weight = ms.Tensor(np.array([5.0, 6.0], np.float32))
    assert net.weight is p and net.weight.name == "w"
    np.testing.assert_array_equal(net.weight.asnumpy(), [5.0, 6.0])
    net.weight = ms.Tensor(np.array([1, 2], np.int32))
    assert net.weight.dtype == ms.float32
    np.testing.assert_array_equal(net.weight.asnumpy(), [1.0, 2.0])
    out = net.assign(ms.Tensor(np.array([3.0, 4.0], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [3.0, 4.0])
    assert net.weight is p
    np.testing.assert_array_equal(net.weight.asnumpy(), [3.0, 4.0])
