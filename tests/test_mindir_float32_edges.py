"""Float16 products that MindSpore's CPU runtime hands on in float32 (``msjax/train/_export/_mindir_wide.py``).

MindSpore 2.10's own file of such a net (GCN's ``adj @ dense(x)`` layers, LPCNet's ``tanh(dense(x))``,
a ``BatchMatMul`` chain, a ``MatMul`` of a ``Tanh``, a ``Reshape`` and a ``ReLU`` between products) and
its run of it are recorded by tests/golden/record_float32_edges.py; msjax's reader gives its values bit
for bit. The other direction (msjax's writer keeps its rounding with an ``Identity``) is the
``float16_chain`` case of tests/test_mindir_export.py.
"""
import os

import numpy as np

import msjax as ms
from msjax import nn

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def test_mindspore_file_runs_to_mindspore_outputs_bit_for_bit():
    rec = np.load(os.path.join(FIXTURES, "float32_edges.npz"))
    outs = nn.GraphCell(ms.load(os.path.join(FIXTURES, "float32_edges.mindir")))(
        ms.Tensor(rec["x0"]), ms.Tensor(rec["x1"]))
    assert len(outs) == 6
    for i, o in enumerate(outs):
        assert o.dtype == ms.float16
        np.testing.assert_array_equal(o.asnumpy(), rec[f"y{i}"], err_msg=f"y{i}")


def test_recorded_chain_is_not_rounded_between_products():
    """The fixture tells the two roundings apart: MindSpore's BatchMatMul of a BatchMatMul (``y3``) is
    the float32 chain rounded once, not the product of the rounded inner product."""
    rec = np.load(os.path.join(FIXTURES, "float32_edges.npz"))
    c = rec["c"].astype(np.float64)
    once = (c @ c @ c).astype(np.float16)
    twice = ((c @ c).astype(np.float16).astype(np.float64) @ c).astype(np.float16)
    assert (twice != rec["y3"]).sum() > 10
    assert (once != rec["y3"]).sum() <= 2      # float64 sums against oneDNN's float32 ones
