"""``CSRSparseMatrixToSparseTensor`` (``ops.operations.sparse_ops``): a (batched) CSR sparse matrix,
given as its five component Tensors, as COO ``(indices, values, dense_shape)``.

Difference: MindSpore 2.10's CPU kernel returns wrong values and dense shape for Int64 index Tensors
(it reads them as Int32); here both index dtypes give the converted matrix.
"""
from __future__ import annotations

import numpy as np
import jax.numpy as jnp

from ..._core.registry import op
from ._util import arr, wrap
from .array import _need_concrete
from .math import _dn, _need_tensor

_NAME = "CSRSparseMatrixToSparseTensor"
_VALUES = ("Complex128", "Complex64", "Float32", "Float64")


@op("csr_sparse_matrix_to_sparse_tensor", primitive=_NAME, family="array")
def csr_sparse_matrix_to_sparse_tensor(x_dense_shape, x_batch_pointers, x_row_pointers, x_col_indices, x_values):
    """``CSRSparseMatrixToSparseTensor()(dense_shape, batch_pointers, row_pointers, col_indices, values)``:
    ``(indices, values, dense_shape)``; ``indices`` is ``[nnz, rank]`` (batch, row, column for rank 3)."""
    names = ("x_dense_shape", "x_batch_pointers", "x_row_pointers", "x_col_indices", "x_values")
    args = (x_dense_shape, x_batch_pointers, x_row_pointers, x_col_indices, x_values)
    for n, a in zip(names, args):
        _need_tensor(_NAME, n, a)
    shape_a, vals = arr(x_dense_shape), arr(x_values)
    for n, a in zip(names[:4], args[:4]):
        if arr(a).dtype not in (jnp.int32, jnp.int64):
            raise TypeError(f"For primitive[{_NAME}], the input argument[{n}] must be a type of "
                            f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{_dn(arr(a))}].")
        if arr(a).dtype != shape_a.dtype:
            raise TypeError(f"For primitive[{_NAME}], the input argument[{n}] must have the dtype of "
                            f"x_dense_shape: Tensor[{_dn(shape_a)}], but got Tensor[{_dn(arr(a))}].")
    if _dn(vals) not in _VALUES:
        kinds = ", ".join(f"Tensor[{k}]" for k in _VALUES)
        raise TypeError(f"For primitive[{_NAME}], the input argument[x_values] must be a type of {{{kinds}}}, "
                        f"but got Tensor[{_dn(vals)}].")
    dense = [int(d) for d in _need_concrete(shape_a, _NAME)]
    if len(dense) not in (2, 3):
        raise ValueError(f"For '{_NAME}', the input dense_shape should have rank 2 or 3, but got {len(dense)}.")
    batch = [int(b) for b in _need_concrete(arr(x_batch_pointers), _NAME)]
    rows_ptr = _need_concrete(arr(x_row_pointers), _NAME).astype(np.int64)
    cols = _need_concrete(arr(x_col_indices), _NAME).astype(np.int64)
    n_rows = dense[-2]
    out = []
    for b in range(len(batch) - 1):
        ptr = rows_ptr[b * (n_rows + 1):(b + 1) * (n_rows + 1)]
        row = np.repeat(np.arange(n_rows), np.diff(ptr))
        idx = [row, cols[batch[b]:batch[b] + len(row)]]
        out.append(np.stack(([np.full(len(row), b)] if len(dense) == 3 else []) + idx, axis=1))
    indices = np.concatenate(out) if out else np.zeros((0, len(dense)), np.int64)
    return wrap(jnp.asarray(indices, shape_a.dtype)), wrap(vals), wrap(shape_a)
