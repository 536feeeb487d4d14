"""``mint`` behaviours MindSpore's own ``tests/st/mint`` exercise that its CPU build cannot run
(no CPU kernel, so no golden output): checked against NumPy and hand-written JAX."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import msjax as ms
from msjax import mint, ops


@pytest.mark.parametrize("value, dtype", [(ms.Tensor([5]), ms.int64), (ms.Tensor(2.5), ms.float32),
                                          (ms.Tensor(True), ms.bool_),
                                          (ms.Tensor(np.array(3, np.uint8)), ms.int64),
                                          (ms.Tensor(np.array([1.5], np.float16)), ms.float32)])
def test_full_tensor_fill_value_dtype_and_gradient(value, dtype):
    """``mint.full`` with a Tensor ``fill_value`` takes its default dtype from the value's kind
    without reading it, so it runs under a gradient (MindSpore's CPU build has no FillScalar
    kernel); the gradient of the fill value is the number of elements, as ``jax.grad``'s."""
    out = mint.full((1, 2, 3), value)
    assert out.dtype == dtype and out.shape == (1, 2, 3)
    np.testing.assert_array_equal(out.asnumpy(), np.full((1, 2, 3), value.asnumpy().reshape(()), out.asnumpy().dtype))
    if dtype == ms.float32:
        (g,) = ops.GradOperation(get_all=True)(lambda s, v: mint.full(s, v))((1, 2, 3), value)
        want = jax.grad(lambda v: jnp.sum(jnp.full((1, 2, 3), v.reshape(()), jnp.float32)))(
            jnp.asarray(value.asnumpy(), jnp.float32))
        assert g.shape == value.shape
        np.testing.assert_allclose(g.asnumpy(), np.asarray(want))


def test_scatter_primitive_multiply_multiplies():
    """``Scatter``/``ScatterValue`` with ``reduce='multiply'`` multiply at repeated indices, as
    MindSpore's documentation says (its 2.10 CPU kernel adds): NumPy's ``np.multiply.at``."""
    from msjax.ops import auto_generate as A
    x = np.arange(1.0, 13.0, dtype=np.float32).reshape(3, 4)
    idx = np.array([[0, 1, 2], [2, 1, 0]], np.int64)
    src = np.array([[2, 3, 4], [5, 6, 7]], np.float32)
    want = x.copy()
    np.multiply.at(want, (idx, np.broadcast_to(np.arange(3), idx.shape)), src)
    got = A.Scatter()(ms.Tensor(x), 0, ms.Tensor(idx), ms.Tensor(src), "multiply")
    np.testing.assert_array_equal(got.asnumpy(), want)
    want_v = x.copy()
    np.multiply.at(want_v, (np.broadcast_to(np.arange(2)[:, None], idx.shape), idx), 2.5)
    got_v = A.ScatterValue()(ms.Tensor(x), 1, ms.Tensor(idx), 2.5, "multiply")
    np.testing.assert_array_equal(got_v.asnumpy(), want_v)
