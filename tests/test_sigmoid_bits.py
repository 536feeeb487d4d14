"""Float32 ``ops.sigmoid``, ``nn.Sigmoid`` and a GRAPH_MODE cell give MindSpore 2.10's CPU values bit for
bit (``golden/sigmoid_bits_mindspore.json``, recorded by ``golden/record_sigmoid_bits.py``): nnacl's
``Sigmoid`` on lengths 1-17 (its AVX, SSE and scalar parts), 31, 33, 64, 1000 and 8000, with the
values that clamp its ``exp`` (msjax computes the 8000, the shorter ones are its first values: its
arithmetic does not depend on the length). Subnormal results are compared flushed to zero
(MindSpore's depend on the thread that computes them; msjax's are zero). On a machine with another instruction set than
the recording one's the values are checked to float rounding instead."""
import json
import os
import sys

import numpy as np

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import msjax as ms  # noqa: E402

from golden.lenet_step import machine  # noqa: E402
from golden.sigmoid_bits import sigmoid_cases  # noqa: E402

with open(os.path.join(_TESTS, "golden", "sigmoid_bits_mindspore.json")) as _f:
    _DOC = json.load(_f)


def test_sigmoid_values_are_mindspores():
    ours = sigmoid_cases(ms, direct=(8000,))
    assert sorted(ours) == sorted(_DOC["cases"])
    assert any(want["subnormals"] for want in _DOC["cases"].values())     # the flushed comparison is exercised
    same_isa = _DOC["meta"]["isa"] == machine()["isa"]
    for name, want in _DOC["cases"].items():
        got = ours[name]
        assert got["subnormals"] == 0, name
        if same_isa:
            assert got["sha256_flushed"] == want["sha256_flushed"], (name, got["head"], want["head"])
        else:
            np.testing.assert_allclose(got["head"], want["head"], rtol=1e-6, atol=1e-30, err_msg=name)
            np.testing.assert_allclose(got["sum"], want["sum"], rtol=1e-6, atol=1e-30, err_msg=name)
