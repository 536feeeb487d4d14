"""A network that writes a Parameter (``self.weight += 1.0`` in ``construct``, as MindSpore's
tests/st/export_and_load/test_get_and_init_graph_cell_parameters.py) exports the write as MindSpore
does (an ``Assign`` the output depends on; MindSpore 2.10 loads msjax's file and updates its
GraphCell's Parameter, checked by hand), and ``nn.GraphCell`` carries a loaded graph's writes into
its Parameters (``Assign``, ``InplaceAddsExt``), call after call, ``params_init`` included."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn

W0 = np.arange(6).reshape((2, 3)).astype(np.float32)
A, B = np.full((2, 3), 3.0, np.float32), np.full((2, 3), 4.0, np.float32)


class _Writes(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(W0), name="weight")
        self.scale = ms.Parameter(ms.Tensor(np.float32(2.0)), name="scale")     # read, never written

    def construct(self, x, y):
        ret = x * y * self.weight * self.scale
        self.weight += 1.0
        return ret


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_graph_cell_applies_parameter_writes(tmp_path, mode):
    ms.set_context(mode=mode)
    try:
        net = _Writes()
        path = str(tmp_path / "writes")
        ms.export(net, ms.Tensor(A), ms.Tensor(B), file_name=path, file_format="MINDIR")
        np.testing.assert_array_equal(net.weight.asnumpy(), W0)      # exporting runs nothing
        graph = ms.load(path + ".mindir")
        assert "Assign" in graph.op_types() and "Depend" in graph.op_types()
        cell = nn.GraphCell(graph)
        for k in range(3):
            out = cell(ms.Tensor(A), ms.Tensor(B))
            np.testing.assert_array_equal(out.asnumpy(), A * B * (W0 + k) * 2.0)
            np.testing.assert_array_equal(cell.trainable_params()[0].asnumpy(), W0 + k + 1)
        np.testing.assert_array_equal(cell.trainable_params()[1].asnumpy(), np.float32(2.0))
        start = {"weight": ms.Tensor(W0 + 10)}
        again = nn.GraphCell(ms.load(path + ".mindir"), params_init=start)
        np.testing.assert_array_equal(again(ms.Tensor(A), ms.Tensor(B)).asnumpy(), A * B * (W0 + 10) * 2.0)
        np.testing.assert_array_equal(again.trainable_params()[0].asnumpy(), W0 + 11)
        np.testing.assert_array_equal(start["weight"].asnumpy(), W0 + 10)      # the given Tensor is not written
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_unwritten_parameters_have_no_assign(tmp_path):
    net = nn.Dense(3, 2)
    path = str(tmp_path / "dense")
    ms.export(net, ms.Tensor(A), file_name=path, file_format="MINDIR")
    assert "Assign" not in ms.load(path + ".mindir").op_types()


def test_inplace_adds_kernel_writes_its_input():
    from msjax.train._export._mindir_kernels import KERNELS
    p = ms.Parameter(ms.Tensor(W0), name="p")
    out = KERNELS["InplaceAddsExt"]([p, 1.5, 2], {})
    np.testing.assert_array_equal(out.asnumpy(), W0 + 3.0)
    np.testing.assert_array_equal(p.asnumpy(), W0 + 3.0)
