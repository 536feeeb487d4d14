"""Random ops.

The ops on MindSpore's ``UniformReal``/``UniformInt``/``StandardNormal`` CPU kernels
(``uniform``, ``rand``, ``rand_like``, ``randint``, ``randint_like``, ``standard_normal``,
``normal``, ``randn``, ``randn_like`` and the three Primitives) draw MindSpore 2.10's numbers
bit for bit (``random_kernels.py``): seeds from ``_get_graph_seed`` (the global seed and the
op-seed counter), a new kernel per call in PyNative, a kernel per instance for Primitives and per
node in compiled graphs; so do ``bernoulli`` (with a seed), ``laplace``/``standard_laplace``,
``random_categorical``, ``choice_with_mask``, ``random_poisson``, ``multinomial``, ``shuffle`` and
``randperm`` (each on its own kernel). The other random ops draw from the global JAX key
(``msjax._core.rng.next_key``), which transforms thread as state: reproducible under
``ms.set_seed``, but not MindSpore's bit streams (docs/differences.md).
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core import rng, state
from ..._core.registry import op
from ..._core.tensor import Tensor
from ...common.seed import _get_graph_seed
from . import random_kernels as _rk
from ._util import arr, to_array, wrap
from .array import _ints, _shape_args, _write_inplace

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64), np.dtype(jnp.bfloat16))


def _key(generator=None):
    return rng.next_key(generator)


def _shape(shape, op_name):
    if isinstance(shape, Tensor):
        return _ints(shape, "shape", op_name)
    if isinstance(shape, int) and not isinstance(shape, bool):
        return (shape,)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"For '{op_name}', 'shape' must be a tuple of int, but got {type(shape).__name__}.")
    shp = _ints(tuple(shape), "shape", op_name)
    if any(d < 0 for d in shp):
        raise ValueError(f"For '{op_name}', the elements of 'shape' must be non-negative, but got {shp}.")
    return shp


def _float_dtype(dtype, op_name, default=mstype.float32):
    npd = mstype.to_np(dtype if dtype is not None else default)
    if npd not in _FLOATS:
        raise ValueError(f"For '{op_name}', the 'dtype' must be a float type, but got {mstype.from_np(npd)}.")
    return npd


def _int_dtype(dtype, op_name, default=mstype.int64):
    npd = mstype.to_np(dtype if dtype is not None else default)
    if not jnp.issubdtype(npd, jnp.integer):
        raise ValueError(f"For '{op_name}', the 'dtype' must be an int type, but got {mstype.from_np(npd)}.")
    return npd


def _size(size, op_name):
    size = _shape_args(size)
    return _shape(tuple(size), op_name)


# ---------------------------------------------------------------------------
# uniform
# ---------------------------------------------------------------------------
@op("uniform", family="random")
def uniform(shape, minval, maxval, seed=None, dtype=mstype.float32):
    """``ops.uniform(shape, minval, maxval, seed=None, dtype=mindspore.float32)``: numbers in
    ``[minval, maxval)``; an int dtype draws integers. The result shape broadcasts ``shape``
    with the shapes of ``minval`` and ``maxval``."""
    if not isinstance(minval, Tensor) or not isinstance(maxval, Tensor):
        raise TypeError("For functional operator[uniform], the input[minval] and input[maxval] must be a Tensor.")
    npd = mstype.to_np(dtype)
    for v in (minval, maxval):
        if v._data.dtype != npd:
            raise TypeError(f"For 'uniform', the value data type '{mstype.from_np(npd)}' is not consistent with "
                            f"assigned tensor data type {v.dtype}.")
    if npd not in _FLOATS[:3] and npd not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"For 'uniform', the 'dtype' must be float16, float32, float64 or int32, but got {dtype}.")
    seeds = _get_graph_seed(seed, "uniform")
    if jnp.issubdtype(npd, jnp.integer):
        lo, hi = (v._data.astype(jnp.int32) for v in (minval, maxval))
        return wrap(_rk.draw("UniformInt", seeds, _shape(shape, "uniform"), lo, hi).astype(npd))
    u = _rk.draw("UniformReal", seeds, _shape(shape, "uniform")).astype(npd)
    span, lo = maxval._data - minval._data, minval._data
    if npd == np.float32 and any(isinstance(v, jax.core.Tracer) for v in (u, span, lo)):
        # MindSpore's Mul then Add, each rounded to Float32: a compiled graph must not fuse them into a
        # multiply-add (the product of two Float32 numbers is exact in Float64)
        u = _rk.round_f32(jnp.asarray(u).astype(jnp.float64) * jnp.asarray(span).astype(jnp.float64))
        return wrap(u.astype(jnp.float32) + lo)
    return wrap(u * span + lo)


def _new_kernel(kind):
    """A Primitive's constructor check: a new instance builds a new kernel (a fresh engine)."""
    def check(seed=0, seed2=0):
        _rk.forget_primitive(kind, seed, seed2)
    return check


@op("prim_uniform_real", primitive="UniformReal", prim_args=("seed", "seed2"), family="random",
    prim_check=_new_kernel("UniformReal"))
def _prim_uniform_real(shape, seed=0, seed2=0):
    """``ops.UniformReal(seed=0, seed2=0)(shape)``: Float32 numbers in ``[0, 1)``."""
    return wrap(_rk.draw("UniformReal", (seed, seed2), _shape(shape, "UniformReal"), primitive=True))


@op("prim_uniform_int", primitive="UniformInt", prim_args=("seed", "seed2"), family="random",
    prim_check=_new_kernel("UniformInt"))
def _prim_uniform_int(shape, minval, maxval, seed=0, seed2=0):
    """``ops.UniformInt(seed=0, seed2=0)(shape, minval, maxval)``: Int32 in ``[minval, maxval)``."""
    lo, hi = arr(minval), arr(maxval)
    if lo.dtype != np.int32 or hi.dtype != np.int32:
        raise TypeError("For 'UniformInt', 'minval' and 'maxval' must be Int32 Tensors.")
    return wrap(_rk.draw("UniformInt", (seed, seed2), _shape(shape, "UniformInt"), lo, hi, primitive=True))


@op("rand", family="random")
def rand(*size, dtype=None, seed=None):
    """``ops.rand(*size, dtype=None, seed=None)``: Float32 in ``[0, 1)``."""
    npd = _float_dtype(dtype, "rand")
    shp = _size(size, "rand")
    return wrap(_rk.draw("UniformReal", _get_graph_seed(seed, "rand"), shp).astype(npd))


@op("rand_like", family="random")
def rand_like(input, seed=None, *, dtype=None):
    x = arr(input)
    npd = _float_dtype(dtype if dtype is not None else mstype.from_np(x.dtype), "rand_like")
    return wrap(_rk.draw("UniformReal", _get_graph_seed(seed, "rand_like"), x.shape).astype(npd))


@op("randint", family="random")
def randint(low, high, size, seed=None, *, dtype=None):
    """``ops.randint(low, high, size, seed=None, *, dtype=None)``: Int64 in ``[low, high)``."""
    if not isinstance(low, int) or not isinstance(high, int):
        raise TypeError("For 'randint', 'low' and 'high' must be int.")
    if low >= high:
        raise ValueError(f"For 'randint', 'low' must be less than 'high', but got {low} and {high}.")
    npd = _int_dtype(dtype, "randint")
    shp = _shape(size, "randint")
    return wrap(_rk.draw("UniformInt", _get_graph_seed(seed, "randint"), shp, np.int32(low), np.int32(high)).astype(npd))


@op("randint_like", family="random")
def randint_like(input, low, high, seed=None, *, dtype=None):
    x = arr(input)
    npd = _int_dtype(dtype if dtype is not None else mstype.from_np(x.dtype), "randint_like")
    if low >= high:
        raise ValueError(f"For 'randint_like', 'low' must be less than 'high', but got {low} and {high}.")
    seeds = _get_graph_seed(seed, "randint_like")
    return wrap(_rk.draw("UniformInt", seeds, x.shape, np.int32(low), np.int32(high)).astype(npd))


def key_uniform(shape, npd=np.float32):
    """Uniform numbers in [0, 1) from the global JAX key (``mint.rand``: the default generator's stream)."""
    return wrap(jax.random.uniform(_key(), tuple(shape), npd))


def key_normal(shape, npd=np.float32):
    """N(0, 1) numbers from the global JAX key (``mint.randn``, ``mint.normal``)."""
    return wrap(jax.random.normal(_key(), tuple(shape), npd))


def key_randint(low, high, shape, npd=np.int64):
    """Integers in [low, high) from the global JAX key (``mint.randint``)."""
    if low >= high:
        raise ValueError(f"For 'randint', 'low' must be less than 'high', but got {low} and {high}.")
    return wrap(jax.random.randint(_key(), tuple(shape), low, high, dtype=npd))


@op("tensor_uniform", methods="uniform", family="random")
def _tensor_uniform(input, from_=0.0, to=1.0, generator=None):
    """``Tensor.uniform(from_=0., to=1., generator=None)``: a new Tensor of numbers in
    ``[from_, to)`` with the shape and dtype of ``input``."""
    x = arr(input)
    lo, hi = _bounds(from_, to, "uniform")
    return wrap(_fill_uniform(x, lo, hi, generator))


def _bounds(lo, hi, op_name):
    vals = []
    for v in (lo, hi):
        if isinstance(v, Tensor):
            if v.size != 1:
                raise ValueError(f"For '{op_name}', 'from_' and 'to' must have a single element.")
            v = v._data.reshape(())
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"For '{op_name}', 'from_' and 'to' must be numbers or Tensors, but got "
                            f"{type(v).__name__}.")
        vals.append(v)
    if not isinstance(vals[0], jax.Array) and not isinstance(vals[1], jax.Array) and vals[0] > vals[1]:
        raise RuntimeError(f"For '{op_name}', 'from_' must be less than or equal to 'to', but got {vals[0]} "
                           f"and {vals[1]}.")
    return vals


def _fill_uniform(x, lo, hi, generator=None):
    if jnp.issubdtype(x.dtype, jnp.floating):
        u = jax.random.uniform(_key(generator), x.shape, x.dtype)
        return (lo + (hi - lo) * u).astype(x.dtype)
    u = jax.random.uniform(_key(generator), x.shape, jnp.float64)
    return jnp.floor(lo + (hi - lo) * u).astype(x.dtype)


@op("tensor_uniform_", methods="uniform_", family="random")
def _tensor_uniform_(input, from_=0, to=1, *, generator=None):
    """``Tensor.uniform_(from_=0, to=1, *, generator=None)``: fills the Tensor in place."""
    lo, hi = _bounds(from_, to, "uniform_")
    _write_inplace(input, _fill_uniform(arr(input), lo, hi, generator))
    return input


@op("tensor_random_", methods="random_", family="random")
def _tensor_random_(input, from_=0, to=None, *, generator=None):
    """``Tensor.random_(from_=0, to=None, *, generator=None)``: integers in ``[from_, to)``
    (``to`` defaults to the dtype's limit) in place."""
    x = arr(input)
    if to is None:
        to = int(jnp.iinfo(x.dtype).max) if jnp.issubdtype(x.dtype, jnp.integer) else \
            2 ** int(jnp.finfo(x.dtype).nmant + 1)
    if from_ >= to:
        raise RuntimeError(f"For 'random_', 'from_' must be less than 'to', but got {from_} and {to}.")
    v = jax.random.randint(_key(generator), x.shape, from_, to, dtype=jnp.int64)
    _write_inplace(input, v.astype(x.dtype))
    return input


# ---------------------------------------------------------------------------
# normal
# ---------------------------------------------------------------------------
@op("normal", family="random")
def normal(shape, mean, stddev, seed=None):
    """``ops.normal(shape, mean, stddev, seed=None)``: Float32 samples of N(mean, stddev²);
    the shape broadcasts ``shape`` with those of ``mean`` and ``stddev``."""
    m = to_array(mean).astype(jnp.float32)
    s = to_array(stddev).astype(jnp.float32)
    z = _rk.draw("StandardNormal", _get_graph_seed(seed, "normal"), _shape(shape, "normal"))
    return wrap(z * s + m)


@op("standard_normal", family="random")
def standard_normal(shape, seed=None):
    """``ops.standard_normal(shape, seed=None)``: Float32 samples of N(0, 1)."""
    shp = _shape(shape, "standard_normal")
    return wrap(_rk.draw("StandardNormal", _get_graph_seed(seed, "standard_normal"), shp))


@op("prim_standard_normal", primitive="StandardNormal", prim_args=("seed", "seed2"), family="random",
    prim_check=_new_kernel("StandardNormal"))
def _prim_standard_normal(shape, seed=0, seed2=0):
    return wrap(_rk.draw("StandardNormal", (seed, seed2), _shape(shape, "StandardNormal"), primitive=True))


@op("randn", family="random")
def randn(*size, dtype=None, seed=None):
    """``ops.randn(*size, dtype=None, seed=None)``: N(0, 1) samples, Float32 by default."""
    npd = _float_dtype(dtype, "randn")
    shp = _size(size, "randn")
    return wrap(_rk.draw("StandardNormal", _get_graph_seed(seed, "randn"), shp).astype(npd))


@op("randn_like", family="random")
def randn_like(input, seed=None, *, dtype=None):
    """``ops.randn_like(input, seed=None, *, dtype=None)``: N(0, 1) samples of ``input``'s shape, Float32 by
    default whatever ``input``'s dtype (as MindSpore; ``rand_like`` keeps the input's dtype)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'randn_like', the 'input' must be a Tensor, but got {type(input)}")
    x = arr(input)
    npd = _float_dtype(mstype.float32 if dtype is None else dtype, "randn_like")
    return wrap(_rk.draw("StandardNormal", _get_graph_seed(seed, "randn_like"), x.shape).astype(npd))


@op("tensor_normal_", methods="normal_", family="random")
def _tensor_normal_(input, mean=0, std=1, *, generator=None):
    """``Tensor.normal_(mean=0, std=1, *, generator=None)``: fills the Tensor in place."""
    x = arr(input)
    dt = x.dtype if jnp.issubdtype(x.dtype, jnp.floating) else jnp.float32
    v = mean + std * jax.random.normal(_key(generator), x.shape, dt)
    _write_inplace(input, v.astype(x.dtype))
    return input


def _check_log_normal(mean=1.0, std=2.0):
    for name, v in (("mean", mean), ("std", std)):
        if not isinstance(v, float):
            raise TypeError(f"For 'LogNormalReverse', the type of '{name}' should be 'float', but got type "
                            f"'{type(v).__name__}'.")


@op("prim_log_normal_reverse", primitive="LogNormalReverse", prim_args=("mean", "std"), family="random",
    prim_check=_check_log_normal)
def _prim_log_normal_reverse(input, mean=1.0, std=2.0):
    """``ops.LogNormalReverse(mean=1.0, std=2.0)(input)``: ``exp(N(mean, std))`` numbers in ``input``'s shape
    and float dtype. MindSpore's CPU kernel seeds from ``std::random_device`` (not reproducible, even under
    ``set_seed``); msjax draws from its JAX key. MindSpore 2.10's PyNative keeps the mean and std of the
    process's first call for later ones; msjax uses each call's."""
    _check_log_normal(mean, std)
    x = arr(input)
    if x.dtype not in _FLOATS[:3]:
        raise TypeError("For primitive[LogNormalReverse], the input argument[x] must be a type of {Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{mstype.from_np(x.dtype)}].")
    dt = jnp.float64 if x.dtype == np.float64 else jnp.float32
    return wrap(jnp.exp(mean + std * jax.random.normal(_key(), x.shape, dt)).astype(x.dtype))


@op("tensor_log_normal", methods="log_normal", family="random")
def _tensor_log_normal(input, mean=1.0, std=2.0):
    """``Tensor.log_normal(mean=1.0, std=2.0)``: ``LogNormalReverse(mean, std)(input)``."""
    return _prim_log_normal_reverse(input, mean, std)


# ---------------------------------------------------------------------------
# discrete
# ---------------------------------------------------------------------------
_BERNOULLI_DTYPES = tuple(np.dtype(d) for d in (np.bool_, np.float32, np.float64, np.int16, np.int32, np.int64,
                                                np.int8, np.uint8))


@op("bernoulli", family="random")
def bernoulli(input, p=0.5, seed=None):
    """``ops.bernoulli(input, p=0.5, seed=None)``: 0/1 samples with probability ``p`` (a
    number or a Tensor), in the shape and dtype of ``input``. With a ``seed``, MindSpore's CPU
    ``Bernoulli`` kernel's numbers; without, MindSpore draws a seed from /dev/urandom (not
    reproducible) and msjax draws from its JAX key (reproducible under ``set_seed``)."""
    x = arr(input)
    if x.dtype not in _BERNOULLI_DTYPES:
        kinds = ", ".join(f"Tensor[{mstype.from_np(d)}]" for d in sorted(_BERNOULLI_DTYPES, key=lambda d: d.name))
        raise TypeError(f"For primitive[Bernoulli], the input argument[x] must be a type of {{{kinds}}}, but got "
                        f"Tensor[{mstype.from_np(x.dtype)}].")
    if isinstance(p, Tensor):
        pv = p._data.astype(jnp.float32)
    else:
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise TypeError(f"For bernoulli, p must be a float or a Tensor, but got {type(p).__name__}.")
        if not 0 <= p <= 1:
            raise ValueError(f"For bernoulli, p should be in [0, 1], but got {p}.")
        pv = jnp.float32(p)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"For 'bernoulli', the type of 'seed' must be 'int', but got '{type(seed).__name__}'.")
    if seed is None or seed == -1:     # MindSpore seeds this kernel from /dev/urandom, whatever the global seed
        return wrap(jax.random.bernoulli(_key(), pv, x.shape).astype(x.dtype))
    if seed < 0:
        raise ValueError(f"Seed must be -1 or a non-negative integer, but got {seed}.")
    return _kernel_bernoulli(x, p, pv, (seed, 0), ("functional",))


def _kernel_bernoulli(x, p, pv, seeds, tag):
    """The CPU ``Bernoulli`` kernel of a Primitive (``ops.bernoulli``'s cached one, ``tag`` tells them
    apart): Philox keyed by the seed, re-seeded at every launch (the words its last launch left unread
    come first), 1 where ``RandFloat() <= p``."""
    if isinstance(p, Tensor) and p._data.ndim and not (p._data.ndim == 1 and p._data.shape[0] == 1):
        if tuple(p._data.shape) != tuple(x.shape):
            raise ValueError("For bernoulli, the shape of p is different from the shape of x.")
        pv = p._data if p._data.dtype == np.float64 else pv
    else:
        pv = jnp.reshape(p._data if isinstance(p, Tensor) and p._data.dtype == np.float64 else pv, ())
    u = _rk.draw("Bernoulli", seeds, x.shape, primitive=True, signature=(str(x.dtype), np.shape(pv)) + tag)
    traced = any(isinstance(v, jax.core.Tracer) for v in (u, pv))
    xp = jnp if traced else np
    pv = xp.asarray(pv)
    return wrap(xp.where(xp.asarray(u).astype(pv.dtype) > pv, 0, 1).astype(x.dtype))


def _check_bernoulli(seed=-1, offset=0):
    for name, v in (("seed", seed), ("offset", offset)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For 'Bernoulli', the type of '{name}' must be 'int', but got '{type(v).__name__}'.")
    if seed != -1 and seed < 0:
        raise ValueError(f"Seed must be -1 or a non-negative integer, but got {seed}.")
    for key in [k for k in _rk._PRIM_ENGINES if k[:3] == ("Bernoulli", seed, 0) and k[-1] != "functional"]:
        del _rk._PRIM_ENGINES[key]


@op("prim_bernoulli", primitive="Bernoulli", prim_args=("seed", "offset"), family="random", prim_check=_check_bernoulli)
def _prim_bernoulli(x, p, seed=-1, offset=0):
    """``ops.Bernoulli(seed=-1, offset=0)(x, p)``: 0/1 in the shape and dtype of ``x``, the CPU kernel's
    (Philox keyed by ``seed``; MindSpore's CPU kernel ignores ``offset``); seed -1 draws a random seed in
    MindSpore, from msjax's JAX key here."""
    xa = arr(x)
    if not isinstance(p, Tensor):
        raise TypeError(f"For primitive[Bernoulli], the input argument[p] must be a Tensor, but got {type(p).__name__}.")
    pv = p._data if p._data.dtype == np.float64 else p._data.astype(jnp.float32)
    if np.size(pv) == 0:
        raise ValueError("For 'Bernoulli', p can't be empty.")
    if seed == -1:
        return wrap(jax.random.bernoulli(_key(), jnp.reshape(pv, () if np.size(pv) == 1 else xa.shape),
                                         xa.shape).astype(xa.dtype))
    return _kernel_bernoulli(xa, p, pv, (seed, 0), ())


@op("tensor_bernoulli", methods="bernoulli", family="random")
def _tensor_bernoulli(input, *, generator=None):
    """``Tensor.bernoulli(*, generator=None)``: 0/1 samples with the probabilities held in ``input``."""
    x = arr(input)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"For 'bernoulli', the input must be a float Tensor, but got {mstype.from_np(x.dtype)}.")
    return wrap(jax.random.bernoulli(_key(generator), x.astype(jnp.float32), x.shape).astype(x.dtype))


def _multinomial_checks(x, num_samples, replacement):
    if x.ndim not in (1, 2):
        raise ValueError(f"For 'multinomial', the rank of 'input' must be 1 or 2, but got {x.ndim}.")
    if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples <= 0:
        raise ValueError(f"For 'multinomial', 'num_samples' must be a positive int, but got {num_samples}.")
    if not replacement and num_samples > x.shape[-1]:
        raise ValueError("For 'multinomial', the 'num_samples' must be less than the last dimension of input "
                         f"without 'replacement', but got 'num_samples': {num_samples} and 'replacement': False")


def _multinomial(x, num_samples, replacement, npd=np.int32):
    _multinomial_checks(x, num_samples, replacement)
    p = x.astype(jnp.float32)
    logits = jnp.where(p > 0, jnp.log(jnp.where(p > 0, p, 1.0)), -jnp.inf)
    key = _key()
    batch = logits.shape[:-1]
    if replacement:
        out = jax.random.categorical(key, logits, axis=-1, shape=(num_samples,) + batch)
        out = jnp.moveaxis(out, 0, -1)
    else:
        g = jax.random.gumbel(key, logits.shape, jnp.float32)
        out = jnp.argsort(-(logits + g), axis=-1)[..., :num_samples]
    return wrap(out.astype(npd))


def key_multinomial(input, num_samples, replacement):
    """``ops.multinomial``'s draws from the global JAX key (``mint.multinomial``: the default generator)."""
    return _multinomial(arr(input), num_samples, replacement)


def _kernel_multinomial(x, num_samples, seeds, npd=np.int32, primitive=False):
    """MindSpore's CPU ``Multinomial`` kernel: per row, Float32 uniforms of its ``minstd_rand0``
    engine (``uniform_real_distribution<float>``, the numbers the Dropout kernel draws) looked up in
    the row's normalised running sum (the first entry above the number)."""
    rows = x.shape[0] if x.ndim == 2 else 1
    u = _rk.draw("Dropout", seeds, (rows, num_samples), primitive=primitive)
    traced = isinstance(x, jax.core.Tracer) or isinstance(u, jax.core.Tracer)
    xp = jnp if traced else np
    cum = xp.cumsum(xp.asarray(x).reshape(rows, -1), axis=-1)          # the running sum, in the input's dtype
    total = cum[:, -1:]
    cum = cum / xp.where(total != 0, total, xp.ones((), cum.dtype))
    u = xp.asarray(u).astype(cum.dtype)
    if traced:
        out = jax.vmap(lambda c, r: jnp.searchsorted(c, r, side="right"))(cum[:, :-1], u)
    else:
        out = np.stack([np.searchsorted(c, r, side="right") for c, r in zip(cum[:, :-1], u)])
    return wrap(out.reshape(x.shape[:-1] + (num_samples,)).astype(npd))


@op("multinomial", methods="multinomial", family="random")
def multinomial(input, num_samples, replacement=True, seed=None):
    """``ops.multinomial(input, num_samples, replacement=True, seed=None)``: Int32 indices
    drawn with the (unnormalized) weights of the last axis of ``input`` (1-D or 2-D), as MindSpore's
    CPU kernels draw them: with replacement the ``Multinomial`` kernel; without, MindSpore's
    ``top_k(log(u) / (input + 1e-6))`` of ``UniformReal`` numbers ``u``."""
    x = arr(input)
    _multinomial_checks(x, num_samples, replacement)
    seeds = _get_graph_seed(seed, "multinomial")
    if replacement:
        return _kernel_multinomial(x, num_samples, seeds)
    u = _rk.draw("UniformReal", seeds, (x.size,)).reshape(x.shape)
    if isinstance(u, jax.core.Tracer) or isinstance(x, jax.core.Tracer):
        vals = _rk.logf(jnp, u) / (x.astype(jnp.float32) + jnp.float32(1e-6))
        return wrap(jax.lax.top_k(vals, num_samples)[1].astype(np.int32))
    vals = _rk.logf(np, u) / (np.asarray(x, np.float32) + np.float32(1e-6))
    return wrap(np.argsort(-vals, axis=-1, kind="stable")[..., :num_samples].astype(np.int32))   # top_k


def _new_multinomial_kernel(seed=0, seed2=0, dtype=mstype.int32):
    _rk.forget_primitive("Dropout", seed, seed2)


@op("prim_multinomial", primitive="Multinomial", prim_args=("seed", "seed2", "dtype"), family="random",
    prim_check=_new_multinomial_kernel)
def _prim_multinomial(x, num_samples, seed=0, seed2=0, dtype=mstype.int32):
    if isinstance(num_samples, Tensor):
        num_samples = int(num_samples._data)
    xa = arr(x)
    _multinomial_checks(xa, num_samples, True)
    return _kernel_multinomial(xa, num_samples, (seed, seed2), mstype.to_np(dtype), primitive=True)


@op("random_categorical", methods="random_categorical", family="random")
def random_categorical(logits, num_sample, seed=0, dtype=mstype.int64):
    """``ops.random_categorical(logits, num_sample, seed=0, dtype=mindspore.int64)``:
    ``(batch, num_sample)`` class indices drawn from 2-D ``logits``, as the CPU ``RandomCategorical``
    kernel draws them (a fresh kernel per call: its ``minstd_rand0`` seeded with
    ``random::GetSeed(0, seed)``; ``seed=0`` is a random seed, in MindSpore too)."""
    return _categorical(logits, num_sample, seed, dtype, primitive=False)


def _categorical(logits, num_sample, seed, dtype, primitive):
    lg = arr(logits)
    if lg.ndim != 2:
        raise ValueError(f"For 'random_categorical', 'logits' must be 2-D, but got {lg.ndim}-D.")
    if isinstance(seed, bool) or not isinstance(seed, int):
        kind = "Float32" if isinstance(seed, float) else type(seed).__name__
        raise TypeError("For primitive[RandomCategorical], the input argument[seed] must be a type of {Int32, Int64}, "
                        f"but got {kind}.")
    u = _rk.draw("Categorical", (0, int(seed)), (int(num_sample),), primitive=primitive)
    traced = isinstance(lg, jax.core.Tracer) or isinstance(u, jax.core.Tracer)
    xp = jnp if traced else np
    lg = xp.asarray(lg)
    d = (lg - lg.max(axis=1, keepdims=True)).astype(xp.float32)
    e = xp.exp(d.astype(xp.float64)).astype(xp.float32).astype(lg.dtype)    # expf, correctly rounded
    if traced:      # the kernel's running sum, one class after another
        cdf = jax.lax.scan(lambda c, v: (c + v, c + v), jnp.zeros(e.shape[0], e.dtype), e.T)[1].T
        find = cdf[:, -1:] * jnp.asarray(u).astype(lg.dtype)[None, :]
        out = jax.vmap(lambda c, f: jnp.searchsorted(c, f, side="left"))(cdf, find)
    else:
        cdf = np.cumsum(e, axis=1, dtype=e.dtype)
        find = cdf[:, -1:] * np.asarray(u).astype(lg.dtype)[None, :]
        out = np.stack([np.searchsorted(c, f, side="left") for c, f in zip(cdf, find)])
    return wrap(xp.minimum(out, lg.shape[1] - 1).astype(mstype.to_np(dtype)))


@op("randperm", family="random")
def randperm(n, seed=0, offset=0, dtype=mstype.int64):
    """``ops.randperm(n, seed=0, offset=0, dtype=mindspore.int64)``: a permutation of ``range(n)``, MindSpore's
    CPU ``RandpermV2`` kernel's: ``std::shuffle`` over ``std::mt19937(offset or seed)``, re-seeded at every call,
    so the same arguments give the same permutation (the global seed plays no part)."""
    n, seed, offset = (int(v._data) if isinstance(v, Tensor) else v for v in (n, seed, offset))
    if n < 0:
        raise ValueError(f"For 'randperm', 'n' must be non-negative, but got {n}.")
    return wrap(_rk.randperm_v2(n, seed, offset).astype(mstype.to_np(dtype)))


def key_permutation(n, npd=np.int64):
    """A permutation of ``range(n)`` from the global JAX key (``mint.randperm``: the default generator)."""
    return wrap(jax.random.permutation(_key(), n).astype(npd))


@op("shuffle", family="random")
def shuffle(x, seed=None):
    """``ops.shuffle(x, seed=None)``: ``x`` with its first axis randomly permuted, MindSpore's CPU
    ``RandomShuffle`` kernel's permutation (``std::shuffle`` over ``minstd_rand0``): a fresh kernel per
    call in PyNative; inside compiled graphs a host callback whose engine the graph's node keeps from
    run to run, as MindSpore's kernel does."""
    a = arr(x)
    seeds = _get_graph_seed(seed, "shuffle")
    if a.ndim == 0:
        return wrap(a)
    n = a.shape[0]
    if not (state.compiled() and state.in_transform()):
        if _rk.foreign_trace():                  # a trace msjax does not own: the JAX key
            return wrap(jax.random.permutation(_key(), a, axis=0, independent=False))
        perm = _rk.shuffle_permutation(seeds, n)              # a fresh kernel per call
        return wrap(a[perm] if isinstance(a, jax.core.Tracer) else np.asarray(a)[perm])

    def host(engine):
        perm, new = _rk._minstd_shuffle(int(np.asarray(engine).reshape(-1)[0]), n)
        return perm, np.array([new], np.int64)

    def step(engine):
        return jax.pure_callback(host, (jax.ShapeDtypeStruct((n,), jnp.int64),
                                        jax.ShapeDtypeStruct((1,), jnp.int64)), engine)
    return wrap(a[_rk.run_kernel("Shuffle", seeds, step, (tuple(a.shape), str(a.dtype)))])


_CHOICE_MAX_OUTPUT = (2 ** 31 - 1) // 4     # MindSpore's CPU kernel: count * rank Int32 values in INT_MAX bytes


def _choice_checks(x, count):
    if x.dtype != np.bool_:
        raise TypeError("For primitive[RandomChoiceWithMask], the input argument[input_x] must be a type of "
                        f"{{Tensor[Bool]}}, but got Tensor[{mstype.from_np(x.dtype)}].")
    if not 1 <= x.ndim <= 5:
        raise ValueError(f"For 'RandomChoiceWithMask', the rank of 'input_x' must be in [1, 5], but got {x.ndim}.")
    if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
        raise ValueError(f"For 'RandomChoiceWithMask', the 'count' must be int and must > 0, but got '{count}' with "
                         f"type '{type(count).__name__}'.")
    if count * max(x.ndim, 1) > _CHOICE_MAX_OUTPUT:
        # the kernel's check of its (count, rank) Int32 output, before msjax allocates it
        raise RuntimeError("For 'RandomChoiceWithMask', output length is out of range.")


def _choice(x, count, seeds, primitive):
    """The CPU ``RandomChoiceWithMask`` kernel (``random_kernels.choice_with_mask``, host code): in
    compiled graphs a host callback whose engine lives in the graph's kernel table."""
    shapes = (jax.ShapeDtypeStruct((count, x.ndim), jnp.int32), jax.ShapeDtypeStruct((count,), jnp.bool_),
              jax.ShapeDtypeStruct((1,), jnp.int64))

    def step(engine):
        if isinstance(x, jax.core.Tracer) or isinstance(engine, jax.core.Tracer):
            coords, mask, new = jax.pure_callback(lambda a, e: _rk.choice_with_mask(a, count, e), shapes, x, engine)
        else:
            coords, mask, new = _rk.choice_with_mask(x, count, engine)
        return (coords, mask), new
    coords, mask = _rk.run_kernel("ChoiceWithMask", seeds, step, (tuple(x.shape), count), primitive,
                                  lambda: _key_choice(x, count))
    return wrap(coords), wrap(mask)


def _key_choice(x, count):
    """``count`` True elements of ``x`` in an order from the JAX key (traces msjax does not own)."""
    flat = jnp.ravel(x)
    n = flat.size
    order = jnp.argsort(jnp.where(flat, jax.random.uniform(_key(), (n,), jnp.float32), 2.0))
    k = min(count, n)
    pick, valid = order[:k], flat[order[:k]]
    coords = jnp.where(valid[:, None], jnp.stack(jnp.unravel_index(pick, x.shape), axis=-1).astype(jnp.int32), 0)
    if count > n:
        coords = jnp.concatenate([coords, jnp.zeros((count - n, x.ndim), jnp.int32)])
        valid = jnp.concatenate([valid, jnp.zeros((count - n,), jnp.bool_)])
    return coords, valid


@op("prim_random_choice_with_mask", primitive="RandomChoiceWithMask", prim_args=("count", "seed", "seed2"),
    family="random", prim_check=lambda count=256, seed=0, seed2=0: _rk.forget_primitive("ChoiceWithMask", seed, seed2))
def _prim_random_choice_with_mask(input_x, count=256, seed=0, seed2=0):
    """``ops.RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x)``: ``count`` randomly
    chosen indices (Int32, ``(count, rank)``) of the True elements of a Bool tensor, and a
    Bool mask saying which rows are real (the rest are zeros): the CPU kernel's choice
    (``std::shuffle`` over its ``minstd_rand0``, kept from call to call)."""
    x = arr(input_x)
    _choice_checks(x, count)
    return _choice(x, count, (seed, seed2), primitive=True)


@op("choice_with_mask", family="random")
def choice_with_mask(input_x, count=256, seed=None):
    """``ops.choice_with_mask(input_x, count=256, seed=None)``: ``RandomChoiceWithMask`` with the seeds
    of ``_get_graph_seed(seed, "choice_with_mask")`` (a fresh kernel per call in PyNative)."""
    x = arr(input_x)
    _choice_checks(x, count)
    return _choice(x, count, _get_graph_seed(seed, "choice_with_mask"), primitive=False)


def _check_truncated_normal(dtype=mstype.float32, seed=0, seed2=0):
    if mstype.to_np(dtype) not in _FLOATS[:3]:
        raise TypeError(f"For 'TruncatedNormal', the 'dtype' must be float16, float32 or float64, but got {dtype}.")
    _rk.forget_primitive("TruncatedNormal", seed, seed2)


@op("prim_truncated_normal", primitive="TruncatedNormal", prim_args=("dtype", "seed", "seed2"), family="random",
    prim_check=_check_truncated_normal)
def _prim_truncated_normal(shape, dtype=mstype.float32, seed=0, seed2=0):
    """``ops.TruncatedNormal(dtype=mindspore.float32, seed=0, seed2=0)(shape)``: N(0, 1) numbers within
    [-2, 2], the CPU kernel's (``minstd_rand0`` seeded with ``GetSeed(seed, seed2)``, kept from call to
    call; ``normal_distribution<double>``, numbers outside dropped), cast to ``dtype``."""
    if not isinstance(shape, Tensor) or shape._data.dtype not in (np.int32, np.int64) or shape._data.ndim != 1:
        raise TypeError("For 'TruncatedNormal', the input 'shape' must be a 1-D Tensor of Int32 or Int64.")
    if shape._data.shape[0] < 2:
        raise ValueError(f"For 'TruncatedNormal', the input tensor shape must >= 2, but got {shape._data.shape[0]}")
    shp = tuple(int(v) for v in np.asarray(shape._data))
    if any(d <= 0 for d in shp):
        raise ValueError("Each dimension must be greater than zero.")
    vals = _rk.draw("TruncatedNormal", (seed, seed2), shp, primitive=True)
    return wrap(vals.astype(mstype.to_np(dtype)))


def _multinomial_wr(x, seed, offset, numsamples, replacement, primitive):
    """The CPU ``MultinomialWithReplacement`` kernel (``random_kernels.multinomial_with_replacement``,
    host code; a host callback in compiled graphs, its leftover Philox words in the kernel table)."""
    xa = arr(x)
    if xa.ndim not in (1, 2):
        raise ValueError(f"For 'MultinomialWithReplacement', the dimension of 'x' must be 1 or 2, but got {xa.ndim}.")
    if isinstance(numsamples, bool) or not isinstance(numsamples, int) or numsamples <= 0:
        raise ValueError(f"For 'MultinomialWithReplacement', 'numsamples' should be a nonnegative number, but got "
                         f"{numsamples}.")
    if not replacement and numsamples > xa.shape[-1]:
        raise ValueError("For 'MultinomialWithReplacement', 'numsamples' must be less than or equal to the last "
                         f"dimension of 'x' without replacement, but got {numsamples} and {xa.shape[-1]}.")
    sd, of = (v._data if isinstance(v, Tensor) else np.int64(v) for v in (seed, offset))
    out_shape = tuple(xa.shape[:-1]) + (numsamples,)

    def host(a, s, o, engine):
        a = np.asarray(a)
        if (a < 0).any():
            raise ValueError("For 'MultinomialWithReplacement' , each element of 'x' must be equal or greater than 0. ")
        if (a.reshape(-1, a.shape[-1]).astype(np.float64).sum(axis=1) <= 0).any():
            raise ValueError("For 'MultinomialWithReplacement' , the sum of each row of 'x' must be greater than 0. ")
        return _rk.multinomial_with_replacement(a, numsamples, replacement, int(s), int(o), engine)

    def step(engine):
        if any(isinstance(v, jax.core.Tracer) for v in (xa, sd, of, engine)):
            return jax.pure_callback(host, (jax.ShapeDtypeStruct(out_shape, jnp.int64),
                                            jax.ShapeDtypeStruct((8,), jnp.int64)), xa, sd, of, engine)
        return host(xa, sd, of, engine)
    return wrap(_rk.run_kernel("MultinomialWR", (0, 0), step, (out_shape, bool(replacement), str(xa.dtype)), primitive,
                               lambda: _multinomial(xa, numsamples, replacement, np.int64)._data))


@op("multinomial_with_replacement", family="random")
def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """``ops.multinomial_with_replacement(x, seed, offset, numsamples, replacement=False)``: Int64 indices
    drawn from the weights of each row, MindSpore's CPU kernel's (Philox(seed, offset); a fresh kernel
    per call; seed and offset both 0 draw a random seed)."""
    for name, v in (("seed", seed), ("offset", offset)):
        if not isinstance(v, Tensor) and (isinstance(v, bool) or not isinstance(v, int)):
            raise TypeError(f"For multinomial_with_replacement, the input[{name}] must be int, but got {type(v)}.")
    return _multinomial_wr(x, seed, offset, numsamples, replacement, primitive=False)


@op("prim_multinomial_with_replacement", primitive="MultinomialWithReplacement",
    prim_args=("numsamples", "replacement"), family="random")
def _prim_multinomial_with_replacement(x, seed, offset, numsamples=1, replacement=False):
    """``ops.MultinomialWithReplacement(numsamples=1, replacement=False)(x, seed, offset)``: the kernel
    kept from call to call (its Philox stream goes on while ``seed`` and ``offset`` stay the same; new
    ones make the generator again, after the rest of the block it was reading)."""
    return _multinomial_wr(x, seed, offset, numsamples, replacement, primitive=True)


# ---------------------------------------------------------------------------
# Poisson
# ---------------------------------------------------------------------------
_POISSON_OUT = tuple(np.dtype(d) for d in (np.float16, np.float32, np.float64, np.int32, np.int64))


def _poisson(shape, rate, seeds, dtype, primitive):
    """The CPU ``RandomPoisson`` kernel (``random_kernels.poisson``, host code; a host callback in
    compiled graphs): ``shape + rate.shape`` samples."""
    if not isinstance(shape, Tensor) or shape._data.dtype not in (np.int32, np.int64):
        got = f"Tensor[{shape.dtype}]" if isinstance(shape, Tensor) else f"Tuple[Int64]" if isinstance(shape, tuple) \
            else type(shape).__name__
        raise TypeError(f"For primitive[RandomPoisson], the input argument[shape] must be a type of {{Int32, Int64}}, "
                        f"but got {got}.")
    if not isinstance(rate, Tensor):
        raise TypeError(f"For primitive[RandomPoisson], the input argument[rate] must be a Tensor, but got "
                        f"{type(rate).__name__}.")
    npd = mstype.to_np(dtype)
    if npd not in _POISSON_OUT:
        raise TypeError(f"For 'RandomPoisson', the 'dtype' must be one of Float16, Float32, Float64, Int32, Int64, "
                        f"but got {dtype}.")
    shp = tuple(int(v) for v in np.asarray(shape._data).reshape(-1))
    rates = rate._data
    out_shape = shp + tuple(rates.shape)
    per_rate = int(np.prod(shp, dtype=np.int64))
    integer = jnp.issubdtype(npd, jnp.integer)

    def host(r, engine):
        vals, new = _rk.poisson(np.asarray(r, np.float64).reshape(-1), per_rate, engine, integer)
        return vals.astype(npd).reshape(out_shape), new

    def step(engine):
        if isinstance(rates, jax.core.Tracer) or isinstance(engine, jax.core.Tracer):
            return jax.pure_callback(host, (jax.ShapeDtypeStruct(out_shape, npd),
                                            jax.ShapeDtypeStruct((_rk.MT_WORDS,), jnp.int64)), rates, engine)
        return host(rates, engine)
    return wrap(_rk.run_kernel("Poisson", seeds, step, (out_shape, str(npd)), primitive,
                               lambda: jax.random.poisson(_key(), rates, out_shape).astype(npd)))


@op("random_poisson", family="random")
def random_poisson(shape, rate, seed=None, dtype=mstype.float32):
    """``ops.random_poisson(shape, rate, seed=None, dtype=mindspore.float32)``: Poisson samples of each
    rate, shape ``shape + rate.shape``, MindSpore's CPU ``RandomPoisson`` kernel's (``std::mt19937``;
    a fresh kernel per call in PyNative)."""
    return _poisson(shape, rate, _get_graph_seed(seed, "random_poisson"), dtype, primitive=False)


@op("prim_random_poisson", primitive="RandomPoisson", prim_args=("seed", "seed2", "dtype"), family="random",
    prim_check=lambda seed=0, seed2=0, dtype=mstype.int64: _rk.forget_primitive("Poisson", seed, seed2))
def _prim_random_poisson(shape, rate, seed=0, seed2=0, dtype=mstype.int64):
    """``ops.RandomPoisson(seed=0, seed2=0, dtype=mindspore.int64)(shape, rate)``: the kernel kept from
    call to call."""
    return _poisson(shape, rate, (seed, seed2), dtype, primitive=True)


# ---------------------------------------------------------------------------
# Laplace
# ---------------------------------------------------------------------------
@op("prim_standard_laplace", primitive="StandardLaplace", prim_args=("seed", "seed2"), family="random",
    prim_check=_new_kernel("StandardLaplace"))
def _prim_standard_laplace(shape, seed=0, seed2=0):
    """``ops.StandardLaplace(seed=0, seed2=0)(shape)``: Float32 Laplace(0, 1) numbers, the CPU kernel's
    (``minstd_rand0`` seeded with ``random::GetSeed(seed, seed2)``, kept from call to call)."""
    return wrap(_rk.draw("StandardLaplace", (seed, seed2), _shape(shape, "StandardLaplace"), primitive=True))


@op("standard_laplace", family="random")
def standard_laplace(shape, seed=None):
    """``ops.standard_laplace(shape, seed=None)``: ``StandardLaplace`` with the seeds of
    ``_get_graph_seed(seed, "standard_laplace")``."""
    return wrap(_rk.draw("StandardLaplace", _get_graph_seed(seed, "standard_laplace"), _shape(shape, "standard_laplace")))


@op("laplace", family="random")
def laplace(shape, mean, lambda_param, seed=None):
    """``ops.laplace(shape, mean, lambda_param, seed=None)``: ``StandardLaplace`` numbers times
    ``lambda_param`` plus ``mean`` (Float32 Tensors), MindSpore's CPU kernel's."""
    for v in (mean, lambda_param):
        if not isinstance(v, Tensor):
            raise TypeError(f"For 'laplace', the input must be a Tensor, but got {type(v).__name__}.")
        if v._data.dtype != np.float32:
            raise TypeError("For 'laplace', the value data type 'Float32' is not consistent with assigned tensor "
                            f"data type {v.dtype}.")
    rnd = _rk.draw("StandardLaplace", _get_graph_seed(seed, "laplace"), _shape(shape, "laplace"))
    lam, mean = lambda_param._data, mean._data
    if not any(isinstance(v, jax.core.Tracer) for v in (rnd, lam, mean)):
        return wrap(np.asarray(rnd) * np.asarray(lam) + np.asarray(mean))
    # MindSpore's Mul then Add, each rounded to Float32 (a compiled graph must not fuse them): the
    # product of two Float32 numbers is exact in Float64
    prod = _rk.round_f32(jnp.asarray(rnd).astype(jnp.float64) * jnp.asarray(lam).astype(jnp.float64))
    return wrap(prod.astype(jnp.float32) + mean)


__all__ = ["uniform", "normal", "standard_normal", "randn", "rand", "rand_like", "randn_like", "randint",
           "randint_like", "bernoulli", "multinomial", "random_categorical", "randperm", "shuffle", "choice_with_mask",
           "laplace", "standard_laplace", "random_poisson", "multinomial_with_replacement"]


def _check_random_categorical(dtype=mstype.int64):
    if dtype not in (mstype.int16, mstype.int32, mstype.int64):
        raise TypeError(f"For 'RandomCategorical', the 'dtype' should be one of Int16, Int32, Int64, but got {dtype}.")


@op("prim_random_categorical", primitive="RandomCategorical", prim_args=("dtype",), family="random",
    prim_check=_check_random_categorical)
def prim_random_categorical(logits, num_sample, seed=0, dtype=mstype.int64):
    """``ops.RandomCategorical(dtype=mindspore.int64)(logits, num_sample, seed=0)``: ``ops.random_categorical``."""
    _check_random_categorical(dtype)
    for name, v in (("num_sample", num_sample), ("seed", seed)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"For 'RandomCategorical', the '{name}' must be an int, but got {type(v).__name__}.")
    return _categorical(logits, num_sample, seed, dtype, primitive=True)


_RANDPERM_TYPES = ("Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Float16", "Float32",
                   "Float64")


def _check_randperm(max_length=1, pad=-1, dtype=mstype.int32):
    for name, v in (("pad", pad), ("max_length", max_length)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"For 'Randperm', the '{name}' must be an int, but got {type(v).__name__}.")
    if max_length < 1:
        raise ValueError(f"For 'Randperm', the 'max_length' must be greater than or equal to 1, but got {max_length}.")
    if str(dtype) not in _RANDPERM_TYPES:
        raise TypeError(f"For 'Randperm', the 'dtype' is not supported: {dtype}.")


@op("prim_randperm", primitive="Randperm", prim_args=("max_length", "pad", "dtype"), family="random",
    prim_check=_check_randperm)
def prim_randperm(n, max_length=1, pad=-1, dtype=mstype.int32):
    """``ops.Randperm(max_length=1, pad=-1, dtype=mindspore.int32)(n)``: ``(max_length,)``, a random
    permutation of ``range(n)`` followed by ``pad`` (``n`` a Tensor of shape ``(1,)``, ``0 <= n <= max_length``;
    it may be a traced value inside a compiled graph). MindSpore runs it on Ascend and GPU only."""
    _check_randperm(max_length, pad, dtype)
    if not isinstance(n, Tensor):
        raise TypeError(f"For 'Randperm', the 'n' must be a Tensor, but got {type(n).__name__}.")
    na = n._data
    if not jnp.issubdtype(na.dtype, jnp.integer):
        raise TypeError(f"For 'Randperm', the 'n' must be an int Tensor, but got {na.dtype}.")
    count = na.reshape(-1)[0]
    if not isinstance(count, jax.core.Tracer) and not 0 <= int(count) <= max_length:
        raise ValueError(f"For 'Randperm', the 'n' must be in [0, {max_length}], but got {int(count)}.")
    return wrap(_padded_permutation(_key(), count, max_length, pad, mstype.to_np(dtype)))


@functools.partial(jax.jit, static_argnums=(2, 3, 4))
def _padded_permutation(key, count, max_length, pad, dtype):
    pos = jnp.arange(max_length)
    keys = jnp.where(pos < count, jax.random.uniform(key, (max_length,)), 2.0)
    return jnp.where(pos < count, jnp.argsort(keys), pad).astype(dtype)
