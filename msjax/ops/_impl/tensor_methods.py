"""Tensor methods with no ``ops`` function of their own: MindSpore's in-place forms (``add_``,
``clamp_``, ``index_fill_``...) and the torch-style helpers (``expand``, ``new_zeros``, ``type_as``,
``kthvalue``, ``stride``...). The methods of an ``ops`` function live with it in its topic module
(``Tensor.xlogy`` is ``ops.xlogy``, in ``math``).

In-place methods write the result into the Tensor (a Parameter takes the new value inside
``ms.jit``/``ms.grad`` like ``ops.assign``) and return it; the result keeps the Tensor's dtype
and shape. MindSpore 2.10's CPU build runs ``add_``/``mul_``/``exp_``... in PyNative without
writing back (the return value is right, the Tensor is left unchanged; in ``ms.jit`` the
Parameter is updated) and has no CPU kernel for ``log_``, ``floor_``, ``clamp_``,
``index_fill_``, ``masked_scatter_``...; msjax writes back everywhere.

Functions whose ``mindspore.ops`` form has the method's signature are registered under the
MindSpore op name (``ops.xlogy`` is ``Tensor.xlogy``); method-only ones as ``tensor_<name>``.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor
from . import view_layout
from ._util import arr, wrap
from .array import _checked_shape, _is_dim, _write_inplace, expand
from .indexing import _dim_index, _index_fill, _masked_scatter, tensor_scatter_add, tensor_scatter_elements
from .math import _norm_axes, _norm_axis, _out
from .views import check_view_inplace

# ---------------------------------------------------------------------------
# in-place arithmetic
# ---------------------------------------------------------------------------


def _store(self, new, name):
    cur = self._data
    new = jnp.asarray(new)
    if tuple(new.shape) != tuple(cur.shape):
        raise ValueError(f"For '{name}', the result shape {list(new.shape)} must be the shape of the input "
                         f"{list(cur.shape)}: an in-place op cannot broadcast its input.")
    _write_inplace(self, new.astype(cur.dtype), _PRIMITIVES.get(name, "Inplace" + name.title().replace("_", "")))
    return self


_PRIMITIVES = {"add_": "InplaceAddExt", "sub_": "InplaceSubExt"}   # MindSpore's names, where they end in Ext


def _inplace_of(name, method):
    def fn(self, *args, **kwargs):
        check_view_inplace(self, args)
        return _store(self, getattr(Tensor, method)(self, *args, **kwargs)._data, name)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``Tensor.{name}(...)``: ``Tensor.{method}(...)`` written into the Tensor."
    op("tensor_" + name, methods=name, family="math")(fn)
    return fn


def _add_(self, other, *, alpha=1):
    """``Tensor.add_(other, *, alpha=1)``: ``self += alpha * other`` in place."""
    check_view_inplace(self, (other,))
    return _store(self, (self.add(other, alpha=alpha) if alpha != 1 else self.add(other))._data, "add_")


def _sub_(self, other, *, alpha=1):
    """``Tensor.sub_(other, *, alpha=1)``: ``self -= alpha * other`` in place."""
    check_view_inplace(self, (other,))
    return _store(self, (self.sub(other, alpha=alpha) if alpha != 1 else self.sub(other))._data, "sub_")


op("tensor_add_", methods="add_", family="math")(_add_)
op("tensor_sub_", methods="sub_", family="math")(_sub_)


@op("prim_inplace_add_ext", primitive="InplaceAddExt", family="math")
def inplace_add_ext(input, other, alpha=1):
    """``InplaceAddExt()(input, other, alpha=1)``: ``Tensor.add_`` (``input`` written and returned). MindSpore
    2.10's CPU build runs it only in graphs (PyNative: RuntimeError, no kernel); msjax in both modes."""
    return _add_(input, other, alpha=alpha)


@op("prim_inplace_sub_ext", primitive="InplaceSubExt", family="math")
def inplace_sub_ext(input, other, alpha=1):
    """``InplaceSubExt()(input, other, alpha=1)``: ``Tensor.sub_`` (``input`` written and returned)."""
    return _sub_(input, other, alpha=alpha)


for _n, _m in (("mul_", "mul"), ("div_", "div"), ("floor_divide_", "floor_divide"), ("remainder_", "remainder"),
               ("clamp_", "clamp"), ("exp_", "exp"), ("log_", "log"), ("floor_", "floor"),
               ("sigmoid_", "sigmoid"), ("tanh_", "tanh"), ("sign_", "sign"), ("erfinv_", "erfinv")):
    _inplace_of(_n, _m)


@op("tensor_copy_", methods="copy_", family="array")
def _copy_(self, src, non_blocking=False):
    """``Tensor.copy_(src)``: ``src`` (broadcast to the Tensor's shape, cast to its dtype) written in place."""
    s = arr(src)
    try:
        new = jnp.broadcast_to(s, self._data.shape)
    except ValueError:
        raise ValueError(f"For 'copy_', 'src' of shape {list(s.shape)} cannot be broadcast to the shape "
                         f"{list(self._data.shape)}.") from None
    return _store(self, new, "copy_")


@op("tensor_requires_grad_", methods="requires_grad_", family="array")
def _requires_grad_(self, requires_grad=True):
    """``Parameter.requires_grad_(requires_grad=True)``; a plain Tensor has no ``requires_grad`` (MindSpore)."""
    if "requires_grad" not in dir(type(self)):
        raise AttributeError("'Tensor' object has no attribute 'requires_grad'")
    self.requires_grad = requires_grad
    return self


def _fill_diagonal(x, fill_value, wrap_):
    """numpy/torch ``fill_diagonal``: element ``[i, i, ...]``; a tall matrix with ``wrap`` restarts
    after every ``cols + 1`` rows."""
    if x.ndim < 2:
        raise ValueError(f"For 'fill_diagonal_', the dimension of 'input' must be at least 2, but got {x.ndim}.")
    if x.ndim > 2 and len(set(x.shape)) != 1:
        raise ValueError("For 'fill_diagonal_', all dimensions of 'input' must be equal when it has more than "
                         f"2 dimensions, but got {list(x.shape)}.")
    flat = x.reshape(-1)
    if x.ndim == 2:
        rows, cols = x.shape
        step = cols + 1
        end = flat.size if wrap_ else min(rows, cols) * cols
        idx = np.arange(0, end, step)
    else:
        step = sum(int(np.prod(x.shape[k + 1:])) for k in range(x.ndim))
        idx = np.arange(x.shape[0]) * step
    return flat.at[idx].set(jnp.asarray(arr(fill_value), x.dtype)).reshape(x.shape)


@op("tensor_fill_diagonal_", methods="fill_diagonal_", family="array")
def _fill_diagonal_(self, fill_value, wrap=False):
    """``Tensor.fill_diagonal_(fill_value, wrap=False)`` (MindSpore 2.10's CPU build cannot run it)."""
    return _store(self, _fill_diagonal(self._data, fill_value, wrap), "fill_diagonal_")


@op("tensor_index_add_", methods="index_add_", family="array")
def _index_add_(self, dim, index, source, *, alpha=1):
    """``Tensor.index_add_(dim, index, source, *, alpha=1)``: ``self[..., index[j], ...] += alpha * source[..., j, ...]``."""
    x = self._data
    ax, i = _dim_index("index_add_", x, dim, index)
    v = arr(source).astype(x.dtype)
    if alpha != 1:
        v = v * jnp.asarray(alpha, x.dtype)
    return _store(self, x.at[(slice(None),) * ax + (i,)].add(v), "index_add_")


@op("tensor_index_fill_", methods="index_fill_", family="array")
def _index_fill_(self, dim, index, value):
    """``Tensor.index_fill_(dim, index, value)``: ``value`` along ``dim`` at ``index``, in place."""
    return _store(self, _index_fill("index_fill_", self._data, dim, index, value), "index_fill_")


@op("tensor_fill_diagonal", methods="fill_diagonal", family="array")
def _fill_diagonal_method(self, fill_value, wrap=False):
    """``Tensor.fill_diagonal(fill_value, wrap=False)``: ``fill_diagonal_`` on a copy."""
    return _out(_fill_diagonal(self._data, fill_value, wrap))


@op("tensor_fills", methods="fills", family="array")
def _fills(self, value):
    """``Tensor.fills(value)``: a Tensor of the same shape and dtype filled with ``value`` (a number or a
    0-D Tensor); MindSpore 2.10's CPU build cannot run it."""
    return wrap(jnp.full(self._data.shape, arr(value), self._data.dtype))


@op("tensor_scatter_add_", methods="scatter_add_", family="array")
def _scatter_add_(self, dim, index, src):
    """``Tensor.scatter_add_(dim, index, src)``: ``scatter_add`` along ``dim`` in place."""
    return _store(self, tensor_scatter_elements(wrap(self._data), index, src, dim, "add")._data, "scatter_add_")


@op("tensor_index_copy_", methods="index_copy_", family="array")
def _index_copy_(self, dim, index, tensor):
    """``Tensor.index_copy_(dim, index, tensor)``: ``tensor``'s slices written at ``index`` along ``dim``."""
    x = self._data
    ax, i = _dim_index("index_copy_", x, dim, index)
    return _store(self, x.at[(slice(None),) * ax + (i,)].set(arr(tensor).astype(x.dtype)), "index_copy_")


@op("tensor_masked_scatter_", methods="masked_scatter_", family="array")
def _masked_scatter_(self, mask, source):
    """``Tensor.masked_scatter_(mask, source)``: ``masked_scatter`` in place."""
    return _store(self, _masked_scatter("masked_scatter_", self._data, mask, source), "masked_scatter_")


# ---------------------------------------------------------------------------
# shape and layout
# ---------------------------------------------------------------------------


def _size_args(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list, Tensor)):
        size = size[0]
    if isinstance(size, Tensor):
        size = [int(v) for v in np.asarray(size._data).reshape(-1)]
    return tuple(int(s) for s in size)


@op("tensor_expand", methods="expand", family="array")
def _expand(self, *size):
    """``Tensor.expand(*size)``: broadcast to ``size`` (a Tensor, a tuple or ints; -1 keeps a dimension)."""
    _checked_shape(size, "broadcast_to")   # MindSpore's TypeError for a float dimension (not truncated)
    return expand(self, wrap(jnp.asarray(_size_args(size), jnp.int64)))


@op("tensor_reshape_as", methods="reshape_as", family="array")
def _reshape_as(self, other):
    return wrap(self._data.reshape(arr(other).shape))


@op("tensor_type_as", methods="type_as", family="array")
def _type_as(self, other):
    return wrap(self._data.astype(arr(other).dtype))


@op("tensor_type", methods="type", family="array")
def _type(self, dtype=None):
    """``Tensor.type(dtype=None)``: the dtype's name ('Float32') without ``dtype``, else the cast Tensor."""
    if dtype is None:
        return str(self.dtype)
    return wrap(self._data.astype(mstype.to_np(dtype)))


def _new(self, size, dtype, value, name):
    """``Tensor.new_zeros``-like: ``size`` an int, a tuple/list of ints or an int Tensor (a float, str or
    bool is MindSpore's TypeError, not truncated)."""
    if isinstance(size, (tuple, list)):
        _checked_shape((size,), name, "size")
    elif not _is_dim(size):
        raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of int, not {type(size).__name__}.")
    shape = _size_args((size,))
    npd = self._data.dtype if dtype is None else mstype.to_np(dtype)
    return wrap(jnp.full(shape, value, npd))


@op("tensor_new_zeros", methods="new_zeros", family="array")
def _new_zeros(self, size, dtype=None):
    return _new(self, size, dtype, 0, "new_zeros")


@op("tensor_new_ones", methods="new_ones", family="array")
def _new_ones(self, size, dtype=None):
    return _new(self, size, dtype, 1, "new_ones")


@op("tensor_new_full", methods="new_full", family="array")
def _new_full(self, size, fill_value, *, dtype=None):
    """``Tensor.new_full(size, fill_value, *, dtype=None)`` (Ascend-only in MindSpore 2.10)."""
    return _new(self, size, dtype, fill_value, "new_full")


@op("tensor_new_empty", methods="new_empty", family="array")
def _new_empty(self, size, *, dtype=None, device=None):
    """``Tensor.new_empty(size, *, dtype=None)``: uninitialised in MindSpore, zeros here."""
    return _new(self, size, dtype, 0, "new_empty")


# ---------------------------------------------------------------------------
# reductions
# ---------------------------------------------------------------------------

@op("tensor_ptp", methods="ptp", family="math")
def _ptp(input, axis=None, keepdims=False):
    """``Tensor.ptp(axis=None, keepdims=False)``: ``max - min`` along ``axis``."""
    x = arr(input)
    axes = _norm_axes("ptp", axis, x.ndim)
    return _out(jnp.max(x, axes, keepdims=keepdims) - jnp.min(x, axes, keepdims=keepdims))


# ---------------------------------------------------------------------------
# scatters and index writes
# ---------------------------------------------------------------------------

@op("tensor_scatter_add_method", methods="scatter_add", family="array")
def _scatter_add(self, *args, **kwargs):
    """``Tensor.scatter_add(indices, updates)`` (``ops.tensor_scatter_add``) or
    ``Tensor.scatter_add(dim, index, src)`` (``ops.tensor_scatter_elements`` with ``reduction='add'``)."""
    if "dim" in kwargs or (args and isinstance(args[0], int) and not isinstance(args[0], bool)):
        vals = dict(zip(("dim", "index", "src"), args), **kwargs)
        return tensor_scatter_elements(self, vals["index"], vals["src"], vals["dim"], "add")
    vals = dict(zip(("indices", "updates"), args), **kwargs)
    return tensor_scatter_add(self, vals["indices"], vals["updates"])


def _index_put(x, indices, values, accumulate):
    idx = tuple(arr(i) for i in indices)
    v = arr(values).astype(x.dtype)
    ref = x.at[idx]
    return ref.add(v) if accumulate else ref.set(v)


@op("tensor_index_put", methods="index_put", family="array")
def _index_put_method(self, indices, values, accumulate=False):
    """``Tensor.index_put(indices, values, accumulate=False)``: ``values`` at ``self[indices]`` (a tuple of
    index Tensors), added when ``accumulate``."""
    return wrap(_index_put(self._data, indices, values, accumulate))


@op("tensor_index_put_", methods="index_put_", family="array")
def _index_put_(self, indices, values, accumulate=False):
    """``Tensor.index_put_``: ``index_put`` in place."""
    return _store(self, _index_put(self._data, indices, values, accumulate), "index_put_")


# ---------------------------------------------------------------------------
# kthvalue, predicates, casts and layout queries
# ---------------------------------------------------------------------------

@op("tensor_kthvalue", methods="kthvalue", family="math")
def _kthvalue(self, k, dim=-1, keepdim=False):
    """``Tensor.kthvalue(k, dim=-1, keepdim=False)``: the k-th smallest value along ``dim`` and its
    Int64 index (MindSpore 2.10's CPU build cannot run it)."""
    x = self._data
    ax = _norm_axis("kthvalue", dim, x.ndim)
    if not 1 <= k <= (x.shape[ax] if x.ndim else 1):
        raise ValueError(f"For 'kthvalue', 'k' must be in [1, {x.shape[ax] if x.ndim else 1}], but got {k}.")
    order = jnp.argsort(x, axis=ax, stable=True)
    idx = lax.index_in_dim(order, k - 1, ax, keepdims=keepdim) if x.ndim else order
    val = jnp.take_along_axis(x, idx if keepdim or not x.ndim else jnp.expand_dims(idx, ax), ax)
    if not keepdim and x.ndim:
        val = jnp.squeeze(val, ax)
    return wrap(val), wrap(idx.astype(jnp.int64))


@op("tensor_allclose", methods="allclose", family="math")
def _allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``Tensor.allclose(other, rtol=1e-05, atol=1e-08, equal_nan=False)``: a Python bool."""
    return bool(jnp.allclose(self._data, arr(other), rtol=rtol, atol=atol, equal_nan=equal_nan))


@op("tensor_is_complex", methods="is_complex", family="math")
def _is_complex(self):
    return bool(jnp.issubdtype(self._data.dtype, jnp.complexfloating))


@op("tensor_is_signed", methods="is_signed", family="math")
def _is_signed(self):
    dt = self._data.dtype
    return not (dt == jnp.bool_ or jnp.issubdtype(dt, jnp.unsignedinteger))


def _cast_method(name, dt):
    def fn(self):
        x = self._data
        if jnp.issubdtype(x.dtype, jnp.inexact) and jnp.issubdtype(dt, jnp.unsignedinteger):
            x = x.astype(jnp.int64)   # negative floats wrap around (MindSpore), not clamp to 0
        return wrap(x.astype(dt))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``Tensor.{name}()``: cast to {np.dtype(dt).name}."
    return op("tensor_" + name, methods=name, family="array")(fn)


_short = _cast_method("short", jnp.int16)
_byte = _cast_method("byte", jnp.uint8)
_bfloat16 = _cast_method("bfloat16", jnp.bfloat16)


@op("tensor_ndimension", methods="ndimension", family="array")
def _ndimension(self):
    return self.ndim


@op("tensor_stride", methods="stride", family="array")
def _stride(self, dim=None):
    """``Tensor.stride(dim=None)``: the strides in elements (a list), or one of them: row-major,
    or those of MindSpore's view for a PyNative view op's output (``_core/view_layout.py``)."""
    st = list(view_layout.layout(self)[1])
    return st if dim is None else st[dim]


@op("tensor_storage_offset", methods="storage_offset", family="array")
def _storage_offset(self):
    """``Tensor.storage_offset()``: 0, or where MindSpore's view starts in its input's memory."""
    return view_layout.layout(self)[2]


@op("tensor_is_contiguous", methods="is_contiguous", family="array")
def _is_contiguous(self):
    """Whether MindSpore's Tensor would be dense row-major: False for the output of a PyNative view
    op that is not (``ops.transpose(x, (1, 0))``); msjax's values are dense either way."""
    shape, strides = view_layout.layout(self)[:2]
    return view_layout.is_contiguous(shape, strides)


@op("tensor_contiguous", methods="contiguous", family="array")
def _contiguous(self):
    """The Tensor itself when contiguous, else a dense copy (no view layout)."""
    return self if _is_contiguous(self) else wrap(self._data)


@op("tensor_offload", methods="_offload", family="array")
def _offload(self):
    """``Tensor._offload()``: MindSpore (Ascend) moves the device data to the host. msjax leaves the array
    where JAX placed it (host memory on the CPU, as MindSpore's CPU build does); None."""
    return None


@op("tensor_load", methods="_load", family="array")
def _load(self, *args):
    """``Tensor._load()``: MindSpore's flag that a Tensor is loaded back from the host; nothing to do
    in msjax (``_offload``); None."""
    return None


@op("tensor_data_sync", methods="data_sync", family="array")
def _data_sync(self, need_wait=True):
    """``Tensor.data_sync(need_wait=True)``: waits until the Tensor's value is computed (JAX's
    asynchronous dispatch) when ``need_wait``; None."""
    if need_wait and hasattr(self._data, "block_until_ready"):
        self._data.block_until_ready()
    return None


@op("tensor_adjoint", methods="adjoint", family="array")
def _adjoint(self):
    """``Tensor.adjoint()``: ``Tensor.mH``."""
    return self.mH


@op("tensor_sum_to_size", methods="sum_to_size", family="math")
def _sum_to_size(self, *size):
    """``Tensor.sum_to_size(*size)``: summed down to the broadcastable ``size``."""
    x = self._data
    shape = _size_args(size)
    lead = x.ndim - len(shape)
    r = jnp.sum(x, axis=tuple(range(lead))) if lead else x
    axes = tuple(k for k, s in enumerate(shape) if s == 1 and r.shape[k] != 1)
    return wrap(jnp.sum(r, axis=axes, keepdims=True) if axes else r)


@op("tensor_reverse", methods="reverse", family="array")
def _reverse(self, axis):
    """``Tensor.reverse(axis)``: reversed along the listed axes."""
    return wrap(jnp.flip(self._data, tuple(axis) if isinstance(axis, (list, tuple)) else axis))


@op("tensor_itemset", methods="itemset", family="array")
def _itemset(self, *args):
    """``Tensor.itemset(*args)`` (deprecated in MindSpore 2.10, still there): a new Tensor with one
    element set (``(value,)`` for a shape-(1,) Tensor; ``(flat_index or index_tuple, value)``); the
    Tensor itself is unchanged, as MindSpore's."""
    if not args:
        raise ValueError("'Tensor.itemset()' must have at least one argument, but got None.")
    if len(args) > 2:
        raise ValueError(f"'Tensor.itemset()' must have at most 2 argument, but got {len(args)}.")
    x = self._data
    if len(args) == 1:
        if x.shape != (1,):
            raise IndexError(f"Only tensor which shape is (1,) support 1 arg that means omit index, but the tensor "
                             f"shape is {tuple(x.shape)} and got 1 input.")
        index, value = (0,), args[0]
    elif isinstance(args[0], tuple):
        index, value = args
        if len(index) != x.ndim:
            raise IndexError(f"Tuple index len({len(index)}) is not same to tensor dimension({x.ndim})")
    else:
        flat, value = int(args[0]), args[1]
        if not -x.size <= flat < x.size:
            raise IndexError(f"index {flat} is out of bounds for axis 0 with size {x.size}")
        index = np.unravel_index(flat % x.size, x.shape)
    v = value._data if isinstance(value, Tensor) else value
    return wrap(x.at[tuple(int(i) for i in index)].set(jnp.asarray(v, x.dtype)))
