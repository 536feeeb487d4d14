"""Indexing ops: gather (``gather``, ``gather_elements``/``GatherD``, ``gather_nd``,
``index_select``, ``take``, ``GatherV2``), selection (``masked_select``, ``masked_fill``,
``select``/``where``, ``nonzero``, ``argwhere``, ``unique``, the ``MaskedSelect``/``NonZero``
Primitives), scatter (``scatter``, ``scatter_nd``, the ``tensor_scatter_*`` ops and their
Primitives, ``index_add``, ``index_fill``, ``masked_scatter``, ``select/slice/diagonal_scatter``),
the row writes of ``Inplace*``, segment reductions (``unsorted_segment_*``, ``Segment*``), and
``UnravelIndex``, and the checks of Tensor indexing (``t[idx]`` / ``t[idx] = v``).

MindSpore checks index ranges at run time (``RuntimeError`` for an index out of
range); msjax checks concrete indices before the op and, in a compiled msjax function,
computes the check in the program and raises when it has run (``index_checks``,
``_core.runtime_checks``). Under a bare ``jax.jit`` out-of-range indices cannot raise:
gathers then clamp and scatters drop them.
Dynamic-shape ops (``masked_select``, ``nonzero``, ``unique`` ...) need concrete values:
inside a compiled function they make msjax fall back to running that function op by op."""
from __future__ import annotations

import builtins
import functools

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core import provided
from ..._core.registry import op
from ..._core.tensor import Tensor, _infer_np
from ._util import _prim_of, arr, operand_pair, to_array, wrap
from .scatter_int_div import scatter_int_divide
from .index_checks import check_elements, check_rows, check_values
from .array import (_check_int_index, _concrete, _ints, _is_tracer, _need_concrete, _norm_axis, _py_range, _py_slice,
                    _write_inplace)
from .math import _dn, _need_tensor
from .math import _norm_axis as _math_norm_axis  # (name, axis, ndim); array's _norm_axis is (axis, ndim, op_name)


# ---------------------------------------------------------------------------
# gather / index
# ---------------------------------------------------------------------------
def _oob(idx, n, neg_ok):
    """First out-of-range value of a concrete index array, or None."""
    v = _concrete(idx)
    if v is None or v.size == 0:
        return None
    lo = -n if neg_ok else 0
    bad = (v < lo) | (v >= n)
    if bad.any():
        return int(v[bad].ravel()[0])
    return None


def _gather(x, idx, axis, batch_dims=0):
    if isinstance(axis, Tensor):
        axis = int(axis._data)
    ax = _norm_axis(axis, x.ndim, "Gather")
    check_gather_range(idx, x.shape[ax])
    if batch_dims < 0:
        batch_dims += idx.ndim
    if batch_dims > ax:
        raise ValueError(f"For 'Gather', 'batch_dims' must be less than or equal to 'axis', but got {batch_dims} "
                         f"and {ax}.")
    return wrap(_gather_kernel(x, idx, ax, batch_dims))


def check_gather_range(idx, n):
    """Gather's kernel check: ``idx`` in ``[-n, n)``; its message names a negative index after adding ``n``."""
    check_values(idx, 0, n, [("RuntimeError", f"For 'Gather', the 'input_indices' should be in the range [0, {n}), "
                                              "but got {0}, error_code[58]")], wrap=n)


@functools.partial(jax.jit, static_argnums=(2, 3))
def _gather_kernel(x, idx, ax, batch_dims):
    fn = take_wrapped
    for _ in _py_range(batch_dims):
        fn = jax.vmap(fn, in_axes=(0, 0, None))
    return fn(x, idx, ax - batch_dims)


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def take_wrapped(a, i, axis):
    """``a``'s slices at ``i`` along ``axis``, a negative index counting from the end (one gather:
    the exporters write it as MindSpore's Gather); as MindSpore's gradient (an UnsortedSegmentSum
    over the indices as given), no gradient reaches a negative one."""
    return jnp.take(a, i, axis=axis, mode="fill", fill_value=0)


def _take_wrapped_fwd(a, i, axis):
    return take_wrapped(a, i, axis), (a, i)


def _take_wrapped_bwd(axis, res, g):
    a, i = res
    keep = (i >= 0).reshape((1,) * axis + i.shape + (1,) * (a.ndim - axis - 1))
    _, pull = jax.vjp(lambda t: jnp.take(t, i, axis=axis, mode="fill", fill_value=0), a)
    return pull(jnp.where(keep, g, jnp.zeros((), g.dtype)))[0], None


take_wrapped.defvjp(_take_wrapped_fwd, _take_wrapped_bwd)


def _gather_check(input_params, input_indices):
    if not isinstance(input_indices, Tensor):
        raise TypeError(f"Failed calling Gather with \"Gather(batch_dims=int)(input_params=Tensor, "
                        f"input_indices={type(input_indices).__name__}, axis=int)\".")
    idx = input_indices._data
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For 'Gather', the 'input_indices' must be an integer Tensor, but got "
                        f"{mstype.from_np(idx.dtype)}.")
    return arr(input_params), idx


@op("gather", family="array")
def gather(input_params, input_indices, axis, batch_dims=0):
    """``ops.gather(input_params, input_indices, axis, batch_dims=0)``: slices of
    ``input_params`` along ``axis`` at ``input_indices`` (negative indices count from the end)."""
    x, idx = _gather_check(input_params, input_indices)
    return _gather(x, idx, axis, batch_dims)


@op("prim_gather", primitive="Gather", prim_args=("batch_dims",), family="array")
def _prim_gather(input_params, input_indices, axis, batch_dims=0):
    return gather(input_params, input_indices, axis, batch_dims)


def _gather_elements(x, dim, index, op_name="GatherD"):
    if not isinstance(index, Tensor):
        raise TypeError(f"For '{op_name}', 'index' must be a Tensor, but got {type(index).__name__}.")
    idx = index._data
    _check_int_index(idx, op_name, "index")
    if idx.ndim != x.ndim:
        raise ValueError(f"For primitive[{op_name}], the x_rank must be equal to {idx.ndim}, but got {x.ndim}.")
    ax = _norm_axis(dim, x.ndim, op_name)
    for d in _py_range(x.ndim):
        if d != ax and idx.shape[d] > x.shape[d]:
            raise ValueError(f"For '{op_name}', the size of 'index' must not exceed the size of 'input' in dimension "
                             f"{d}, but got {idx.shape[d]} and {x.shape[d]}.")
    n = x.shape[ax]
    check_values(idx, -n, n, [("RuntimeError", f"For '{op_name}', the value of 'index' must be in [{-n}, {n}), "
                                               "but got: {0}")])
    return wrap(_gather_elements_kernel(x, idx, ax))


@functools.partial(jax.jit, static_argnums=(2,))
def _gather_elements_kernel(x, idx, ax):
    src = x[tuple(_py_slice(0, idx.shape[d]) if d != ax else _py_slice(None) for d in _py_range(x.ndim))]
    idx = jnp.where(idx < 0, idx + x.shape[ax], idx)
    return jnp.take_along_axis(src, idx, axis=ax, mode="clip")


@op("gather_elements", methods="gather_elements", family="array")
def gather_elements(input, dim, index):
    """``ops.gather_elements(input, dim, index)``: ``out[i][j] = input[index[i][j]][j]`` (dim 0)."""
    return _gather_elements(arr(input), dim, index)


@op("gather_d", primitive="GatherD", family="array")
def gather_d(x, dim, index):
    """``ops.gather_d(x, dim, index)`` / ``ops.GatherD()(x, dim, index)``."""
    return _gather_elements(arr(x), dim, index)


@op("tensor_gather", methods="gather", family="array")
def _tensor_gather(input, *args, **kwargs):
    """``Tensor.gather(dim, index)`` (like ``gather_elements``) or the older
    ``Tensor.gather(input_indices, axis, batch_dims=0)``."""
    if "dim" in kwargs or "index" in kwargs or (args and isinstance(args[0], int) and not isinstance(args[0], bool)):
        names = ("dim", "index")
        vals = dict(zip(names, args), **kwargs)
        return _gather_elements(arr(input), vals["dim"], vals["index"], "GatherD")
    names = ("input_indices", "axis", "batch_dims")
    vals = dict(zip(names, args), **kwargs)
    return gather(input, vals["input_indices"], vals["axis"], vals.get("batch_dims", 0))


def _gather_nd(x, indices):
    if not isinstance(indices, Tensor):
        raise TypeError(f"For 'GatherNd', 'indices' must be a Tensor, but got {type(indices).__name__}.")
    idx = indices._data
    _check_int_index(idx, "GatherNd", "indices")
    k = idx.shape[-1] if idx.ndim else 0
    if idx.ndim == 0 or k > x.ndim:
        raise ValueError(f"For 'GatherNd', the last dimension of 'indices' must be less than or equal to the rank "
                         f"of 'input_x', but got indices shape {list(idx.shape)} and input rank {x.ndim}.")
    shape = ", ".join(str(d) for d in x.shape)
    check_rows(idx, x.shape[:k], [("RuntimeError", "For 'GatherNd', the indices[{0}]: [const vector]{{{rest}}}, "
                                                   f"does not index into input_shape: [const vector]{{{{{shape}}}}}.")])
    return wrap(_gather_nd_kernel(x, idx))


@jax.jit
def _gather_nd_kernel(x, idx):
    return x[tuple(jnp.moveaxis(idx, -1, 0))]


@op("gather_nd", primitive="GatherNd", methods="gather_nd", family="array")
def gather_nd(input_x, indices):
    """``ops.gather_nd(input_x, indices)``: the last axis of ``indices`` indexes the leading axes."""
    return _gather_nd(arr(input_x), indices)


@op("index_select", family="array")
def index_select(input, axis, index):
    """``ops.index_select(input, axis, index)``: ``index`` a 1-D integer Tensor."""
    if not isinstance(input, Tensor) or not isinstance(index, Tensor):
        raise TypeError("For 'index_select', `input` and `index` must be all tensors.")
    idx = index._data
    if idx.ndim != 1:
        raise ValueError(f"For 'index_select', the dimension of `index` must be 1, but got {idx.ndim}")
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For 'index_select', the dtype of `index` must be int32 or int64, but got "
                        f"{mstype.from_np(idx.dtype)}.")
    x = input._data
    return _gather(x, idx, axis)


@op("tensor_index_select", methods="index_select", family="array")
def _tensor_index_select(input, *args, **kwargs):
    """``Tensor.index_select(axis, index)`` / ``Tensor.index_select(dim, index)``."""
    if "dim" in kwargs:
        kwargs["axis"] = kwargs.pop("dim")
    vals = dict(zip(("axis", "index"), args), **kwargs)
    return index_select(input, vals["axis"], vals["index"])


def _index_add(x, indices, y, axis, alpha=1, op_name="IndexAdd"):
    if not isinstance(x, Tensor) or not isinstance(y, Tensor) or not isinstance(indices, Tensor):
        raise TypeError(f"For '{op_name}', 'x', 'indices' and 'y' must be Tensors.")
    a, i, v = x._data, indices._data, y._data
    if i.dtype != np.int32:
        raise TypeError(f"For primitive[{op_name}], the input argument[indices type] must be a type of "
                        f"{{Tensor[Int32]}}, but got Tensor[{mstype.from_np(i.dtype)}].")
    if i.ndim != 1:
        raise ValueError(f"For '{op_name}', the 'indices' must be 1-D, but got {i.ndim}-D.")
    ax = _norm_axis(axis, a.ndim, op_name)
    if v.ndim != a.ndim or v.shape[ax] != i.shape[0] or \
            any(v.shape[d] != a.shape[d] for d in _py_range(a.ndim) if d != ax):
        raise ValueError(f"For '{op_name}', the shape of 'y' must be the shape of 'x' with dimension {ax} equal to "
                         f"the size of 'indices', but got x {list(a.shape)}, y {list(v.shape)}, indices "
                         f"{list(i.shape)}.")
    bad = _oob(i, a.shape[ax], False)
    if bad is not None:
        raise RuntimeError(f"For '{op_name}', the values of 'indices' must be in [0, {a.shape[ax]}), but got {bad}.")
    if alpha != 1:
        v = v * alpha
    new = _index_add_kernel(a, i, v, ax)
    _write_inplace(x, new)
    return wrap(new)


@functools.partial(jax.jit, static_argnums=(3,))
def _index_add_kernel(a, i, v, ax):
    return a.at[(_py_slice(None),) * ax + (i,)].add(v.astype(a.dtype), mode="drop")


@op("index_add", family="array")
def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """``ops.index_add(x, indices, y, axis, ...)``: adds ``y`` to ``x`` at ``indices`` (Int32)
    along ``axis``. Like MindSpore, ``x`` (a Parameter or Tensor) is updated in place."""
    return _index_add(x, indices, y, axis)


@op("prim_index_add", primitive="IndexAdd", prim_args=("axis", "use_lock", "check_index_bound"), family="array")
def _prim_index_add(x, indices, y, axis=0, use_lock=True, check_index_bound=True):
    return _index_add(x, indices, y, axis)


@op("tensor_index_add", methods="index_add", family="array")
def _tensor_index_add(input, *args, alpha=1, **kwargs):
    """``Tensor.index_add(indices, y, axis, ...)`` or ``Tensor.index_add(dim, index, source, *, alpha=1)``."""
    if "dim" in kwargs or (args and isinstance(args[0], int) and not isinstance(args[0], bool)):
        vals = dict(zip(("dim", "index", "source"), args), **kwargs)
        return _index_add(input, vals["index"], vals["source"], vals["dim"], alpha)
    vals = dict(zip(("indices", "y", "axis"), args), **kwargs)
    return _index_add(input, vals["indices"], vals["y"], vals["axis"])


def _check_bool(a, op_name, name):
    if a.dtype != np.bool_:
        raise TypeError(f"For primitive[{op_name}], the input argument[{name}] must be a type of {{Bool}}, but got "
                        f"{mstype.from_np(a.dtype)}.")


@op("masked_select", methods="masked_select", family="array")
def masked_select(input, mask):
    """``ops.masked_select(input, mask)``: a 1-D Tensor of the elements where ``mask`` (broadcast) is True."""
    x, m = arr(input), arr(mask)
    _check_bool(m, "MaskedSelect", "mask")
    shape = jnp.broadcast_shapes(x.shape, m.shape)
    mv = _need_concrete(m, "masked_select")
    xb = jnp.broadcast_to(x, shape)
    return wrap(xb[np.nonzero(np.broadcast_to(mv, shape))])


def _masked_fill(x, mask, value, op_name="MaskedFill"):
    m = arr(mask)
    _check_bool(m, op_name, "mask")
    v = arr(value) if isinstance(value, Tensor) else value
    if isinstance(v, jax.Array) or _is_tracer(v):
        if v.ndim != 0:
            raise ValueError(f"For '{op_name}', 'value' must be a 0-D Tensor or a number, but got a "
                             f"{v.ndim}-D Tensor.")
    v = jnp.asarray(v, x.dtype)
    return jnp.where(m, v, x)


@op("masked_fill", methods="masked_fill", family="array")
def masked_fill(input_x, mask, value):
    """``ops.masked_fill(input_x, mask, value)``: ``value`` where ``mask`` is True."""
    return wrap(_masked_fill(arr(input_x), mask, value))


@op("prim_masked_fill", primitive="MaskedFill", family="array")
def _prim_masked_fill(input, mask, value):
    return masked_fill(input, mask, value)


@op("tensor_masked_fill_", methods="masked_fill_", family="array")
def _tensor_masked_fill_(input, mask, value):
    new = _masked_fill(arr(input), mask, value)
    _write_inplace(input, new)
    return input


def _where3(condition, input, other, op_name):
    c = arr(condition)
    if c.dtype != np.bool_:
        raise TypeError(f"For '{op_name}', the 'condition' must be a bool Tensor, but got "
                        f"{mstype.from_np(c.dtype)}.")
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        x, y = to_array(input), to_array(other)
    else:
        x, y = operand_pair(input, other)
    try:
        shape = jnp.broadcast_shapes(jnp.shape(c), jnp.shape(x), jnp.shape(y))
    except ValueError:
        raise ValueError(f"For '{op_name}', the shapes of 'condition' {list(jnp.shape(c))}, 'input' "
                         f"{list(jnp.shape(x))} and 'other' {list(jnp.shape(y))} cannot broadcast.") from None
    return wrap(jnp.broadcast_to(jnp.where(c, x, y), shape))


@op("select", family="array")
def select(condition, input, other):
    """``ops.select(condition, input, other)``: ``input`` where ``condition`` is True, else
    ``other`` (Tensors or numbers; broadcast, promoted)."""
    return _where3(condition, input, other, "select")


@op("prim_select", primitive="Select", family="array")
def _prim_select(condition, input, other):
    return _where3(condition, input, other, "Select")


@op("where", family="array")
def where(condition, input, other):
    """``ops.where(condition, input, other)``."""
    return _where3(condition, input, other, "where")


@op("tensor_where", methods="where", family="array")
def _tensor_where(input, condition, y=None, *, other=None):
    """``Tensor.where(condition, y)``: self where ``condition``, else ``y``."""
    return _where3(condition, input, other if y is None else y, "where")


def _select_int(v):
    """An int (not bool) or a 0-d integer Tensor: what ``Tensor.select(dim, index)`` takes."""
    if isinstance(v, Tensor):
        return v._data.ndim == 0 and jnp.issubdtype(v._data.dtype, jnp.integer)
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _select_dim(x, dim, index):
    ax = _norm_axis(int(arr(dim)), x.ndim, "select")
    i = int(arr(index))
    n = x.shape[ax]
    if not -n <= i < n:
        raise ValueError(f"For Primitive [SelectExtView] start exceed range. start: {i}, start should be in "
                         f"[{-n}, {n}).")
    return wrap(jnp.take(x, i, axis=ax))


def _select_where(input, condition, y):
    """MindSpore's older ``Tensor.select(condition, y)`` with its checks: a number ``y`` needs an Int32
    (int) or Float32 (float) input."""
    if not isinstance(condition, Tensor):
        raise TypeError(f"For 'Tensor.select', the argument 'condition' should be Tensor, but got {type(condition)}.")
    if not isinstance(y, (Tensor, int, float)):
        raise TypeError(f"For 'Tensor.select', the argument 'y' should be Tensor, int or float, but got {type(y)}.")
    for kind, want in ((int, mstype.int32), (float, mstype.float32)):
        if isinstance(y, kind) and input.dtype != want:
            raise TypeError(f"For 'Tensor.select', if the argument 'y' is {kind.__name__}, then the tensor type "
                            f"should be {kind.__name__}32 but got {input.dtype}")
    return _where3(condition, input, y, "select")


@op("tensor_select", methods="select", family="array")
def _tensor_select(input, *args, **kwargs):
    """``Tensor.select(dim, index)`` (a slice: two ints, or 0-d integer Tensors) or MindSpore's older
    ``Tensor.select(condition, y)``."""
    by_dim = bool({"dim", "index"} & set(kwargs)) or (not ({"condition", "y"} & set(kwargs))
                                                       and all(_select_int(v) for v in args))
    names = ("dim", "index") if by_dim else ("condition", "y")
    vals = dict(zip(names, args))
    if len(args) + len(kwargs) != 2 or set(kwargs) - set(names) or set(vals) & set(kwargs) or \
            (by_dim and not all(_select_int(v) for v in list(args) + list(kwargs.values()))):
        raise TypeError(f'Failed calling select with "select({_shown_args(args, kwargs)})".\nThe valid calling '
                        'should be:\n"Tensor.select(dim=<int>, index=<int>)"\n"Tensor.select(condition=<Tensor>, '
                        'y=<Tensor, int, float>)"')
    vals.update(kwargs)
    if by_dim:
        return _select_dim(arr(input), vals["dim"], vals["index"])
    return _select_where(input, vals["condition"], vals["y"])


def _shown_args(args, kwargs):
    return ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])


@op("is_nonzero", family="array")
def is_nonzero(input):
    """``ops.is_nonzero(input)``: the Python bool of a one-element Tensor (NaN is True). The value is
    needed on the host: in a compiled call the call runs uncompiled."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For is_nonzero, the input must be a Tensor, but got {type(input)}.")
    if input.size != 1:
        raise ValueError(f"For is_nonzero, the numel of input must be 1, but got {input.size}.")
    a = input._data
    if isinstance(a, jax.core.Tracer):
        raise jax.errors.ConcretizationTypeError(a, "ops.is_nonzero returns a Python bool of the input's value")
    return bool(np.asarray(a).reshape(()))


@op("nonzero", methods="nonzero", family="array")
def nonzero(input, *, as_tuple=False):
    """``ops.nonzero(input, *, as_tuple=False)``: Int64 indices of the nonzero elements,
    shape ``(N, rank)`` (or a tuple of ``rank`` 1-D Tensors)."""
    x = arr(input)
    if x.ndim == 0:
        raise RuntimeError("For 'NonZero', the rank of 'input' must be greater than or equal to 1, but got 0.")
    v = _need_concrete(x, "nonzero")
    idx = np.nonzero(v)
    if as_tuple:
        return tuple(wrap(jnp.asarray(i, jnp.int64)) for i in idx)
    return wrap(jnp.asarray(np.stack(idx, axis=1), jnp.int64))


@op("argwhere", methods="argwhere", family="array")
def argwhere(input):
    """``ops.argwhere(input)``: like ``nonzero``."""
    return nonzero(input)


@op("unique", primitive="Unique", family="array")
def unique(input):
    """``ops.unique(input)``: ``(output, idx)``; ``output`` lists the distinct values in
    order of first occurrence, ``idx`` maps each input element to its position there
    (Int64 for an Int64 input, Int32 otherwise)."""
    x = arr(input)
    v = _need_concrete(x, "unique")
    flat = v.reshape(-1)
    _, first, inv = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    out = flat[np.sort(first)]
    idt = np.int64 if x.dtype == np.int64 else np.int32
    return wrap(jnp.asarray(out, x.dtype)), wrap(jnp.asarray(rank[inv.reshape(-1)].reshape(v.shape), idt))


@op("tensor_unique", methods="unique", family="array")
def _tensor_unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """``Tensor.unique(sorted=True, return_inverse=False, return_counts=False, dim=None)``
    (PyTorch's semantics; Int64 inverse and counts)."""
    x = arr(input)
    v = _need_concrete(x, "unique")
    if dim is None:
        out, inv, cnt = np.unique(v.reshape(-1), return_inverse=True, return_counts=True)
        inv = inv.reshape(v.shape)
    else:
        ax = _norm_axis(dim, v.ndim, "unique")
        out, inv, cnt = np.unique(v, return_inverse=True, return_counts=True, axis=ax)
        inv = inv.reshape(-1)
    res = [wrap(jnp.asarray(out, x.dtype))]
    if return_inverse:
        res.append(wrap(jnp.asarray(inv, jnp.int64)))
    if return_counts:
        res.append(wrap(jnp.asarray(cnt, jnp.int64)))
    return res[0] if len(res) == 1 else tuple(res)


@op("unique_consecutive", methods="unique_consecutive", family="array")
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """``ops.unique_consecutive(input, return_inverse=False, return_counts=False, dim=None)``."""
    x = arr(input)
    v = _need_concrete(x, "unique_consecutive")
    ax = 0 if dim is None else _norm_axis(dim, v.ndim, "unique_consecutive")
    w = v.reshape(-1) if dim is None else np.moveaxis(v, ax, 0)
    if w.shape[0] == 0:
        keep = np.zeros((0,), bool)
    else:
        diff = np.any((w[1:] != w[:-1]).reshape(w.shape[0] - 1, -1), axis=1)
        keep = np.concatenate([[True], diff])
    out = w[keep]
    if dim is not None:
        out = np.moveaxis(out, 0, ax)
    res = [wrap(jnp.asarray(out, x.dtype))]
    if return_inverse:
        inv = np.cumsum(keep) - 1
        res.append(wrap(jnp.asarray(inv.reshape(v.shape) if dim is None else inv, jnp.int64)))
    if return_counts:
        starts = np.flatnonzero(keep)
        res.append(wrap(jnp.asarray(np.diff(np.append(starts, w.shape[0])), jnp.int64)))
    return res[0] if len(res) == 1 else tuple(res)


# ---------------------------------------------------------------------------
# scatter
# ---------------------------------------------------------------------------
def _elements_index(idx, ax):
    grids = list(jnp.indices(idx.shape, sparse=True))
    grids[ax] = idx
    return tuple(grids)


def _scatter_elements(x, indices, updates, axis, reduction, op_name="TensorScatterElements",
                      reductions=("none", "add")):
    if reduction not in reductions:
        raise ValueError(f'Failed to convert the value "{reduction}" of input \'reduce\' of '
                         f"'{op_name}' to enum.")
    if not isinstance(indices, Tensor):
        raise TypeError(f"For '{op_name}', 'indices' must be a Tensor, but got {type(indices).__name__}.")
    idx = indices._data
    _check_int_index(idx, op_name, "indices")
    if isinstance(updates, Tensor):
        u = updates._data
        if u.dtype != x.dtype:
            raise TypeError(f"For primitive[{op_name}], the input type must be same.")
        if u.shape != idx.shape:
            if u.ndim != idx.ndim or any(us < i for us, i in zip(u.shape, idx.shape)):
                raise ValueError(f"For '{op_name}', the shape of 'updates' must be the shape of 'indices', but got "
                                 f"{list(u.shape)} and {list(idx.shape)}.")
            u = u[tuple(_py_slice(0, s) for s in idx.shape)]
    else:
        u = jnp.full(idx.shape, updates, x.dtype)
    if idx.ndim != x.ndim:
        raise ValueError(f"For '{op_name}', the rank of 'indices' must be equal to the rank of 'input_x', but got "
                         f"{idx.ndim} and {x.ndim}.")
    return _scatter_elements_kernel(x, idx, u, _norm_axis(axis, x.ndim, op_name), reduction)


@functools.partial(jax.jit, static_argnums=(3, 4))
def _scatter_elements_kernel(x, idx, u, ax, reduction):
    n = x.shape[ax]
    # MindSpore's CPU kernel applies the updates in row-major order and stops at the
    # first out-of-range index (silently): later updates are dropped too.
    bad = jnp.ravel((idx < -n) | (idx >= n))
    first = jnp.where(bad.any(), jnp.argmax(bad), bad.size)
    keep = jnp.reshape(jnp.arange(bad.size) < first, idx.shape)
    idx = jnp.where(keep, jnp.where(idx < 0, idx + n, idx), n)
    index = _elements_index(idx, ax)
    if reduction == "add":
        return x.at[index].add(u, mode="drop")
    if reduction == "mul":
        return x.at[index].multiply(u, mode="drop")
    return _scatter_set(x, index, u)


@jax.custom_vjp
def _scatter_set(x, index, u):
    return x.at[index].set(u, mode="drop")


def _scatter_set_fwd(x, index, u):
    return _scatter_set(x, index, u), index


def _scatter_set_bwd(index, g):
    # MindSpore's gradient: the input's gradient is zero where it was overwritten, every
    # update (duplicates included) receives the gradient at its target position.
    gx = g.at[index].set(0, mode="drop")
    gu = g.at[index].get(mode="fill", fill_value=0)
    return gx, jax.tree_util.tree_map(lambda i: np.zeros(i.shape, jax.dtypes.float0), index), gu


_scatter_set.defvjp(_scatter_set_fwd, _scatter_set_bwd)


@op("tensor_scatter_elements", family="array")
def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """``ops.tensor_scatter_elements(input_x, indices, updates, axis=0, reduction='none')``:
    ``out[indices[i][j]][j] = updates[i][j]`` (axis 0); ``reduction='add'`` accumulates.
    Out-of-range indices are ignored (MindSpore's CPU behaviour)."""
    return wrap(_scatter_elements(arr(input_x), indices, updates, axis, reduction))


@op("prim_tensor_scatter_elements", primitive="TensorScatterElements", prim_args=("axis", "reduction"),
    family="array")
def _prim_tensor_scatter_elements(data, indices, updates, axis=0, reduction="none"):
    return tensor_scatter_elements(data, indices, updates, axis, reduction)


@op("scatter", family="array")
def scatter(input, axis, index, src):
    """``ops.scatter(input, axis, index, src)``: ``tensor_scatter_elements`` with a
    Tensor or number ``src``."""
    return wrap(_scatter_elements(arr(input), index, src, axis, "none", "scatter"))


_SCATTER_REDUCTIONS = ("none", "add", "mul")


def _scatter_reduce(reduce, op_name):
    if not isinstance(reduce, str):
        raise TypeError(f"For '{op_name}', the input 'reduce' should be a str, but got {type(reduce)}.")
    if reduce not in ("none", "add", "multiply"):
        raise ValueError(f'Failed to convert the value "{reduce}" of input \'reduce\' of \'{op_name}\' to enum.')
    return "mul" if reduce == "multiply" else reduce


@op("prim_scatter", primitive="Scatter", family="array")
def _prim_scatter(input, dim, index, src, reduce="none"):
    """``ops.auto_generate.Scatter()(input, dim, index, src, reduce='none')``: ``src`` a Tensor of
    ``input``'s dtype; ``reduce`` ``'add'`` or ``'multiply'`` (differs from MindSpore 2.10's CPU
    kernel, which adds for ``'multiply'``; msjax multiplies, as its documentation says)."""
    red = _scatter_reduce(reduce, "Scatter")
    if not isinstance(src, Tensor):
        raise TypeError(f'Failed calling Scatter with "Scatter()(input=Tensor, dim=int, index=Tensor, '
                        f'src={type(src).__name__}, reduce=string)".')
    return wrap(_scatter_elements(arr(input), index, src, dim, red, "Scatter", _SCATTER_REDUCTIONS))


@op("prim_scatter_value", primitive="ScatterValue", family="array")
def _prim_scatter_value(input, dim, index, src, reduce="none"):
    """``ops.auto_generate.ScatterValue()(input, dim, index, src, reduce='none')``: ``Scatter``
    with a number ``src``."""
    red = _scatter_reduce(reduce, "ScatterValue")
    if isinstance(src, (Tensor, bool)) or not isinstance(src, (int, float)):
        raise TypeError(f'Failed calling ScatterValue with "ScatterValue()(input=Tensor, dim=int, index=Tensor, '
                        f'src={type(src).__name__}, reduce=string)".')
    return wrap(_scatter_elements(arr(input), index, src, dim, red, "ScatterValue", _SCATTER_REDUCTIONS))


@op("tensor_scatter", methods="scatter", family="array")
def _tensor_scatter(input, *args, reduce=None, **kwargs):
    """``Tensor.scatter(dim, index, src)`` / ``Tensor.scatter(axis, index, src)``;
    ``reduce='add'`` accumulates."""
    if "axis" in kwargs:
        kwargs["dim"] = kwargs.pop("axis")
    vals = dict(zip(("dim", "index", "src"), args), **kwargs)
    if "src" not in vals:
        raise TypeError("Failed calling scatter: 'src' is required.")
    red = "none" if reduce is None else reduce
    return wrap(_scatter_elements(arr(input), vals["index"], vals["src"], vals["dim"], red, "scatter"))


@op("tensor_scatter_", methods="scatter_", family="array")
def _tensor_scatter_(input, dim, index, src, *, reduce=None):
    new = _scatter_elements(arr(input), index, src, dim, "none" if reduce is None else reduce, "scatter_")
    _write_inplace(input, new)
    return input


def _scatter_nd(indices, updates, shape, op_name="ScatterNd"):
    if isinstance(shape, Tensor) or not isinstance(shape, (tuple, list)):
        raise TypeError(f"Failed calling {op_name} with \"{op_name}()(indices=Tensor, updates=Tensor, "
                        f"shape={type(shape).__name__})\".")
    shape = _ints(shape, "shape", op_name)
    idx, u = arr(indices), arr(updates)
    _check_int_index(idx, op_name, "indices")
    if idx.ndim == 0:       # MindSpore 2.10's words (its check names 'shape' for the indices)
        raise RuntimeError("Failure info [The input [shape] must not be a scalar.].")
    k = idx.shape[-1]
    if k > len(shape) or u.shape != idx.shape[:-1] + tuple(shape[k:]):
        raise ValueError(f"For '{op_name}', the shape of 'updates' must be indices.shape[:-1] + shape[indices."
                         f"shape[-1]:], but got updates {list(u.shape)}, indices {list(idx.shape)}, shape "
                         f"{list(shape)}.")
    check_elements(idx, shape[:k], [
        ("RuntimeError", f"For '{op_name}', each element in 'indice' must be greater than or equal to 0, but got {{0}}"),
        ("RuntimeError", f"For '{op_name}', each element in 'indices' should be smaller than the value of shape, but "
                         "got {0} and got the value of shape {1}")])
    return wrap(_scatter_nd_kernel(idx, u, shape))


@functools.partial(jax.jit, static_argnums=(2,))
def _scatter_nd_kernel(idx, u, shape):
    return jnp.zeros(shape, u.dtype).at[tuple(jnp.moveaxis(idx, -1, 0))].add(u, mode="drop")


@op("scatter_nd", primitive="ScatterNd", family="array")
def scatter_nd(indices, updates, shape):
    """``ops.scatter_nd(indices, updates, shape)``: zeros of ``shape`` with ``updates``
    added at ``indices`` (duplicates accumulate)."""
    return _scatter_nd(indices, updates, shape)


_SCATTER_PRIMS = {"add": "TensorScatterAdd", "divide": "TensorScatterDiv", "multiply": "TensorScatterMul",
                  "max": "TensorScatterMax", "min": "TensorScatterMin", "set": "TensorScatterUpdate"}


def _tensor_scatter_nd(input_x, indices, updates, how, prim=None):
    x, idx, u = arr(input_x), arr(indices), arr(updates)
    prim = prim or _SCATTER_PRIMS.get(how, "TensorScatter" + how.capitalize())
    _check_int_index(idx, prim, "indices")
    _check_scatter_positions(prim, x, idx)
    if how == "divide" and jnp.issubdtype(x.dtype, jnp.integer):
        return wrap(scatter_int_divide(x, idx, u.astype(x.dtype)))
    if how in ("multiply", "divide"):
        return wrap(_scatter_mul_div(x, idx, u.astype(x.dtype), how == "divide"))
    ref = x.at[tuple(jnp.moveaxis(idx, -1, 0))]
    return wrap(getattr(ref, how)(u.astype(x.dtype), mode="drop"))


def _check_scatter_positions(prim, x, idx):
    """MindSpore's TensorScatter* checks: ``indices``' last dimension within the rank (ValueError), and,
    where the indices are known, every position inside the shape (its kernels' RuntimeError; JAX would
    drop a position out of range and wrap a negative one)."""
    k = idx.shape[-1] if idx.ndim else 0
    if k > x.ndim:
        raise ValueError(f"For {prim}, the last dimension of 'indices' must be less than or equal to the dimension "
                         f"of 'input_x', but got the last dimension of 'indices': {k} and the dimension of 'input_x': "
                         f"{x.ndim}")
    check_scatter_rows(prim, idx, x.shape[:k])


def check_scatter_rows(prim, idx, limits, wrap=None):
    """The kernels' messages of ``TensorScatter*``/``ScatterNd*`` for a row of ``idx`` outside ``limits``:
    the ``*Update`` ops' ValueError (a negative index: its size conversion's RuntimeError), the others'
    RuntimeError naming the row's first element's flat position. (MindSpore's ``ScatterNd*`` other than
    ``ScatterNdUpdate`` raise "Launch kernel failed" and log this message.)"""
    if prim.endswith("Update"):
        check_rows(idx, limits, [("ValueError", f"For '{prim}', indices out of range for input_x. Please check the "
                                                "indices which is [const vector]{{{rest}}}"),
                                 ("RuntimeError", "The int value({0}) is less than 0.")], negative_choice=True,
                   wrap=wrap)
    else:
        check_rows(idx, limits, [("RuntimeError", f"For '{prim}', the {{0}}-th value of 'indices'{{restlist}} is out "
                                                  f"of range{list(limits)}.")], flat_position=True)


@functools.partial(jax.custom_vjp, nondiff_argnums=(3,))
def _scatter_mul_div(x, idx, u, divide):
    ref = x.at[tuple(jnp.moveaxis(idx, -1, 0))]
    return ref.divide(u, mode="drop") if divide else ref.multiply(u, mode="drop")


def _scatter_mul_div_fwd(x, idx, u, divide):
    return _scatter_mul_div(x, idx, u, divide), (x, idx, u)


def _scatter_mul_div_bwd(divide, res, g):
    """MindSpore's gradients (also with repeated indices): ``dx`` is ``g`` scattered by the same op,
    ``du`` is ``g * x`` gathered at the indices (divided by ``-u**2`` for the division)."""
    x, idx, u = res
    pos = tuple(jnp.moveaxis(idx, -1, 0))
    dx = _scatter_mul_div(g, idx, u, divide)
    du = (g * x)[pos]
    du = -du / (u * u) if divide else du
    return dx, np.zeros(idx.shape, jax.dtypes.float0), du


_scatter_mul_div.defvjp(_scatter_mul_div_fwd, _scatter_mul_div_bwd)


@op("tensor_scatter_update", family="array")
def tensor_scatter_update(input_x, indices, updates):
    """``ops.tensor_scatter_update(input_x, indices, updates)``."""
    return _tensor_scatter_nd(input_x, indices, updates, "set")


@op("tensor_scatter_add", family="array")
def tensor_scatter_add(input_x, indices, updates):
    """``ops.tensor_scatter_add(input_x, indices, updates)``."""
    return _tensor_scatter_nd(input_x, indices, updates, "add")


def _segment_ids(segment_ids, x, op_name):
    ids = arr(segment_ids)
    if not jnp.issubdtype(ids.dtype, jnp.integer):
        raise TypeError(f"For '{op_name}', 'segment_ids' must be an integer Tensor, but got "
                        f"{mstype.from_np(ids.dtype)}.")
    if ids.shape != x.shape[:ids.ndim]:
        raise ValueError(f"For '{op_name}', the shape of 'segment_ids' must be a prefix of the shape of 'input_x', "
                         f"but got {list(ids.shape)} and {list(x.shape)}.")
    return ids


def _segments(num_segments, ids, op_name):
    """``num_segments`` as an int; an id at or past it raises the kernel's RuntimeError (MindSpore raises
    "Launch kernel failed" and logs this message); a negative id is dropped, as MindSpore's kernel does."""
    n = int(num_segments._data) if isinstance(num_segments, Tensor) else int(num_segments)
    check_values(ids, -(1 << 62), n, [("RuntimeError", f"For '{op_name}', segment_ids value should be [0, {n})")])
    return n


@op("unsorted_segment_sum", primitive="UnsortedSegmentSum", family="array")
def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """``ops.unsorted_segment_sum(input_x, segment_ids, num_segments)``: sums of the
    slices with each segment id; negative ids are dropped, one at or past ``num_segments`` raises."""
    x = arr(input_x)
    ids = _segment_ids(segment_ids, x, "UnsortedSegmentSum")
    n = _segments(num_segments, ids, "UnsortedSegmentSum")
    flat = jnp.reshape(x, (-1,) + x.shape[ids.ndim:])
    return wrap(jax.ops.segment_sum(flat, jnp.ravel(ids), num_segments=n))


# ---------------------------------------------------------------------------
# Tensor indexing (``t[idx]`` / ``t[idx] = v``): MindSpore's checks
# ---------------------------------------------------------------------------
_INDEX_TYPES = "Only support integers, slices(`:`), ellipsis(`...`), None, bool, tensor, int, list and tuple as index"


def _tuple_like(index):
    return isinstance(index, list) and any(
        isinstance(i, (list, tuple, _py_slice, type(None), type(Ellipsis), Tensor)) for i in index)


def normalize_index(index, shape=None):
    """MindSpore's reading of an index: a list holding lists/slices/None/Ellipsis/Tensors is a
    tuple of indices (numpy's legacy rule; ``x[[Tensor(1), 0]]`` is ``x[1, 0]``), other lists and
    tuples inside a tuple become integer/bool arrays. A tuple with a Python bool among other items
    (``x[..., 2, False, 1]``, ``x[None, True, [1, 0], (False, True, True), [2]]``) is NumPy's
    reading of it, as MindSpore's: the element positions NumPy selects (JAX places such bool
    dimensions elsewhere, or fails)."""
    if _tuple_like(index):
        index = tuple(index)
    if isinstance(index, tuple):
        if shape is not None and len(index) > 1 and any(isinstance(i, (bool, np.bool_)) for i in index):
            pos = _numpy_positions(index, shape)
            if pos is not None:
                return pos
        return tuple(_norm_item(i) for i in index)
    return _norm_item(index)


def _norm_item(i):
    if isinstance(i, Tensor):
        return i._data
    if isinstance(i, (list, tuple)):
        return jnp.asarray(_infer_np(list(i)))
    return i


def _numpy_positions(index, shape, limit=1 << 24):
    """The index as one integer array per dimension (NumPy's selection of a concrete index, its
    result's shape), or None for a traced Tensor in it or a large tensor."""
    if int(np.prod(shape)) > limit:
        return None
    items = []
    for i in index:
        if isinstance(i, Tensor):
            i = _concrete(i._data)
            if i is None:
                return None
        elif isinstance(i, (list, tuple)):
            i = np.asarray(_infer_np(list(i)))
        items.append(i)
    flat = np.arange(int(np.prod(shape))).reshape(shape)[tuple(items)]
    return tuple(jnp.asarray(a) for a in np.unravel_index(flat, shape))


def _check_mask_shape(mask, shape, dim, setting):
    """MindSpore's ValueError for a bool Tensor index whose shape is not the indexed dimensions'."""
    part = tuple(shape[dim:dim + len(mask)])
    bad = next((k for k, (m, n) in enumerate(zip(mask, part)) if m != n), None)
    if bad is None and len(part) == len(mask):
        return
    vec = lambda t: "[const vector]{" + ", ".join(str(v) for v in t) + "}"    # noqa: E731
    if setting:
        remapped = tuple(mask) + (1,) * (len(shape) - dim - len(mask))
        raise ValueError(f"operands could not be broadcast together with remapped shapes [original->remapped]: "
                         f"({','.join(str(v) for v in remapped)})  and requested shape ({','.join(str(v) for v in shape)})")
    raise ValueError(f"The shape of index {vec(mask)}does not match the shape of the indexed data {vec(shape)} at dim "
                     f"index{dim + (bad if bad is not None else len(part))}")


def check_index(shape, index, setting=False):
    """Raise MindSpore's error for an index it rejects; JAX would clamp or wrap instead."""
    if _tuple_like(index):
        index = tuple(index)
    items = index if isinstance(index, tuple) else (index,)
    in_tuple = isinstance(index, tuple)
    if not shape and any(isinstance(i, (int, _py_slice, list)) and not isinstance(i, bool) for i in items):
        raise TypeError("Cannot iterate over a scalar tensor.")
    n_real = builtins.sum(1 for i in items if i is not None and i is not Ellipsis and not isinstance(i, bool)
                          and not (isinstance(i, Tensor) and i.dtype == mstype.bool_)
                          and not (isinstance(i, (list, np.ndarray)) and np.asarray(i).dtype == np.bool_))
    dim = 0
    for pos, i in enumerate(items):
        if i is Ellipsis:
            # the items after the ellipsis index the trailing dimensions
            dim = len(shape) - builtins.sum(
                1 for j in items[pos + 1:] if j is not None and j is not Ellipsis and not isinstance(j, bool))
            continue
        if i is None:
            continue
        if isinstance(i, bool):
            if not i and not setting:     # setting through False sets nothing (NumPy), as MindSpore
                raise IndexError("Bool element of tuple index must be 'True', but got 'False'." if in_tuple else
                                 "When tensor is indexed by a bool object, the value only support 'True'.")
            continue
        if isinstance(i, tuple):          # a sequence inside a tuple index: an array index
            i = list(i)
        if isinstance(i, (float, complex, str, np.floating)):
            raise IndexError(f"{_INDEX_TYPES}, but got {i} with type {type(i)}")
        size = shape[dim] if dim < len(shape) else None
        if isinstance(i, (int, np.integer)):
            if size is not None and not -size <= i < size:
                if setting:
                    raise IndexError(f"Index {i} is out of bounds for axis {dim} with size {size}")
                raise IndexError(f"index {i} is out of bounds for dimension with size {size}")
            dim += 1
        elif isinstance(i, list):
            if not i:
                raise IndexError("When tensor is indexed by list, the list can't be empty.")
            a = np.asarray(_infer_np(i))
            if a.dtype.kind == "f":
                raise IndexError(f"{_INDEX_TYPES}, but got {i} with type {type(i)}")
            if a.dtype == np.bool_:
                if not setting and not a.any():   # MindSpore reads it as the (empty) list of its True positions
                    raise IndexError("When tensor is indexed by list, the list can't be empty.")
                dim += a.ndim
                continue
            if size is not None:
                bad = a[(a < -size) | (a >= size)]
                if bad.size:
                    raise IndexError(f"index {int(bad[0])} out of bounds for dimension with size {size}")
            dim += 1
        elif isinstance(i, Tensor):
            d = i._data
            if d.dtype == np.bool_:
                _check_mask_shape(d.shape, shape, dim, setting)
                dim += d.ndim
                continue
            if not jnp.issubdtype(d.dtype, jnp.integer):
                raise IndexError(f"The tensor index must be int or bool type, but got {np.asarray(d)}")
            if size is not None:   # MindSpore's kernels, a negative index counted from the end once
                if setting:
                    check_scatter_rows("TensorScatterUpdate", d, (size,), wrap=size)
                else:
                    check_gather_range(d, size)
            dim += 1
        else:
            dim += 1
    del n_real


# ---------------------------------------------------------------------------
# index_fill, masked_scatter, tensor_scatter_{sub,mul,div,max,min}, unsorted_segment_{max,min,prod},
# select/slice/diagonal_scatter, Tensor.take
# ---------------------------------------------------------------------------

def _dim_index(name, x, dim, index):
    ax = _math_norm_axis(name, dim, x.ndim)
    i = arr(index)
    if not jnp.issubdtype(i.dtype, jnp.integer):
        raise TypeError(f"For '{name}', the 'index' must be an integer Tensor, but got {_dn(i)}.")
    return ax, i.reshape(-1)


def _index_fill(name, x, dim, index, value):
    ax, i = _dim_index(name, x, dim, index)
    val = arr(value)
    if val.ndim != 0:
        raise ValueError(f"For '{name}', 'value' must be a 0-D Tensor or a number, but got a {val.ndim}-D Tensor.")
    return x.at[(slice(None),) * ax + (i,)].set(val.astype(x.dtype))


@op("index_fill", methods="index_fill", family="array")
def index_fill(x, axis, index, value):
    """``ops.index_fill(x, axis, index, value)``: ``value`` along ``axis`` at ``index`` (Int32)."""
    i = arr(index)
    if i.dtype != np.int32:
        raise TypeError("For primitive[IndexFill], the input argument[index] must be a type of {Tensor[Int32]}, "
                        f"but got Tensor[{_dn(i)}].")
    return wrap(_index_fill("index_fill", arr(x), axis, i, value))


def _masked_scatter(name, x, mask, source):
    m, s = arr(mask), arr(source)
    if m.dtype != jnp.bool_:
        raise TypeError(f"For '{name}', the 'mask' must be a Bool Tensor, but got {_dn(m)}.")
    m = jnp.broadcast_to(m, x.shape)
    pos = jnp.cumsum(m.reshape(-1)) - 1
    taken = jnp.take(s.reshape(-1), jnp.clip(pos, 0, max(s.size - 1, 0))).reshape(x.shape)
    return jnp.where(m, taken.astype(x.dtype), x)


@op("masked_scatter", methods="masked_scatter", family="array")
def masked_scatter(input, mask, source):
    """``ops.masked_scatter(input, mask, source)``: the elements of ``source``, in order, where ``mask``
    (broadcast to ``input``) is True."""
    return wrap(_masked_scatter("masked_scatter", arr(input), mask, source))


@op("tensor_take", methods="take", family="array")
def _take(self, indices, axis=None, mode="clip"):
    """``Tensor.take(indices, axis=None, mode='clip')``: 'raise' clips too (MindSpore's CPU result);
    when clipping, a negative index first counts from the end, as in MindSpore (``[-1, 5]`` of
    four elements takes ``[3, 3]``)."""
    x = self._data
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"For 'Tensor.take', 'mode' must be 'raise', 'wrap' or 'clip', but got {mode}.")
    idx = arr(indices)
    if axis is None:
        x, axis = x.ravel(), 0
    n = x.shape[axis]
    if mode == "wrap":
        idx = jnp.mod(idx, n)
    else:
        idx = jnp.clip(jnp.where(idx < 0, idx + n, idx), 0, n - 1)
    return wrap(jnp.take(x, idx, axis=axis))


def _tensor_scatter_op(name, how, negate=False):
    def fn(input_x, indices, updates):
        u = arr(updates)
        prim = "TensorScatter" + name[len("tensor_scatter_"):].capitalize()
        return _tensor_scatter_nd(input_x, indices, -u if negate else u, how, prim)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``ops.{name}(input_x, indices, updates)``: ``{how}`` of ``updates`` at the N-D ``indices``."
    return op(name, methods=name.replace("tensor_", ""), family="array")(fn)


tensor_scatter_sub = _tensor_scatter_op("tensor_scatter_sub", "add", negate=True)
tensor_scatter_mul = _tensor_scatter_op("tensor_scatter_mul", "multiply")
tensor_scatter_div = _tensor_scatter_op("tensor_scatter_div", "divide")
tensor_scatter_max = _tensor_scatter_op("tensor_scatter_max", "max")
tensor_scatter_min = _tensor_scatter_op("tensor_scatter_min", "min")


def _segment_reduce(name, prim, reduce, empty):
    def fn(x, segment_ids, num_segments):
        a = arr(x)
        ids = _segment_ids(segment_ids, a, prim)
        n = _segments(num_segments, ids, prim)
        flat, ids = a.reshape((-1,) + a.shape[ids.ndim:]), ids.reshape(-1)
        r = reduce(flat, ids, num_segments=n)
        count = jax.ops.segment_sum(jnp.ones(ids.shape, jnp.int32), ids, num_segments=n)
        fill = empty(a.dtype)
        return wrap(jnp.where((count > 0).reshape((n,) + (1,) * (r.ndim - 1)), r, jnp.asarray(fill, a.dtype)))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``ops.{name}(x, segment_ids, num_segments)``; an empty segment holds {empty.__doc__} "
                  "(MindSpore's CPU kernel).")
    return op(name, methods=name, family="array")(fn)


def _lowest(dt):
    """the dtype's lowest finite value"""
    return jnp.finfo(dt).min if jnp.issubdtype(dt, jnp.inexact) else jnp.iinfo(dt).min


def _highest(dt):
    """the dtype's largest finite value"""
    return jnp.finfo(dt).max if jnp.issubdtype(dt, jnp.inexact) else jnp.iinfo(dt).max


def _one(dt):
    """1"""
    return 1


unsorted_segment_max = _segment_reduce("unsorted_segment_max", "UnsortedSegmentMax", jax.ops.segment_max, _lowest)
unsorted_segment_min = _segment_reduce("unsorted_segment_min", "UnsortedSegmentMin", jax.ops.segment_min, _highest)
@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def _segment_prod(flat, ids, num_segments):
    """``jax.ops.segment_prod`` with MindSpore's gradient (JAX has none for repeated ids): an item's
    derivative is the product of the other items of its segment, 0 where the segment has two zeros."""
    return jax.ops.segment_prod(flat, ids, num_segments=num_segments)


def _segment_prod_fwd(flat, ids, num_segments):
    out = _segment_prod(flat, ids, num_segments)
    return out, (flat, ids, out)


def _segment_prod_bwd(num_segments, res, dout):
    flat, ids, out = res
    is_zero = flat == 0
    num_zero = jax.ops.segment_sum(is_zero.astype(jnp.int32), ids, num_segments=num_segments)
    grad = jnp.where(num_zero > 1, jnp.zeros_like(dout), dout)
    non_zero_prod = jax.ops.segment_prod(jnp.where(is_zero, jnp.ones_like(flat), flat), ids, num_segments=num_segments)
    inside = (ids >= 0) & (ids < num_segments)
    at = jnp.where(inside, ids, 0)
    derivative = jnp.where(is_zero, non_zero_prod[at], out[at] / jnp.where(is_zero, jnp.ones_like(flat), flat))
    keep = inside.reshape(inside.shape + (1,) * (flat.ndim - 1))
    return jnp.where(keep, grad[at], jnp.zeros_like(flat)) * derivative, None


_segment_prod.defvjp(_segment_prod_fwd, _segment_prod_bwd)
unsorted_segment_prod = _segment_reduce("unsorted_segment_prod", "UnsortedSegmentProd", _segment_prod, _one)


@op("select_scatter", methods="select_scatter", family="array")
def select_scatter(input, src, axis, index):
    """``ops.select_scatter(input, src, axis, index)``: ``src`` written at ``index`` of ``axis``; MindSpore's
    definition: ``slice_scatter(input, src.expand_dims(axis), axis, index, index + 1)`` (a negative index
    counts from the end once; an index out of range gives the slice-shape ValueError)."""
    _scatter_tensors("select_scatter", input, src)
    s = src.expand_dims(axis)
    axis = axis if axis >= 0 else axis + input.ndim
    index = index if index >= 0 else index + input.shape[axis]
    return slice_scatter(input, s, axis, start=index, end=index + 1)


def _scatter_tensors(name, input, src):
    for what, t in (("input", input), ("src", src)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For {name}, {what} must be a Tensor, but got {type(t)}.")


@op("slice_scatter", methods="slice_scatter", family="array")
def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """``ops.slice_scatter(input, src, axis=0, start=None, end=None, step=1)``: ``src`` written at the
    positions ``range(start, end, step)`` of ``axis``, as MindSpore computes them: a negative ``start`` or
    ``end`` counts from the end once, ``end`` is clipped to the axis' length (``start`` is not: a
    ``start`` below ``-length`` gives the slice-shape ValueError). ``src`` must have ``input``'s dtype
    (MindSpore's TensorScatterElements TypeError). An ``axis`` out of range raises IndexError, as
    MindSpore's."""
    _scatter_tensors("slice_scatter", input, src)
    x, s = input._data, src._data
    shape = tuple(x.shape)
    ax = axis if axis >= 0 else axis + len(shape)
    if not 0 <= ax < len(shape):
        raise IndexError(f"For slice_scatter, 'axis' {axis} is out of range for an input of rank {len(shape)} "
                         f"(tuple index out of range).")
    n = shape[ax]
    start = 0 if start is None else (start if start >= 0 else start + n)
    end = n if end is None else (end if end >= 0 else end + n)
    index = list(builtins.range(start, min(end, n), step))
    want = shape[:ax] + (len(index),) + shape[ax + 1:]
    if want != tuple(s.shape) or any(i < 0 for i in index):
        raise ValueError(f"For slice_scatter, src shape should be equal to the slice size,but got src shape "
                         f"{tuple(s.shape)} and slice shape {want}")
    if s.dtype != x.dtype:
        raise TypeError("For primitive[TensorScatterElements], the input type must be same.")
    if not index:
        return wrap(x)
    return wrap(x.at[(slice(None),) * ax + (np.asarray(index),)].set(s))


@op("diagonal_scatter", methods="diagonal_scatter", family="array")
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``ops.diagonal_scatter(input, src, offset=0, dim1=0, dim2=1)``: ``src`` written on the diagonal."""
    x = arr(input)
    d1, d2 = _math_norm_axis("diagonal_scatter", dim1, x.ndim), _math_norm_axis("diagonal_scatter", dim2, x.ndim)
    n = jnp.diagonal(x, offset, d1, d2).shape[-1]
    r = np.arange(n)
    rows, cols = (r, r + offset) if offset >= 0 else (r - offset, r)
    moved = jnp.moveaxis(x, (d1, d2), (-2, -1))
    moved = moved.at[..., rows, cols].set(arr(src).astype(x.dtype))
    return wrap(jnp.moveaxis(moved, (-2, -1), (d1, d2)))


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
# Primitive forms: TensorScatter*, UnsortedSegment{Max,Min,Prod}, IndexFill
# ---------------------------------------------------------------------------


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


@op("prim_index_fill", primitive="IndexFill", family="array")
def prim_index_fill(x, dim, index, value):
    """``ops.IndexFill()(x, dim, index, value)``: ``ops.index_fill`` with ``value`` a Tensor."""
    if not isinstance(value, Tensor):
        raise TypeError(f"For Primitive[IndexFill], the type of input argument[value] must be Tensor but got "
                        f"{type(value).__name__}.")
    return index_fill(x, dim, index, value)


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
# GatherV2, MaskedSelect, NonZero Primitives
# ---------------------------------------------------------------------------

@op("prim_gather_v2", primitive="GatherV2", prim_args=("batch_dims",), family="array")
def prim_gather_v2(input_params, input_indices, axis, batch_dims=0):
    """``ops.GatherV2()``: the old name of ``ops.Gather``."""
    return _prim_gather(input_params, input_indices, axis, batch_dims)


@op("prim_masked_select", primitive="MaskedSelect", family="array")
def prim_masked_select(x, mask):
    """``ops.MaskedSelect()(x, mask)``: ``ops.masked_select``."""
    return masked_select(x, mask)


@op("prim_non_zero", primitive="NonZero", family="array")
def prim_non_zero(x):
    """``ops.NonZero()(x)``: ``ops.nonzero`` (an Int64 index matrix)."""
    return nonzero(x)


# ---------------------------------------------------------------------------
# UnravelIndex
# ---------------------------------------------------------------------------

@op("prim_unravel_index", primitive="UnravelIndex", family="array")
def unravel_index(indices, dims):
    """``ops.UnravelIndex()(indices, dims)``: the coordinates in a ``dims``-shaped array of each flat
    index, one row per dimension."""
    i, d = arr(indices), arr(dims)
    shape = tuple(int(v) for v in _need_concrete(d, "UnravelIndex").reshape(-1))
    return wrap(jnp.stack(jnp.unravel_index(i, shape)).astype(i.dtype))


# ---------------------------------------------------------------------------
# take
# ---------------------------------------------------------------------------

@op("take", family="array")
def take(input, index):
    """``ops.take(input, index)``: the elements of ``input`` (read flattened) at ``index``, in
    ``index``'s shape."""
    _need_tensor("take", "input", input)
    _need_tensor("take", "index", index)
    return _take(input, index)


provided.provide("normalize_index", normalize_index)   # Tensor indexing (msjax/_core/tensor.py)
provided.provide("check_index", check_index)


@op("tensor_choose", methods="choose", family="array")
def _tensor_choose(self, choices, mode="clip"):
    """``Tensor.choose(choices, mode='clip')`` (deprecated in MindSpore): element ``i`` of the result is
    element ``i`` of ``choices[self[i]]`` (index and choices broadcast, as NumPy's ``choose``); 'wrap'
    wraps an index out of range, any other mode clips it. As MindSpore, a choice that is not a Tensor is
    Int64, the choices pass through Int32 (a float choice is truncated) and choices of different dtypes
    raise its TypeError."""
    if isinstance(choices, Tensor):
        ch = choices._data
    else:   # MindSpore's make_tensor: a choice that is not a Tensor becomes Int64
        items = [c._data if isinstance(c, Tensor) else jnp.asarray(np.asarray(c).astype(np.int64)) for c in choices]
        for k, c in enumerate(items[1:], 1):
            if c.dtype != items[0].dtype:
                raise TypeError(f"All input must have the same data type!input[{k}] data type = "
                                f"Tensor[{mstype.from_np(c.dtype)}]infer_type0= Tensor[{mstype.from_np(items[0].dtype)}]")
        ch = jnp.stack(jnp.broadcast_arrays(*items)) if items else jnp.zeros((0,), jnp.float32)
    if self.ndim == 0 or ch.ndim == 0:
        raise ValueError(f"For 'Tensor.choose', the original tensor and the argument 'choices' cannot be scalars. "
                         f"Their dimensions should all be > 0, but got the original tensor's dimension {self.ndim}, "
                         f"'choices' dimension {ch.ndim}.")
    out = jnp.choose(self._data.astype(jnp.int32), ch.astype(jnp.int32), mode="wrap" if mode == "wrap" else "clip")
    return wrap(out.astype(ch.dtype))


@op("prim_embedding_lookup", primitive="EmbeddingLookup", family="array")
def embedding_lookup(input_params, input_indices, offset):
    """``ops.EmbeddingLookup()(params, indices, offset)``: the rows ``indices - offset`` of ``params``
    (1-D or 2-D; shape ``indices.shape + params.shape[1:]``); a row outside ``[0, len(params))`` is zeros.
    Differs from MindSpore: the gradient is the scatter-sum of the sensitivities into the rows read
    (MindSpore 2.10's PyNative gradient of ``params`` is the sensitivities themselves, row ``i`` for
    index ``i``, whatever rows the indices name)."""
    p, idx = arr(input_params), arr(input_indices)
    if p.ndim not in (1, 2):
        raise ValueError(f"For primitive[EmbeddingLookup], the dimension of params must be in [1,2], but got {p.ndim}.")
    if idx.dtype not in (jnp.int32, jnp.int64):
        raise TypeError(f"For primitive[EmbeddingLookup], the input argument[indices] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{_dn(idx)}].")
    if isinstance(offset, Tensor):
        off = arr(offset)
    elif isinstance(offset, int) and not isinstance(offset, bool):
        off = offset
    else:
        name = {float: "Float32", bool: "Bool"}.get(type(offset), type(offset).__name__)
        raise TypeError(f"For primitive[EmbeddingLookup], the input argument[offset] must be a type of "
                        f"{{Int32, Int64}}, but got {name}.")
    rows = idx - off
    inside = (rows >= 0) & (rows < p.shape[0])
    got = p[jnp.where(inside, rows, 0)]
    return wrap(jnp.where(inside.reshape(inside.shape + (1,) * (p.ndim - 1)), got, jnp.zeros_like(got)))
