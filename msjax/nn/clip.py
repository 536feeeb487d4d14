"""``nn.ClipByNorm`` (deprecated in MindSpore for ``ops.clip_by_norm``): scale a
Tensor so that its L2-norm (over ``axis``) is at most ``clip_norm``."""
from __future__ import annotations

import jax.numpy as jnp

from .._core.tensor import Tensor, wrap
from .cell import Cell

__all__ = ["ClipByNorm"]


class ClipByNorm(Cell):
    """``nn.ClipByNorm(axis=None)``: ``x * clip_norm / max(||x||_axis, clip_norm)``, in Float32."""

    def __init__(self, axis=None):
        super().__init__()
        if axis is not None and not isinstance(axis, (int, tuple)) or isinstance(axis, bool):
            raise TypeError(f"For 'ClipByNorm', the 'axis' must be None, int or tuple, but got {type(axis)}.")
        self.axis = axis

    def construct(self, x, clip_norm):
        if not isinstance(x, Tensor) or not isinstance(clip_norm, Tensor):
            raise TypeError("For 'ClipByNorm', the input args must be tensor.")
        a = x._data
        if a.dtype not in (jnp.float32, jnp.float16):
            raise TypeError(f"For 'ClipByNorm', the dtype of 'x' must be float16 or float32, but got {a.dtype}.")
        a = a.astype(jnp.float32)
        c = clip_norm._data.astype(jnp.float32)
        axis = self.axis
        if axis is None or axis == ():
            axis = tuple(range(a.ndim))
        norm = jnp.sqrt(jnp.sum(jnp.square(a), axis=axis, keepdims=True))
        return wrap(a * c / jnp.maximum(norm, c))
