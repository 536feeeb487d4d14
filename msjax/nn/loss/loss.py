"""Loss Cells: ``nn.LossBase`` and every loss of ``mindspore.nn`` (MindSpore 2.10).

Each Cell mirrors ``mindspore/nn/loss/loss.py``: the same constructor arguments,
defaults and checks, and a ``construct`` that calls the registered functional op
(``msjax/ops/_impl/loss.py``) or, where MindSpore composes the loss itself
(``MSELoss``, ``MAELoss``, ``CosineEmbeddingLoss``, ``PoissonNLLLoss``...), the
same composition followed by ``LossBase.get_loss``.

Differences from MindSpore: ``SampledSoftmaxLoss`` draws its negative classes from
msjax's key (deterministic when ``sampled_values`` is given); ``SoftMarginLoss``,
``MultilabelMarginLoss`` and ``TripletMarginLoss`` compute the documented formula
where MindSpore 2.10 has no CPU kernel.
"""
from __future__ import annotations

import math as _math

import jax
import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, wrap
from ...ops._impl import loss as L
from ...ops._impl import activation as F
from ...ops import operations as _P
from ..cell import Cell

__all__ = ["LossBase", "L1Loss", "L1LossExt", "MSELoss", "RMSELoss", "MAELoss", "MarginRankingLoss",
           "SmoothL1Loss", "SoftMarginLoss", "SoftmaxCrossEntropyWithLogits", "DiceLoss", "MultiClassDiceLoss",
           "SampledSoftmaxLoss", "TripletMarginWithDistanceLoss", "PoissonNLLLoss", "MultiLabelSoftMarginLoss",
           "MultiMarginLoss", "BCELoss", "CosineEmbeddingLoss", "MultilabelMarginLoss", "BCEWithLogitsLoss",
           "FocalLoss", "HuberLoss", "TripletMarginLoss", "NLLLoss", "CrossEntropyLoss", "KLDivLoss", "CTCLoss",
           "GaussianNLLLoss", "HingeEmbeddingLoss"]


def _typeof(x):
    if isinstance(x, (list, tuple)):
        return f"{type(x).__name__.capitalize()}"
    return {bool: "Bool", int: "Int64", float: "Float32", str: "String"}.get(type(x), type(x).__name__)


def _check_is_tensor(param_name, input_data, cls_name):
    if input_data is not None and not isinstance(input_data, Tensor):
        raise TypeError(f"For '{cls_name}', the '{param_name}' must be 'Tensor', but got '{_typeof(input_data)}'")


def _check_value_type(arg_name, value, types, cls_name):
    if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
        names = [t.__name__ for t in types]
        raise TypeError(f"For '{cls_name}', the type of '{arg_name}' should be "
                        f"{names[0] if len(names) == 1 else names}, but got type '{type(value).__name__}'.")
    return value


def _check_dtype_name(arg_name, dtype, allowed, cls_name):
    if dtype not in allowed:
        raise TypeError(f"For '{cls_name}', the '{arg_name}' should be one of {[str(a) for a in allowed]}, "
                        f"but got {dtype}.")


def _arr(x):
    return x._data if isinstance(x, Tensor) else jnp.asarray(x)


class LossBase(Cell):
    """``nn.LossBase(reduction='mean')``: base of losses; ``get_loss(x, weights=1.0)`` weights ``x`` and applies
    the reduction in Float32, then casts back to ``x``'s dtype (MindSpore's behaviour)."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"For '{type(self).__name__}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                             f"but got {reduction}.")
        self.average = True
        self.reduce = True
        if reduction == "sum":
            self.average = False
        if reduction == "none":
            self.reduce = False

    @property
    def cls_name(self):
        return type(self).__name__

    def get_axis(self, x):
        """All axes of ``x``, as a tuple."""
        return tuple(range(len(x.shape)))

    def get_loss(self, x, weights=1.0):
        """``weights * x`` reduced as the Cell's ``reduction``, computed in Float32, in ``x``'s dtype."""
        xa = _arr(x)
        input_dtype = xa.dtype
        w = _arr(weights).astype(jnp.float32)
        xa = w * xa.astype(jnp.float32)
        if self.reduce and self.average:
            xa = jnp.mean(xa, axis=self.get_axis(xa))
        if self.reduce and not self.average:
            xa = jnp.sum(xa, axis=self.get_axis(xa))
        return wrap(xa.astype(input_dtype))

    def construct(self, logits, labels):
        raise NotImplementedError


# --- regression -----------------------------------------------------------------------------
class L1Loss(LossBase):
    """``nn.L1Loss(reduction='mean')``."""

    def __init__(self, reduction="mean"):
        super().__init__(reduction)
        self.reduction = reduction

    def construct(self, logits, labels):
        return L.l1_loss(logits, labels, self.reduction)


class L1LossExt(LossBase):
    """``nn.L1LossExt(reduction='mean')``: ``|logits - labels|`` reduced in the input dtype."""

    def __init__(self, reduction="mean"):
        super().__init__(reduction)
        self.reduction = reduction

    def construct(self, logits, labels):
        return L.l1_loss_ext(logits, labels, self.reduction)


class MSELoss(LossBase):
    """``nn.MSELoss(reduction='mean')``: ``(logits - labels) ** 2``, reduced."""

    def construct(self, logits, labels):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        return self.get_loss(jnp.square(logits._data - labels._data))


_UINTS = (mstype.uint8, mstype.uint16, mstype.uint32, mstype.uint64)


class RMSELoss(LossBase):
    """``nn.RMSELoss()``: ``sqrt(mean((logits - label) ** 2))``."""

    def __init__(self):
        super().__init__()
        self.MSELoss = MSELoss()

    def construct(self, logits, label):
        for t in (logits, label):
            if t.dtype in _UINTS:
                raise TypeError(f"For 'RMSELoss', the parameters data type must not be in {list(_UINTS)}, "
                                f"but got mindspore.{str(t.dtype).lower()}.")
        return wrap(jnp.sqrt(self.MSELoss(logits, label)._data))


class MAELoss(LossBase):
    """``nn.MAELoss(reduction='mean')``: ``|logits - label|``, reduced."""

    def construct(self, logits, label):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", label, self.cls_name)
        return self.get_loss(jnp.abs(logits._data - label._data))


class SmoothL1Loss(LossBase):
    """``nn.SmoothL1Loss(beta=1.0, reduction='none')``."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = beta
        self.reduction = reduction

    def construct(self, logits, labels):
        return L.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class HuberLoss(LossBase):
    """``nn.HuberLoss(reduction='mean', delta=1.0)``."""

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.reduction = reduction
        self.delta = delta

    def construct(self, logits, labels):
        return L.huber_loss(logits, labels, self.reduction, self.delta)


class GaussianNLLLoss(LossBase):
    """``nn.GaussianNLLLoss(*, full=False, eps=1e-6, reduction='mean')``."""

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__()
        if isinstance(eps, bool) or not isinstance(eps, (int, float)):
            raise TypeError(f"For 'GaussianNLLLoss', the type of 'eps' should be float, "
                            f"but got type '{type(eps).__name__}'.")
        if not 0 < eps < float("inf"):
            raise ValueError(f"For 'GaussianNLLLoss', the 'eps' must be in range of (0, inf), but got {eps}.")
        _check_value_type("full", full, (bool,), self.cls_name)
        if reduction not in ("none", "mean", "sum"):
            raise ValueError(f"For 'gaussian_nll_loss', the 'reduction' must be str and must be in "
                             f"['none', 'mean', 'sum'], but got '{reduction}'.")
        self.full = full
        self.eps = eps
        self.reduction = reduction

    def construct(self, logits, labels, var):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        _check_is_tensor("var", var, self.cls_name)
        return L.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class PoissonNLLLoss(LossBase):
    """``nn.PoissonNLLLoss(log_input=True, full=False, eps=1e-08, reduction='mean')``."""

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction=reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def construct(self, input, target):
        _check_is_tensor("input", input, self.cls_name)
        _check_is_tensor("target", target, self.cls_name)
        x = input._data
        t = target._data.astype(x.dtype)
        if self.log_input:
            loss = jnp.exp(x) - t * x
        else:
            loss = x - t * jnp.log(x + self.eps)
        if self.full:
            t = jnp.maximum(t, jnp.asarray(self.eps, t.dtype))
            stirling = (t > 1) * ((t + 0.5) * jnp.log(t) - t + 0.5 * _math.log(2 * _math.pi))
            loss = loss + jnp.where(t <= 1, jnp.zeros((), stirling.dtype), stirling)
        return self.get_loss(loss)


# --- margin / embedding -------------------------------------------------------------------------
class MarginRankingLoss(LossBase):
    """``nn.MarginRankingLoss(margin=0.0, reduction='mean')``."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.reduction = reduction
        self.margin = margin

    def construct(self, input1, input2, target):
        return L.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class SoftMarginLoss(LossBase):
    """``nn.SoftMarginLoss(reduction='mean')``."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def construct(self, logits, labels):
        return L.soft_margin_loss(logits, labels, self.reduction)


class HingeEmbeddingLoss(LossBase):
    """``nn.HingeEmbeddingLoss(margin=1.0, reduction='mean')``."""

    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__()
        _check_value_type("margin", margin, (float, int), self.cls_name)
        if reduction not in ("none", "sum", "mean"):
            raise ValueError(f"For '{self.cls_name}', the 'reduction' must be str and must be in "
                             f"['none', 'sum', 'mean'], but got '{reduction}'.")
        self.margin = margin
        self.reduction = reduction

    def construct(self, logits, labels):
        return L.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class CosineEmbeddingLoss(LossBase):
    """``nn.CosineEmbeddingLoss(margin=0.0, reduction='mean')``."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        _check_value_type("margin", margin, (float,), self.cls_name)
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'margin' must be in range [-1.0, 1.0], but got {margin}.")
        self.margin = margin

    def construct(self, logits_x1, logits_x2, labels):
        _check_is_tensor("logits_x1", logits_x1, self.cls_name)
        _check_is_tensor("logits_x2", logits_x2, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        x1, x2 = logits_x1._data, logits_x2._data
        if x1.dtype != x2.dtype:
            raise TypeError(f"For 'same_type_shape', the type of 'input_x' should be same as 'input_y', "
                            f"but got {F._name(x1.dtype)} and {F._name(x2.dtype)}.")
        if x1.shape != x2.shape:
            raise ValueError(f"For 'same_type_shape', the shape of 'input_x' should be same as 'input_y', "
                             f"but got {list(x1.shape)} and {list(x2.shape)}.")
        loss = L._cosine_select(L._cosine(x1, x2), labels._data, self.margin)
        return self.get_loss(loss)


class MultiMarginLoss(LossBase):
    """``nn.MultiMarginLoss(p=1, margin=1.0, reduction='mean', weight=None)``."""

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__()
        self.p = p
        self.margin = margin
        self.reduction = reduction
        self.weight = weight

    def construct(self, x, target, weight=None):
        _check_is_tensor("x", x, self.cls_name)
        _check_is_tensor("target", target, self.cls_name)
        if self.weight is not None:
            weight = self.weight
        if weight is not None:
            _check_is_tensor("weight", weight, self.cls_name)
        else:
            weight = wrap(jnp.ones(x.shape[1:2], x._data.dtype))
        return L.prim_multi_margin_loss(x, target, weight, p=self.p, margin=self.margin, reduction=self.reduction)


class MultilabelMarginLoss(LossBase):
    """``nn.MultilabelMarginLoss(reduction='mean')``."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def construct(self, x, target):
        return L.prim_multilabel_margin_loss(x, target, reduction=self.reduction)[0]


class MultiLabelSoftMarginLoss(LossBase):
    """``nn.MultiLabelSoftMarginLoss(weight=None, reduction='mean')``."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight
        self.reduction = reduction

    def construct(self, x, target):
        return L.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class TripletMarginLoss(LossBase):
    """``nn.TripletMarginLoss(p=2, swap=False, eps=1e-06, reduction='mean', margin=1.0)``; ``construct(x, positive,
    negative, margin=1.0)`` (the constructor's margin wins when it is not 1.0)."""

    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean", margin=1.):
        super().__init__()
        self.p = p
        self.swap = swap
        self.eps = eps
        self.reduction = reduction
        self.margin = margin

    def construct(self, x, positive, negative, margin=1.):
        if self.margin != 1.0:
            margin = self.margin
        return L.triplet_margin_loss(x, positive, negative, margin=margin, p=self.p, eps=self.eps,
                                     swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(LossBase):
    """``nn.TripletMarginWithDistanceLoss(distance_function=None, swap=False, reduction='mean', margin=1.0)``;
    the default distance is the 2-norm of ``|x - y|`` along axis 1."""

    def __init__(self, distance_function=None, swap=False, reduction="mean", margin=1.0):
        super().__init__(reduction=reduction)
        if isinstance(margin, bool) or not isinstance(margin, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'margin' should be float, "
                            f"but got type '{type(margin).__name__}'.")
        _check_value_type("swap", swap, (bool,), self.cls_name)
        if distance_function is None:
            def pairwise_distance(x, y):
                d = jnp.abs(x._data - y._data)
                if d.ndim == 0:
                    raise ValueError("For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', "
                                     f"'ndim' of the input must be positive, but got {d.ndim}")
                return wrap(jnp.sqrt(jnp.sum(d * d, axis=1)))
            self.distance_function = pairwise_distance
        else:
            self.distance_function = distance_function
        self.swap = swap
        self.reduction = reduction
        self.margin = margin

    def construct(self, x, positive, negative):
        _check_is_tensor("x", x, self.cls_name)
        _check_is_tensor("positive", positive, self.cls_name)
        _check_is_tensor("negative", negative, self.cls_name)
        d1 = _arr(self.distance_function(x, positive))
        d2 = _arr(self.distance_function(x, negative))
        if self.swap:
            d2 = jnp.minimum(d2, _arr(self.distance_function(positive, negative)))
        loss = jnp.maximum(d1 - d2 + self.margin, 0).astype(d1.dtype)
        return self.get_loss(loss)


# --- classification -----------------------------------------------------------------------------
class SoftmaxCrossEntropyWithLogits(LossBase):
    """``nn.SoftmaxCrossEntropyWithLogits(sparse=False, reduction='none')``; with ``sparse=True`` the labels are
    class indices (one-hot in Float32; ``reduction='mean'`` uses the sparse kernel)."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        _check_value_type("sparse", sparse, (bool,), self.cls_name)
        self.sparse = sparse
        self.reduction = reduction

    def construct(self, logits, labels):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        if self.sparse:
            if self.reduction == "mean":
                return L.prim_sparse_softmax_cross_entropy_with_logits(logits, labels)
            t = labels._data
            if not jnp.issubdtype(t.dtype, jnp.integer):
                raise TypeError(f"For 'OneHot', the 'indices' must be int32 or int64, but got {F._name(t.dtype)}.")
            labels = wrap(jax.nn.one_hot(t, logits.shape[-1], dtype=jnp.float32))
        x = L.prim_softmax_cross_entropy_with_logits(logits, labels)[0]
        return self.get_loss(x)


class CrossEntropyLoss(LossBase):
    """``nn.CrossEntropyLoss(weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)``: class-index
    labels must be Int32, probability labels Float16/Float32 with the logits' shape."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        _check_value_type("ignore_index", ignore_index, (int,), self.cls_name)
        _check_value_type("label_smoothing", label_smoothing, (float,), self.cls_name)
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'label_smoothing' must be in range [0.0, 1.0], "
                             f"but got {label_smoothing}.")
        if weight is not None:
            _check_value_type("weight", weight, (Tensor,), self.cls_name)
            _check_dtype_name("weight", weight.dtype, (mstype.float16, mstype.float32), self.cls_name)
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def construct(self, logits, labels):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        _check_cross_entropy_inputs(logits.shape, labels.shape, logits.ndim, labels.ndim, logits.dtype,
                                    labels.dtype, self.cls_name)
        return L.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


def _check_cross_entropy_inputs(logits_shape, label_shape, logits_rank, label_rank, logits_dtype, label_dtype,
                                prim_name):
    _check_dtype_name("logits", logits_dtype, (mstype.float16, mstype.float32), prim_name)
    if logits_rank == label_rank:
        _check_dtype_name("labels", label_dtype, (mstype.float16, mstype.float32), prim_name)
        if logits_shape != label_shape:
            raise ValueError(f"For '{prim_name}', the shape of 'logits' should be (N, C, d_0, d_1, ...), "
                             f"and the shape of 'labels' should be (N, C, d_0, d_1, ...), "
                             f"but get 'logits' shape: {logits_shape} and 'labels' shape: {label_shape}.")
    elif label_rank == logits_rank - 1:
        _check_dtype_name("labels", label_dtype, (mstype.int32,), prim_name)
        if logits_rank != 1:
            if (logits_shape[0], *logits_shape[2:]) != tuple(label_shape):
                raise ValueError(f"For '{prim_name}', the shape of 'logits' should be (N, C, d_0, d_1, ...), "
                                 f"and the shape of 'labels' should be (N, d_0, d_1, ...), "
                                 f"but get 'logits' shape: {logits_shape} and 'labels' shape: {label_shape}.")
    else:
        raise ValueError(f"For '{prim_name}', the rank of 'logits' and 'labels' should be:\n"
                         f"1. 'logits.ndim == labels.ndim' for probabilities, \n"
                         f"2. 'logits.ndim - 1 == labels.ndim' for class indices, \n"
                         f"but get 'logits' rank: {logits_rank} and 'labels' rank: {label_rank}.")


class NLLLoss(LossBase):
    """``nn.NLLLoss(weight=None, ignore_index=-100, reduction='mean')``."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        _check_value_type("ignore_index", ignore_index, (int,), self.cls_name)
        if weight is not None:
            _check_value_type("weight", weight, (Tensor,), self.cls_name)
            _check_dtype_name("weight", weight.dtype, (mstype.float16, mstype.float32), self.cls_name)
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction

    def construct(self, logits, labels):
        return L.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class BCELoss(LossBase):
    """``nn.BCELoss(weight=None, reduction='mean')``."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.reduction = reduction
        self.weight = weight

    def construct(self, logits, labels):
        return L.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """``nn.BCEWithLogitsLoss(reduction='mean', weight=None, pos_weight=None)``."""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__()
        self.reduction = reduction
        if isinstance(weight, Parameter):
            raise TypeError(f"For '{self.cls_name}', the 'weight' can not be a Parameter.")
        if isinstance(pos_weight, Parameter):
            raise TypeError(f"For '{self.cls_name}', the 'pos_weight' can not be a Parameter.")
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, input, target):
        _check_is_tensor("input", input, self.cls_name)
        _check_is_tensor("target", target, self.cls_name)
        return L.binary_cross_entropy_with_logits(input, target, self.weight, self.pos_weight, self.reduction)


class KLDivLoss(LossBase):
    """``nn.KLDivLoss(reduction='mean')``; reductions 'none', 'mean', 'batchmean' and 'sum'."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def construct(self, logits, labels):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        return L.kl_div(logits, labels, self.reduction)


class CTCLoss(LossBase):
    """``nn.CTCLoss(blank=0, reduction='mean', zero_infinity=False)``; ``log_probs`` (T, N, C) or unbatched (T, C)."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        self.blank = blank
        self.reduction = reduction
        self.zero_infinity = zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        _check_is_tensor("log_probs", log_probs, self.cls_name)
        _check_is_tensor("targets", targets, self.cls_name)
        if log_probs.ndim == 2:
            if targets.ndim > 2:
                raise ValueError(f"For CTCLoss, when the shape of log_probs is (T, C), the dimension of targets "
                                 f"shouldbe 1 or 2, but got {targets.ndim}.")
            if targets.ndim == 2 and targets.shape[0] != 1:
                raise ValueError(f"For CTCLoss, the first dimension of 2-D targets should be 1,"
                                 f"but got {targets.shape[0]}.")
            if targets.ndim == 1:
                targets = wrap(jnp.expand_dims(targets._data, 0))
            log_probs = wrap(jnp.expand_dims(log_probs._data, -2))
            neg_log_hood, _ = L.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                                         self.reduction, self.zero_infinity)
            x = neg_log_hood._data
            return wrap(jnp.squeeze(x, 0) if x.ndim and x.shape[0] == 1 else x)
        neg_log_hood, _ = L.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                                     self.reduction, self.zero_infinity)
        return neg_log_hood


class FocalLoss(LossBase):
    """``nn.FocalLoss(weight=None, gamma=2.0, reduction='mean')`` (deprecated in MindSpore 2.8, still present)."""

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction=reduction)
        self.gamma = _check_value_type("gamma", gamma, (float,), self.cls_name)
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For '{self.cls_name}', the type of 'weight' must be a Tensor, "
                            f"but got {type(weight).__name__}.")
        if isinstance(weight, Tensor) and weight.ndim != 1:
            raise ValueError(f"For '{self.cls_name}', the dimension of 'weight' must be 1, but got {weight.ndim}.")
        self.weight = weight

    def construct(self, logits, labels):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        name = self.cls_name
        if logits.ndim < 2 or logits.ndim > 4:
            raise ValueError(f"For '{name}', the dimensions of 'logits' must be in [2, 4], but got "
                             f"dimension of 'logits' {logits.ndim}.")
        if labels.ndim < 2 or labels.ndim > 4:
            raise ValueError(f"For '{name}', the dimensions of 'labels' must be in [2, 4], but got "
                             f"dimension of 'labels' {labels.ndim}.")
        if logits.ndim != labels.ndim:
            raise ValueError(f"For '{name}', the dimensions of 'logits' and 'labels' must be equal, but got "
                             f"dimension of 'logits' {logits.ndim} and dimension of 'labels' {labels.ndim}.")
        c, lc = logits.shape[1], labels.shape[1]
        if c == 1:
            raise ValueError(f"For '{name}', the 'logits'.shape[1] cannot be one, but got {c}.")
        if lc not in (1, c):
            raise ValueError(f"For '{name}', the 'labels'.shape[1] must be one or equal to 'logits'.shape[1]: {c}, "
                             f"but got {lc}.")
        _check_dtype_name("labels", labels.dtype, (mstype.int32, mstype.int64, mstype.float16, mstype.float32),
                          name)
        x, y = logits._data, labels._data
        if x.ndim > 2:
            x = jnp.reshape(x, (x.shape[0], x.shape[1], -1))
            y = jnp.reshape(y, (y.shape[0], y.shape[1], -1))
        else:
            x = jnp.expand_dims(x, 2)
            y = jnp.expand_dims(y, 2)
        logp = jax.nn.log_softmax(x, axis=1)
        if lc == 1:
            logp = jnp.squeeze(jnp.take_along_axis(logp, y.astype(jnp.int32), axis=1), 1)
        prob = jnp.exp(logp)
        if self.weight is not None:
            w = jnp.tile(self.weight._data[None, :, None], (y.shape[0], 1, y.shape[2]))
            if lc == 1:
                w = jnp.squeeze(jnp.take_along_axis(w, y.astype(jnp.int32), axis=1), 1)
            logp = logp * w
        weight = jnp.power(-1 * prob + 1.0, self.gamma)
        if lc == 1:
            loss = jnp.mean(-1 * weight * logp, axis=1)
        else:
            loss = jnp.mean(-1 * weight * y * logp, axis=-1)
        return self.get_loss(loss)


class DiceLoss(LossBase):
    """``nn.DiceLoss(smooth=1e-5)`` (deprecated in MindSpore 2.8, still present)."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float):
            raise TypeError(f"The type of 'smooth' should be float, but got type '{type(smooth).__name__}'.")
        if smooth <= 0:
            raise ValueError(f"The 'smooth' must be a positive float, but got {smooth}.")
        self.smooth = smooth

    def construct(self, logits, label):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", label, self.cls_name)
        if logits.shape != label.shape:
            raise ValueError(f"For '{self.cls_name}', the 'logits_shape' must be equal to 'label_shape', "
                             f"but got 'logits_shape': {logits.shape} and 'label_shape': {label.shape}.")
        if logits.dtype == mstype.uint8:
            raise TypeError(f"For '{self.cls_name}', the dtype of 'logits' can not be uint8.")
        if label.dtype == mstype.uint8:
            raise TypeError(f"For '{self.cls_name}', the dtype of 'labels' can not be uint8.")
        x = jnp.ravel(logits._data)
        y = jnp.ravel(label._data)
        intersection = jnp.sum(x * y)
        unionset = jnp.sum(x * x) + jnp.sum(y * y)
        single_dice_coeff = (2 * intersection) / (unionset + self.smooth)
        return wrap(1 - single_dice_coeff)


class MultiClassDiceLoss(LossBase):
    """``nn.MultiClassDiceLoss(weights=None, ignore_indiex=None, activation='softmax')`` (MindSpore's spelling
    ``ignore_indiex``; deprecated in MindSpore 2.8, still present)."""

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        activation_list = ["softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid"]
        self.binarydiceloss = DiceLoss(smooth=1e-5)
        if weights is not None:
            _check_value_type("weights", weights, (Tensor,), "MultiClassDiceLoss")
            if weights.ndim != 2:
                raise ValueError(f"For '{self.cls_name}', the dimension of 'weights' must be 2, "
                                 f"but got {weights.ndim}.")
        self.weights = weights
        if ignore_indiex is not None:
            _check_value_type("ignore_indiex", ignore_indiex, (int,), "MultiClassDiceLoss")
        self.ignore_indiex = ignore_indiex
        if isinstance(activation, str) and activation not in activation_list:
            raise ValueError(f"For '{self.cls_name}', the 'activation' must be in {activation_list}, "
                             f"but got {activation}.")
        from ..layer.activation import get_activation
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if self.activation is not None and not isinstance(self.activation, Cell):
            raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell, "
                            f"but got {type(self.activation)}.")

    def construct(self, logits, label):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", label, self.cls_name)
        if logits.shape != label.shape:
            raise ValueError(f"For '{self.cls_name}', the 'logits_shape' must be equal to 'label_shape', "
                             f"but got 'logits_shape': {logits.shape} and 'label_shape': {label.shape}.")
        if logits.ndim < 2:
            raise ValueError(f"For '{self.cls_name}', the 'logits' dimension must be greater than 1, "
                             f"but got {logits.ndim}.")
        if label.ndim < 2:
            raise ValueError(f"For '{self.cls_name}', the 'labels' dimension must be greater than 1, "
                             f"but got {label.ndim}.")
        total_loss = 0
        if self.activation is not None:
            logits = self.activation(logits)
        for i in range(label.shape[1]):
            if i != self.ignore_indiex:
                dice_loss = self.binarydiceloss(logits[:, i], label[:, i])
                if self.weights is not None:
                    if self.weights.shape[0] != label.shape[1]:
                        raise ValueError(f"For '{self.cls_name}', the weight_shape[0] must be equal to "
                                         f"label_shape[1], but got weight_shape[0]: {self.weights.shape[0]} and "
                                         f"label_shape[1]: {label.shape[1]}.")
                    dice_loss = dice_loss * self.weights[i]
                total_loss += dice_loss
        return total_loss / label.shape[1]


class SampledSoftmaxLoss(LossBase):
    """``nn.SampledSoftmaxLoss(num_sampled, num_classes, num_true=1, sampled_values=None,
    remove_accidental_hits=True, seed=0, reduction='none')``; ``construct(weights, biases, labels, logits)``.
    Negative classes come from ``ops.UniformCandidateSampler(num_true, num_sampled, True, num_classes, seed,
    remove_accidental_hits)``, MindSpore's CPU kernel's draws (``seed=0``: a random seed, as in MindSpore)."""

    def __init__(self, num_sampled, num_classes, num_true=1, sampled_values=None, remove_accidental_hits=True,
                 seed=0, reduction="none"):
        super().__init__(reduction)
        name = self.cls_name
        if num_true < 1:
            raise ValueError(f"For '{name}', the 'num_true' must be greater than or equal to 1, but got {num_true}.")
        if seed < 0:
            raise ValueError(f"For '{name}', the 'seed' must be greater than or equal to 0, but got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(f"For '{name}', the 'num_sampled' must be smaller than or "
                             f"equal to 'num_classes', but got 'num_sampled': {num_sampled} "
                             f"and 'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise ValueError(f"For '{name}', the 'num_true' must be smaller than or equal to 'num_classes', "
                             f"but got 'num_true': {num_true} amd 'num_classes': {num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"For '{name}', the type of 'sampled_values' must be a list or tuple, "
                                f"but got {type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ValueError(f"For '{name}', the length of 'sampled_values' must be equal to 3,"
                                 f"but got {len(sampled_values)}.")
        self.num_sampled = num_sampled
        self.num_classes = num_classes
        self.num_true = num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits = remove_accidental_hits
        self.seed = seed
        self.sampler = _P.UniformCandidateSampler(num_true, num_sampled, True, num_classes, seed, remove_accidental_hits)

    def construct(self, weights, biases, labels, logits):
        for n, v in (("weights", weights), ("biases", biases), ("labels", labels), ("logits", logits)):
            _check_is_tensor(n, v, self.cls_name)
        if labels.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{self.cls_name}', the 'labels' should be one of ['Int32', 'Int64'], "
                            f"but got {labels.dtype}.")
        out_logits, out_labels = self._compute_sampled_logits(weights._data, biases._data, labels._data,
                                                              logits._data, self.num_true, self.sampled_values)
        stable = jnp.exp(out_logits - jnp.max(out_logits, axis=1, keepdims=True))
        pred = stable / jnp.sum(stable, axis=1, keepdims=True)
        return wrap(-1 * jnp.sum(out_labels * jnp.log(pred + 1.0e-20), axis=1))

    def _compute_sampled_logits(self, weights, biases, labels, logits, num_true=1, sampled_values=None):
        labels = jnp.reshape(labels.astype(jnp.int32), (-1, num_true))
        labels_flat = jnp.reshape(labels, (-1,))
        if sampled_values is None:
            sampled_values = self.sampler(wrap(labels))
        sampled, true_expected_count, sampled_expected_count = (_arr(v) for v in sampled_values)
        sampled = sampled.astype(jnp.int32)
        all_ids = jnp.concatenate([labels_flat, sampled])
        all_w = weights[all_ids]
        n_true = labels_flat.shape[0]
        true_w, sampled_w = all_w[:n_true], all_w[n_true:]
        sampled_logits = logits @ sampled_w.T
        all_b = biases[all_ids]
        true_b, sampled_b = all_b[:n_true], all_b[n_true:]
        n_dim = all_w.shape[1]
        row_wise_dots = jnp.expand_dims(logits, 1) * jnp.reshape(true_w, (-1, num_true, n_dim))
        true_logits = jnp.reshape(jnp.sum(jnp.reshape(row_wise_dots, (-1, n_dim)), axis=1), (-1, num_true))
        true_logits = true_logits + jnp.reshape(true_b, (-1, num_true))
        sampled_logits = sampled_logits + sampled_b
        true_logits = true_logits - jnp.log(true_expected_count)
        sampled_logits = sampled_logits - jnp.log(sampled_expected_count)
        out_logits = jnp.concatenate([true_logits, sampled_logits], axis=1)
        out_labels = jnp.concatenate([jnp.ones_like(true_logits) / num_true, jnp.zeros_like(sampled_logits)], axis=1)
        return out_logits, out_labels


class _Loss(LossBase):
    """MindSpore's deprecated ``nn.loss.loss._Loss`` (use ``LossBase``): a ``LossBase``
    that logs MindSpore's deprecation warning."""

    def __init__(self, reduction="mean"):
        from ... import log
        log.warning("'_Loss' is deprecated from version 1.3 and will be removed after version 2.9.0, "
                    "use 'LossBase' instead.")
        super().__init__(reduction)

    def construct(self, logits, labels):
        raise NotImplementedError
