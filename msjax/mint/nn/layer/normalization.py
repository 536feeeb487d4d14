"""``mindspore.mint.nn.layer.normalization``: ``BatchNorm1d/2d/3d`` and ``SyncBatchNorm`` (``weight``,
``bias``, ``running_mean``, ``running_var``, ``num_batches_tracked``; ``momentum=None`` is the
cumulative average), ``GroupNorm``; ``LayerNorm`` is ``nn.LayerNormExt``.

Difference from MindSpore 2.10: ``SyncBatchNorm`` is batch normalisation of one process (nothing to
synchronise until data-parallel training lands)."""
from __future__ import annotations

import numpy as np

from .... import ops as _ops
from ...._core import dtype as mstype
from ...._core.parameter import Parameter
from ...._core.tensor import Tensor
from ....nn import LayerNormExt as LayerNorm  # noqa: F401
from ....nn.cell import Cell
from .. import functional as F


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
        cumulative = False
        if self.training and self.track_running_stats:
            _ops.assign(self.num_batches_tracked, self.num_batches_tracked + 1)
            cumulative = self.momentum is None
        use_batch = self.training or self.running_mean is None
        if self.running_mean is None:
            c = input.shape[1]
            rm, rv = _ops.zeros((c,), input.dtype), _ops.ones((c,), input.dtype)
        else:
            rm, rv = self.running_mean, self.running_var
        out = F.batch_norm(input, rm, rv, self.weight, self.bias, use_batch,
                           0.0 if cumulative or self.momentum is None else self.momentum, self.eps)
        if cumulative:
            # momentum=None: the running statistics are the average of all batches so far (a traced
            # factor 1/num_batches_tracked, which ops.batch_norm's float momentum cannot take)
            axes = tuple(d for d in range(input.ndim) if d != 1)
            factor = 1.0 / self.num_batches_tracked.astype(input.dtype)
            _ops.assign(rm, rm + (_ops.mean(input, axes) - rm) * factor)
            _ops.assign(rv, rv + (_ops.var(input, axes, ddof=1) - rv) * factor)
        return out

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

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}, eps={self.eps}, affine={self.affine}"


__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm", "LayerNorm", "SyncBatchNorm"]
