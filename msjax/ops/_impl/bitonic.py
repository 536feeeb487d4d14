"""The sort order of MindSpore 2.10's CPU ``NMSWithMask`` kernel.

The kernel does not sort stably: it pads the scores to the next power of two with the
dtype's largest finite value, runs a bitonic sorting network ascending over the padded
buffer (compare-and-swap with strict ``>``/``<``, so equal and NaN scores stay where the
network leaves them) and reads the first ``N`` indices back to front. ``nms_order`` runs the
same network, so tied scores come out in MindSpore's order: on NumPy values on the host (a
PyNative call compiles nothing), on JAX values as one ``fori_loop``. Like the kernel, a score
of ``+inf`` sorts above the padding (MindSpore then reads past its buffer; here the gather
clips the index).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np


def _stages(size):
    """``(block, distance)`` of every compare-and-swap stage of a bitonic network on ``size``."""
    out, block = [], 2
    while block <= size:
        dist = block >> 1
        while dist:
            out.append((block, dist))
            dist >>= 1
        block <<= 1
    return np.array(out, np.int32).reshape(-1, 2)


def _stage(xp, pos, block, dist, data, idx):
    """One compare-and-swap stage: pairs ``(t, t ^ dist)``, ascending where ``t & block == 0``."""
    other = pos ^ dist
    lower = pos < other
    theirs = data[other]
    low, high = xp.where(lower, data, theirs), xp.where(lower, theirs, data)
    swap = xp.where((xp.minimum(pos, other) & block) == 0, low > high, low < high)
    return xp.where(swap, theirs, data), xp.where(swap, idx[other], idx)


def nms_order(scores):
    """Indices of the 1-D ``scores`` (NumPy or JAX), highest first, in the order MindSpore's CPU
    ``NMSWithMask`` sorts them."""
    xp = np if isinstance(scores, np.ndarray) else jnp
    n = scores.shape[0]
    size = 1 << max(n - 1, 0).bit_length()
    pos = xp.arange(size, dtype=np.int32)
    data = xp.concatenate([scores, xp.full((size - n,), np.finfo(scores.dtype).max, scores.dtype)])
    stages = _stages(size)
    if xp is np:
        idx = pos
        for block, dist in stages:
            data, idx = _stage(np, pos, block, dist, data, idx)
    elif len(stages):
        table = jnp.asarray(stages)
        _, idx = jax.lax.fori_loop(0, len(stages), lambda k, c: _stage(jnp, pos, table[k, 0], table[k, 1], *c),
                                   (data, pos))
    else:
        idx = pos
    return idx[:n][::-1]
