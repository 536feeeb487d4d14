"""More optimizer primitives (``ApplyGradientDescent``, ``ApplyAdagrad``/``V2``, ``ApplyAdadelta``,
``ApplyAdaMax``, ``ApplyProximalAdagrad``, ``ApplyPowerSign``, ``ApplyAddSign``, ``ApplyFtrl``):
like ``ApplyMomentum`` they update their Parameter inputs in place; the return value is MindSpore's
(the updated ``var``, or a tuple of the updated Parameters)."""
from __future__ import annotations

import jax.numpy as jnp

from ..._core.registry import op
from ._util import arr, wrap
from .optim import _check_float, _write


def _scalars(dt, *xs):
    return tuple(jnp.asarray(arr(x), dt) for x in xs)


def _prep(name, **tensors):
    arrays = {k: arr(v) for k, v in tensors.items()}
    _check_float(name, **arrays)
    shapes = {k: a.shape for k, a in arrays.items()}
    first = next(iter(shapes.values()))
    if any(s != first for s in shapes.values()):
        raise ValueError(f"For '{name}', the shapes of " + ", ".join(f"'{k}' {s}" for k, s in shapes.items())
                         + " must be the same.")
    return arrays.values()


def _store(name, *pairs):
    for t, v in pairs:
        _write(t, v, name)
    outs = tuple(wrap(t._data) for t, _ in pairs)
    return outs


@op("prim_apply_gradient_descent", primitive="ApplyGradientDescent", prim_args=("use_locking",), family="optim")
def apply_gradient_descent(var, alpha, delta, use_locking=False):
    """``var -= alpha * delta``."""
    v, d = _prep("ApplyGradientDescent", var=var, delta=delta)
    (a,) = _scalars(v.dtype, alpha)
    return _store("ApplyGradientDescent", (var, v - a * d))[0]


@op("prim_apply_adagrad", primitive="ApplyAdagrad", prim_args=("update_slots", "use_locking"), family="optim")
def apply_adagrad(var, accum, lr, grad, update_slots=True, use_locking=False):
    """``accum += grad^2`` (if ``update_slots``); ``var -= lr * grad / sqrt(accum)``; returns (var, accum)."""
    v, a, g = _prep("ApplyAdagrad", var=var, accum=accum, grad=grad)
    (lr_,) = _scalars(v.dtype, lr)
    if update_slots:
        a = a + g * g
    return _store("ApplyAdagrad", (var, v - lr_ * g / jnp.sqrt(a)), (accum, a))


@op("prim_apply_adagrad_v2", primitive="ApplyAdagradV2", prim_args=("epsilon", "update_slots", "use_locking"),
    family="optim")
def apply_adagrad_v2(var, accum, lr, grad, epsilon=None, update_slots=True, use_locking=False):
    """``accum += grad^2`` (if ``update_slots``); ``var -= lr * grad / (sqrt(accum) + epsilon)``."""
    v, a, g = _prep("ApplyAdagradV2", var=var, accum=accum, grad=grad)
    lr_, eps = _scalars(v.dtype, lr, epsilon)
    if update_slots:
        a = a + g * g
    return _store("ApplyAdagradV2", (var, v - lr_ * g / (jnp.sqrt(a) + eps)), (accum, a))


@op("prim_apply_adadelta", primitive="ApplyAdadelta", prim_args=("use_locking",), family="optim")
def apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad, use_locking=False):
    """``accum = rho*accum + (1-rho)*g^2``; ``update = sqrt(accum_update+eps) * g / sqrt(accum+eps)``;
    ``accum_update = rho*accum_update + (1-rho)*update^2``; ``var -= lr * update``."""
    v, a, u, g = _prep("ApplyAdadelta", var=var, accum=accum, accum_update=accum_update, grad=grad)
    lr_, r, e = _scalars(v.dtype, lr, rho, epsilon)
    a = r * a + (1 - r) * g * g
    upd = jnp.sqrt(u + e) * g / jnp.sqrt(a + e)
    u = r * u + (1 - r) * upd * upd
    return _store("ApplyAdadelta", (var, v - lr_ * upd), (accum, a), (accum_update, u))


@op("prim_apply_ada_max", primitive="ApplyAdaMax", family="optim")
def apply_ada_max(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
    """``m = b1*m + (1-b1)*g``; ``v = max(b2*v, |g|)``; ``var -= lr / (1 - beta1_power) * m / (v + eps)``."""
    x, m_, v_, g = _prep("ApplyAdaMax", var=var, m=m, v=v, grad=grad)
    bp, lr_, b1, b2, e = _scalars(x.dtype, beta1_power, lr, beta1, beta2, epsilon)
    m_ = b1 * m_ + (1 - b1) * g
    v_ = jnp.maximum(b2 * v_, jnp.abs(g))
    return _store("ApplyAdaMax", (var, x - lr_ / (1 - bp) * m_ / (v_ + e)), (m, m_), (v, v_))


@op("prim_apply_proximal_adagrad", primitive="ApplyProximalAdagrad", prim_args=("use_locking",), family="optim")
def apply_proximal_adagrad(var, accum, lr, l1, l2, grad, use_locking=False):
    """``accum += g^2``; with ``a = lr / sqrt(accum)``: ``prox = var - a * g``;
    ``var = sign(prox) / (1 + a*l2) * max(|prox| - a*l1, 0)``."""
    v, a, g = _prep("ApplyProximalAdagrad", var=var, accum=accum, grad=grad)
    lr_, l1_, l2_ = _scalars(v.dtype, lr, l1, l2)
    a = a + g * g
    lr_a = lr_ / jnp.sqrt(a)
    prox = v - lr_a * g
    new = jnp.sign(prox) / (1 + lr_a * l2_) * jnp.maximum(jnp.abs(prox) - lr_a * l1_, 0)
    return _store("ApplyProximalAdagrad", (var, new), (accum, a))


@op("prim_apply_power_sign", primitive="ApplyPowerSign", family="optim")
def apply_power_sign(var, m, lr, logbase, sign_decay, beta, grad):
    """``m = beta*m + (1-beta)*g``; ``var -= lr * exp(logbase * sign_decay * sign(g) * sign(m)) * g``."""
    v, m_, g = _prep("ApplyPowerSign", var=var, m=m, grad=grad)
    lr_, lb, sd, b = _scalars(v.dtype, lr, logbase, sign_decay, beta)
    m_ = b * m_ + (1 - b) * g
    upd = jnp.exp(lb * sd * jnp.sign(g) * jnp.sign(m_)) * g
    return _store("ApplyPowerSign", (var, v - lr_ * upd), (m, m_))


@op("prim_apply_add_sign", primitive="ApplyAddSign", family="optim")
def apply_add_sign(var, m, lr, alpha, sign_decay, beta, grad):
    """``m = beta*m + (1-beta)*g``; ``var -= lr * (alpha + sign_decay * sign(g) * sign(m)) * g``."""
    v, m_, g = _prep("ApplyAddSign", var=var, m=m, grad=grad)
    lr_, al, sd, b = _scalars(v.dtype, lr, alpha, sign_decay, beta)
    m_ = b * m_ + (1 - b) * g
    upd = (al + sd * jnp.sign(g) * jnp.sign(m_)) * g
    return _store("ApplyAddSign", (var, v - lr_ * upd), (m, m_))


@op("prim_apply_ftrl", primitive="ApplyFtrl", prim_args=("use_locking",), family="optim")
def apply_ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, use_locking=False):
    """FTRL-proximal: ``accum' = accum + g^2``; ``linear += g - (accum'^-p - accum^-p) / lr * var``;
    ``var = -(linear + sign(linear)*l1) / (accum'^-p / lr + 2*l2)`` where ``|linear| > l1``, else 0
    (the sign of the ``l1`` term is MindSpore 2.10's CPU kernel's, recorded)."""
    v, a, lin, g = _prep("ApplyFtrl", var=var, accum=accum, linear=linear, grad=grad)
    lr_, l1_, l2_, p = _scalars(v.dtype, lr, l1, l2, lr_power)
    a_new = a + g * g
    lin = lin + g - (a_new ** -p - a ** -p) / lr_ * v
    quad = a_new ** -p / lr_ + 2 * l2_
    new = jnp.where(jnp.abs(lin) > l1_, -(lin + jnp.sign(lin) * l1_) / quad, jnp.zeros_like(v))
    return _store("ApplyFtrl", (var, new), (accum, a_new), (linear, lin))[0]
