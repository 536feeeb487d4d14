"""Arithmetic of ``COOTensor`` and dense-to-sparse conversion, as MindSpore 2.10 does it.

MindSpore's rules: ``coo + dense`` / ``coo - dense`` (and reflected) are dense
(``tensor_scatter_add`` of the values into the dense operand); ``coo * dense`` and
``coo / dense`` keep the sparsity pattern (the dense values are gathered at the indices);
``coo + coo`` is the coalesced union, an entry dropped only when its magnitude is below
``thresh`` (0 for ``+``/``-``, so an exact zero stays stored).

Differences from MindSpore: the results whose number of entries depends on the data
(``coo + coo``, ``coalesce``, ``Tensor.to_coo``/``to_csr``) are computed on concrete
values, so they raise ``RuntimeError`` inside a traced function (``jit`` compiled by
JAX, ``grad``) where MindSpore's graph gives them a dynamic shape.
"""
from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor, TracedValueError, wrap

__all__ = ["coo_add", "coalesce", "dense_to_coo", "dense_to_csr", "coo_binary"]


def _concrete(t, who):
    try:
        return t.asnumpy()
    except TracedValueError as e:
        raise RuntimeError(f"For '{who}', msjax needs concrete values: the result's number of entries "
                           f"depends on them (dynamic shape), which a traced function cannot hold.") from e


def _same_shape(coo, other):
    if not coo.shape == other.shape:
        raise ValueError("Input tensors should have the same shape.")


def _merged(indices, values, shape, thresh=None):
    """Sorted unique ``indices`` (row-major) with their summed ``values``; a sum of several
    entries whose magnitude is below ``thresh`` dropped (MindSpore's SparseAdd keeps an entry
    only one input holds whatever its value)."""
    flat = np.ravel_multi_index(tuple(indices.T), shape) if len(indices) else np.zeros(0, np.int64)
    keys, inverse, counts = np.unique(flat, return_inverse=True, return_counts=True)
    summed = np.zeros(len(keys), values.dtype)
    np.add.at(summed, inverse.ravel(), values)
    out_idx = np.stack(np.unravel_index(keys, shape), axis=1).astype(indices.dtype).reshape(-1, len(shape))
    if thresh is not None:
        keep = (counts == 1) | (np.abs(summed) >= thresh)
        out_idx, summed = out_idx[keep], summed[keep]
    return out_idx, summed


def coo_add(a, b, thresh):
    """``COOTensor.add(other, thresh)``: the union of two COOTensors' entries."""
    _same_shape(a, b)
    idx = np.concatenate([_concrete(a.indices, "COOTensor.add"), _concrete(b.indices, "COOTensor.add")])
    vals = np.concatenate([_concrete(a.values, "COOTensor.add"), _concrete(b.values, "COOTensor.add")])
    t = _concrete(thresh, "COOTensor.add") if isinstance(thresh, Tensor) else np.asarray(thresh)
    out_idx, out_vals = _merged(idx, vals, a.shape, t)
    return type(a)(Tensor(out_idx), Tensor(out_vals), a.shape)


def coalesce(coo):
    """``COOTensor.coalesce()``: duplicates summed, entries sorted (MindSpore takes Int64 indices only)."""
    if coo.indices.dtype != Tensor(np.zeros(0, np.int64)).dtype:
        raise TypeError("For primitive[Coalesce], the input argument[x_indices] must be a type of "
                        f"{{Tensor[Int64]}}, but got Tensor[{coo.indices.dtype}].")
    out_idx, out_vals = _merged(_concrete(coo.indices, "COOTensor.coalesce"),
                                _concrete(coo.values, "COOTensor.coalesce"), coo.shape)
    return type(coo)(Tensor(out_idx), Tensor(out_vals), coo.shape)


def coo_binary(coo, other, op):
    """``coo (op) other`` and reflected: ``op`` in ``add``, ``sub``, ``rsub``, ``mul``, ``div``."""
    if isinstance(other, type(coo)) and op in ("add", "sub"):
        return coo_add(coo, -other if op == "sub" else other, Tensor(0, coo.values.dtype))
    if not isinstance(other, Tensor):
        kind = {"add": "add", "sub": "subtract", "rsub": "subtract", "mul": "multiply", "div": "divide"}[op]
        _same_shape(coo, other)   # MindSpore compares shapes first ('int' has no 'shape')
        raise TypeError(f"COOTensor {kind} with {type(other)} is not supported.")
    _same_shape(coo, other)
    idx = tuple(coo.indices._data[:, i] for i in range(coo.ndim))
    if op in ("mul", "div"):
        at = other._data[idx]
        vals = coo.values._data * at if op == "mul" else coo.values._data / at
        return type(coo)(coo.indices, wrap(vals), coo.shape)
    base = -other._data if op == "sub" else other._data
    sign = -1 if op == "rsub" else 1
    return wrap(base.at[idx].add(sign * coo.values._data.astype(base.dtype)))


def dense_to_coo(x, COOTensor):    # noqa: N803 (the class, handed in by sparse_tensor)
    """``Tensor.to_coo()``: the non-zero entries, Int32 indices."""
    a = _concrete(x, "Tensor.to_coo")
    idx = np.argwhere(a != 0).astype(np.int32)
    return COOTensor(Tensor(idx), Tensor(a[tuple(idx.T)]), tuple(a.shape))


def dense_to_csr(x, CSRTensor):    # noqa: N803 (the class, handed in by sparse_tensor)
    """``Tensor.to_csr()``: a 2-D Tensor's non-zero entries, Int32 ``indptr``/``indices``."""
    if not (np.issubdtype(x._data.dtype, np.floating) or np.issubdtype(x._data.dtype, np.complexfloating)) \
            or x._data.dtype == np.float16:
        raise TypeError("For primitive[DenseToCSRSparseMatrix], the input argument[dense_input] must be a type of "
                        "{Tensor[Complex128], Tensor[Complex64], Tensor[Float32], Tensor[Float64]}, "
                        f"but got Tensor[{x.dtype}].")
    a = _concrete(x, "Tensor.to_csr")
    rows, cols = np.nonzero(a)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=a.shape[0]))]).astype(np.int32)
    return CSRTensor(Tensor(indptr), Tensor(cols.astype(np.int32)), Tensor(a[rows, cols]), tuple(a.shape))
