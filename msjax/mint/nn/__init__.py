"""``mindspore.mint.nn``: torch-style layers and losses.

Where MindSpore's mint takes a ``mindspore.nn`` class (``Linear``, ``Identity``, the ``*Ext``
layers: ``Embedding``, ``LayerNorm``, ``MaxPool2d``, ``Dropout``...), this module re-exports
msjax's one class. The others are small Cells whose ``construct`` calls
``mint.nn.functional``; their Parameters have MindSpore's (torch's) names (``weight``,
``bias``, ``running_mean``, ``running_var``, ``num_batches_tracked``) and initialisers.

Differences from MindSpore 2.10: ``SyncBatchNorm`` is ``BatchNorm`` (one process: there is
nothing to synchronise until data-parallel training lands); ``empty``-initialised
Parameters are initialised as ``reset_parameters`` does.
"""
from __future__ import annotations

from ...nn.cell import Cell
from ...nn import (AdaptiveMaxPool2d, SoftMarginLoss, EmbeddingExt as Embedding,  # noqa: F401
                   MaxPool2dExt as MaxPool2d, LayerNormExt as LayerNorm, Linear, Identity, ReLU,
                   DropoutExt as Dropout, Dropout2dExt as Dropout2d, LogSoftmaxExt as LogSoftmax,
                   PReLUExt as PReLU, AvgPool1dExt as AvgPool1d, AvgPool2dExt as AvgPool2d, AvgPool3dExt as AvgPool3d,
                   SoftShrink as Softshrink, HShrink as Hardshrink, HSigmoid as Hardsigmoid, HSwish as Hardswish,
                   L1LossExt as L1Loss)
from . import functional
from .functional import cross_entropy  # noqa: F401  (mindspore.mint.nn.cross_entropy)
from . import functional as F
from .layer import *  # noqa: F401,F403,E402
from . import layer  # noqa: E402,F401


# ---------------------------------------------------------------------------
# losses (MindSpore defines them in mint/nn/__init__.py too)
# ---------------------------------------------------------------------------

class _Loss(Cell):
    """A loss Cell: ``construct(input, target)`` is one functional call with the stored keywords."""

    _fn = None

    def __init__(self, **kw):
        super().__init__()
        if kw.get("reduction", "mean") not in ("none", "mean", "sum", "batchmean"):
            raise ValueError(f"For '{type(self).__name__}', 'reduction' must be 'none', 'mean' or 'sum', but got "
                             f"{kw['reduction']!r}.")
        self._kw = kw
        for k, v in kw.items():
            setattr(self, k, v)

    def construct(self, input, target):
        return type(self)._fn(input, target, **self._kw)


class BCELoss(_Loss):
    """``mint.nn.BCELoss(weight=None, reduction='mean')``."""
    _fn = staticmethod(F.binary_cross_entropy)

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(weight=weight, reduction=reduction)


class BCEWithLogitsLoss(_Loss):
    """``mint.nn.BCEWithLogitsLoss(weight=None, reduction='mean', pos_weight=None)``."""
    _fn = staticmethod(F.binary_cross_entropy_with_logits)

    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(weight=weight, reduction=reduction, pos_weight=pos_weight)


class CrossEntropyLoss(_Loss):
    """``mint.nn.CrossEntropyLoss(weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)``."""
    _fn = staticmethod(F.cross_entropy)

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction,
                         label_smoothing=label_smoothing)


class NLLLoss(_Loss):
    """``mint.nn.NLLLoss(weight=None, ignore_index=-100, reduction='mean')``."""
    _fn = staticmethod(F.nll_loss)

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction)


class KLDivLoss(_Loss):
    """``mint.nn.KLDivLoss(reduction='mean', log_target=False)``."""
    _fn = staticmethod(F.kl_div)

    def __init__(self, reduction="mean", log_target=False):
        super().__init__(reduction=reduction, log_target=log_target)


class MSELoss(_Loss):
    """``mint.nn.MSELoss(reduction='mean')``."""
    _fn = staticmethod(F.mse_loss)

    def __init__(self, reduction="mean"):
        super().__init__(reduction=reduction)


class SmoothL1Loss(_Loss):
    """``mint.nn.SmoothL1Loss(reduction='mean', beta=1.0)``."""
    _fn = staticmethod(F.smooth_l1_loss)

    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(reduction=reduction, beta=beta)


class CosineEmbeddingLoss(Cell):
    """``mint.nn.CosineEmbeddingLoss(margin=0.0, reduction='mean')``: ``construct(input1, input2, target)``."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__()
        self.margin, self.reduction = margin, reduction

    def construct(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, self.margin, self.reduction)


__all__ = sorted([n for n in list(globals()) if not n.startswith("_") and n[0].isupper() and n != "F"]
                 + ["cross_entropy"])
