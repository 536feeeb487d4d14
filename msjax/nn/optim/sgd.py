"""``nn.SGD``: MindSpore's ``SGD`` kernel as an optax transformation::

    if momentum > 0:
        accum = grad                                      (first step: stat == 1)
        accum = momentum * accum + (1 - dampening) * grad (later steps)
        grad  = grad + momentum * accum  (nesterov)  or  accum
    param -= lr * grad
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor
from .. import _validator as validator
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["SGD", "sgd_transform"]


class SGDState(NamedTuple):
    accum: tuple
    stat: tuple


def sgd_transform(momentum, dampening=0.0, nesterov=False):
    """MindSpore's SGD update (``momentum`` may be a traced scalar)."""

    def init(params):
        return SGDState(tuple(jnp.zeros_like(p) for p in params), tuple(jnp.ones_like(p) for p in params))

    def update(grads, state, params=None, *, lr, **extra):
        mom = f32(momentum)
        ups, accs, stats = [], [], []
        for g, a, s, l in zip(grads, state.accum, state.stat, lr):
            m = mom.astype(g.dtype)
            a_new = jnp.where(s > 0, g, a * m + jnp.asarray(1.0 - dampening, g.dtype) * g)
            g_new = g + a_new * m if nesterov else a_new
            use = m > 0
            accs.append(jnp.where(use, a_new, a))
            stats.append(jnp.where(use, jnp.zeros_like(s), s))
            ups.append(-(l.astype(g.dtype) * jnp.where(use, g_new, g)))
        return tuple(ups), SGDState(tuple(accs), tuple(stats))

    return transformation(init, update)


class SGD(Optimizer):
    """``nn.SGD(params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
    loss_scale=1.0)``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, int) and not isinstance(momentum, bool):
            momentum = float(momentum)
        if not isinstance(momentum, float):
            raise TypeError(f"For 'SGD', the argument 'momentum' must be float type, but got {type(momentum)}.")
        if momentum < 0.0:
            raise ValueError(f"For 'SGD', the argument 'momentum' must be at least 0.0, but got {momentum}.")
        if isinstance(dampening, int) and not isinstance(dampening, bool):
            dampening = float(dampening)
        if not isinstance(dampening, float):
            raise TypeError(f"For 'SGD', the argument 'dampening' must be float type, but got {type(dampening)}.")
        if dampening < 0.0:
            raise ValueError(f"For 'SGD', the argument 'dampening' must be at least 0.0, "
                             f"but got 'dampening' {dampening}")
        self.dampening = dampening
        validator.check_value_type("nesterov", nesterov, [bool], self.cls_name)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must "
                             f"equal to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}.")
        self.nesterov = nesterov
        if self.dynamic_weight_decay:
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the argument "
                            "'weight_decay' or 'weight_decay' set in grouped 'params' must be float or int type.")
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.accum = self._parameters.clone(prefix="accum", init="zeros")
        self.stat = self._parameters.clone(prefix="stat", init="ones")
        self._bind_state(sgd_transform(momentum, dampening, nesterov))

    @compiled
    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        self._step()
        tx = sgd_transform(self.momentum._data, self.dampening, self.nesterov)
        return self._apply_transform(tx, gradients, lr=self._lr_tuple(lr))
