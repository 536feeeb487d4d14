"""``sparse_ops.SparseSegmentSqrtN``, ``SparseSegmentSqrtNWithNumSegments`` and
``SparseSegmentMeanWithNumSegments``: rows ``x[indices[i]]`` summed by ``segment_ids[i]`` (sorted), divided
by the square root of (or by) each segment's count; an empty segment is zeros.

The ids fix the output's length and MindSpore checks their values, so they must be known: in compiled
code msjax then runs the function op by op. The gradient of ``x`` is that of the gather and sum."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.registry import Primitive
from ._util import arr, wrap
from .array import _need_concrete
from .math import _dn

__all__ = ["SparseSegmentSqrtN", "SparseSegmentSqrtNWithNumSegments", "SparseSegmentMeanWithNumSegments"]

_FLOATS = (jnp.float16, jnp.float32, jnp.float64)
_INTS = (jnp.int32, jnp.int64)


def _typed(prim, name, a, kinds):
    if a.dtype not in kinds:
        names = ", ".join(f"Tensor[{_dn(jnp.zeros((), k))}]" for k in kinds)
        raise TypeError(f"For primitive[{prim}], the input argument[{name}] must be a type of {{{names}}}, "
                        f"but got Tensor[{_dn(a)}].")


class _SparseSegment(Primitive):
    _mean = False

    def __init__(self):
        super().__init__()
        self._attrs = {}

    def _reduce(self, x, indices, segment_ids, num_segments=None):
        prim = self.name
        a, idx, seg = arr(x), arr(indices), arr(segment_ids)
        _typed(prim, "x", a, _FLOATS)
        _typed(prim, "indices", idx, _INTS)
        _typed(prim, "segment_ids", seg, _INTS)
        if num_segments is not None:
            n_arr = arr(num_segments)
            _typed(prim, "num_segments", n_arr, _INTS)
            if len({idx.dtype, seg.dtype, n_arr.dtype}) > 1:
                raise TypeError(f"For primitive[{prim}], the input type must be same.\nname:[indices]:Tensor[{_dn(idx)}]."
                                f"\nname:[num_segments]:Tensor[{_dn(n_arr)}].\nname:[segment_ids]:Tensor[{_dn(seg)}].")
        if idx.shape != seg.shape:
            raise ValueError(f"For '{prim}', the rank of indices and segment_ids must be the same, but got indices "
                             f"{list(idx.shape)} and segment_ids {list(seg.shape)}.")
        ids, rows = np.asarray(_need_concrete(seg, prim)), np.asarray(_need_concrete(idx, prim))
        if ids.size and ids[0] != 0 and num_segments is None:
            raise ValueError(f"For '{prim}', indices in 'segment_ids' should be start from 0.")
        if np.any(np.diff(ids) < 0) or (num_segments is None and np.any(np.diff(ids) > 1)):
            raise ValueError(f"For '{prim}', segment_ids should be sorted and contiguous.")
        if np.any(rows < 0) or np.any(rows >= a.shape[0]):
            raise ValueError(f"For '{prim}', indices is out of range of x's first dimension.")
        if num_segments is None:
            n = int(ids[-1]) + 1 if ids.size else 0
        else:
            n = int(np.asarray(_need_concrete(n_arr, prim)).reshape(-1)[0])
            if ids.size and n <= int(ids.max()):
                raise ValueError(f"For '{prim}', num_segments must be bigger than the largest id of segment_ids.")
        total = jax.ops.segment_sum(a[jnp.asarray(rows)], jnp.asarray(ids), num_segments=n)
        count = np.bincount(ids, minlength=n)[:n].astype(np.float64)
        held = np.maximum(count, 1)
        scale = np.where(count > 0, 1.0 / (held if self._mean else np.sqrt(held)), 0.0)
        return wrap(total * jnp.asarray(scale, a.dtype).reshape((n,) + (1,) * (a.ndim - 1)))


class SparseSegmentSqrtN(_SparseSegment):
    """``SparseSegmentSqrtN()(x, indices, segment_ids)``: segment sums over ``sqrt(count)``; ``segment_ids``
    sorted, contiguous and starting at 0 (MindSpore's ValueErrors otherwise)."""

    def __call__(self, x, indices, segment_ids):
        return self._reduce(x, indices, segment_ids)


class SparseSegmentSqrtNWithNumSegments(_SparseSegment):
    """``SparseSegmentSqrtNWithNumSegments()(x, indices, segment_ids, num_segments)``: ``num_segments`` rows of
    segment sums over ``sqrt(count)`` (zeros for empty segments)."""

    def __call__(self, x, indices, segment_ids, num_segments):
        return self._reduce(x, indices, segment_ids, num_segments)


class SparseSegmentMeanWithNumSegments(_SparseSegment):
    """``SparseSegmentMeanWithNumSegments()(x, indices, segment_ids, num_segments)``: ``num_segments`` rows of
    segment means (zeros for empty segments)."""

    _mean = True

    def __call__(self, x, indices, segment_ids, num_segments):
        return self._reduce(x, indices, segment_ids, num_segments)
