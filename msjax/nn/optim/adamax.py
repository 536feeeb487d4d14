"""``nn.AdaMax`` (``ApplyAdaMax``; ``beta1_power`` is multiplied by ``beta1`` first)::

    m = beta1 * m + (1 - beta1) * g
    v = max(beta2 * v, |g|)
    param -= lr / (1 - beta1_power) * m / (v + eps)
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor
from .adam import _check_param_value
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["AdaMax", "adamax_transform"]


class AdaMaxState(NamedTuple):
    beta1_power: object
    moment1: tuple
    moment2: tuple


def adamax_transform(beta1, beta2, eps):
    b1, b2, e = f32(beta1), f32(beta2), f32(eps)

    def init(params):
        z = tuple(jnp.zeros_like(p) for p in params)
        return AdaMaxState(jnp.ones((1,), jnp.float32), z, z)

    def update(grads, state, params=None, *, lr, **extra):
        b1p = state.beta1_power * b1
        ups, ms, vs = [], [], []
        for g, m, v, l in zip(grads, state.moment1, state.moment2, lr):
            dt = g.dtype
            m = b1.astype(dt) * m + (1 - b1).astype(dt) * g
            v = jnp.maximum(b2.astype(dt) * v, jnp.abs(g))
            ups.append(-((l / (1 - b1p.reshape(()))).astype(dt) * m / (v + e.astype(dt))))
            ms.append(m)
            vs.append(v)
        return tuple(ups), AdaMaxState(b1p, tuple(ms), tuple(vs))

    return transformation(init, update)


class AdaMax(Optimizer):
    """``nn.AdaMax(params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0,
    loss_scale=1.0)``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(Tensor(jnp.ones((1,), jnp.float32)), name="beta1_power")
        self.eps = Tensor(eps, mstype.float32)
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")
        self._hp = (beta1, beta2, eps)
        self._bind_state(adamax_transform(*self._hp))

    @compiled
    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        self._step()
        return self._apply_transform(adamax_transform(*self._hp), gradients, lr=self._lr_tuple(lr))
