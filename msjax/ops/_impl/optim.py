"""Optimizer primitives (``ops.ApplyMomentum``, ``ops.ApplyRMSProp``,
``ops.ApplyCenteredRMSProp``, ``ops.FusedWeightScaleApplyMomentum``): they update
their Parameter inputs in place and return the updated ``variable``, as MindSpore's
do. The nn optimizers compute the same rules as optax transformations
(``msjax/nn/optim``); these are for code that calls the primitives directly."""
from __future__ import annotations

import jax.numpy as jnp

from ..._core.registry import op
from ._util import Tensor, arr, wrap


def _write(t, value, name):
    if not isinstance(t, Tensor):
        raise TypeError(f"For '{name}', the inputs to update must be Parameters, but got {type(t).__name__}.")
    t._data = value.astype(t._data.dtype)


def _check_float(name, **tensors):
    for k, v in tensors.items():
        if not jnp.issubdtype(v.dtype, jnp.inexact):
            raise TypeError(f"For '{name}', the '{k}' must be a float Tensor, but got {v.dtype}.")


@op("prim_apply_momentum", primitive="ApplyMomentum", prim_args=("use_nesterov", "use_locking", "gradient_scale"),
    family="optim")
def apply_momentum(variable, accumulation, learning_rate, gradient, momentum, use_nesterov=False, use_locking=False,
                   gradient_scale=1.0):
    """``accum = accum * momentum + grad * gradient_scale``; ``var -= lr * accum`` (Nesterov:
    ``var -= lr * (grad + momentum * accum)``)."""
    v, a, g = arr(variable), arr(accumulation), arr(gradient)
    _check_float("ApplyMomentum", variable=v, accumulation=a, gradient=g)
    if v.shape != a.shape or v.shape != g.shape:
        raise ValueError(f"For 'ApplyMomentum', the shapes of 'variable' {v.shape}, 'accumulation' {a.shape} and "
                         f"'gradient' {g.shape} must be the same.")
    lr, m = arr(learning_rate).astype(v.dtype), arr(momentum).astype(v.dtype)
    if gradient_scale != 1.0:
        g = g * jnp.asarray(gradient_scale, g.dtype)
    a = a * m + g
    v = v - (g * lr + a * m * lr if use_nesterov else lr * a)
    _write(accumulation, a, "ApplyMomentum")
    _write(variable, v, "ApplyMomentum")
    return wrap(variable._data)


@op("prim_apply_rms_prop", primitive="ApplyRMSProp", prim_args=("use_locking",), family="optim")
def apply_rms_prop(var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon, use_locking=False):
    """``ms = decay * ms + (1 - decay) * grad^2``; ``mom = momentum * mom + lr * grad / sqrt(ms + eps)``;
    ``var -= mom``."""
    v, ms_, mom, g = arr(var), arr(mean_square), arr(moment), arr(grad)
    _check_float("ApplyRMSProp", var=v, mean_square=ms_, moment=mom, grad=g)
    dt = v.dtype
    d, mo, e, lr = (jnp.asarray(arr(x), dt) for x in (decay, momentum, epsilon, learning_rate))
    ms_ = ms_ * d + g * g * (1 - d)
    mom = mom * mo + lr * g / jnp.sqrt(ms_ + e)
    _write(mean_square, ms_, "ApplyRMSProp")
    _write(moment, mom, "ApplyRMSProp")
    _write(var, v - mom, "ApplyRMSProp")
    return wrap(var._data)


@op("prim_apply_centered_rms_prop", primitive="ApplyCenteredRMSProp", prim_args=("use_locking",), family="optim")
def apply_centered_rms_prop(var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum, epsilon,
                            use_locking=False):
    """Centered RMSProp: the denominator is ``sqrt(ms - mg^2 + eps)``."""
    v, mg, ms_, mom, g = arr(var), arr(mean_gradient), arr(mean_square), arr(moment), arr(grad)
    _check_float("ApplyCenteredRMSProp", var=v, mean_gradient=mg, mean_square=ms_, moment=mom, grad=g)
    dt = v.dtype
    d, mo, e, lr = (jnp.asarray(arr(x), dt) for x in (decay, momentum, epsilon, learning_rate))
    mg = mg * d + g * (1 - d)
    ms_ = ms_ * d + g * g * (1 - d)
    mom = mom * mo + lr * g / jnp.sqrt(ms_ - mg * mg + e)
    _write(mean_gradient, mg, "ApplyCenteredRMSProp")
    _write(mean_square, ms_, "ApplyCenteredRMSProp")
    _write(moment, mom, "ApplyCenteredRMSProp")
    _write(var, v - mom, "ApplyCenteredRMSProp")
    return wrap(var._data)


@op("prim_fused_weight_scale_apply_momentum", primitive="FusedWeightScaleApplyMomentum", family="optim")
def fused_weight_scale_apply_momentum(weight_decay, loss_scale, variable, accumulation, learning_rate, gradient,
                                      momentum):
    """MindSpore's GPU kernel: ``grad = var * weight_decay + gradient * loss_scale`` (the caller passes the
    reciprocal of the loss scale), then ``ApplyMomentum``."""
    v, g = arr(variable), arr(gradient)
    g = v * arr(weight_decay).astype(v.dtype) + g * arr(loss_scale).astype(g.dtype)
    return apply_momentum(variable, accumulation, learning_rate, wrap(g), momentum)
