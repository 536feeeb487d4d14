"""Tensor creation: ``ones``/``zeros`` (and ``*_like``), ``fill``/``full``/``full_like``, ``eye``,
``one_hot``, ``tril_indices``/``triu_indices``, ``range``/``arange``/``linspace``, the scalar and
tuple conversions (``scalar_to_tensor``, ``tuple_to_array``...), ``from_numpy`` and the Tensor
methods that fill a Tensor (``fill``, ``fill_``, ``zero_``).

``range``, ``arange`` and ``linspace`` need concrete bounds (their output shape depends on them)."""
from __future__ import annotations

import builtins
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import arr, to_array, wrap
from .array import _ints, _need_concrete, _py_range, _write_inplace


# ---------------------------------------------------------------------------
# eye, one_hot
# ---------------------------------------------------------------------------

@op("eye", family="array")
def eye(n, m=None, dtype=None):
    """``ops.eye(n, m=None, dtype=None)``: Float32 by default."""
    def as_int(v, name):
        if isinstance(v, Tensor):
            v = int(v._data)
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"For 'Eye', '{name}' must be int, but got {type(v).__name__}.")
        if v < 0:
            raise ValueError(f"Eye error: {name} value can not be negative.")
        return int(v)
    n = as_int(n, "n")
    m = n if m is None else as_int(m, "m")
    return wrap(jnp.eye(n, m, dtype=mstype.to_np(dtype or mstype.float32)))


@op("prim_eye", primitive="Eye", family="array")
def _prim_eye(n, m, t):
    return eye(n, m, t)


def _one_hot(indices, depth, on_value, off_value, axis, op_name="OneHot"):
    idx = arr(indices)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For '{op_name}', 'indices' must be an integer Tensor, but got {mstype.from_np(idx.dtype)}.")
    if isinstance(depth, Tensor):
        depth = int(depth._data)
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)):
        raise TypeError(f"For '{op_name}', 'depth' must be int, but got {type(depth).__name__}.")
    if depth < 0:
        raise ValueError(f"For '{op_name}', 'depth' must be non-negative, but got {depth}.")
    if isinstance(on_value, Tensor) and isinstance(off_value, Tensor) and on_value.dtype != off_value.dtype:
        raise TypeError(f"For primitive[{op_name}], the input type must be same.")
    if isinstance(on_value, Tensor):
        on = on_value._data
        off = arr(off_value).astype(on.dtype)
    elif isinstance(off_value, Tensor):
        off = off_value._data
        on = to_array(on_value).astype(off.dtype)
    else:
        on, off = to_array(on_value), to_array(off_value)
        if on.dtype != off.dtype:
            on, off = on.astype(jnp.float32), off.astype(jnp.float32)
    r = idx.ndim + 1
    if not -r <= axis < r:
        raise ValueError(f"For '{op_name}', the 'axis' must be in range [-1, {idx.ndim}], but got {axis}.")
    return wrap(_one_hot_kernel(idx, on, off, depth, axis % r))


@functools.partial(jax.jit, static_argnums=(3, 4))
def _one_hot_kernel(idx, on, off, depth, axis):
    out = jnp.where(idx[..., None] == jnp.arange(depth, dtype=idx.dtype), on, off)
    return out if axis == idx.ndim else jnp.moveaxis(out, -1, axis)


@op("one_hot", family="array")
def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """``ops.one_hot(indices, depth, on_value=1, off_value=0, axis=-1)``; the dtype is
    ``on_value``'s (Int64 for the default 1)."""
    return _one_hot(indices, depth, on_value, off_value, axis)


@op("prim_one_hot", primitive="OneHot", prim_args=("axis",), family="array")
def _prim_one_hot(indices, depth, on_value, off_value, axis=-1):
    return _one_hot(indices, depth, on_value, off_value, axis)


# ---------------------------------------------------------------------------
# ones, zeros, fill, ranges, conversions
# ---------------------------------------------------------------------------
def _shape_of(size, op_name="Ones"):
    if isinstance(size, Tensor):
        shp = _ints(size, "shape", op_name)
    elif isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        shp = (int(size),)
    elif isinstance(size, (tuple, list)):
        shp = _ints(size, "shape", op_name)
    else:
        raise TypeError(f"For '{op_name}', 'shape' must be an int, a tuple/list of int or a Tensor, but got "
                        f"{type(size).__name__}.")
    for i, d in enumerate(shp):
        if d < 0:
            raise ValueError(f"For primitive[{op_name}], the {i}th dimension of input shape must be greater than "
                             f"or equal to 0, but got {d}.")
    return shp


@op("ones", primitive="Ones", family="array")
def ones(shape, dtype=None):
    """``ops.ones(shape, dtype=None)``: Float32 by default."""
    return wrap(jnp.ones(_shape_of(shape, "Ones"), mstype.to_np(dtype or mstype.float32)))


@op("zeros", primitive="Zeros", family="array")
def zeros(size, dtype=None):
    """``ops.zeros(size, dtype=None)``: Float32 by default."""
    return wrap(jnp.zeros(_shape_of(size, "Zeros"), mstype.to_np(dtype or mstype.float32)))


@op("ones_like", family="array")
def ones_like(input, *, dtype=None):
    x = arr(input)
    return wrap(jnp.ones(x.shape, mstype.to_np(dtype) if dtype is not None else x.dtype))


@op("zeros_like", family="array")
def zeros_like(input, *, dtype=None):
    x = arr(input)
    return wrap(jnp.zeros(x.shape, mstype.to_np(dtype) if dtype is not None else x.dtype))


@op("prim_ones_like", primitive="OnesLike", family="array")
def _prim_ones_like(x):
    return ones_like(x)


@op("prim_zeros_like", primitive="ZerosLike", family="array")
def _prim_zeros_like(x):
    return zeros_like(x)


def _fill_value(value, npd):
    v = arr(value) if isinstance(value, Tensor) else value
    return jnp.asarray(v).astype(npd)


@op("fill", primitive="Fill", family="array")
def fill(type, shape, value):  # noqa: A002
    """``ops.fill(type, shape, value)``: a Tensor of ``shape`` filled with ``value``."""
    npd = mstype.to_np(type)
    return wrap(jnp.full(_shape_of(shape, "Fill"), _fill_value(value, npd), npd))


_SCALAR_TYPE = {bool: "Bool", int: "Int64", float: "Float32"}


@op("prim_fill_v2", primitive="FillV2", family="array")
def _prim_fill_v2(shape, value):
    """``ops.FillV2()(shape, value)``: ``shape`` a tuple of ints or a 1-D Int32/Int64 Tensor,
    ``value`` a one-element Tensor whose dtype the output takes."""
    if isinstance(shape, Tensor):
        if str(shape.dtype) not in ("Int32", "Int64"):
            raise TypeError("For primitive[FillV2], the input argument[shape] must be a type of {Tensor[Int32], "
                            f"Tensor[Int64]}}, but got Tensor[{shape.dtype}].")
        if shape.ndim != 1:
            raise ValueError("For Primitive[FillV2], Shape of shape value only could be one-dimensional")
    elif not isinstance(shape, tuple):
        raise TypeError("For primitive[FillV2], the `shape`  must be a tuple or tensor with all Int elements, but got "
                        f"{'ValueList' if isinstance(shape, list) else type(shape).__name__}.")
    if not isinstance(value, Tensor):
        raise TypeError("For Primitive[FillV2], the type of input argument[y] must be Tensor but got "
                        f"{_SCALAR_TYPE.get(type(value), type(value).__name__)}.")
    if value.size != 1:
        raise ValueError(f"For primitive[FillV2], the size of the input [fill_value] must be equal to 1, but got "
                         f"{value.size}.")
    x = arr(value)
    return wrap(jnp.full(_shape_of(shape, "FillV2"), x.reshape(()), x.dtype))


@op("full", family="array")
def full(size, fill_value, *, dtype=None):
    """``ops.full(size, fill_value, *, dtype=None)``: Int64 when ``dtype`` is None (as MindSpore 2.10)."""
    npd = mstype.to_np(dtype or mstype.int64)
    return wrap(jnp.full(_shape_of(size, "FillV2"), _fill_value(fill_value, npd), npd))


@op("full_like", family="array")
def full_like(input, fill_value, *, dtype=None):
    """``ops.full_like(input, fill_value, *, dtype=None)``: ``input``'s dtype by default."""
    x = arr(input)
    npd = mstype.to_np(dtype) if dtype is not None else x.dtype
    return wrap(jnp.full(x.shape, _fill_value(fill_value, npd), npd))


@op("tensor_fill", methods="fill", family="array")
def _tensor_fill(input, value):
    """``Tensor.fill(value)``: a new Tensor of the same shape and dtype filled with ``value``."""
    x = arr(input)
    return wrap(jnp.full(x.shape, _fill_value(value, x.dtype), x.dtype))


@op("tensor_fill_", methods="fill_", family="array")
def _tensor_fill_(input, value):
    """``Tensor.fill_(value)``: fills the Tensor in place and returns it."""
    x = arr(input)
    if isinstance(value, Tensor) and value.ndim != 0:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} "
                           "dimensions.")
    _write_inplace(input, jnp.full(x.shape, _fill_value(value, x.dtype), x.dtype))
    return input


@op("tensor_zero_", methods="zero_", family="array")
def _tensor_zero_(input):
    return _tensor_fill_(input, 0)


def _range_value(v, name):
    if isinstance(v, Tensor):
        if v.ndim != 0:
            raise ValueError(f"For 'Range', '{name}' must be a scalar Tensor, but got {v.ndim}-D.")
        return _need_concrete(v._data, "range").reshape(()), v.dtype
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"For 'Range', '{name}' must be a Tensor or a number, but got {type(v).__name__}.")
    t = to_array(v)
    return np.asarray(t), mstype.from_np(t.dtype)


@op("range", family="array")
def range(start, end, step, maxlen=1000000):  # noqa: A001
    """``ops.range(start, end, step, maxlen=1000000)``: Int64 for integer inputs, Float32
    for Float32 ones (all three must share a dtype)."""
    (s, sd), (e, ed), (d, dd) = (_range_value(start, "start"), _range_value(end, "limit"),
                                 _range_value(step, "delta"))
    if not sd == ed == dd:
        raise TypeError(f"For Range, the dtypes of inputs must be the same, but got ({sd}, {ed}, {dd}).")
    if d == 0:
        raise ValueError("For Range, delta cannot be equal to zero.")
    if e < s and d > 0:
        raise ValueError("For Range, delta cannot be positive when limit < start.")
    if e > s and d < 0:
        raise ValueError("For Range, delta cannot be negative when limit > start.")
    out_dt = np.int64 if sd.kind in ("int", "uint") else sd.np
    n = int(np.ceil((e.astype(np.float64) - s) / d))
    if n > maxlen:
        raise ValueError(f"For Range, the number of elements {n} exceeds 'maxlen' {maxlen}.")
    return wrap(jnp.asarray(s + d * np.arange(n), out_dt))


@op("prim_range", primitive="Range", prim_args=("maxlen",), family="array")
def _prim_range(start, end, step, maxlen=1000000):
    return range(start, end, step, maxlen)


@op("make_range", family="array")
def make_range(*args):
    """``ops.make_range(*args)``: Python's ``range`` as a tuple of ints."""
    if not 1 <= len(args) <= 3:
        raise TypeError(f"For 'make_range', the number of inputs must be 1, 2 or 3, but got {len(args)}.")
    for i, a in enumerate(args):
        if isinstance(a, bool) or not isinstance(a, int):
            kind = "Float32" if isinstance(a, float) else type(a).__name__
            raise TypeError(f"For 'make_range', the {i}th input should be a int scalar but got "
                            f"AbstractScalar(Type: {kind}, Value: {a}, Shape: NoShape)")
    if len(args) == 3 and args[2] == 0:
        raise ValueError("For 'make_range', the step should not be 0.")
    return tuple(_py_range(*args))


def _float_scalar(v, name, op_name="LinSpace"):
    if isinstance(v, Tensor):
        if v.dtype not in (mstype.float32, mstype.float64):
            raise TypeError(f"For primitive[{op_name}], the input argument[{name} type] must be a type of "
                            f"{{Tensor[Float32], Tensor[Float64]}}, but got Tensor[{v.dtype}].")
        return v._data.reshape(()), v._data.dtype
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"For '{op_name}', '{name}' must be a Tensor or a number, but got {type(v).__name__}.")
    return jnp.asarray(v, jnp.float32), np.dtype(np.float32)


@op("linspace", family="array")
def linspace(start, end, steps):
    """``ops.linspace(start, end, steps)``: Float32 (Float64 for Float64 Tensors)."""
    s, sdt = _float_scalar(start, "start")
    e, edt = _float_scalar(end, "stop")
    if isinstance(steps, Tensor):
        steps = int(steps._data)
    if isinstance(steps, bool) or not isinstance(steps, int):
        raise TypeError(f"For 'LinSpace', 'num' must be int, but got {type(steps).__name__}.")
    if steps <= 0:
        raise ValueError(f"For 'LinSpace', 'num' must be positive, but got {steps}.")
    dt = jnp.promote_types(sdt, edt)
    return wrap(jnp.linspace(s.astype(dt), e.astype(dt), steps, dtype=dt))


_LOGSPACE_TYPES = ("Float16", "Float32", "Float64")


@op("prim_eps", primitive="Eps", family="array")
def prim_eps(x):
    """``ops.Eps()(x)``: a Tensor like ``x`` filled with its float type's machine epsilon (its gradient
    is zero)."""
    if not isinstance(x, Tensor) or str(x.dtype) not in _LOGSPACE_TYPES:
        got = f"Tensor[{x.dtype}]" if isinstance(x, Tensor) else type(x).__name__
        raise TypeError(f"For primitive[Eps], the input argument[x] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got {got}.")
    a = x._data
    return wrap(jnp.full_like(a, jnp.finfo(a.dtype).eps))


@op("logspace", family="array")
def logspace(start, end, steps, base=10, *, dtype=mstype.float32):
    """``ops.logspace(start, end, steps, base=10, *, dtype=mstype.float32)``: ``base ** x`` for ``steps``
    points ``x`` evenly spaced from ``start`` to ``end``, computed as MindSpore's CPU LogSpace kernel does
    (in double precision from the inputs' values, C library ``pow``, rounded once to ``dtype``).
    Differs from MindSpore: MindSpore 2.10's CPU kernel gives float16-rounded values for
    ``dtype=float64`` (with float32/float64 inputs); msjax gives the double-precision ones. The
    values are needed on the host: in a compiled call the call runs uncompiled."""
    if isinstance(base, bool) or not isinstance(base, int):
        raise TypeError(f"For 'LogSpace', the type of 'base' should be 'int', but got type '{type(base).__name__}'.")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise ValueError(f"For 'LogSpace', the 'steps' must be int and must >= 0, but got '{steps}' with "
                         f"type '{type(steps).__name__}'.")
    if str(dtype) not in _LOGSPACE_TYPES:
        raise TypeError(f"For 'LogSpace', the 'dtype' should be one of [mindspore.float16, mindspore.float32, "
                        f"mindspore.float64], but got 'mindspore.{str(dtype).lower()}'.")
    ends = []
    for v in (start, end):
        v = v._data if isinstance(v, Tensor) else np.float32(v)
        ends.append(float(np.asarray(_need_concrete(v, "logspace")).reshape(())))
    lo, hi = ends
    step = (hi - lo) / (steps - 1) if steps > 1 else 0.0
    vals = [math.pow(base, lo + i * step) for i in builtins.range(steps)]   # glibc pow, per value
    return wrap(jnp.asarray(np.array(vals, np.float64).astype(mstype.to_np(dtype))))


@op("prim_linspace", primitive="LinSpace", family="array")
def _prim_linspace(start, stop, num):
    return linspace(start, stop, num)


@op("arange", family="array")
def arange(start=0, end=None, step=1, *, dtype=None):
    """``ops.arange(start=0, end=None, step=1, *, dtype=None)``: Int64 for ints, Float32
    for floats unless ``dtype`` is given."""
    vals = [start, end, step] if end is not None else [0, start, step]
    nums = []
    is_float = False
    for v in vals:
        if isinstance(v, Tensor):
            is_float |= v.dtype.kind == "float"
            v = _need_concrete(v._data, "arange").item()
        is_float |= isinstance(v, float)
        nums.append(v)
    s, e, d = nums
    if d == 0:
        raise ValueError("For 'arange', 'step' must not be 0.")
    if (e - s) * d < 0:
        raise ValueError("For 'arange', 'step' must have the sign of 'end' - 'start'.")
    npd = mstype.to_np(dtype) if dtype is not None else (np.float32 if is_float else np.int64)
    n = builtins.max(int(np.ceil((e - s) / d)), 0)
    return wrap(jnp.asarray(s + d * np.arange(n, dtype=np.float64 if is_float else np.int64), npd))


@op("scalar_to_tensor", primitive="ScalarToTensor", family="array")
def scalar_to_tensor(input_x, dtype=mstype.float32):
    """``ops.scalar_to_tensor(input_x, dtype=mindspore.float32)``: a 0-D Tensor."""
    if isinstance(input_x, Tensor) or not isinstance(input_x, (int, float, bool, np.generic)):
        raise TypeError(f"For 'ScalarToTensor', 'input_x' must be a number, but got {type(input_x).__name__}.")
    return wrap(jnp.asarray(input_x).astype(mstype.to_np(dtype)))


@op("scalar_to_array", family="array")
def scalar_to_array(input_x):
    """``ops.scalar_to_array(input_x)``: a 0-D Tensor of the number (Int64 / Float32 / Bool)."""
    if isinstance(input_x, Tensor) or not isinstance(input_x, (int, float, bool)):
        raise TypeError(f"For 'scalar_to_array', 'input_x' must be a number, but got {type(input_x).__name__}.")
    return Tensor(input_x)


@op("tuple_to_array", primitive="TupleToArray", family="array")
def tuple_to_array(input_x):
    """``ops.tuple_to_array(input_x)``: a 1-D Tensor; Int32 for ints, Float32 for floats. A ``range``
    is taken as the tuple of its numbers, as MindSpore does (YOLOv3's grid)."""
    if isinstance(input_x, builtins.range):
        input_x = tuple(input_x)
    if not isinstance(input_x, tuple):
        raise TypeError(f"For 'TupleToArray', 'input_x' must be a tuple, but got {type(input_x).__name__}.")
    if not input_x:
        raise ValueError("For 'TupleToArray', 'input_x' must not be empty.")
    if any(isinstance(v, float) for v in input_x):
        return wrap(jnp.asarray(np.asarray(input_x, np.float32)))
    if all(isinstance(v, (int, bool)) for v in input_x):
        return wrap(jnp.asarray(np.asarray(input_x, np.int32)))
    raise TypeError("For 'TupleToArray', the elements of 'input_x' must be numbers.")


@op("tuple_len", family="array")
def tuple_len(*args):
    """``ops.tuple_len(x)``: the length of a tuple or list."""
    if len(args) != 1:
        raise TypeError(f"For 'tuple_len', exactly one input is expected, but got {len(args)}.")
    return len(args[0])


@op("tensor_from_numpy", family="array")
def from_numpy(array):
    """``Tensor.from_numpy(array)`` / ``mindspore.from_numpy(array)``: the array's dtype kept."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"For 'from_numpy', the input must be a numpy.ndarray, but got {type(array).__name__}.")
    out = wrap(jnp.asarray(array))
    out._host_repr = True          # printed with numpy's formatting, as MindSpore prints a numpy-backed Tensor
    return out


Tensor.from_numpy = staticmethod(from_numpy)


@op("tensor_value", methods="value", family="array")
def _tensor_value(input):
    """``Tensor.value()``: the Tensor's value (a Parameter's value as a plain Tensor)."""
    return wrap(arr(input))


# ---------------------------------------------------------------------------
# tril_indices/triu_indices
# ---------------------------------------------------------------------------

def _tri_indices(name, row, col, offset, dtype, lower):
    for k, v in (("row", row), ("col", col), ("offset", offset)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"For '{name}', '{k}' must be an int, but got {type(v)}.")
    if row < 0 or col < 0:
        raise ValueError(f"For '{name}', 'row' and 'col' must be non-negative, but got {row} and {col}.")
    if dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', 'dtype' must be mindspore.int32 or mindspore.int64, but got {dtype}.")
    r, c = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return wrap(jnp.asarray(np.stack([r, c]).reshape(2, -1), mstype.to_np(dtype)))


@op("tril_indices", family="array")
def tril_indices(row, col, offset=0, *, dtype=mstype.int64):
    """``ops.tril_indices(row, col, offset=0, *, dtype=int64)``: the (2, N) coordinates of the lower
    triangle of a row x col matrix, row-major."""
    return _tri_indices("tril_indices", row, col, offset, dtype, True)


@op("triu_indices", family="array")
def triu_indices(row, col, offset=0, *, dtype=mstype.int64):
    """``ops.triu_indices(row, col, offset=0, *, dtype=int64)``: the upper triangle's coordinates."""
    return _tri_indices("triu_indices", row, col, offset, dtype, False)


@op("prim_tril_indices", primitive="TrilIndices", prim_args=("row", "col", "offset", "dtype"), family="array")
def prim_tril_indices(row, col, offset=0, dtype=mstype.int32):
    """``ops.TrilIndices(row, col, offset=0, dtype=int32)()``: ``ops.tril_indices``."""
    return _tri_indices("TrilIndices", row, col, offset, dtype, True)


@op("prim_triu_indices", primitive="TriuIndices", prim_args=("row", "col", "offset", "dtype"), family="array")
def prim_triu_indices(row, col, offset=0, dtype=mstype.int32):
    """``ops.TriuIndices(row, col, offset=0, dtype=int32)()``: ``ops.triu_indices``."""
    return _tri_indices("TriuIndices", row, col, offset, dtype, False)
