"""Integer division scattered into a Tensor (``TensorScatterDiv``, ``ScatterNdDiv``, ``ScatterDiv`` on
integer dtypes), as MindSpore 2.10's CPU kernels compute it: the result keeps the integer dtype, each
update divides C++'s way (truncating toward zero), one update after another (repeated indices divide
the already divided value: ``-2 / 2 / 2`` is 0), and a zero divisor gives the dtype's maximum for a
positive dividend, its minimum for a negative one and 0 for 0 (``ScatterNdDiv``'s kernel; MindSpore's
``TensorScatterDiv`` kernel dies of SIGFPE there, msjax gives the same saturated values).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax


def truncating_divide(a, b):
    """Integer ``a / b`` as C++ divides (toward zero); a zero divisor gives the dtype's max for a positive
    ``a``, its min for a negative one, 0 for 0 (MindSpore's CPU kernels: ScatterNdDiv, TruncateDiv)."""
    info = jnp.iinfo(a.dtype)
    q = lax.div(a, jnp.where(b == 0, jnp.ones_like(b), b))
    by_zero = jnp.where(a > 0, info.max, jnp.where(a < 0, info.min, 0)).astype(a.dtype)
    return jnp.where(b == 0, by_zero, q)


def scatter_int_divide(x, idx, u):
    """``x`` with ``x[idx[i]] //= u[i]`` (truncating) for each ``i`` in order; ``idx[..., :k]`` are
    N-D positions of the first ``k`` axes, ``u`` has shape ``idx.shape[:-1] + x.shape[k:]``."""
    k = idx.shape[-1]
    n = int(jnp.size(idx) // k) if k else 0
    flat_idx = jnp.reshape(idx, (n, k))
    flat_u = jnp.reshape(u, (n,) + tuple(x.shape[k:]))

    def step(i, acc):
        pos = tuple(flat_idx[i, j] for j in range(k))
        return acc.at[pos].set(truncating_divide(acc[pos], flat_u[i]))
    return lax.fori_loop(0, n, step, x) if n else x
