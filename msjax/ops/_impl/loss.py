"""Loss ops: the functional losses (``ops.cross_entropy``...) and their Primitives.

Each op follows MindSpore 2.10's functional definition (``mindspore/ops/function/
nn_func.py``) or, for the Primitive kernels, the formula of its documentation,
with MindSpore's argument checks and result dtypes. The composite losses that
MindSpore reduces through ``_get_loss`` compute the reduction in Float32 and cast
back to the input dtype, as MindSpore does.

Differences from MindSpore on CPU: ``soft_margin_loss``, ``multilabel_margin_loss``,
``triplet_margin_loss`` and ``smooth_l1_loss(beta=0)`` have no CPU kernel in
MindSpore 2.10 (RuntimeError there); here they compute what the GPU/Ascend
kernels document. ``binary_cross_entropy`` does not check at run time that
``logits`` lies in [0, 1].
"""
from __future__ import annotations

import functools
import math as _math

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import Tensor, arr, wrap
from .math import _abs_real, _float_input, _need_tensor, _out
from .lowp import float32_inside
from . import xent_native as _xent_native
from .activation import F16_32, FLOATS, _name, check_dtype, check_number
from .array import _concrete, _need_concrete

_REDUCTIONS = ("mean", "sum", "none")
_INTS = (np.dtype(np.int32), np.dtype(np.int64))


def _is_tensor(name, arg, x):
    if x is not None and not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got '{type(x).__name__}'")
    return None if x is None else x._data


def _check_reduction(name, reduction, allowed=_REDUCTIONS):
    if not isinstance(reduction, str) or reduction not in allowed:
        raise ValueError(f"For '{name}', the 'reduction' must be in {list(allowed)}, but got {reduction}.")


def get_loss(x, reduction, name, weights=1.0):
    """MindSpore's ``_get_loss``: weight and reduce in Float32, cast back to the input dtype."""
    _check_reduction(name, reduction)
    dt = x.dtype
    w = arr(weights).astype(jnp.float32) if isinstance(weights, Tensor) else jnp.float32(weights)
    y = w * x.astype(jnp.float32)
    if reduction == "mean":
        y = jnp.mean(y)
    elif reduction == "sum":
        y = jnp.sum(y)
    return y.astype(dt)


def _reduce(x, reduction):
    if reduction == "mean":
        return jnp.mean(x)
    if reduction == "sum":
        return jnp.sum(x)
    return x


def _same_shape(name, a, b, an="input", bn="target"):
    if a.shape != b.shape:
        raise ValueError(f"For '{name}', the shape of '{an}' and '{bn}' must be the same, "
                         f"but got {list(a.shape)} and {list(b.shape)}.")


def _broadcastable(name, x, y):
    try:
        np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
    except ValueError:
        raise ValueError(f"For '{name}', the shape of 'input' {list(x.shape)} and 'target' {list(y.shape)} "
                         "must be broadcastable.") from None


def _abs(d):
    """``|d|`` with MindSpore's gradient 0 where input == target (L1LossGrad)."""
    return _abs_real(d) if jnp.issubdtype(d.dtype, jnp.floating) else jnp.abs(d)


# --- regression losses ------------------------------------------------------------------
@op("l1_loss", family="loss")
def l1_loss(input, target, reduction="mean"):
    """``ops.l1_loss(input, target, reduction='mean')``: ``|input - target|``, reduced."""
    x = _is_tensor("l1_loss", "input", input)
    y = _is_tensor("l1_loss", "target", target)
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For l1_loss, the 'reduction' must be in ['mean', 'sum', 'none'], but got {reduction}.")
    _broadcastable("l1_loss", x, y)
    return wrap(get_loss(_abs(x - y), reduction, "l1_loss"))


@op("l1_loss_ext", family="loss")
def l1_loss_ext(input, target, reduction="mean"):
    """``L1LossExt``: ``|input - target|`` reduced in the input dtype."""
    x, y = arr(input), arr(target)
    _check_reduction("l1_loss", reduction)
    _broadcastable("l1_loss", x, y)
    return wrap(_reduce(_abs(x - y), reduction))


@op("mse_loss", family="loss")
def mse_loss(input, target, reduction="mean"):
    """``ops.mse_loss(input, target, reduction='mean')``; integer inputs give Float32."""
    if not isinstance(input, Tensor):
        raise TypeError("For ops.mse_loss, the `input` must be tensor")
    if not isinstance(target, Tensor):
        raise TypeError("For ops.mse_loss, the `target` must be tensor")
    if reduction not in ("mean", "none", "sum"):
        raise ValueError("For ops.mse_loss, `reduction` value should be either 'mean', 'none' or 'sum'.")
    d = jnp.square(input._data - target._data)
    out_dt = d.dtype if np.dtype(d.dtype) in FLOATS[:3] else np.float32
    return wrap(_reduce(d.astype(jnp.float32), reduction).astype(out_dt))


@op("smooth_l1_loss", primitive="SmoothL1Loss", prim_args=("beta", "reduction"), family="loss")
def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    """``ops.smooth_l1_loss(input, target, beta=1.0, reduction='none')``."""
    if beta == 0.0:
        return l1_loss_ext(input, target, reduction)
    x = _is_tensor("SmoothL1Loss", "input", input)
    y = _is_tensor("SmoothL1Loss", "target", target)
    if isinstance(beta, bool) or not isinstance(beta, (float, int)):
        raise TypeError(f"For 'SmoothL1Loss', the type of 'beta' should be float, but got {type(beta).__name__}.")
    if not isinstance(reduction, str) or reduction not in _REDUCTIONS:
        raise ValueError(f"Failed to convert the value \"{reduction}\" of input 'reduction' of 'SmoothL1Loss' to enum.")
    check_dtype("SmoothL1Loss", x, FLOATS, "prediction")
    check_dtype("SmoothL1Loss", y, FLOATS, "target")
    if x.shape != y.shape:
        raise ValueError(f"For 'SmoothL1Loss', the shape of 'prediction' and 'target' must be the same, "
                         f"but got {list(x.shape)} and {list(y.shape)}.")
    if beta < 0:
        raise RuntimeError(f"For 'SmoothL1Loss', the values for beta not support negative values, but got {beta}.")
    d = jnp.abs(x - y)
    b = jnp.asarray(beta, d.dtype)
    loss = jnp.where(d < b, 0.5 * d * d / b, d - 0.5 * b)
    return wrap(_reduce(loss, reduction))


@op("huber_loss", family="loss")
def huber_loss(input, target, reduction="mean", delta=1.0):
    """``ops.huber_loss(input, target, reduction='mean', delta=1.0)``."""
    x = _is_tensor("huber_loss", "input", input)
    y = _is_tensor("huber_loss", "target", target)
    check_number("huber_loss", "delta", delta, (int, float))
    if delta <= 0:
        raise ValueError(f"For 'huber_loss', the 'delta' must be greater than 0.0, but got {delta}.")
    z = jnp.abs(x - y)
    loss = jnp.where(z < delta, 0.5 * jnp.square(z), delta * (z - 0.5 * delta)).astype(z.dtype)
    return wrap(get_loss(loss, reduction, "huber_loss"))


@op("gaussian_nll_loss", family="loss")
def gaussian_nll_loss(x, target, var, full=False, eps=1e-6, reduction="mean"):
    """``ops.gaussian_nll_loss(x, target, var, full=False, eps=1e-6, reduction='mean')``."""
    for n, v in (("x", x), ("target", target), ("var", var)):
        if not isinstance(v, Tensor):
            raise TypeError(f"For 'gaussian_nll_loss', '{n}' must be a tensor, but got {type(v)}.")
    if not isinstance(full, bool):
        raise TypeError(f"For 'gaussian_nll_loss', 'full' must be a bool, but got {type(full)}.")
    if not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For 'gaussian_nll_loss', 'eps' must be a positive float, but got {eps}.")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For 'gaussian_nll_loss', 'reduction' must be one of 'none', 'mean', or 'sum', "
                         f"but got {reduction}.")
    a, t, v = x._data, target._data, var._data
    if a.shape != v.shape and a.shape[:-1] == v.shape:
        v = jnp.expand_dims(v, -1)
    maxima = jnp.maximum(v, jnp.asarray(eps, v.dtype))
    loss = 0.5 * (jnp.log(maxima) + jnp.square(a - t) / maxima)
    if full:
        loss = loss + 0.5 * _math.log(2 * _math.pi)
    return wrap(_reduce(loss, reduction))


# --- margin / embedding losses -------------------------------------------------------------
def _same_dtype(name, n1, a, n2, b):
    if a.dtype != b.dtype:
        raise TypeError(f"For {name}, the {n1} dtype should be equal to {n2} dtype, but got {n1} dtype:"
                        f"{_name(a.dtype)}, {n2} dtype:{_name(b.dtype)}.")


@op("margin_ranking_loss", family="loss")
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``ops.margin_ranking_loss(input1, input2, target, margin=0.0, reduction='mean')``."""
    if isinstance(margin, bool) or not isinstance(margin, float):
        raise TypeError(f"For 'margin_ranking_loss', the type of 'margin' should be 'float', "
                        f"but got type '{type(margin).__name__}'.")
    x1 = _is_tensor("margin_ranking_loss", "input1", input1)
    x2 = _is_tensor("margin_ranking_loss", "input2", input2)
    t = _is_tensor("margin_ranking_loss", "target", target)
    _same_dtype("margin_ranking_loss", "input1", x1, "input2", x2)
    _same_dtype("margin_ranking_loss", "target", t, "input1", x1)
    d = -t * (x1 - x2) + margin
    x = jnp.where(d >= 0, d, 0).astype(x1.dtype)    # gradient 1 at 0, as MindSpore's
    return wrap(get_loss(x, reduction, "margin_ranking_loss"))


@op("hinge_embedding_loss", family="loss")
def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """``ops.hinge_embedding_loss(inputs, targets, margin=1.0, reduction='mean')``."""
    if isinstance(margin, bool) or not isinstance(margin, (float, int)):
        raise TypeError(f"For 'HingeEmbeddingLoss', 'margin' must be a float or int, but got {type(margin)}.")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For 'HingeEmbeddingLoss', 'reduction' must be one of 'none', 'mean', 'sum',"
                         f"but got {reduction}.")
    if not isinstance(inputs, Tensor):
        raise TypeError(f"For 'HingeEmbeddingLoss', the first input must be a Tensor, but got {type(inputs)}.")
    if not isinstance(targets, Tensor):
        raise TypeError(f"For 'HingeEmbeddingLoss', the second input must be a Tensor, but got {type(targets)}.")
    x, t = inputs._data, targets._data
    if np.dtype(x.dtype) not in FLOATS:
        raise TypeError(f"For 'HingeEmbeddingLoss', the dtype of the first input must be float, but got "
                        f"{_name(x.dtype)}.")
    if np.dtype(t.dtype) not in FLOATS:
        raise TypeError(f"For 'HingeEmbeddingLoss', the dtype of the second input must be float, but got "
                        f"{_name(t.dtype)}.")
    pos_index = (t > 0).astype(x.dtype)
    neg_index = (t < 0).astype(x.dtype)
    pos = pos_index * x
    neg = jnp.asarray(margin, x.dtype) * neg_index - neg_index * x
    loss = pos + jnp.maximum(neg, jnp.zeros((), x.dtype))
    return wrap(_reduce(loss, reduction))


@op("cosine_embedding_loss", family="loss")
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``ops.cosine_embedding_loss(input1, input2, target, margin=0.0, reduction='mean')``."""
    name = "ops.cosine_embedding_loss"
    x1 = _is_tensor(name, "input1", input1)
    x2 = _is_tensor(name, "input2", input2)
    t = _is_tensor(name, "target", target)
    _same_dtype(name, "input1", x1, "input2", x2)
    reduced = tuple(d for i, d in enumerate(x1.shape) if i != 1)
    if reduced != tuple(t.shape):
        raise ValueError(f"For '{name}', the shape of 'target' must be equal to the shape of 'input1' with "
                         f"axis (1,) reduced, but got {list(t.shape)} and {list(x1.shape)}.")
    if x1.dtype in (jnp.int32, jnp.int64):
        x1 = x1.astype(jnp.float32)
    if x2.dtype in (jnp.int32, jnp.int64):
        x2 = x2.astype(jnp.float32)
    margin_f = float(margin) if isinstance(margin, int) and not isinstance(margin, bool) else margin
    if not isinstance(margin_f, float):
        raise TypeError(f"For '{name}', the type of 'margin' should be 'float', "
                        f"but got type '{type(margin).__name__}'.")
    if margin_f > 1.0 or margin_f < -1.0:
        raise ValueError(f"For ops.cosine_embedding_loss, the value of 'margin' should be in [-1, 1],"
                         f"but got {margin_f}.")
    cosine = _cosine(x1, x2)
    loss = _cosine_select(cosine, t, margin_f)
    return wrap(get_loss(loss, reduction, "cosine_embedding_loss"))


def _cosine(x1, x2):
    prod_sum = jnp.sum(x1 * x2, axis=1)
    denom = jnp.sqrt(jnp.sum(jnp.square(x1), axis=1)) * jnp.sqrt(jnp.sum(jnp.square(x2), axis=1))
    return prod_sum / denom


def _cosine_select(cosine, t, margin):
    pos_value = 1.0 - cosine
    neg_value = jnp.maximum(cosine - margin, 0.0).astype(cosine.dtype)
    zeros = jnp.zeros_like(cosine)
    return jnp.where(t == 1, pos_value, zeros) + jnp.where(t == -1, neg_value, zeros)


@op("soft_margin_loss", primitive="SoftMarginLoss", prim_args=("reduction",), family="loss")
def soft_margin_loss(input, target, reduction="mean"):
    """``ops.soft_margin_loss(input, target, reduction='mean')``: ``log(1 + exp(-y x))``, reduced.

    MindSpore 2.10 has no CPU kernel for it; this computes the documented formula."""
    x = _is_tensor("SoftMarginLoss", "input", input)
    y = _is_tensor("SoftMarginLoss", "target", target)
    if not isinstance(reduction, str) or reduction not in _REDUCTIONS:
        raise ValueError(f"Failed to convert the value \"{reduction}\" of input 'reduction' of 'SoftMarginLoss' "
                         f"to enum.")
    check_dtype("SoftMarginLoss", x, FLOATS[:3], "input")
    check_dtype("SoftMarginLoss", y, FLOATS[:3], "target")
    if x.shape != y.shape:
        raise ValueError(f"For 'SoftMarginLoss', the shape of 'input' and 'target' must be the same, "
                         f"but got {list(x.shape)} and {list(y.shape)}.")
    loss = jnp.logaddexp(jnp.zeros((), x.dtype), -y * x).astype(x.dtype)
    return wrap(_reduce(loss, reduction))


@functools.partial(jax.jit, static_argnames=("p", "margin", "reduction"))
def _multi_margin(x, t, p, margin, w, reduction):
    n, c = x.shape
    xy = jnp.take_along_axis(x, t[:, None].astype(jnp.int32), axis=1)
    z = jnp.maximum(margin - xy + x, 0)
    if p == 2:
        z = z * z
    wy = w[t.astype(jnp.int32)][:, None] if w is not None else 1
    z = z * wy
    mask = jnp.arange(c)[None, :] != t[:, None]
    loss = (jnp.sum(jnp.where(mask, z, 0), axis=1) / c).astype(x.dtype)
    return _reduce(loss, reduction)


def _check_multi_margin(x, t, p, w, reduction, prim="MultiMarginLoss"):
    check_dtype(prim, x, FLOATS[:3], "x")
    if np.dtype(t.dtype) != np.dtype(np.int64):
        raise TypeError(f"For primitive[{prim}], the input argument[target] must be a type of {{Tensor[Int64]}}, "
                        f"but got Tensor[{_name(t.dtype)}].")
    if x.ndim != 2 or t.ndim != 1:
        raise ValueError(f"For {prim}, the rank of input x and target should be 2 and 1, while rank of x is "
                         f"{x.ndim}, rank of target is  {t.ndim}")
    if x.shape[0] != t.shape[0]:
        raise ValueError(f"For {prim}, x_shape[0] and target_shape[0] should be the same, but got "
                         f"{x.shape[0]} and {t.shape[0]}.")
    if w is not None and (w.ndim != 1 or w.shape[0] != x.shape[1]):
        raise ValueError(f"For {prim}, weight must be 1-D with x_shape[1] elements, but got {list(w.shape)}.")
    if p not in (1, 2):
        raise ValueError(f"For '{prim}', the 'p' must be 1 or 2, but got {p}.")
    if not isinstance(reduction, str) or reduction not in _REDUCTIONS:
        raise ValueError(f"For '{prim}', the 'reduction' must be in ['mean', 'sum', 'none'], but got {reduction}.")


@op("multi_margin_loss", family="loss")
def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):
    """``ops.multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction='mean')``."""
    if isinstance(margin, bool) or not isinstance(margin, int):
        raise TypeError(f"For 'multi_margin_loss', the type of 'margin' must be int, but got {type(margin)}.")
    return prim_multi_margin_loss(input, target, weight, p=p, margin=float(margin), reduction=reduction)


@op("prim_multi_margin_loss", primitive="MultiMarginLoss", prim_args=("p", "margin", "reduction"), family="loss")
def prim_multi_margin_loss(x, target, weight=None, p=1, margin=1.0, reduction="mean"):
    """``ops.MultiMarginLoss(p=1, margin=1.0, reduction='mean')(x, target, weight=None)``."""
    a = _is_tensor("MultiMarginLoss", "x", x)
    t = _is_tensor("MultiMarginLoss", "target", target)
    w = _is_tensor("MultiMarginLoss", "weight", weight)
    _check_multi_margin(a, t, p, w, reduction)
    return wrap(_multi_margin(a, t, p, margin, w, reduction))


@functools.partial(jax.jit, static_argnames=("reduction",))
def _multilabel_margin(x, t, reduction):
    squeeze = x.ndim == 1
    if squeeze:
        x, t = x[None], t[None]
    c = x.shape[-1]
    valid = jnp.cumprod((t != -1).astype(jnp.int32), axis=-1).astype(bool)        # (N, C): targets before -1
    idx = jnp.where(valid, t, 0).astype(jnp.int32)
    onehot = (idx[:, :, None] == jnp.arange(c)[None, None, :]) & valid[:, :, None]  # (N, J, C)
    is_target = jnp.any(onehot, axis=1)                                            # (N, C)
    xj = jnp.take_along_axis(x, idx, axis=-1)                                      # (N, J)
    z = jnp.maximum(1 - (xj[:, :, None] - x[:, None, :]), 0)                       # (N, J, C)
    z = jnp.where(valid[:, :, None] & ~is_target[:, None, :], z, 0)
    loss = (jnp.sum(z, axis=(1, 2)) / c).astype(x.dtype)
    is_target = is_target.astype(jnp.int32)
    if squeeze:
        loss, is_target = loss[0], is_target[0]
    return _reduce(loss, reduction), is_target


@op("multilabel_margin_loss", family="loss")
def multilabel_margin_loss(input, target, reduction="mean"):
    """``ops.multilabel_margin_loss(input, target, reduction='mean')``.

    MindSpore 2.10 has no CPU kernel for it; this computes the documented formula."""
    return prim_multilabel_margin_loss(input, target, reduction=reduction)[0]


@op("prim_multilabel_margin_loss", primitive="MultilabelMarginLoss", prim_args=("reduction",), family="loss")
def prim_multilabel_margin_loss(x, target, reduction="mean"):
    """``ops.MultilabelMarginLoss(reduction='mean')(x, target)`` -> ``(loss, is_target)``."""
    a = _is_tensor("MultilabelMarginLoss", "x", x)
    t = _is_tensor("MultilabelMarginLoss", "target", target)
    check_dtype("MultilabelMarginLoss", a, FLOATS[:3], "x")
    if np.dtype(t.dtype) != np.dtype(np.int32):
        raise TypeError(f"For primitive[MultilabelMarginLoss], the input argument[target] must be a type of "
                        f"{{Tensor[Int32]}}, but got Tensor[{_name(t.dtype)}].")
    if a.ndim not in (1, 2) or a.shape != t.shape:
        raise ValueError(f"For 'MultilabelMarginLoss', the rank of 'x' must be 1 or 2 and the shape of 'target' "
                         f"must equal the shape of 'x', but got {list(a.shape)} and {list(t.shape)}.")
    _check_reduction("MultilabelMarginLoss", reduction)
    loss, is_target = _multilabel_margin(a, t, reduction)
    return wrap(loss), wrap(is_target)


@op("multilabel_soft_margin_loss", family="loss")
def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    """``ops.multilabel_soft_margin_loss(input, target, weight=None, reduction='mean')``."""
    name = "multilabel_soft_margin_loss"
    x = _is_tensor(name, "input", input)
    y = _is_tensor(name, "target", target)
    pos = jnp.log(jnp.exp(-x) + 1)
    neg = jnp.log(jnp.exp(x) + 1)
    loss = y * pos + (1 - y) * neg
    if weight is not None:
        loss = loss * arr(weight)
    c = x.shape[-1]
    loss = jnp.sum(loss, axis=x.ndim - 1) / c
    return wrap(get_loss(loss.astype(jnp.result_type(loss)), reduction, name))


def _pairwise(a, b, p, eps):
    d = jnp.abs(a - b + eps)
    if p == 1:
        return jnp.sum(d, axis=1)
    if p == 2:
        return jnp.sqrt(jnp.sum(d * d, axis=1))
    return jnp.sum(d ** p, axis=1) ** (1.0 / p)


@op("triplet_margin_loss", family="loss")
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction="mean"):
    """``ops.triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
    reduction='mean')``. MindSpore 2.10 has no CPU kernel for it; this computes the documented formula."""
    m = margin if isinstance(margin, Tensor) else Tensor(margin, mstype.float32)
    return prim_triplet_margin_loss(anchor, positive, negative, m, p=p, eps=eps, swap=swap, reduction=reduction)


@op("prim_triplet_margin_loss", primitive="TripletMarginLoss", prim_args=("p", "swap", "eps", "reduction"),
    family="loss")
def prim_triplet_margin_loss(x, positive, negative, margin, p=2, swap=False, eps=1e-06, reduction="mean"):
    """``ops.TripletMarginLoss(p=2, swap=False, eps=1e-06, reduction='mean')(x, positive, negative, margin)``."""
    a = _is_tensor("TripletMarginLoss", "x", x)
    pos = _is_tensor("TripletMarginLoss", "positive", positive)
    neg = _is_tensor("TripletMarginLoss", "negative", negative)
    if a.ndim <= 1 and pos.ndim <= 1 and neg.ndim <= 1:
        raise ValueError(f"For TripletMarginLoss, dimensions of input x, positive and negative cannot be less than "
                         f"1 at the same time, x_dim: {a.ndim}, positive_dim: {pos.ndim}, negative_dim: {neg.ndim}.")
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"For 'TripletMarginLoss', the type of 'p' should be int, but got {type(p).__name__}.")
    _check_reduction("TripletMarginLoss", reduction)
    mg = arr(margin)
    d_pos = _pairwise(a, pos, p, eps)
    d_neg = _pairwise(a, neg, p, eps)
    if swap:
        d_neg = jnp.minimum(d_neg, _pairwise(pos, neg, p, eps))
    loss = jnp.maximum(mg.astype(a.dtype) + d_pos - d_neg, 0).astype(a.dtype)
    return wrap(_reduce(loss, reduction))


# --- probabilistic losses ------------------------------------------------------------------------
_BCE_EPS = 1e-12


@jax.custom_vjp
def _bce(x, y, w):
    return -w * (y * jnp.log(jnp.maximum(x, _BCE_EPS)) + (1 - y) * jnp.log(jnp.maximum(1 - x, _BCE_EPS)))


def _bce_fwd(x, y, w):
    return _bce(x, y, w), (x, y, w)


def _bce_bwd(res, g):
    x, y, w = res
    dx = w * (x - y) / jnp.maximum(x * (1 - x), _BCE_EPS) * g
    dy = w * (jnp.log(1 - x) - jnp.log(x)) * g   # MindSpore: logs not clamped (inf at 0 and 1)
    return dx.astype(x.dtype), dy.astype(y.dtype), jnp.zeros_like(w)


_bce.defvjp(_bce_fwd, _bce_bwd)


@float32_inside
def _bce_reduced(x, y, w, reduction):
    return _reduce(_bce(x, y, w), reduction)


@op("binary_cross_entropy", primitive="BinaryCrossEntropy", prim_args=("reduction",), family="loss")
def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """``ops.binary_cross_entropy(logits, labels, weight=None, reduction='mean')``:
    ``-w (y log(x) + (1 - y) log(1 - x))`` with the logs clamped at ``log(1e-12)``."""
    if not isinstance(reduction, str) or reduction not in _REDUCTIONS:
        raise ValueError(f"Failed to convert the value \"{reduction}\" of input 'reduction' of "
                         f"'BinaryCrossEntropy' to enum.")
    x = _is_tensor("BinaryCrossEntropy", "logits", logits)
    y = _is_tensor("BinaryCrossEntropy", "labels", labels)
    w = _is_tensor("BinaryCrossEntropy", "weight", weight)
    if np.dtype(x.dtype) not in F16_32:
        raise TypeError(f"For Primitive[BinaryCrossEntorpy], the type of the input must be "
                        f"[Float16, Float32, BFloat16], but got {_name(x.dtype)}!")
    if x.dtype != y.dtype:
        raise TypeError(f"For primitive[BinaryCrossEntorpy], the input and target should have same type, "
                        f"but got: {_name(x.dtype)} and {_name(y.dtype)}.")
    if x.shape != y.shape:
        raise ValueError(f"For primitive[BinaryCrossEntropy], the input_shape: {list(x.shape)} must be equal to "
                         f"{list(y.shape)}")
    if w is not None and w.shape != x.shape:
        raise ValueError(f"For primitive[BinaryCrossEntropy], the weight_shape: {list(w.shape)} must be equal to "
                         f"{list(x.shape)}")
    wa = jnp.ones_like(x) if w is None else w.astype(x.dtype)
    out = _bce_reduced(x, y, wa, reduction)
    if x.dtype == jnp.float16 and reduction == "none":
        # MindSpore's float16 kernel rounds every step to float16 (the mean/sum kernels do not)
        out = out + jax.lax.stop_gradient(_bce_half_steps(x, y, wa) - out)
    return wrap(out)


def _bce_half_steps(x, y, w):
    """``-w (y log(x) + (1 - y) log(1 - x))`` with each step rounded to float16, as MindSpore's float16 kernel."""
    def step(v):
        return v.astype(jnp.float16).astype(jnp.float32)
    xf, yf, wf = (v.astype(jnp.float32) for v in (x, y, w))
    log_x = step(jnp.log(jnp.maximum(xf, _BCE_EPS)))
    log_1mx = step(jnp.log(jnp.maximum(step(1 - xf), _BCE_EPS)))
    inner = step(step(yf * log_x) + step(step(1 - yf) * log_1mx))
    return (-step(wf * inner)).astype(jnp.float16)


def _bce_with_logits(x, y, w, pw):
    log_sig = jax.nn.log_sigmoid(x)
    log_sig_neg = jax.nn.log_sigmoid(-x)
    loss = -(pw * y * log_sig + (1 - y) * log_sig_neg)
    return w * loss


@functools.partial(jax.custom_vjp, nondiff_argnums=(4,))
def _bce_with_logits_loss(x, y, w, pw, reduction):
    return _reduce(_bce_with_logits(x, y, w, pw).astype(x.dtype), reduction)


def _bce_with_logits_fwd(x, y, w, pw, reduction):
    return _bce_with_logits_loss(x, y, w, pw, reduction), (x, y, w, pw)


def _bce_with_logits_bwd(reduction, res, g):
    """MindSpore's bprop (so the gradients round as MindSpore's): with ``t = target * pos_weight``,
    ``dx = ((t + 1 - target) * sigmoid(x) - t) * dout * weight`` and ``dtarget = (log(1 - sigmoid(x))
    - pos_weight * log(sigmoid(x))) * dout * weight``, divided by the element count for 'mean';
    ``weight`` and ``pos_weight`` get no gradient."""
    x, y, w, pw = res
    sig = jax.nn.sigmoid(x)
    t = y * pw
    dx = ((t + 1 - y) * sig - t) * g * w
    dy = (jnp.log(1 - sig) - pw * jnp.log(sig)) * g * w
    if reduction == "mean":
        dx, dy = dx / jnp.asarray(dx.size, dx.dtype), dy / jnp.asarray(dy.size, dy.dtype)
    dy = jnp.sum(dy, axis=tuple(range(dy.ndim - y.ndim))).reshape(y.shape) if dy.shape != y.shape else dy
    return dx.astype(x.dtype), dy.astype(y.dtype), jnp.zeros_like(w), jnp.zeros_like(pw)


_bce_with_logits_loss.defvjp(_bce_with_logits_fwd, _bce_with_logits_bwd)
_bce_with_logits_loss32 = float32_inside(_bce_with_logits_loss)


@op("binary_cross_entropy_with_logits", primitive="BCEWithLogitsLoss", prim_args=("reduction",), family="loss")
def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction="mean"):
    """``ops.binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction='mean')``."""
    x = _is_tensor("BCEWithLogitsLoss", "input", input)
    y = _is_tensor("BCEWithLogitsLoss", "target", target)
    w = _is_tensor("BCEWithLogitsLoss", "weight", weight)
    pw = _is_tensor("BCEWithLogitsLoss", "pos_weight", pos_weight)
    if not isinstance(reduction, str) or reduction not in _REDUCTIONS:
        raise ValueError(f"Failed to convert the value \"{reduction}\" of input 'reduction' of "
                         f"'BCEWithLogitsLoss' to enum.")
    check_dtype("BCEWithLogitsLoss", x, F16_32, "input")
    check_dtype("BCEWithLogitsLoss", y, F16_32, "target")
    for n, v in (("weight", w), ("pos_weight", pw)):
        if v is not None:
            check_dtype("BCEWithLogitsLoss", v, F16_32, n)
    try:
        shape = jnp.broadcast_shapes(x.shape, y.shape, *(v.shape for v in (w, pw) if v is not None))
    except ValueError:
        raise ValueError(f"For 'BCEWithLogitsLoss', the shapes of 'input' {list(x.shape)}, 'target' "
                         f"{list(y.shape)}, 'weight' and 'pos_weight' must be broadcastable.") from None
    if shape != x.shape:
        raise ValueError(f"For 'BCEWithLogitsLoss', 'weight', 'pos_weight' and 'target' must broadcast to "
                         f"the shape of 'input' {list(x.shape)}.")
    wa = jnp.ones((), x.dtype) if w is None else w.astype(x.dtype)
    pwa = jnp.ones((), x.dtype) if pw is None else pw.astype(x.dtype)
    return wrap(_bce_with_logits_loss32(x, y.astype(x.dtype), wa, pwa, reduction))


@op("prim_sigmoid_cross_entropy_with_logits", primitive="SigmoidCrossEntropyWithLogits", family="loss")
def prim_sigmoid_cross_entropy_with_logits(logits, label):
    """``ops.SigmoidCrossEntropyWithLogits()(logits, label)``: the element-wise loss."""
    x = _is_tensor("SigmoidCrossEntropyWithLogits", "logits", logits)
    y = _is_tensor("SigmoidCrossEntropyWithLogits", "label", label)
    check_dtype("SigmoidCrossEntropyWithLogits", x, FLOATS[:3], "logits")
    if x.dtype != y.dtype:
        raise TypeError(f"For 'SigmoidCrossEntropyWithLogits', the dtype of 'logits' and 'label' must be the "
                        f"same, but got {_name(x.dtype)} and {_name(y.dtype)}.")
    if x.shape != y.shape:
        raise ValueError(f"For 'SigmoidCrossEntropyWithLogits', the shape of 'logits' and 'label' must be the "
                         f"same, but got {list(x.shape)} and {list(y.shape)}.")
    y = jax.lax.stop_gradient(y)   # MindSpore's bprop gives the labels no gradient
    return wrap(_sigmoid_xent(x, y))


@float32_inside
def _sigmoid_xent(x, y):
    return jnp.maximum(x, 0) - x * y + jnp.log1p(jnp.exp(-jnp.abs(x)))


@jax.custom_vjp
def _softmax_xent(x, y):
    logp = jax.nn.log_softmax(x, axis=-1)
    return -jnp.sum(y * logp, axis=-1), jax.nn.softmax(x, axis=-1) - y


def _softmax_xent_fwd(x, y):
    out = _softmax_xent(x, y)
    return out, out[1]


def _softmax_xent_bwd(backprop, g):
    # MindSpore's bprop: the logits gradient is ``backprop * dloss``; labels get none.
    return backprop * g[0][:, None], jnp.zeros_like(backprop)


_softmax_xent.defvjp(_softmax_xent_fwd, _softmax_xent_bwd)
_softmax_xent32 = float32_inside(_softmax_xent)


@op("prim_softmax_cross_entropy_with_logits", primitive="SoftmaxCrossEntropyWithLogits", family="loss")
def prim_softmax_cross_entropy_with_logits(logits, labels):
    """``ops.SoftmaxCrossEntropyWithLogits()(logits, labels)`` -> ``(loss, backprop)``."""
    x = _is_tensor("SoftmaxCrossEntropyWithLogits", "logits", logits)
    y = _is_tensor("SoftmaxCrossEntropyWithLogits", "labels", labels)
    check_dtype("SoftmaxCrossEntropyWithLogits", x, FLOATS[:3], "logits")
    if x.dtype != y.dtype:
        raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', the dtype of 'logits' and 'labels' must be the "
                        f"same, but got {_name(x.dtype)} and {_name(y.dtype)}.")
    if x.ndim != 2:
        raise ValueError(f"For primitive[SoftmaxCrossEntropyWithLogits], the dimension of logits must be equal "
                         f"to 2, but got {x.ndim}.")
    if x.shape != y.shape:
        raise ValueError(f"For 'SoftmaxCrossEntropyWithLogits', evaluator arg 'label' shape must be consistent "
                         f"with 'logits' shape, but got 'label' shape: {tuple(y.shape)}, 'logits' shape: "
                         f"{tuple(x.shape)}.")
    loss, backprop = _softmax_xent32(x, y)
    return wrap(loss), wrap(backprop)


@op("prim_sparse_softmax_cross_entropy_with_logits", primitive="SparseSoftmaxCrossEntropyWithLogits",
    prim_args=("is_grad",), family="loss")
def prim_sparse_softmax_cross_entropy_with_logits(logits, labels, is_grad=False):
    """``ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=False)(logits, labels)``: the batch-mean loss
    (or, with ``is_grad``, its gradient w.r.t. ``logits``)."""
    x = _is_tensor("SparseSoftmaxCrossEntropyWithLogits", "logits", logits)
    t = _is_tensor("SparseSoftmaxCrossEntropyWithLogits", "labels", labels)
    check_dtype("SparseSoftmaxCrossEntropyWithLogits", x, FLOATS[:3], "logits")
    if np.dtype(t.dtype) not in _INTS:
        raise TypeError(f"For primitive[SparseSoftmaxCrossEntropyWithLogits], the input argument[labels] must be "
                        f"a type of {{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{_name(t.dtype)}].")
    if t.shape != x.shape[:-1]:
        raise ValueError(f"For 'SparseSoftmaxCrossEntropyWithLogits', the shape of 'labels' must be equal to "
                         f"the shape of 'logits' except the last dimension, but got {list(t.shape)} and "
                         f"{list(x.shape)}.")
    if _xent_native.usable(x):
        return wrap(_xent_native.sparse_softmax_xent(x, t, is_grad))
    return wrap(_sparse_softmax_xent(x, t, is_grad).astype(x.dtype))


@float32_inside
def _sparse_softmax_xent(x, t, is_grad):
    n = t.size
    onehot = jax.nn.one_hot(t, x.shape[-1], dtype=x.dtype)
    if is_grad:
        return (jax.nn.softmax(x, axis=-1) - onehot) / n
    return -jnp.sum(onehot * jax.nn.log_softmax(x, axis=-1)) / n


# --- KL divergence -----------------------------------------------------------------------------
def _kl_elem(x, y):
    # value: y (log y - x) where y > 0, else 0; gradient w.r.t. x: -y everywhere (MindSpore's KLDivLossGrad)
    val = jnp.where(y > 0, y * (jnp.log(jnp.where(y > 0, y, 1)) - x), jnp.zeros((), x.dtype))
    neg = jnp.where(y > 0, jnp.zeros((), x.dtype), -y * x)
    return val + (neg - jax.lax.stop_gradient(neg))


_kl_elem32 = float32_inside(_kl_elem)


@op("prim_kl_div_loss", primitive="KLDivLoss", prim_args=("reduction",), family="loss")
def prim_kl_div_loss(logits, labels, reduction="mean"):
    """``ops.KLDivLoss(reduction='mean')(logits, labels)``; reductions 'none', 'mean' (over all elements),
    'batchmean' and 'sum'."""
    x = _is_tensor("KLDivLoss", "logits", logits)
    y = _is_tensor("KLDivLoss", "labels", labels)
    if reduction not in ("none", "mean", "batchmean", "sum"):
        raise ValueError("For 'KLDivLoss', the 'reduction' must be str and must be in "
                         f"'['none', 'mean', 'batchmean', 'sum']', but got '{reduction}'.")
    check_dtype("KLDivLoss", x, FLOATS[:3], "logits")
    if x.dtype != y.dtype:
        raise TypeError(f"For 'KLDivLoss', the dtype of 'logits' and 'labels' must be the same, "
                        f"but got {_name(x.dtype)} and {_name(y.dtype)}.")
    loss = _kl_elem32(x, jax.lax.stop_gradient(y))   # MindSpore's KLDivLoss: labels get no gradient
    if reduction == "none":
        return wrap(loss)
    s = jnp.sum(loss)
    if reduction == "mean":
        s = s / max(loss.size, 1)
    elif reduction == "batchmean":
        s = s / (x.shape[0] if x.ndim else 1)
    return wrap(s.astype(x.dtype))


@op("kl_div", family="loss")
def kl_div(logits, labels, reduction="mean"):
    """``ops.kl_div(logits, labels, reduction='mean')``: ``labels * (log(labels) - logits)``; reductions
    'none', 'sum', 'mean' (over all elements) and 'batchmean' (over the first dimension)."""
    if not isinstance(reduction, str):
        raise ValueError("For 'kl_div', the 'reduction' must be str and must be in "
                         f"'['none', 'mean', 'batchmean', 'sum']', but got '{reduction}'.")
    return prim_kl_div_loss(logits, labels, reduction=reduction)


# --- NLL / cross entropy -------------------------------------------------------------------------
def _nll(x, t, target_dim, weight, ignore_index, reduction, label_smoothing):
    """MindSpore's ``_nll_loss`` on arrays (``target_dim`` is the class axis of ``x``)."""
    if t.ndim == x.ndim - 1:
        t = jnp.expand_dims(t, target_dim)
    mask = t == ignore_index
    t = jnp.where(mask, jnp.zeros((), t.dtype), t)
    ti = t.astype(jnp.int32)
    if weight is not None:
        loss_weights = weight[ti]
        wshape = [1] * x.ndim
        wshape[target_dim] = weight.shape[0]
        weighted = x * jnp.reshape(weight, wshape)
        loss = -jnp.take_along_axis(weighted, ti, axis=target_dim)
        smooth = -jnp.sum(weighted, axis=target_dim, keepdims=True)
    else:
        loss = -jnp.take_along_axis(x, ti, axis=target_dim)
        smooth = -jnp.sum(x, axis=target_dim, keepdims=True)
        loss_weights = jnp.ones_like(loss)
    zero = jnp.zeros((), x.dtype)
    loss = jnp.where(mask, zero, loss)
    loss_weights = jnp.where(mask, jnp.zeros((), loss_weights.dtype), loss_weights)
    smooth = jnp.where(mask, zero, smooth)
    loss = jnp.squeeze(loss, target_dim)
    smooth = jnp.squeeze(smooth, target_dim)
    if reduction == "sum":
        loss, smooth = jnp.sum(loss), jnp.sum(smooth)
    if reduction == "mean":
        wsum = jnp.sum(loss_weights)
        loss, smooth = jnp.sum(loss) / wsum, jnp.sum(smooth) / wsum
    eps_i = label_smoothing / x.shape[target_dim]
    out = (1.0 - label_smoothing) * loss + eps_i * smooth
    return out.astype(jnp.result_type(x, loss_weights))


@op("nll_loss", family="loss")
def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """``ops.nll_loss(inputs, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)``."""
    x = _is_tensor("nll_loss", "inputs", inputs)
    t = _is_tensor("nll_loss", "target", target)
    w = _is_tensor("nll_loss", "weight", weight)
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For 'nll_loss', the 'reduction' must be in ['mean', 'sum', 'none'], but got {reduction}.")
    if not jnp.issubdtype(t.dtype, jnp.integer):
        raise TypeError(f"For 'nll_loss', the dtype of 'target' must be int32 or int64, but got {_name(t.dtype)}.")
    return wrap(_nll_nd(x, t, w, ignore_index, reduction, label_smoothing))


@float32_inside
@functools.partial(jax.jit, static_argnames=("ignore_index", "reduction", "label_smoothing"))
def _nll_nd(x, t, w, ignore_index, reduction, label_smoothing):
    ndim = x.ndim
    if ndim == 2:
        return _nll(x, t, 1, w, ignore_index, reduction, label_smoothing)
    if ndim == 1:
        return _nll(x, t, 0, w, ignore_index, reduction, label_smoothing)
    if ndim == 4:
        return _nll(x, t, 1, w, ignore_index, reduction, label_smoothing)
    n, c = x.shape[0], x.shape[1]
    out = _nll(jnp.reshape(x, (n, c, 1, -1)), jnp.reshape(t, (n, 1, -1)), 1, w, ignore_index, reduction,
               label_smoothing)
    return out if reduction != "none" else jnp.reshape(out, (n,) + x.shape[2:])


@op("prim_nll_loss", primitive="NLLLoss", prim_args=("reduction", "ignore_index"), family="loss")
def prim_nll_loss(logits, labels, weight, reduction="mean", ignore_index=-100):
    """``ops.NLLLoss(reduction='mean', ignore_index=-100)(logits, labels, weight)`` -> ``(loss, total_weight)``."""
    x = _is_tensor("NLLLoss", "logits", logits)
    t = _is_tensor("NLLLoss", "labels", labels)
    w = _is_tensor("NLLLoss", "weight", weight)
    check_dtype("NLLLoss", x, FLOATS[:3], "logits")
    if np.dtype(t.dtype) not in _INTS:
        raise TypeError(f"For primitive[NLLLoss], the input argument[labels] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{_name(t.dtype)}].")
    if x.ndim not in (1, 2) or t.ndim != x.ndim - 1 or (x.ndim == 2 and t.shape[0] != x.shape[0]):
        raise ValueError(f"For 'NLLLoss', the shape of 'logits' must be (N, C) or (C,) and the shape of 'labels' "
                         f"(N,) or (), but got {list(x.shape)} and {list(t.shape)}.")
    _check_reduction("NLLLoss", reduction)
    x2 = x if x.ndim == 2 else x[None]
    t2 = jnp.reshape(t, (-1,))
    mask = t2 == ignore_index
    ti = jnp.where(mask, 0, t2).astype(jnp.int32)
    wt = jnp.where(mask, jnp.zeros((), w.dtype), w[ti])
    loss = -jnp.take_along_axis(x2, ti[:, None], axis=1)[:, 0] * wt
    total = jnp.sum(wt)
    if reduction == "sum":
        loss = jnp.sum(loss)
    elif reduction == "mean":
        loss = jnp.sum(loss) / total
    elif x.ndim == 1:
        loss = loss[0]
    return wrap(loss.astype(x.dtype)), wrap(total.astype(w.dtype))


def _check_cross_entropy(x, t, w, ignore_index, reduction, label_smoothing):
    name = "cross_entropy_loss"
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the 'input' must be a Tensor, but got '{type(x).__name__}'")
    if not isinstance(t, Tensor):
        raise TypeError(f"For '{name}', the 'target' must be a Tensor, but got '{type(t).__name__}'")
    if w is not None and not isinstance(w, Tensor):
        raise TypeError(f"For '{name}', the 'weight' must be a Tensor, but got '{type(w).__name__}'")
    if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
        raise TypeError(f"For '{name}', the type of 'ignore_index' must be int, but got "
                        f"{type(ignore_index).__name__}.")
    if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, float):
        raise TypeError(f"For '{name}', the type of 'label_smoothing' must be float, but got "
                        f"{type(label_smoothing).__name__}.")
    if label_smoothing < 0:
        raise ValueError(f"For '{name}', the 'label_smoothing' must be a non-negative float, "
                         f"but got {label_smoothing}.")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For '{name}', the 'reduction' should be in ['none', 'mean', 'sum'], "
                         f"but got '{reduction}'.")
    if np.dtype(x._data.dtype) not in FLOATS[:3]:
        raise TypeError(f"For cross_entropy, the input dtype should be mstype.float64, mstype.float32 or"
                        f"mstype.float16, but got dtype:{_name(x._data.dtype)}.")


@op("cross_entropy", family="loss")
def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """``ops.cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean',
    label_smoothing=0.0)``: class-index targets (integer dtype) or class probabilities (Float16/Float32)."""
    _check_cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)
    x, t = input._data, target._data
    w = None if weight is None else weight._data
    if t.dtype not in (jnp.float32, jnp.float16) and not jnp.issubdtype(t.dtype, jnp.integer):
        raise TypeError(f"For 'cross_entropy', the dtype of 'target' must be int32/int64 (class indices) or "
                        f"float16/float32 (probabilities), but got {_name(t.dtype)}.")
    return wrap(_cross_entropy(x, t, w, ignore_index, reduction, label_smoothing))


@float32_inside
@functools.partial(jax.jit, static_argnames=("ignore_index", "reduction", "label_smoothing"))
def _cross_entropy(x, t, w, ignore_index, reduction, label_smoothing):
    class_dim = 0 if x.ndim == 1 else 1
    logp = x - jax.scipy.special.logsumexp(x, axis=class_dim, keepdims=True)
    if t.dtype in (jnp.float32, jnp.float16):
        c = x.shape[class_dim]
        if label_smoothing > 0.0:
            t = t * (1 - label_smoothing) + label_smoothing / c
        if w is None:
            wb = jnp.ones_like(logp)
        elif x.ndim != 1:
            shape = [1] * x.ndim
            shape[1] = w.shape[0]
            wb = jnp.reshape(w, shape)
        else:
            wb = w
        prod = logp * t * wb
        if reduction == "mean":
            return -jnp.sum(prod) / (x.size / c)
        if reduction == "sum":
            return -jnp.sum(prod)
        return -jnp.sum(prod, axis=class_dim)
    return _nll_nd(logp, t, w, ignore_index, reduction, label_smoothing)


# --- CTC -----------------------------------------------------------------------------------------
def _lse(*xs):
    a = jnp.stack(xs)
    m = jnp.max(a, axis=0)
    ms = jnp.where(jnp.isfinite(m), m, 0)
    return jnp.log(jnp.sum(jnp.exp(a - ms), axis=0)) + ms


def _ctc_emit(lp, lab):
    """``lp[t, n, lab[n, l]]`` as (N, T, L), read as MindSpore's kernels read it: at the flat offset
    ``(t * N + n) * C + label`` of the (T, N, C) buffer, which MindSpore does not check, so a label outside
    [0, C) reads a neighbouring row (the next sample's or frame's log-probabilities). Past either end of
    the buffer MindSpore reads whatever memory lies there (0 in its st test's case); msjax reads 0.
    The gradient differs there: MindSpore's backward kernel also writes such a label's share into the
    neighbouring row; msjax's gradient leaves it out."""
    T, N, C = lp.shape
    L = lab.shape[1]
    row = (jnp.arange(T)[None, :, None] * N + jnp.arange(N)[:, None, None]) * C       # (N, T, 1)
    idx = row + lab[:, None, :]                                                        # (N, T, L)
    inside = (idx >= 0) & (idx < T * N * C)
    flat = lp.reshape(-1)
    return jnp.where(inside, flat[jnp.clip(idx, 0, max(T * N * C - 1, 0))], jnp.zeros((), lp.dtype))


def _ctc_core(lp, targets, in_len, tg_len, blank, merge_repeated=True):
    """Alpha/beta recursions. lp (T, N, C); returns nll (N,), log_alpha (N, T, 2S+1), log_beta.
    ``merge_repeated=False`` (TensorFlow's simplified CTC): only blanks repeat over frames, and a label
    may follow an equal label without a blank between."""
    T, N, C = lp.shape
    S = targets.shape[1]
    L = 2 * S + 1
    ninf = jnp.asarray(-jnp.inf, lp.dtype)
    s = jnp.arange(L)
    lab = jnp.where(s % 2 == 1, targets[:, jnp.clip((s - 1) // 2, 0, max(S - 1, 0))] if S else blank, blank)
    lab = jnp.broadcast_to(lab, (N, L)).astype(jnp.int32)
    valid_s = s[None, :] < (2 * tg_len[:, None] + 1)
    lab_m2 = jnp.concatenate([jnp.full((N, 2), -1, jnp.int32), lab[:, :-2]], axis=1)
    skip = (lab != blank) & ((lab != lab_m2) | jnp.logical_not(merge_repeated)) & (s[None, :] >= 2)
    lab_p2 = jnp.concatenate([lab[:, 2:], jnp.full((N, 2), -1, jnp.int32)], axis=1)
    skip_b = (lab != blank) & ((lab != lab_p2) | jnp.logical_not(merge_repeated))
    stay = (lab == blank) | merge_repeated                                    # may a state last a frame more
    emit = _ctc_emit(lp, lab)                                                # (N, T, L)
    t_idx = jnp.arange(T)
    alive = t_idx[None, :] < in_len[:, None]                                  # (N, T)

    a0 = jnp.where((s[None, :] <= 1) & valid_s, emit[:, 0], ninf)
    a0 = jnp.where(alive[:, :1], a0, ninf)

    def fwd(a, t):
        a1 = jnp.concatenate([jnp.full((N, 1), ninf), a[:, :-1]], axis=1)
        a2 = jnp.concatenate([jnp.full((N, 2), ninf), a[:, :-2]], axis=1)
        a2 = jnp.where(skip, a2, ninf)
        new = _lse(jnp.where(stay, a, ninf), a1, a2) + emit[:, t]
        new = jnp.where(valid_s & alive[:, t][:, None], new, ninf)
        return new, new

    _, rest = jax.lax.scan(fwd, a0, jnp.arange(1, T))
    log_alpha = jnp.concatenate([a0[:, None], jnp.transpose(rest, (1, 0, 2))], axis=1) if T > 1 else a0[:, None]

    last_t = jnp.clip(in_len - 1, 0, T - 1)
    a_last = jnp.take_along_axis(log_alpha, last_t[:, None, None].astype(jnp.int32), axis=1)[:, 0]  # (N, L)
    end1 = jnp.take_along_axis(a_last, (2 * tg_len)[:, None].astype(jnp.int32), axis=1)[:, 0]
    end2 = jnp.take_along_axis(a_last, jnp.clip(2 * tg_len - 1, 0, L - 1)[:, None].astype(jnp.int32), axis=1)[:, 0]
    end2 = jnp.where(tg_len > 0, end2, ninf)
    nll = -_lse(end1, end2)

    is_end = ((s[None, :] == 2 * tg_len[:, None]) | ((s[None, :] == 2 * tg_len[:, None] - 1) & (tg_len[:, None] > 0)))

    def bwd(b, t):
        b1 = jnp.concatenate([b[:, 1:], jnp.full((N, 1), ninf)], axis=1)
        b2 = jnp.concatenate([b[:, 2:], jnp.full((N, 2), ninf)], axis=1)
        b2 = jnp.where(skip_b, b2, ninf)
        rec = _lse(jnp.where(stay, b, ninf), b1, b2) + emit[:, t]
        init = jnp.where(is_end, emit[:, t], ninf)
        new = jnp.where((t == in_len - 1)[:, None], init, jnp.where((t < in_len - 1)[:, None], rec, ninf))
        new = jnp.where(valid_s, new, ninf)
        return new, new

    b_init = jnp.full((N, L), ninf)
    _, bs = jax.lax.scan(bwd, b_init, jnp.arange(T - 1, -1, -1))
    log_beta = jnp.transpose(bs[::-1], (1, 0, 2))
    return nll, log_alpha, log_beta, lab, alive


def _ctc_grad(lp, nll, log_alpha, log_beta, lab, alive, zero_infinity):
    T, N, C = lp.shape
    lpn = jnp.transpose(lp, (1, 0, 2))                                   # (N, T, C)
    emit = _ctc_emit(lp, lab)
    occ = jnp.exp(log_alpha + log_beta + nll[:, None, None] - emit)        # (N, T, L)
    occ = jnp.where(jnp.isfinite(log_alpha + log_beta), occ, 0)
    onehot = jax.nn.one_hot(lab, C, dtype=lp.dtype)                       # (N, L, C)
    occ_c = jnp.einsum("ntl,nlc->ntc", occ, onehot)
    grad = jnp.exp(lpn) - occ_c
    grad = jnp.where(alive[:, :, None], grad, 0)
    # MindSpore (as PyTorch's CPU kernel): an infeasible sample (infinite loss) gets NaN gradients,
    # or zeros with zero_infinity.
    bad = jnp.isinf(nll)[:, None, None] & alive[:, :, None]
    grad = jnp.where(bad, 0 if zero_infinity else jnp.nan, grad)
    return jnp.transpose(grad, (1, 0, 2))


# MindSpore's CPU kernel keeps an infinite loss even with zero_infinity (only the gradient is zeroed).
@functools.partial(jax.custom_vjp, nondiff_argnums=(4, 5))
def _ctc_vjp(lp, targets, in_len, tg_len, blank, zero_infinity):
    nll, log_alpha, _, _, _ = _ctc_core(lp, targets, in_len, tg_len, blank)
    return nll, log_alpha


def _ctc_vjp_fwd(lp, targets, in_len, tg_len, blank, zero_infinity):
    nll, log_alpha, log_beta, lab, alive = _ctc_core(lp, targets, in_len, tg_len, blank)
    return (nll, log_alpha), (lp, nll, log_alpha, log_beta, lab, alive)


def _ctc_vjp_bwd(blank, zero_infinity, res, g):
    lp, nll, log_alpha, log_beta, lab, alive = res
    grad = _ctc_grad(lp, nll, log_alpha, log_beta, lab, alive, zero_infinity)
    return grad * jnp.expand_dims(g[0], (0, 2)).astype(grad.dtype), None, None, None


_ctc_vjp.defvjp(_ctc_vjp_fwd, _ctc_vjp_bwd)


@functools.partial(jax.jit, static_argnames=("blank", "zero_infinity"))
def _ctc_loss_v2(lp, targets, in_len, tg_len, blank, zero_infinity):
    return _ctc_vjp(lp, targets, in_len, tg_len, blank, zero_infinity)


def _ctc_args(name, log_probs, targets, input_lengths, target_lengths, blank):
    lp = _is_tensor(name, "log_probs", log_probs)
    tg = _is_tensor(name, "targets", targets)
    check_dtype(name, lp, FLOATS[:3], "log_probs")
    if np.dtype(tg.dtype) not in _INTS:
        raise TypeError(f"For primitive[{name}], the input argument[targets] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{_name(tg.dtype)}].")
    if lp.ndim != 3:
        raise ValueError(f"For '{name}', the dimension of 'log_probs' must be 3, but got {lp.ndim}.")
    if tg.ndim != 2 or tg.shape[0] != lp.shape[1]:
        raise ValueError(f"For '{name}', the shape of 'targets' must be (N, S) with N = {lp.shape[1]}, "
                         f"but got {list(tg.shape)}.")
    il = jnp.broadcast_to(jnp.asarray(arr(input_lengths)), (lp.shape[1],)).astype(jnp.int32)
    tl = jnp.broadcast_to(jnp.asarray(arr(target_lengths)), (lp.shape[1],)).astype(jnp.int32)
    if not 0 <= blank < lp.shape[2]:
        raise ValueError(f"For '{name}', the 'blank' must be in [0, {lp.shape[2]}), but got {blank}.")
    return lp, tg.astype(jnp.int32), il, tl


@op("prim_ctc_loss_v2", primitive="CTCLossV2", prim_args=("blank", "reduction", "zero_infinity"), family="loss")
def prim_ctc_loss_v2(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="none",
                     zero_infinity=False):
    """``ops.CTCLossV2(blank=0, reduction='none', zero_infinity=False)(log_probs, targets, input_lengths,
    target_lengths)`` -> ``(neg_log_likelihood, log_alpha)``."""
    lp, tg, il, tl = _ctc_args("CTCLossV2", log_probs, targets, input_lengths, target_lengths, blank)
    nll, log_alpha = _ctc_loss_v2(lp, tg, il, tl, blank, zero_infinity)
    if reduction == "sum":
        nll = jnp.sum(nll)
    elif reduction == "mean":
        nll = jnp.mean(nll / jnp.maximum(tl, 1).astype(nll.dtype))
    return wrap(nll), wrap(log_alpha)


@op("ctc_loss", family="loss")
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """``ops.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean',
    zero_infinity=False)`` -> ``(loss, log_alpha)``; 'mean' divides each loss by its target length."""
    name = "ctc_loss"
    if isinstance(blank, bool) or not isinstance(blank, int):
        raise TypeError(f"For '{name}', the type of 'blank' should be int, but got {type(blank).__name__}.")
    if not isinstance(reduction, str):
        raise TypeError(f"For '{name}', the type of 'reduction' should be str, but got {type(reduction).__name__}.")
    if reduction not in ("none", "sum", "mean"):
        raise ValueError(f"For '{name}', the 'reduction' should be in ['none', 'sum', 'mean'], "
                         f"but got '{reduction}'.")
    if not isinstance(zero_infinity, bool):
        raise TypeError(f"For '{name}', the type of 'zero_infinity' should be bool, "
                        f"but got {type(zero_infinity).__name__}.")
    lp, tg, il, tl = _ctc_args("CTCLossV2", log_probs, targets, input_lengths, target_lengths, blank)
    loss, log_alpha = _ctc_loss_v2(lp, tg, il, tl, blank, zero_infinity)
    if reduction == "sum":
        loss = jnp.sum(loss)
    if reduction == "mean":
        dt = loss.dtype
        loss = jnp.mean(loss.astype(jnp.float32) / jnp.maximum(tl.astype(jnp.float32), 1.0)).astype(dt)
    return wrap(loss), wrap(log_alpha)


@op("prim_l2_loss", primitive="L2Loss", family="loss")
def l2_loss(input):
    """``ops.L2Loss()(x)``: ``sum(x ** 2) / 2``, a scalar of ``x``'s dtype."""
    _need_tensor("L2Loss", "input", input)
    x = input._data
    _float_input("L2Loss", x)
    return _out(jnp.sum(x * x) / 2)


def _ctc_sparse_check(**attrs):
    for k, v in attrs.items():
        if not isinstance(v, bool):
            raise TypeError(f"For 'CTCLoss', the type of '{k}' should be 'bool', but got type '{type(v).__name__}'.")


def _ctc_dense_labels(batch_of, values, n, num_classes, width, collapse):
    """MindSpore's sparse labels -> (N, width) targets and per-sample lengths. As in MindSpore's CPU kernel,
    sample b's labels are the next count(batch index == b) values in order; values >= num_classes - 1 (the
    blank) are dropped, and with ``collapse`` a value equal to the one before it in its sample."""
    counts = jnp.zeros(n, jnp.int32).at[batch_of].add(1, mode="drop")
    start = jnp.cumsum(counts) - counts
    k = jnp.arange(values.shape[0])
    b = jnp.clip(jnp.searchsorted(jnp.cumsum(counts), k, side="right"), 0, n - 1)
    first = k == start[b]
    prev = jnp.concatenate([values[:1], values[:-1]])
    keep = (values >= 0) & (values < num_classes - 1) & (first | jnp.logical_not(collapse) | (values != prev))
    per = jnp.zeros(n, jnp.int32).at[b].add(keep.astype(jnp.int32))
    pos = jnp.cumsum(keep) - 1 - (jnp.cumsum(per) - per)[b]                # position among the kept in b
    col = jnp.where(keep & (pos < width), pos, width)
    targets = jnp.zeros((n, width + 1), jnp.int32).at[b, col].set(values.astype(jnp.int32))[:, :width]
    return targets, per


@functools.partial(jax.jit, static_argnums=(4,))
def _ctc_sparse_kernel(x, batch_of, values, seq, width, collapse, merge):
    targets, tg_len = _ctc_dense_labels(batch_of, values, x.shape[1], x.shape[2], width, collapse)
    too_long = tg_len > width                                                # no path: infinite loss
    lp = jax.nn.log_softmax(x.astype(jnp.float32), axis=-1)
    nll, log_alpha, log_beta, lab, alive = _ctc_core(lp, targets, seq, jnp.minimum(tg_len, width), x.shape[2] - 1,
                                                     merge)
    grad = _ctc_grad(lp, nll, log_alpha, log_beta, lab, alive, True)        # no path: zero gradient
    nll = jnp.where(too_long, jnp.inf, nll)
    grad = jnp.where(too_long[None, :, None], 0, grad)
    return nll.astype(x.dtype), grad.astype(x.dtype)


# the compiled kernel sits inside the custom rule, so a gradient reuses the forward's compilation
@functools.partial(jax.custom_vjp, nondiff_argnums=(4,))
def _ctc_sparse(x, batch_of, values, seq, width, collapse, merge):
    return _ctc_sparse_kernel(x, batch_of, values, seq, width, collapse, merge)


def _ctc_sparse_fwd(x, batch_of, values, seq, width, collapse, merge):
    out = _ctc_sparse_kernel(x, batch_of, values, seq, width, collapse, merge)
    return out, out[1]


def _ctc_sparse_bwd(width, grad, g):
    # MindSpore's bprop: d inputs = gradient * d loss; the gradient output passes nothing back
    return grad * g[0][None, :, None].astype(grad.dtype), None, None, None, None, None


_ctc_sparse.defvjp(_ctc_sparse_fwd, _ctc_sparse_bwd)


def _ctc_sparse_errors(batch_of, values, seq, n, num_classes, max_time, collapse, ignore_longer):
    """MindSpore's run-time errors, where the values are known (not while tracing)."""
    cv = [_concrete(a) for a in (batch_of, values, seq)]
    if any(v is None for v in cv):
        return
    batch_of, values, seq = cv
    for s in seq:
        if s <= 0:
            raise RuntimeError(f"For 'CTCLoss, the 'sequence_length' must be greater than 0, but got {s}.")
        if s > max_time:
            raise RuntimeError(f"For 'CTCLoss, the 'max_time'(the 1st dimension value of 'probs') must be greater "
                               f"than or equal to 'sequence_length', but got 'max_time': {max_time} and "
                               f"'sequence_length': {s}")
    if batch_of.size and (batch_of.max() >= n or batch_of.min() < 0):
        raise RuntimeError(f"For 'CTCLoss, 'index' must be less than the length of 'label', but got 'index': "
                           f"{batch_of.max()} and the length of 'label': {n}")
    counts = np.bincount(batch_of, minlength=n)
    starts = np.cumsum(counts) - counts
    for b in range(n):
        label = values[starts[b]:starts[b] + counts[b]].astype(np.int64) % 2 ** 32   # read as uint32
        size, blank_seen = 0, False
        for i, v in enumerate(label):
            if i and collapse and v == label[i - 1]:
                continue
            if v >= num_classes - 1:
                blank_seen = True
            elif blank_seen:
                raise RuntimeError(f"For 'CTCLoss', the value of labels_values[{i}] must be in the range of "
                                   f"[0, num_classes), but got {v}")
            else:
                size += 1
        if not ignore_longer and size > seq[b]:
            raise RuntimeError(f"For 'CTCLoss, input time(sequence length) must be greater than output size(label "
                               f"length), but got sequence length: {seq[b]} and label length: {size}")


@op("prim_ctc_loss", primitive="CTCLoss", family="loss", prim_check=_ctc_sparse_check,
    prim_args=("preprocess_collapse_repeated", "ctc_merge_repeated", "ignore_longer_outputs_than_inputs"))
def prim_ctc_loss(x, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated=False,
                  ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False):
    """``ops.CTCLoss(preprocess_collapse_repeated=False, ctc_merge_repeated=True,
    ignore_longer_outputs_than_inputs=False)(x, labels_indices, labels_values, sequence_length)`` ->
    ``(loss, gradient)``: TensorFlow's sparse-label CTC on raw logits ``x`` (max_time, N, C), the blank the
    last class; ``gradient`` is d loss / d ``x``, and ``ms.grad`` through ``loss`` gives ``gradient * dloss``.

    Differences from MindSpore's CPU kernel: a sample with no labels gets the true CTC loss
    ``-sum(log softmax(x)[t, blank])`` (the kernel's last frame counts ``log(1 + p)`` instead, and a
    one-frame sequence is an error there); float16 is computed in float32 and rounded once; ``gradient``
    is zero past a sample's ``sequence_length`` (left unwritten there); the run-time errors on label
    values and lengths are raised only when the values are known (not inside a compiled function)."""
    inputs = (("inputs", x, FLOATS[:3]), ("labels_indices", labels_indices, _INTS[1:]),
              ("labels_values", labels_values, _INTS[:1]), ("sequence_length", sequence_length, _INTS[:1]))
    xa, idx, vals, seq = (check_dtype("CTCLoss", _is_tensor("CTCLoss", arg, v), d, arg) for arg, v, d in inputs)
    if xa.ndim != 3:
        raise ValueError(f"For primitive[CTCLoss], the inputs rank must be equal to 3, but got {xa.ndim}.")
    if idx.ndim != 2:
        raise ValueError(f"For primitive[CTCLoss], the label_indices rank must be equal to 2, but got {idx.ndim}.")
    if idx.shape[0] != vals.shape[0]:
        raise ValueError(f"For 'CTCLoss', the first dim of 'label_indices' and 'label_value' must be same, but "
                         f"got 'label_indices':{idx.shape[0]}, 'label_value': {vals.shape[0]}.")
    max_time, n, num_classes = xa.shape
    if seq.shape != (n,):
        raise ValueError(f"For 'CTCLoss', input batch_size must be same with 'sequence_length' batch_size, but "
                         f"got input batch_size:{n}, 'sequence_length' batch_size: {seq.shape[0]}.")
    batch_of = idx[:, 0]
    _ctc_sparse_errors(batch_of, vals, seq, n, num_classes, max_time, preprocess_collapse_repeated,
                       ignore_longer_outputs_than_inputs)
    # a sample longer than max_time has no path (infinite loss): the targets hold at most max_time labels
    loss, grad = _ctc_sparse(xa, batch_of, vals, seq, min(vals.shape[0], max_time),
                             jnp.asarray(preprocess_collapse_repeated), jnp.asarray(ctc_merge_repeated))
    return wrap(loss), wrap(grad)


def _greedy_check(merge_repeated=True):
    if not isinstance(merge_repeated, bool):
        raise TypeError(f"For 'CTCGreedyDecoder', the type of 'merge_repeated' should be 'bool', but got type "
                        f"'{type(merge_repeated).__name__}'.")


@op("ctc_greedy_decoder", primitive="CTCGreedyDecoder", prim_args=("merge_repeated",), family="loss",
    prim_check=_greedy_check)
def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    """``ops.ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True)`` (and ``ops.CTCGreedyDecoder``)
    -> ``(decoded_indices, decoded_values, decoded_shape, log_probability)``: the best class of each frame
    (the first on ties) over each sample's ``sequence_length`` frames, repeats merged with
    ``merge_repeated``, blanks (the last class) dropped; a sparse (Int64) result and ``-sum`` of the frames'
    largest logits. Its output shape depends on the values, so it runs op by op (not inside a compiled
    function), as ``ops.unique``."""
    name = "CTCGreedyDecoder"
    _greedy_check(merge_repeated)
    x = check_dtype(name, _is_tensor(name, "inputs", inputs), FLOATS[1:3], "inputs type")
    seq = check_dtype(name, _is_tensor(name, "sequence_length", sequence_length), _INTS[:1], "sequence length dtype")
    if x.ndim != 3:
        raise ValueError(f"For '{name}', inputs's dim must be 3, but got: {x.ndim}.")
    if seq.ndim != 1:
        raise ValueError(f"For '{name}', sequence_length's dims must be 1, but got: {seq.ndim}.")
    if seq.shape[0] != x.shape[1]:
        raise ValueError(f"For '{name}', inputs batch_size must be the same with sequence_length batch_size, but "
                         f"now inputs batch_size: {x.shape[1]} and sequence_length batch_size: {seq.shape[0]}.")
    xv, sv = _need_concrete(x, "ctc_greedy_decoder"), _need_concrete(seq, "ctc_greedy_decoder")
    max_time, n, blank = x.shape[0], x.shape[1], x.shape[2] - 1
    for b, s in enumerate(sv):
        if s > max_time:
            raise RuntimeError(f"For '{name}', sequence_length[{b}] {s} should be less than {max_time}.")
    best, top = xv.argmax(axis=2), xv.max(axis=2)
    indices, values, longest = [], [], 0
    for b in range(n):
        labels = best[:sv[b], b]
        keep = (labels != blank) & ~(merge_repeated & (np.arange(labels.size) > 0) & (labels == np.roll(labels, 1)))
        values.extend(labels[keep].tolist())
        indices.extend([b, j] for j in range(int(keep.sum())))
        longest = max(longest, int(keep.sum()))
    log_prob = np.array([-top[:s, b].sum(dtype=xv.dtype) for b, s in enumerate(sv)], xv.dtype)[:, None]
    return (wrap(jnp.asarray(np.array(indices, np.int64).reshape(-1, 2), jnp.int64)),
            wrap(jnp.asarray(np.array(values, np.int64), jnp.int64)),
            wrap(jnp.asarray(np.array([n, longest], np.int64), jnp.int64)), wrap(jnp.asarray(log_prob)))
