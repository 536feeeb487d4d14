"""The FFT family's gradients against central finite differences, beside the golden cases recorded
from MindSpore 2.10 (``cases_st_ops.py``: ``fft_*``).

MindSpore's backward rules for fft/ifft/rfft/irfft and their 2-D and N-D forms are the true
gradients, in MindSpore's complex convention (for a real loss ``L`` of a complex input ``z``, the
gradient is ``dL/d re z + 1j dL/d im z``, the conjugate of JAX's); hfft/ihfft's rules are MindSpore's
own and are checked by the golden cases only. Float64, so the differences are exact to ~1e-8.
"""
import numpy as np
import pytest

import msjax as ms
from msjax import ops

_EPS = 1e-6


def _loss(name, kw, w_re, w_im):
    def f(a):
        y = getattr(ops, name)(a, **kw)
        if "Complex" not in str(y.dtype):
            return (y * ms.Tensor(w_re)).sum()
        return (ops.real(y) * ms.Tensor(w_re) + ops.imag(y) * ms.Tensor(w_im)).sum()
    return f


def _fd(f, x):
    """``dL/d re x (+ 1j dL/d im x)`` by central differences."""
    def d(step):
        g = np.zeros(x.shape)
        for i in np.ndindex(*x.shape):
            e = np.zeros(x.shape, x.dtype)
            e[i] = step
            g[i] = (f(ms.Tensor(x + e)).asnumpy() - f(ms.Tensor(x - e)).asnumpy()) / (2 * _EPS)
        return g
    return d(_EPS) + 1j * d(1j * _EPS) if np.iscomplexobj(x) else d(_EPS)


@pytest.mark.parametrize("name,kw,real_input", [
    ("fft", {}, True), ("fft", dict(n=6, norm="ortho"), False), ("ifft", dict(n=3, dim=0), False),
    ("rfft", dict(n=6), True), ("rfft", dict(dim=0, norm="forward"), True), ("irfft", {}, False),
    ("irfft", dict(n=5, norm="ortho"), False), ("fft2", dict(s=(2, 5)), False), ("ifftn", dict(norm="forward"), False),
    ("rfft2", dict(s=(4, 3)), True), ("rfftn", dict(dim=(1, 0)), True), ("irfftn", dict(s=(3, 6)), False),
    ("irfft2", dict(dim=(1, 0), norm="forward"), False),
])
def test_fft_gradient_matches_finite_differences(name, kw, real_input):
    r = np.random.RandomState(len(name) + len(kw))
    x = r.randn(3, 4) if real_input else r.randn(3, 4) + 1j * r.randn(3, 4)
    shape = tuple(getattr(ops, name)(ms.Tensor(x), **kw).shape)
    f = _loss(name, kw, r.randn(*shape), r.randn(*shape))
    got = ops.GradOperation()(f)(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, _fd(f, x), rtol=1e-6, atol=1e-7)
