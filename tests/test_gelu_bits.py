"""MindSpore 2.10's CPU tanh-form ``GeLU`` bit for bit (float32: ``tanhf`` of the C library, each step
rounded; float16: the float32 result rounded once), recorded by tests/golden/record_gelu_bits.py: the
census's float16 BERT parted from MindSpore's run of msjax's ``.mindir`` at its first ``GeLU`` (issue 34)."""
import os

import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops

REC = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "gelu_bits_mindspore.npz"))


def _bits_equal(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}")), \
        f"{int((got != want).sum())} of {want.size} values differ, largest {np.abs(got - want).max():.3g}"


@pytest.mark.parametrize("key", ["x16", "x32"])
def test_gelu_tanh_bits(key):
    x = ms.Tensor(REC[key])
    _bits_equal(ops.GeLU()(x).asnumpy(), REC[f"{key}_pynative"])
    _bits_equal(ops.gelu(x, approximate="tanh").asnumpy(), REC[f"{key}_pynative"])
    _bits_equal(ms.jit(nn.GELU())(x).asnumpy(), REC[f"{key}_graph"])


def test_gelu_tanh_gradient():
    """The gradient is the formula's (a NumPy float64 derivative), through the kernel."""
    x = REC["x32"][:64]
    got = ms.grad(lambda t: ops.GeLU()(t).sum())(ms.Tensor(x)).asnumpy()
    d = x.astype(np.float64)
    c = np.sqrt(2 / np.pi)
    t = np.tanh(c * (d + 0.044715 * d ** 3))
    want = 0.5 * (1 + t) + 0.5 * d * (1 - t * t) * c * (1 + 3 * 0.044715 * d * d)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
