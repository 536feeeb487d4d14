"""Functions MindSpore's ``ops.function`` modules keep under private ``*_ext`` / ``new_*`` names
(its own tests import them): ``array_func.new_ones``/``new_zeros``/``one_hot_ext``/``split_ext`` and
``math_func.norm_ext``, ``nn_func.interpolate_ext``, each the msjax op with that meaning (``Tensor.new_ones``,
``mint.nn.functional.one_hot``, ``mint.split``, ``mint.norm``); ``ops.numel``, the public one; the
``SliceExt`` and ``ParallelConcat`` Primitives."""
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


def one_hot_ext(tensor, num_classes):
    """``array_func.one_hot_ext(tensor, num_classes)``: ``mint.nn.functional.one_hot`` (differs from
    MindSpore's CPU build, which has no OneHotExt kernel in PyNative and raises ``RuntimeError``)."""
    from ...mint.nn import functional
    return functional.one_hot(tensor, num_classes)


def norm_ext(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """``math_func.norm_ext``: ``mint.norm`` (differs from MindSpore's CPU build, which has no
    LinalgVectorNorm kernel in PyNative and raises ``RuntimeError``)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For `norm_ext`, the `input` must be Tensor!, but get {type(input)}.")
    from ... import mint
    return mint.norm(input, p, dim, keepdim, dtype=dtype)


def split_ext(tensor, split_size, dim=0):
    """``array_func.split_ext(tensor, split_size, dim=0)``: ``mint.split`` (an int: chunks of that
    size; a list/tuple: those sizes)."""
    if not isinstance(split_size, (int, list, tuple)) or isinstance(split_size, bool):
        raise TypeError(f"Type of Argument `split_size` should be integer, tuple(int) or list(int), "
                        f"but got {type(split_size)}")
    from ... import mint
    return mint.split(tensor, split_size, dim)


def interpolate_ext(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                    recompute_scale_factor=None):
    """``nn_func.interpolate_ext``: ``mint.nn.functional.interpolate`` (MindSpore's same function)."""
    from ...mint.nn import functional
    return functional.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


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
