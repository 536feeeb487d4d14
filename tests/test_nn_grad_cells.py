"""nn.Jvp / nn.Vjp / ops.jvp on the transform core, nn.utils.no_init_parameters and the
THOR statistics: what the golden cases (nn_layers: l_jvp, l_vjp, op_jvp, l_no_init_parameters, l_thor_*)
do not cover -- errors, caching, GRAPH_MODE, and references written in numpy."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax._core import transforms


def _t(*shape, seed=0):
    return ms.Tensor(np.random.RandomState(seed).randn(*shape).astype(np.float32))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_jvp_matches_finite_differences_and_is_cached(mode):
    ms.set_context(mode=mode)
    try:
        w = ms.Parameter(_t(3, seed=5), name="w")

        def f(x, y):
            return ops.tanh(x * w) * y ** 2

        x, y, vx, vy = _t(3, seed=1), _t(3, seed=2), _t(3, seed=3), _t(3, seed=4)
        jvp = nn.Jvp(f)
        out, tangent = jvp(x, y, (vx, vy))
        eps = 1e-3
        hi = f(x + vx * eps, y + vy * eps).asnumpy().astype(np.float64)
        lo = f(x - vx * eps, y - vy * eps).asnumpy().astype(np.float64)
        np.testing.assert_allclose(tangent.asnumpy(), (hi - lo) / (2 * eps), rtol=1e-2, atol=1e-3)
        np.testing.assert_allclose(out.asnumpy(), f(x, y).asnumpy(), rtol=1e-6)
        traces = transforms.TRACES[0]
        jvp(x * 2, y, (vy, vx))
        assert transforms.TRACES[0] == traces       # same signature: neither traced nor compiled again
        w.set_data(w * 3)                             # Parameters are read at call time
        np.testing.assert_allclose(jvp(x, y, (vx, vy))[0].asnumpy(), f(x, y).asnumpy(), rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_jvp_and_vjp_are_adjoint():
    m = _t(4, 3, seed=7)

    def f(x):
        return ops.sin(ops.matmul(m, x))

    x, v, u = _t(3, 2, seed=1), _t(3, 2, seed=2), _t(4, 2, seed=3)
    _, jv = nn.Jvp(f)(x, v)
    _, uj = nn.Vjp(f)(x, u)
    np.testing.assert_allclose((jv * u).sum().asnumpy(), (uj * v).sum().asnumpy(), rtol=1e-5)


def test_jvp_errors():
    f = nn.Jvp(lambda x, y: x * y)
    x = _t(2)
    with pytest.raises(TypeError, match="structure of the inputs"):   # MindSpore: Type Join Failed
        f(x, x, x)
    with pytest.raises(TypeError, match="structure of the inputs"):
        nn.Jvp(lambda a: a * a)(x, (x,))
    with pytest.raises(TypeError, match="structure of the outputs"):
        nn.Vjp(lambda a: a * a)(x, (x, x))
    with pytest.raises(ValueError, match="shape of 'v'"):
        f(x, x, (x, _t(3)))
    with pytest.raises(TypeError, match="must be a Tensor, tuple or list of Tensors"):
        ops.jvp(lambda a: a, 1.0, x)
    with pytest.raises(ValueError, match="more than one outputs"):
        ops.jvp(lambda a: a, x, x, has_aux=True)


def test_no_init_parameters_restores_the_flag_after_an_error():
    with pytest.raises(KeyError):
        with nn.utils.no_init_parameters():
            assert ms.Parameter.init_param is False
            raise KeyError("x")
    assert ms.Parameter.init_param is True


def test_thor_statistics_against_numpy():
    x = _t(5, 3, seed=1)
    d = nn.DenseThor(3, 4)
    d(x)
    xa = x.asnumpy()
    np.testing.assert_allclose(d.matrix_a.asnumpy(), xa.T @ xa / 3, rtol=1e-6)   # MindSpore divides by in_channels
    ids = np.array([[1, 2, 1], [3, 4, 9]], np.int32)
    e = nn.EmbeddingLookupThor(10, 2, target="DEVICE")
    e(ms.Tensor(ids))
    np.testing.assert_array_equal(e.matrix_a.asnumpy(), np.bincount(ids.ravel(), minlength=10))
    assert nn.EmbeddingLookupThor(10, 2)(ms.Tensor(ids)).dtype == ms.float16
