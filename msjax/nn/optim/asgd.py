"""``nn.ASGD`` (averaged SGD), MindSpore's formulas::

    eta = lr                                         (first step)
    param = param * (1 - lambd * eta) - eta * grad
    ax = ax + (param - ax) * mu   if mu != 1   else param
    eta = lr / (1 + lambd * lr * step) ** alpha
    mu = 1 / max(1, step - t0)
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter, ParameterTuple
from ..._core.tensor import Tensor
from .. import _validator as validator
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["ASGD", "asgd_transform"]


class ASGDState(NamedTuple):
    mu: tuple
    eta: tuple
    ax: tuple


def asgd_transform(lambd, alpha, t0):
    lam, al, t0_ = f32(lambd), f32(alpha), f32(t0)

    def init(params):
        return ASGDState(tuple(jnp.ones((), jnp.float32) for _ in params),
                         tuple(jnp.zeros((), jnp.float32) for _ in params),
                         tuple(jnp.zeros_like(p) for p in params))

    def update(grads, state, params, *, lr, step, **extra):
        step = f32(step).reshape(())
        ups, mus, etas, axs = [], [], [], []
        for g, p, mu, eta, ax, l in zip(grads, params, state.mu, state.eta, state.ax, lr):
            eta = jnp.where(step == 1, l, eta)
            p32, g32, ax32 = p.astype(jnp.float32), g.astype(jnp.float32), ax.astype(jnp.float32)
            new_p32 = p32 * (1.0 - lam * eta) - eta * g32
            new_p = new_p32.astype(p.dtype)
            ax = jnp.where(mu != 1, ax + ((new_p32 - ax32) * mu).astype(ax.dtype), new_p.astype(ax.dtype))
            etas.append(l / jnp.power(1.0 + lam * l * step, al))
            mus.append(1.0 / jnp.maximum(f32(1.0), step - t0_))
            axs.append(ax)
            ups.append(new_p32 - p32)
        return tuple(ups), ASGDState(tuple(mus), tuple(etas), tuple(axs))

    return transformation(init, update)


class ASGD(Optimizer):
    """``nn.ASGD(params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0)``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        name = self.cls_name
        validator.check_value_type("lambd", lambd, [float], name)
        validator.check_value_type("alpha", alpha, [float], name)
        validator.check_value_type("t0", t0, [float], name)
        self.lambd = lambd
        self.alpha = alpha
        self.t0 = Tensor([t0], dtype=mstype.float32)
        self._hp = (lambd, alpha, t0)
        self.mu = ParameterTuple([Parameter(Tensor(1.0, mstype.float32), name="mu_" + p.name)
                                  for p in self._parameters])
        self.eta = ParameterTuple([Parameter(Tensor(0.0, mstype.float32), name="eta_" + p.name)
                                   for p in self._parameters])
        self.lens = len(self._parameters)
        self.ax = self._parameters.clone(prefix="ax_", init="zeros")
        self._bind_state(asgd_transform(*self._hp))

    @compiled
    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lrs = self.get_lr()
        self._step()
        return self._apply_transform(asgd_transform(*self._hp), gradients, lr=self._lr_tuple(lrs),
                                     step=self.global_step._data)
