"""``nn.probability.distribution``: what the golden suite ``distribution`` cannot
compare with MindSpore because the random streams differ, i.e. that samples follow
the distribution, and the module paths. Values, gradients and errors of every
method are golden cases (``tests/golden/cases_distribution.py``)."""
import numpy as np
import pytest

import msjax as ms
from msjax import _compat, _tree
from msjax.nn.probability.distribution import Distribution, Uniform


def _ks_uniform(samples, low, high):
    """Kolmogorov-Smirnov distance between the samples and U[low, high)."""
    x = np.sort(samples)
    n = len(x)
    cdf = (x - low) / (high - low)
    return max(np.max(np.arange(1, n + 1) / n - cdf), np.max(cdf - np.arange(n) / n))


def test_samples_follow_the_distribution(mode):
    ms.set_seed(7)
    low, high = np.array([0.0, -3.0, 10.0], np.float32), np.array([1.0, 5.0, 10.5], np.float32)
    u = Uniform(low, high)
    n = 20000
    s = u("sample", (n,)).asnumpy()      # the Cell call: compiled in GRAPH_MODE
    assert s.shape == (n, 3) and s.dtype == np.float32
    assert (s >= low).all() and (s < high).all()
    for j in range(3):
        # KS critical value at alpha = 0.001 is 1.95 / sqrt(n)
        assert _ks_uniform(s[:, j], low[j], high[j]) < 1.95 / np.sqrt(n), j
    # mean within 4 standard errors, variance within 5%
    assert (np.abs(s.mean(0) - (low + high) / 2) < 4 * (high - low) / np.sqrt(12 * n)).all()
    np.testing.assert_allclose(s.var(0), (high - low) ** 2 / 12, rtol=0.05)


def test_each_call_draws_new_numbers(mode):
    u = Uniform(0.0, 1.0, dtype=ms.float16)
    a, b = u("sample", (64,)).asnumpy(), u("sample", (64,)).asnumpy()
    assert a.dtype == np.float16 and not np.array_equal(a, b)
    c = u.sample((64,), ms.Tensor(np.float32(2.0)), ms.Tensor(np.float32(4.0))).asnumpy()
    assert ((c >= 2) & (c <= 4)).all() and c.mean() > 2.5


def test_samples_in_a_compiled_network_are_differentiable_in_the_bounds():
    """The reparameterised sample ``low + (high - low) * u``: d/dlow = 1 - u, d/dhigh = u."""
    u = Uniform()
    low, high = ms.Tensor(np.float32(1.0)), ms.Tensor(np.float32(3.0))

    @ms.jit
    def draw_and_grad(lo, hi):
        return ms.value_and_grad(lambda a, b: u.sample((1000,), a, b).sum(), grad_position=(0, 1))(lo, hi)

    total, (g_low, g_high) = draw_and_grad(low, high)
    # sum(low + (high - low) * u) = 1000 * low + (high - low) * sum(u)
    np.testing.assert_allclose(g_low.asnumpy() + g_high.asnumpy(), 1000.0, rtol=1e-5)
    np.testing.assert_allclose(total.asnumpy(), 1000 * 1.0 + 2.0 * g_high.asnumpy(), rtol=1e-4)


def test_mindspore_paths():
    _compat.install()
    import mindspore.nn.probability.distribution as msd
    from mindspore.nn.probability.distribution.uniform import Uniform as U2
    from mindspore.nn.probability.distribution.distribution import Distribution as D2
    assert msd.Uniform is U2 is Uniform and msd.Distribution is D2 is Distribution
    assert issubclass(Uniform, ms.nn.Cell)
    from mindspore.nn.probability.distribution.normal import Normal as N2
    assert msd.Normal is N2 and issubclass(N2, Distribution)
    with pytest.raises(_tree.UnsupportedError, match=r"`mindspore.nn.probability.distribution.Bernoulli`"):
        msd.Bernoulli
