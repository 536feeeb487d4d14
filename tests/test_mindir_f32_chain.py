"""A float16 ``GeLU`` feeding a ``MatMul`` in MindSpore's own MindIR: MindSpore 2.10's CPU runtime hands the
``MatMul`` the ``GeLU``'s float32 values (recorded by tests/golden/record_mindir_f32_chain.py); msjax's
reader does too, bit for bit, while the ``GeLU`` output itself stays float16; the ``MatMul``, used twice,
hands a ``BiasAdd`` its float32 product (issue 34, BERT's census)."""
import os
import sys

import numpy as np

import msjax as ms
from msjax import nn, ops

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
from golden.lenet_step import same_isa  # noqa: E402

STEM = os.path.join(_TESTS, "fixtures", "mindir_f32_chain")


def test_gelu_matmul_float32_hand_over():
    rec = np.load(STEM + ".npz")
    y, g, z = nn.GraphCell(ms.load(STEM + ".mindir"))(ms.Tensor(rec["x"]))
    for got, key in ((y, "y"), (g, "gelu"), (z, "biased")):
        got = got.asnumpy()
        assert got.dtype == np.float16
        if not same_isa():      # oneDNN's MatMul (MindSpore's too) sums in another order on this CPU
            np.testing.assert_allclose(got.astype(np.float32), rec[key].astype(np.float32), rtol=2e-3, atol=2e-3)
            continue
        assert np.array_equal(got.view(np.uint16), rec[key].view(np.uint16)), \
            f"{key}: {int((got != rec[key]).sum())} of {got.size} differ"
    # the product of the rounded GeLU (msjax's forward, MindSpore's PyNative) is another value
    w16 = ops.MatMul(transpose_b=True)(g, ms.Tensor(ms.load(STEM + ".mindir").params["w"]).astype(ms.float16))
    assert (w16.asnumpy() != rec["y"]).any() or not same_isa()
