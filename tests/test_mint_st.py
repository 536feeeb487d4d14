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
