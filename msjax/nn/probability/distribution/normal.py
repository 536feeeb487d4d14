"""``mindspore.nn.probability.distribution.Normal``: the normal distribution
``N(mean, sd**2)``.

Computed with MindSpore 2.10's formulas, so values and gradients match: ``log_prob`` is
``-0.5 * ((x - mean) / sd)**2 + (-0.5 * log(2 pi) - log(sd))``, the cdf
``0.5 * (1 + erf((x - mean) / (sd * sqrt(2))))`` (``prob``, ``survival_function``,
``log_cdf``, ``log_survival`` from them, as the ``Distribution`` base does), the entropy
``log(sqrt(2 pi e)) + log(sd)``, ``kl_loss`` ``0.5 (mean_a/sd_b - mean_b/sd_b)**2 +
0.5 expm1(2 d) - d`` with ``d = log(sd_a) - log(sd_b)``. ``sample`` draws from msjax's
random stream (``ops.normal``), so its numbers differ from MindSpore's.
"""
from __future__ import annotations

import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np

from ...._core import dtype as mstype
from ...._core.tensor import Tensor, to_array, wrap
from ....ops import composite as C
from .distribution import Distribution, check_distribution_name, check_tensor, check_tuple, log_generic
from .uniform import _check_type_name

__all__ = ["Normal"]


def _check_greater_zero(value, name):
    """MindSpore's ``check_greater_zero`` (a Parameter is not checked: its value may change)."""
    from ...._core.parameter import Parameter
    if isinstance(value, Parameter):
        return
    if not np.all(np.less(0, value.asnumpy())):
        raise ValueError(f"{name} must be greater than zero.")


class Normal(Distribution):
    """``Normal(mean=None, sd=None, seed=None, dtype=mindspore.float32, name='Normal')``:
    ``sd > 0`` everywhere; ``dtype`` (the samples' type) must be a float type."""

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="Normal"):
        param = dict(locals())
        param["param_dict"] = {"mean": mean, "sd": sd}
        _check_type_name("dtype", dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._mean_value = self._add_parameter(mean, "mean")
        self._sd_value = self._add_parameter(sd, "sd")
        if self._sd_value is not None:
            _check_greater_zero(self._sd_value, "Standard deviation")

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"mean = {self._mean_value}, standard deviation = {self._sd_value}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self):
        return "Normal"

    def _get_dist_args(self, mean=None, sd=None):
        mean = self._mean_value if mean is None else check_tensor(mean, "mean")
        sd = self._sd_value if sd is None else check_tensor(sd, "sd")
        return mean, sd

    def _params(self, mean, sd):
        mean, sd = self._check_param_type(mean, sd)
        return to_array(mean), to_array(sd)

    def _value(self, value):
        return to_array(check_tensor(value, "value")).astype(mstype.to_np(self.dtype))

    def _mean(self, mean=None, sd=None):
        return wrap(self._params(mean, sd)[0])

    _mode = _mean

    def _sd(self, mean=None, sd=None):
        return wrap(self._params(mean, sd)[1])

    def _entropy(self, mean=None, sd=None):
        _, s = self._params(mean, sd)
        return wrap(float(np.log(np.sqrt(np.float32(np.e * 2.0 * np.pi)))) + to_array(log_generic(s)))

    def _cross_entropy(self, dist, mean_b, sd_b, mean=None, sd=None):
        check_distribution_name(dist, "Normal")
        return wrap(to_array(self._entropy(mean, sd)) + to_array(self._kl_loss(dist, mean_b, sd_b, mean, sd)))

    def _log_prob(self, value, mean=None, sd=None):
        x = self._value(value)
        m, s = self._params(mean, sd)
        coff = jnp.asarray(-0.5 * np.log(2.0 * np.pi), mstype.to_np(self.dtype))
        return wrap(-0.5 * jnp.square((x - m) / s) + (coff - to_array(log_generic(s))))

    def _cdf(self, value, mean=None, sd=None):
        x = self._value(value)
        m, s = self._params(mean, sd)
        adjusted = (x - m) / (s * float(np.sqrt(np.float32(2.0))))
        return wrap(0.5 * (1.0 + jsp.erf(adjusted)))

    def _kl_loss(self, dist, mean_b, sd_b, mean=None, sd=None):
        check_distribution_name(dist, "Normal")
        ptype = mstype.to_np(self.parameter_type)
        mb = to_array(check_tensor(mean_b, "mean_b")).astype(ptype)
        sb = to_array(check_tensor(sd_b, "sd_b")).astype(ptype)
        ma, sa = self._params(mean, sd)
        diff_log_scale = to_array(log_generic(sa)) - to_array(log_generic(sb))
        squared_diff = jnp.square(ma / sb - mb / sb)
        return wrap(0.5 * squared_diff + 0.5 * jnp.expm1(2 * diff_log_scale) - diff_log_scale)

    def _sample(self, shape=(), mean=None, sd=None):
        shape = check_tuple(shape, "shape")
        m, s = self._params(mean, sd)
        origin = tuple(shape) + tuple((m + s).shape)
        draw = C.normal(origin or (1,), Tensor(m), Tensor(s), self.seed)
        out = to_array(draw).astype(mstype.to_np(self.dtype))
        return wrap(out.reshape(origin))

