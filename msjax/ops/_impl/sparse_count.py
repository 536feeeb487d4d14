"""``sparse_ops.SparseCountSparseOutput`` (deprecated in MindSpore): per batch row of a sparse Tensor, the
weighted count of each value, as a sparse Tensor, as MindSpore 2.10's CPU kernel computes it.

The batch of an entry is its first index (one batch for one-dimensional ``indices``). Each value met in
a row gives one output entry ``(row, value)`` (``(value,)`` for one batch), sorted, holding the sum of
the weights of its entries (their number when ``weights`` is empty; 1 with ``binary_output``), zero
totals kept. Values ``>= maxlength`` are left out when ``maxlength >= 0``, and the output's last
dimension is then ``maxlength``; otherwise it is ``max(largest value + 1, minlength)``. The output's
dense shape is ``(dense_shape[0], that)`` (``(that,)`` for one batch).

The output's size depends on the values, so the op runs on the host (in compiled code msjax runs the
function op by op). Differences from MindSpore: with int64 ``values`` and float64 ``weights`` MindSpore
2.10's kernel reads the values as int32 (wrong rows and values); msjax counts the values given."""
from __future__ import annotations

import numpy as np

from ... import _checkparam as _v
from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import arr, wrap
from .array import _need_concrete

_NAME = "SparseCountSparseOutput"


def _check_attrs(binary_output=False, minlength=-1, maxlength=-1):
    _v.check_value_type("binary_output", binary_output, [bool], _NAME)
    _v.check_value_type("minlength", minlength, [int], _NAME)
    _v.check_value_type("maxlength", maxlength, [int], _NAME)


def _dtype_check(arg, a, allowed):
    if a.dtype not in allowed:
        names = ", ".join(f"Tensor[{mstype.from_np(np.dtype(d))}]" for d in allowed)
        raise TypeError(f"For primitive[{_NAME}], the input argument[{arg}] must be a type of {{{names}}}, but got "
                        f"Tensor[{mstype.from_np(a.dtype)}].")


def _inputs(indices, values, dense_shape, weights):
    """The inputs as NumPy arrays, after the checks of MindSpore's infer and kernel (its messages)."""
    idx, val, shape, w = (np.asarray(_need_concrete(arr(t), _NAME)) for t in (indices, values, dense_shape, weights))
    _dtype_check("indices", idx, (np.int64,))
    _dtype_check("values", val, (np.int32, np.int64))
    _dtype_check("dense_shape", shape, (np.int64,))
    _dtype_check("weights", w, (np.float32, np.float64, np.int32, np.int64))
    rank = idx.shape[1] if idx.ndim == 2 else 1
    if val.shape[0] != idx.shape[0]:
        raise ValueError(f"For {_NAME}, number of values must be same as dim0 of indices but indices dim0 size is "
                         f"{idx.shape[0]}, values_shape dim0 size is {val.shape[0]}.")
    if shape.size != rank:
        raise ValueError(f"For {_NAME}, dense_shape dimensions must be equal to second dimension of indices  "
                         f"dense_shape dimensions is {shape.size}, second dimension of indices is {rank}.")
    if w.size and w.shape != val.shape:
        raise RuntimeError(f"For '{_NAME}', weights and values must have the same shape")
    idx2 = idx.reshape(idx.shape[0], -1)
    for row in idx2:
        for v, d in zip(row, shape):
            if not 0 <= v < d:
                raise RuntimeError(f"For '{_NAME}', the input index value {v} must be in [0, {d}) as given by "
                                   "dense shape")
    if (val < 0).any():
        raise RuntimeError(f"For '{_NAME}', the input values must be non-negative")
    return idx2, val, shape, w


@op("prim_sparse_count_sparse_output", primitive=_NAME, prim_args=("binary_output", "minlength", "maxlength"),
    family="sparse", prim_check=_check_attrs)
def sparse_count_sparse_output(indices, values, dense_shape, weights, binary_output=False, minlength=-1,
                               maxlength=-1):
    """``SparseCountSparseOutput(binary_output=False, minlength=-1, maxlength=-1)(indices, values, dense_shape,
    weights)`` -> ``(output_indices, output_values, output_dense_shape)`` (module docstring)."""
    idx, val, shape, w = _inputs(indices, values, dense_shape, weights)
    one_batch = idx.shape[1] <= 1 if idx.ndim == 2 else True
    rows = np.zeros(val.shape[0], np.int64) if one_batch else idx[:, 0]
    keep = val < maxlength if maxlength >= 0 else np.ones(val.shape, bool)
    rows, vals = rows[keep], val[keep].astype(np.int64)
    weight = w[keep] if w.size else np.ones(vals.shape, w.dtype)
    pairs, inverse = np.unique(np.stack([rows, vals], axis=1).reshape(-1, 2), axis=0, return_inverse=True)
    totals = np.zeros(pairs.shape[0], w.dtype)
    np.add.at(totals, inverse.reshape(-1), weight)
    if binary_output:
        totals = np.ones_like(totals)
    if maxlength >= 0:
        size = maxlength
    else:
        size = max(int(vals.max()) + 1 if vals.size else 0, minlength)
    out_idx = pairs[:, 1:] if one_batch else pairs
    out_shape = np.array([size] if one_batch else [int(shape[0]), size], np.int64)
    return wrap(out_idx.astype(np.int64)), wrap(totals), wrap(out_shape)
