"""Loss scalers: ``scale``/``unscale`` work on a Tensor or any nested tuple of Tensors."""
from __future__ import annotations

import jax
import jax.numpy as jnp

from .._core.parameter import Parameter
from .._core.tensor import Tensor, wrap

__all__ = ["LossScaler", "StaticLossScaler", "all_finite"]


def _map(fn, tree):
    if isinstance(tree, Tensor):
        return wrap(fn(tree._data))
    if isinstance(tree, (tuple, list)):
        return type(tree)(_map(fn, x) for x in tree)
    return fn(tree)


def all_finite(inputs, status=None):
    """True (a Bool scalar Tensor) when every element of every Tensor is finite."""
    leaves = jax.tree_util.tree_leaves(jax.tree_util.tree_map(
        lambda t: t._data, inputs, is_leaf=lambda x: isinstance(x, Tensor)))
    ok = jnp.array(True)
    for x in leaves:
        ok = jnp.logical_and(ok, jnp.all(jnp.isfinite(x)))
    return wrap(ok)


class LossScaler:
    """Base class of loss scalers."""

    def scale(self, inputs):
        raise TypeError(f"{type(self).__name__} does not implement 'scale'.")

    def unscale(self, inputs):
        raise TypeError(f"{type(self).__name__} does not implement 'unscale'.")

    def adjust(self, grads_finite):
        raise TypeError(f"{type(self).__name__} does not implement 'adjust'.")


class StaticLossScaler(LossScaler):
    """``amp.StaticLossScaler(scale_value)``: multiply/divide by a fixed value."""

    def __init__(self, scale_value):
        if isinstance(scale_value, bool) or not isinstance(scale_value, (int, float)):
            raise TypeError(f"The argument 'scale_value' must be float, but got {type(scale_value)}.")
        if scale_value < 1.0:
            raise ValueError(f"The argument 'scale_value' must be >= 1.0, but got {scale_value}.")
        self.scale_value = Parameter(Tensor(scale_value, jnp.float32), name="scale_value")

    def scale(self, inputs):
        s = self.scale_value._data
        return _map(lambda x: x * s.astype(x.dtype), inputs)

    def unscale(self, inputs):
        s = self.scale_value._data
        return _map(lambda x: x / s.astype(x.dtype), inputs)

    def adjust(self, grads_finite):
        return False

    def _ms_state_objects(self):
        return [self.scale_value]
