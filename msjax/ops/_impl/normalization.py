"""Normalisation ops: ``batch_norm``/``BatchNorm``, ``layer_norm``/``LayerNorm``, ``group_norm``,
the instance-norm kernel of ``nn.InstanceNorm*d``, local response normalisation (``lrn``/``LRN``)
and ``L2Normalize``.

Layouts are MindSpore's: NCHW (NC / NCL / NCDHW) activations, statistics over every axis but the
channel axis (1)."""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import state
from ..._core.registry import op
from ..._core.tensor import Tensor
from . import batch_norm_native, layer_norm_cpu
from ._util import _is_int, arr, rounded, wrap
from .conv import _compiled, _float_arg
from .export_names import exported
from .lowp import float32_inside


# ---------------------------------------------------------------------------
# local response normalisation, L2 normalise
# ---------------------------------------------------------------------------
@op("lrn", primitive="LRN", prim_args=("depth_radius", "bias", "alpha", "beta", "norm_region"), family="nn_conv")
def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """``ops.lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS')``:
    ``x / (bias + alpha * sum_{|c'-c|<=r} x[c']**2) ** beta`` over the channel axis of (N, C, H, W)."""
    xa = _float_arg("x", x, "LRN")
    if not _is_int(depth_radius):
        raise TypeError(f"For 'LRN', the 'depth_radius' must be int, but got {type(depth_radius).__name__}.")
    if depth_radius < 0:
        raise ValueError(f"For 'LRN', the 'depth_radius' must be non-negative, but got {depth_radius}.")
    for n, v in (("bias", bias), ("alpha", alpha), ("beta", beta)):
        if not isinstance(v, float):
            raise TypeError(f"For 'LRN', the '{n}' must be float, but got {type(v).__name__}.")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'LRN', the 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region}.")
    if xa.ndim != 4:
        raise ValueError(f"For 'LRN', the dimension of 'x' must be 4, but got {xa.ndim}.")
    sq = jnp.square(xa)
    r = depth_radius
    s = lax.reduce_window(sq, np.array(0, xa.dtype), lax.add, (1, 2 * r + 1, 1, 1), (1, 1, 1, 1),
                          [(0, 0), (r, r), (0, 0), (0, 0)])
    return wrap(xa / jnp.power(bias + alpha * s, beta))


@op("prim_l2_normalize", primitive="L2Normalize", prim_args=("axis", "epsilon"), family="nn_conv")
def prim_l2_normalize(x, axis=0, epsilon=1e-4):
    """``ops.L2Normalize(axis=0, epsilon=1e-4)(x)``: ``x / sqrt(max(sum(x**2, axis), epsilon))``."""
    xa = _float_arg("x", x, "L2Normalize")
    if isinstance(axis, (list, tuple)):
        if len(axis) != 1:
            raise ValueError(f"For 'L2Normalize', the length of 'axis' must be 1, but got {len(axis)}.")
        axis = axis[0]
    if not _is_int(axis):
        raise TypeError(f"For 'L2Normalize', the 'axis' must be int, but got {type(axis).__name__}.")
    if not -xa.ndim <= axis < max(xa.ndim, 1):
        raise ValueError(f"For 'L2Normalize', the 'axis' must be in range [{-xa.ndim}, {xa.ndim}), but got {axis}.")
    s = jnp.sum(jnp.square(xa), axis=axis, keepdims=True)
    return wrap(xa / jnp.sqrt(jnp.maximum(s, jnp.asarray(epsilon, xa.dtype))))


# ---------------------------------------------------------------------------
# normalisation
# ---------------------------------------------------------------------------
def _moments(x, axes):
    mean = jnp.mean(x, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=axes, keepdims=True)
    return mean, var


def _bn_layout(x, channel_axis):
    """(reduced axes, per-channel broadcast shape, elements per channel)."""
    axes = tuple(i for i in range(x.ndim) if i != channel_axis)
    shape = [1] * x.ndim
    shape[channel_axis] = x.shape[channel_axis]
    return axes, shape, int(np.prod([x.shape[i] for i in axes]))


def _bn_forward(x, gamma, beta, eps, channel_axis):
    """(y, mean, biased var) with the statistics' keepdims shape, and ``rsqrt(var + eps)``."""
    axes, shape, _ = _bn_layout(x, channel_axis)
    mean, var = _moments(x, axes)
    centred = x - mean                       # before rsqrt: the exporters' node order (MindIR files)
    rstd = lax.rsqrt(var + jnp.asarray(eps, x.dtype))
    y = centred * rstd * gamma.reshape(shape) + beta.reshape(shape)
    return y, mean, var, rstd


@functools.partial(jax.custom_vjp, nondiff_argnums=(3, 4))
def _bn_normalise(x, gamma, beta, eps, channel_axis):
    y, mean, var, _ = _bn_forward(x, gamma, beta, eps, channel_axis)
    return y, mean, var


def _bn_normalise_fwd(x, gamma, beta, eps, channel_axis):
    y, mean, var, rstd = _bn_forward(x, gamma, beta, eps, channel_axis)
    return (y, mean, var), (x, gamma, mean, rstd)


def _bn_normalise_bwd(eps, channel_axis, res, cts):
    """The closed-form gradient: two per-channel sums over (ct, x) and one elementwise pass for dx
    (``dx = k * ct + xhat * a + b`` with per-channel k, a, b), where reverse mode through the
    statistics' formulas materialised ``x - mean`` and took four or five passes (ShuffleNetV1's
    BatchNorm + ReLU forward and backward was 3x slower, issue 36). Cotangents of the returned
    statistics fold into the per-channel a and b."""
    x, gamma, mean, rstd = res
    ct, ct_mean, ct_var = cts
    axes, shape, n = _bn_layout(x, channel_axis)
    xhat = (x - mean) * rstd
    sum_ct = jnp.sum(ct, axis=axes)
    sum_ct_xhat = jnp.sum(ct * xhat, axis=axes)
    r = rstd.reshape(-1)
    k = gamma * r
    a = -k * sum_ct_xhat / n + ct_var.reshape(-1) * (2 / n) / r
    b = -k * sum_ct / n + ct_mean.reshape(-1) / n
    dx = k.reshape(shape) * ct + xhat * a.reshape(shape) + b.reshape(shape)
    return dx, sum_ct_xhat.astype(gamma.dtype), sum_ct.astype(gamma.dtype)


_bn_normalise.defvjp(_bn_normalise_fwd, _bn_normalise_bwd)


def _bn_channels(x, gamma, channel_axis):
    """MindSpore's shape check of its BatchNorm kernel (``batch_norm.cc``, its text and typo kept)."""
    if gamma.shape[0] != x.shape[channel_axis]:
        raise ValueError(f"For BatchNorm, scale.shape[0] should be equal to input_x's channel dimension: "
                         f"{x.shape[channel_axis]}, bug got scale.shape[0]: {gamma.shape[0]}.")


def batch_norm_train(x, gamma, beta, eps, channel_axis=1):
    """Normalise with batch statistics; returns (y, mean, biased var, unbiased var) (stats shape (C,)).
    Its gradient is BatchNorm's closed form (:func:`_bn_normalise_bwd`), except in forward-mode
    traces, which differentiate the formulas; on the CPU it is MindSpore's kernel
    (:mod:`.batch_norm_native`, forward and gradient bit for bit) where that can run."""
    _bn_channels(x, gamma, channel_axis)
    return _batch_norm_train(x, gamma, beta, eps, channel_axis)


@_compiled("eps", "channel_axis")
@float32_inside(keep=(1, 2, 3))
def _batch_norm_train(x, gamma, beta, eps, channel_axis=1):
    _, _, n = _bn_layout(x, channel_axis)
    if batch_norm_native.usable(x, channel_axis):
        y, mean, var = batch_norm_native.batch_norm_train(x, gamma, beta, eps)
    elif state.FORWARD_MODE[0]:
        y, mean, var, _ = _bn_forward(x, gamma, beta, eps, channel_axis)
    else:
        y, mean, var = _bn_normalise(x, gamma, beta, eps, channel_axis)
    var_u = rounded(var * (n / max(n - 1, 1)))     # rounded: not folded into the running update's product
    return y, mean.reshape(-1), var.reshape(-1), var_u.reshape(-1)


batch_norm_train.raw = _batch_norm_train.raw     # the kernel without its compile (tests, bench)


def batch_norm_infer(x, gamma, beta, mean, var, eps, channel_axis=1):
    """Normalise with the running statistics (written as one ``BatchNorm`` node when exported)."""
    _bn_channels(x, gamma, channel_axis)
    return exported("BatchNorm", _batch_norm_infer, x, gamma, beta, mean, var, eps=eps, channel_axis=channel_axis)


@_compiled("eps", "channel_axis")
@float32_inside
def _batch_norm_infer(x, gamma, beta, mean, var, eps, channel_axis=1):
    """MindSpore's CPU kernel's rounding points (oneDNN's inference batch normalization, bit for bit):
    the per-channel scale ``gamma / sqrt(var + eps)``, then ``(x - mean) * scale`` rounded, then
    ``+ beta`` (not one fused multiply-add). ``rounded`` also keeps the square root a division's
    operand, where XLA would rewrite ``a / sqrt(b)`` as ``a * rsqrt(b)``."""
    shape = [1] * x.ndim
    shape[channel_axis] = x.shape[channel_axis]
    scale = gamma / rounded(jnp.sqrt(var + jnp.asarray(eps, var.dtype)))
    return rounded((x - mean.reshape(shape)) * scale.reshape(shape)) + beta.reshape(shape)


# ``nn._precision`` lends, when imported, the value a Parameter has outside a ``to_float`` cell
# (its float32 master while the cell presents it in float16), or None
precision_master = None


def running_value(param):
    """A running statistic's value as MindSpore's training BatchNorm updates it: in its own type
    (float32), not the float16 a ``to_float(float16)`` cell presents (MindSpore does not cast the
    in-place inputs; inference reads them cast, as the other inputs)."""
    master = precision_master(param) if precision_master is not None else None
    return param._data if master is None else master


def _update_running(param, batch_stat, momentum):
    """running = running * (1 - momentum) + batch * momentum (MindSpore's BatchNorm convention),
    computed in the statistic's own type (float32 in a float16 cell, as MindSpore) as its CPU kernel
    does: ``1 - momentum`` in float32, each product rounded before the sum (``rounded``: compiled,
    XLA would fuse one product into the addition)."""
    if param is None:
        return
    base = running_value(param)
    m = np.asarray(momentum, base.dtype)
    new = (rounded(base * (np.asarray(1, base.dtype) - m))
           + rounded(lax.stop_gradient(batch_stat).astype(base.dtype) * m))
    if hasattr(param, "set_data") and base.dtype == param._data.dtype:
        param.set_data(wrap(new))
    else:       # kept in its own type: the to_float cell stores it back as such
        param._data = new


def _bn_check(x, params, name):
    if x.ndim < 2:
        raise ValueError(f"For '{name}', the dimension of 'input_x' must be at least 2, but got {x.ndim}.")
    c = x.shape[1]
    for pname, p in params:
        if p is None:
            continue
        if not isinstance(p, Tensor):
            raise TypeError(f"For '{name}', the '{pname}' must be a Tensor, but got {type(p).__name__}.")
        if p.shape != (c,):
            raise ValueError(f"For '{name}', the shape of '{pname}' must be ({c},), but got {p.shape}.")


@op("batch_norm", family="nn_conv")
def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-05):
    """``ops.batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1,
    eps=1e-05)``; in training the running statistics (Parameters) are updated in place with
    ``running = (1 - momentum) * running + momentum * batch`` (unbiased batch variance)."""
    x = _float_arg("input_x", input_x, "BatchNorm")
    _bn_check(x, (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                  ("bias", bias)), "BatchNorm")
    if training:
        y, mean, _, var_u = batch_norm_train(x, weight._data, bias._data, eps)
        _update_running(running_mean, mean, momentum)
        _update_running(running_var, var_u, momentum)
        return wrap(y)
    return wrap(batch_norm_infer(x, weight._data, bias._data, running_mean._data, running_var._data, eps))


@op("prim_batch_norm", primitive="BatchNorm", prim_args=("is_training", "epsilon", "momentum", "data_format"),
    family="nn_conv")
def prim_batch_norm(input_x, scale, bias, mean, variance, is_training=False, epsilon=1e-5, momentum=0.1,
                    data_format="NCHW"):
    """``ops.BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1, data_format='NCHW')(x, scale, bias,
    mean, variance)`` -> (y, batch_mean, batch_variance, reserve_space_1, reserve_space_2). As on
    MindSpore's CPU backend, training returns the batch mean / biased variance as outputs 3-4 (outputs 1-2
    are left unwritten there, msjax returns zeros) and updates ``mean``/``variance`` in place; inference
    returns zeros for 1-4. Only ``y`` carries gradients."""
    x = _float_arg("input_x", input_x, "BatchNorm")
    ch_axis = x.ndim - 1 if data_format == "NHWC" else 1
    c = x.shape[ch_axis]
    for pname, p in (("scale", scale), ("bias", bias), ("mean", mean), ("variance", variance)):
        if not isinstance(p, Tensor):
            raise TypeError(f"For 'BatchNorm', the '{pname}' must be a Tensor, but got {type(p).__name__}.")
        if p.shape != (c,):
            raise ValueError(f"For 'BatchNorm', the shape of '{pname}' must be ({c},), but got {p.shape}.")
    zeros = jnp.zeros((c,), jnp.float32)
    if is_training:
        y, bm, bv, bvu = batch_norm_train(x, scale._data, bias._data, epsilon, ch_axis)
        _update_running(mean, bm, momentum)
        _update_running(variance, bvu, momentum)
        sg = lax.stop_gradient
        return wrap(y), wrap(zeros), wrap(zeros), wrap(sg(bm).astype(jnp.float32)), wrap(sg(bv).astype(jnp.float32))
    y = batch_norm_infer(x, scale._data, bias._data, mean._data, variance._data, epsilon, ch_axis)
    return wrap(y), wrap(zeros), wrap(zeros), wrap(zeros), wrap(zeros)


def layer_norm_array(x, gamma, beta, begin_norm_axis, begin_params_axis, eps):
    """(y, mean, var) of LayerNorm on arrays; the MINDIR writer writes it as one ``LayerNorm`` node."""
    return exported("LayerNorm", _layer_norm_array, x, gamma, beta, begin_norm_axis=begin_norm_axis,
                    begin_params_axis=begin_params_axis, eps=eps)


@_compiled("begin_norm_axis", "begin_params_axis", "eps")
def _layer_norm_array(x, gamma, beta, begin_norm_axis, begin_params_axis, eps):
    if layer_norm_cpu.applies(x, gamma, beta):      # MindSpore's CPU kernel's rounding
        return layer_norm_cpu.layer_norm(x, gamma, beta, begin_norm_axis, begin_params_axis, eps, _layer_norm_xla)
    return _layer_norm_xla(x, gamma, beta, begin_norm_axis, begin_params_axis, eps)


@float32_inside
def _layer_norm_xla(x, gamma, beta, begin_norm_axis, begin_params_axis, eps):
    bna = begin_norm_axis % x.ndim
    bpa = begin_params_axis % x.ndim
    axes = tuple(range(bna, x.ndim))
    mean, var = _moments(x, axes)
    y = (x - mean) * lax.rsqrt(var + jnp.asarray(eps, x.dtype))
    pshape = (1,) * bpa + tuple(x.shape[bpa:])
    if gamma is not None:
        y = y * jnp.reshape(gamma, pshape)
    if beta is not None:
        y = y + jnp.reshape(beta, pshape)
    return y, mean, var


@op("prim_layer_norm", primitive="LayerNorm", prim_args=("begin_norm_axis", "begin_params_axis", "epsilon"),
    family="nn_conv")
def prim_layer_norm(input_x, gamma, beta, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
    """``ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta)`` ->
    (y, mean, variance); mean/variance keep the normalised axes as size 1."""
    x = _float_arg("input_x", input_x, "LayerNorm")
    for n, v in (("begin_norm_axis", begin_norm_axis), ("begin_params_axis", begin_params_axis)):
        if not _is_int(v):
            raise TypeError(f"For 'LayerNorm', the type of '{n}' must be int, but got {type(v).__name__}.")
        if not -x.ndim <= v < x.ndim:
            raise ValueError(f"For 'LayerNorm', the '{n}' must be in range [{-x.ndim}, {x.ndim}), but got {v}.")
    g, b = arr(gamma), arr(beta)
    bpa = begin_params_axis % x.ndim
    if tuple(g.shape) != tuple(x.shape[bpa:]) or tuple(b.shape) != tuple(x.shape[bpa:]):
        raise ValueError(f"For 'LayerNorm', the shape of 'gamma' and 'beta' must be {tuple(x.shape[bpa:])}, "
                         f"but got {tuple(g.shape)} and {tuple(b.shape)}.")
    y, mean, var = layer_norm_array(x, g, b, begin_norm_axis, begin_params_axis, epsilon)
    # MindSpore's LayerNormGrad only uses the gradient of y
    return wrap(y), wrap(lax.stop_gradient(mean)), wrap(lax.stop_gradient(var))


@op("layer_norm", family="nn_conv")
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    """``ops.layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05)``: normalises the
    trailing ``len(normalized_shape)`` axes."""
    x = _float_arg("input", input, "layer_norm")
    if _is_int(normalized_shape):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    k = len(normalized_shape)
    if tuple(x.shape[x.ndim - k:]) != normalized_shape:
        raise ValueError(f"For 'layer_norm', the trailing shape of 'input' {tuple(x.shape)} must be "
                         f"normalized_shape {normalized_shape}.")
    y, _, _ = layer_norm_array(x, None if weight is None else arr(weight), None if bias is None else arr(bias),
                               x.ndim - k, x.ndim - k, eps)
    return wrap(y)


@op("group_norm", family="nn_conv")
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """``ops.group_norm(input, num_groups, weight=None, bias=None, eps=1e-05)`` on (N, C, *)."""
    x = _float_arg("input", input, "group_norm")
    if x.ndim < 2:
        raise ValueError(f"For 'group_norm', the dimension of 'input' must be at least 2, but got {x.ndim}.")
    n, c = x.shape[:2]
    if not _is_int(num_groups) or num_groups <= 0:
        raise TypeError(f"For 'group_norm', the 'num_groups' must be a positive int, but got {num_groups}.")
    if c % num_groups:
        raise ValueError(f"For 'group_norm', the 'num_channels' must be divided by 'num_groups', but got "
                         f"'num_channels': {c}, 'num_groups': {num_groups}.")
    return wrap(group_norm_array(x, None if weight is None else arr(weight), None if bias is None else arr(bias),
                                 num_groups, eps))


@_compiled("num_groups", "eps")
@float32_inside
def group_norm_array(x, gamma, beta, num_groups, eps):
    n, c = x.shape[:2]
    xg = x.reshape((n, num_groups, -1))
    mean, var = _moments(xg, (2,))
    y = ((xg - mean) * lax.rsqrt(var + jnp.asarray(eps, x.dtype))).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if gamma is not None:
        y = y * gamma.reshape(shape)
    if beta is not None:
        y = y + beta.reshape(shape)
    return y


@_compiled("eps")
@float32_inside(keep=(1, 2))
def instance_norm_array(x, gamma, beta, eps):
    axes = tuple(range(2, x.ndim))
    mean, var = _moments(x, axes)
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    y = (x - mean) * lax.rsqrt(var + jnp.asarray(eps, x.dtype))
    n = int(np.prod(x.shape[2:]))
    var_u = rounded(var * (n / max(n - 1, 1)))     # rounded: not folded into the running update's product
    return y * gamma.reshape(shape) + beta.reshape(shape), mean.reshape(x.shape[:2]), var_u.reshape(x.shape[:2])
