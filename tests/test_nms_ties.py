"""``ops.NMSWithMask`` orders tied, near-tied and NaN scores as MindSpore 2.10's CPU kernel (a
bitonic network over the next power of two), in PyNative, GRAPH_MODE and msjax's MindIR reader
running MindSpore's own file. Boxes from tests/golden/nms_ties.py, MindSpore's outputs recorded by
tests/golden/record_nms_ties.py. MindSpore is not imported here.
"""
import os
import sys

import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
sys.path.insert(0, HERE)
from nms_ties import MINDIR_CASE, cases  # noqa: E402

WANT = np.load(os.path.join(HERE, "nms_ties_mindspore.npz"))
CASES = cases()


def _check(name, got):
    for key, g in zip(("boxes", "index", "mask"), got):
        want = WANT[f"{name}/{key}"]
        g = g.asnumpy()
        assert g.dtype == want.dtype and g.shape == want.shape, (name, key)
        np.testing.assert_array_equal(g, want, err_msg=f"{name}/{key}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_pynative(name):
    b, thr = CASES[name]
    _check(name, ops.NMSWithMask(thr)(ms.Tensor(b)))


class _Nms(nn.Cell):
    def __init__(self, thr):
        super().__init__()
        self.nms = ops.NMSWithMask(thr)

    def construct(self, b):
        return self.nms(b)


@pytest.mark.parametrize("name", ["levels_129", "f16_40"])
def test_graph_mode(name):
    b, thr = CASES[name]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _check(name, _Nms(thr)(ms.Tensor(b)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_mindspore_file_in_reader():
    b, _ = CASES[MINDIR_CASE]
    cell = nn.GraphCell(ms.load(os.path.join(HERE, "nms_ties.mindir")))
    _check(MINDIR_CASE, cell(ms.Tensor(b)))
