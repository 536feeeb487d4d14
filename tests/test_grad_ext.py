"""Issue 10 part A: Cells built inside traced functions, no-grad, custom backward
(``Cell.bprop``, ``custom_vjp``), gradient-function paths, clipping helpers.
The golden suite ``cases_grad_ext.py`` holds MindSpore 2.10's recorded results;
these tests check what a recording cannot (escaped tracers, caching) against
hand-written NumPy references."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn


@pytest.fixture(params=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "graph" else ms.PYNATIVE_MODE)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _x():
    return ms.Tensor(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32))


# --- Cells and Parameters created inside a traced function ----------------------------
def test_cell_built_inside_jit(mode):
    @ms.jit
    def run(x):
        d = nn.Dense(2, 3, weight_init="ones", bias_init="zeros")
        return d(x) * 2

    x = _x()
    expect = (x.asnumpy() @ np.ones((2, 3), np.float32)) * 2
    np.testing.assert_allclose(run(x).asnumpy(), expect)
    np.testing.assert_allclose(run(x).asnumpy(), expect)      # cached: same numbers


def test_random_init_inside_jit_is_traced_and_does_not_escape(mode):
    kept = []

    @ms.jit
    def run(x):
        d = nn.Dense(2, 3)        # random weights: drawn from the traced RNG key
        kept.append(d.weight)
        return d(x)

    out = run(_x())
    assert out.shape == (2, 3)
    w = kept[0]
    assert w.shape == (3, 2) and w.name == "weight"
    with pytest.raises(RuntimeError, match="created inside a compiled or differentiated function"):
        (w + 1).asnumpy()


def test_cell_built_inside_grad_function(mode):
    def loss(x):
        d = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        return (d(x) ** 2).sum()

    x = _x()
    g = ms.grad(loss)(x).asnumpy()
    s = x.asnumpy().sum(axis=1, keepdims=True)
    np.testing.assert_allclose(g, np.broadcast_to(2 * s, (2, 2)))


def test_cell_built_inside_construct(mode):
    class Outer(nn.Cell):
        def construct(self, x):
            inner = nn.Dense(2, 2, weight_init="ones", bias_init="ones")
            return inner(x).sum()

    x = _x()
    np.testing.assert_allclose(Outer()(x).asnumpy(), (x.asnumpy() @ np.ones((2, 2))).sum() + 4)
    np.testing.assert_allclose(ms.grad(Outer())(x).asnumpy(), np.full((2, 2), 2.0))
