"""``nn.RMSProp`` (MindSpore's ``ApplyRMSProp`` / ``ApplyCenteredRMSProp``)::

    mean_square = decay * mean_square + (1 - decay) * g^2            (starts at ones)
    mean_grad   = decay * mean_grad + (1 - decay) * g                (centered)
    moment = momentum * moment + lr * g / sqrt(mean_square + eps)
           = momentum * moment + lr * g / sqrt(mean_square - mean_grad^2 + eps)   (centered)
    param -= moment
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from .. import _validator as validator
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["RMSProp", "rmsprop_transform"]


class RMSPropState(NamedTuple):
    ms: tuple
    moment: tuple


class CenteredRMSPropState(NamedTuple):
    mg: tuple
    ms: tuple
    moment: tuple


def rmsprop_transform(decay, momentum, epsilon, centered=False):
    d, mo, e = f32(decay), f32(momentum), f32(epsilon)

    def init(params):
        z = tuple(jnp.zeros_like(p) for p in params)
        o = tuple(jnp.ones_like(p) for p in params)
        return CenteredRMSPropState(z, o, z) if centered else RMSPropState(o, z)

    def update(grads, state, params=None, *, lr, **extra):
        ups, mgs, mss, moms = [], [], [], []
        mg_in = state.mg if centered else (None,) * len(grads)
        for g, mg, ms, mom, l in zip(grads, mg_in, state.ms, state.moment, lr):
            dt = g.dtype
            dd, one_d = d.astype(dt), (1 - d).astype(dt)
            ms = ms * dd + g * g * one_d
            if centered:
                mg = mg * dd + g * one_d
                denom = jnp.sqrt(ms - mg * mg + e.astype(dt))
                mgs.append(mg)
            else:
                denom = jnp.sqrt(ms + e.astype(dt))
            mom = mom * mo.astype(dt) + l.astype(dt) * g / denom
            mss.append(ms)
            moms.append(mom)
            ups.append(-mom)
        if centered:
            return tuple(ups), CenteredRMSPropState(tuple(mgs), tuple(mss), tuple(moms))
        return tuple(ups), RMSPropState(tuple(mss), tuple(moms))

    return transformation(init, update)


class RMSProp(Optimizer):
    """``nn.RMSProp(params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
    centered=False, loss_scale=1.0, weight_decay=0.0)``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = self.cls_name
        validator.check_value_type("decay", decay, [float], name)
        if decay < 0.0:
            raise ValueError(f"For '{name}', the argument 'decay' must be >= 0.0, but got {decay}.")
        validator.check_value_type("momentum", momentum, [float], name)
        if momentum < 0.0:
            raise ValueError(f"For '{name}', the argument 'momentum' must be >= 0.0, but got {momentum}.")
        validator.check_value_type("epsilon", epsilon, [float], name)
        validator.check_positive_float(epsilon, "epsilon", name)
        validator.check_value_type("use_locking", use_locking, [bool], name)
        validator.check_value_type("centered", centered, [bool], name)
        self.centered = centered
        if centered:
            self.mg = self._parameters.clone(prefix="mean_grad", init="zeros")
        self.momentum = momentum
        self.ms = self._parameters.clone(prefix="mean_square", init="ones")
        self.moment = self._parameters.clone(prefix="moment", init="zeros")
        self.epsilon = epsilon
        self.decay = decay
        self._bind_state(self._transform())

    def _transform(self):
        return rmsprop_transform(self.decay, self.momentum, self.epsilon, self.centered)

    @compiled
    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        self._step()
        return self._apply_transform(self._transform(), gradients, lr=self._lr_tuple(lr))
