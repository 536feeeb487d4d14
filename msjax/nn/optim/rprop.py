"""``nn.Rprop`` (resilient backpropagation), MindSpore's formulas::

    step_size = lr                                            (first step)
    s = sign(grad * prev) mapped to etaplus (>0), etaminus (<0), 1 (=0)
    step_size = clip(step_size * s, step_size_min, step_size_max)
    grad = 0 where s == etaminus
    param -= sign(grad) * step_size;   prev = grad
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from .. import _validator as validator
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["Rprop", "rprop_transform"]


class RpropState(NamedTuple):
    prev: tuple
    step_size: tuple


def rprop_transform(etaminus, etaplus, step_size_min, step_size_max):
    def init(params):
        z = tuple(jnp.zeros_like(p) for p in params)
        return RpropState(z, z)

    def update(grads, state, params, *, lr, step, **extra):
        first = f32(step).reshape(()) == 1
        ups, prevs, sizes = [], [], []
        for g, p, prev, size, l in zip(grads, params, state.prev, state.step_size, lr):
            cdt = p.dtype if p.dtype in (jnp.float16, jnp.bfloat16) else jnp.float32
            size_c = jnp.where(first, jnp.ones_like(size).astype(cdt) * l.astype(cdt), size.astype(cdt))
            g_c, p_c, prev_c = g.astype(cdt), p.astype(cdt), prev.astype(cdt)
            s = jnp.sign(g_c * prev_c)
            s = jnp.where(s > 0, jnp.asarray(etaplus, cdt), s)
            s = jnp.where(s < 0, jnp.asarray(etaminus, cdt), s)
            s = jnp.where(s == 0, jnp.asarray(1.0, cdt), s)
            size_c = jnp.clip(size_c * s, step_size_min, step_size_max).astype(cdt)
            g_upd = jnp.where(s == jnp.asarray(etaminus, cdt), jnp.zeros_like(g_c), g_c)
            new_p = p_c - jnp.sign(g_upd) * size_c
            ups.append(new_p.astype(p.dtype) - p)
            prevs.append(g_upd.astype(prev.dtype))
            sizes.append(size_c.astype(size.dtype))
        return tuple(ups), RpropState(tuple(prevs), tuple(sizes))

    return transformation(init, update)


class Rprop(Optimizer):
    """``nn.Rprop(params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0), weight_decay=0.0)``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0), weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        if not isinstance(etas, tuple):
            raise TypeError(f"For Rprop, etas must be a tuple, but got {type(etas)}.")
        if len(etas) != 2:
            raise ValueError(f"For Rprop, etas must be a tuple with the size of 2, but got {len(etas)}.")
        if not isinstance(step_sizes, tuple):
            raise TypeError(f"For Rprop, step_sizes must be a tuple, but got {type(etas)}.")
        if len(step_sizes) != 2:
            raise ValueError(f"For Rprop, step_sizes must be a tuple with the size of 2, but got {len(step_sizes)}.")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError("For Rprop, maximal step size should not be less than minimal step size, "
                             f"but got {step_sizes[0]} > {step_sizes[1]}.")
        validator.check_float_range(etas[0], 0.0, 1.0, "etaminus", self.cls_name)
        if etas[1] <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus {etas[1]}.")
        self.etaminus, self.etaplus = etas
        self.step_size_min, self.step_size_max = step_sizes
        self.prev = self._parameters.clone(prefix="prev", init="zeros")
        self.step_size = self._parameters.clone(prefix="step_size", init="zeros")
        self._bind_state(self._transform())

    def _transform(self):
        return rprop_transform(self.etaminus, self.etaplus, self.step_size_min, self.step_size_max)

    @compiled
    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lrs = self.get_lr()
        self._step()
        return self._apply_transform(self._transform(), gradients, lr=self._lr_tuple(lrs),
                                     step=self.global_step._data)
