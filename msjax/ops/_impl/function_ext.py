"""Functions MindSpore's ``ops.function`` modules keep under private ``*_ext`` / ``new_*`` names
(its own tests import them): ``array_func.new_ones``/``new_zeros`` (``Tensor.new_ones``/``new_zeros``);
``ops.numel``, the public one; the ``SliceExt`` and ``ParallelConcat`` Primitives. The ``*_ext`` names
that are ``mint`` functions live beside ``mint`` (``msjax/mint/_function_ext.py``)."""
from __future__ import annotations

from ..._core.registry import op
from ..._core.tensor import Tensor


def _tensor(name, arg, v):
    if not isinstance(v, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got {type(v).__name__}.")
    return v


def new_ones(input, size, *, dtype=None):
    """``array_func.new_ones(input, size, *, dtype=None)``: ``input.new_ones(size, dtype)``."""
    return _tensor("new_ones", "input", input).new_ones(size, dtype)


def new_zeros(input, size, *, dtype=None):
    """``array_func.new_zeros(input, size, *, dtype=None)``: ``input.new_zeros(size, dtype)``."""
    return _tensor("new_zeros", "input", input).new_zeros(size, dtype)


@op("numel", family="array")
def numel(input):
    """``ops.numel(input)``: the number of elements (a Python int)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For numel, input must be a Tensor, but got {type(input)}.")
    return input.size


@op("prim_slice_ext", primitive="SliceExt", family="array")
def _slice_ext(input, dim, start, end, step):
    """``ops.auto_generate.SliceExt()(input, dim, start, end, step)``: ``input`` sliced along ``dim``
    as Python slices ``start:end:step`` (out-of-range bounds clamped; ``step`` positive)."""
    from .array import _dim_error
    x = _tensor("SliceExt", "input", input)
    nd = x.ndim
    if not -nd <= dim < nd:
        raise _dim_error(dim, nd)
    if step <= 0:
        raise ValueError("slice step must be positive")
    return x[(slice(None),) * (dim % nd) + (slice(start, end, step),)]


@op("prim_parallel_concat", primitive="ParallelConcat", family="array")
def _parallel_concat(values):
    """``ops.ParallelConcat()(values)``: Tensors of one dtype and one shape (first dimension 1)
    concatenated along axis 0. Differs from MindSpore: shapes that differ raise ``ValueError``
    (MindSpore's CPU kernel logs the error and returns what it concatenated)."""
    if not isinstance(values, (tuple, list)) or not values or not all(isinstance(v, Tensor) for v in values):
        raise TypeError(f"For 'ParallelConcat', the input must be a tuple or list of Tensors, but got {values!r}.")
    first = values[0]
    for i, v in enumerate(values[1:], 1):
        if v.dtype != first.dtype:
            raise TypeError(f"For primitive[ParallelConcat], the input type must be same. name:[element0]:"
                            f"Tensor[{first.dtype}]. name:[element{i}]:Tensor[{v.dtype}].")
        if v.shape != first.shape:
            raise ValueError(f"For 'ParallelConcat', the shape of all tensors must be the same, but got "
                             f"tensor0.shape {list(first.shape)} and tensor{i}.shape {list(v.shape)}")
    from .array import concat
    return concat(tuple(values), 0)
