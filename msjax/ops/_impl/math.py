"""Math and reduction ops."""
from __future__ import annotations

import jax.numpy as jnp

from ..._core.registry import op
from ..._core.tensor import _truediv, broadcast_error
from ._util import arr, axis_arg, operand_pair, wrap


def _binary(name, jfn, primitive=None, methods=()):
    def fn(input, other):
        x, y = operand_pair(input, other)
        try:
            return wrap(jfn(x, y))
        except TypeError as e:
            if "incompatible shapes" in str(e):
                raise broadcast_error(name, x, y) from None
            raise
    fn.__name__ = name
    fn.__doc__ = f"``ops.{name}(input, other)`` with broadcasting and MindSpore's type promotion."
    op(name, primitive=primitive, methods=methods, family="math")(fn)
    return fn


add = _binary("add", jnp.add, "Add", "add")
sub = _binary("sub", jnp.subtract, "Sub", "sub")
mul = _binary("mul", jnp.multiply, "Mul", "mul")
div = _binary("div", _truediv, "Div", "div")
maximum = _binary("maximum", jnp.maximum, "Maximum", "maximum")
minimum = _binary("minimum", jnp.minimum, "Minimum", "minimum")
pow = _binary("pow", jnp.power, "Pow", "pow")
equal = _binary("equal", jnp.equal, "Equal", "equal")
not_equal = _binary("not_equal", jnp.not_equal, "NotEqual", "not_equal")
less = _binary("less", jnp.less, "Less", "less")
less_equal = _binary("less_equal", jnp.less_equal, "LessEqual", "less_equal")
greater = _binary("greater", jnp.greater, "Greater", "greater")
greater_equal = _binary("greater_equal", jnp.greater_equal, "GreaterEqual", "greater_equal")


def _unary(name, jfn, primitive=None, methods=()):
    def fn(input):
        return wrap(jfn(arr(input)))
    fn.__name__ = name
    fn.__doc__ = f"``ops.{name}(input)``, elementwise."
    op(name, primitive=primitive, methods=methods, family="math")(fn)
    return fn


square = _unary("square", jnp.square, "Square", "square")
sqrt = _unary("sqrt", jnp.sqrt, "Sqrt", "sqrt")
exp = _unary("exp", jnp.exp, "Exp", "exp")
log = _unary("log", jnp.log, "Log", "log")
abs = _unary("abs", jnp.abs, "Abs", "abs")
neg = _unary("neg", jnp.negative, "Neg", "neg")
reciprocal = _unary("reciprocal", lambda x: 1 / x if jnp.issubdtype(x.dtype, jnp.inexact)
                    else 1 / x.astype(jnp.float32), "Reciprocal", "reciprocal")


@op("matmul", primitive="MatMul", prim_args=("transpose_a", "transpose_b"), methods="matmul", family="math")
def matmul(input, other, transpose_a=False, transpose_b=False):
    """``ops.matmul(input, other)``; the ``MatMul`` Primitive adds ``transpose_a``/``transpose_b``."""
    x, y = arr(input), arr(other)
    if transpose_a:
        x = jnp.swapaxes(x, -1, -2)
    if transpose_b:
        y = jnp.swapaxes(y, -1, -2)
    return wrap(jnp.matmul(x, y))


def _reduce(jfn, input, axis, keep_dims):
    return wrap(jfn(arr(input), axis=axis_arg(axis), keepdims=keep_dims))


@op("mean", primitive="ReduceMean", prim_args=("keep_dims",), family="math")
def mean(input, axis=None, keep_dims=False):
    """``ops.mean(input, axis=None, keep_dims=False)``."""
    return _reduce(_mean, input, axis, keep_dims)


@op("reduce_sum", primitive="ReduceSum", prim_args=("keep_dims",), family="math")
def reduce_sum(input, axis=None, keep_dims=False):
    return _reduce(jnp.sum, input, axis, keep_dims)


@op("sum", family="math")
def sum(input, dim=None, keepdim=False, *, dtype=None):
    """``ops.sum(input, dim=None, keepdim=False, *, dtype=None)``."""
    from ..._core import dtype as mstype
    x = arr(input)
    out = jnp.sum(x, axis=axis_arg(dim), keepdims=keepdim,
                  dtype=None if dtype is None else mstype.to_np(dtype))
    return wrap(out)


@op("tensor_sum", methods="sum", family="math")
def _tensor_sum(input, axis=None, dtype=None, keepdims=False, initial=None):
    """``Tensor.sum(axis=None, dtype=None, keepdims=False, initial=None)``."""
    from ..._core import dtype as mstype
    out = jnp.sum(arr(input), axis=axis_arg(axis), keepdims=keepdims,
                  dtype=None if dtype is None else mstype.to_np(dtype))
    return wrap(out if initial is None else out + initial)


def _mean(x, axis=None, keepdims=False):
    """Mean keeping the input's dtype (MindSpore: the mean of Int64 is Int64)."""
    out = jnp.mean(x, axis=axis, keepdims=keepdims)
    return out if jnp.issubdtype(x.dtype, jnp.inexact) else out.astype(x.dtype)


@op("tensor_mean", methods="mean", family="math")
def _tensor_mean(input, axis=None, keep_dims=False, dtype=None):
    return _reduce(_mean, input, axis, keep_dims)


@op("any", methods="any", family="math")
def any(input, axis=None, keep_dims=False):
    """``ops.any(input, axis=None, keep_dims=False)``."""
    return _reduce(jnp.any, input, axis, keep_dims)


@op("all", methods="all", family="math")
def all(input, axis=None, keep_dims=False):
    """``ops.all(input, axis=None, keep_dims=False)``."""
    return _reduce(jnp.all, input, axis, keep_dims)


@op("reduce_max", primitive="ReduceMax", prim_args=("keep_dims",), family="math")
def reduce_max(input, axis=None, keep_dims=False):
    return _reduce(jnp.max, input, axis, keep_dims)


@op("reduce_min", primitive="ReduceMin", prim_args=("keep_dims",), family="math")
def reduce_min(input, axis=None, keep_dims=False):
    return _reduce(jnp.min, input, axis, keep_dims)


@op("tensor_max", methods="max", family="math")
def _tensor_max(input, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False):
    """``Tensor.max(axis=None, keepdims=False, *, initial=None, where=True, return_indices=False)``."""
    x = arr(input)
    out = jnp.max(x, axis=axis_arg(axis), keepdims=keepdims, initial=initial,
                  where=arr(where) if where is not True else None)
    if return_indices:
        return wrap(out), wrap(jnp.argmax(x, axis=axis_arg(axis), keepdims=keepdims))
    return wrap(out)


@op("tensor_min", methods="min", family="math")
def _tensor_min(input, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False):
    x = arr(input)
    out = jnp.min(x, axis=axis_arg(axis), keepdims=keepdims, initial=initial,
                  where=arr(where) if where is not True else None)
    if return_indices:
        return wrap(out), wrap(jnp.argmin(x, axis=axis_arg(axis), keepdims=keepdims))
    return wrap(out)
