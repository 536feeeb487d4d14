"""Array, bit, complex and search ops: ``Expand``, ``InvertPermutation``, ``Pack``, ``GatherV2``,
``DepthToSpace``/``SpaceToDepth``, ``EqualCount``, ``ApproximateEqual``, ``Invert``, shifts,
``Complex``/``ComplexAbs``/``conj``/``angle``, ``CheckNumerics``, ``bucketize``,
``LowerBound``/``UpperBound``, ``InTopK``, and the ``MaskedSelect``/``NonZero`` Primitives."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import arr, wrap
from .array import _prim_stack
from .indexing import _prim_gather, masked_select, nonzero
from .math import _binary, _bitwise, _binop, _need_tensor, _out


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


def _block_input(name, x, block_size):
    """The NCHW array of ``x`` and its shape, checked."""
    x = arr(x)
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 2:
        raise ValueError(f"For '{name}', the 'block_size' must be an int >= 2, but got {block_size}.")
    if x.ndim != 4:
        raise ValueError(f"For '{name}', the rank of 'x' must be 4, but got {x.ndim}.")
    return x, x.shape


@op("prim_depth_to_space", primitive="DepthToSpace", prim_args=("block_size",), family="array")
def depth_to_space(x, block_size):
    """``ops.DepthToSpace(block_size)(x)``: NCHW, ``C`` split into ``block_size**2`` spatial blocks."""
    a, (n, c, h, w) = _block_input("DepthToSpace", x, block_size)
    b = block_size
    if c % (b * b):
        raise ValueError(f"For 'DepthToSpace', the channel of 'x' must be divisible by block_size**2 ({b * b}), "
                         f"but got {c}.")
    a = a.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return wrap(a.reshape(n, c // (b * b), h * b, w * b))


@op("prim_space_to_depth", primitive="SpaceToDepth", prim_args=("block_size",), family="array")
def space_to_depth(x, block_size):
    """``ops.SpaceToDepth(block_size)(x)``: the inverse of ``DepthToSpace``."""
    a, (n, c, h, w) = _block_input("SpaceToDepth", x, block_size)
    b = block_size
    if h % b or w % b:
        raise ValueError(f"For 'SpaceToDepth', the height and width of 'x' must be divisible by block_size "
                         f"({b}), but got {h} and {w}.")
    a = a.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return wrap(a.reshape(n, c * b * b, h // b, w // b))


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


@op("prim_invert", primitive="Invert", methods="invert", family="array")
def invert(x):
    """``ops.Invert()(x)``: bitwise NOT of an integer Tensor."""
    a = arr(x)
    if not jnp.issubdtype(a.dtype, jnp.integer):
        raise TypeError(f"For 'Invert', the 'x' must be an integer Tensor, but got {mstype.from_np(a.dtype)}.")
    return wrap(jnp.invert(a))


left_shift = _binary("bitwise_left_shift", _bitwise(jnp.left_shift), "LeftShift", "bitwise_left_shift",
                     "``ops.bitwise_left_shift(input, other)``: ``input << other``.")
right_shift = _binary("bitwise_right_shift", _bitwise(jnp.right_shift), "RightShift", "bitwise_right_shift",
                      "``ops.bitwise_right_shift(input, other)``: arithmetic ``input >> other``.")


@op("prim_complex", primitive="Complex", family="array")
def complex_(real, imag):
    """``ops.Complex()(real, imag)``: Complex64 from Float32 parts (Complex128 from Float64)."""
    r, i = arr(real), arr(imag)
    return _out(_binop("Complex", jax.lax.complex, r, i))


@op("prim_complex_abs", primitive="ComplexAbs", family="array")
def complex_abs(x):
    """``ops.ComplexAbs()(x)``: ``|x|`` of a complex Tensor, as its real dtype."""
    return wrap(jnp.abs(arr(x)))


@op("conj", primitive="Conj", methods="conj", family="array")
def conj(input):
    """``ops.conj(input)``: complex conjugate (real Tensors are returned unchanged)."""
    _need_tensor("conj", "input", input)
    return wrap(jnp.conj(input._data) if jnp.iscomplexobj(input._data) else input._data)


@op("angle", primitive="Angle", methods="angle", family="array")
def angle(input):
    """``ops.angle(input)``: the argument of a complex Tensor."""
    _need_tensor("angle", "input", input)
    return wrap(jnp.angle(input._data))


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
