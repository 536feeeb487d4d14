"""``reduce_order._reduce_sum`` (float32 ``ReduceSum``/``ReduceMean`` in MindSpore's CPU order) is
written with ``lax`` so that a PyNative new shape traces one program instead of a jit per ``jnp``
call inside it: its program is the one the ``jnp`` formulation gave, equation for equation (same
jaxpr text, so the same bits compiled and on the host), for every branch (nnacl's lanes, the
row-by-row sum, the float64 sum), with and without ``keepdims`` and ``mean``."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from msjax.ops._impl import reduce_order as ro


def _jnp_divided(s, count):
    return s / lax.optimization_barrier(jnp.full(s.shape, count, s.dtype))


def _jnp_keep(s, x, axes, keepdims):
    return s.reshape([1 if i in axes else d for i, d in enumerate(x.shape)]) if keepdims else s


def _jnp_reduce_sum(x, axes, keepdims, mean):
    """The formulation before the ``lax`` one (``jnp`` reshapes, sum, casts and division)."""
    count = int(np.prod([x.shape[a] for a in axes])) if axes else 1
    if x.size == 0 or not axes:
        s = jnp.sum(x, axis=axes, keepdims=keepdims)
        return _jnp_divided(s, max(count, 1)) if mean and axes else s
    if x.ndim == 2 and axes == (1,):
        s = _jnp_keep(ro._lanes(x), x, axes, keepdims)
    elif not mean and x.ndim >= 2 and axes[0] == 0 and all(x.shape[a] == 1 for a in axes[1:]) and x.shape[0] > 1:
        rest = [d for i, d in enumerate(x.shape) if i not in axes]
        s = _jnp_keep(ro._sequential_rows(x.reshape(x.shape[0], -1)).reshape(rest), x, axes, keepdims)
    else:
        s = jnp.sum(x.astype(jnp.float64), axis=axes, keepdims=keepdims).astype(jnp.float32)
    return _jnp_divided(s, count) if mean else s


CASES = [((8, 16), (1,)), ((3, 29), (1,)), ((5, 7), (1,)), ((8, 16), (0,)), ((40, 3), (0,)), ((4, 1, 6), (0, 1)),
         ((6, 5, 1), (0, 2)), ((3, 4, 5), (0, 2)), ((3, 4, 5), (1,)), ((7,), (0,)), ((2, 3), (0, 1)), ((0, 4), (1,)),
         ((4, 3), ())]


@pytest.mark.parametrize("shape,axes", CASES, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("mean", [False, True])
def test_same_program_as_the_jnp_formulation(shape, axes, keepdims, mean):
    x = jax.ShapeDtypeStruct(shape, np.float32)
    got = jax.make_jaxpr(lambda a: ro._reduce_sum.__wrapped__(a, axes, keepdims, mean))(x)
    want = jax.make_jaxpr(lambda a: _jnp_reduce_sum(a, axes, keepdims, mean))(x)
    assert str(got) == str(want)


def test_divided_same_program_as_the_jnp_formulation():
    """``_divided`` (also LayerNorm's mean and variance)."""
    for shape in [(), (5,), (3, 4)]:
        x = jax.ShapeDtypeStruct(shape, np.float32)
        assert str(jax.make_jaxpr(lambda a: ro._divided(a, 7))(x)) == str(jax.make_jaxpr(lambda a: _jnp_divided(a, 7))(x))
