"""Random initializers cannot reproduce MindSpore's bit stream: their distributions
are checked here against MindSpore 2.10's documented formulas (the coverage tool counts
these tests). HeUniform: U(-b, b) with b = gain * sqrt(3 / fan); HeNormal: N(0, gain / sqrt(fan)),
gain = sqrt(2 / (1 + negative_slope**2)) for leaky_relu, sqrt(2) for relu; fan is fan_in
(in_channels * receptive field) or fan_out (out_channels * receptive field)."""
import math

import numpy as np
import pytest

import msjax as ms
from msjax.common.initializer import HeNormal, HeUniform, initializer

# (init kwargs, shape, expected fan)
CASES = [
    ({}, (400, 100), 100),
    (dict(mode="fan_out"), (100, 400), 100),
    (dict(negative_slope=0.2), (300, 16, 3, 3), 16 * 9),
    (dict(nonlinearity="relu", mode="fan_out"), (32, 300, 2, 2), 32 * 4),
]


def _gain(kw):
    if kw.get("nonlinearity", "leaky_relu") == "relu":
        return math.sqrt(2.0)
    return math.sqrt(2.0 / (1 + kw.get("negative_slope", 0) ** 2))


@pytest.mark.parametrize("kw,shape,fan", CASES)
def test_he_uniform_bounds_and_moments(kw, shape, fan):
    ms.set_seed(3)
    x = initializer(HeUniform(**kw), shape, ms.float32).asnumpy()
    assert x.shape == shape and x.dtype == np.float32
    b = _gain(kw) * math.sqrt(3.0 / fan)
    assert x.min() >= -b and x.max() <= b
    assert x.min() < -0.99 * b and x.max() > 0.99 * b  # fills the whole interval
    n = x.size
    assert abs(x.mean()) < 5 * (b / math.sqrt(3)) / math.sqrt(n)
    assert x.std() == pytest.approx(b / math.sqrt(3), rel=0.03)  # uniform: sd = b / sqrt(3)
    # a uniform, not a normal: flat histogram over ten bins
    hist, _ = np.histogram(x, bins=10, range=(-b, b))
    assert hist.min() > 0.85 * n / 10 and hist.max() < 1.15 * n / 10


@pytest.mark.parametrize("kw,shape,fan", CASES)
def test_he_normal_moments(kw, shape, fan):
    ms.set_seed(4)
    x = initializer(HeNormal(**kw), shape, ms.float32).asnumpy()
    assert x.shape == shape and x.dtype == np.float32
    sd = _gain(kw) / math.sqrt(fan)
    n = x.size
    assert abs(x.mean()) < 5 * sd / math.sqrt(n)
    assert x.std() == pytest.approx(sd, rel=0.03)
    # normal, not truncated: about 0.27% beyond 3 sd, kurtosis 3
    beyond = np.mean(np.abs(x) > 3 * sd)
    assert 0.001 < beyond < 0.006
    z = (x - x.mean()) / x.std()
    assert np.mean(z ** 4) == pytest.approx(3.0, abs=0.25)


def test_he_initializers_by_name_and_seed():
    ms.set_seed(7)
    a = initializer("he_uniform", (50, 20), ms.float32).asnumpy()
    ms.set_seed(7)
    b = initializer(HeUniform(), (50, 20), ms.float32).asnumpy()
    c = initializer(HeUniform(), (50, 20), ms.float32).asnumpy()
    assert np.array_equal(a, b) and not np.array_equal(b, c)
    assert np.abs(initializer("he_normal", (50, 20), ms.float32).asnumpy()).max() > 0
