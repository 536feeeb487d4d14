"""``ops.MatMul`` and ``nn.Dense`` in float16 and float32 give MindSpore 2.10's values bit for bit on the
CPU (``golden/matmul_fp16_mindspore.json``, recorded by ``golden/record_matmul_fp16.py``): MindSpore's
kernel is oneDNN's float32 matmul, a float16 product computed on the widened operands and rounded
once. The record is the one of this CPU's instruction set (``matmul_fp16_mindspore_avx512.json`` on an
AVX-512 CPU, where MindSpore's oneDNN 3.10 runs brgemm for most of these products and its gemm for the
small ones, as msjax's ``SmallShapeGemm`` does: ``ops/_native/conv_dnnl.cc``); with another instruction
set or thread count than the record's (oneDNN splits its sums by both) the values are checked to float
rounding instead."""
import json
import os
import sys

import numpy as np
import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import msjax as ms  # noqa: E402
from msjax.ops._impl import conv_onednn  # noqa: E402

from golden.lenet_step import isa_record, machine  # noqa: E402
from golden.matmul_fp16 import matmul_cases  # noqa: E402

with open(isa_record(os.path.join(_TESTS, "golden", "matmul_fp16_mindspore.json"))) as _f:
    _DOC = json.load(_f)

pytestmark = pytest.mark.skipif(conv_onednn.backend() != "ffi", reason="msjax's native oneDNN kernels not built")


def test_matmul_values_are_mindspores():
    ours = matmul_cases(ms)
    assert sorted(ours) == sorted(_DOC["cases"])
    same_machine = {k: _DOC["meta"][k] for k in ("isa", "threads")} == machine()
    for name, want in _DOC["cases"].items():
        got = ours[name]
        if same_machine:
            assert got["sha256"] == want["sha256"], (name, got["head"], want["head"])
        else:
            tol = 2e-3 if name.startswith("float16") else 1e-5
            np.testing.assert_allclose(got["head"], want["head"], rtol=tol, atol=tol, err_msg=name)
            np.testing.assert_allclose(got["sum"], want["sum"], rtol=tol, atol=tol * want["absmax"], err_msg=name)
