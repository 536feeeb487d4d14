"""Row, index and segment writes: ``InplaceAdd``/``InplaceSub``/``InplaceUpdate``(``V2``),
``InplaceIndexAdd``, ``ScatterNd{Add,Sub,Mul,Div,Max,Min,Update}`` and ``Scatter{...}`` (on
Parameters, in place), ``tril_indices``/``triu_indices``,
``Segment{Sum,Max,Min,Mean,Prod}``, ``NthElement``, ``Bincount``, and the Primitive forms of
existing functions (``IndexFill``, ``Tril``/``Triu``, ``Median``, ``Renorm``,
``UnsortedSegment{Max,Min,Prod}``, ``TensorScatter{Add,Update,Sub,Mul,Div,Max,Min}``)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import Tensor, arr, wrap
from .array import _concrete, _need_concrete, _write_inplace, tril, triu
from .indexing import (_index_add, index_fill, tensor_scatter_add, tensor_scatter_div, tensor_scatter_max,
                       tensor_scatter_min, tensor_scatter_mul, tensor_scatter_sub, tensor_scatter_update,
                       unsorted_segment_max, unsorted_segment_min, unsorted_segment_prod)
from .linalg import renorm
from .reduction import _median

# ---------------------------------------------------------------------------
# Inplace* (rows of the first axis)
# ---------------------------------------------------------------------------


def _row_indices(name, indices, n):
    """``indices`` (an int, a tuple/list of ints or an integer Tensor) as a list of Python ints in [0, n)."""
    if isinstance(indices, Tensor):
        vals = [int(v) for v in np.ravel(_need_concrete(indices._data, name))]
    elif isinstance(indices, (int, np.integer)) and not isinstance(indices, bool):
        vals = [int(indices)]
    elif isinstance(indices, (tuple, list)) and all(isinstance(v, (int, np.integer)) for v in indices):
        vals = [int(v) for v in indices]
    else:
        raise TypeError(f"For '{name}', 'indices' must be an int or a tuple of ints, but got {indices}.")
    for v in vals:
        if not 0 <= v < n:
            raise ValueError(f"For primitive[{name}], the value of indices must be in [0,{n}), but got {v}.")
    return vals


_INPLACE_TYPES = {
    "InplaceAdd": ("BFloat16", "Float16", "Float32", "Float64", "Int16", "Int32", "Int64", "Int8", "UInt16",
                   "UInt32", "UInt64", "UInt8"),
    "InplaceUpdate": ("Float16", "Float32", "Float64", "Int32"),
    "InplaceUpdateV2": ("Float16", "Float32", "Int32"),
}
_INPLACE_TYPES["InplaceSub"] = _INPLACE_TYPES["InplaceAdd"]


def _inplace_rows(name, x, v, indices, how):
    if not isinstance(x, Tensor) or not isinstance(v, Tensor):
        raise TypeError(f"For '{name}', 'x' and 'v' must be Tensors.")
    a, u = x._data, v._data
    allowed = _INPLACE_TYPES[name]
    if str(mstype.from_np(u.dtype)) not in allowed:
        raise TypeError(f"For primitive[{name}], the input argument[v] must be a type of "
                        f"{{{', '.join(f'Tensor[{t}]' for t in allowed)}}}, but got Tensor[{mstype.from_np(u.dtype)}].")
    if a.dtype != u.dtype:
        raise TypeError(f"For '{name}', the dtype of 'v' must be the same as 'x' ({mstype.from_np(a.dtype)}), but "
                        f"got {mstype.from_np(u.dtype)}.")
    if a.ndim == 0 or u.ndim != a.ndim or u.shape[1:] != a.shape[1:]:
        raise ValueError(f"For '{name}', the shape of 'v' must be [len(indices)] + x.shape[1:], but got x "
                         f"{list(a.shape)} and v {list(u.shape)}.")
    rows = _row_indices(name, indices, a.shape[0])
    if len(rows) != u.shape[0]:
        raise ValueError(f"For primitive[{name}], the size of indices must be equal to {u.shape[0]} , but got "
                         f"{len(rows)}.")
    if how == "set":   # the last write to a row wins
        last = {r: k for k, r in enumerate(rows)}
        rows, u = list(last), u[np.asarray(list(last.values()), np.int32)]
    ref = a.at[np.asarray(rows, np.int32)]
    # MindSpore's gradient of the Inplace* ops is zero for both inputs
    return wrap(jax.lax.stop_gradient(ref.set(u) if how == "set" else ref.add(-u if how == "sub" else u)))


@op("inplace_add", primitive="InplaceAdd", prim_args=("indices",), family="array")
def inplace_add(x, v, indices):
    """``ops.inplace_add(x, v, indices)`` / ``ops.InplaceAdd(indices)(x, v)``: ``v`` added to rows
    ``indices`` of ``x`` (repeated rows accumulate); ``x`` itself is not changed. As in MindSpore,
    the ``Inplace*`` ops pass no gradient."""
    return _inplace_rows("InplaceAdd", x, v, indices, "add")


@op("inplace_sub", primitive="InplaceSub", prim_args=("indices",), family="array")
def inplace_sub(x, v, indices):
    """``ops.inplace_sub(x, v, indices)`` / ``ops.InplaceSub(indices)(x, v)``."""
    return _inplace_rows("InplaceSub", x, v, indices, "sub")


@op("inplace_update", primitive="InplaceUpdate", prim_args=("indices",), family="array")
def inplace_update(x, v, indices):
    """``ops.inplace_update(x, v, indices)`` / ``ops.InplaceUpdate(indices)(x, v)``: rows replaced
    (the last of repeated rows wins)."""
    return _inplace_rows("InplaceUpdate", x, v, indices, "set")


@op("prim_inplace_update_v2", primitive="InplaceUpdateV2", family="array")
def inplace_update_v2(x, indices, v):
    """``ops.InplaceUpdateV2()(x, indices, v)``: ``InplaceUpdate`` with the indices an input (an int
    or an Int32/Int64 Tensor)."""
    return _inplace_rows("InplaceUpdateV2", x, v, indices, "set")


@op("inplace_index_add", primitive="InplaceIndexAdd", prim_args=("axis",), family="array")
def inplace_index_add(var, indices, updates, axis):
    """``ops.inplace_index_add(var, indices, updates, axis)`` / ``ops.InplaceIndexAdd(axis)(var,
    indices, updates)``: ``updates`` added along ``axis`` at the Int32 ``indices``; ``var`` is updated
    in place."""
    return _index_add(var, indices, updates, axis, op_name="InplaceIndexAdd")


# ---------------------------------------------------------------------------
# ScatterNd* on Parameters and the TensorScatter* Primitives
# ---------------------------------------------------------------------------

def _scatter_inplace(name, prim, fn, rows=False, use_locking=False):
    """``ops.{name}``/``ops.{prim}()``: ``fn`` (a ``tensor_scatter_*``) written into ``input_x``;
    ``rows``: ``indices`` index the first axis (the ``Scatter*`` ops) instead of N-D positions."""
    def f(input_x, indices, updates, use_locking=use_locking):
        if not isinstance(input_x, Tensor):
            raise TypeError(f"For '{prim}', 'input_x' must be a Parameter or Tensor, but got {type(input_x)}.")
        if rows:
            indices = wrap(arr(indices)[..., None])
        idx = _concrete(indices)
        if idx is not None and idx.size:
            lim = np.asarray(input_x.shape[:idx.shape[-1]])
            bad = (idx < 0) | (idx >= lim)
            if bad.any():
                raise RuntimeError(f"For '{prim}', the values of 'indices' must be in [0, {tuple(lim)}), but got "
                                   f"{idx[tuple(np.argwhere(bad)[0][:-1])].tolist()}.")
        new = fn(input_x, indices, updates)._data
        _write_inplace(input_x, new)
        return wrap(new)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``ops.{prim}()(input_x, indices, updates)``: ``ops.{fn.__name__}`` at "
                 f"{'rows' if rows else 'N-D positions'} ``indices``, written into ``input_x`` (a Parameter) "
                 f"and returned.")
    return op(name, primitive=prim, prim_args=("use_locking",), family="array")(f)


scatter_nd_add = _scatter_inplace("scatter_nd_add", "ScatterNdAdd", tensor_scatter_add)
scatter_nd_sub = _scatter_inplace("scatter_nd_sub", "ScatterNdSub", tensor_scatter_sub)
scatter_nd_mul = _scatter_inplace("scatter_nd_mul", "ScatterNdMul", tensor_scatter_mul)
scatter_nd_div = _scatter_inplace("scatter_nd_div", "ScatterNdDiv", tensor_scatter_div)
scatter_nd_max = _scatter_inplace("scatter_nd_max", "ScatterNdMax", tensor_scatter_max)
scatter_nd_min = _scatter_inplace("scatter_nd_min", "ScatterNdMin", tensor_scatter_min)
scatter_nd_update = _scatter_inplace("scatter_nd_update", "ScatterNdUpdate", tensor_scatter_update)
scatter_add = _scatter_inplace("scatter_add", "ScatterAdd", tensor_scatter_add, rows=True)
scatter_sub = _scatter_inplace("prim_scatter_sub", "ScatterSub", tensor_scatter_sub, rows=True)
scatter_mul = _scatter_inplace("scatter_mul", "ScatterMul", tensor_scatter_mul, rows=True)
scatter_div = _scatter_inplace("scatter_div", "ScatterDiv", tensor_scatter_div, rows=True)
scatter_max = _scatter_inplace("scatter_max", "ScatterMax", tensor_scatter_max, rows=True)
scatter_min = _scatter_inplace("scatter_min", "ScatterMin", tensor_scatter_min, rows=True)
scatter_update = _scatter_inplace("scatter_update", "ScatterUpdate", tensor_scatter_update, rows=True,
                                  use_locking=True)


def _prim_of(fn, prim, prim_args=(), doc=None):
    """A Primitive whose call is ``fn`` itself (the functional op registered elsewhere)."""
    def f(*args, **kwargs):
        return fn(*args, **kwargs)
    f.__name__ = f.__qualname__ = "prim_" + fn.__name__
    f.__doc__ = doc or f"``ops.{prim}()``: ``ops.{fn.__name__}``."
    return op("prim_" + fn.__name__, primitive=prim, prim_args=prim_args, family="array")(f)


_prim_of(tensor_scatter_add, "TensorScatterAdd")
_prim_of(tensor_scatter_update, "TensorScatterUpdate")
_prim_of(tensor_scatter_sub, "TensorScatterSub")
_prim_of(tensor_scatter_mul, "TensorScatterMul")
_prim_of(tensor_scatter_div, "TensorScatterDiv")
_prim_of(tensor_scatter_max, "TensorScatterMax")
_prim_of(tensor_scatter_min, "TensorScatterMin")
_prim_of(unsorted_segment_max, "UnsortedSegmentMax")
_prim_of(unsorted_segment_min, "UnsortedSegmentMin")
_prim_of(unsorted_segment_prod, "UnsortedSegmentProd")
_prim_of(tril, "Tril", ("diagonal",), "``ops.Tril(diagonal=0)(x)``: ``ops.tril``.")
_prim_of(triu, "Triu", ("diagonal",), "``ops.Triu(diagonal=0)(x)``: ``ops.triu``.")


@op("prim_renorm", primitive="Renorm", prim_args=("p", "dim", "maxnorm"), family="math")
def prim_renorm(input_x, p, dim, maxnorm):
    """``ops.Renorm(p, dim, maxnorm)(input_x)``: ``ops.renorm``."""
    return renorm(input_x, p, dim, maxnorm)


@op("prim_index_fill", primitive="IndexFill", family="array")
def prim_index_fill(x, dim, index, value):
    """``ops.IndexFill()(x, dim, index, value)``: ``ops.index_fill`` with ``value`` a Tensor."""
    if not isinstance(value, Tensor):
        raise TypeError(f"For Primitive[IndexFill], the type of input argument[value] must be Tensor but got "
                        f"{type(value).__name__}.")
    return index_fill(x, dim, index, value)


@op("prim_median", primitive="Median", prim_args=("global_median", "axis", "keep_dims", "ignore_nan"),
    family="math")
def prim_median(x, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
    """``ops.Median(global_median=False, axis=0, keep_dims=False, ignore_nan=False)(x)``: ``(values,
    indices)``; the global median's index is 0 (MindSpore does not compute it)."""
    a = arr(x)
    if global_median:
        val, _ = _median(a.reshape(-1), 0, False, ignore_nan)
        return val, wrap(jnp.zeros((), jnp.int64))
    return _median(a, axis, keep_dims, ignore_nan)


# ---------------------------------------------------------------------------
# Segment* (sorted segment ids)
# ---------------------------------------------------------------------------

def _sorted_segments(prim, x, segment_ids):
    if not isinstance(x, Tensor) or not isinstance(segment_ids, Tensor):
        raise TypeError(f"For '{prim}', 'input_x' and 'segment_ids' must be Tensors.")
    ids = segment_ids._data
    if ids.dtype not in (jnp.int32, jnp.int64):
        raise TypeError(f"For '{prim}', 'segment_ids' must be Int32 or Int64, but got {mstype.from_np(ids.dtype)}.")
    if ids.ndim != 1 or x.ndim == 0 or ids.shape[0] != x.shape[0]:
        raise ValueError(f"For '{prim}', 'segment_ids' must be 1-D with the length of the first dimension of "
                         f"'input_x', but got {list(ids.shape)} and {list(x.shape)}.")
    v = _need_concrete(ids, prim)
    if v.size and v[0] < 0:
        raise ValueError(f"For '{prim}', segment_ids must be non-negative, but got {int(v[0])}.")
    if np.any(np.diff(v) < 0):
        raise ValueError("For 'SegmentOp', segment_ids must be a tensor with element values sorted in ascending "
                         "order.")
    return ids.astype(jnp.int32), (int(v[-1]) + 1 if v.size else 0)


def _segment(name, prim, reduce, empty):
    def f(input_x, segment_ids):
        ids, n = _sorted_segments(prim, input_x, segment_ids)
        a = input_x._data
        count = jax.ops.segment_sum(jnp.ones(ids.shape, jnp.int32), ids, num_segments=n)
        r = reduce(a, ids, n, count)
        mask = (count > 0).reshape((n,) + (1,) * (a.ndim - 1))
        return wrap(jnp.where(mask, r, jnp.asarray(empty, a.dtype)).astype(a.dtype))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``ops.{prim}()(input_x, segment_ids)``: per segment of the sorted ``segment_ids``, "
                 f"{reduce.__doc__}; ids that do not occur give {empty}.")
    return op(name, primitive=prim, family="array")(f)


def _seg_sum(a, ids, n, count):
    """the sum"""
    return jax.ops.segment_sum(a, ids, num_segments=n)


def _seg_max(a, ids, n, count):
    """the maximum"""
    return jax.ops.segment_max(a, ids, num_segments=n)


def _seg_min(a, ids, n, count):
    """the minimum"""
    return jax.ops.segment_min(a, ids, num_segments=n)


def _seg_prod(a, ids, n, count):
    """the product"""
    return jax.ops.segment_prod(a, ids, num_segments=n)


def _seg_mean(a, ids, n, count):
    """the mean"""
    c = jnp.maximum(count, 1).reshape((n,) + (1,) * (a.ndim - 1))
    return jax.ops.segment_sum(a, ids, num_segments=n) / c.astype(a.dtype)


segment_sum = _segment("prim_segment_sum", "SegmentSum", _seg_sum, 0)
segment_max = _segment("prim_segment_max", "SegmentMax", _seg_max, 0)
segment_min = _segment("prim_segment_min", "SegmentMin", _seg_min, 0)
segment_mean = _segment("prim_segment_mean", "SegmentMean", _seg_mean, 0)
segment_prod = _segment("prim_segment_prod", "SegmentProd", _seg_prod, 1)


# ---------------------------------------------------------------------------
# NthElement, Bincount
# ---------------------------------------------------------------------------

@op("prim_nth_element", primitive="NthElement", prim_args=("reverse",), family="array")
def nth_element(input, n, reverse=False):
    """``ops.NthElement(reverse=False)(input, n)``: the ``n``-th smallest (``reverse``: largest) value
    along the last axis, which is removed."""
    a = arr(input)
    if a.ndim < 1:
        raise ValueError(f"For 'NthElement', the rank of 'input' must be at least 1, but got {a.ndim}.")
    k = int(_need_concrete(arr(n), "NthElement").reshape(())) if isinstance(n, Tensor) else n
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"For 'NthElement', 'n' must be an int or an Int32 Tensor, but got {type(n)}.")
    if k < 0:
        raise ValueError(f"For primitive[NthElement], the n_value must be greater than or equal to 0, but got {k}.")
    if k >= a.shape[-1]:
        raise ValueError(f"For primitive[NthElement], the n_value must be less than {a.shape[-1]}, but got {k}.")
    s = jnp.sort(a, axis=-1)
    return wrap(s[..., a.shape[-1] - 1 - k] if reverse else s[..., k])


@op("prim_bincount", primitive="Bincount", family="math")
def prim_bincount(array, size, weights):
    """``ops.Bincount()(array, size, weights)``: per value ``0..size-1`` of the Int32 ``array``, the sum
    of its ``weights`` (``weights``' dtype); larger values are ignored, negative ones are an error."""
    a, w = arr(array), arr(weights)
    if a.dtype != jnp.int32:
        raise TypeError(f"For 'Bincount', 'array' must be Int32, but got {mstype.from_np(a.dtype)}.")
    if a.shape != w.shape:
        raise ValueError(f"For 'Bincount', 'weights' must have the shape of 'array' {list(a.shape)}, but got "
                         f"{list(w.shape)}.")
    n = int(np.asarray(_need_concrete(arr(size), "Bincount")).reshape(()))
    if n < 0:
        raise ValueError(f"For 'Bincount', 'size' must be non-negative, but got {n}.")
    v = _concrete(a)
    if v is not None and v.size and v.min() < 0:
        raise RuntimeError(f"For Bincount, input array should be nonnegative, but got {int(v.min())}")
    return wrap(jax.ops.segment_sum(w.reshape(-1), a.reshape(-1), num_segments=n))


# ---------------------------------------------------------------------------
# tril_indices / triu_indices
# ---------------------------------------------------------------------------

def _tri_indices(name, row, col, offset, dtype, lower):
    for k, v in (("row", row), ("col", col), ("offset", offset)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"For '{name}', '{k}' must be an int, but got {type(v)}.")
    if row < 0 or col < 0:
        raise ValueError(f"For '{name}', 'row' and 'col' must be non-negative, but got {row} and {col}.")
    if dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', 'dtype' must be mindspore.int32 or mindspore.int64, but got {dtype}.")
    r, c = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return wrap(jnp.asarray(np.stack([r, c]).reshape(2, -1), mstype.to_np(dtype)))


@op("tril_indices", family="array")
def tril_indices(row, col, offset=0, *, dtype=mstype.int64):
    """``ops.tril_indices(row, col, offset=0, *, dtype=int64)``: the (2, N) coordinates of the lower
    triangle of a row x col matrix, row-major."""
    return _tri_indices("tril_indices", row, col, offset, dtype, True)


@op("triu_indices", family="array")
def triu_indices(row, col, offset=0, *, dtype=mstype.int64):
    """``ops.triu_indices(row, col, offset=0, *, dtype=int64)``: the upper triangle's coordinates."""
    return _tri_indices("triu_indices", row, col, offset, dtype, False)


@op("prim_tril_indices", primitive="TrilIndices", prim_args=("row", "col", "offset", "dtype"), family="array")
def prim_tril_indices(row, col, offset=0, dtype=mstype.int32):
    """``ops.TrilIndices(row, col, offset=0, dtype=int32)()``: ``ops.tril_indices``."""
    return _tri_indices("TrilIndices", row, col, offset, dtype, True)


@op("prim_triu_indices", primitive="TriuIndices", prim_args=("row", "col", "offset", "dtype"), family="array")
def prim_triu_indices(row, col, offset=0, dtype=mstype.int32):
    """``ops.TriuIndices(row, col, offset=0, dtype=int32)()``: ``ops.triu_indices``."""
    return _tri_indices("TriuIndices", row, col, offset, dtype, False)
