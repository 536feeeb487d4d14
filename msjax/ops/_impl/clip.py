"""Gradient clipping ops."""
from __future__ import annotations

import jax.numpy as jnp

from ..._core.registry import op
from ._util import Tensor, arr, wrap


@op("clip_by_global_norm", family="clip")
def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """``ops.clip_by_global_norm(x, clip_norm=1.0, use_norm=None)``: scale every
    Tensor of the tuple ``x`` by ``clip_norm / max(global_norm, clip_norm)``."""
    if isinstance(x, Tensor):
        x = (x,)
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"For 'clip_by_global_norm', the 'x' must be a tuple or list of Tensors, "
                        f"but got {type(x).__name__}.")
    if isinstance(clip_norm, bool) or not isinstance(clip_norm, (int, float, Tensor)):
        raise TypeError(f"For 'clip_by_global_norm', the 'clip_norm' must be float or Tensor, "
                        f"but got {type(clip_norm).__name__}.")
    if not isinstance(clip_norm, Tensor) and clip_norm <= 0:
        raise ValueError(f"For 'clip_by_global_norm', the 'clip_norm' must be > 0, but got {clip_norm}.")
    arrays = [arr(t) for t in x]
    if use_norm is None:
        norm = jnp.sqrt(sum(jnp.sum(jnp.square(a.astype(jnp.float32))) for a in arrays))
    else:
        norm = arr(use_norm).astype(jnp.float32)
    c = arr(clip_norm).astype(jnp.float32) if isinstance(clip_norm, Tensor) else jnp.float32(clip_norm)
    scale = c / jnp.maximum(norm, c)
    return tuple(wrap((a * scale).astype(a.dtype)) for a in arrays)
