"""``nn.Adagrad`` (``ApplyAdagrad``)::

    accum += g^2                      (update_slots=True)
    param -= lr * g / sqrt(accum)
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from .. import _validator as validator
from .optimizer import Optimizer, compiled, opt_init_args_register, transformation

__all__ = ["Adagrad", "adagrad_transform"]


class AdagradState(NamedTuple):
    accum: tuple


def adagrad_transform(initial_accum=0.1, update_slots=True):
    def init(params):
        return AdagradState(tuple(jnp.full_like(p, initial_accum) for p in params))

    def update(grads, state, params=None, *, lr, **extra):
        ups, accs = [], []
        for g, a, l in zip(grads, state.accum, lr):
            if update_slots:
                a = a + g * g
            ups.append(-(l.astype(g.dtype) * g / jnp.sqrt(a)))
            accs.append(a)
        return tuple(ups), AdagradState(tuple(accs))

    return transformation(init, update)


def _check_param_value(accum, update_slots, prim_name=None):
    validator.check_value_type("accum", accum, [float], prim_name)
    validator.check_value_type("update_slots", update_slots, [bool], prim_name)
    validator.check_non_negative_float(accum, "accum", prim_name)


class Adagrad(Optimizer):
    """``nn.Adagrad(params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0, weight_decay=0.0)``."""

    @opt_init_args_register
    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param_value(accum, update_slots, self.cls_name)
        self.accum = self._parameters.clone(prefix="accum", init=accum)
        self.update_slots = update_slots
        self._initial_accum = accum
        self._bind_state(adagrad_transform(accum, update_slots))

    @compiled
    def construct(self, grads):
        grads = self.flatten_gradients(grads)
        grads = self.decay_weight(grads)
        grads = self.gradients_centralization(grads)
        grads = self.scale_grad(grads)
        lr = self.get_lr()
        self._step()
        return self._apply_transform(adagrad_transform(self._initial_accum, self.update_slots), grads,
                                     lr=self._lr_tuple(lr))
