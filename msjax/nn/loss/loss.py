"""Losses: ``LossBase`` and ``MSELoss`` (the rest of the loss family is its own issue)."""
from __future__ import annotations

import jax.numpy as jnp

from ..._core.tensor import wrap
from ..cell import Cell

__all__ = ["LossBase", "MSELoss"]


class LossBase(Cell):
    """Base of losses: ``get_loss(x, weights=1.0)`` applies the reduction."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"For '{type(self).__name__}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                             f"but got {reduction}.")
        self.reduction = reduction
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x):
        return tuple(range(len(x.shape)))

    def get_loss(self, x, weights=1.0):
        xa = x._data if hasattr(x, "_data") else jnp.asarray(x)
        w = weights._data if hasattr(weights, "_data") else weights
        input_dtype = xa.dtype
        xa = xa.astype(jnp.float32) * w if jnp.issubdtype(input_dtype, jnp.floating) else xa * w
        if self.reduce and self.average:
            xa = jnp.mean(xa)
        elif self.reduce:
            xa = jnp.sum(xa)
        return wrap(xa.astype(input_dtype))



class MSELoss(LossBase):
    """``nn.MSELoss(reduction='mean')``: (logits - labels)**2, reduced."""

    def construct(self, logits, labels):
        x = jnp.square(logits._data - labels._data)
        return self.get_loss(wrap(x))
