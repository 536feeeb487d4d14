"""Loss scalers: ``scale``/``unscale`` work on a Tensor or any nested tuple of Tensors."""
from __future__ import annotations

import jax
import jax.numpy as jnp

from .._core import dtype as mstype
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
        self.scale_value = Parameter(Tensor(scale_value, mstype.float32), name="scale_value")

    def scale(self, inputs):
        s = self.scale_value._data
        return _map(lambda x: x * s.astype(x.dtype), inputs)

    def unscale(self, inputs):
        s = self.scale_value._data
        # MindSpore multiplies by the reciprocal (``grad * Reciprocal(scale)``)
        return _map(lambda x: x * (1 / s).astype(x.dtype), inputs)

    def adjust(self, grads_finite):
        return False

    def _ms_state_objects(self):
        return [self.scale_value]


class DynamicLossScaler(LossScaler):
    """``amp.DynamicLossScaler(scale_value, scale_factor, scale_window)``.

    ``adjust(grads_finite)`` is MindSpore's rule: with finite gradients the
    counter advances modulo ``scale_window`` and when it completes a window the
    scale is multiplied by ``scale_factor`` (unless that overflows to inf); with
    non-finite gradients the scale becomes ``max(1, scale / scale_factor)`` and the
    counter restarts. (``nn.DynamicLossScaleUpdateCell`` uses a different rule.)
    """

    def __init__(self, scale_value, scale_factor, scale_window):
        if isinstance(scale_value, bool) or not isinstance(scale_value, (int, float)):
            raise TypeError(f"The type of 'scale_value' should be one of '['float', 'int']', but got type "
                            f"'{type(scale_value).__name__}'.")
        if scale_value < 1.0:
            raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")
        self.scale_value = Parameter(Tensor(scale_value, mstype.float32), name="scale_value")
        self.scale_window = _positive_int(scale_window, "scale_window")
        self.scale_factor = _positive_int(scale_factor, "scale_factor")
        self.counter = Parameter(Tensor(0, mstype.int32), name="counter")

    def scale(self, inputs):
        s = self.scale_value._data
        return _map(lambda x: x * s.astype(x.dtype), inputs)

    def unscale(self, inputs):
        s = self.scale_value._data
        return _map(lambda x: x * (1 / s).astype(x.dtype), inputs)

    def adjust(self, grads_finite):
        finite = (grads_finite._data if isinstance(grads_finite, Tensor) else jnp.asarray(grads_finite))
        finite = finite.astype(jnp.bool_).reshape(())
        scale = self.scale_value._data
        one = jnp.ones((), scale.dtype)
        mul = scale * jnp.asarray(self.scale_factor, scale.dtype)
        counter = self.counter._data
        grown = jnp.where(counter == self.scale_window - 1, jnp.where(jnp.isfinite(mul), mul, scale), scale)
        shrunk = jnp.maximum(one, scale / jnp.asarray(self.scale_factor, scale.dtype))
        self.scale_value._data = jnp.where(finite, grown, shrunk).astype(scale.dtype)
        self.counter._data = ((counter + 1) % self.scale_window * finite.astype(counter.dtype)).astype(counter.dtype)
        return wrap(jnp.asarray(True))

    def _ms_state_objects(self):
        return [self.scale_value, self.counter]


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"The '{name}' must be int, but got '{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"The '{name}' must be int and must > 0, but got '{value}' with type 'int'.")
    return value


__all__ += ["DynamicLossScaler"]
