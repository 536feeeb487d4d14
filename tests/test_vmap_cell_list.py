"""``ops.vmap`` of an ``nn.CellList`` (MindSpore's model ensembling): cell k takes slice k of each
mapped input and the unmapped inputs whole; outputs stacked (tests/st/pynative/jit's
test_ms_vmap_cell_list)."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops


class _Net(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.a = ms.Parameter(ms.Tensor(np.full(3, k, np.float32)), name="a")

    def construct(self, x, y):
        return (x + y * self.a).sum(0)


def test_vmap_cell_list_unmapped_and_mapped_inputs_and_gradient():
    cells = nn.CellList([_Net(1.0), _Net(2.0), _Net(3.0)])
    x = ms.Tensor(np.arange(9, dtype=np.float32).reshape(3, 3))
    y = ms.Tensor(np.ones((3, 3), np.float32))
    shared = ops.vmap(cells, (None, None), 0)(x, y)
    want = np.stack([(x.asnumpy() + y.asnumpy() * k).sum(0) for k in (1, 2, 3)])
    np.testing.assert_array_equal(shared.asnumpy(), want)
    mapped = ops.vmap(cells, (0, None), 1)(x, y)
    want = np.stack([(x.asnumpy()[i] + y.asnumpy() * k).sum(0) for i, k in enumerate((1, 2, 3))], 1)
    np.testing.assert_array_equal(mapped.asnumpy(), want)
    g = ms.grad(lambda x: ops.vmap(cells, (None, None), 0)(x, y).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), np.full((3, 3), 3.0, np.float32))
    with pytest.raises(RuntimeError, match="number of cells"):
        ops.vmap(cells, (0, None), 0)(ms.Tensor(np.ones((2, 3), np.float32)), y)
