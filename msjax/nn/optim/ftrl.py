"""``nn.FTRL`` (``ApplyFtrl``)::

    accum_new = accum + g^2
    linear += g - (accum_new^(-lr_power) - accum^(-lr_power)) / lr * param
    param = (sign(linear) * l1 - linear) / (accum_new^(-lr_power) / lr + 2 * l2)   if |linear| > l1 else 0
    accum = accum_new
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from .. import _validator as validator
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["FTRL", "ftrl_transform"]


class FTRLState(NamedTuple):
    moments: tuple
    linear: tuple


def ftrl_transform(l1, l2, lr_power, initial_accum=0.1):
    l1_, l2_, lp = f32(l1), f32(l2), f32(lr_power)

    def init(params):
        return FTRLState(tuple(jnp.full_like(p, initial_accum) for p in params),
                         tuple(jnp.zeros_like(p) for p in params))

    def update(grads, state, params, *, lr, **extra):
        ups, accs, lins = [], [], []
        for g, p, a, lin, l in zip(grads, params, state.moments, state.linear, lr):
            dt = g.dtype
            ll, l1d, l2d, neg_lp = l.astype(dt), l1_.astype(dt), l2_.astype(dt), (-lp).astype(dt)
            a_new = a + g * g
            a_pow, a_new_pow = jnp.power(a, neg_lp), jnp.power(a_new, neg_lp)
            lin = lin + g - (a_new_pow - a_pow) / ll * p
            quad = a_new_pow / ll + 2 * l2d
            new_p = jnp.where(jnp.abs(lin) > l1d, (jnp.sign(lin) * l1d - lin) / quad, jnp.zeros_like(p))
            ups.append(new_p - p)
            accs.append(a_new)
            lins.append(lin)
        return tuple(ups), FTRLState(tuple(accs), tuple(lins))

    return transformation(init, update)


def _check_param(initial_accum, learning_rate, lr_power, l1, l2, use_locking, prim_name=None):
    validator.check_value_type("initial_accum", initial_accum, [float], prim_name)
    validator.check_non_negative_float(initial_accum, "initial_accum", prim_name)
    validator.check_value_type("learning_rate", learning_rate, [float], prim_name)
    validator.check_positive_float(learning_rate, "learning_rate", prim_name)
    validator.check_value_type("lr_power", lr_power, [float], prim_name)
    if lr_power > 0.0:
        raise ValueError(f"For '{prim_name}', the argument 'lr_power' must <= 0.0, but got {lr_power}.")
    validator.check_value_type("l1", l1, [float], prim_name)
    validator.check_non_negative_float(l1, "l1", prim_name)
    validator.check_value_type("l2", l2, [float], prim_name)
    validator.check_non_negative_float(l2, "l2", prim_name)
    validator.check_value_type("use_locking", use_locking, [bool], prim_name)


class FTRL(Optimizer):
    """``nn.FTRL(params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0, l2=0.0,
    use_locking=False, loss_scale=1.0, weight_decay=0.0)`` (fixed learning rate only, as in MindSpore)."""

    @opt_init_args_register
    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale=loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError("For 'FTRL', dynamic learning rate and group learning rate are currently not "
                             "supported in FTRL, they should all be false, but got dynamic learning rate "
                             f"{self.dynamic_lr} and group learning rate {self.is_group_lr}.")
        _check_param(initial_accum, learning_rate, lr_power, l1, l2, use_locking, self.cls_name)
        self.moments = self._parameters.clone(prefix="moments", init=initial_accum)
        self.linear = self._parameters.clone(prefix="linear", init="zeros")
        self.l1 = l1
        self.l2 = l2
        self.lr = learning_rate
        self.lr_power = lr_power
        self._initial_accum = initial_accum
        if not self.is_group:
            self.decay_flags = tuple(True for _ in self._parameters)
        self.use_locking = use_locking
        self._bind_state(ftrl_transform(l1, l2, lr_power, initial_accum))

    @compiled
    def construct(self, grads):
        grads = self.flatten_gradients(grads)
        grads = self.decay_weight(grads)
        grads = self.gradients_centralization(grads)
        grads = self.scale_grad(grads)
        lr = self.get_lr()
        self._step()
        tx = ftrl_transform(self.l1, self.l2, self.lr_power, self._initial_accum)
        return self._apply_transform(tx, grads, lr=self._lr_tuple(lr))
