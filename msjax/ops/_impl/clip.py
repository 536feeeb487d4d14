"""Gradient clipping ops."""
from __future__ import annotations

import jax.numpy as jnp

from ..._core.registry import op
from ._util import Tensor, arr, wrap


@op("clip_by_global_norm", family="clip")
def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """``ops.clip_by_global_norm(x, clip_norm=1.0, use_norm=None)``: every Tensor of
    ``x`` times ``clip_norm / max(global_norm, clip_norm)`` (MindSpore's formula: the
    square sums are taken in each Tensor's type and added in Float32; the result
    keeps each Tensor's type). A single Tensor gives a Tensor."""
    if use_norm is not None:
        raise ValueError("For '_ClipByGlobalNorm', input 'use_norm' only supports None currently, "
                         f"but got 'use_norm': {use_norm}")
    if isinstance(clip_norm, bool) or not isinstance(clip_norm, (int, float)):
        raise TypeError(f"For 'clip_by_global_norm', the 'clip_norm' must be float or int, "
                        f"but got {type(clip_norm).__name__}.")
    if clip_norm <= 0:
        raise ValueError(f"For 'clip_by_global_norm', the argument 'clip_norm' must > 0.0, but got {clip_norm}.")
    single = isinstance(x, Tensor)
    seq = (x,) if single else x
    if not isinstance(seq, (tuple, list)) or not all(isinstance(t, Tensor) for t in seq):
        raise TypeError(f"For 'clip_by_global_norm', the 'x' must be a Tensor or a tuple/list of Tensors, "
                        f"but got {type(x).__name__}.")
    arrays = [arr(t) for t in seq]
    square_sum = sum(jnp.sum(jnp.square(a)).astype(jnp.float32).reshape(1) for a in arrays)
    global_norm = jnp.sqrt(square_sum)
    c = jnp.asarray([clip_norm], jnp.float32)
    global_norm = jnp.where(global_norm >= c, global_norm, c)
    out = tuple(wrap((a * c / global_norm).astype(a.dtype)) for a in arrays)
    return out[0] if single else out
