"""``_inner_ops.ClipByNorm`` over fewer than all axes, against NumPy and hand-written JAX: MindSpore 2.10's CPU
kernel computes those norms from the wrong elements, so they are not recorded from it (the all-axes case is
in tests/golden/cases_st_ops.py: case_inner_clip_by_norm)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import msjax as ms
from msjax.ops._impl.clip import ClipByNorm

T = ms.Tensor


def _clip(x, c, axis):
    n = jnp.sqrt(jnp.sum(jnp.square(x), axis=axis, keepdims=True))
    return x * c / jnp.maximum(n, c)


@pytest.mark.parametrize("axis, np_axis", [(0, (0,)), (1, (1,)), (-1, (2,)), ((0, 2), (0, 2)), ([1], (1,))])
def test_clip_by_norm_axes_and_gradients(axis, np_axis):
    x = np.random.RandomState(1).rand(3, 4, 5).astype(np.float32)
    c = np.array([1.0], np.float32)
    want = x * c / np.maximum(np.sqrt((x.astype(np.float64) ** 2).sum(axis=np_axis, keepdims=True)), c)
    got = ClipByNorm(axis)(T(x), T(c))
    assert got.dtype == ms.float32 and np.allclose(got.asnumpy(), want, rtol=1e-6, atol=1e-7)
    assert not np.allclose(want, x)   # the case clips
    w = np.random.RandomState(2).rand(3, 4, 5).astype(np.float32)
    gx, gc = ms.grad(lambda a, b: (ClipByNorm(axis)(a, b) * T(w)).sum(), (0, 1))(T(x), T(c))
    rx, rc = jax.grad(lambda a, b: (_clip(a, b, np_axis) * w).sum(), (0, 1))(jnp.asarray(x), jnp.asarray(c))
    assert np.allclose(gx.asnumpy(), rx, rtol=1e-5, atol=1e-6) and np.allclose(gc.asnumpy(), rc, rtol=1e-5)


def test_clip_by_norm_axis_out_of_range():
    with pytest.raises(ValueError, match=r"should be within \[-3, 3\) range"):
        ClipByNorm(3)(T(np.ones((2, 3, 4), np.float32)), T(np.array(1.0, np.float32)))
