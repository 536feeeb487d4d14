"""``nn.LazyAdam``: with dense gradients (msjax has no sparse gradients) the update
is ``nn.Adam``'s (``P.Adam``); ``beta1_power``/``beta2_power`` have shape (1,)."""
from __future__ import annotations

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor
from .. import _validator as validator
from .adam import adam_transform
from .optimizer import Optimizer, compiled, opt_init_args_register

__all__ = ["LazyAdam"]


def _check_param_value(beta1, beta2, eps, weight_decay, prim_name):
    validator.check_value_type("beta1", beta1, [float], prim_name)
    validator.check_value_type("beta2", beta2, [float], prim_name)
    validator.check_value_type("eps", eps, [float], prim_name)
    validator.check_value_type("weight_dacay", weight_decay, [float], prim_name)
    validator.check_float_range(beta1, 0.0, 1.0, "beta1", prim_name)
    validator.check_float_range(beta2, 0.0, 1.0, "beta2", prim_name)
    validator.check_positive_float(eps, "eps", prim_name)
    validator.check_non_negative_float(weight_decay, "weight_decay", prim_name)


class LazyAdam(Optimizer):
    """``nn.LazyAdam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
    use_nesterov=False, weight_decay=0.0, loss_scale=1.0)``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param_value(beta1, beta2, eps, weight_decay, self.cls_name)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(Tensor(jnp.ones((1,), jnp.float32)), name="beta1_power")
        self.beta2_power = Parameter(Tensor(jnp.ones((1,), jnp.float32)), name="beta2_power")
        self.eps = Tensor(eps, mstype.float32)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")
        self._hp = (beta1, beta2, eps)
        self._bind_state(self._transform())

    def _transform(self):
        return adam_transform(*self._hp, use_nesterov=self.use_nesterov, power_shape=(1,))

    @compiled
    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        self._step()
        return self._apply_transform(self._transform(), gradients, lr=self._lr_tuple(lr))
