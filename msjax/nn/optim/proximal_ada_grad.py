"""``nn.ProximalAdagrad`` (``ApplyProximalAdagrad``)::

    accum += g^2
    lr_t = lr / sqrt(accum)
    prox = param - lr_t * g
    param = sign(prox) / (1 + lr_t * l2) * max(|prox| - lr_t * l1, 0)
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.tensor import Tensor
from .. import _validator as validator
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["ProximalAdagrad", "proximal_adagrad_transform"]


class ProximalAdagradState(NamedTuple):
    accum: tuple


def proximal_adagrad_transform(l1, l2, initial_accum=0.1):
    l1_, l2_ = f32(l1), f32(l2)

    def init(params):
        return ProximalAdagradState(tuple(jnp.full_like(p, initial_accum) for p in params))

    def update(grads, state, params, *, lr, **extra):
        ups, accs = [], []
        for g, p, a, l in zip(grads, params, state.accum, lr):
            dt = g.dtype
            a = a + g * g
            lr_t = l.astype(dt) / jnp.sqrt(a)
            prox = p - g * lr_t
            new_p = jnp.sign(prox) / (1 + lr_t * l2_.astype(dt)) * jnp.maximum(jnp.abs(prox) - lr_t * l1_.astype(dt), 0)
            ups.append(new_p - p)
            accs.append(a)
        return tuple(ups), ProximalAdagradState(tuple(accs))

    return transformation(init, update)


def _check_param_value(accum, l1, l2, use_locking, prim_name=None):
    validator.check_value_type("accum", accum, [float], prim_name)
    validator.check_value_type("l1", l1, [float], prim_name)
    validator.check_value_type("l2", l2, [float], prim_name)
    validator.check_value_type("use_locking", use_locking, [bool], prim_name)
    validator.check_non_negative_float(accum, "accum", prim_name)
    validator.check_non_negative_float(l1, "l1", prim_name)
    validator.check_non_negative_float(l2, "l2", prim_name)


class ProximalAdagrad(Optimizer):
    """``nn.ProximalAdagrad(params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0, use_locking=False,
    loss_scale=1.0, weight_decay=0.0)``."""

    @opt_init_args_register
    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0, use_locking=False, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param_value(accum, l1, l2, use_locking, self.cls_name)
        self.accum = self._parameters.clone(prefix="accum", init=accum)
        self.l1 = Tensor(l1, mstype.float32)
        self.l2 = Tensor(l2, mstype.float32)
        self.use_locking = use_locking
        self._hp = (l1, l2, accum)
        self._bind_state(proximal_adagrad_transform(*self._hp))

    @compiled
    def construct(self, grads):
        grads = self.flatten_gradients(grads)
        grads = self.decay_weight(grads)
        grads = self.gradients_centralization(grads)
        grads = self.scale_grad(grads)
        lr = self.get_lr()
        self._step()
        return self._apply_transform(proximal_adagrad_transform(*self._hp), grads, lr=self._lr_tuple(lr))
