"""``sparse_ops.SparseTensorDenseAdd`` and ``SparseTensorDenseMatmul``: a COO sparse Tensor (``indices``,
``values``, ``shape``) added to, or multiplied with, a dense one; ``SparseAdd``: two COO Tensors added. The sparse Tensor is scattered into a
dense array (repeated indices add up) and the dense operation runs on it, so the gradients of ``values``
and of the dense input are those of the scatter and the dense op."""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._core.registry import Primitive
from ._util import arr, wrap
from .array import _need_concrete
from .math import _dn

__all__ = ["SparseTensorDenseAdd", "SparseTensorDenseMatmul", "SparseAdd"]


def _dense(prim, indices, values, shape):
    idx, val = arr(indices), arr(values)
    dims = tuple(int(d) for d in np.asarray(_need_concrete(arr(shape), prim)).reshape(-1))
    return jnp.zeros(dims, val.dtype).at[tuple(idx[:, k] for k in range(idx.shape[1]))].add(val)


class SparseTensorDenseAdd(Primitive):
    """``SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2)``: the sparse ``x1`` plus the dense ``x2``
    (same shape, no broadcasting; values and ``x2`` of one dtype)."""

    def __init__(self):
        super().__init__()
        self._attrs = {}

    def __call__(self, x1_indices, x1_values, x1_shape, x2):
        val, b = arr(x1_values), arr(x2)
        if val.dtype != b.dtype:
            raise TypeError("For primitive[SparseTensorDenseAdd], the input type must be same.")
        a = _dense(self.name, x1_indices, val, x1_shape)
        for k, (p, q) in enumerate(zip(a.shape, b.shape)):
            if p != q:
                raise RuntimeError(f"For 'SparseTensorDenseAdd', Dimension [{k}] does not equal(no broadcasting is "
                                   f"supported): x1_shape side {p} vs x2_shape side {q}.")
        return wrap(a + b)


class SparseTensorDenseMatmul(Primitive):
    """``SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values, sparse_shape, dense)``:
    the 2-D sparse Tensor (transposed with ``adjoint_st``) times ``dense`` (transposed with ``adjoint_dt``)."""

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        self.adjoint_st, self.adjoint_dt, self._attrs = adjoint_st, adjoint_dt, {}

    def __call__(self, indices, values, sparse_shape, dense):
        a = _dense(self.name, indices, values, sparse_shape)
        b = arr(dense)
        if a.dtype != b.dtype:
            raise TypeError(f"For primitive[SparseTensorDenseMatmul], the input type must be same, but got values "
                            f"Tensor[{_dn(a)}] and dense Tensor[{_dn(b)}].")
        a = a.T if self.adjoint_st else a
        b = b.T if self.adjoint_dt else b
        return wrap(a @ b)


class SparseAdd(Primitive):
    """``SparseAdd()(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape, thresh)``: the sum of two
    COO Tensors of one shape as ``(indices, values, shape)``, indices in lexicographic order; an index in both
    inputs is dropped when ``|sum| < thresh`` (one in a single input is kept, TensorFlow's rule). The kept
    entries depend on the values, so those must be known; the gradients of the values are the
    sensitivities of the entries each one reaches."""

    def __init__(self):
        super().__init__()
        self._attrs = {}

    def __call__(self, x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape, thresh):
        prim = self.name
        i1, i2 = (np.asarray(_need_concrete(arr(v), prim)) for v in (x1_indices, x2_indices))
        a, b = arr(x1_values), arr(x2_values)
        va, vb = (np.asarray(_need_concrete(v, prim)) for v in (a, b))
        limit = float(np.asarray(_need_concrete(arr(thresh), prim)))
        keys = sorted({tuple(r) for r in i1.tolist()} | {tuple(r) for r in i2.tolist()})
        pos = {k: n for n, k in enumerate(keys)}
        ma, mb = np.zeros((len(i1), len(keys)), va.dtype), np.zeros((len(i2), len(keys)), vb.dtype)
        ma[np.arange(len(i1)), [pos[tuple(r)] for r in i1.tolist()]] = 1
        mb[np.arange(len(i2)), [pos[tuple(r)] for r in i2.tolist()]] = 1
        both = (ma.sum(0) > 0) & (mb.sum(0) > 0)
        sums = va @ ma + vb @ mb
        keep = ~both | (np.abs(sums) >= limit)
        out = (a @ jnp.asarray(ma) + b @ jnp.asarray(mb))[jnp.asarray(np.nonzero(keep)[0])]
        indices = np.asarray(keys, i1.dtype).reshape(-1, i1.shape[1])[keep]
        return wrap(jnp.asarray(indices)), wrap(out), wrap(arr(x1_shape))
