"""``mindspore.numpy.array_creations``: creating Tensors the NumPy way, on ``jax.numpy``.

Python numbers and lists default to 32 bits (Int32, Float32) as in MindSpore; numpy arrays
are accepted by ``array``/``asarray`` only as MindSpore accepts them (not at all: TypeError).
Differs from MindSpore: ``empty``/``empty_like`` are zero-filled (XLA has no uninitialised
memory). ``rand``/``randn``/``randint`` draw MindSpore's numbers (its ``UniformReal``/``StandardNormal``/
``UniformInt`` kernels with the seeds MindSpore derives from the global seed).
"""
from __future__ import absolute_import

import math
import numbers

import jax.numpy as jnp
import numpy as _np

from .._core import dtype as mstype
from .._core.tensor import Tensor
from . import _util
from ._util import arr, np_dtype, out


def _check_shape(shape):
    if isinstance(shape, Tensor):
        raise TypeError("For mindspore.numpy, the shape must be int or tuple of ints, but got Tensor.")
    if isinstance(shape, bool) or not isinstance(shape, (numbers.Integral, tuple, list)):
        raise TypeError(f"shape must be int or tuple of ints, but got {type(shape).__name__}.")
    shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, numbers.Integral):
            raise TypeError(f"shape must be int or tuple of ints, but got {shape}.")
        if s < 0:
            raise ValueError(f"negative dimensions are not allowed, got {shape}.")
    return shape


def _check_input_for_asarray(a):
    if not isinstance(a, (Tensor, list, tuple, int, float, bool)):
        raise TypeError("input data must be `int`, `float`, `bool`, `Tensor`, `list`, `tuple`, but got "
                        f"{type(a)}")


def asarray(a, dtype=None):
    """Converts ``a`` (Tensor, number, nested list/tuple) to a Tensor; Python ints are Int32 and
    floats Float32 unless ``dtype`` is given."""
    _check_input_for_asarray(a)
    if isinstance(a, Tensor):
        return out(a._data, dtype)
    if dtype is not None:
        d = np_dtype(dtype)
        if not _has_tensor(a):
            try:
                return out(jnp.asarray(_np.asarray(a, d)))
            except (TypeError, ValueError):
                pass
        return out(arr(a), d)
    return out(arr(a))


def _has_tensor(a):
    return isinstance(a, Tensor) or (isinstance(a, (list, tuple)) and any(_has_tensor(x) for x in a))


def array(obj, dtype=None, copy=True, ndmin=0):
    """``asarray`` with ``ndmin`` leading axes added; always a new Tensor."""
    res = asarray(obj, dtype)
    a = res._data
    if ndmin > a.ndim:
        a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
    return out(a)


def asfarray(a, dtype=mstype.float32):
    """``asarray`` as a float Tensor (integer dtypes become Float32)."""
    d = np_dtype(dtype)
    if d is None or not _np.issubdtype(d, _np.floating):
        dtype = mstype.float32
    return asarray(a, dtype)


def copy_(a):
    """A copy of ``a`` (``mindspore.numpy.copy``)."""
    return out(arr(a))


def ones(shape, dtype=mstype.float32):
    return out(jnp.ones(_check_shape(shape), np_dtype(dtype)))


def zeros(shape, dtype=mstype.float32):
    return out(jnp.zeros(_check_shape(shape), np_dtype(dtype)))


def empty(shape, dtype=mstype.float32):
    """Zero-filled (MindSpore's values are unspecified)."""
    return zeros(shape, dtype)


def _fill_dtype(fill_value):
    if isinstance(fill_value, Tensor):
        return fill_value._data.dtype
    if isinstance(fill_value, bool):
        return _np.dtype(_np.bool_)
    if isinstance(fill_value, int):
        return _np.dtype(_np.int32)
    if isinstance(fill_value, float):
        return _np.dtype(_np.float32)
    return arr(fill_value).dtype


def full(shape, fill_value, dtype=None):
    shape = _check_shape(shape)
    d = np_dtype(dtype) if dtype is not None else _fill_dtype(fill_value)
    return out(jnp.broadcast_to(jnp.asarray(arr(fill_value), d), shape))


def _like(a, dtype, shape):
    a = arr(a)
    return (_check_shape(shape) if shape is not None else a.shape), (np_dtype(dtype) if dtype is not None
                                                                      else a.dtype)


def ones_like(a, dtype=None, shape=None):
    s, d = _like(a, dtype, shape)
    return out(jnp.ones(s, d))


def zeros_like(a, dtype=None, shape=None):
    s, d = _like(a, dtype, shape)
    return out(jnp.zeros(s, d))


def empty_like(prototype, dtype=None, shape=None):
    """Zero-filled (MindSpore's values are unspecified)."""
    return zeros_like(prototype, dtype, shape)


def full_like(a, fill_value, dtype=None, shape=None):
    s, d = _like(a, dtype, shape)
    return out(jnp.broadcast_to(jnp.asarray(arr(fill_value), d), s))


def _scalar(v, name):
    if isinstance(v, Tensor):
        if v.ndim != 0 and v.size != 1:
            raise TypeError(f"For '{name}', the input must be a scalar.")
        return _util.concrete(v._data, name).reshape(()).item()
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"For '{name}', the input must be int or float, but got {type(v).__name__}.")
    return v


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in ``[start, stop)``: Int32 for integer arguments, else Float32."""
    tensor_arg = any(isinstance(v, Tensor) for v in (start, stop, step))
    start = _scalar(start, "arange")
    if stop is None:
        start, stop = 0, start
    stop = _scalar(stop, "arange")
    step = 1 if step is None else _scalar(step, "arange")
    if step == 0:
        raise ZeroDivisionError("For 'arange', step cannot be 0.")   # MindSpore's exception type
    if dtype is None:   # a Tensor bound gives Float32, as MindSpore
        ints = not tensor_arg and all(isinstance(v, int) for v in (start, stop, step))
        dtype = _np.int32 if ints else _np.float32
    return out(jnp.arange(start, stop, step, dtype=np_dtype(dtype)))


def _space_dtype(dtype):
    """MindSpore's ``xspace`` functions default to Float32 whatever the bounds' dtypes."""
    return _np.dtype(_np.float32) if dtype is None else np_dtype(dtype)


def _bound(v):
    """A bound as MindSpore casts it: a Tensor keeps its dtype, anything else becomes Float32."""
    return v._data if isinstance(v, Tensor) else arr(v).astype(jnp.float32)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """As MindSpore: ``dtype`` casts the samples only; the step keeps the bounds' float dtype
    (Float32, or Float64 for Float64 Tensors); ``num=0`` raises ``ValueError``."""
    num = _util.check_int(num, "linspace")
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if num == 0:
        raise ValueError("cannot support Tensor with num=0.")
    d = _space_dtype(dtype)
    lo, hi = _bound(start), _bound(stop)
    step_dtype = jnp.result_type(lo.dtype, hi.dtype, jnp.float32)
    res = jnp.linspace(lo.astype(step_dtype), hi.astype(step_dtype), num, endpoint=endpoint,
                       retstep=retstep, axis=axis)
    if retstep:
        return out(res[0], d), out(jnp.asarray(res[1], step_dtype))
    return out(res, d)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    d = _space_dtype(dtype)
    res = jnp.logspace(arr(start).astype(jnp.float32), arr(stop).astype(jnp.float32), num, endpoint=endpoint,
                       base=base, axis=axis)
    return out(res, d)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    d = _space_dtype(dtype)
    res = jnp.geomspace(arr(start).astype(jnp.float32), arr(stop).astype(jnp.float32), num, endpoint=endpoint,
                        axis=axis)
    return out(res, d)


def eye(N, M=None, k=0, dtype=mstype.float32):
    return out(jnp.eye(_util.check_int(N, "eye"), None if M is None else _util.check_int(M, "eye"), k,
                       dtype=np_dtype(dtype)))


def identity(n, dtype=mstype.float32):
    return out(jnp.identity(_util.check_int(n, "identity"), dtype=np_dtype(dtype)))


def tri(N, M=None, k=0, dtype=mstype.float32):
    return out(jnp.tri(N, M, k, dtype=np_dtype(dtype)))


def _at_least_2d(name, m):
    """A 1-D input is broadcast to a square matrix first, as NumPy and MindSpore do."""
    a = arr(m)
    if a.ndim < 1:
        raise ValueError(f"For '{name}', input m's rank should be larger than 0, but got {a.ndim}.")
    return jnp.broadcast_to(a, (a.shape[0],) + a.shape) if a.ndim == 1 else a


def tril(m, k=0):
    return out(jnp.tril(_at_least_2d("tril", m), k))


def triu(m, k=0):
    return out(jnp.triu(_at_least_2d("triu", m), k))


def diagonal(a, offset=0, axis1=0, axis2=1):
    a = arr(a)
    if a.ndim < 2:
        raise ValueError("diagonal requires an array of at least two dimensions")
    return out(jnp.diagonal(a, offset, axis1, axis2))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    a = arr(a)
    if a.ndim < 2:
        raise RuntimeError(f"For Primitive[Tracev2], the dim of input 'x' should greater or equal to 2, but got "
                           f"'x' at {a.ndim}-dimention")
    return out(jnp.trace(a, offset, axis1, axis2), dtype)


def diag(v, k=0):
    a = arr(v)
    if a.ndim not in (1, 2):
        raise ValueError("Input must be 1- or 2-d.")
    return out(jnp.diag(a, k))


def diagflat(v, k=0):
    return out(jnp.diagflat(arr(v), k))


def diag_indices(n, ndim=2):
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise TypeError(f"For 'diag_indices', n must be a positive int, but got {n}.")
    return tuple(out(jnp.arange(n, dtype=jnp.int32)) for _ in range(ndim))


def _tri_indices(n, k, m, upper):
    """MindSpore's ``tri_indices``: any Python numbers (floats too: ``ceil(n)`` rows, ``ceil(m)``
    columns, entries with ``j >= i + k`` or ``j <= i + k``), Int32 indices."""
    for name, v in (("n", n), ("k", k), ("m", n if m is None else m)):
        if not isinstance(v, (int, float, bool)):
            raise TypeError(f"Input {name} must be a number.")
    m = n if m is None else m
    i, j = _np.meshgrid(_np.arange(math.ceil(n)), _np.arange(math.ceil(m)), indexing="ij")
    keep = j >= i + k if upper else j <= i + k
    return out(jnp.asarray(i[keep], jnp.int32)), out(jnp.asarray(j[keep], jnp.int32))


def tril_indices(n, k=0, m=None):
    return _tri_indices(n, k, m, False)


def triu_indices(n, k=0, m=None):
    return _tri_indices(n, k, m, True)


def tril_indices_from(arr_, k=0):
    _util.need_tensor("tril_indices_from", arr_)
    if arr_.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr_.shape[-2], k, arr_.shape[-1])


def triu_indices_from(arr_, k=0):
    _util.need_tensor("triu_indices_from", arr_)
    if arr_.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr_.shape[-2], k, arr_.shape[-1])


def meshgrid(*xi, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise TypeError(f"Valid values for `indexing` are 'xy' and 'ij', but got {indexing}.")
    for x in xi:
        _util.need_tensor("meshgrid", x)
    # inputs of any rank are flattened first, as NumPy and MindSpore do
    return [out(a) for a in jnp.meshgrid(*[x._data.ravel() for x in xi], sparse=sparse, indexing=indexing)]


class _GridClass:
    def __init__(self, grid, sparse):
        self._grid = grid
        self._sparse = sparse

    def __getitem__(self, keys):
        res = self._grid[keys]
        if isinstance(res, (list, tuple)):
            res = [jnp.asarray(r) for r in res]
            res = [r.astype(jnp.float32 if r.dtype == jnp.float64 else jnp.int32 if r.dtype == jnp.int64
                            else r.dtype) for r in res]
            if self._sparse:
                return [out(r) for r in res]
            return out(jnp.stack(res))
        res = jnp.asarray(res)
        return out(res.astype(jnp.float32 if res.dtype == jnp.float64 else jnp.int32 if res.dtype == jnp.int64
                              else res.dtype))


class MGridClass(_GridClass):
    """``mgrid[...]``: dense mesh grids (one stacked Tensor)."""

    def __init__(self):
        super().__init__(_np.mgrid, False)


class OGridClass(_GridClass):
    """``ogrid[...]``: open mesh grids (a list of Tensors)."""

    def __init__(self):
        super().__init__(_np.ogrid, True)


mgrid = MGridClass()
ogrid = OGridClass()


def ix_(*args):
    for a in args:
        _util.need_tensor("ix_", a)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
    n = len(args)
    # each array reshaped to open its own axis (Bool arrays too, as MindSpore: no nonzero())
    return tuple(out(a._data.reshape((1,) * k + (-1,) + (1,) * (n - k - 1))) for k, a in enumerate(args))


def indices(dimensions, dtype=mstype.int32, sparse=False):
    if not isinstance(dimensions, (tuple, list)):
        raise TypeError(f"For 'indices', dimensions must be a tuple or list of ints, but got {dimensions}.")
    res = jnp.indices(tuple(dimensions), dtype=np_dtype(dtype), sparse=sparse)
    return [out(r) for r in res]


def vander(x, N=None, increasing=False):
    a = arr(x)
    if a.ndim != 1:
        raise ValueError(f"x should be a 1-D Tensor, but got {a.ndim}-D.")
    return out(jnp.vander(a, N, increasing))


def _window(fn, M):
    M = _util.check_int(M, "window")
    return out(jnp.asarray(fn(M), jnp.float32))


def hamming(M):
    return _window(_np.hamming, M)


def hanning(M):
    return _window(_np.hanning, M)


def bartlett(M):
    return _window(_np.bartlett, M)


def blackman(M):
    return _window(_np.blackman, M)


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    a = arr(a)
    if isinstance(bins, (Tensor, list, tuple)):
        return out(arr(bins))
    if range is None:
        lo, hi = jnp.min(a), jnp.max(a)
    else:
        lo, hi = range
    edges = jnp.linspace(jnp.asarray(lo, jnp.float32), jnp.asarray(hi, jnp.float32), bins + 1)
    return out(edges)


def pad(arr_, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0,
        reflect_type="even", **kwargs):
    """``jnp.pad`` with MindSpore's modes ('constant', 'edge', 'linear_ramp', 'maximum', 'mean',
    'median', 'minimum', 'reflect', 'symmetric', 'wrap', 'empty', or a function)."""
    a = arr(arr_)
    if isinstance(pad_width, Tensor):
        pad_width = _util.concrete(pad_width._data, "pad").tolist()
    kw = {}
    if mode == "constant":
        kw["constant_values"] = constant_values
    elif mode == "linear_ramp":
        kw["end_values"] = end_values
    elif mode in ("maximum", "mean", "median", "minimum"):
        kw["stat_length"] = stat_length
    elif mode in ("reflect", "symmetric"):
        kw["reflect_type"] = reflect_type
    elif mode == "empty":
        mode = "constant"
    elif callable(mode):
        raise NotImplementedError("mindspore.numpy.pad: a function as `mode` is not supported by msjax")
    elif mode != "edge" and mode != "wrap":
        raise ValueError(f"For 'pad', mode {mode!r} is not supported.")
    if mode == "mean" and not _util.is_float(a):   # MindSpore's integer mean truncates
        return out(jnp.trunc(jnp.pad(a.astype(jnp.float32), pad_width, mode=mode, **kw)).astype(a.dtype))
    res = jnp.pad(a, pad_width, mode=mode, **kw)
    return out(res.astype(a.dtype))


def _random_shape(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return _check_shape(tuple(shape))


def _kernel(kind):
    """MindSpore's ``mindspore.numpy`` random functions: the Primitive ``kind`` with the seeds of
    ``_get_seed(get_seed(), kind)`` under a global seed, else ``kind()`` (seeds 0, 0: a random seed)."""
    from ..common.seed import _get_graph_seed, get_seed
    from ..ops import operations as P
    seed = get_seed()
    seeds = _get_graph_seed(seed, kind) if seed is not None else (0, 0)
    return getattr(P, kind)(seed=seeds[0], seed2=seeds[1])


def _check_rand_type(dtype):
    """MindSpore's ``_check_rand_type``: a float dtype or its name, else ``ValueError``."""
    if isinstance(dtype, str):
        if dtype not in ("float", "float16", "float32", "float64"):
            raise ValueError("If the argument 'dtype' is str, it must be one of ['float', 'float16', 'float32', "
                             f"'float64'], but got {dtype}")
        return np_dtype(mstype.float32 if dtype == "float" else dtype)
    if dtype not in (mstype.float64, mstype.float32, mstype.float16):
        raise ValueError("The argument 'dtype' must be 'mindspore.float64', 'mindspore.float32' or "
                         f"'mindspore.float16', but got {dtype}")
    return np_dtype(dtype)


def rand(*shape, dtype=mstype.float32):
    """Uniform ``[0, 1)`` samples: MindSpore's ``UniformReal`` kernel's, cast to ``dtype``."""
    d = _check_rand_type(dtype)
    return out(_kernel("UniformReal")(_random_shape(shape))._data, d)


def randn(*shape, dtype=mstype.float32):
    """Standard-normal samples: MindSpore's ``StandardNormal`` kernel's, cast to ``dtype``."""
    d = _check_rand_type(dtype)
    return out(_kernel("StandardNormal")(_random_shape(shape))._data, d)


def randint(minval, maxval=None, shape=None, dtype=mstype.int32):
    """Integers in ``[minval, maxval)``: MindSpore's ``UniformInt`` kernel's (its bounds must be Int32, so
    as in MindSpore another ``dtype`` raises its TypeError); ``shape=None`` gives shape ``(1,)``."""
    if not isinstance(minval, int) or isinstance(minval, bool):
        raise TypeError("For 'randint', the type of 'minval' must be int.")
    if maxval is None:
        if minval <= 0:
            raise ValueError("For 'randint', 'minval' must be greater than 0 when 'maxval' is None.")
        minval, maxval = 0, minval
    elif not isinstance(maxval, int) or isinstance(maxval, bool):
        raise TypeError("For 'randint', the type of 'maxval' must be int.")
    elif minval >= maxval:
        raise ValueError("For 'randint', 'minval' must be less than 'maxval'.")
    if isinstance(dtype, str):
        if dtype not in ("int", "int8", "int16", "int32", "int64"):
            raise ValueError("For 'mindspore.numpy.randint', if the argument 'dtype' is str, it must be one of "
                             f"['int', 'int8', 'int16', 'int32', 'int64'], but got {dtype}")
        dtype = mstype.int32 if dtype == "int" else dtype
    elif dtype not in (mstype.int64, mstype.int32, mstype.int16, mstype.int8):
        raise ValueError("For 'mindspore.numpy.randint', the argument 'dtype' must be 'mindspore.int64', "
                         f"'mindspore.int32', 'mindspore.int16' or 'mindspore.int8', but got {dtype}")
    d = np_dtype(dtype)
    shape = (1,) if shape is None else _check_shape(shape)
    lo, hi = (Tensor(_np.array(v, d)) for v in (minval, maxval))
    if d != _np.int32:
        raise TypeError("For primitive[UniformInt], the input argument[minval] must be a type of {Tensor[Int32]}, "
                        f"but got Tensor[{mstype.from_np(d)}].")
    return out(_kernel("UniformInt")(shape, lo, hi)._data, d)
