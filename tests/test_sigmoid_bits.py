"""Float32 ``ops.sigmoid``, ``nn.Sigmoid`` and a GRAPH_MODE cell give MindSpore 2.10's CPU values bit for
bit (``golden/sigmoid_bits_mindspore.json``, recorded by ``golden/record_sigmoid_bits.py``): nnacl's
``Sigmoid`` on lengths 1-17 (its AVX, SSE and scalar parts), 31, 33, 64, 1000 and 8000, with the
values that clamp its ``exp`` (msjax computes the 8000, the shorter ones are its first values: its
arithmetic does not depend on the length). Subnormal results are compared flushed to zero
(MindSpore's depend on the thread that computes them; msjax's are zero). Bit for bit on every x86-64 instruction
set: MindSpore's nnacl ``Sigmoid`` gave the recorded (AVX2) digests on an AVX-512 CPU too, and so does msjax
(re-recorded there, 2026-11-30; ``docs/testing.md``)."""
import json
import os
import sys


_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import msjax as ms  # noqa: E402

from golden.sigmoid_bits import sigmoid_cases  # noqa: E402

with open(os.path.join(_TESTS, "golden", "sigmoid_bits_mindspore.json")) as _f:
    _DOC = json.load(_f)


def test_sigmoid_values_are_mindspores():
    ours = sigmoid_cases(ms, direct=(8000,))
    assert sorted(ours) == sorted(_DOC["cases"])
    assert any(want["subnormals"] for want in _DOC["cases"].values())     # the flushed comparison is exercised
    for name, want in _DOC["cases"].items():
        got = ours[name]
        assert got["subnormals"] == 0, name
        assert got["sha256_flushed"] == want["sha256_flushed"], (name, got["head"], want["head"])
