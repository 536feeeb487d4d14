"""``nn.Lamb`` (layer-wise adaptive moments), MindSpore's documented update::

    m = beta1 * m + (1 - beta1) * g;   v = beta2 * v + (1 - beta2) * g^2
    r = (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps) + weight_decay * w
    w -= lr * (||w|| / ||r||) * r          (ratio 1 when either norm is 0)

``t`` is the step number (``global_step`` after its increment). MindSpore runs
this kernel on Ascend/GPU only; msjax runs it everywhere.
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from ..._core.tensor import Tensor
from .adam import _check_param_value
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["Lamb", "lamb_transform"]


class LambState(NamedTuple):
    moments1: tuple
    moments2: tuple


def lamb_transform(beta1, beta2, eps):
    b1, b2, e = f32(beta1), f32(beta2), f32(eps)

    def init(params):
        z = tuple(jnp.zeros_like(p) for p in params)
        return LambState(z, z)

    def update(grads, state, params, *, lr, weight_decay, step, **extra):
        t = f32(step).reshape(())
        ups, ms, vs = [], [], []
        for g, p, m, v, l, wd in zip(grads, params, state.moments1, state.moments2, lr, weight_decay):
            p32, g32 = p.astype(jnp.float32), g.astype(jnp.float32)
            m32 = b1 * m.astype(jnp.float32) + (1 - b1) * g32
            v32 = b2 * v.astype(jnp.float32) + (1 - b2) * jnp.square(g32)
            m_hat = m32 / (1 - jnp.power(b1, t))
            v_hat = v32 / (1 - jnp.power(b2, t))
            r = m_hat / (jnp.sqrt(v_hat) + e) + wd * p32
            w_norm = jnp.sqrt(jnp.sum(jnp.square(p32)))
            r_norm = jnp.sqrt(jnp.sum(jnp.square(r)))
            ratio = jnp.where((w_norm > 0) & (r_norm > 0), w_norm / jnp.where(r_norm > 0, r_norm, 1), f32(1.0))
            ups.append(-(l * ratio * r))
            ms.append(m32.astype(m.dtype))
            vs.append(v32.astype(v.dtype))
        return tuple(ups), LambState(tuple(ms), tuple(vs))

    return transformation(init, update)


class Lamb(Optimizer):
    """``nn.Lamb(params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)``."""

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(jnp.asarray([beta1], jnp.float32))
        self.beta2 = Tensor(jnp.asarray([beta2], jnp.float32))
        self.eps = Tensor(jnp.asarray([eps], jnp.float32))
        self.params = self._parameters
        self.moments1 = self.params.clone(prefix="lamb_m", init="zeros")
        self.moments2 = self.params.clone(prefix="lamb_v", init="zeros")
        self._hp = (beta1, beta2, eps)
        self._bind_state(lamb_transform(*self._hp))

    @compiled
    def construct(self, gradients):
        weight_decay = self.get_weight_decay()
        lr = self.get_lr()
        self._step()
        gradients = self.gradients_centralization(gradients)
        n = self.param_length
        wds = weight_decay if self.is_group else (weight_decay,) * n
        wd = tuple((f32(w._data if isinstance(w, Tensor) else w).reshape(()) if flag else f32(0.0))
                   for w, flag in zip(wds, self.decay_flags))
        return self._apply_transform(lamb_transform(*self._hp), gradients, lr=self._lr_tuple(lr),
                                     weight_decay=wd, step=self.global_step._data)
