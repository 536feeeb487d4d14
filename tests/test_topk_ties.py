"""``ops.TopK`` / ``ops.topk`` keep MindSpore 2.10's CPU order among equal values (libstdc++'s
``nth_element`` then a stable sort when ``k`` is at most half the row), in PyNative, in GRAPH_MODE
(a host callback) and under ``vmap``. Inputs from tests/golden/topk_ties.py, MindSpore's outputs
recorded by tests/golden/record_topk_ties.py. MindSpore is not imported here.
"""
import os
import sys

import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
sys.path.insert(0, HERE)
from topk_ties import cases  # noqa: E402

WANT = np.load(os.path.join(HERE, "topk_ties_mindspore.npz"))
CASES = cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_pynative(name):
    x, k = CASES[name]
    v, i = ops.TopK(sorted=True)(ms.Tensor(x), k)
    np.testing.assert_array_equal(i.asnumpy(), WANT[f"{name}/indices"])
    np.testing.assert_array_equal(v.asnumpy(), WANT[f"{name}/values"])
    assert v.dtype == ms.Tensor(x).dtype and i.dtype == ms.int32
    np.testing.assert_array_equal(ops.topk(ms.Tensor(x), k)[1].asnumpy(), WANT[f"{name}/topk"])
    np.testing.assert_array_equal(ops.topk(ms.Tensor(x), k, largest=False)[1].asnumpy(), WANT[f"{name}/smallest"])


class _TopK(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.topk = ops.TopK(sorted=True)

    def construct(self, x):
        return self.topk(x, self.k)


def test_graph_mode_and_vmap():
    x, k = CASES["rows_4x300"]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        v, i = _TopK(k)(ms.Tensor(x))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(i.asnumpy(), WANT["rows_4x300/indices"])
    np.testing.assert_array_equal(v.asnumpy(), WANT["rows_4x300/values"])
    vi = ms.vmap(lambda r: ops.TopK(sorted=True)(r, k)[1])(ms.Tensor(x))
    np.testing.assert_array_equal(vi.asnumpy(), WANT["rows_4x300/indices"])


def test_gradient_flows_to_the_chosen_values():
    x, k = CASES["f32_1000_3"]
    g = ms.grad(lambda t: ops.TopK(sorted=True)(t, k)[0].sum())(ms.Tensor(x)).asnumpy()
    want = np.zeros_like(x)
    want[WANT["f32_1000_3/indices"]] = 1
    np.testing.assert_array_equal(g, want)
