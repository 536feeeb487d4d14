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
