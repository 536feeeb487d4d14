"""``mindspore.nn.probability.distribution.Uniform``: the continuous uniform
distribution on ``[low, high]`` (density ``1 / (high - low)``).

Computed as MindSpore 2.10 computes it, so values and gradients match: the
density is ``exp(-log(high - low))`` selected to 0 outside ``[low, high]``,
``log_prob`` its log (``-inf`` outside), the cdf ``(value - low) / (high - low)``
clipped to 0 below ``low`` and 1 from ``high`` on, ``kl_loss`` ``inf`` unless
the other distribution covers this one. ``mode`` is not defined (MindSpore
raises ``NotImplementedError``). ``sample`` draws from msjax's random stream
(``ops.uniform``), so its numbers differ from MindSpore's.
"""
from __future__ import annotations

import jax.numpy as jnp

from ...._core import dtype as mstype
from ...._core.tensor import Tensor, to_array, wrap
from ....ops import composite as C
from .distribution import (Distribution, check_distribution_name, check_greater, check_tensor, check_tuple,
                           log_generic)

__all__ = ["Uniform"]


def _check_type_name(arg_name, arg_type, valid_types, prim_name):
    if arg_type not in valid_types:
        names = [getattr(t, "__name__", t) for t in valid_types]
        raise TypeError(f"For '{prim_name}', the '{arg_name}' should be {'one of ' if len(names) > 1 else ''}"
                        f"{names if len(names) > 1 else names[0]}, but got '{arg_type!r}'.")


class Uniform(Distribution):
    """``Uniform(low=None, high=None, seed=None, dtype=mindspore.float32, name='Uniform')``:
    ``low < high`` everywhere; ``dtype`` (the samples' type) must be a float type."""

    def __init__(self, low=None, high=None, seed=None, dtype=mstype.float32, name="Uniform"):
        param = dict(locals())
        param["param_dict"] = {"low": low, "high": high}
        _check_type_name("dtype", dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._low = self._add_parameter(low, "low")
        self._high = self._add_parameter(high, "high")
        if self._low is not None and self._high is not None:
            check_greater(self._low, self._high, "low", "high")

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"low = {self.low}, high = {self.high}"
        return f"batch_shape = {self._broadcast_shape}"

    @property
    def low(self):
        """The lower bound (a Tensor of ``parameter_type``), or None."""
        return self._low

    @property
    def high(self):
        """The upper bound (a Tensor of ``parameter_type``), or None."""
        return self._high

    def _get_dist_type(self):
        return "Uniform"

    def _get_dist_args(self, low=None, high=None):
        low = self.low if low is None else check_tensor(low, "low")
        high = self.high if high is None else check_tensor(high, "high")
        return low, high

    def _bounds(self, low, high):
        low, high = self._check_param_type(low, high)
        return to_array(low), to_array(high)

    def _value(self, value):
        return to_array(check_tensor(value, "value")).astype(mstype.to_np(self.dtype))

    def _range(self, low=None, high=None):
        lo, hi = self._bounds(low, high)
        return wrap(hi - lo)

    def _mean(self, low=None, high=None):
        lo, hi = self._bounds(low, high)
        return wrap((lo + hi) / 2.0)

    def _var(self, low=None, high=None):
        lo, hi = self._bounds(low, high)
        return wrap(jnp.square(hi - lo) / 12.0)

    def _entropy(self, low=None, high=None):
        lo, hi = self._bounds(low, high)
        return log_generic(hi - lo)

    def _cross_entropy(self, dist, low_b, high_b, low=None, high=None):
        check_distribution_name(dist, "Uniform")
        return wrap(to_array(self._entropy(low, high)) + to_array(self._kl_loss(dist, low_b, high_b, low, high)))

    def _prob(self, value, low=None, high=None):
        x = self._value(value)
        lo, hi = self._bounds(low, high)
        density = jnp.exp(-jnp.ones(x.shape, x.dtype) * to_array(log_generic(hi - lo)))
        zero = jnp.zeros(density.shape, density.dtype)
        inside = jnp.where(x < lo, zero, density)
        return wrap(jnp.where(x <= hi, inside, zero))

    def _kl_loss(self, dist, low_b, high_b, low=None, high=None):
        check_distribution_name(dist, "Uniform")
        ptype = mstype.to_np(self.parameter_type)
        lb = to_array(check_tensor(low_b, "low_b")).astype(ptype)
        hb = to_array(check_tensor(high_b, "high_b")).astype(ptype)
        la, ha = self._bounds(low, high)
        kl = to_array(log_generic(hb - lb)) - to_array(log_generic(ha - la))
        covered = jnp.logical_and(lb <= la, ha <= hb)
        return wrap(jnp.where(covered, kl, jnp.full(kl.shape, jnp.inf, kl.dtype)))

    def _cdf(self, value, low=None, high=None):
        x = self._value(value)
        lo, hi = self._bounds(low, high)
        frac = (x - lo) / (hi - lo)
        below = jnp.where(x < lo, jnp.zeros(frac.shape, frac.dtype), frac)
        return wrap(jnp.where(x < hi, below, jnp.ones(frac.shape, frac.dtype)))

    def _sample(self, shape=(), low=None, high=None):
        shape = check_tuple(shape, "shape")
        lo, hi = self._bounds(low, high)
        full = tuple(shape) + tuple((lo + hi).shape)
        u = C.uniform(full or (1,), Tensor(0.0, mstype.float32), Tensor(1.0, mstype.float32), self.seed)
        out = ((hi - lo) * to_array(u) + lo).astype(mstype.to_np(self.dtype))
        return wrap(out.reshape(full))
