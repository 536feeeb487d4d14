"""Optimizer primitives (``ops.ApplyMomentum``, ``ops.ApplyRMSProp``,
``ops.ApplyCenteredRMSProp``, ``ops.FusedWeightScaleApplyMomentum``, ``ApplyGradientDescent``,
``ApplyAdagrad``/``V2``, ``ApplyAdadelta``, ``ApplyAdaMax``, ``ApplyProximalAdagrad``,
``ApplyPowerSign``, ``ApplyAddSign``, ``ApplyFtrl``, ``ApplyAdamWithAmsgrad``/``V2``): they update their Parameter inputs in
place and return what MindSpore's do (the updated ``variable``, or a tuple of the updated
Parameters). The nn optimizers compute the same rules as optax transformations
(``msjax/nn/optim``); these are for code that calls the primitives directly. Differs from
MindSpore: a returned Tensor holds the values of its step (``ApplyAdamWithAmsgrad``'s outputs in
MindSpore are its Parameters, and read later steps' values)."""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
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


def _adam_amsgrad(name, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    """``lr_t = lr*sqrt(1-beta2_power)/(1-beta1_power)``; ``m += (g - m)*(1-b1)``;
    ``v += (g*g - v)*(1-b2)``; ``vhat = max(vhat, v)``; ``var -= lr_t * m / (sqrt(vhat) + eps)``."""
    x, m_, v_, vh, g = _prep(name, var=var, m=m, v=v, vhat=vhat, grad=grad)
    b1p, b2p, lr_, b1, b2, e = _scalars(x.dtype, beta1_power, beta2_power, lr, beta1, beta2, epsilon)
    lr_t = lr_ * jnp.sqrt(1 - b2p) / (1 - b1p)
    m_ = m_ + (g - m_) * (1 - b1)          # MindSpore's CPU kernel's order of operations
    v_ = v_ + (g * g - v_) * (1 - b2)
    vh = jnp.maximum(vh, v_)
    return _store(name, (var, x - lr_t * m_ / (jnp.sqrt(vh) + e)), (m, m_), (v, v_), (vhat, vh))


@op("prim_apply_adam_with_amsgrad", primitive="ApplyAdamWithAmsgrad",
    prim_args=("beta1", "beta2", "epsilon", "use_locking"), family="optim")
def apply_adam_with_amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, grad, beta1=0.9, beta2=0.999,
                            epsilon=1e-8, use_locking=False):
    """``ops.ApplyAdamWithAmsgrad(beta1, beta2, epsilon)``: Adam with AMSGrad's ``vhat`` (see
    ``_adam_amsgrad``); updates the four Parameters and returns them. Float16/Float32 only, as
    MindSpore (V2 takes Float64 too)."""
    for k, t in (("grad", grad), ("var", var), ("m", m), ("v", v), ("vhat", vhat)):
        dt = arr(t).dtype
        if dt not in (jnp.float16, jnp.float32):
            raise TypeError(f"For primitive[ApplyAdamWithAmsgrad], the input argument[{k}_type] must be a type of "
                            f"{{Tensor[Float16], Tensor[Float32]}}, but got Tensor[{mstype.from_np(dt)}].")
    return _adam_amsgrad("ApplyAdamWithAmsgrad", var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2,
                         epsilon, grad)


@op("prim_apply_adam_with_amsgrad_v2", primitive="ApplyAdamWithAmsgradV2", prim_args=("use_locking",),
    family="optim")
def apply_adam_with_amsgrad_v2(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
                               use_locking=False):
    """``ops.ApplyAdamWithAmsgradV2()``: ``ApplyAdamWithAmsgrad`` with ``beta1``/``beta2``/``epsilon``
    as inputs."""
    return _adam_amsgrad("ApplyAdamWithAmsgradV2", var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2,
                         epsilon, grad)


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


def _f32(a):
    """float16/bfloat16 state is updated in float32 and rounded once when written back."""
    return a.astype(jnp.float32) if a.dtype in (jnp.float16, jnp.bfloat16) else a


def _adam_moments(name, m, v, grad, beta1, beta2):
    mm, vv, g = (_f32(a) for a in _prep(name, m=m, v=v, gradient=grad))
    b1, b2 = _scalars(mm.dtype, beta1, beta2)
    return mm * b1 + (1 - b1) * g, vv * b2 + (1 - b2) * g * g, g, b1


def _adam_step(m, v, g, b1, beta1_power, beta2_power, lr, epsilon, use_nesterov=False):
    b1p, b2p, lr, eps = _scalars(m.dtype, beta1_power, beta2_power, lr, epsilon)
    lr_t = lr * jnp.sqrt(1 - b2p) / (1 - b1p)
    num = m * b1 + (1 - b1) * g if use_nesterov else m
    return lr_t * num / (jnp.sqrt(v) + eps)


@op("prim_adam", primitive="Adam", prim_args=("use_locking", "use_nesterov"), family="optim")
def adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient, use_locking=False,
         use_nesterov=False):
    """``ops.Adam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power, beta2_power, lr, beta1, beta2,
    epsilon, gradient)`` -> ``(var, m, v)`` updated in place: ``m = b1 m + (1 - b1) g``,
    ``v = b2 v + (1 - b2) g^2``, ``var -= lr sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)``
    (Nesterov: ``b1 m + (1 - b1) g`` in place of ``m``)."""
    _prep("Adam", var=var, m=m)
    mm, vv, g, b1 = _adam_moments("Adam", m, v, gradient, beta1, beta2)
    w = _f32(arr(var)) - _adam_step(mm, vv, g, b1, beta1_power, beta2_power, lr, epsilon, use_nesterov)
    return _store("Adam", (var, w), (m, mm), (v, vv))


@op("prim_adam_no_update_param", primitive="AdamNoUpdateParam", prim_args=("use_locking",), family="optim")
def adam_no_update_param(m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient, use_locking=False):
    """``ops.AdamNoUpdateParam(use_locking=False)(m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
    gradient)``: updates ``m`` and ``v`` in place as ``Adam`` and returns the step to add to the
    parameter, ``-lr sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)``."""
    mm, vv, g, b1 = _adam_moments("AdamNoUpdateParam", m, v, gradient, beta1, beta2)
    delta = -_adam_step(mm, vv, g, b1, beta1_power, beta2_power, lr, epsilon)
    _store("AdamNoUpdateParam", (m, mm), (v, vv))
    return wrap(delta.astype(arr(gradient).dtype))


@op("prim_adam_weight_decay", primitive="AdamWeightDecay", prim_args=("use_locking",), family="optim")
def adam_weight_decay(var, m, v, lr, beta1, beta2, epsilon, decay, gradient, use_locking=False):
    """``ops.AdamWeightDecay(use_locking=False)(var, m, v, lr, beta1, beta2, epsilon, decay, gradient)`` ->
    ``(var, m, v)`` updated in place: ``update = m / (sqrt(v) + eps) + decay * var`` (the decay term
    only when ``decay > 0``), ``var -= lr * update``; no bias correction."""
    _prep("AdamWeightDecay", var=var, m=m)
    mm, vv, g, _ = _adam_moments("AdamWeightDecay", m, v, gradient, beta1, beta2)
    w = _f32(arr(var))
    lr_, eps, dec = _scalars(w.dtype, lr, epsilon, decay)
    update = mm / (jnp.sqrt(vv) + eps) + jnp.where(dec > 0, dec * w, 0)
    return _store("AdamWeightDecay", (var, w - lr_ * update), (m, mm), (v, vv))


@op("prim_fused_cast_adam_weight_decay", primitive="FusedCastAdamWeightDecay", prim_args=("use_locking",),
    family="optim")
def fused_cast_adam_weight_decay(var, m, v, lr, beta1, beta2, epsilon, decay, gradient, global_norm,
                                 use_locking=False):
    """``ops.operations.FusedCastAdamWeightDecay()(var, m, v, lr, beta1, beta2, epsilon, decay, gradient,
    global_norm)``, MindSpore's CPU kernel: ``g = gradient / global_norm`` (a norm below 1e-10 counts as
    1), the AdamWeightDecay step with ``decay * var`` always added, float32 ``m``/``v``; a float16
    ``var`` is updated in float32 and rounded once. Updates in place, returns ``(var, m, v)``."""
    name = "FusedCastAdamWeightDecay"
    w, mm, vv, g = (arr(t) for t in (var, m, v, gradient))
    if not w.shape == mm.shape == vv.shape == g.shape:
        raise ValueError(f"For '{name}', 'var', 'm', 'v' and 'gradient' must have the same shape, but got "
                         f"{w.shape}, {mm.shape}, {vv.shape} and {g.shape}.")
    for arg, a, allowed in (("var", w, (jnp.float16, jnp.float32)), ("gradient", g, (jnp.float16, jnp.float32)),
                            ("m", mm, (jnp.float32,)), ("v", vv, (jnp.float32,))):
        if a.dtype not in allowed:
            raise TypeError(f"For '{name}', the dtype of '{arg}' must be in {[np.dtype(d).name for d in allowed]}, "
                            f"but got {a.dtype}.")
    lr_, b1, b2, eps, dec, norm = (jnp.asarray(arr(x), jnp.float32).reshape(-1)[0]
                                   for x in (lr, beta1, beta2, epsilon, decay, global_norm))
    g = g.astype(jnp.float32) / jnp.where(norm < 1e-10, 1.0, norm)
    mm = mm + (g - mm) * (1 - b1)
    vv = vv + (g * g - vv) * (1 - b2)
    w32 = w.astype(jnp.float32)
    w32 = w32 - lr_ * (mm / (jnp.sqrt(vv) + eps) + dec * w32)
    return _store(name, (var, w32), (m, mm), (v, vv))


@op("prim_fused_sparse_adam", primitive="FusedSparseAdam", prim_args=("use_locking", "use_nesterov"),
    family="optim")
def fused_sparse_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices,
                      use_locking=False, use_nesterov=False):
    """``ops.FusedSparseAdam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power, beta2_power, lr,
    beta1, beta2, epsilon, grad, indices)``: Adam on the rows of ``var`` named by ``indices`` (repeated
    indices add their gradients), every row's moments decaying and every row stepping as with a zero
    gradient (the non-lazy rule of MindSpore's CPU kernel). Updates in place; returns ``(var, m, v)``.
    With ``use_nesterov`` MindSpore's CPU kernel steps the rows not in ``indices`` by an unwritten
    work buffer (zeros in our recordings); msjax leaves those rows of ``var`` unchanged."""
    name = "FusedSparseAdam"
    w, mm, vv = _prep(name, var=var, m=m, v=v)
    g, idx = arr(grad), arr(indices)
    if not jnp.issubdtype(idx.dtype, jnp.integer) or idx.ndim != 1 or g.shape != (idx.shape[0],) + w.shape[1:]:
        raise ValueError(f"For '{name}', 'indices' must be 1-D int and 'grad' of shape (len(indices), "
                         f"*var.shape[1:]), but got {idx.shape} and {g.shape}.")
    b1p, b2p, lr_, b1, b2, eps = _scalars(w.dtype, beta1_power, beta2_power, lr, beta1, beta2, epsilon)
    gs = jnp.zeros_like(w).at[idx].add(g.astype(w.dtype), mode="drop")
    mm = mm * b1 + (1 - b1) * gs
    vv = vv * b2 + (1 - b2) * gs * gs
    lr_t = lr_ * jnp.sqrt(1 - b2p) / (1 - b1p)
    num = mm
    if use_nesterov:   # only the named rows: MindSpore reads an unwritten buffer for the others
        hit = jnp.zeros(w.shape[:1], bool).at[idx].set(True, mode="drop").reshape((-1,) + (1,) * (w.ndim - 1))
        num = jnp.where(hit, mm * b1 + (1 - b1) * gs, 0)
    return _store(name, (var, w - lr_t * num / (jnp.sqrt(vv) + eps)), (m, mm), (v, vv))
