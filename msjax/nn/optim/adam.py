"""``nn.Adam``, ``nn.AdamWeightDecay``, ``nn.AdamOffload`` as optax transformations
with MindSpore's kernels' formulas.

Adam (``P.Adam``; ``beta*_power`` are multiplied by ``beta*`` first)::

    lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
    m += (g - m) * (1 - beta1);   v += (g * g - v) * (1 - beta2)
    param -= lr_t * m / (sqrt(v) + eps)                                 (use_nesterov=False)
    param -= lr_t * (beta1 * m + (1 - beta1) * g) / (sqrt(v) + eps)     (use_nesterov=True)

with ``use_amsgrad`` (``ApplyAdamWithAmsgradV2``): ``vhat = max(vhat, v)`` replaces
``v`` in the denominator.

AdamWeightDecay (decoupled decay, no bias correction)::

    m = beta1 * m + (1 - beta1) * g;   v = beta2 * v + (1 - beta2) * g * g
    param -= lr * (m / (sqrt(v) + eps) + weight_decay * param)
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor
from .. import _validator as validator
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["Adam", "AdamWeightDecay", "AdamOffload", "adam_transform", "adam_weight_decay_transform"]


class AdamState(NamedTuple):
    beta1_power: object
    beta2_power: object
    moment1: tuple
    moment2: tuple


class AdamAmsgradState(NamedTuple):
    beta1_power: object
    beta2_power: object
    moment1: tuple
    moment2: tuple
    vhat: tuple


def adam_transform(beta1, beta2, eps, use_nesterov=False, use_amsgrad=False, power_shape=()):
    b1, b2, e = f32(beta1), f32(beta2), f32(eps)

    def init(params):
        z = tuple(jnp.zeros_like(p) for p in params)
        one = jnp.ones(power_shape, jnp.float32)
        if use_amsgrad:
            return AdamAmsgradState(one, one, z, z, z)
        return AdamState(one, one, z, z)

    def update(grads, state, params=None, *, lr, **extra):
        b1p = state.beta1_power * b1
        b2p = state.beta2_power * b2
        ups, ms, vs, vh = [], [], [], []
        vhats = state.vhat if use_amsgrad else (None,) * len(grads)
        for g, m, v, vhat, l in zip(grads, state.moment1, state.moment2, vhats, lr):
            dt = g.dtype
            lr_t = (l * jnp.sqrt(1 - b2p) / (1 - b1p)).reshape(()).astype(dt)
            if use_amsgrad:
                m = b1.astype(dt) * m + (1 - b1).astype(dt) * g
                v = b2.astype(dt) * v + (1 - b2).astype(dt) * g * g
                vhat = jnp.maximum(vhat, v)
                u = lr_t * m / (jnp.sqrt(vhat) + e.astype(dt))
                vh.append(vhat)
            else:
                m = m + (g - m) * (1 - b1).astype(dt)
                v = v + (g * g - v) * (1 - b2).astype(dt)
                num = m * b1.astype(dt) + (1 - b1).astype(dt) * g if use_nesterov else m
                u = lr_t * num / (jnp.sqrt(v) + e.astype(dt))
            ms.append(m)
            vs.append(v)
            ups.append(-u)
        b1p = b1p.reshape(state.beta1_power.shape)
        b2p = b2p.reshape(state.beta2_power.shape)
        if use_amsgrad:
            return tuple(ups), AdamAmsgradState(b1p, b2p, tuple(ms), tuple(vs), tuple(vh))
        return tuple(ups), AdamState(b1p, b2p, tuple(ms), tuple(vs))

    return transformation(init, update)


class AdamWState(NamedTuple):
    moments1: tuple
    moments2: tuple


def adam_weight_decay_transform(beta1, beta2, eps):
    b1, b2, e = f32(beta1), f32(beta2), f32(eps)

    def init(params):
        z = tuple(jnp.zeros_like(p) for p in params)
        return AdamWState(z, z)

    def update(grads, state, params, *, lr, weight_decay, **extra):
        ups, ms, vs = [], [], []
        for g, p, m, v, l, wd in zip(grads, params, state.moments1, state.moments2, lr, weight_decay):
            p32, g32 = p.astype(jnp.float32), g.astype(jnp.float32)
            m32 = b1 * m.astype(jnp.float32) + (1 - b1) * g32
            v32 = b2 * v.astype(jnp.float32) + (1 - b2) * jnp.square(g32)
            u = m32 / (e + jnp.sqrt(v32))
            u = wd * p32 + u
            ups.append(-(l * u))
            ms.append(m32.astype(m.dtype))
            vs.append(v32.astype(v.dtype))
        return tuple(ups), AdamWState(tuple(ms), tuple(vs))

    return transformation(init, update)


def _check_param_value(beta1, beta2, eps, prim_name):
    validator.check_value_type("beta1", beta1, [float], prim_name)
    validator.check_value_type("beta2", beta2, [float], prim_name)
    validator.check_value_type("eps", eps, [float], prim_name)
    validator.check_float_range(beta1, 0.0, 1.0, "beta1", prim_name)
    validator.check_float_range(beta2, 0.0, 1.0, "beta2", prim_name)
    validator.check_positive_float(eps, "eps", prim_name)


class Adam(Optimizer):
    """``nn.Adam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
    use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False, **kwargs)``."""

    _power_shape = ()

    @opt_init_args_register
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        valid_keys = {"use_lazy", "use_offload"}
        if set(kwargs.keys()) - valid_keys:
            raise KeyError("For 'Adam', invalid keys are passed as kwargs, supported keys are 'use_lazy' and"
                           f"'use_offload', but got {kwargs.keys()}.")
        use_lazy = kwargs.get("use_lazy", False)
        use_offload = kwargs.get("use_offload", False)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        for name, v in (("use_locking", use_locking), ("use_nesterov", use_nesterov),
                        ("use_amsgrad", use_amsgrad), ("use_lazy", use_lazy), ("use_offload", use_offload)):
            validator.check_value_type(name, v, [bool], self.cls_name)
        if use_lazy and use_offload:
            raise ValueError("For 'Adam', 'use_lazy' and 'use_offload' can not both be True."
                             f"But got use_lazy={use_lazy}, use_offload={use_offload}.")
        if use_amsgrad and (use_lazy or use_offload):
            raise ValueError("For lazy Adam and Adam with offload, there is no parameter named 'use_amsgrad'."
                             f"but got 'use_amsgrad'={use_amsgrad}.")
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(Tensor(jnp.ones(self._power_shape, jnp.float32)), name="beta1_power")
        self.beta2_power = Parameter(Tensor(jnp.ones(self._power_shape, jnp.float32)), name="beta2_power")
        self.eps = Tensor(eps, mstype.float32)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.use_amsgrad = use_amsgrad
        self.use_lazy = use_lazy
        self.use_offload = use_offload
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")
        if use_amsgrad:
            self.vhat = self._parameters.clone(prefix="vhat", init="zeros")
        self._hp = (beta1, beta2, eps)
        self._bind_state(self._transform())

    def _transform(self):
        beta1, beta2, eps = self._hp
        return adam_transform(beta1, beta2, eps, self.use_nesterov, self.use_amsgrad, self._power_shape)

    @compiled
    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        if not self.use_offload:
            gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        gradients = self._grad_sparse_indices_deduplicate(gradients)
        lr = self.get_lr()
        self._step()
        return self._apply_transform(self._transform(), gradients, lr=self._lr_tuple(lr))


class AdamOffload(Adam):
    """``nn.AdamOffload`` (deprecated in MindSpore: Adam with the update computed on
    the host). msjax computes it like ``nn.Adam``, on the device."""

    _power_shape = (1,)

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)


class AdamWeightDecay(Optimizer):
    """``nn.AdamWeightDecay(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)``:
    Adam with decoupled weight decay (applied to parameters without 'beta'/'gamma' in their names)."""

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(jnp.asarray([beta1], jnp.float32))
        self.beta2 = Tensor(jnp.asarray([beta2], jnp.float32))
        self.eps = Tensor(jnp.asarray([eps], jnp.float32))
        self.moments1 = self._parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self._parameters.clone(prefix="adam_v", init="zeros")
        self._hp = (beta1, beta2, eps)
        self._bind_state(adam_weight_decay_transform(*self._hp))

    @compiled
    def construct(self, gradients):
        weight_decay = self.get_weight_decay()
        lr = self.get_lr()
        self._step()
        n = self.param_length
        wds = weight_decay if self.is_group else (weight_decay,) * n
        wd = tuple((f32(w._data if isinstance(w, Tensor) else w).reshape(()) if flag else f32(0.0))
                   for w, flag in zip(wds, self.decay_flags))
        return self._apply_transform(adam_weight_decay_transform(*self._hp), gradients,
                                     lr=self._lr_tuple(lr), weight_decay=wd)
