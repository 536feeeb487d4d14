"""Shape, creation and dtype ops."""
from __future__ import annotations

import math as _math

import jax
import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import arr, axis_arg, to_array, wrap


def _shape_args(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


def _reshape(x, shape):
    shape = tuple(int(d) for d in shape)
    known = _math.prod(d for d in shape if d != -1)
    if shape.count(-1) > 1 or (-1 not in shape and known != x.size) or \
            (-1 in shape and (known == 0 or x.size % known)):
        raise ValueError(f"proposed_shape '{list(shape)}' is invalid for input of size {x.size}")
    return wrap(jnp.reshape(x, shape))


@op("reshape", primitive="Reshape", family="array")
def reshape(input, shape):
    """``ops.reshape(input, shape)``."""
    return _reshape(arr(input), shape)


@op("tensor_reshape", methods=("reshape", "view"), family="array")
def _tensor_reshape(input, *shape):
    """``Tensor.reshape(*shape)`` / ``Tensor.view(*shape)``: a tuple or separate ints."""
    return _reshape(arr(input), _shape_args(shape))


@op("squeeze", primitive="Squeeze", prim_args=("axis",), methods="squeeze", family="array")
def squeeze(input, axis=None):
    """``ops.squeeze(input, axis=None)``; axes that are not 1 are left alone (MindSpore 2.x)."""
    x = arr(input)
    if axis is None:
        return wrap(jnp.squeeze(x))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(a for a in axes if x.shape[a] == 1)
    return wrap(jnp.squeeze(x, axes) if axes else x)


@op("expand_dims", primitive="ExpandDims", methods="expand_dims", family="array")
def expand_dims(input_x, axis):
    return wrap(jnp.expand_dims(arr(input_x), axis))


@op("unsqueeze", methods="unsqueeze", family="array")
def unsqueeze(input, dim):
    return wrap(jnp.expand_dims(arr(input), dim))


@op("transpose", primitive="Transpose", family="array")
def transpose(input, input_perm):
    """``ops.transpose(input, input_perm)``."""
    return wrap(jnp.transpose(arr(input), tuple(input_perm)))


@op("tensor_transpose", methods="transpose", family="array")
def _tensor_transpose(input, *axes):
    """``Tensor.transpose(*axes)``: no axes reverses them."""
    axes = _shape_args(axes)
    return wrap(jnp.transpose(arr(input), axes if axes else None))


@op("permute", methods="permute", family="array")
def permute(input, *dims):
    return wrap(jnp.transpose(arr(input), _shape_args(dims)))


@op("flatten", family="array")
def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """``ops.flatten(input, order='C', *, start_dim=1, end_dim=-1)`` (keeps the batch axis)."""
    x = arr(input)
    if x.ndim == 0:
        return wrap(jnp.reshape(x, (1,)))
    s = start_dim % x.ndim
    e = end_dim % x.ndim
    shape = x.shape[:s] + (_math.prod(x.shape[s:e + 1]),) + x.shape[e + 1:]
    return wrap(jnp.reshape(x, shape))


@op("tensor_flatten", methods="flatten", family="array")
def _tensor_flatten(input, order="C", *, start_dim=0, end_dim=-1):
    """``Tensor.flatten(order='C', *, start_dim=0, end_dim=-1)`` (flattens everything)."""
    return flatten(input, order, start_dim=start_dim, end_dim=end_dim)


@op("cast", primitive="Cast", methods=(), family="array")
def cast(input, dtype):
    """``ops.cast(input, dtype)``."""
    return wrap(arr(input).astype(mstype.to_np(dtype)))


@op("dtype", primitive="DType", family="array")
def dtype(input):
    """``ops.dtype(input)``: the MindSpore dtype object."""
    return mstype.from_np(arr(input).dtype)


@op("shape", primitive="Shape", family="array")
def shape(input):
    return tuple(arr(input).shape)


@op("size", primitive="Size", family="array")
def size(input):
    return int(arr(input).size)


@op("rank", primitive="Rank", family="array")
def rank(input):
    return arr(input).ndim


@op("ones_like", primitive="OnesLike", family="array")
def ones_like(input, *, dtype=None):
    x = arr(input)
    return wrap(jnp.ones(x.shape, mstype.to_np(dtype) if dtype is not None else x.dtype))


@op("zeros_like", primitive="ZerosLike", family="array")
def zeros_like(input, *, dtype=None):
    x = arr(input)
    return wrap(jnp.zeros(x.shape, mstype.to_np(dtype) if dtype is not None else x.dtype))


def _shape_of(size):
    if isinstance(size, int):
        return (size,)
    if hasattr(size, "_data"):
        return tuple(int(v) for v in jnp.ravel(size._data))
    return tuple(size)


@op("ones", primitive="Ones", family="array")
def ones(shape, dtype=None):
    return wrap(jnp.ones(_shape_of(shape), mstype.to_np(dtype or mstype.float32)))


@op("zeros", primitive="Zeros", family="array")
def zeros(size, dtype=None):
    return wrap(jnp.zeros(_shape_of(size), mstype.to_np(dtype or mstype.float32)))


@op("fill", primitive="Fill", family="array")
def fill(type, shape, value):
    """``ops.fill(type, shape, value)``: a Tensor of ``shape`` filled with ``value``."""
    v = arr(value) if hasattr(value, "_data") else value
    return wrap(jnp.full(_shape_of(shape), v, mstype.to_np(type)))


@op("concat", primitive="Concat", prim_args=("axis",), family="array")
def concat(tensors, axis=0):
    return wrap(jnp.concatenate([arr(t) for t in tensors], axis=axis))


@op("stack", primitive="Stack", prim_args=("axis",), family="array")
def stack(tensors, axis=0):
    return wrap(jnp.stack([arr(t) for t in tensors], axis=axis))


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
    return wrap(arr(input))


__all__ = [n for n in dir() if not n.startswith("_")]
