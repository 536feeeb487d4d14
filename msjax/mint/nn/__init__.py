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

import math

import numpy as np

from ... import ops as _ops
from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor
from ...common.initializer import HeUniform, Uniform, initializer
from ...nn.cell import Cell
from ...nn import (AdaptiveMaxPool2d, SoftMarginLoss, EmbeddingExt as Embedding,  # noqa: F401
                   MaxPool2dExt as MaxPool2d, LayerNormExt as LayerNorm, Linear, Identity, ReLU,
                   DropoutExt as Dropout, Dropout2dExt as Dropout2d, LogSoftmaxExt as LogSoftmax,
                   PReLUExt as PReLU, AvgPool1dExt as AvgPool1d, AvgPool2dExt as AvgPool2d, AvgPool3dExt as AvgPool3d,
                   SoftShrink as Softshrink, HShrink as Hardshrink, HSigmoid as Hardsigmoid, HSwish as Hardswish,
                   L1LossExt as L1Loss, MaxUnpool2d)
from . import functional
from .functional import cross_entropy  # noqa: F401  (mindspore.mint.nn.cross_entropy)
from . import functional as F


def _tuple(name, value, n, cls_name):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * n
    if isinstance(value, (tuple, list)) and len(value) == n and all(isinstance(v, int) for v in value):
        return tuple(value)
    raise TypeError(f"For '{cls_name}', '{name}' must be an int or a tuple of {n} ints, but got {value}.")


# ---------------------------------------------------------------------------
# activations
# ---------------------------------------------------------------------------

class _Elementwise(Cell):
    """A Cell whose ``construct`` is one ``mint.nn.functional`` call with the stored keywords."""

    _fn = None
    _keys = ()

    def __init__(self, *args, **kwargs):
        super().__init__()
        names = type(self)._keys
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes at most {len(names)} arguments.")
        vals = dict(zip((k for k, _ in names), args))
        for k, v in kwargs.items():
            if k not in dict(names):
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument '{k}'")
            vals[k] = v
        self._kw = {k: vals.get(k, d) for k, d in names}
        for k, v in self._kw.items():
            setattr(self, k, v)

    def construct(self, input):
        return type(self)._fn(input, **self._kw)


def _act(name, fn, keys=(), doc=""):
    return type(name, (_Elementwise,), {"_fn": staticmethod(fn), "_keys": keys, "__module__": __name__,
                                        "__doc__": doc or f"``mint.nn.{name}``: ``mint.nn.functional.{fn.__name__}``."})


ELU = _act("ELU", F.elu, (("alpha", 1.0), ("inplace", False)))
GELU = _act("GELU", F.gelu, (("approximate", "none"),))
GLU = _act("GLU", F.glu, (("dim", -1),))
Hardtanh = _act("Hardtanh", F.hardtanh, (("min_val", -1.0), ("max_val", 1.0), ("inplace", False)))
LogSigmoid = _act("LogSigmoid", F.logsigmoid)
Mish = _act("Mish", F.mish)
ReLU6 = _act("ReLU6", F.relu6, (("inplace", False),))
SELU = _act("SELU", F.selu)
SiLU = _act("SiLU", F.silu, (("inplace", False),))
Sigmoid = _act("Sigmoid", F.sigmoid)
Softmax = _act("Softmax", F.softmax, (("dim", None),))
Tanh = _act("Tanh", F.tanh)
Threshold = _act("Threshold", F.threshold, (("threshold", None), ("value", None), ("inplace", False)))
PixelShuffle = _act("PixelShuffle", F.pixel_shuffle, (("upscale_factor", None),))
Flatten = _act("Flatten", F.flatten, (("start_dim", 1), ("end_dim", -1)))
AdaptiveAvgPool1d = _act("AdaptiveAvgPool1d", F.adaptive_avg_pool1d, (("output_size", None),))
AdaptiveAvgPool2d = _act("AdaptiveAvgPool2d", F.adaptive_avg_pool2d, (("output_size", None),))
AdaptiveAvgPool3d = _act("AdaptiveAvgPool3d", F.adaptive_avg_pool3d, (("output_size", None),))
AdaptiveMaxPool1d = _act("AdaptiveMaxPool1d", F.adaptive_max_pool1d, (("output_size", None),
                                                                       ("return_indices", False)))
Unfold = _act("Unfold", F.unfold, (("kernel_size", None), ("dilation", 1), ("padding", 0), ("stride", 1)))
Fold = _act("Fold", F.fold, (("output_size", None), ("kernel_size", None), ("dilation", 1), ("padding", 0),
                             ("stride", 1)))
Upsample = _act("Upsample", F.interpolate, (("size", None), ("scale_factor", None), ("mode", "nearest"),
                                            ("align_corners", None), ("recompute_scale_factor", None)))


class UpsamplingNearest2d(Cell):
    """``mint.nn.UpsamplingNearest2d(size=None, scale_factor=None)``: nearest-neighbour interpolation
    of a 4-D input."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__()
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input):
        return F.interpolate(input, self.size, self.scale_factor, "nearest")


class UpsamplingBilinear2d(UpsamplingNearest2d):
    """``mint.nn.UpsamplingBilinear2d(size=None, scale_factor=None)``: bilinear interpolation with
    ``align_corners=True``."""

    def construct(self, input):
        size = self.size
        if size is None:
            s = self.scale_factor if isinstance(self.scale_factor, (tuple, list)) else (self.scale_factor,) * 2
            size = tuple(int(d * f) for d, f in zip(input.shape[-2:], s))
        return F.interpolate(input, size, None, "bilinear", True)


# ---------------------------------------------------------------------------
# padding
# ---------------------------------------------------------------------------

class _PadNd(Cell):
    _nd = 1
    _mode = "constant"

    def __init__(self, padding, value=None):
        super().__init__()
        n = 2 * self._nd
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * n
        if not isinstance(padding, (tuple, list)) or len(padding) != n:
            raise ValueError(f"For '{type(self).__name__}', 'padding' must be an int or a tuple of {n} ints, but got "
                             f"{padding}.")
        self.padding = tuple(padding)
        self.value = value

    def construct(self, input):
        return F.pad(input, self.padding, self._mode, self.value if self._mode == "constant" else None)


def _pad_cls(name, nd, mode):
    doc = f"``mint.nn.{name}(padding{', value' if name.startswith('Constant') else ''})``: ``{mode}`` padding " \
          f"of the last {nd} dimension(s)."
    return type(name, (_PadNd,), {"_nd": nd, "_mode": mode, "__module__": __name__, "__doc__": doc})


ConstantPad1d, ConstantPad2d, ConstantPad3d = (_pad_cls(f"ConstantPad{n}d", n, "constant") for n in (1, 2, 3))
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (_pad_cls(f"ReflectionPad{n}d", n, "reflect") for n in (1, 2, 3))
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (_pad_cls(f"ReplicationPad{n}d", n, "replicate")
                                                        for n in (1, 2, 3))


class _ZeroPadNd(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 0)


ZeroPad1d, ZeroPad2d, ZeroPad3d = (type(f"ZeroPad{n}d", (_ZeroPadNd,), {
    "_nd": n, "__module__": __name__, "__doc__": f"``mint.nn.ZeroPad{n}d(padding)``: zeros around the last {n} "
                                                 f"dimension(s)."}) for n in (1, 2, 3))


# ---------------------------------------------------------------------------
# convolutions
# ---------------------------------------------------------------------------

class _ConvNd(Cell):
    _nd = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None, output_padding=0):
        super().__init__()
        name, nd = type(self).__name__, self._nd
        for arg, v in (("in_channels", in_channels), ("out_channels", out_channels), ("groups", groups)):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"For '{name}', '{arg}' must be a positive int, but got {v}.")
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"For '{name}', 'in_channels' and 'out_channels' must be divisible by 'groups'.")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"The value of 'padding_mode' must be one of '{{'zeros', 'reflect', 'replicate', "
                             f"'circular'}}', but got {padding_mode}.")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size = _tuple("kernel_size", kernel_size, nd, name)
        self.stride = _tuple("stride", stride, nd, name)
        self.dilation = _tuple("dilation", dilation, nd, name)
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"For '{name}', 'padding' must be 'same' or 'valid', but got {padding!r}.")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError(f"For '{name}', padding='same' is not supported for strided convolutions.")
            self.padding = padding
        else:
            self.padding = _tuple("padding", padding, nd, name)
        self.output_padding = _tuple("output_padding", output_padding, nd, name)
        self.padding_mode = padding_mode
        dtype = mstype.float32 if dtype is None else dtype
        shape = ([in_channels, out_channels // groups] if self._transposed else
                 [out_channels, in_channels // groups]) + list(self.kernel_size)
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype=dtype), name="weight")
        self.bias = None
        if bias:
            fan_in = shape[1] * int(np.prod(self.kernel_size))
            self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)) if fan_in else "zeros",
                                              [out_channels], dtype=dtype), name="bias")

    def _reversed_padding(self):
        if self.padding == "valid":
            return (0, 0) * self._nd
        if self.padding == "same":
            out = []
            for d, k in zip(reversed(self.dilation), reversed(self.kernel_size)):
                total = d * (k - 1)
                out += [total // 2, total - total // 2]
            return tuple(out)
        return tuple(p for p in reversed(self.padding) for _ in range(2))

    def construct(self, input):
        fn = (F.conv1d, F.conv2d, F.conv3d)[self._nd - 1]
        if self.padding_mode != "zeros":
            input = F.pad(input, self._reversed_padding(), self.padding_mode)
            return fn(input, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)
        return fn(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, groups={self.groups}, bias={self.bias is not None}")


class Conv1d(_ConvNd):
    """``mint.nn.Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
    bias=True, padding_mode='zeros', dtype=None)``."""
    _nd = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)


class Conv2d(Conv1d):
    """``mint.nn.Conv2d(...)``: as ``Conv1d`` in two dimensions."""
    _nd = 2


class Conv3d(Conv1d):
    """``mint.nn.Conv3d(...)``: as ``Conv1d`` in three dimensions."""
    _nd = 3


class ConvTranspose2d(_ConvNd):
    """``mint.nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=1, padding=0,
    output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros', dtype=None)``; only
    ``padding_mode='zeros'``, as in MindSpore."""
    _nd = 2
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f"Only 'zeros' padding mode is supported for {type(self).__name__}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype, output_padding)

    def construct(self, input, output_size=None):
        if output_size is not None:
            raise ValueError("For 'ConvTranspose2d', 'output_size' is not supported; give 'output_padding'.")
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                  self.groups, self.dilation)


# ---------------------------------------------------------------------------
# normalisation
# ---------------------------------------------------------------------------

class _BatchNorm(Cell):
    _ranks = (2, 3)

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, dtype=None):
        super().__init__()
        if not isinstance(num_features, int) or isinstance(num_features, bool) or num_features <= 0:
            raise ValueError(f"For '{type(self).__name__}', 'num_features' must be a positive int, but got "
                             f"{num_features}.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        dt = mstype.float32 if dtype is None else dtype
        self.weight = Parameter(Tensor(np.ones(num_features), dt), name="weight") if affine else None
        self.bias = Parameter(Tensor(np.zeros(num_features), dt), name="bias") if affine else None
        if track_running_stats:
            self.running_mean = Parameter(Tensor(np.zeros(num_features), dt), name="running_mean",
                                          requires_grad=False)
            self.running_var = Parameter(Tensor(np.ones(num_features), dt), name="running_var", requires_grad=False)
            self.num_batches_tracked = Parameter(Tensor(0, mstype.int64), name="num_batches_tracked",
                                                 requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def construct(self, input):
        if input.ndim not in self._ranks:
            raise ValueError(f"For '{type(self).__name__}', expected a {' or '.join(map(str, self._ranks))}-D "
                             f"input, but got {input.ndim}-D.")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            _ops.assign(self.num_batches_tracked, self.num_batches_tracked + 1)
            if self.momentum is None:
                factor = 1.0 / self.num_batches_tracked.astype(mstype.float32)
        use_batch = self.training or self.running_mean is None
        if self.running_mean is None:
            c = input.shape[1]
            rm, rv = _ops.zeros((c,), input.dtype), _ops.ones((c,), input.dtype)
        else:
            rm, rv = self.running_mean, self.running_var
        return F.batch_norm(input, rm, rv, self.weight, self.bias, use_batch, factor, self.eps)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """``mint.nn.BatchNorm1d(num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
    dtype=None)``: over (N, C) or (N, C, L)."""


class BatchNorm2d(_BatchNorm):
    """``mint.nn.BatchNorm2d(...)``: over (N, C, H, W)."""
    _ranks = (4,)


class BatchNorm3d(_BatchNorm):
    """``mint.nn.BatchNorm3d(...)``: over (N, C, D, H, W)."""
    _ranks = (5,)


class SyncBatchNorm(_BatchNorm):
    """``mint.nn.SyncBatchNorm(num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
    process_group=None, dtype=None)``: on one process, batch normalisation over (N, C, ...)."""
    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.process_group = process_group


class GroupNorm(Cell):
    """``mint.nn.GroupNorm(num_groups, num_channels, eps=1e-05, affine=True, dtype=None)``."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        dt = mstype.float32 if dtype is None else dtype
        self.weight = Parameter(Tensor(np.ones(num_channels), dt), name="weight", requires_grad=affine)
        self.bias = Parameter(Tensor(np.zeros(num_channels), dt), name="bias", requires_grad=affine)

    def construct(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


# ---------------------------------------------------------------------------
# losses
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


__all__ = sorted([n for n in list(globals()) if not n.startswith("_") and n[0].isupper() and n not in (
    "Tensor", "Parameter", "HeUniform", "Uniform", "F")] + ["cross_entropy"])
