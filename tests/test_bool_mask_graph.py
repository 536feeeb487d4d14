"""A boolean-mask index that is an input of a compiled call (GRAPH_MODE Cell, ``ms.jit``, a
gradient): the result's shape depends on the mask's values, which XLA cannot compile; MindSpore
runs it as a dynamic-shape graph, msjax runs that call uncompiled (its JIT Fallback), same numbers
(tests/st/ops/test_bool_tensor_index.py)."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn

X = np.arange(6, dtype=np.float32)
M = np.array([1, 0, 1, 1, 0, 0], bool)


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


class _Get(nn.Cell):
    def construct(self, x, m):
        return x[m] * 2


class _Set(nn.Cell):
    def construct(self, x, m, v):
        x[m] = v
        return x


def test_getitem_and_setitem_with_an_input_mask_in_graph_mode(graph_mode):
    for m in (M, ~M, np.zeros(6, bool)):     # each mask its own result size
        got = _Get()(ms.Tensor(X), ms.Tensor(m))
        np.testing.assert_array_equal(got.asnumpy(), X[m] * 2)
        out = _Set()(ms.Tensor(X.copy()), ms.Tensor(m), ms.Tensor(-1.0))
        want = X.copy()
        want[m] = -1.0
        np.testing.assert_array_equal(out.asnumpy(), want)


def test_jit_function_and_gradient_with_an_input_mask(graph_mode):
    @ms.jit
    def total(x, m):
        return x[m].sum()
    assert float(total(ms.Tensor(X), ms.Tensor(M))) == X[M].sum()
    g = ms.grad(_Get())(ms.Tensor(X), ms.Tensor(M))
    np.testing.assert_array_equal(g.asnumpy(), np.where(M, 2.0, 0.0).astype(np.float32))
    g2 = ms.grad(lambda x, m: (x[m] ** 2).sum())(ms.Tensor(X), ms.Tensor(M))
    np.testing.assert_array_equal(g2.asnumpy(), np.where(M, 2 * X, 0.0).astype(np.float32))


def test_mindspore_numpy_unique_in_jit_and_graph_mode(graph_mode):
    """``mindspore.numpy.unique`` (a data-dependent shape) inside ``ms.jit`` and a GRAPH_MODE Cell:
    the call runs uncompiled (it raised a RuntimeError); MindSpore's order, first appearance."""
    import msjax.numpy as mnp

    @ms.jit
    def twice(x):
        return mnp.unique(x) * 2

    class Net(nn.Cell):
        def construct(self, x):
            return mnp.unique(x, return_inverse=True)
    x = ms.Tensor(np.array([3, 1, 3, 2], np.int32))
    assert twice(x).asnumpy().tolist() == [6, 2, 4]
    u, inv = Net()(x)
    assert u.asnumpy().tolist() == [3, 1, 2] and inv.asnumpy().tolist() == [0, 1, 0, 2]
