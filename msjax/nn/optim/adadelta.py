"""``nn.Adadelta`` (``ApplyAdadelta``)::

    accum = rho * accum + (1 - rho) * g^2
    update = sqrt(accum_update + eps) / sqrt(accum + eps) * g
    accum_update = rho * accum_update + (1 - rho) * update^2
    param -= lr * update
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from ..._core.tensor import Tensor
from .. import _validator as validator
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["Adadelta", "adadelta_transform"]


class AdadeltaState(NamedTuple):
    accum: tuple
    accum_update: tuple


def adadelta_transform(rho, epsilon):
    r, e = f32(rho), f32(epsilon)

    def init(params):
        z = tuple(jnp.zeros_like(p) for p in params)
        return AdadeltaState(z, z)

    def update(grads, state, params=None, *, lr, **extra):
        ups, accs, aus = [], [], []
        for g, a, au, l in zip(grads, state.accum, state.accum_update, lr):
            dt = g.dtype
            rr, one_r, ee = r.astype(dt), (1 - r).astype(dt), e.astype(dt)
            a = a * rr + g * g * one_r
            upd = jnp.sqrt(au + ee) / jnp.sqrt(a + ee) * g
            au = au * rr + upd * upd * one_r
            ups.append(-(l.astype(dt) * upd))
            accs.append(a)
            aus.append(au)
        return tuple(ups), AdadeltaState(tuple(accs), tuple(aus))

    return transformation(init, update)


def _check_param_value(rho, epsilon, prim_name=None):
    validator.check_value_type("rho", rho, [float], prim_name)
    validator.check_value_type("epsilon", epsilon, [float], prim_name)
    validator.check_float_range(rho, 0.0, 1.0, "rho", prim_name, inc_left=True, inc_right=True)
    validator.check_non_negative_float(epsilon, "epsilon", prim_name)


class Adadelta(Optimizer):
    """``nn.Adadelta(params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0, weight_decay=0.0)``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param_value(rho, epsilon, self.cls_name)
        self.accum = self.parameters.clone(prefix="accum", init=0)
        self.accum_update = self.parameters.clone(prefix="accum_update", init=0)
        self.rho = rho
        self.epsilon = epsilon
        self._bind_state(adadelta_transform(rho, epsilon))

    @compiled
    def construct(self, grads):
        if not isinstance(grads, tuple) or not isinstance(grads[0], Tensor):
            raise TypeError("For 'Adadelta', the 'grads' must be a tuple of Tensor.")
        grads = self.decay_weight(grads)
        grads = self.gradients_centralization(grads)
        grads = self.scale_grad(grads)
        lr = self.get_lr()
        self._step()
        return self._apply_transform(adadelta_transform(self.rho, self.epsilon), grads, lr=self._lr_tuple(lr))
