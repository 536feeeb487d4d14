"""Array operations: shape and layout (reshape, squeeze/unsqueeze, transpose/permute, flatten,
broadcast, tile/repeat, flip/roll, ``expand``, ``InvertPermutation``, ``ReverseSequence``,
``ConjugateTranspose``), joining and splitting (concat/stack/unstack, hstack/vstack/dstack...,
atleast_1d/2d/3d, block_diag, cartesian_prod, split/chunk), slicing (slice, strided_slice,
narrow), meshgrid, dtype and shape queries (cast, shape, rank...), identity-like ops,
sequence_mask, the diagonal ops (diag, diag_embed, ``DiagPart``, tril, triu), the torch-style
layout helpers (t, moveaxis, ravel, rot90, hsplit...), and the helpers the other array-like
modules share (concrete values, axis and shape arguments, in-place writes).

Every function is MindSpore's functional op on Tensors (``ops.<name>``); the
Primitive classes and Tensor methods come from the same registry entries.
Ops whose output shape depends on values (``repeat_interleave`` with Tensor repeats,
``sequence_mask`` without ``maxlen``, shapes given as Tensors) need concrete values: inside a
compiled function they make msjax fall back to running that function op by op, as
``transforms`` explains.
"""
from __future__ import annotations

import builtins
import functools
import math as _math

import jax
import jax.numpy as jnp
from jax._src import core as jax_core
import numpy as np

from ..._core import dtype as mstype, float_to_int
from ..._core import state
from . import view_layout
from ..._core.registry import op
from ..._core.tensor import Tensor
from . import views as _views
from .views import mark_permuted
from ._util import _prim_of, arr, shape_text, wrap
from .math import _dispatch as _named_dispatch, _need_tensor

_py_range = builtins.range
_py_slice = builtins.slice


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def _is_tracer(a):
    return isinstance(a, jax.core.Tracer)


def _known(a):
    """The value of a tracer that has one (an eager ``jax.vjp``'s: MindSpore's PyNative backward
    runs on such values), else None."""
    v = jax_core.to_concrete_value(a)
    return None if v is None else np.asarray(v)


def _concrete(a):
    """numpy value of ``a``, or None while it is being traced (compiled)."""
    if isinstance(a, Tensor):
        a = a._data
    if _is_tracer(a):
        return _known(a)
    return np.asarray(a)


def _need_concrete(a, what):
    """``a``'s value; in compiled code raise JAX's concretization error (msjax then runs the
    function op by op, where an eager ``jax.vjp``'s tracers carry their values)."""
    if _is_tracer(a):
        v = _known(a)
        if v is None:
            raise jax.errors.ConcretizationTypeError(
                a, f"ops.{what} has an output shape that depends on the input values")
        return v
    return np.asarray(a)


def _dim_error(axis, ndim):
    return ValueError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim}), but got {axis})")


def _norm_axis(axis, ndim, op_name=None):
    """``axis`` in [0, ndim); MindSpore's ValueError otherwise (ndim 0 counts as 1)."""
    if isinstance(axis, Tensor):
        axis = int(axis._data)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For '{op_name or 'op'}', the 'axis' must be int, but got {type(axis).__name__}.")
    n = builtins.max(ndim, 1)
    if not -n <= axis < n:
        raise _dim_error(axis, n)
    return int(axis) % n


def _ints(value, name="shape", op_name="op"):
    """A tuple of Python ints from an int, tuple/list of ints or an integer Tensor."""
    if isinstance(value, Tensor):
        v = _need_concrete(value._data, op_name)
        return tuple(int(i) for i in np.ravel(v))
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),)
    if isinstance(value, (tuple, list)):
        out = []
        for v in value:
            if isinstance(v, Tensor):
                v = int(v._data)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"For '{op_name}', the elements of '{name}' must be int, but got "
                                f"{type(v).__name__}.")
            out.append(int(v))
        return tuple(out)
    raise TypeError(f"For '{op_name}', the '{name}' must be a tuple or list of int, but got "
                    f"{type(value).__name__}.")


def _shape_args(shape):
    """``f(2, 3)`` or ``f((2, 3))`` -> ``(2, 3)``."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, Tensor)):
        return _ints(shape[0])
    return tuple(int(s) if isinstance(s, Tensor) else s for s in shape)


def _check_int_index(a, op_name, name="indices", allowed=(np.int32, np.int64)):
    if a.dtype not in [np.dtype(d) for d in allowed]:
        kinds = ", ".join(f"Tensor[{mstype.from_np(d)}]" for d in allowed)
        raise TypeError(f"For primitive[{op_name}], the input argument[{name}] must be a type of {{{kinds}}}, "
                        f"but got Tensor[{mstype.from_np(a.dtype)}].")


def _write_inplace(t, new, name=None):
    """MindSpore's in-place ops update their input Tensor. A Parameter always takes
    the new value (the transforms carry it out of a trace); a plain Tensor does
    unless that would leave a traced value in a Tensor created outside the trace. In PyNative, an
    input a gradient function differentiates refuses (RuntimeError, MindSpore's docs; ``name`` is
    the op's primitive name); MindSpore 2.10's CPU build runs it without writing back."""
    if not isinstance(t, Tensor):
        return
    if t.__dict__.get("_ms_grad_leaf") and not state.compiled():
        raise RuntimeError("A leaf tensor that requires grad is being used in an inplace operator, "
                           f"{name or 'Inplace'}, which is forbidden!")
    from ..._core.parameter import Parameter
    if isinstance(t, Parameter) or not _is_tracer(new) or _is_tracer(t._data):
        t._data = new
        _views.after_write(t, _write_inplace, name)


# ---------------------------------------------------------------------------
# shape and layout
# ---------------------------------------------------------------------------
def _reshape(x, shape):
    shape = tuple(int(d) for d in shape)
    if shape.count(-1) > 1:
        raise ValueError("only one dimension can be inferred")
    known = _math.prod(d for d in shape if d != -1)
    if (-1 not in shape and known != x.size) or (-1 in shape and (known == 0 or x.size % known)) or \
            any(d < -1 for d in shape):
        raise ValueError(f"proposed_shape '{shape_text(shape)}' is invalid for input of size {x.size}")
    return wrap(jnp.reshape(x, shape))


@op("reshape", primitive="Reshape", family="array")
def reshape(input, shape):
    """``ops.reshape(input, shape)``: ``shape`` a tuple/list of int or an int Tensor."""
    return _reshape(arr(input), _ints(shape, "shape", "Reshape"))


def _bitcast(x, dtype):
    npd = mstype.to_np(dtype)
    src, dst = x.dtype.itemsize, np.dtype(npd).itemsize
    if src == dst:
        return jax.lax.bitcast_convert_type(x, npd)
    if src > dst:
        y = jax.lax.bitcast_convert_type(x, npd)
        return jnp.reshape(y, x.shape[:-1] + (x.shape[-1] * (src // dst),)) if x.ndim else y.reshape(-1)
    ratio = dst // src
    if x.ndim == 0 or x.shape[-1] % ratio:
        raise ValueError(f"For 'Tensor.view', the last dimension must be divisible by {ratio} to view "
                         f"{mstype.from_np(x.dtype)} as {dtype}.")
    y = jnp.reshape(x, x.shape[:-1] + (x.shape[-1] // ratio, ratio))
    return jax.lax.bitcast_convert_type(y, npd)


def _is_dim(v):
    return isinstance(v, Tensor) or (isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)))


def _checked_shape(shape, method, arg="shape"):
    """``_shape_args`` with the TypeErrors of MindSpore's argument parser (a float or str dimension is
    refused, not truncated)."""
    def shown(v):
        return {str: "string"}.get(type(v), type(v).__name__)
    if not shape or shape == (None,):
        raise TypeError(f"{method}(): missing 1 required positional argument: {arg}.")
    if len(shape) == 1 and not isinstance(shape[0], (tuple, list)) and not _is_dim(shape[0]):
        raise TypeError(f"{method}(): argument '{arg}' (position 1) must be tuple of int but found type of "
                        f"{shown(shape[0])} at pos 0.")
    dims = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    for i, d in enumerate(dims):
        if not _is_dim(d):
            raise TypeError(f"{method}(): argument '{arg}'(position 0) should be tuple of int, but unpack failed "
                            f"at pos {i} (got {shown(d)}).")
    return _shape_args(shape)


@op("tensor_reshape", methods="reshape", family="array")
def _tensor_reshape(input, *shape):
    """``Tensor.reshape(*shape)``: a tuple or separate ints."""
    return _reshape(arr(input), _checked_shape(shape, "reshape"))


@op("tensor_view", methods="view", family="array")
def _tensor_view(input, *shape):
    """``Tensor.view(*shape)``, or ``Tensor.view(dtype)`` (reinterprets the bits)."""
    if len(shape) == 1 and isinstance(shape[0], mstype.Type):
        return wrap(_bitcast(arr(input), shape[0]))
    return _reshape(arr(input), _checked_shape(shape, "view"))


@op("tensor_view_as", methods="view_as", family="array")
def _tensor_view_as(input, other):
    if not isinstance(other, Tensor):
        raise TypeError(f"For 'Tensor.view_as', 'other' must be a Tensor, but got {type(other).__name__}.")
    return _reshape(arr(input), other.shape)


@op("squeeze", primitive="Squeeze", prim_args=("axis",), family="array")
def squeeze(input, axis=None):
    """``ops.squeeze(input, axis=None)``; axes whose size is not 1 are left alone (MindSpore 2.x)."""
    x = arr(input)
    if axis is None or axis == ():
        return wrap(jnp.squeeze(x))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(_norm_axis(a, x.ndim, "squeeze") for a in axes)
    axes = tuple(a for a in axes if x.ndim and x.shape[a] == 1)
    return wrap(jnp.squeeze(x, axes) if axes else x)


@op("tensor_squeeze", methods="squeeze", family="array")
def _tensor_squeeze(input, axis=None):
    """``Tensor.squeeze(axis=None)``: an int or a tuple of ints."""
    return squeeze(input, axis)


def _expand(x, axis, op_name):
    if isinstance(axis, Tensor):
        axis = int(axis._data)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For '{op_name}', the type of 'axis' must be int, but got {type(axis).__name__}.")
    n = x.ndim + 1
    if not -n <= axis < n:
        raise _dim_error(axis, n)
    return wrap(jnp.expand_dims(x, int(axis) % n))


@op("expand_dims", primitive="ExpandDims", methods="expand_dims", family="array")
def expand_dims(input_x, axis):
    """``ops.expand_dims(input_x, axis)``."""
    return _expand(arr(input_x), axis, "ExpandDims")


@op("unsqueeze", methods="unsqueeze", family="array")
def unsqueeze(input, dim):
    """``ops.unsqueeze(input, dim)``."""
    return _expand(arr(input), dim, "unsqueeze")


def _transpose(x, perm):
    perm = _ints(perm, "input_perm", "Transpose")
    if len(perm) != x.ndim:
        raise ValueError(f"For 'Transpose', size of perm should equal to rank of x, but got {len(perm)} "
                         f"and {x.ndim}!")
    norm = []
    for p in perm:
        if not -builtins.max(x.ndim, 1) <= p < builtins.max(x.ndim, 1):
            raise _dim_error(p, x.ndim)
        norm.append(p % x.ndim if x.ndim else 0)
    for p in norm:
        if norm.count(p) > 1:
            raise ValueError(f"For 'Transpose' perms should all be unique dim, but{p} is not unique!")
    return wrap(jnp.transpose(x, norm))


def _permuted(out, input, view):
    """``out`` is the PyNative view ``view`` of ``input``: it keeps MindSpore's layout
    (``_core/view_layout.py``: ``is_contiguous``, ``stride``, ``Assign``'s refusal)."""
    return view_layout.mark(out, input, view)


@op("transpose", primitive="Transpose", family="array")
def transpose(input, dims):
    """``ops.transpose(input, dims)``: ``dims`` is a permutation of the axes. In PyNative the output
    keeps the layout of MindSpore's view (not contiguous unless only axes of size 1 move)."""
    out = _transpose(arr(input), dims)
    perm = _ints(dims, "input_perm", "Transpose")
    return _permuted(out, input, lambda a: a.transpose([p % builtins.max(a.ndim, 1) for p in perm]))


@op("prim_transpose_view", primitive="TransposeView", family="array")
def transpose_view(input, input_perm):
    """``ops.operations.TransposeView()(input, input_perm)``: ``Transpose``. MindSpore returns a view
    sharing the input's memory; msjax's result is a new Tensor that keeps the view's layout
    (``views``): ``Assign`` refuses it as MindSpore does, and where MindSpore writes into a
    contiguous view in a graph msjax updates the result and not the input."""
    return mark_permuted(_transpose(arr(input), input_perm), input, input_perm)


@op("tensor_transpose", methods="transpose", family="array")
def _tensor_transpose(input, *axes):
    """``Tensor.transpose(dim0, dim1)`` swaps two axes; ``Tensor.transpose(*axes)``
    (or a tuple) permutes them; no axes reverses them."""
    x = arr(input)
    if len(axes) == 2 and all(isinstance(a, int) for a in axes) and x.ndim != 2:
        a, b = (_norm_axis(v, x.ndim, "transpose") for v in axes)
        return _permuted(wrap(jnp.swapaxes(x, a, b)), input, lambda v: v.swapaxes(a, b))
    axes = _shape_args(axes)
    if not axes:
        return _permuted(wrap(jnp.transpose(x)), input, lambda v: v.T)
    out = _transpose(x, axes)
    perm = _ints(axes, "input_perm", "Transpose")
    return _permuted(out, input, lambda v: v.transpose([p % builtins.max(v.ndim, 1) for p in perm]))


@op("permute", family="array")
def permute(input, axis):
    """``ops.permute(input, axis)``."""
    return transpose(input, axis)


@op("tensor_permute", methods="permute", family="array")
def _tensor_permute(input, *dims):
    """``Tensor.permute(*dims)`` (or a tuple)."""
    return transpose(input, _shape_args(dims))


def _swap_axis(axis, ndim):
    """MindSpore's check of a ``swapaxes``/``swapdims`` axis (a bool counts as an int)."""
    if not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For ops.swapaxes, the axis argument must be integer, but got {type(axis)}.")
    if not -ndim <= axis < ndim:
        raise ValueError(f"The 'axis' must be in the range of [-{ndim}, {ndim}), but got {axis}.")
    return int(axis) % ndim


@op("swapaxes", methods="swapaxes", family="array")
def swapaxes(input, axis0, axis1):
    """``ops.swapaxes(input, axis0, axis1)``; in PyNative with the layout of MindSpore's view."""
    x = arr(input)
    a, b = _swap_axis(axis0, x.ndim), _swap_axis(axis1, x.ndim)
    return _permuted(wrap(jnp.swapaxes(x, a, b)), input, lambda v: v.swapaxes(a, b))


def _flatten(x, order, start_dim, end_dim):
    if order not in ("C", "F"):
        raise ValueError(f"For Tensor.flatten, the parameter 'order' must be 'C' or 'F', but got '{order}'")
    if order == "F":
        x = jnp.transpose(x)
    if x.ndim == 0:
        return wrap(jnp.reshape(x, (1,)))
    if x.ndim == 1:
        return wrap(x)
    s = _norm_axis(start_dim, x.ndim, "flatten")
    e = _norm_axis(end_dim, x.ndim, "flatten")
    if s > e:
        raise ValueError(f"For 'flatten', 'start_dim' cannot come after 'end_dim', but got {start_dim} and {end_dim}.")
    shape = x.shape[:s] + (_math.prod(x.shape[s:e + 1]),) + x.shape[e + 1:]
    return wrap(jnp.reshape(x, shape))


@op("flatten", family="array")
def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """``ops.flatten(input, order='C', *, start_dim=1, end_dim=-1)`` (keeps the batch axis)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'flatten', argument 'input' must be Tensor, but got {type(input).__name__}.")
    return _flatten(arr(input), order, start_dim, end_dim)


@op("tensor_flatten", methods="flatten", family="array")
def _tensor_flatten(input, order="C", *args, start_dim=0, end_dim=-1):
    """``Tensor.flatten(start_dim=0, end_dim=-1)`` or ``Tensor.flatten(order='C', *, start_dim=0, end_dim=-1)``."""
    if isinstance(order, int):
        start_dim = order
        if args:
            end_dim = args[0]
        order = "C"
    return _flatten(arr(input), order, start_dim, end_dim)


@op("prim_flatten", primitive="Flatten", family="array")
def _prim_flatten(input_x):
    """``ops.Flatten()(x)``: ``(N, ...)`` -> ``(N, -1)``."""
    x = arr(input_x)
    if x.ndim == 0:
        raise ValueError("For 'Flatten', the rank of 'input_x' must be greater than or equal to 1, but got 0.")
    return wrap(jnp.reshape(x, (x.shape[0], -1)))


def _broadcast_to(x, shape, op_name="BroadcastTo"):
    shape = _ints(shape, "shape", op_name)
    if len(shape) < x.ndim:
        raise ValueError(f"For '{op_name}', the rank of 'shape' must be greater than or equal to the rank of "
                         f"'input', but got {len(shape)} and {x.ndim}.")
    lead = len(shape) - x.ndim
    out = []
    for i, s in enumerate(shape):
        d = x.shape[i - lead] if i >= lead else None
        if s == -1:
            if d is None:
                raise ValueError(f"For '{op_name}', -1 is not allowed in a leading, non-existing dimension.")
            s = d
        if d is not None and d != 1 and d != s:
            xs = "(" + ", ".join(str(v) for v in x.shape) + ")"
            ts = "(" + ", ".join(str(v) for v in shape) + ")"
            raise ValueError(f"For '{op_name}', in order to broadcast, each dimension pair must be equal or input "
                             f"dimension is 1 or target dimension is -1. But got x_shape: {xs}, target shape: {ts}.")
        out.append(s)
    return wrap(jnp.broadcast_to(x, tuple(out)))


@op("broadcast_to", family="array")
def broadcast_to(input, shape):
    """``ops.broadcast_to(input, shape)``: -1 keeps the input's size."""
    return _broadcast_to(arr(input), shape)


@op("prim_broadcast_to", primitive="BroadcastTo", prim_args=("shape",), family="array")
def _prim_broadcast_to(input, shape):
    return _broadcast_to(arr(input), shape)


@op("tensor_broadcast_to", methods="broadcast_to", family="array")
def _tensor_broadcast_to(input, *shape):
    return _broadcast_to(arr(input), _checked_shape(shape, "broadcast_to"))


def _expand_as_other(self, other):
    return _broadcast_to(arr(self), other.shape, "expand_as")


def _expand_as_x(self, x):
    return _broadcast_to(arr(self), x.shape, "expand_as")


# MindSpore's two overloads: ``expand_as(other)`` and the older ``expand_as(x)`` (by keyword).
op("tensor_expand_as", methods="expand_as", family="array")(
    _named_dispatch("expand_as", _expand_as_other, _expand_as_x))


def _tile(x, dims):
    dims = _ints(dims, "dims", "Tile")
    if any(d < 0 for d in dims):
        raise ValueError(f"For 'Tile', 'dims' must be non-negative, but got {dims}.")
    if len(dims) < x.ndim:
        dims = (1,) * (x.ndim - len(dims)) + dims
    return wrap(jnp.tile(x, dims))


@op("tile", primitive="Tile", family="array")
def tile(input, dims):
    """``ops.tile(input, dims)``: fewer dims than the rank are padded with 1 in front."""
    return _tile(arr(input), dims)


@op("tensor_tile", methods="tile", family="array")
def _tensor_tile(input, *dims, reps=None):
    """``Tensor.tile(dims)``, ``Tensor.tile(*dims)`` or ``Tensor.tile(reps=...)``."""
    if reps is not None:
        dims = (reps,)
    return _tile(arr(input), _shape_args(dims))


@op("tensor_repeat", methods="repeat", family="array")
def _tensor_repeat(input, *repeats):
    """``Tensor.repeat(*repeats)``: copies the tensor along each axis (like ``torch.Tensor.repeat``)."""
    x = arr(input)
    reps = _checked_shape(repeats, "repeat", "repeats")
    if len(reps) < x.ndim:
        raise ValueError(f"For 'repeat', the number of elements of 'repeats' should be greater than or equal to "
                         f"the rank of the tensor, but got {len(reps)} and {x.ndim}.")
    return wrap(jnp.tile(x, reps))


@op("repeat_elements", family="array")
def repeat_elements(x, rep, axis=0):
    """``ops.repeat_elements(x, rep, axis=0)``: each element ``rep`` times along ``axis`` (a numeric Tensor
    of rank 1 to 7; MindSpore's checks and messages)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For Primitive[Dtype], the input argument[input_x] must be a Tensor, CSRTensor or "
                        f"COOTensor, but got {type(x)}.")
    a = x._data
    if a.dtype == jnp.bool_:
        raise TypeError("The 'input x' doesn't support 'Bool' and expect to receive a number type (int, uint, "
                        "float or complex).")
    if isinstance(rep, bool) or not isinstance(rep, int):
        raise TypeError(f"For 'repeat_elements', the 'rep' must be 'int',  but got '{type(rep).__name__}'.")
    if not 0 < rep <= 2147483647:
        raise ValueError(f"For 'repeat_elements', the 'rep' must be in range of (0, 2147483647], but got {rep} "
                         f"with type 'int'.")
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"For 'repeat_elements', the type of 'axis' must be 'int', but got '{type(axis).__name__}'.")
    if a.ndim > 7:
        raise ValueError(f"For repeat_elements, the rank of x should be less than or equal to 7, but got {a.ndim}.")
    if not -a.ndim <= axis < a.ndim:
        raise ValueError(f"For 'repeat_elements', the 'axis' must be in range of [{-a.ndim}, {a.ndim}), but got "
                         f"{axis} with type 'int'.")
    return wrap(jnp.repeat(a, rep, axis=axis % a.ndim))


@op("is_floating_point", family="array")
def is_floating_point(input):
    """``ops.is_floating_point(input)``: whether the dtype is Float16, Float32, Float64 or BFloat16 (a Python
    bool)."""
    return input.dtype in (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _repeat_interleave(x, repeats, axis):
    if axis is None:
        x = jnp.ravel(x)
        axis = 0
    axis = _norm_axis(axis, x.ndim, "repeat_interleave")
    if isinstance(repeats, Tensor):
        r = _need_concrete(repeats._data, "repeat_interleave")
        repeats = int(r) if r.ndim == 0 or r.size == 1 and r.ndim == 0 else np.asarray(r)
    elif isinstance(repeats, (list, tuple)):
        repeats = np.asarray(repeats)
    if isinstance(repeats, np.ndarray) and repeats.size == 1:
        repeats = int(repeats.reshape(()))
    return wrap(jnp.repeat(x, repeats, axis=axis))


@op("repeat_interleave", family="array")
def repeat_interleave(input, repeats, axis=None):
    """``ops.repeat_interleave(input, repeats, axis=None)`` (``axis=None`` flattens first)."""
    return _repeat_interleave(arr(input), repeats, axis)


@op("tensor_repeat_interleave", methods="repeat_interleave", family="array")
def _tensor_repeat_interleave(input, repeats, dim=None, *, output_size=None):
    return _repeat_interleave(arr(input), repeats, dim)


def _flip(x, dims, op_name="ReverseV2"):
    if isinstance(dims, bool) or not isinstance(dims, (tuple, list)):
        raise TypeError(f"For '{op_name}', the type of 'axis' should be one of '[list of int, tuple of int]', "
                        f"but got {type(dims)}.")
    axes = tuple(_norm_axis(d, x.ndim, op_name) for d in dims)
    if len(set(axes)) != len(axes):
        raise ValueError(f"For '{op_name}', 'axis' cannot contain duplicate dimensions, but got {list(dims)}.")
    return wrap(jnp.flip(x, axes) if axes else x)


@op("flip", methods="flip", family="array")
def flip(input, dims):
    """``ops.flip(input, dims)``: ``dims`` a tuple or list of axes."""
    return _flip(arr(input), dims)


@op("prim_reverse_v2", primitive="ReverseV2", prim_args=("axis",), family="array")
def _prim_reverse_v2(input, axis):
    return _flip(arr(input), axis)


def _roll(x, shifts, dims):
    shifts = _ints(shifts, "shifts", "Roll")
    if dims is None:
        if len(shifts) != 1:
            raise ValueError("For 'Roll', 'shifts' must be an int when 'dims' is None.")
        return wrap(jnp.reshape(jnp.roll(jnp.ravel(x), shifts[0]), x.shape))
    dims = _ints(dims, "dims", "Roll")
    if len(dims) != len(shifts):
        raise ValueError(f"For 'Roll', 'shifts' and 'dims' must have the same length, but got {len(shifts)} "
                         f"and {len(dims)}.")
    dims = tuple(_norm_axis(d, x.ndim, "Roll") for d in dims)
    return wrap(jnp.roll(x, shifts, dims))


@op("roll", methods="roll", family="array")
def roll(input, shifts, dims=None):
    """``ops.roll(input, shifts, dims=None)``; without ``dims`` the flattened tensor is rolled."""
    return _roll(arr(input), shifts, dims)


@op("prim_roll", primitive="Roll", prim_args=("shifts", "dims"), family="array")
def _prim_roll(input, shifts, dims=None):
    return _roll(arr(input), shifts, dims)


def _seq_of_tensors(tensors, op_name):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (tuple, list)):
        raise TypeError(f"For '{op_name}', the input must be a tuple or list of Tensors, but got "
                        f"{type(tensors).__name__}.")
    if not tensors:
        raise ValueError(f"For '{op_name}', the input must not be empty.")
    return [arr(t) for t in tensors]


@op("concat", family="array")
def concat(tensors, axis=0):
    """``ops.concat(tensors, axis=0)``; different dtypes are promoted."""
    xs = _seq_of_tensors(tensors, "Concat")
    r = xs[0].ndim
    for x in xs:
        if x.ndim != r:
            shapes = ", ".join(shape_text(y.shape) for y in xs)
            raise ValueError(f"For primitive[Concat], element rank must be same(shapes are [const vector]{{{shapes}}})!")
    if r == 0:
        raise ValueError("For primitive[Concat], the rank of the inputs must be greater than 0.")
    if not -r <= axis < r:
        raise ValueError(f"For primitive[Concat], the axis value must be in [{-r},{r}), but got {axis}.")
    ax = axis % r
    for x in xs:
        if x.shape[:ax] + x.shape[ax + 1:] != xs[0].shape[:ax] + xs[0].shape[ax + 1:]:
            shapes = ", ".join(shape_text(y.shape) for y in xs)
            differ = [d for d in range(r) if x.shape[d] != xs[0].shape[d]]
            if len(differ) > 1:
                raise ValueError("For primitive[Concat] only support one axis different, bug got more than "
                                 f"one(shapes is [const vector]{{{shapes}}})!")
            raise ValueError(f"For primitive[Concat], shapes of tensors must match except in given concat axis {ax}, "
                             f"but got mismatch in {differ[0]}(all input shapes are [const vector]{{{shapes}}})!")
    return wrap(jnp.concatenate(xs, axis=ax))


@op("cat", family="array")
def cat(tensors, axis=0):
    """``ops.cat(tensors, axis=0)``: alias of ``concat``."""
    return concat(tensors, axis)


@op("prim_concat", primitive="Concat", prim_args=("axis",), family="array")
def _prim_concat(tensors, axis=0):
    return concat(tensors, axis)


@op("stack", family="array")
def stack(tensors, axis=0):
    """``ops.stack(tensors, axis=0)``: same dtype and shape required."""
    xs = _seq_of_tensors(tensors, "Stack")
    for i, x in enumerate(xs[1:], 1):
        if x.dtype != xs[0].dtype:
            raise TypeError(f"All input must have the same data type!input[{i}] data type = "
                            f"Tensor[{mstype.from_np(x.dtype)}]infer_type0= Tensor[{mstype.from_np(xs[0].dtype)}]")
    for x in xs[1:]:
        if x.ndim != xs[0].ndim:
            raise ValueError("All input shape size must be the same!")
        if x.shape != xs[0].shape:
            raise ValueError(f"For 'Stack', all input shape must be the same, but got {list(xs[0].shape)} "
                             f"and {list(x.shape)}.")
    r = xs[0].ndim + 1
    if not -r <= axis < r:
        raise ValueError(f"For 'Stack', the 'axis' must be in range of [{-r}, {r}), but got {axis}.")
    return wrap(jnp.stack(xs, axis=axis % r))


@op("prim_stack", primitive="Stack", prim_args=("axis",), family="array")
def _prim_stack(*tensors, axis=0):
    """``ops.Stack(axis)(tensors)`` or ``ops.Stack(axis)(t1, t2, ...)``."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tensors[0]
    return stack(list(tensors), axis)


@op("unstack", family="array")
def unstack(input_x, axis=0):
    """``ops.unstack(input_x, axis=0)``: a tuple of slices along ``axis``."""
    x = arr(input_x)
    ax = _norm_axis(axis, x.ndim, "Unstack")
    return tuple(wrap(v) for v in (jnp.moveaxis(x, ax, 0)[i] for i in _py_range(x.shape[ax])))


@op("prim_unstack", primitive="Unstack", prim_args=("axis", "num"), family="array")
def _prim_unstack(input_x, axis=0, num=None):
    out = unstack(input_x, axis)
    if num is not None and num != len(out):
        raise ValueError(f"For 'Unstack', 'num' must be equal to the size of the axis, but got {num} and {len(out)}.")
    return out


@op("unbind", methods="unbind", family="array")
def unbind(input, dim=0):
    return unstack(input, dim)


def _split_sizes(x, ax, sizes):
    return tuple(wrap(p) for p in _split_kernel(x, ax, tuple(int(v) for v in sizes)))


@functools.partial(jax.jit, static_argnums=(1, 2))
def _split_kernel(x, ax, sizes):
    return tuple(jnp.split(x, np.cumsum(sizes)[:-1].tolist(), axis=ax))


def _split(x, split_size_or_sections, axis):
    ax = _norm_axis(axis, x.ndim, "split")
    n = x.shape[ax]
    s = split_size_or_sections
    if isinstance(s, Tensor):
        s = _ints(s)
        s = s[0] if len(s) == 1 and split_size_or_sections.ndim == 0 else list(s)
    if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
        if s <= 0:
            raise ValueError(f"For 'split', 'split_size_or_sections' must be positive, but got {s}.")
        sizes = [s] * (n // s) + ([n % s] if n % s else [])
        return _split_sizes(x, ax, sizes or [0])
    if isinstance(s, (tuple, list)):
        sizes = list(_ints(s, "split_size_or_sections", "split"))
        if sum(sizes) != n:
            raise ValueError(f"The sum of 'split_size_or_sections' should be equal to {n}, but got {sum(sizes)}.")
        return _split_sizes(x, ax, sizes)
    raise TypeError("For 'split', 'split_size_or_sections' must be int, tuple or list, but got "
                    f"{type(s).__name__}.")


@op("split", family="array")
def split(tensor, split_size_or_sections, axis=0):
    """``ops.split(tensor, split_size_or_sections, axis=0)``: an int is the size of each
    chunk (the last may be smaller); a list gives the sizes."""
    return _split(arr(tensor), split_size_or_sections, axis)


def _tensor_split_size(self, split_size, dim=0):
    return _split(arr(self), split_size, dim)


def _tensor_split_sections(self, split_size_or_sections, axis=0):
    return _split(arr(self), split_size_or_sections, axis)


# MindSpore's two overloads, by keyword too: ``split(split_size, dim=0)``, ``split(split_size_or_sections, axis=0)``.
op("tensor_split_method", methods="split", family="array")(
    _named_dispatch("split", _tensor_split_size, _tensor_split_sections))


@op("prim_split", primitive="Split", prim_args=("axis", "output_num"), family="array")
def _prim_split(input_x, axis=0, output_num=1):
    """``ops.Split(axis=0, output_num=1)(x)``: ``output_num`` equal parts."""
    x = arr(input_x)
    ax = _norm_axis(axis, x.ndim, "Split")
    if x.shape[ax] % output_num:
        raise ValueError(f"For 'Split', x_shape[{ax}] must be divisible by output_num = {output_num}, "
                         f"but got {x.shape[ax]}")
    return tuple(wrap(p) for p in jnp.split(x, output_num, axis=ax))


def _chunk(x, chunks, axis):
    if isinstance(chunks, bool) or not isinstance(chunks, int):
        raise TypeError(f"For ops.chunk type of argument 'chunks' should be integer, but got {type(chunks)}")
    if chunks <= 0:
        raise ValueError(f"For ops.chunk parameter 'chunks' must be greater than 0, but got {chunks}")
    ax = _norm_axis(axis, x.ndim, "chunk")
    n = x.shape[ax]
    size = -(-n // chunks) if n else 0
    if size == 0:
        return (wrap(x),)
    return _split(x, size, ax)


@op("chunk", family="array")
def chunk(input, chunks, axis=0):
    """``ops.chunk(input, chunks, axis=0)``: at most ``chunks`` pieces of ``ceil(n / chunks)``."""
    return _chunk(arr(input), chunks, axis)


@op("tensor_chunk", methods="chunk", family="array")
def _tensor_chunk(input, chunks, dim=0, *, axis=None):
    return _chunk(arr(input), chunks, dim if axis is None else axis)


@op("tensor_split", methods="tensor_split", family="array")
def tensor_split(input, indices_or_sections, axis=0):
    """``ops.tensor_split(input, indices_or_sections, axis=0)`` (numpy's ``array_split``)."""
    x = arr(input)
    ax = _norm_axis(axis, x.ndim, "tensor_split")
    ios = indices_or_sections
    if isinstance(ios, Tensor):
        ios = list(_ints(ios))
    if isinstance(ios, int):
        if ios <= 0:
            raise ValueError(f"For 'tensor_split', 'indices_or_sections' must be positive, but got {ios}.")
        n = x.shape[ax]
        q, r = divmod(n, ios)
        sizes = [q + 1] * r + [q] * (ios - r)
        return _split_sizes(x, ax, sizes)
    points = [0] + [int(i) for i in ios] + [x.shape[ax]]      # numpy's pieces: Python slices between them
    lead = (_py_slice(None),) * ax
    return tuple(wrap(x[lead + (_py_slice(a, b),)]) for a, b in zip(points[:-1], points[1:]))


def _slice(x, begin, size):
    begin = _ints(begin, "begin", "Slice")
    size = _ints(size, "size", "Slice")
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise ValueError(f"For 'Slice', the length of 'begin' and 'size' must be equal to the rank of the input, "
                         f"but got {len(begin)}, {len(size)} and {x.ndim}.")
    idx = []
    for i, (b, s) in enumerate(zip(begin, size)):
        if s == -1:
            s = x.shape[i] - b
        if b < 0 or s < 0 or b + s > x.shape[i]:
            raise ValueError(f"For Slice, the sum of begin_shape[{i}] and size_shape[{i}] must be no greater than "
                             f"input_x_shape[{i}].")
        idx.append(_py_slice(b, b + s))
    return wrap(_static_index(x, _freeze(idx)))


@op("slice", family="array")
def slice(input_x, begin, size):  # noqa: A001  (MindSpore's name)
    """``ops.slice(input_x, begin, size)``: ``size`` -1 takes the rest of the axis."""
    return _slice(arr(input_x), begin, size)


@op("prim_slice", primitive="Slice", family="array")
def _prim_slice(input, begin, size):
    return _slice(arr(input), begin, size)


def _strided_slice(x, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                   shrink_axis_mask):
    begin = _ints(begin, "begin", "StridedSlice")
    end = _ints(end, "end", "StridedSlice")
    strides = _ints(strides, "strides", "StridedSlice")
    if not len(begin) == len(end) == len(strides):
        raise ValueError("For 'StridedSlice', 'begin', 'end' and 'strides' must have the same length, but got "
                         f"{len(begin)}, {len(end)} and {len(strides)}.")
    if 0 in strides:
        raise ValueError("For 'StridedSlice', input 'strides' can not contain 0.")
    idx = []
    seen_ellipsis = False
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit and not seen_ellipsis:
            idx.append(Ellipsis)
            seen_ellipsis = True
        elif new_axis_mask & bit:
            idx.append(None)
        elif shrink_axis_mask & bit:
            idx.append(b)
        else:
            idx.append(_py_slice(None if begin_mask & bit else b, None if end_mask & bit else e, s))
    return wrap(_static_index(x, _freeze(idx)))


def _freeze(idx):
    return tuple(("s", i.start, i.stop, i.step) if isinstance(i, _py_slice) else i for i in idx)


@functools.partial(jax.jit, static_argnums=(1,))
def _static_index(x, frozen):
    return x[tuple(_py_slice(*i[1:]) if isinstance(i, tuple) else i for i in frozen)]


@op("strided_slice", family="array")
def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0):
    """``ops.strided_slice(input_x, begin, end, strides, *masks)`` (TensorFlow's semantics)."""
    return _strided_slice(arr(input_x), begin, end, strides, begin_mask, end_mask, ellipsis_mask,
                          new_axis_mask, shrink_axis_mask)


@op("prim_strided_slice", primitive="StridedSlice",
    prim_args=("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"), family="array")
def _prim_strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                        shrink_axis_mask=0):
    return strided_slice(input_x, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                         shrink_axis_mask)


@op("narrow", methods="narrow", family="array")
def narrow(input, axis, start, length):
    """``ops.narrow(input, axis, start, length)``: a view of ``input`` (in-place ops on it write
    ``input``, ``views.py``)."""
    x = arr(input)
    ax = _norm_axis(axis, x.ndim, "narrow")
    start = int(start._data) if isinstance(start, Tensor) else start
    if start < 0:
        start += x.shape[ax]
    if not 0 <= start <= x.shape[ax] or length < 0 or start + length > x.shape[ax]:
        raise ValueError(f"For 'narrow', 'start' + 'length' must be in [0, {x.shape[ax]}], but got {start} "
                         f"and {length}.")
    out = wrap(jax.lax.slice_in_dim(x, start, start + length, axis=ax))
    if not isinstance(input, Tensor):
        return out
    return _views.mark_view(out, input, lambda b: jax.lax.slice_in_dim(b, start, start + length, axis=ax),
                            lambda b, v: jax.lax.dynamic_update_slice_in_dim(b, v.astype(b.dtype), start, ax))


def _meshgrid(inputs, indexing):
    if indexing not in ("xy", "ij"):
        raise ValueError(f'Failed to convert the value "{indexing}" of input \'indexing\' of \'Meshgrid\' to enum.')
    xs = []
    for t in inputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"For 'Meshgrid', each input must be a Tensor, but got {type(t).__name__}.")
        if t.ndim != 1:
            raise ValueError(f"For 'Meshgrid', each input must be 1-D, but got a {t.ndim}-D Tensor.")
        xs.append(t._data)
    if len(xs) < 2:
        raise ValueError(f"For 'Meshgrid', the number of inputs must be greater than 1, but got {len(xs)}.")
    if any(x.dtype != xs[0].dtype for x in xs):
        raise ValueError("For Primitive [Meshgrid], all tensors should have the same type.")
    return tuple(wrap(g) for g in jnp.meshgrid(*xs, indexing=indexing))


@op("meshgrid", family="array")
def meshgrid(*inputs, indexing="xy"):
    """``ops.meshgrid(*inputs, indexing='xy')``: 1-D Tensors."""
    return _meshgrid(inputs, indexing)


@op("prim_meshgrid", primitive="Meshgrid", prim_args=("indexing",), family="array")
def _prim_meshgrid(inputs, indexing="xy"):
    return _meshgrid(tuple(inputs), indexing)


@op("tensor_resize", methods="resize", family="array")
def _tensor_resize(input, *new_shape):
    """``Tensor.resize(*new_shape)``: numpy's ``ndarray.resize`` (row-major, zero-filled)."""
    x = arr(input)
    shape = _shape_args(new_shape)
    n = _math.prod(shape)
    flat = jnp.ravel(x)
    if n <= flat.size:
        flat = flat[:n]
    else:
        flat = jnp.concatenate([flat, jnp.zeros((n - flat.size,), x.dtype)])
    return wrap(jnp.reshape(flat, shape))


# ---------------------------------------------------------------------------
# dtype / shape queries and identity-like ops
# ---------------------------------------------------------------------------
@op("cast", primitive="Cast", family="array")
def cast(input, dtype):
    """``ops.cast(input, dtype)``: ``dtype`` is a MindSpore dtype (``mindspore.int32``); a NumPy or
    Python type or a name (``"int"``, ``int``) raises TypeError, as in MindSpore (``Tensor.astype``
    takes them). ``input`` None or a string raises MindSpore's PyNative TypeError in both modes
    (MindSpore's GRAPH_MODE words it ``Failed calling Cast with "input=None"``)."""
    if input is None or isinstance(input, str):
        shown = "None" if input is None else "string"
        raise TypeError(f'Failed calling Cast with "Cast()(input={shown}, dtype=mindspore.dtype)".\nThe valid '
                        'calling should be: \n"Cast()(input=<Number, Tensor>, dtype=<mindspore.dtype>)".')
    if not isinstance(dtype, (mstype.Type, mstype.TensorType)):
        raise TypeError(f"For 'Cast', the input 'dtype' should be mindspore dtype, but got {dtype}.")
    return wrap(float_to_int.astype(arr(input), mstype.to_np(dtype)))


@op("dtype", primitive="DType", family="array")
def dtype(input):
    """``ops.dtype(input)``: the MindSpore dtype object."""
    return mstype.from_np(arr(input).dtype)


@op("shape", primitive="Shape", family="array")
def shape(input):
    return tuple(arr(input).shape)


@op("prim_tensor_shape", primitive="TensorShape", family="array")
def tensor_shape(input_x):
    """``ops.TensorShape()(input_x)``: the shape as a 1-D Int64 Tensor."""
    if not isinstance(input_x, Tensor):
        raise TypeError(f'Failed calling TensorShape with "TensorShape()(input_x={_parser_type(input_x)})".\n'
                        f'The valid calling should be: \n"TensorShape()(input_x=<Tensor>)".')
    return wrap(jnp.asarray(input_x._data.shape, jnp.int64))


def _parser_type(x):
    """The type of ``x`` as MindSpore's argument parser names it (``int``, ``List<int, int>``, ``None``)."""
    if isinstance(x, (list, tuple)):
        return f"{type(x).__name__.capitalize()}<{', '.join(_parser_type(v) for v in x)}>"
    return "None" if x is None else type(x).__name__


@op("dyn_shape", family="array")
def dyn_shape(input_x):
    """``ops.dyn_shape(input_x)``: the shape as a 1-D Int64 Tensor (``TensorShape``). MindSpore's value
    is computed at run time for unknown shapes; msjax's shapes are always known when traced, so it is
    a constant of the trace."""
    return tensor_shape(input_x)


@op("size", primitive="Size", family="array")
def size(input):
    return int(arr(input).size)


@op("rank", primitive="Rank", family="array")
def rank(input):
    return arr(input).ndim


@op("stop_gradient", primitive="StopGradient", family="array")
def stop_gradient(value):
    """``ops.stop_gradient(value)``: ``value`` (a Tensor or nested tuple) with no gradient."""
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(v) for v in value)
    return wrap(jax.lax.stop_gradient(arr(value)))


@op("depend", primitive="Depend", family="array")
def depend(value, expr):
    """``ops.depend(value, expr)``: ``value``; JAX orders effects by data flow, so
    ``expr`` needs no extra edge."""
    return value


@op("identity", family="array")
def identity(input):
    """``ops.identity(input)``: the input (a new Tensor of the same value for a Tensor;
    tuples of gradients and other values pass through, as ``TrainOneStepCell``'s
    ``grad_reducer`` relies on)."""
    if isinstance(input, Tensor):
        return wrap(input._data)
    return input


@op("prim_identity", primitive="Identity", family="array")
def _prim_identity(input_x):
    """``ops.Identity()(x)``: Tensors only."""
    if not isinstance(input_x, Tensor):
        raise TypeError(f'Failed calling Identity with "Identity()(input_x={type(input_x).__name__})".')
    return wrap(input_x._data)


# ---------------------------------------------------------------------------
# masks and diagonals: sequence_mask, diag, tril, triu
# ---------------------------------------------------------------------------
@op("sequence_mask", family="array")
def sequence_mask(lengths, maxlen=None):
    """``ops.sequence_mask(lengths, maxlen=None)``: Bool ``[..., maxlen]`` with the first
    ``lengths[...]`` entries True."""
    ln = arr(lengths)
    if ln.dtype not in (np.int32, np.int64):
        raise TypeError(f"The 'lengths' doesn't support '{mstype.from_np(ln.dtype)}' and expect to receive "
                        "[mindspore.int64, mindspore.int32].")
    if maxlen is None:
        v = _need_concrete(ln, "sequence_mask")
        maxlen = int(v.max()) if v.size else 0
    elif isinstance(maxlen, Tensor):
        maxlen = int(maxlen._data)
    if maxlen <= 0:
        raise ValueError(f"For 'sequence_mask', 'maxlen' must be positive, but got {maxlen}.")
    return wrap(jnp.arange(maxlen, dtype=ln.dtype) < ln[..., None])


@op("diag", primitive="Diag", family="array")
def diag(input):
    """``ops.diag(input)``: shape ``(D1..Dk)`` -> ``(D1..Dk, D1..Dk)`` with ``input`` on the diagonal."""
    x = arr(input)
    if x.ndim == 0:
        raise ValueError("For 'Diag', the rank of 'input' must be greater than or equal to 1, but got 0.")
    return wrap(_diag_kernel(x))


@jax.jit
def _diag_kernel(x):
    return jnp.reshape(jnp.diag(jnp.ravel(x)), x.shape + x.shape)


@op("tensor_diag", methods="diag", family="array")
def _tensor_diag(input, diagonal=0):
    if diagonal != 0:
        raise ValueError(f"For 'Tensor.diag', the argument 'diagonal' should be '0', but got {diagonal}.")
    return diag(input)


@op("tril", methods="tril", family="array")
def tril(input, diagonal=0):
    """``ops.tril(input, diagonal=0)``: the lower triangle of the last two axes."""
    x = arr(input)
    if x.ndim < 2:
        raise ValueError(f"For 'tril', the rank of 'input' must be at least 2, but got {x.ndim}.")
    return wrap(jnp.tril(x, diagonal))


@op("triu", methods="triu", family="array")
def triu(input, diagonal=0):
    """``ops.triu(input, diagonal=0)``: the upper triangle of the last two axes."""
    x = arr(input)
    if x.ndim < 2:
        raise ValueError(f"For 'triu', the rank of 'input' must be at least 2, but got {x.ndim}.")
    return wrap(jnp.triu(x, diagonal))


_prim_of(tril, "Tril", ("diagonal",), "``ops.Tril(diagonal=0)(x)``: ``ops.tril``.")
_prim_of(triu, "Triu", ("diagonal",), "``ops.Triu(diagonal=0)(x)``: ``ops.triu``.")


# ---------------------------------------------------------------------------
# torch-style layout: t, moveaxis/movedim/swapdims, ravel, diagonal/diagflat, fliplr/flipud/rot90, hsplit/vsplit/dsplit
# ---------------------------------------------------------------------------

@op("t", methods="t", family="array")
def t(input):
    """``ops.t(input)``: a 2-D Tensor transposed; 0-D and 1-D Tensors as they are."""
    x = arr(input)
    return _permuted(wrap(x.T), input, lambda v: v.T) if x.ndim == 2 else wrap(x)


@op("moveaxis", methods="moveaxis", family="array")
def moveaxis(x, source, destination):
    """``ops.moveaxis(x, source, destination)``."""
    return _permuted(wrap(jnp.moveaxis(arr(x), source, destination)), x, lambda v: np.moveaxis(v, source, destination))


@op("movedim", methods="movedim", family="array")
def movedim(x, source, destination):
    """``ops.movedim(x, source, destination)``."""
    return moveaxis(x, source, destination)


@op("swapdims", methods="swapdims", family="array")
def swapdims(input, dim0, dim1):
    """``ops.swapdims(input, dim0, dim1)``: ``swapaxes``."""
    return swapaxes(input, dim0, dim1)


@op("ravel", methods="ravel", family="array")
def ravel(input):
    """``ops.ravel(input)``: flattened to 1-D."""
    return wrap(arr(input).reshape(-1))


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
# Expand, InvertPermutation, Pack
# ---------------------------------------------------------------------------

@op("expand", primitive="Expand", family="array")
def expand(input_x, size):
    """``ops.expand(input_x, size)``: broadcast to ``size`` (a 1-D integer Tensor; -1 keeps a dimension)."""
    _need_tensor("expand", "input_x", input_x)
    x = input_x._data
    shape = [int(v) for v in np.asarray(arr(size)).reshape(-1)]
    lead = len(shape) - x.ndim
    shape = tuple(x.shape[k - lead] if s == -1 and k >= lead else s for k, s in enumerate(shape))
    return wrap(jnp.broadcast_to(x, shape))


@op("prim_invert_permutation", primitive="InvertPermutation", family="array")
def invert_permutation(input_x):
    """``ops.InvertPermutation()(perm)``: a constant (tuple or list, not a Tensor) in, the inverse
    permutation out as a tuple."""
    if hasattr(input_x, "_data"):
        raise ValueError(f"For 'InvertPermutation', the value of 'input_x' must be non-Tensor, but got "
                         f"Tensor[{mstype.from_np(input_x._data.dtype)}]")
    perm = list(input_x)
    if sorted(perm) != list(range(len(perm))):
        raise ValueError(f"For 'InvertPermutation', the elements of 'input_x' must be a permutation of "
                         f"0..{len(perm) - 1}, but got {tuple(perm)}.")
    out = [0] * len(perm)
    for i, p in enumerate(perm):
        out[p] = i
    return tuple(out)


@op("prim_pack", primitive="Pack", prim_args=("axis",), family="array")
def prim_pack(*tensors, axis=0):
    """``ops.Pack(axis)``: the deprecated name of ``ops.Stack``."""
    return _prim_stack(*tensors, axis=axis)


# ---------------------------------------------------------------------------
# hstack/vstack/dstack/column_stack/row_stack, atleast_1d/2d/3d, block_diag, cartesian_prod, diag_embed,
# Unpack, ReverseSequence, DiagPart, ConjugateTranspose
# ---------------------------------------------------------------------------

def _tensors(name, tensors):
    """The arrays of a tuple/list of Tensors, all of one dtype (MindSpore's Concat kernel mixes none)."""
    if isinstance(tensors, Tensor) or not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError(f"For '{name}', the input must be a non-empty tuple or list of Tensors, but got "
                        f"{type(tensors).__name__}.")
    xs = []
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{name}', every element must be a Tensor, but got {type(t).__name__}.")
        xs.append(t._data)
    if len({x.dtype for x in xs}) > 1:
        raise RuntimeError(f"For '{name}', the Tensors must have one dtype, but got "
                           f"{[str(mstype.from_np(x.dtype)) for x in xs]}.")
    return xs


def _atleast(name, inputs, nd):
    def one(t):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{name}', the input must be a Tensor or a sequence of Tensors, but got "
                            f"{type(t).__name__}.")
        x = t._data
        if x.ndim >= nd:
            return t
        if nd == 3:
            x = x.reshape((1,) * (1 - min(x.ndim, 1)) + x.shape)   # 0-D -> (1,)
            x = x[None, :, None] if x.ndim == 1 else x[..., None]
            return wrap(x)
        return wrap(x.reshape((1,) * (nd - x.ndim) + x.shape))
    if isinstance(inputs, (tuple, list)):
        return tuple(one(t) for t in inputs)
    return one(inputs)


@op("atleast_1d", family="array")
def atleast_1d(inputs):
    """``ops.atleast_1d(inputs)``: a Tensor (or a tuple for a sequence) with at least 1 dimension."""
    return _atleast("atleast_1d", inputs, 1)


@op("atleast_2d", family="array")
def atleast_2d(inputs):
    """``ops.atleast_2d(inputs)``: 0-D -> (1, 1), (n,) -> (1, n)."""
    return _atleast("atleast_2d", inputs, 2)


@op("atleast_3d", family="array")
def atleast_3d(inputs):
    """``ops.atleast_3d(inputs)``: 0-D -> (1, 1, 1), (n,) -> (1, n, 1), (a, b) -> (a, b, 1)."""
    return _atleast("atleast_3d", inputs, 3)


@op("hstack", family="array")
def hstack(tensors):
    """``ops.hstack(tensors)``: concatenated along axis 1 (axis 0 for 1-D Tensors)."""
    xs = _tensors("hstack", [t if t.ndim else wrap(t._data.reshape(1)) for t in tensors]
                  if isinstance(tensors, (tuple, list)) and all(isinstance(t, Tensor) for t in tensors) else tensors)
    return wrap(jnp.concatenate(xs, axis=0 if xs[0].ndim == 1 else 1))


@op("vstack", family="array")
def vstack(inputs):
    """``ops.vstack(inputs)``: the (at least 2-D) Tensors concatenated along axis 0."""
    xs = _tensors("vstack", inputs)
    return wrap(jnp.concatenate([x.reshape((1,) * (2 - x.ndim) + x.shape) if x.ndim < 2 else x for x in xs], 0))


@op("row_stack", family="array")
def row_stack(tensors):
    """``ops.row_stack(tensors)``: ``ops.vstack``."""
    return vstack(tensors)


@op("dstack", family="array")
def dstack(tensors):
    """``ops.dstack(tensors)``: the (at least 3-D) Tensors concatenated along axis 2."""
    _tensors("dstack", tensors)
    return wrap(jnp.concatenate([t._data for t in atleast_3d(tensors)], 2))


@op("column_stack", family="array")
def column_stack(tensors):
    """``ops.column_stack(tensors)``: 0-D and 1-D Tensors as columns, then concatenated along axis 1."""
    xs = _tensors("column_stack", tensors)
    return wrap(jnp.concatenate([x.reshape(-1, 1) if x.ndim < 2 else x for x in xs], 1))


@op("block_diag", family="array")
def block_diag(*inputs):
    """``ops.block_diag(*inputs)``: the Tensors (0-D as 1x1, 1-D as one row) on the diagonal of a
    zero matrix."""
    xs = [x.reshape((1,) * (2 - x.ndim) + x.shape) for x in _tensors("block_diag", list(inputs))]
    if any(x.ndim != 2 for x in xs):
        raise ValueError("For 'block_diag', the dimension of every input must be at most 2.")
    out = jnp.zeros((sum(x.shape[0] for x in xs), sum(x.shape[1] for x in xs)), xs[0].dtype)
    r = c = 0
    for x in xs:
        out = out.at[r:r + x.shape[0], c:c + x.shape[1]].set(x)
        r, c = r + x.shape[0], c + x.shape[1]
    return wrap(out)


@op("cartesian_prod", family="array")
def cartesian_prod(*inputs):
    """``ops.cartesian_prod(*inputs)``: the (N, k) rows of all combinations of the 1-D inputs."""
    xs = _tensors("cartesian_prod", list(inputs))
    if any(x.ndim != 1 for x in xs):
        raise ValueError("For 'cartesian_prod', every input must be 1-D.")
    if len(xs) == 1:
        return wrap(xs[0])
    grids = jnp.meshgrid(*xs, indexing="ij")
    return wrap(jnp.stack([g.reshape(-1) for g in grids], 1))


@op("diag_embed", family="array")
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """``ops.diag_embed(input, offset=0, dim1=-2, dim2=-1)``: the last axis of ``input`` on the
    ``offset`` diagonal of the planes ``(dim1, dim2)`` of a new Tensor, one rank higher."""
    x = arr(input)
    nd = x.ndim + 1
    d1, d2 = dim1 % nd, dim2 % nd
    if not (-nd <= dim1 < nd and -nd <= dim2 < nd) or d1 == d2:
        raise ValueError(f"For 'diag_embed', 'dim1' and 'dim2' must be different dimensions in [{-nd}, {nd}), "
                         f"but got {dim1} and {dim2}.")
    k = x.shape[-1]
    n = k + abs(offset)
    out = jnp.zeros(x.shape[:-1] + (n, n), x.dtype)
    j = jnp.arange(k)
    out = out.at[..., j + max(-offset, 0), j + max(offset, 0)].set(x)
    return wrap(jnp.moveaxis(out, (-2, -1), (d1, d2)))


@op("prim_unpack", primitive="Unpack", prim_args=("axis",), family="array")
def prim_unpack(x, axis=0):
    """``ops.Unpack(axis=0)(x)``: the old name of ``ops.Unstack``."""
    return unstack(x, axis)


@op("prim_reverse_sequence", primitive="ReverseSequence", prim_args=("seq_dim", "batch_dim"), family="array")
def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """``ops.ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)``: for each batch entry ``b``, the
    first ``seq_lengths[b]`` elements along ``seq_dim`` reversed."""
    a, ln = arr(x), arr(seq_lengths)
    if not jnp.issubdtype(ln.dtype, jnp.integer) or ln.ndim != 1 or ln.shape[0] != a.shape[batch_dim]:
        raise ValueError(f"For 'ReverseSequence', 'seq_lengths' must be a 1-D integer Tensor of length "
                         f"x.shape[batch_dim], but got {list(ln.shape)}.")
    n = a.shape[seq_dim]
    pos = jnp.arange(n)
    src = jnp.where(pos[None, :] < ln[:, None], ln[:, None] - 1 - pos[None, :], pos[None, :])  # (batch, n)
    shape = [1] * a.ndim
    shape[batch_dim], shape[seq_dim] = a.shape[batch_dim], n
    order = [batch_dim, seq_dim] if batch_dim < seq_dim else [seq_dim, batch_dim]
    idx = src if order[0] == batch_dim else src.T
    return wrap(jnp.take_along_axis(a, jnp.broadcast_to(idx.reshape(shape), a.shape), seq_dim))


@op("prim_diag_part", primitive="DiagPart", family="array")
def diag_part(input_x):
    """``ops.DiagPart()(input_x)``: the diagonal of a (d1..dk, d1..dk) Tensor, shape (d1..dk)."""
    x = arr(input_x)
    k = x.ndim // 2
    if x.ndim % 2 or x.ndim == 0 or x.shape[:k] != x.shape[k:]:
        raise ValueError(f"For 'DiagPart', the shape of 'input_x' must be (d1, ..., dk, d1, ..., dk), but got "
                         f"{list(x.shape)}.")
    n = int(np.prod(x.shape[:k]))
    return wrap(jnp.diagonal(x.reshape(n, n)).reshape(x.shape[:k]))


@op("prim_conjugate_transpose", primitive="ConjugateTranspose", family="array")
def conjugate_transpose(x, perm):
    """``ops.ConjugateTranspose()(x, perm)``: ``x`` transposed by ``perm`` and conjugated."""
    a = arr(x)
    return wrap(jnp.conj(jnp.transpose(a, tuple(perm))) if jnp.iscomplexobj(a) else jnp.transpose(a, tuple(perm)))


__all__ = [n for n in dir() if not n.startswith("_")]
