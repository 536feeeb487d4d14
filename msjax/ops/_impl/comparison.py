"""Comparison, logic, sorting and searching: equal/not_equal/greater/less (and their aliases eq, ne,
gt, ge, lt, le), isclose, the is* predicates (isfinite, isinf, isnan, isneginf, isposinf),
logical_and/or/xor/not, isreal, ``EqualCount``, ``ApproximateEqual``, ``CheckNumerics``, and sorting
and searching (sort/argsort/msort, topk/top_k, ``NthElement``, ``InTopK``, bucketize,
``LowerBound``/``UpperBound``, ``searchsorted``).

The elementwise ones are built like math's (``_unary``/``_binary``: MindSpore 2.10's CPU dtype
rules, recorded in ``tests/golden/ops_math_pynative.json``); the index outputs of ``sort``,
``argsort`` and ``topk`` are Int32."""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import dtype as mstype
from ..._core.registry import OPS, op
from ..._core.tensor import Tensor
from ._util import arr, wrap
from . import conv_lowering
from .array import _need_concrete
from .topk_order import host_topk
from .math import (_alias, _binary, _binop, _check_bool_arg, _check_int_arg, _dispatch, _dn, _float_input, _is_bool,
                   _is_float, _need_tensor, _norm_axis, _plain, _rin, _tensor_method, _unary)


# ---------------------------------------------------------------------------
# is* predicates
# ---------------------------------------------------------------------------

def _isinf(x, name):
    _float_input(name, x)
    return jnp.isinf(x)


def _isfinite(x, name):
    return jnp.isfinite(x) if _is_float(x) else jnp.ones(x.shape, jnp.bool_)


def _isnan(x, name):
    return jnp.isnan(x) if _is_float(x) else jnp.zeros(x.shape, jnp.bool_)


def _isneginf(x, name):
    _float_input(name, x)
    return jnp.isneginf(x)


def _isposinf(x, name):
    _float_input(name, x)
    return jnp.isposinf(x)


def _logical_not(x, name):
    return jnp.logical_not(x)


isfinite = _unary("isfinite", _isfinite, "IsFinite", "isfinite")
isinf = _unary("isinf", _isinf, "IsInf", "isinf")
isnan = _unary("isnan", _isnan, "IsNan", "isnan")
isneginf = _unary("isneginf", _isneginf, None, "isneginf")
isposinf = _unary("isposinf", _isposinf, None, "isposinf")
logical_not = _unary("logical_not", _logical_not, "LogicalNot", "logical_not")


# ---------------------------------------------------------------------------
# comparison and logic
# ---------------------------------------------------------------------------

def _compare(jfn):
    return _plain(jfn)


equal = _binary("equal", _compare(jnp.equal), "Equal", ("equal", "eq"), scalar_first=False)
eq = _alias("eq", equal)
not_equal = _binary("not_equal", _compare(jnp.not_equal), "NotEqual", ("not_equal", "ne"))
ne = _alias("ne", not_equal)
greater = _binary("greater", _compare(jnp.greater), "Greater", ("greater", "gt"))
gt = _alias("gt", greater)
greater_equal = _binary("greater_equal", _compare(jnp.greater_equal), "GreaterEqual", ("greater_equal", "ge"))
ge = _alias("ge", greater_equal)
less = _binary("less", _compare(jnp.less), "Less", ("less", "lt"), scalar_first=False)
lt = _alias("lt", less)
less_equal = _binary("less_equal", _compare(jnp.less_equal), "LessEqual", ("less_equal", "le"))
le = _alias("le", less_equal)
logical_and = _binary("logical_and", _plain(jnp.logical_and), "LogicalAnd", (), bool_scalars_only=True)
logical_or = _binary("logical_or", _plain(jnp.logical_or), "LogicalOr", (), bool_scalars_only=True)
logical_xor = _binary("logical_xor", _plain(jnp.logical_xor), "LogicalXor", "logical_xor", bool_scalars_only=True)


@op("isclose", primitive="IsClose", prim_args=("rtol", "atol", "equal_nan"), methods="isclose", family="math")
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``ops.isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)``: Tensors of the same dtype."""
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        raise TypeError(f"Failed calling IsClose with \"IsClose(rtol=float, atol=float, equal_nan=bool)"
                        f"(input={type(input).__name__}, other={type(other).__name__})\".")
    x, y = input._data, other._data
    if x.dtype != y.dtype:
        raise TypeError("For primitive[IsClose], the input type must be same.")
    if not _is_float(x):
        return wrap(_binop("isclose", lambda a, b: jnp.abs(a.astype(jnp.float64) - b) <=
                           atol + rtol * jnp.abs(b.astype(jnp.float64)), x, y))
    return wrap(_binop("isclose", lambda a, b: jnp.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan), x, y))


def _tensor_logical_and_y(self, y):
    return logical_and(self, y)


def _tensor_logical_and_other(self, other):
    return logical_and(self, other)


def _tensor_logical_or_y(self, y):
    return logical_or(self, y)


def _tensor_logical_or_other(self, other):
    return logical_or(self, other)


_tensor_method("tensor_m_logical_and", "logical_and",
               _dispatch("logical_and", _tensor_logical_and_y, _tensor_logical_and_other),
               "``Tensor.logical_and(other)``.")
_tensor_method("tensor_m_logical_or", "logical_or",
               _dispatch("logical_or", _tensor_logical_or_y, _tensor_logical_or_other), "``Tensor.logical_or(other)``.")


# ---------------------------------------------------------------------------
# sorting
# ---------------------------------------------------------------------------

@functools.partial(jax.jit, static_argnums=(1, 2))
def _stable_argsort(x, axis, descending):
    if not descending:
        return jnp.argsort(x, axis=axis, stable=True)
    n = x.shape[axis]
    r = jnp.argsort(jnp.flip(x, axis), axis=axis, stable=True)
    return jnp.flip(n - 1 - r, axis)


def _sort_input(name, x):
    if _is_bool(x):
        raise TypeError(f"For '{name}', the input does not support Bool (MindSpore has no CPU kernel for it).")


@op("sort", primitive="Sort", prim_args=("axis", "descending"), family="math")
def sort(input_x, axis=-1, descending=False):
    """``ops.sort(input_x, axis=-1, descending=False)``: stable; ``(values, Int32 indices)``."""
    x = _rin("sort", input_x)
    _sort_input("Sort", x)
    _check_bool_arg("sort", "descending", descending)
    if x.ndim == 0:
        return wrap(x), wrap(jnp.zeros((), jnp.int32))
    ax = _norm_axis("Sort", axis, x.ndim)
    idx = _stable_argsort(x, ax, descending)
    return wrap(jnp.take_along_axis(x, idx, axis=ax)), wrap(idx.astype(jnp.int32))


@op("argsort", family="math")
def argsort(input, axis=-1, descending=False):
    """``ops.argsort(input, axis=-1, descending=False)``: Int32 indices of a stable sort."""
    return sort(input, axis, descending)[1]


def _tensor_sort_dim(self, dim=-1, descending=False, stable=False):
    return sort(self, dim, descending)


def _tensor_sort_axis(self, axis=-1, descending=False):
    return sort(self, axis, descending)


def _tensor_argsort_dim(self, dim=-1, descending=False, stable=False):
    return argsort(self, dim, descending)


def _tensor_argsort_axis(self, axis=-1, descending=False):
    return argsort(self, axis, descending)


_tensor_method("tensor_m_sort", "sort", _dispatch("sort", _tensor_sort_dim, _tensor_sort_axis),
               "``Tensor.sort(dim=-1, descending=False, stable=False)`` -> ``(values, indices)``.")
_tensor_method("tensor_m_argsort", "argsort", _dispatch("argsort", _tensor_argsort_dim, _tensor_argsort_axis),
               "``Tensor.argsort(dim=-1, descending=False, stable=False)``.")


def _topk_last(x, k):
    """MindSpore's CPU ``TopK``: ``lax.top_k`` (equal values: the lower index first) when ``k`` is
    more than half the row, the exporters trace it (a ``TopK`` node) or the backend is not the CPU
    (MindSpore's GPU/Ascend kernels order ties their own way; no host round trip in a GPU/TPU graph),
    else its CPU kernel's ``nth_element`` order among equal values (``topk_order``; on the host, from
    a graph through a callback)."""
    if k > x.shape[-1] or k < 0:
        raise ValueError(f"For 'TopK', the 'k' must be in range [0, {x.shape[-1]}], but got {k}.")
    if k > x.shape[-1] // 2 or conv_lowering.exporting() or jax.default_backend() != "cpu":
        v, i = lax.top_k(x, k)
        return v, i.astype(jnp.int32)
    if not isinstance(x, jax.core.Tracer):
        v, i = host_topk(np.asarray(x), k)
        return jnp.asarray(v), jnp.asarray(i)
    spec = jax.ShapeDtypeStruct(x.shape[:-1] + (k,), jnp.int32)
    i = jax.pure_callback(lambda a: host_topk(np.asarray(a), k)[1], spec, lax.stop_gradient(x),
                          vmap_method="expand_dims")
    return jnp.take_along_axis(x, i, axis=-1), i


@op("topk", family="math")
def topk(input, k, dim=None, largest=True, sorted=True):
    """``ops.topk(input, k, dim=None, largest=True, sorted=True)``: ``(values, Int32 indices)``
    along ``dim`` (the last axis by default); ties keep the lower index first."""
    x = _rin("topk", input)
    _check_bool_arg("topk", "largest", largest)
    if isinstance(k, Tensor) and k.size == 1 and jnp.issubdtype(k._data.dtype, jnp.integer):
        k = int(_need_concrete(k._data, "topk").reshape(-1)[0])    # a (mutable) Tensor k, as MindSpore
    _check_int_arg("topk", "k", k)
    if _is_bool(x):
        raise TypeError(f"For primitive[TopK], the input argument[input_x] must be a numeric Tensor, but got "
                        f"{_dn(x)}.")
    src = x if largest else -x
    if x.ndim == 0:
        src = src.reshape(1)
    ax = x.ndim - 1 if dim is None or x.ndim == 0 else _norm_axis("topk", dim, x.ndim)
    moved = jnp.moveaxis(src, ax, -1) if x.ndim else src
    v, i = _topk_last(moved, int(k))
    if x.ndim:
        v, i = jnp.moveaxis(v, -1, ax), jnp.moveaxis(i, -1, ax)
    return wrap(v if largest else -v), wrap(i)


@op("prim_topk", primitive="TopK", prim_args=("sorted",), family="math")
def _prim_topk(input_x, k, sorted=True):
    """``TopK(sorted=True)(input_x, k)``: along the last axis."""
    return topk(input_x, k, None, True, sorted)


def _tensor_topk(self, k, dim=None, largest=True, sorted=True):
    return topk(self, k, dim, largest, sorted)


_tensor_method("tensor_m_topk", "topk", _tensor_topk,
               "``Tensor.topk(k, dim=None, largest=True, sorted=True)`` -> ``(values, indices)``.")


# ---------------------------------------------------------------------------
# top_k, msort, isreal, Tensor.searchsorted
# ---------------------------------------------------------------------------

@op("top_k", methods="top_k", family="math")
def top_k(input_x, k, sorted=True):
    """``ops.top_k(input_x, k, sorted=True)``: the ``TopK`` primitive (last axis; Int32 indices)."""
    return OPS["prim_topk"].fn(input_x, k, sorted=sorted)


@op("msort", methods="msort", family="math")
def msort(input):
    """``ops.msort(input)``: sorted along axis 0."""
    return wrap(jnp.sort(arr(input), axis=0))


@op("tensor_searchsorted", methods="searchsorted", family="math")
def _searchsorted(self, v, side="left", sorter=None):
    """``Tensor.searchsorted(v, side='left', sorter=None)``: Int32 insertion points of ``v``."""
    a = self._data
    if sorter is not None:
        a = jnp.take(a, arr(sorter), axis=-1)
    vv = arr(v)
    if a.ndim <= 1:
        r = jnp.searchsorted(a, vv, side=side)
    else:
        r = jax.vmap(lambda s, q: jnp.searchsorted(s, q, side=side))(a.reshape(-1, a.shape[-1]),
                                                                     vv.reshape(-1, vv.shape[-1]))
        r = r.reshape(vv.shape)
    return wrap(r.astype(jnp.int32))


@op("isreal", methods="isreal", family="math")
def isreal(input):
    """``ops.isreal(input)``: True where the imaginary part is 0 (everywhere for real Tensors)."""
    x = arr(input)
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        return wrap(jnp.imag(x) == 0)
    return wrap(jnp.ones(x.shape, jnp.bool_))


# ---------------------------------------------------------------------------
# NthElement
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


# ---------------------------------------------------------------------------
# EqualCount, ApproximateEqual, CheckNumerics, bucketize, LowerBound/UpperBound, InTopK
# ---------------------------------------------------------------------------

@op("prim_equal_count", primitive="EqualCount", family="array")
def equal_count(x, y):
    """``ops.EqualCount()(x, y)``: the number of equal elements, shape (1,), ``x``'s dtype."""
    a, b = arr(x), arr(y)
    return wrap(jnp.sum(a == b).astype(a.dtype).reshape(1))


@op("prim_approximate_equal", primitive="ApproximateEqual", prim_args=("tolerance",), family="array")
def approximate_equal(x, y, tolerance=1e-5):
    """``ops.ApproximateEqual(tolerance=1e-5)(x, y)``: ``|x - y| < tolerance``."""
    a, b = arr(x), arr(y)
    return wrap(jnp.abs(a - b) < jnp.asarray(tolerance, a.dtype))


@op("prim_check_numerics", primitive="CheckNumerics", family="array")
def check_numerics(x):
    """``ops.CheckNumerics()(x)``: ``x`` itself, or a RuntimeError if it has NaN or inf values."""
    a = arr(x)
    if isinstance(a, jax.core.Tracer):
        return wrap(a)
    if bool(jnp.any(jnp.isnan(a))):
        raise RuntimeError(": Tensor had NaN values")
    if bool(jnp.any(jnp.isinf(a))):
        raise RuntimeError(": Tensor had Inf values")
    return wrap(a)


@op("bucketize", family="array")
def bucketize(input, boundaries, *, right=False):
    """``ops.bucketize(input, boundaries, *, right=False)``: Int32 bucket indices
    (``right=True``: ``boundaries[i-1] <= x < boundaries[i]``)."""
    _need_tensor("bucketize", "input", input)
    b = jnp.asarray(np.asarray(boundaries, np.float64), input._data.dtype)
    return wrap(jnp.searchsorted(b, input._data, side="right" if right else "left").astype(jnp.int32))


@op("prim_bucketize", primitive="Bucketize", prim_args=("boundaries",), family="array")
def prim_bucketize(input, boundaries):
    """``ops.Bucketize(boundaries)(input)``: ``bucketize(..., right=True)``."""
    return bucketize(input, boundaries, right=True)


def _bound(name, side, sorted_x, values, out_type):
    s, v = arr(sorted_x), arr(values)
    if s.ndim != 2 or v.ndim != 2 or s.shape[0] != v.shape[0]:
        raise ValueError(f"For '{name}', 'sorted_x' and 'values' must be 2-D with the same first dimension, "
                         f"but got {tuple(s.shape)} and {tuple(v.shape)}.")
    r = jax.vmap(lambda a, q: jnp.searchsorted(a, q, side=side))(s, v)
    return wrap(r.astype(mstype.to_np(out_type)))


@op("prim_lower_bound", primitive="LowerBound", prim_args=("out_type",), family="array")
def lower_bound(sorted_x, values, out_type=mstype.int32):
    """``ops.LowerBound(out_type=int32)(sorted_x, values)``: per row, the first index with
    ``sorted_x >= value``."""
    return _bound("LowerBound", "left", sorted_x, values, out_type)


@op("prim_upper_bound", primitive="UpperBound", prim_args=("out_type",), family="array")
def upper_bound(sorted_x, values, out_type=mstype.int32):
    """``ops.UpperBound(out_type=int32)(sorted_x, values)``: per row, the first index with
    ``sorted_x > value``."""
    return _bound("UpperBound", "right", sorted_x, values, out_type)


@op("intopk", family="array")
def intopk(x1, x2, k):
    """``ops.intopk(x1, x2, k)``: whether ``x1[i, x2[i]]`` is among the ``k`` largest of row ``i``
    (ties count in its favour)."""
    a, t = arr(x1), arr(x2)
    target = jnp.take_along_axis(a, t.astype(jnp.int32)[:, None], 1)
    return wrap(jnp.sum(a > target, 1) < k)


@op("prim_in_top_k", primitive="InTopK", prim_args=("k",), family="array")
def prim_in_top_k(x1, x2, k):
    """``ops.InTopK(k)(x1, x2)``: ``ops.intopk``."""
    return intopk(x1, x2, k)


# ---------------------------------------------------------------------------
# searchsorted
# ---------------------------------------------------------------------------

@op("searchsorted", family="math")
def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None, dtype=None):
    """``ops.searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
    sorter=None)``: insertion points (Int64, or Int32 with ``out_int32``) that keep each last-axis
    row sorted; ``side`` ('left'/'right') overrides ``right``."""
    _need_tensor("searchsorted", "sorted_sequence", sorted_sequence)
    if side is not None and side not in ("left", "right"):
        raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', but got {side!r}.")
    if side == "left" and right:
        raise ValueError("For 'searchsorted', 'side' and 'right' contradict each other.")
    side = side or ("right" if right else "left")
    v = values if isinstance(values, Tensor) else wrap(jnp.asarray(values, sorted_sequence._data.dtype))
    out = _searchsorted(sorted_sequence, v, side, sorter)
    want = mstype.int32 if out_int32 else (dtype or mstype.int64)
    return wrap(out._data.astype(mstype.to_np(want)))
