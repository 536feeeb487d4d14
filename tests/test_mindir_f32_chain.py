"""A float16 ``GeLU`` feeding a ``MatMul`` in MindSpore's own MindIR: MindSpore 2.10's CPU runtime hands the
``MatMul`` the ``GeLU``'s float32 values (recorded by tests/golden/record_mindir_f32_chain.py); msjax's
reader does too, bit for bit, while the ``GeLU`` output itself stays float16; the ``MatMul``, used twice,
hands a ``BiasAdd`` its float32 product (issue 34, BERT's census). Bit for bit on AVX2 and AVX-512 CPUs
alike: MindSpore's oneDNN runs this small product (16x512 by 512x12) with its gemm kernel on both (on
AVX-512 its brgemm's small-shape fallback), and so does msjax (``SmallShapeGemm`` in
``ops/_native/conv_dnnl.cc``; re-recorded on an AVX-512 CPU, 2026-11-30: the same values)."""
import os

import numpy as np

import msjax as ms
from msjax import nn, ops

_TESTS = os.path.dirname(os.path.abspath(__file__))

STEM = os.path.join(_TESTS, "fixtures", "mindir_f32_chain")


def test_gelu_matmul_float32_hand_over():
    rec = np.load(STEM + ".npz")
    y, g, z = nn.GraphCell(ms.load(STEM + ".mindir"))(ms.Tensor(rec["x"]))
    for got, key in ((y, "y"), (g, "gelu"), (z, "biased")):
        got = got.asnumpy()
        assert got.dtype == np.float16
        assert np.array_equal(got.view(np.uint16), rec[key].view(np.uint16)), \
            f"{key}: {int((got != rec[key]).sum())} of {got.size} differ"
    # the product of the rounded GeLU (msjax's forward, MindSpore's PyNative) is another value
    w16 = ops.MatMul(transpose_b=True)(g, ms.Tensor(ms.load(STEM + ".mindir").params["w"]).astype(ms.float16))
    assert (w16.asnumpy() != rec["y"]).any()
