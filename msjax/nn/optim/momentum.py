"""``nn.Momentum``: MindSpore's ``ApplyMomentum``::

    moments = moments * momentum + grad
    param  -= moments * lr                          (use_nesterov=False)
    param  -= lr * (grad + momentum * moments)      (use_nesterov=True, ``optax.trace``)

Without Nesterov each product is rounded before its sum, as MindSpore's CPU kernel computes it
(XLA:CPU would fuse them into multiply-adds: a LeNet5's weights after the first step differed in
the last bit), so the update is MindSpore's bit for bit.
"""
from __future__ import annotations

import jax.numpy as jnp
import optax

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor
from ...ops._impl._util import rounded
from .. import _validator as validator
from .optimizer import Optimizer, compiled, opt_init_args_register, scale_by_lr, transformation

__all__ = ["Momentum"]


class Momentum(Optimizer):
    """``nn.Momentum(params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False)``."""

    _state_alias = {"trace": "moments"}

    @opt_init_args_register
    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_value_type("momentum", momentum, [float], self.cls_name)
        if momentum < 0.0:
            raise ValueError(f"For 'Momentum', the argument 'momentum' must be at least 0.0, but got {momentum}")
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.params = self._parameters
        self.use_nesterov = validator.check_bool(use_nesterov, "use_nesterov", self.cls_name)
        self.moments = self.params.clone(prefix="moments", init="zeros")
        self._bind_state(self._transform(momentum))

    def _transform(self, momentum):
        if self.use_nesterov:
            return optax.chain(optax.trace(decay=momentum, nesterov=True), scale_by_lr())
        return _apply_momentum(momentum)

    @compiled
    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        self._step()
        return self._apply_transform(self._transform(self.momentum._data), gradients, lr=self._lr_tuple(lr))


def _apply_momentum(momentum):
    """``moments = moments * momentum + grad``; the update ``-(moments * lr)``: each product rounded
    before its sum (the state is optax's ``TraceState``, bound to ``moments``)."""

    def init(params):
        return optax.TraceState(trace=tuple(jnp.zeros_like(p) for p in params))

    def update(grads, state, params=None, *, lr, **extra):
        moments = tuple(rounded(t * jnp.asarray(momentum, t.dtype)) + g for g, t in zip(grads, state.trace))
        updates = tuple(-rounded(m * l.astype(m.dtype)) for m, l in zip(moments, lr))
        return updates, optax.TraceState(trace=moments)

    return transformation(init, update)
