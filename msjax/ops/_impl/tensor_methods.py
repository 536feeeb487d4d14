"""Tensor methods beyond the op families: MindSpore's in-place forms (``add_``, ``clamp_``,
``index_fill_``...) and the torch-style helpers (``t``, ``moveaxis``, ``new_zeros``, ``median``...).

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

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import dtype as mstype
from ..._core.registry import OPS, op
from ..._core.tensor import Tensor
from ._util import arr, operand_pair, wrap
from .array import _write_inplace, tensor_split
from .indexing import _segment_ids, _tensor_scatter_nd, tensor_scatter_add, tensor_scatter_elements
from .extra_array import expand
from .math import _dn, _float_input, _is_float, _norm_axes, _norm_axis, _out

# ---------------------------------------------------------------------------
# in-place arithmetic
# ---------------------------------------------------------------------------


def _store(self, new, name):
    cur = self._data
    new = jnp.asarray(new)
    if tuple(new.shape) != tuple(cur.shape):
        raise ValueError(f"For '{name}', the result shape {list(new.shape)} must be the shape of the input "
                         f"{list(cur.shape)}: an in-place op cannot broadcast its input.")
    _write_inplace(self, new.astype(cur.dtype))
    return self


def _inplace_of(name, method):
    def fn(self, *args, **kwargs):
        return _store(self, getattr(Tensor, method)(self, *args, **kwargs)._data, name)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``Tensor.{name}(...)``: ``Tensor.{method}(...)`` written into the Tensor."
    op("tensor_" + name, methods=name, family="math")(fn)
    return fn


def _add_(self, other, *, alpha=1):
    """``Tensor.add_(other, *, alpha=1)``: ``self += alpha * other`` in place."""
    return _store(self, (self.add(other, alpha=alpha) if alpha != 1 else self.add(other))._data, "add_")


def _sub_(self, other, *, alpha=1):
    """``Tensor.sub_(other, *, alpha=1)``: ``self -= alpha * other`` in place."""
    return _store(self, (self.sub(other, alpha=alpha) if alpha != 1 else self.sub(other))._data, "sub_")


op("tensor_add_", methods="add_", family="math")(_add_)
op("tensor_sub_", methods="sub_", family="math")(_sub_)
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


def _dim_index(name, x, dim, index):
    ax = _norm_axis(name, dim, x.ndim)
    i = arr(index)
    if not jnp.issubdtype(i.dtype, jnp.integer):
        raise TypeError(f"For '{name}', the 'index' must be an integer Tensor, but got {_dn(i)}.")
    return ax, i.reshape(-1)


@op("tensor_index_add_", methods="index_add_", family="array")
def _index_add_(self, dim, index, source, *, alpha=1):
    """``Tensor.index_add_(dim, index, source, *, alpha=1)``: ``self[..., index[j], ...] += alpha * source[..., j, ...]``."""
    x = self._data
    ax, i = _dim_index("index_add_", x, dim, index)
    v = arr(source).astype(x.dtype)
    if alpha != 1:
        v = v * jnp.asarray(alpha, x.dtype)
    return _store(self, x.at[(slice(None),) * ax + (i,)].add(v), "index_add_")


def _index_fill(name, x, dim, index, value):
    ax, i = _dim_index(name, x, dim, index)
    val = arr(value)
    if val.ndim != 0:
        raise ValueError(f"For '{name}', 'value' must be a 0-D Tensor or a number, but got a {val.ndim}-D Tensor.")
    return x.at[(slice(None),) * ax + (i,)].set(val.astype(x.dtype))


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


@op("tensor_masked_scatter_", methods="masked_scatter_", family="array")
def _masked_scatter_(self, mask, source):
    """``Tensor.masked_scatter_(mask, source)``: ``masked_scatter`` in place."""
    return _store(self, _masked_scatter("masked_scatter_", self._data, mask, source), "masked_scatter_")


# ---------------------------------------------------------------------------
# shape and layout
# ---------------------------------------------------------------------------

@op("t", methods="t", family="array")
def t(input):
    """``ops.t(input)``: a 2-D Tensor transposed; 0-D and 1-D Tensors as they are."""
    x = arr(input)
    return wrap(x.T if x.ndim == 2 else x)


def _size_args(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list, Tensor)):
        size = size[0]
    if isinstance(size, Tensor):
        size = [int(v) for v in np.asarray(size._data).reshape(-1)]
    return tuple(int(s) for s in size)


@op("tensor_expand", methods="expand", family="array")
def _expand(self, *size):
    """``Tensor.expand(*size)``: broadcast to ``size`` (a Tensor, a tuple or ints; -1 keeps a dimension)."""
    return expand(self, wrap(jnp.asarray(_size_args(size), jnp.int64)))


@op("moveaxis", methods="moveaxis", family="array")
def moveaxis(x, source, destination):
    """``ops.moveaxis(x, source, destination)``."""
    return wrap(jnp.moveaxis(arr(x), source, destination))


@op("movedim", methods="movedim", family="array")
def movedim(x, source, destination):
    """``ops.movedim(x, source, destination)``."""
    return wrap(jnp.moveaxis(arr(x), source, destination))


@op("swapdims", methods="swapdims", family="array")
def swapdims(input, dim0, dim1):
    """``ops.swapdims(input, dim0, dim1)``."""
    return wrap(jnp.swapaxes(arr(input), dim0, dim1))


@op("ravel", methods="ravel", family="array")
def ravel(input):
    """``ops.ravel(input)``: flattened to 1-D."""
    return wrap(arr(input).reshape(-1))


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


def _new(self, size, dtype, value):
    shape = _size_args((size,))
    npd = self._data.dtype if dtype is None else mstype.to_np(dtype)
    return wrap(jnp.full(shape, value, npd))


@op("tensor_new_zeros", methods="new_zeros", family="array")
def _new_zeros(self, size, dtype=None):
    return _new(self, size, dtype, 0)


@op("tensor_new_ones", methods="new_ones", family="array")
def _new_ones(self, size, dtype=None):
    return _new(self, size, dtype, 1)


@op("tensor_new_full", methods="new_full", family="array")
def _new_full(self, size, fill_value, *, dtype=None):
    """``Tensor.new_full(size, fill_value, *, dtype=None)`` (Ascend-only in MindSpore 2.10)."""
    return _new(self, size, dtype, fill_value)


@op("tensor_new_empty", methods="new_empty", family="array")
def _new_empty(self, size, *, dtype=None, device=None):
    """``Tensor.new_empty(size, *, dtype=None)``: uninitialised in MindSpore, zeros here."""
    return _new(self, size, dtype, 0)


@op("top_k", methods="top_k", family="math")
def top_k(input_x, k, sorted=True):
    """``ops.top_k(input_x, k, sorted=True)``: the ``TopK`` primitive (last axis; Int32 indices)."""
    return OPS["prim_topk"].fn(input_x, k, sorted=sorted)


@op("diagonal", methods="diagonal", family="array")
def diagonal(input, offset=0, dim1=0, dim2=1):
    """``ops.diagonal(input, offset=0, dim1=0, dim2=1)``: the diagonal moved to the last axis."""
    return wrap(jnp.diagonal(arr(input), offset, dim1, dim2))


@op("diagflat", methods="diagflat", family="array")
def diagflat(input, offset=0):
    """``ops.diagflat(input, offset=0)``: the flattened input on a diagonal of a square matrix."""
    return wrap(jnp.diagflat(arr(input), offset))


def _flip_axis(name, x, axis, need):
    if x.ndim < need:
        raise ValueError(f"For 'ReverseV2', the 'axis[0]' must be in range of [-{x.ndim}, {x.ndim}), but got "
                         f"{axis} with type 'int'.")
    return wrap(jnp.flip(x, axis))


@op("fliplr", methods="fliplr", family="array")
def fliplr(input):
    """``ops.fliplr(input)``: reversed along axis 1."""
    return _flip_axis("fliplr", arr(input), 1, 2)


@op("flipud", methods="flipud", family="array")
def flipud(input):
    """``ops.flipud(input)``: reversed along axis 0."""
    return _flip_axis("flipud", arr(input), 0, 1)


@op("rot90", methods="rot90", family="array")
def rot90(input, k, dims):
    """``ops.rot90(input, k, dims)``: rotated ``k`` times by 90 degrees in the plane ``dims``."""
    return wrap(jnp.rot90(arr(input), k, tuple(dims)))


def _split_dir(name, axis, need):
    def fn(input, indices_or_sections):
        x = arr(input)
        if x.ndim < need:
            raise ValueError(f"{name} expect `x` is a Tensor with at least {need} dimension, but got {x.ndim}")
        return tensor_split(wrap(x), indices_or_sections, axis)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``ops.{name}(input, indices_or_sections)``: ``tensor_split`` along axis {axis}."
    return op(name, methods=name, family="array")(fn)


hsplit = _split_dir("hsplit", 1, 2)
vsplit = _split_dir("vsplit", 0, 2)
dsplit = _split_dir("dsplit", 2, 3)


# ---------------------------------------------------------------------------
# reductions and sorting
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


@op("median", methods="median", family="math")
def median(input, axis=-1, keepdims=False):
    """``ops.median(input, axis=-1, keepdims=False)``: the lower median along ``axis`` and its Int64 index."""
    return _median(arr(input), axis, keepdims, False)


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


@op("tensor_ptp", methods="ptp", family="math")
def _ptp(input, axis=None, keepdims=False):
    """``Tensor.ptp(axis=None, keepdims=False)``: ``max - min`` along ``axis``."""
    x = arr(input)
    axes = _norm_axes("ptp", axis, x.ndim)
    return _out(jnp.max(x, axes, keepdims=keepdims) - jnp.min(x, axes, keepdims=keepdims))


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


# ---------------------------------------------------------------------------
# elementwise
# ---------------------------------------------------------------------------

def _float_only(name, x, what="x"):
    if x.dtype not in (jnp.float16, jnp.float32, jnp.float64):
        raise TypeError(f"For '{name}', the '{what}' must be a Float16, Float32 or Float64 Tensor, but got "
                        f"{_dn(x)}.")


def _to_float(x):
    return x if _is_float(x) else x.astype(jnp.float32)


@op("xlogy", methods="xlogy", family="math")
def xlogy(input, other):
    """``ops.xlogy(input, other)``: ``input * log(other)`` (MindSpore's CPU kernel: ``0 * log(0)`` is NaN)."""
    x, y = operand_pair(input, other)
    r = jnp.asarray(x) * jnp.log(_to_float(jnp.asarray(y)))
    _float_input("xlogy", r)
    if not (_is_float(jnp.asarray(x)) or _is_float(jnp.asarray(y))):
        raise TypeError("For 'xlogy', integer inputs are not supported (MindSpore's CPU kernel has none).")
    return _out(r)


@op("xdivy", methods="xdivy", family="math")
def xdivy(x, y):
    """``ops.xdivy(x, y)``: ``x / y``, 0 where ``x`` is 0."""
    a, b = operand_pair(x, y)
    a, b = jnp.asarray(a), jnp.asarray(b)
    if not _is_float(a):
        raise TypeError("For primitive[Xdivy], the input argument[x] must be a type of {Tensor[Complex128], "
                        "Tensor[Complex64], Tensor[Float16], Tensor[Float32], Tensor[Float64]}, but got "
                        f"Tensor[{_dn(a)}].")
    safe = jnp.where(a == 0, jnp.ones_like(b), b)
    return _out(jnp.where(a == 0, jnp.zeros_like(a / safe), a / safe))


@op("copysign", methods="copysign", family="math")
def copysign(x, other):
    """``ops.copysign(x, other)``: ``|x|`` with the sign of ``other``; integers become Float32."""
    a, b = operand_pair(x, other)
    return _out(jnp.copysign(_to_float(jnp.asarray(a)), jnp.asarray(b)))


@op("ldexp", methods="ldexp", family="math")
def ldexp(x, other):
    """``ops.ldexp(x, other)``: ``x * 2 ** other``; integers become Float32."""
    a, b = operand_pair(x, other)
    a = _to_float(jnp.asarray(a))
    return _out(a * jnp.exp2(jnp.asarray(b).astype(a.dtype)))


@op("nextafter", methods="nextafter", family="math")
def nextafter(input, other):
    """``ops.nextafter(input, other)``: the next representable value after ``input`` towards ``other``."""
    a, b = operand_pair(input, other)
    return _out(jnp.nextafter(jnp.asarray(a), jnp.asarray(b)))


@op("sinc", methods="sinc", family="math")
def sinc(input):
    """``ops.sinc(input)``: ``sin(pi x) / (pi x)``, 1 at 0; integers become Float32."""
    return _out(jnp.sinc(_to_float(arr(input))))


def _angle_conv(name, factor):
    def fn(x):
        a = arr(x)
        if a.dtype not in (jnp.float16, jnp.float32, jnp.float64):
            raise TypeError(f"The 'x' should be one of [mindspore.float16, mindspore.float32, mindspore.float64], "
                            f"but got 'mindspore.{str(mstype.from_np(a.dtype)).lower()}'.")
        return wrap(a * jnp.asarray(factor, a.dtype))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``ops.{name}(x)``, float inputs only."
    return op(name, methods=name, family="math")(fn)


deg2rad = _angle_conv("deg2rad", np.pi / 180)
rad2deg = _angle_conv("rad2deg", 180 / np.pi)


@op("sgn", methods="sgn", family="math")
def sgn(x):
    """``ops.sgn(x)``: ``sign`` for real inputs, ``x / |x|`` (0 at 0) for complex ones."""
    a = arr(x)
    if jnp.issubdtype(a.dtype, jnp.complexfloating):
        m = jnp.abs(a)
        return wrap(jnp.where(m == 0, jnp.zeros_like(a), a / jnp.where(m == 0, 1, m).astype(a.dtype)))
    return wrap(jnp.sign(a))


@op("signbit", methods="signbit", family="math")
def signbit(input):
    """``ops.signbit(input)``: True where ``input < 0`` (MindSpore's CPU kernel: -0.0 gives False)."""
    x = arr(input)
    return wrap(x < 0 if x.dtype != jnp.bool_ else jnp.zeros(x.shape, jnp.bool_))


@op("positive", methods="positive", family="math")
def positive(input):
    """``ops.positive(input)``: the input."""
    return wrap(arr(input))


@op("inner", methods="inner", family="math")
def inner(input, other):
    """``ops.inner(input, other)``: sum over the last axes; a 0-D operand multiplies."""
    a, b = operand_pair(input, other)
    a, b = jnp.asarray(a), jnp.asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return _out(a * b)
    return _out(jnp.inner(a, b))


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


# ---------------------------------------------------------------------------
# scatters, segments and index writes
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


def _scatter_nd(name, how, negate=False):
    def fn(input_x, indices, updates):
        u = arr(updates)
        return _tensor_scatter_nd(input_x, indices, -u if negate else u, how)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``ops.{name}(input_x, indices, updates)``: ``{how}`` of ``updates`` at the N-D ``indices``."
    return op(name, methods=name.replace("tensor_", ""), family="array")(fn)


tensor_scatter_sub = _scatter_nd("tensor_scatter_sub", "add", negate=True)
tensor_scatter_mul = _scatter_nd("tensor_scatter_mul", "multiply")
tensor_scatter_div = _scatter_nd("tensor_scatter_div", "divide")
tensor_scatter_max = _scatter_nd("tensor_scatter_max", "max")
tensor_scatter_min = _scatter_nd("tensor_scatter_min", "min")


def _segment_reduce(name, prim, reduce, empty):
    def fn(x, segment_ids, num_segments):
        a = arr(x)
        ids = _segment_ids(segment_ids, a, prim)
        n = int(num_segments._data) if isinstance(num_segments, Tensor) else int(num_segments)
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
unsorted_segment_prod = _segment_reduce("unsorted_segment_prod", "UnsortedSegmentProd", jax.ops.segment_prod, _one)


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


@op("select_scatter", methods="select_scatter", family="array")
def select_scatter(input, src, axis, index):
    """``ops.select_scatter(input, src, axis, index)``: ``src`` written at ``index`` of ``axis``."""
    x = arr(input)
    ax = _norm_axis("select_scatter", axis, x.ndim)
    return wrap(x.at[(slice(None),) * ax + (index,)].set(arr(src).astype(x.dtype)))


@op("slice_scatter", methods="slice_scatter", family="array")
def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """``ops.slice_scatter(input, src, axis=0, start=None, end=None, step=1)``: ``src`` written into the slice."""
    x, s = arr(input), arr(src)
    ax = _norm_axis("slice_scatter", axis, x.ndim)
    sl = (slice(None),) * ax + (slice(start, end, step),)
    want = x[sl].shape
    if tuple(s.shape) != tuple(want):
        raise ValueError(f"For slice_scatter, src shape should be equal to the slice size,but got src shape "
                         f"{tuple(s.shape)} and slice shape {tuple(want)}")
    return wrap(x.at[sl].set(s.astype(x.dtype)))


@op("diagonal_scatter", methods="diagonal_scatter", family="array")
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``ops.diagonal_scatter(input, src, offset=0, dim1=0, dim2=1)``: ``src`` written on the diagonal."""
    x = arr(input)
    d1, d2 = _norm_axis("diagonal_scatter", dim1, x.ndim), _norm_axis("diagonal_scatter", dim2, x.ndim)
    n = jnp.diagonal(x, offset, d1, d2).shape[-1]
    r = np.arange(n)
    rows, cols = (r, r + offset) if offset >= 0 else (r - offset, r)
    moved = jnp.moveaxis(x, (d1, d2), (-2, -1))
    moved = moved.at[..., rows, cols].set(arr(src).astype(x.dtype))
    return wrap(jnp.moveaxis(moved, (-2, -1), (d1, d2)))


# ---------------------------------------------------------------------------
# reductions, linear algebra, predicates and casts
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


@op("aminmax", methods="aminmax", family="math")
def aminmax(input, *, axis=0, keepdims=False):
    """``ops.aminmax(input, *, axis=0, keepdims=False)``: ``(min, max)`` along ``axis``."""
    x = arr(input)
    ax = _norm_axis("aminmax", axis, x.ndim)
    return wrap(jnp.min(x, ax, keepdims=keepdims)), wrap(jnp.max(x, ax, keepdims=keepdims))


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


@op("isreal", methods="isreal", family="math")
def isreal(input):
    """``ops.isreal(input)``: True where the imaginary part is 0 (everywhere for real Tensors)."""
    x = arr(input)
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        return wrap(jnp.imag(x) == 0)
    return wrap(jnp.ones(x.shape, jnp.bool_))


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


@op("renorm", methods="renorm", family="math")
def renorm(input, p, axis, maxnorm):
    """``ops.renorm(input, p, axis, maxnorm)``: each slice along ``axis`` with a ``p``-norm above
    ``maxnorm`` scaled down to ``maxnorm``."""
    x = arr(input)
    ax = _norm_axis("renorm", axis, x.ndim)
    others = tuple(d for d in range(x.ndim) if d != ax)
    norm = jnp.sum(jnp.abs(x) ** p, axis=others, keepdims=True) ** (1.0 / p)
    big = norm > maxnorm
    # slices left as they are get gradient 1 (MindSpore), not the 0 * NaN of a zero norm's
    # gradient: the scaled branch sees those slices as ones
    xs = jnp.where(big, x, 1)
    norm = jnp.sum(jnp.abs(xs) ** p, axis=others, keepdims=True) ** (1.0 / p)
    return wrap(jnp.where(big, xs * (maxnorm / (norm + 1e-7)).astype(x.dtype), x))


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
    """``Tensor.stride(dim=None)``: the row-major strides in elements (a list), or one of them."""
    shape = self.shape
    st = [int(np.prod(shape[k + 1:], dtype=np.int64)) for k in range(len(shape))]
    return st if dim is None else st[dim]


@op("tensor_is_contiguous", methods="is_contiguous", family="array")
def _is_contiguous(self):
    """Always True: a ``jax.Array`` is dense row-major."""
    return True


@op("tensor_contiguous", methods="contiguous", family="array")
def _contiguous(self):
    """The Tensor itself (already contiguous)."""
    return self


@op("tensor_adjoint", methods="adjoint", family="array")
def _adjoint(self):
    """``Tensor.adjoint()``: ``Tensor.mH``."""
    return self.mH


def _nan_pick(name, jfn):
    def fn(input, other):
        a, b = operand_pair(input, other)
        return _out(jfn(jnp.asarray(a), jnp.asarray(b)))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``ops.{name}(input, other)``: elementwise, a NaN loses to a number."
    return op(name, methods=name, family="math")(fn)


def _fmax(a, b):
    # a NaN loses; at ties the gradient goes to the first input (MindSpore's FmaxGrad)
    return jnp.where((a >= b) | jnp.isnan(b), a, b)


def _fmin(a, b):
    return jnp.where((a <= b) | jnp.isnan(b), a, b)


fmax = _nan_pick("fmax", _fmax)
fmin = _nan_pick("fmin", _fmin)


@op("addr", methods="addr", family="math")
def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``ops.addr(x, vec1, vec2, *, beta=1, alpha=1)``: ``beta * x + alpha * outer(vec1, vec2)``."""
    a = arr(x)
    return _out(beta * a + alpha * jnp.outer(arr(vec1), arr(vec2)).astype(a.dtype))


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
