"""Reductions, scans and counting: sum/mean/prod, max/min/amax/amin/aminmax, argmax/argmin and
the ``Arg*WithValue`` Primitives, var/std and their means, nansum/nanmean, median/nanmedian,
logsumexp, all/any, count_nonzero, cov, the cumulative ops (cumsum, cumprod, cummax, cummin,
logcumsumexp) and the histograms (histc, bincount, the ``Bincount`` Primitive).

Dtype rules are MindSpore 2.10's on CPU (recorded in ``tests/golden/ops_math_pynative.json``):

* ``ops.sum``/``ops.prod``/``ops.cumprod`` of integers or bools are Int64; ``ReduceSum`` and
  ``ops.mean`` keep the input dtype (the mean of Int32 is Int32, truncated).
* Index outputs: ``argmax``, ``max(x, axis)``, ``cummax`` give Int64; ``argmin``, ``cummin`` give Int32.

Gradients follow MindSpore where it differs from JAX's defaults: ``max``/``min`` along an axis
send it to the first maximal element only (full reductions split it between ties), ``cumprod``
uses MindSpore's ``cumsum(dout * out, reverse) / x``."""
from __future__ import annotations

import builtins as _bi
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor, _truediv
from . import reduce_order
from ._util import arr, wrap
from .lowp import float32_inside
from .array import _concrete, _need_concrete
from .math import (_alias, _check_bool_arg, _check_int_arg, _dispatch, _dn, _float_input, _is_bool, _is_float,
                   _is_number, _is_pyint, _named, _need_tensor, _norm_axes, _norm_axis, _out, _rin, _tensor_method,
                   _to_float, add)


# ---------------------------------------------------------------------------
# reductions
# ---------------------------------------------------------------------------

def _keep_reduce(name, x, axes, keepdims, jfn):
    _check_bool_arg(name, "keep_dims", keepdims)
    return jfn(x, axis=axes, keepdims=bool(keepdims))


def _sum_keep_dtype(x, axis=None, keepdims=False):
    if _is_bool(x):
        return jnp.any(x, axis=axis, keepdims=keepdims)
    if reduce_order.applies(x):
        return reduce_order.reduce_sum(x, axis, keepdims)
    return jnp.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _mean_keep_dtype(x, axis=None, keepdims=False, name="ReduceMean"):
    """MindSpore's mean keeps the dtype; integer means truncate toward zero; float32 sums in the CPU
    kernel's order (``reduce_order``)."""
    if _is_bool(x):
        raise RuntimeError(f"For '{name}', unsupported reduce operation for bool.")
    if reduce_order.applies(x):
        return reduce_order.reduce_sum(x, axis, keepdims, mean=True)
    if _is_float(x):
        return jnp.mean(x, axis=axis, keepdims=keepdims)
    n = x.size if axis is None else int(np.prod([x.shape[a] for a in axis]))
    s = jnp.sum(x.astype(jnp.int64), axis=axis, keepdims=keepdims)
    return lax.div(s, jnp.asarray(_bi.max(n, 1), jnp.int64)).astype(x.dtype)


def _sum_ext_axes(dim, ndim):
    """``SumExt``'s range check of integer axes (its infer's text), then the common normalisation."""
    n = _bi.max(ndim, 1)
    for a in dim if isinstance(dim, (tuple, list)) else (dim,):
        if isinstance(a, int) and not isinstance(a, bool) and not -n <= a < n:
            raise ValueError(f"For primitive[SumExt], the axis value must be in [{-n},{n}), but got {a}.")
    return _norm_axes("sum", dim, ndim)


@op("sum", family="math")
def sum(input, dim=None, keepdim=False, *, dtype=None):
    """``ops.sum(input, dim=None, keepdim=False, *, dtype=None)``: integers and bools sum to Int64;
    float32 sums in ``ReduceSum``'s CPU order (``reduce_order``), whose bits MindSpore's ``SumExt`` gives."""
    x = _rin("sum", input)
    axes = _sum_ext_axes(dim, x.ndim)
    _check_bool_arg("sum", "keepdim", keepdim)
    if dtype is not None:
        x = x.astype(mstype.to_np(dtype))
    elif not _is_float(x):
        x = x.astype(jnp.int64)
    return wrap(_sum_keep_dtype(x, axes, bool(keepdim)))


@op("reduce_sum", primitive="ReduceSum", prim_args=("keep_dims", "skip_mode"), family="math")
def reduce_sum(input, axis=(), keep_dims=False, skip_mode=False):
    """``ops.reduce_sum(x, axis=())`` / ``ReduceSum(keep_dims=False, skip_mode=False)(x, axis=())``:
    keeps the dtype (Bool sums to Bool); ``skip_mode`` with an empty ``axis`` returns ``x``."""
    x = _rin("ReduceSum", input)
    if skip_mode and (axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0)):
        return wrap(x)
    axes = _norm_axes("ReduceSum", axis, x.ndim)
    return wrap(_keep_reduce("ReduceSum", x, axes, keep_dims, _sum_keep_dtype))


@op("mean", primitive="ReduceMean", prim_args=("keep_dims",), family="math")
def mean(input, axis=None, keep_dims=False):
    """``ops.mean(x, axis=None, keep_dims=False)`` (``ReduceMean(keep_dims)(x, axis=())``): keeps the
    dtype; the mean of integers is truncated toward zero; Bool is an error."""
    x = _rin("ReduceMean", input)
    axes = _norm_axes("ReduceMean", axis, x.ndim)
    return wrap(_keep_reduce("ReduceMean", x, axes, keep_dims, _mean_keep_dtype))


reduce_mean = _alias("reduce_mean", mean)


@op("prod", family="math")
def prod(input, axis=None, keep_dims=False, dtype=None):
    """``ops.prod(input, axis=None, keep_dims=False, dtype=None)``: for an int or ``None`` axis,
    integers and bools multiply to Int64; a tuple ``axis`` keeps the dtype (``ReduceProd``)."""
    x = _rin("prod", input)
    _check_bool_arg("prod", "keep_dims", keep_dims)
    if isinstance(axis, (tuple, list, Tensor)):
        if dtype is not None:
            x = x.astype(mstype.to_np(dtype))
        axes = _norm_axes("ReduceProd", axis, x.ndim)
        return wrap(jnp.prod(x, axis=axes, keepdims=keep_dims, dtype=x.dtype if not _is_bool(x) else None))
    axes = _norm_axes("prod", axis, x.ndim)
    if dtype is not None:
        x = x.astype(mstype.to_np(dtype))
    elif not _is_float(x):
        x = x.astype(jnp.int64)
    if _is_bool(x):
        return wrap(jnp.all(x, axis=axes, keepdims=keep_dims))
    return wrap(jnp.prod(x, axis=axes, keepdims=keep_dims, dtype=x.dtype))


@op("prim_reduce_prod", primitive="ReduceProd", prim_args=("keep_dims",), family="math")
def _reduce_prod(x, axis=(), keep_dims=False):
    """``ReduceProd(keep_dims=False)(x, axis=())``: keeps the dtype."""
    a = _rin("ReduceProd", x)
    axes = _norm_axes("ReduceProd", axis, a.ndim)
    return wrap(jnp.prod(a, axis=axes, keepdims=keep_dims, dtype=a.dtype))


def _no_bool(name, x):
    if _is_bool(x):
        raise TypeError(f"For '{name}', the input does not support Bool (MindSpore has no CPU kernel for it).")


def _init_and_select(x, initial, where, cmp):
    """MindSpore's ``initial``/``where`` handling for max/min-style reductions."""
    if initial is not None:
        x = cmp(x, jnp.asarray(initial, x.dtype))
    if where is not None and not isinstance(where, Tensor):   # a Python bool: False masks every element
        where = wrap(jnp.asarray(where, jnp.bool_))
    if where is not None and (where._data.ndim or not bool(where._data)):
        if initial is None:
            raise ValueError("initial value must be provided for where masks")
        x = jnp.where(jnp.broadcast_to(where._data, x.shape), x, jnp.asarray(initial, x.dtype))
    return x


@op("reduce_max", primitive="ReduceMax", prim_args=("keep_dims",), family="math")
def reduce_max(input, axis=(), keep_dims=False):
    """``ReduceMax(keep_dims=False)(x, axis=())``; the gradient of ties is split evenly."""
    x = _rin("ReduceMax", input)
    _no_bool("ReduceMax", x)
    return wrap(jnp.max(x, axis=_norm_axes("ReduceMax", axis, x.ndim), keepdims=keep_dims))


@op("reduce_min", primitive="ReduceMin", prim_args=("keep_dims",), family="math")
def reduce_min(input, axis=(), keep_dims=False):
    """``ReduceMin(keep_dims=False)(x, axis=())``; the gradient of ties is split evenly."""
    x = _rin("ReduceMin", input)
    _no_bool("ReduceMin", x)
    return wrap(jnp.min(x, axis=_norm_axes("ReduceMin", axis, x.ndim), keepdims=keep_dims))


@op("amax", methods=(), family="math")
def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    """``ops.amax(input, axis=None, keepdims=False, *, initial=None, where=None)``: values only."""
    x = _rin("amax", input)
    _no_bool("ReduceMax", x)
    x = _init_and_select(x, initial, where, jnp.maximum)
    return wrap(jnp.max(x, axis=_norm_axes("amax", axis, x.ndim), keepdims=keepdims))


@op("amin", methods=(), family="math")
def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    """``ops.amin(input, axis=None, keepdims=False, *, initial=None, where=None)``: values only."""
    x = _rin("amin", input)
    _no_bool("ReduceMin", x)
    x = _init_and_select(x, initial, where, jnp.minimum)
    return wrap(jnp.min(x, axis=_norm_axes("amin", axis, x.ndim), keepdims=keepdims))


def _tensor_amax(self, axis=None, keepdims=False, *, initial=None, where=None):
    return amax(self, axis, keepdims, initial=initial, where=where)


def _tensor_amin(self, axis=None, keepdims=False, *, initial=None, where=None):
    return amin(self, axis, keepdims, initial=initial, where=where)


_tensor_method("tensor_m_amax", "amax", _tensor_amax,
               "``Tensor.amax(axis=None, keepdims=False, *, initial=None, where=None)``.")
_tensor_method("tensor_m_amin", "amin", _tensor_amin,
               "``Tensor.amin(axis=None, keepdims=False, *, initial=None, where=None)``.")


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2))
def _extreme(x, axis, largest):
    """The largest (smallest) values along ``axis``, kept as a unit axis: a reduction (``ReduceMax``
    in an exported graph), whose tangent is the first maximal (minimal) element's only."""
    return (jnp.max if largest else jnp.min)(x, axis=axis, keepdims=True)


@_extreme.defjvp
def _extreme_jvp(axis, largest, primals, tangents):
    (x,), (t,) = primals, tangents
    idx = jnp.expand_dims(jnp.argmax(x, axis=axis) if largest else jnp.argmin(x, axis=axis), axis)
    return _extreme(x, axis, largest), jnp.take_along_axis(t, idx, axis=axis)


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def _arg_with_value(x, axis, keepdims, largest):
    """(values, Int64 indices) along one axis; the gradient goes to the first maximal (minimal)
    element only, as MindSpore's ArgMaxWithValue."""
    idx = jnp.argmax(x, axis=axis) if largest else jnp.argmin(x, axis=axis)
    values = _extreme(x, axis, largest)
    if not keepdims:
        values = jnp.squeeze(values, axis)
    else:
        idx = jnp.expand_dims(idx, axis)
    return values, idx.astype(jnp.int64)


def _max_min(name, input, axis, keepdims, initial, where, largest):
    x = _rin(name, input)
    if x.ndim == 0:
        return wrap(x), wrap(jnp.asarray(0, jnp.int64))
    if axis is None:
        _no_bool(name, x)
        return wrap(jnp.max(x) if largest else jnp.min(x)), wrap(jnp.asarray(0, jnp.int64))
    if initial is not None and not _is_number(initial):
        raise TypeError(f"For '{name}', 'initial' must be a scalar, but got {type(initial)}")
    if not _is_pyint(axis):
        raise TypeError(f"For '{name}', 'axis' must be int, but got {type(axis)}")
    prim = "ArgMaxWithValue" if largest else "ArgMinWithValue"
    _no_bool(prim, x)
    ax = _norm_axis(prim, axis, x.ndim)
    x = _init_and_select(x, initial, where, jnp.maximum if largest else jnp.minimum)
    v, i = _arg_with_value(x, ax, keepdims, largest)
    return wrap(v), wrap(i)


@op("max", family="math")
def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """``ops.max(input, axis=None, keepdims=False, *, initial=None, where=None)``: ``(values, indices)``
    (Int64 indices; with ``axis=None`` the index is 0)."""
    return _max_min("max", input, axis, keepdims, initial, where, True)


@op("min", family="math")
def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """``ops.min(input, axis=None, keepdims=False, *, initial=None, where=None)``: ``(values, indices)``."""
    return _max_min("min", input, axis, keepdims, initial, where, False)


@op("prim_argmax_with_value", primitive="ArgMaxWithValue", prim_args=("axis", "keep_dims"), family="math")
def _prim_argmax_with_value(input, axis=0, keep_dims=False):
    """``ArgMaxWithValue(axis=0, keep_dims=False)(input)``: ``(indices, values)``."""
    x = _rin("ArgMaxWithValue", input)
    _no_bool("ArgMaxWithValue", x)
    v, i = _arg_with_value(x, _norm_axis("ArgMaxWithValue", axis, x.ndim), keep_dims, True)
    return wrap(i), wrap(v)


@op("prim_argmin_with_value", primitive="ArgMinWithValue", prim_args=("axis", "keep_dims"), family="math")
def _prim_argmin_with_value(input, axis=0, keep_dims=False):
    """``ArgMinWithValue(axis=0, keep_dims=False)(input)``: ``(indices, values)``."""
    x = _rin("ArgMinWithValue", input)
    _no_bool("ArgMinWithValue", x)
    v, i = _arg_with_value(x, _norm_axis("ArgMinWithValue", axis, x.ndim), keep_dims, False)
    return wrap(i), wrap(v)


def _tensor_arg_with_value(self, axis=0, keep_dims=False):
    if self.ndim == 0:
        return self, wrap(jnp.asarray(0, jnp.int64))
    i, v = _prim_argmax_with_value(self, axis, keep_dims)
    return v, i


def _tensor_argmin_with_value(self, axis=0, keep_dims=False):
    if self.ndim == 0:
        return self, wrap(jnp.asarray(0, jnp.int64))
    i, v = _prim_argmin_with_value(self, axis, keep_dims)
    return v, i


_tensor_method("tensor_m_argmax_with_value", "argmax_with_value", _tensor_arg_with_value,
               "``Tensor.argmax_with_value(axis=0, keep_dims=False)``: ``(values, indices)``.")
_tensor_method("tensor_m_argmin_with_value", "argmin_with_value", _tensor_argmin_with_value,
               "``Tensor.argmin_with_value(axis=0, keep_dims=False)``: ``(values, indices)``.")


@op("argmax", family="math")
def argmax(input, dim=None, keepdim=False):
    """``ops.argmax(input, dim=None, keepdim=False)``: Int64 indices of the first maximum."""
    x = _rin("argmax", input)
    _check_bool_arg("argmax", "keepdim", keepdim)
    if x.ndim == 0:
        return wrap(jnp.asarray(0, jnp.int64))
    if _is_bool(x):
        x = x.astype(jnp.int32)
    if dim is None:
        return wrap(jnp.argmax(jnp.ravel(x)).astype(jnp.int64))
    ax = _norm_axis("Argmax", dim, x.ndim)
    return wrap(jnp.argmax(x, axis=ax, keepdims=keepdim).astype(jnp.int64))


@op("argmin", family="math")
def argmin(input, axis=None, keepdims=False):
    """``ops.argmin(input, axis=None, keepdims=False)``: Int32 indices of the first minimum."""
    x = _rin("argmin", input)
    if x.ndim == 0:
        return wrap(jnp.asarray(0, jnp.int64))
    _no_bool("Argmin", x)
    if axis is None:
        return wrap(jnp.argmin(jnp.ravel(x)).astype(jnp.int32))
    ax = _norm_axis("Argmin", axis, x.ndim)
    return wrap(jnp.argmin(x, axis=ax, keepdims=keepdims).astype(jnp.int32))


def _index_type(name, output_type):
    t = mstype.to_ms(output_type) if output_type is not None else mstype.int32
    if t not in (mstype.int32, mstype.int64):
        raise ValueError(f"{name} error: dtype should be Int32 or Int64 but got {t}")
    return t.np


@op("prim_argmax", primitive="Argmax", prim_args=("axis", "output_type"), family="math")
def _prim_argmax(input_x, axis=-1, output_type=mstype.int32):
    """``Argmax(axis=-1, output_type=mindspore.int32)(input_x)``."""
    t = _index_type("Argmax", output_type)
    x = _rin("Argmax", input_x)
    _no_bool("Argmax", x)
    return wrap(jnp.argmax(x, axis=_norm_axis("Argmax", axis, x.ndim)).astype(t))


@op("prim_argmin", primitive="Argmin", prim_args=("axis", "output_type"), family="math")
def _prim_argmin(x, axis=-1, output_type=mstype.int32):
    """``Argmin(axis=-1, output_type=mindspore.int32)(x)``."""
    t = _index_type("Argmin", output_type)
    a = _rin("Argmin", x)
    _no_bool("Argmin", a)
    return wrap(jnp.argmin(a, axis=_norm_axis("Argmin", axis, a.ndim)).astype(t))


def _var_mean(name, input, axis, ddof, keepdims, reduce_std=True):
    """(var, mean) of a float Tensor, MindSpore's ``ops.var_mean`` (``reduce_std=False``: its
    ``Var``/``VarMean`` kernels, which differentiate the formula)."""
    x = _rin(name, input)
    if isinstance(ddof, bool) or not isinstance(ddof, (int, bool, np.integer)):
        if not isinstance(ddof, bool):
            raise TypeError(f"For '{name}', the type of 'ddof' should be in [int, bool], but got "
                            f"{type(ddof).__name__}.")
    _check_bool_arg(name, "keepdims", keepdims)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"For '{name}', the input must be a float Tensor (Float16, Float32 or Float64), "
                        f"but got {_dn(x)}.")
    args = (x, _norm_axes(name, axis, x.ndim), int(ddof), bool(keepdims))
    # MindSpore computes ddof 0/1 with ReduceStd (var = std ** 2), whose backward is NaN
    # for both outputs where the std is 0; other ddof differentiate the plain formula
    return _reduce_std_var_mean(*args) if reduce_std and int(ddof) in (0, 1) else _var_mean_arrays(*args)


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def _var_mean_arrays(x, axes, ddof, keepdims):
    n = x.size if axes is None else int(np.prod([x.shape[a] for a in axes]))
    m = jnp.mean(x, axis=axes, keepdims=True)
    v = jnp.sum(jnp.square(x - m), axis=axes, keepdims=keepdims) / jnp.asarray(n - ddof, x.dtype)
    return v, (m if keepdims else jnp.mean(x, axis=axes, keepdims=False))


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3))
def _reduce_std_var_mean(x, axes, ddof, keepdims):
    return _var_mean_arrays(x, axes, ddof, keepdims)


@_reduce_std_var_mean.defjvp
def _reduce_std_var_mean_jvp(axes, ddof, keepdims, primals, tangents):
    (x,), (t,) = primals, tangents
    n = x.size if axes is None else int(np.prod([x.shape[a] for a in axes]))
    mk = jnp.mean(x, axis=axes, keepdims=True)
    s = jnp.sqrt(jnp.sum(jnp.square(x - mk), axis=axes, keepdims=True) / (n - ddof))
    one = s / s   # 1, NaN where the std is 0 (ReduceStd's d std / dx there is 0 / 0)
    dv = jnp.sum(2 * (x - mk) / (n - ddof) * one * t, axis=axes, keepdims=keepdims)
    dm = jnp.sum(one / n * t, axis=axes, keepdims=keepdims)
    return _reduce_std_var_mean(x, axes, ddof, keepdims), (dv.astype(t.dtype), dm.astype(t.dtype))


@op("var", family="math")
def var(input, axis=None, ddof=0, keepdims=False):
    """``ops.var(input, axis=None, ddof=0, keepdims=False)``: biased by default (``ddof=0``); float only."""
    return wrap(_var_mean("var", input, axis, ddof, keepdims)[0])


@op("std", family="math")
def std(input, axis=None, ddof=0, keepdims=False):
    """``ops.std(input, axis=None, ddof=0, keepdims=False)``: biased by default (``ddof=0``); float only."""
    return wrap(jnp.sqrt(_var_mean("std", input, axis, ddof, keepdims)[0]))


@op("var_mean", family="math")
def var_mean(input, axis=None, ddof=0, keepdims=False):
    """``ops.var_mean(input, axis=None, ddof=0, keepdims=False)``: ``(var, mean)``."""
    v, m = _var_mean("var_mean", input, axis, ddof, keepdims)
    return wrap(v), wrap(m)


@op("std_mean", family="math")
def std_mean(input, axis=None, ddof=0, keepdims=False):
    """``ops.std_mean(input, axis=None, ddof=0, keepdims=False)``: ``(std, mean)``."""
    v, m = _var_mean("std_mean", input, axis, ddof, keepdims)
    return wrap(jnp.sqrt(v)), wrap(m)


@op("prim_reduce_std", primitive="ReduceStd", prim_args=("axis", "unbiased", "keep_dims"), family="math")
def _prim_reduce_std(x, axis=(), unbiased=True, keep_dims=False):
    """``ReduceStd(axis=(), unbiased=True, keep_dims=False)(x)``: ``(std, mean)``."""
    v, m = _var_mean("ReduceStd", x, axis, int(bool(unbiased)), keep_dims)
    return wrap(jnp.sqrt(v)), wrap(m)


def _tensor_var_arrays(self, axis, ddof, keepdims):
    """``Tensor.var``: MindSpore's deprecated formula, which also takes integers (their mean is
    truncated, the result is Float32)."""
    x = self._data
    if 0 in x.shape:
        return jnp.asarray(np.nan, x.dtype)
    if not isinstance(ddof, int):     # a bool passes (MindSpore's check), a NumPy integer does not
        raise TypeError(f"For 'Tensor.var', the type of the argument 'ddof' must be int, but got {type(ddof)}.")
    if not isinstance(keepdims, bool):
        raise TypeError(f"For 'Tensor.var', the type of the argument 'keepdims' must be bool, but got "
                        f"{type(keepdims)}.")
    axes = _norm_axes("var", axis, x.ndim)
    m = _mean_keep_dtype(x, axes, True)
    d = x - m
    s = _sum_keep_dtype(d * d, axes, keepdims)
    n = x.size if axes is None else int(np.prod([x.shape[a] for a in axes]))
    return _truediv(s, n - int(ddof))


def _tensor_var(self, axis=None, ddof=0, keepdims=False):
    return wrap(_tensor_var_arrays(self, axis, ddof, keepdims))


def _tensor_var_dim(self, dim=None, correction=1, keepdim=False):
    return wrap(_tensor_var_arrays(self, dim, correction, keepdim))


def _tensor_std_dim(self, dim=None, *, correction=0, keepdim=False):
    return wrap(jnp.power(_tensor_var_arrays(self, dim, correction, keepdim), 0.5))


def _tensor_std(self, axis=None, ddof=0, keepdims=False):
    return wrap(jnp.power(_tensor_var_arrays(self, axis, ddof, keepdims), 0.5))


def _integer(name, bool_ok):
    """An overload's guard: argument ``name`` is an int (or NumPy integer); a bool only where MindSpore's
    signature takes one (``Tensor.var``'s ``ddof``, not ``std``'s nor ``correction``)."""
    return lambda a: isinstance(a[name], (int, np.integer)) and (bool_ok or not isinstance(a[name], bool))


_tensor_method("tensor_m_var", "var", _dispatch("var", (_tensor_var, _integer("ddof", True)),
                                                (_tensor_var_dim, _integer("correction", False))),
               "``Tensor.var(axis=None, ddof=0, keepdims=False)`` (biased by default).")
_tensor_method("tensor_m_std", "std", _dispatch("std", (_tensor_std_dim, _integer("correction", False)),
                                                (_tensor_std, _integer("ddof", False))),
               "``Tensor.std(axis=None, ddof=0, keepdims=False)`` (biased by default).")


@float32_inside
@functools.partial(jax.jit, static_argnums=(1, 2))
def _logsumexp(x, axes, keepdims):
    return jax.nn.logsumexp(x, axis=axes, keepdims=keepdims)


@op("logsumexp", family="math")
def logsumexp(input, dim, keepdim=False):
    """``ops.logsumexp(input, dim, keepdim=False)``: float only."""
    x = _rin("logsumexp", input)
    _float_input("logsumexp", x)
    axes = _norm_axes("logsumexp", dim, x.ndim)
    return wrap(_logsumexp(x, axes, bool(keepdim)))


def _tensor_logsumexp(self, dim, keepdim=False):
    return logsumexp(self, dim, keepdim)


_tensor_method("tensor_m_logsumexp", "logsumexp", _tensor_logsumexp, "``Tensor.logsumexp(dim, keepdim=False)``.")


def _all_any(name, input, axis, keep_dims, jfn):
    x = _rin(name, input)
    out = jfn(x, axis=_norm_axes(name, axis, x.ndim), keepdims=keep_dims)
    return out


@op("all", primitive="ReduceAll", prim_args=("keep_dims",), family="math")
def all(input, axis=None, keep_dims=False):
    """``ops.all(input, axis=None, keep_dims=False)``: logical AND reduction (Bool result)."""
    return wrap(_all_any("all", input, axis, keep_dims, jnp.all))


@op("any", primitive="ReduceAny", prim_args=("keep_dims",), family="math")
def any(input, axis=None, keep_dims=False):
    """``ops.any(input, axis=None, keep_dims=False)``: logical OR reduction (Bool result).

    MindSpore 2.10's CPU kernel reads a non-Bool input's memory as Bool bytes (``any`` of Float32
    ``[0., 4.]`` is False); msjax computes the documented result."""
    return wrap(_all_any("any", input, axis, keep_dims, jnp.any))


def _tensor_all_axis(self, axis=None, keep_dims=False):
    return all(self, axis, keep_dims)


def _tensor_all_dim(self, dim=None, keepdim=False):
    return all(self, dim, keepdim)


def _tensor_any_none(self):
    return any(self)


def _tensor_any_dim(self, dim, keepdim=False):
    return any(self, dim, keepdim)


def _tensor_any_axis(self, axis=None, keep_dims=False):
    return any(self, axis, keep_dims)


_tensor_method("tensor_m_all", "all", _dispatch("all", _tensor_all_axis, _tensor_all_dim),
               "``Tensor.all(axis=None, keep_dims=False)`` (or ``dim``/``keepdim``).")
_tensor_method("tensor_m_any", "any", _dispatch(
    "any", _tensor_any_none, (_tensor_any_dim, lambda a: _is_pyint(a["dim"])), _tensor_any_axis),
    "``Tensor.any(axis=None, keep_dims=False)`` (or ``dim``/``keepdim``).")


@op("count_nonzero", family="math")
def count_nonzero(x, axis=(), keep_dims=False, dtype=mstype.int32):
    """``ops.count_nonzero(x, axis=(), keep_dims=False, dtype=mindspore.int32)``."""
    a = _rin("count_nonzero", x)
    if _is_bool(a):
        raise TypeError("The 'input x' doesn't support 'Bool' and expect to receive (mindspore.int8, "
                        "mindspore.int16, mindspore.int32, mindspore.int64, mindspore.uint8, mindspore.uint16, "
                        "mindspore.uint32, mindspore.uint64, mindspore.float16, mindspore.float32, "
                        "mindspore.float64, mindspore.complex64, mindspore.complex128).")
    _check_bool_arg("count_nonzero", "keep_dims", keep_dims)
    axes = _norm_axes("count_nonzero", axis, a.ndim)
    n = jnp.sum((a != 0).astype(jnp.float32), axis=axes, keepdims=keep_dims)
    return wrap(n.astype(mstype.to_np(dtype)))


def _tensor_count_nonzero(self, axis=(), keep_dims=False, dtype=None):
    return count_nonzero(self, axis, keep_dims, mstype.int32 if dtype is None else dtype)


_tensor_method("tensor_m_count_nonzero", "count_nonzero", _tensor_count_nonzero,
               "``Tensor.count_nonzero(axis=(), keep_dims=False, dtype=None)``.")


# --- Tensor methods with MindSpore's overloads ----------------------------

def _tensor_max_all(self):
    x = _rin("max", self)
    _no_bool("Max", x)
    return wrap(jnp.max(x))


def _tensor_min_all(self):
    x = _rin("min", self)
    _no_bool("Min", x)
    return wrap(jnp.min(x))


def _tensor_max_dim(self, dim: "int", keepdim: "bool" = False):
    i, v = _prim_argmax_with_value(self, dim, keepdim)
    return v, i


def _tensor_min_dim(self, dim: "int", keepdim: "bool" = False):
    i, v = _prim_argmin_with_value(self, dim, keepdim)
    return v, i


def _np_reduce(name, x, axis, keepdims, initial, where, jfn, cmp):
    x = _init_and_select(x, initial, where, cmp)
    return jfn(x, axis=_norm_axes(name, axis, x.ndim), keepdims=keepdims)


def _check_reduce_method_args(name, keepdims, initial, where, return_indices):
    """The argument types MindSpore's ``Tensor.max``/``min(axis, keepdims, *, initial, where,
    return_indices)`` signature takes (its TypeErrors, before any value is looked at)."""
    def shown(v):
        return "Tensor" if isinstance(v, Tensor) else type(v).__name__
    if not isinstance(keepdims, (bool, np.bool_)):
        raise TypeError(f"{name}(): argument 'keepdims' (position 2) must be bool, not {shown(keepdims)}.")
    if initial is not None and not _is_number(initial):
        raise TypeError(f"{name}(): argument 'initial' must be Number but got {shown(initial)}.")
    if where is None:
        raise TypeError(f"{name}(): missing 1 required positional argument: where.")
    if not isinstance(where, (Tensor, bool, np.bool_)):
        raise TypeError(f"{name}(): argument 'where' must be Tensor or bool but got {shown(where)}.")
    if not isinstance(return_indices, (bool, np.bool_)):
        raise TypeError(f"{name}(): argument 'return_indices' must be bool but got {shown(return_indices)}.")


def _tensor_max_axis(self, axis: "None, int, list of int, tuple of int" = None, keepdims: "bool" = False, *,
                     initial: "None, Number" = None, where: "Tensor, bool" = True, return_indices: "bool" = False):
    _check_reduce_method_args("max", keepdims, initial, where, return_indices)
    if isinstance(axis, (list, tuple)):
        x = _rin("max", self)
        _no_bool("ReduceMax", x)
        return wrap(_np_reduce("max", x, axis, keepdims, initial, where, jnp.max, jnp.maximum))
    v, i = max(self, axis, keepdims, initial=initial, where=where)
    return (v, i) if return_indices else v


def _tensor_min_axis(self, axis: "None, int, list of int, tuple of int" = None, keepdims: "bool" = False, *,
                     initial: "None, Number" = None, where: "Tensor, bool" = True, return_indices: "bool" = False):
    _check_reduce_method_args("min", keepdims, initial, where, return_indices)
    if isinstance(axis, (list, tuple)):
        x = _rin("min", self)
        _no_bool("ReduceMin", x)
        return wrap(_np_reduce("min", x, axis, keepdims, initial, where, jnp.min, jnp.minimum))
    v, i = min(self, axis, keepdims, initial=initial, where=where)
    return (v, i) if return_indices else v


def _dim_guard(a):
    return _is_pyint(a["dim"]) and isinstance(a.get("keepdim", False), bool)


op("tensor_max", methods="max", family="math")(_named(_dispatch(
    "max", _tensor_max_all, (_tensor_max_dim, _dim_guard), _tensor_max_axis), "tensor_max",
    "``Tensor.max()``, ``Tensor.max(dim, keepdim=False)`` -> ``(values, indices)``, or "
    "``Tensor.max(axis=None, keepdims=False, *, initial=None, where=True, return_indices=False)``."))
op("tensor_min", methods="min", family="math")(_named(_dispatch(
    "min", _tensor_min_all, (_tensor_min_dim, _dim_guard), _tensor_min_axis), "tensor_min",
    "``Tensor.min()``, ``Tensor.min(dim, keepdim=False)`` -> ``(values, indices)``, or "
    "``Tensor.min(axis=None, keepdims=False, *, initial=None, where=True, return_indices=False)``."))


def _tensor_sum_dim(self, dim=None, keepdim=False, *, dtype=None):
    return sum(self, dim, keepdim, dtype=dtype)


def _tensor_sum_axis(self, axis=None, dtype=None, keepdims=False, initial=None):
    res = sum(self, axis, keepdims, dtype=dtype)
    if initial is not None:
        res = add(res, initial)
    if dtype is not None and mstype.to_ms(dtype) == mstype.bool_:
        res = wrap(res._data.astype(jnp.bool_))
    return res


op("tensor_sum", methods="sum", family="math")(_named(_dispatch(
    "sum", (_tensor_sum_dim, lambda a: isinstance(a["keepdim"], bool)), _tensor_sum_axis), "tensor_sum",
    "``Tensor.sum(dim=None, keepdim=False, *, dtype=None)`` or "
    "``Tensor.sum(axis=None, dtype=None, keepdims=False, initial=None)``."))


def _tensor_mean_dim(self, dim=None, keepdim=False, *, dtype=None):
    if not isinstance(keepdim, (bool, np.bool_)):   # MindSpore checks the types before the axis' range
        raise TypeError(f"mean(): argument 'keepdim' (position 2) must be bool, not {type(keepdim).__name__}.")
    if dtype is not None:
        self = wrap(self._data.astype(mstype.to_np(dtype)))
    return mean(self, dim, keepdim)


def _tensor_mean_axis(self, axis=None, keep_dims=False):
    return mean(self, axis, keep_dims)


op("tensor_mean", methods="mean", family="math")(_named(_dispatch(
    "mean", _tensor_mean_dim, _tensor_mean_axis), "tensor_mean",
    "``Tensor.mean(dim=None, keepdim=False, *, dtype=None)`` or ``Tensor.mean(axis=None, keep_dims=False)``."))


def _tensor_prod(self, dim=None, keepdim=False, dtype=None):
    return prod(self, dim, keepdim, dtype)


_tensor_method("tensor_m_prod", "prod", _tensor_prod, "``Tensor.prod(dim=None, keepdim=False, dtype=None)``.")


def _tensor_argmax_axis(self, axis=None, keepdims=False):
    return argmax(self, axis, keepdims)


def _tensor_argmax_dim(self, dim=None, keepdim=False):
    return argmax(self, dim, keepdim)


def _tensor_argmin_dim(self, dim=None, keepdim=False):
    return argmin(self, dim, keepdim)


def _tensor_argmin_axis(self, axis=None, keepdims=False):
    return argmin(self, axis, keepdims)


_tensor_method("tensor_m_argmax", "argmax", _dispatch("argmax", _tensor_argmax_axis, _tensor_argmax_dim),
               "``Tensor.argmax(axis=None, keepdims=False)`` (or ``dim``/``keepdim``): Int64.")
_tensor_method("tensor_m_argmin", "argmin", _dispatch("argmin", _tensor_argmin_dim, _tensor_argmin_axis),
               "``Tensor.argmin(axis=None, keepdims=False)`` (or ``dim``/``keepdim``): Int32.")


# ---------------------------------------------------------------------------
# scans
# ---------------------------------------------------------------------------

def _cum_axis(name, axis, ndim):
    if isinstance(axis, bool) or not _is_pyint(axis) and not isinstance(axis, Tensor):
        raise TypeError(f"For '{name}', the 'axis' must be an int, but got {type(axis).__name__}.")
    return _norm_axis(name, axis, ndim)


def _scan(x, axis, exclusive, reverse, jfn, identity):
    if reverse:
        x = jnp.flip(x, axis)
    out = jfn(x, axis=axis)
    if exclusive:
        pad = [(0, 0)] * x.ndim
        pad[axis] = (1, 0)
        out = jnp.pad(lax.slice_in_dim(out, 0, x.shape[axis] - 1, axis=axis), pad, constant_values=identity)
    if reverse:
        out = jnp.flip(out, axis)
    return out


@op("prim_cumsum", primitive="CumSum", prim_args=("exclusive", "reverse"), family="math")
def _prim_cumsum(input, axis, exclusive=False, reverse=False):
    """``CumSum(exclusive=False, reverse=False)(input, axis)``."""
    x = _rin("CumSum", input)
    if _is_bool(x):
        raise TypeError("For primitive[CumSum], the input argument[x] must be a type of {Tensor[BFloat16], "
                        "Tensor[Complex128], Tensor[Complex64], Tensor[Float16], Tensor[Float32], Tensor[Float64], "
                        "Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8], Tensor[UInt16], Tensor[UInt32], "
                        f"Tensor[UInt64], Tensor[UInt8]}}, but got {_dn(x)}.")
    ax = _cum_axis("CumSum", axis, x.ndim)
    return wrap(_scan(x, ax, exclusive, reverse, lambda a, axis: jnp.cumsum(a, axis=axis, dtype=a.dtype), 0))


@op("cumsum", family="math")
def cumsum(x, axis, dtype=None):
    """``ops.cumsum(x, axis, dtype=None)``: keeps the dtype (Bool is an error)."""
    _need_tensor("cumsum", "x", x)
    if dtype is not None and x._data.dtype != mstype.to_np(dtype):
        x = wrap(x._data.astype(mstype.to_np(dtype)))
    return _prim_cumsum(x, axis)


def _tensor_cumsum_arrays(self, axis, dtype):
    x = self._data
    orig = x.dtype
    if x.dtype in (jnp.bool_, jnp.int8, jnp.int16, jnp.uint8):
        x = x.astype(jnp.int32)
    if axis is None:
        x = jnp.ravel(x)
        axis = 0
    out = _prim_cumsum(wrap(x), axis)
    if dtype is not None and orig != mstype.to_np(dtype):
        out = wrap(out._data.astype(mstype.to_np(dtype)))
    return out


def _tensor_cumsum_dim(self, dim, *, dtype=None):
    return _tensor_cumsum_arrays(self, dim, dtype)


def _tensor_cumsum_axis(self, axis=None, dtype=None):
    return _tensor_cumsum_arrays(self, axis, dtype)


_tensor_method("tensor_m_cumsum", "cumsum", _dispatch(
    "cumsum", (_tensor_cumsum_dim, lambda a: _is_pyint(a["dim"])), _tensor_cumsum_axis),
    "``Tensor.cumsum(axis=None, dtype=None)``: Bool/Int8/Int16/UInt8 accumulate in Int32; "
    "``axis=None`` flattens.")


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def _cumprod_ms(x, axis):
    return jnp.cumprod(x, axis=axis)


def _cumprod_fwd(x, axis):
    out = jnp.cumprod(x, axis=axis)
    return out, (x, out)


def _cumprod_bwd(axis, res, g):
    # MindSpore's gradient: cumsum(dout * out, reverse=True) / x (nan where x == 0 and the sum is 0).
    x, out = res
    s = jnp.flip(jnp.cumsum(jnp.flip(g * out, axis), axis=axis), axis)
    return (s / x,)


_cumprod_ms.defvjp(_cumprod_fwd, _cumprod_bwd)


def _cumprod_arrays(x, axis, exclusive=False, reverse=False):
    if _is_float(x) and not exclusive and not reverse and jnp.issubdtype(x.dtype, jnp.floating):
        return _cumprod_ms(x, axis)
    return _scan(x, axis, exclusive, reverse, lambda a, axis: jnp.cumprod(a, axis=axis, dtype=a.dtype), 1)


@op("prim_cumprod", primitive="CumProd", prim_args=("exclusive", "reverse"), family="math")
def _prim_cumprod(x, axis, exclusive=False, reverse=False):
    """``CumProd(exclusive=False, reverse=False)(x, axis)``: keeps the dtype."""
    a = _rin("CumProd", x)
    _no_bool("CumProd", a)
    return wrap(_cumprod_arrays(a, _cum_axis("CumProd", axis, a.ndim), exclusive, reverse))


@op("cumprod", methods="cumprod", family="math")
def cumprod(input, dim, dtype=None):
    """``ops.cumprod(input, dim, dtype=None)``: integers and bools accumulate in Int64."""
    x = _rin("cumprod", input)
    if dtype is not None:
        x = x.astype(mstype.to_np(dtype))
    elif not _is_float(x):
        x = x.astype(jnp.int64)
    return wrap(_cumprod_arrays(x, _cum_axis("CumProd", dim, x.ndim)))


@functools.partial(jax.jit, static_argnums=(1, 2))
def _cum_extreme(x, axis, largest):
    """Running max/min with the index of its last occurrence (MindSpore's Cummax/Cummin)."""
    idx = lax.broadcasted_iota(jnp.int64, x.shape, axis)

    def combine(a, b):
        va, ia = a
        vb, ib = b
        take_b = (vb >= va) if largest else (vb <= va)
        return jnp.where(take_b, vb, va), jnp.where(take_b, ib, ia)

    return lax.associative_scan(combine, (x, idx), axis=axis)


@op("cummax", primitive="Cummax", prim_args=("axis",), methods="cummax", family="math")
def cummax(input, axis):
    """``ops.cummax(input, axis)``: ``(values, Int64 indices)``; ties take the later index."""
    x = _rin("cummax", input)
    _no_bool("Cummax", x)
    v, i = _cum_extreme(x, _cum_axis("cummax", axis, x.ndim), True)
    return wrap(v), wrap(i)


@op("cummin", primitive="Cummin", prim_args=("axis",), methods="cummin", family="math")
def cummin(input, axis):
    """``ops.cummin(input, axis)``: ``(values, Int32 indices)``; ties take the later index."""
    x = _rin("cummin", input)
    _no_bool("Cummin", x)
    v, i = _cum_extreme(x, _cum_axis("cummin", axis, x.ndim), False)
    return wrap(v), wrap(i.astype(jnp.int32))


# ---------------------------------------------------------------------------
# histograms
# ---------------------------------------------------------------------------

@op("histc", methods="histc", primitive="Histogram", prim_args=("bins", "min", "max"), family="math")
def histc(input, bins=100, min=0., max=0.):
    """``ops.histc(input, bins=100, min=0., max=0.)``: counts in ``bins`` equal bins over
    ``[min, max]`` (the data's range when both are equal); values outside are ignored. The result
    has the input's dtype (Float32 or Int32; Float32 for a Float16 input)."""
    if not isinstance(min, (int, float)):
        raise TypeError(f"For 'histc', parameter 'min' must be an int or float, but got {type(min)}.")
    if not isinstance(max, (int, float)):
        raise TypeError(f"For 'histc', parameter 'max' must be an int or float, but got {type(max)}.")
    x = _rin("histc", input)
    if x.dtype not in (jnp.float16, jnp.float32, jnp.int32):
        raise TypeError(f"For primitive[Histogram], the input argument[x] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Int32]}}, but got Tensor[{_dn(x)}].")
    _check_int_arg("histc", "bins", bins)
    if bins <= 0:
        raise ValueError(f"For 'Histogram', the 'bins' must be > 0, but got {bins}.")
    if min > max:
        raise ValueError(f"For 'Histogram', the 'min' should be <= max: {float(max)}, but got {float(min)}.")
    return wrap(_histc_counts(x, float(min), float(max), int(bins)))


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def _histc_counts(x, min, max, bins):
    xf = x.astype(jnp.float32)
    if min == max:
        lo, hi = jnp.min(xf), jnp.max(xf)
        same = lo == hi
        lo, hi = jnp.where(same, lo - 1, lo), jnp.where(same, hi + 1, hi)
    else:
        lo, hi = jnp.float32(min), jnp.float32(max)
    idx = jnp.floor((xf - lo) * bins / (hi - lo)).astype(jnp.int32)
    idx = jnp.where(xf == hi, bins - 1, idx)
    valid = (xf >= lo) & (xf <= hi)
    counts = jnp.sum((idx[..., None] == jnp.arange(bins, dtype=jnp.int32)) & valid[..., None],
                     axis=tuple(range(x.ndim)), dtype=jnp.int32)
    return counts.astype(jnp.float32 if x.dtype == jnp.float16 else x.dtype)


@op("bincount", methods="bincount", family="math")
def bincount(input, weights=None, minlength=0):
    """``ops.bincount(input, weights=None, minlength=0)``: Float32 counts (weighted sums) of each
    non-negative value of a 1-D Tensor. The output length depends on the data: in a GRAPH_MODE Cell,
    ms.jit or a gradient msjax runs the whole call uncompiled, as MindSpore runs a dynamic-shape graph;
    under a raw ``jax.jit`` it raises JAX's ConcretizationTypeError."""
    if not isinstance(input, Tensor):
        raise TypeError("For math function 'bincount', 'input' must be Tensor.")
    if weights is not None and not isinstance(weights, Tensor):
        raise TypeError(f"For math function 'bincount', 'weights' must be Tensor, but got {type(weights)}.")
    if not isinstance(minlength, int) or isinstance(minlength, bool):
        raise TypeError(f"For math function 'bincount', 'minlength' must be int but got {type(minlength)}.")
    x = input._data
    if x.ndim != 1:
        raise ValueError("For math function 'bincount', 'input' should be one-dimensional tensor.")
    if x.shape[0] == 0:
        return wrap(jnp.zeros((0,), jnp.float32))
    if minlength < 0:
        raise ValueError(f"For 'bincount', 'minlength' should be >= 0 but got {minlength}.")
    if isinstance(x, jax.core.Tracer):
        # a GRAPH_MODE Cell, ms.jit or gradient around it then runs uncompiled (MindSpore: a dynamic-shape graph)
        raise jax.errors.ConcretizationTypeError(x, "ops.bincount has an output length that depends on the input values")
    top = float(np.max(np.asarray(x, np.float32)))
    length = int(top) + 1 if top > minlength - 1 else minlength
    hit = (x[None, :] == jnp.arange(length, dtype=x.dtype)[:, None])
    if weights is not None:
        if weights.shape != input.shape:
            raise ValueError("for bincount `input` and `weights` must have the same length")
        hit = weights._data * hit
    return wrap(jnp.sum(hit.astype(jnp.float32), axis=1))


# ---------------------------------------------------------------------------
# nansum/nanmean, median/nanmedian, logcumsumexp, aminmax, cov
# ---------------------------------------------------------------------------

@op("nansum", methods="nansum", family="math")
def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """``ops.nansum(input, axis=None, keepdims=False, *, dtype=None)``: NaNs count as 0; the dtype is kept."""
    x = arr(input)
    axes = _norm_axes("nansum", axis, x.ndim)
    r = jnp.nansum(x, axis=axes, keepdims=keepdims, dtype=x.dtype) if _is_float(x) else \
        jnp.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype)
    return _out(r if dtype is None else r.astype(mstype.to_np(dtype)))


@op("nanmean", methods="nanmean", family="math")
def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """``ops.nanmean(input, axis=None, keepdims=False, *, dtype=None)``: the mean of the non-NaN elements."""
    x = arr(input)
    if not _is_float(x):
        raise TypeError("For 'nanmean', input should be floating point dtype, but got "
                        "<class 'mindspore.common.tensor.Tensor'>.")
    axes = _norm_axes("nanmean", axis, x.ndim)
    r = jnp.nanmean(x, axis=axes, keepdims=keepdims)
    return _out(r if dtype is None else r.astype(mstype.to_np(dtype)))


def _median(x, axis, keepdims, ignore_nan):
    ax = _norm_axis("median", axis, x.ndim)
    if x.ndim == 0:
        return wrap(x), wrap(jnp.zeros((), jnp.int64))
    order = jnp.argsort(x, axis=ax, stable=True)   # NaNs last
    n = x.shape[ax]
    if ignore_nan:
        cnt = jnp.sum(~jnp.isnan(x), axis=ax, keepdims=True)
        k = jnp.maximum(cnt - 1, 0) // 2
    else:
        k = jnp.full([1 if d == ax else s for d, s in enumerate(x.shape)], (n - 1) // 2)
        if _is_float(x):   # a NaN in the slice is the median
            has_nan = jnp.any(jnp.isnan(x), axis=ax, keepdims=True)
            first_nan = jnp.argmax(jnp.isnan(jnp.take_along_axis(x, order, ax)), axis=ax, keepdims=True)
            k = jnp.where(has_nan, first_nan, k)
    idx = jnp.take_along_axis(order, k, ax)
    val = jnp.take_along_axis(x, idx, ax)
    if not keepdims:
        idx, val = jnp.squeeze(idx, ax), jnp.squeeze(val, ax)
    return wrap(val), wrap(idx.astype(jnp.int64))


@op("median", family="math")
def median(input, axis=-1, keepdims=False):
    """``ops.median(input, axis=-1, keepdims=False)``: the lower median along ``axis`` and its Int64 index."""
    return _median(arr(input), axis, keepdims, False)


def _tensor_median_dim(self, dim=-1, keepdim=False):
    return _median(arr(self), dim, keepdim, False)


def _tensor_median_axis(self, axis=-1, keepdims=False):
    return _median(arr(self), axis, keepdims, False)


# ``Tensor.median()`` runs the older ``median(axis=-1, keepdims=False)`` on MindSpore's CPU build (the global
# median has no CPU kernel), which msjax gives too.
op("tensor_median", methods="median", family="math")(_named(_dispatch(
    "median", _tensor_median_dim, _tensor_median_axis), "tensor_median",
    "``Tensor.median(dim=-1, keepdim=False)`` or ``Tensor.median(axis=-1, keepdims=False)``: ``(values, indices)``."))


@op("nanmedian", methods="nanmedian", family="math")
def nanmedian(input, axis=-1, keepdims=False):
    """``ops.nanmedian(input, axis=-1, keepdims=False)``: ``median`` of the non-NaN elements."""
    return _median(arr(input), axis, keepdims, True)


@op("logcumsumexp", methods="logcumsumexp", family="math")
def logcumsumexp(input, axis):
    """``ops.logcumsumexp(input, axis)``: ``log(cumsum(exp(input)))``, float inputs only."""
    x = arr(input)
    if x.dtype not in (jnp.float16, jnp.float32, jnp.float64):
        raise TypeError("For primitive[CumulativeLogsumexp], the input argument[x] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got Tensor[{_dn(x)}].")
    return wrap(lax.cumlogsumexp(x, axis=_norm_axis("logcumsumexp", axis, x.ndim)))


@op("aminmax", methods="aminmax", family="math")
def aminmax(input, *, axis=0, keepdims=False):
    """``ops.aminmax(input, *, axis=0, keepdims=False)``: ``(min, max)`` along ``axis``; ``axis=None``
    over every element (``keepdims``: every dimension kept as 1), as MindSpore."""
    x = arr(input)
    ax = None if axis is None else _norm_axis("aminmax", axis, x.ndim)
    if x.ndim == 0:     # axis 0 or -1 of a 0-D Tensor: the value itself, shape ()
        return wrap(x), wrap(x)
    return wrap(jnp.min(x, ax, keepdims=keepdims)), wrap(jnp.max(x, ax, keepdims=keepdims))


@op("cov", methods="cov", family="math")
def cov(input, *, correction=1, fweights=None, aweights=None):
    """``ops.cov(input, *, correction=1, fweights=None, aweights=None)``: covariance of the rows
    (variables) over the columns (observations)."""
    x = arr(input)
    x = x.reshape(1, -1) if x.ndim < 2 else x
    x = _to_float(x)
    w = None
    if fweights is not None:
        w = arr(fweights).astype(x.dtype)
    if aweights is not None:
        a = arr(aweights).astype(x.dtype)
        w = a if w is None else w * a
    if w is None:
        n = x.shape[1]
        avg = jnp.mean(x, axis=1, keepdims=True)
        norm = n - correction
    else:
        wsum = jnp.sum(w)
        avg = jnp.sum(x * w, axis=1, keepdims=True) / wsum
        norm = wsum - correction if aweights is None else \
            wsum - correction * jnp.sum(w * arr(aweights).astype(x.dtype)) / wsum
    xc = x - avg
    xw = xc if w is None else xc * w
    c = xw @ jnp.conj(xc).T / jnp.maximum(norm, 0)
    return wrap(jnp.squeeze(c))


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
# Bincount, Median Primitives
# ---------------------------------------------------------------------------

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
