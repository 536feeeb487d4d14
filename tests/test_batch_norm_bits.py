"""Training-mode BatchNorm gives MindSpore 2.10's values bit for bit on the CPU
(``golden/batch_norm_bits_mindspore.json``, recorded by ``golden/record_batch_norm_bits.py``):
``nn.BatchNorm2d`` / ``nn.BatchNorm1d`` outputs and gradients in GRAPH_MODE, and the ``ops.BatchNorm``
primitive's batch mean and variance, on msjax's native kernel (``msjax/ops/_native/batch_norm.cc``).
MindSpore's summation order does not depend on the instruction set or thread count, so the digests
must match on any x86-64 machine. Without the native kernels, XLA's reductions are checked to float
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

from golden.batch_norm_bits import batch_norm_cases  # noqa: E402

with open(os.path.join(_TESTS, "golden", "batch_norm_bits_mindspore.json")) as _f:
    _DOC = json.load(_f)


@pytest.fixture(scope="module")
def ours():
    mode = ms.get_context("mode")
    try:
        yield batch_norm_cases(ms)
    finally:
        ms.set_context(mode=mode)


def test_cases_match_fixture(ours):
    assert sorted(ours) == sorted(_DOC["cases"])


@pytest.mark.parametrize("name", sorted(_DOC["cases"]))
def test_batch_norm_values_are_mindspores(ours, name):
    exact = conv_onednn.backend() == "ffi"
    for key, want in _DOC["cases"][name].items():
        got = ours[name][key]
        if exact:
            assert got["sha256"] == want["sha256"], (name, key, got["head"], want["head"])
        else:
            np.testing.assert_allclose(got["head"], want["head"], rtol=1e-5, atol=1e-5, err_msg=f"{name}/{key}")
            np.testing.assert_allclose(got["abs_sum"], want["abs_sum"], rtol=1e-5, err_msg=f"{name}/{key}")
