"""float16 convolutions give MindSpore 2.10's values (``golden/conv_float16_mindspore.json``, recorded by
``golden/record_conv_float16.py``): MindSpore's CPU build computes a float16 ``Conv2D`` and both its
gradients in float32 and rounds each to float16 once, and so does msjax on the CPU
(``conv_lowering.raised_to_float32``). On the recording machine's thread count, with msjax's native
oneDNN kernels, bit for bit on AVX2 and AVX-512 alike (MindSpore gave the recorded AVX2 digests on an
AVX-512 CPU too, and so did msjax: ``docs/testing.md``); elsewhere to float16 rounding."""
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

from golden.conv_float16 import conv_float16_cases  # noqa: E402
from golden.lenet_step import machine  # noqa: E402

with open(os.path.join(_TESTS, "golden", "conv_float16_mindspore.json")) as _f:
    _DOC = json.load(_f)


@pytest.fixture(scope="module")
def ours():
    mode = ms.get_context("mode")
    try:
        yield conv_float16_cases(ms)
    finally:
        ms.set_context(mode=mode)


def test_cases_match_fixture(ours):
    assert sorted(ours) == sorted(_DOC["cases"])


@pytest.mark.parametrize("name", sorted(_DOC["cases"]))
def test_float16_conv_values_are_mindspores(ours, name):
    here, meta = machine(), _DOC["meta"]
    exact = conv_onednn.backend() == "ffi" and here["threads"] == meta["threads"]
    for key, want in _DOC["cases"][name].items():
        got = ours[name][key]
        if key == "dtypes":
            assert got == want
        elif exact:
            assert got["sha256"] == want["sha256"], (name, key, got["head"], want["head"])
        else:
            np.testing.assert_allclose(got["head"], want["head"], rtol=2e-3, atol=2e-3, err_msg=f"{name}/{key}")
            np.testing.assert_allclose(got["abs_sum"], want["abs_sum"], rtol=1e-3, err_msg=f"{name}/{key}")


def test_float16_conv_is_float32_rounded_once():
    """Machine-independent: each pass of a float16 convolution equals the float32 pass on the same
    (widened) values, rounded to float16."""
    rs = np.random.RandomState(7)
    x = rs.randn(2, 4, 7, 7).astype(np.float16)
    w = (rs.randn(5, 4, 3, 3) * 0.5).astype(np.float16)
    dy = rs.randn(2, 5, 4, 4).astype(np.float16)
    conv = ms.ops.Conv2D(5, 3, pad_mode="pad", pad=1, stride=2)
    grad = ms.ops.GradOperation(get_all=True, sens_param=True)(lambda a, b: conv(a, b))
    low = [conv(ms.Tensor(x), ms.Tensor(w))] + list(grad(ms.Tensor(x), ms.Tensor(w), ms.Tensor(dy)))
    wide = [ms.Tensor(v.astype(np.float32)) for v in (x, w, dy)]
    ref = [conv(*wide[:2])] + list(grad(*wide))
    for a, b in zip(low, ref):
        assert a.dtype == ms.float16
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy().astype(np.float16))
