"""MindSpore 2.10's CPU candidate samplers and the ``RandpermV2``/``NonDeterministicInts`` Primitives.

* ``UniformCandidateSampler`` (``ops.uniform_candidate_sampler``): ``std::default_random_engine``
  (``minstd_rand0``) seeded with ``random::GetSeed(seed, 0)`` when the kernel is built (seed 0: a
  random seed), read by ``uniform_int_distribution<T>(0, range_max - 1)`` (libstdc++'s downscaling);
  with ``unique`` a draw already taken (or, with ``remove_accidental_hits``, one of the true classes)
  is drawn again. The expected counts are ``num_sampled / range_max`` when no draw was repeated, else
  ``-expm1(tries * log1p(-1 / range_max))``, in Float32 (glibc's ``log1pf``/``expm1f``).
* ``LogUniformCandidateSampler`` (``ops.log_uniform_candidate_sampler``): Philox4x32-10 keyed by
  87654321 with the op's ``seed`` as counter offset (so seed 0 is not random), ``2048 * num_sampled``
  words reserved per launch; a sample is ``int64(exp(u * log1p(range_max))) - 1`` modulo
  ``range_max`` for a double ``u`` made of two words; probabilities in double, the counts in Float32.

Both are host code (sequential rejection loops); inside compiled graphs they run as host callbacks
whose engines live in the graph's kernel table (``random_kernels.run_kernel``), kept from run to run
as MindSpore's graph kernels keep theirs. A Primitive instance keeps its engine from call to call in
PyNative; the functional forms build a new kernel per call.

``NonDeterministicInts`` draws from ``/dev/urandom`` in MindSpore: msjax draws from the OS too (inside
compiled steps from its JAX key, new numbers at every run); shape, dtype and range as MindSpore's, the
numbers reproducible in neither. ``RandpermV2`` is the
kernel ``ops.randperm`` runs.
"""
from __future__ import annotations

import os

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor
from . import random_kernels as _rk
from ._util import wrap

_MINSTD = 2 ** 31 - 1
_LOG_KEY = 87654321              # LogUniformCandidateSampler's Philox key (its seed is the offset)


# ---------------------------------------------------------------------------
# engines as host word sources
# ---------------------------------------------------------------------------
class _Minstd:
    """``minstd_rand0`` from state ``x``: numbers less its minimum (1), a block at a time; ``last`` is the
    engine's state after the numbers read so far."""

    def __init__(self, x):
        self.last, self.buf, self.pos = int(x), [], 0

    def __call__(self):
        if self.pos == len(self.buf):
            self.buf, self.pos = _rk._minstd(np, np.uint64(self.last), 256).astype(np.int64).tolist(), 0
        self.last = self.buf[self.pos]
        self.pos += 1
        return self.last - 1


def _expected_count(p, num_sampled, tries):
    """``p * num_sampled`` when ``tries == num_sampled``, else ``-expm1(tries * log1p(-p))``, in Float32."""
    p = np.float32(p)
    if tries == num_sampled:
        return np.float32(p * np.float32(num_sampled))
    log1pf, expm1f = _rk.libm_float("log1pf"), _rk.libm_float("expm1f")
    return np.float32(-expm1f(float(np.float32(np.float32(tries) * np.float32(log1pf(float(-p)))))))


# ---------------------------------------------------------------------------
# UniformCandidateSampler
# ---------------------------------------------------------------------------
def uniform_candidates(true_classes, num_sampled, unique, range_max, remove_hits, engine):
    """One launch of the CPU ``UniformCandidateSampler`` kernel: (candidates, true expected counts,
    sampled expected counts, new engine)."""
    tc = np.asarray(true_classes)
    word = _Minstd(np.asarray(engine).reshape(-1)[0])
    hits = set(tc.reshape(-1).tolist()) if remove_hits else set()
    if remove_hits and num_sampled + len(hits) > range_max:       # the kernel warns and stops removing
        hits = set()
    out = np.zeros(num_sampled, tc.dtype)
    tries = 0
    if not unique:
        for i in range(num_sampled):
            out[i] = _rk.uniform_below(word, range_max - 1, _MINSTD - 2)
        tries = num_sampled
    else:
        taken, picked = set(), 0
        while picked < num_sampled:
            v = _rk.uniform_below(word, range_max - 1, _MINSTD - 2)
            tries += 1
            if v not in taken and v not in hits:
                taken.add(v)
                out[picked] = v
                picked += 1
    value = _expected_count(np.float32(1.0) / np.float32(range_max), num_sampled, tries)
    return (out, np.full(tc.shape, value, np.float32), np.full(num_sampled, value, np.float32),
            np.array([word.last], np.int64))


def _sampler_inputs(prim, x, num_true, dtypes):
    if not isinstance(x, Tensor):
        raise TypeError(f"For primitive[{prim}], the input argument[true_classes] must be a Tensor, but got "
                        f"{type(x).__name__}.")
    a = x._data
    if a.dtype not in dtypes:
        want = ", ".join(f"Tensor[{mstype.from_np(d)}]" for d in dtypes)
        raise TypeError(f"For primitive[{prim}], the input argument[true_classes] must be a type of {{{want}}}, but "
                        f"got Tensor[{mstype.from_np(a.dtype)}].")
    if a.ndim != 2:
        raise ValueError(f"For '{prim}', the dimension of input 'true_classes' must be 2, but got {a.ndim}")
    if a.shape[1] != num_true:
        raise ValueError(f"For primitive[{prim}], the num_true must be equal to {a.shape[1]}, but got {num_true}.")
    return a


def _run_sampler(kind, seeds, a, num_sampled, host, primitive):
    """Run a sampler kernel (host code; a host callback in compiled graphs)."""
    shapes = (jax.ShapeDtypeStruct((num_sampled,), a.dtype), jax.ShapeDtypeStruct(a.shape, jnp.float32),
              jax.ShapeDtypeStruct((num_sampled,), jnp.float32), jax.ShapeDtypeStruct((1,), jnp.int64))

    def step(engine):
        if isinstance(a, jax.core.Tracer) or isinstance(engine, jax.core.Tracer):
            *vals, new = jax.pure_callback(host, shapes, a, engine)
        else:
            *vals, new = host(a, engine)
        return tuple(vals), new

    def fallback():
        raise RuntimeError(f"msjax's {kind} runs inside msjax's compiled graphs and PyNative, not inside other "
                           "JAX traces (its engine lives in msjax's kernel table).")
    vals = _rk.run_kernel(kind, seeds, step, (tuple(a.shape), str(a.dtype)), primitive, fallback)
    return tuple(wrap(v) for v in vals)


def _type(prim, name, v, types):
    if not isinstance(v, types) or (isinstance(v, bool) and types is int):
        tname = "bool" if types is bool else "int"
        raise TypeError(f"For '{prim}', the type of '{name}' should be '{tname}', but got type "
                        f"'{type(v).__name__}'.")


def _check_ucs(num_true, num_sampled, unique, range_max, seed=0, remove_accidental_hits=False):
    prim = "UniformCandidateSampler"
    for name, v, t in (("num_true", num_true, int), ("num_sampled", num_sampled, int), ("unique", unique, bool),
                       ("range_max", range_max, int), ("seed", seed, int),
                       ("remove_accidental_hits", remove_accidental_hits, bool)):
        _type(prim, name, v, t)
    for name, v in (("num_true", num_true), ("num_sampled", num_sampled), ("range_max", range_max)):
        if v <= 0:
            raise ValueError(f"For '{prim}', the value of {name} should be > : 0, but got {v}.")
    if unique and num_sampled > range_max:
        raise ValueError(f"For '{prim}', the value of num_sampled should be <= value of range_max: {range_max}, but "
                         f"got {num_sampled}.")
    if seed < 0:
        raise ValueError(f"For '{prim}', the value of seed should be >= : 0, but got {seed}.")
    _rk.forget_primitive("CandidateSampler", seed, 0)


def _ucs(true_classes, num_true, num_sampled, unique, range_max, seed, remove_accidental_hits, primitive):
    a = _sampler_inputs("UniformCandidateSampler", true_classes, num_true, (np.dtype(np.int32), np.dtype(np.int64)))
    if a.dtype == np.int32 and range_max > 2 ** 31 - 1:
        raise ValueError(f"For 'UniformCandidateSampler', 'range_max' can not exceed the range of int32, but got "
                         f"{range_max}. The input data type should be changed to int64.")

    def host(x, engine):
        return uniform_candidates(x, num_sampled, unique, range_max, remove_accidental_hits, engine)
    return _run_sampler("CandidateSampler", (seed, 0), a, num_sampled, host, primitive)


@op("prim_uniform_candidate_sampler", primitive="UniformCandidateSampler",
    prim_args=("num_true", "num_sampled", "unique", "range_max", "seed", "remove_accidental_hits"), family="random",
    prim_check=_check_ucs)
def _prim_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                                    remove_accidental_hits=False):
    """``ops.UniformCandidateSampler(num_true, num_sampled, unique, range_max, seed=0,
    remove_accidental_hits=False)(true_classes)``: the CPU kernel's samples (its engine kept from call to
    call). MindSpore logs a deprecation warning; msjax does not."""
    return _ucs(true_classes, num_true, num_sampled, unique, range_max, seed, remove_accidental_hits, True)


@op("uniform_candidate_sampler", family="random")
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                              remove_accidental_hits=False):
    """``ops.uniform_candidate_sampler``: ``UniformCandidateSampler`` with a new kernel per call (so the
    same seed gives the same samples; seed 0 a random one)."""
    _check_ucs(num_true, num_sampled, unique, range_max, seed, remove_accidental_hits)
    return _ucs(true_classes, num_true, num_sampled, unique, range_max, seed, remove_accidental_hits, False)


# ---------------------------------------------------------------------------
# LogUniformCandidateSampler
# ---------------------------------------------------------------------------
def log_uniform_candidates(true_classes, num_sampled, unique, range_max, seed, engine):
    """One launch of the CPU ``LogUniformCandidateSampler`` kernel from Philox block ``engine[0]``:
    (candidates, true expected counts, sampled expected counts, the next launch's first block)."""
    tc = np.asarray(true_classes)
    first = int(np.asarray(engine).reshape(-1)[0])
    range_max = int(np.int64(range_max).astype(np.int32))        # the kernel keeps range_max as int32
    with np.errstate(invalid="ignore"):
        log_range = np.log1p(np.float64(range_max))              # NaN for a range_max wrapped negative
    stream, pos = np.zeros(0, np.uint32), [0]

    def sample():
        nonlocal stream
        if pos[0] + 2 > stream.size:
            more = _rk._philox_stream(np, np.uint64(_LOG_KEY), np.uint64(seed), 64 + num_sampled,
                                      first + stream.size // 4)
            stream = np.concatenate([stream, more])
        lo, hi = int(stream[pos[0]]), int(stream[pos[0] + 1])
        pos[0] += 2
        bits = np.array([(1023 << 52) | ((lo & 0xFFFFF) << 32) | hi], np.uint64)
        e = float(np.exp(np.float64(bits.view(np.float64)[0] - 1.0) * log_range))
        val = int(e) - 1 if e < 2.0 ** 63 else 2 ** 63 - 1       # C++'s cast of NaN/inf/too large: INT64_MIN
        rem = abs(val) % abs(range_max)                          # C++'s %: the sign of the dividend
        return rem if val >= 0 else -rem

    out = np.zeros(num_sampled, np.int64)
    if unique:
        taken, idx, tries = set(), 0, 0
        while idx < num_sampled:
            tries += 1
            v = sample()
            if v not in taken:
                out[idx] = v
                idx += 1
                taken.add(v)
    else:
        for i in range(num_sampled):
            out[i] = sample()
        tries = num_sampled

    def counts(values):
        v = values.astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.log((v + 2.0) / (v + 1.0)) / log_range
        return np.array([_expected_count(q, num_sampled, tries) for q in p.reshape(-1)], np.float32).reshape(v.shape)
    reserve = (2048 * num_sampled + 3) // 4
    return out, counts(tc), counts(out), np.array([first + reserve], np.int64)


def _check_lucs(num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
    prim = "LogUniformCandidateSampler"
    for name, v, t in (("num_true", num_true, int), ("num_sampled", num_sampled, int), ("unique", unique, bool),
                       ("range_max", range_max, int), ("seed", seed, int)):
        _type(prim, name, v, t)
    for name, v in (("num_true", num_true), ("num_sampled", num_sampled), ("range_max", range_max)):
        if v < 1:
            raise ValueError(f"For '{prim}', the argument '{name}' must >= 1, but got {v}.")
    if unique and range_max < num_sampled:
        raise ValueError(f"For '{prim}', the 'range_max' should be >= num_sampled: {num_sampled}, but got {range_max}.")
    if seed < 0:
        raise ValueError(f"For '{prim}', the argument 'seed' must >= 0, but got {seed}.")
    _rk.forget_primitive("LogCandidateSampler", seed, 0)


def _lucs(true_classes, num_true, num_sampled, unique, range_max, seed, primitive):
    a = _sampler_inputs("LogUniformCandidateSampler", true_classes, num_true, (np.dtype(np.int64),))
    if int(np.int64(range_max).astype(np.int32)) == 0:
        raise RuntimeError("For 'LogUniformCandidateSampler', the 'range_max' must be greater than 0, but got "
                           "range_max=0. 'Range_max' integer overflow causes this error.")

    def host(x, engine):
        return log_uniform_candidates(x, num_sampled, unique, range_max, seed, engine)
    return _run_sampler("LogCandidateSampler", (seed, 0), a, num_sampled, host, primitive)


@op("prim_log_uniform_candidate_sampler", primitive="LogUniformCandidateSampler",
    prim_args=("num_true", "num_sampled", "unique", "range_max", "seed"), family="random", prim_check=_check_lucs)
def _prim_log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
    """``ops.LogUniformCandidateSampler(num_true=1, num_sampled=5, unique=True, range_max=5, seed=0)(true_classes)``:
    the CPU kernel's samples (its Philox counter goes on from call to call). MindSpore logs a deprecation
    warning; msjax does not."""
    return _lucs(true_classes, num_true, num_sampled, unique, range_max, seed, True)


@op("log_uniform_candidate_sampler", family="random")
def log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
    """``ops.log_uniform_candidate_sampler``: ``LogUniformCandidateSampler`` with a new kernel per call."""
    _check_lucs(num_true, num_sampled, unique, range_max, seed)
    return _lucs(true_classes, num_true, num_sampled, unique, range_max, seed, False)


# ---------------------------------------------------------------------------
# RandpermV2, NonDeterministicInts
# ---------------------------------------------------------------------------
@op("prim_randperm_v2", primitive="RandpermV2", prim_args=("seed", "offset", "dtype"), family="random")
def _prim_randperm_v2(n, seed=0, offset=0, dtype=mstype.int64):
    """``ops.RandpermV2(seed=0, offset=0, dtype=mindspore.int64)(n)``: ``ops.randperm``'s kernel (re-seeded at
    every launch, so an instance gives the same permutation every call)."""
    count = int(n._data) if isinstance(n, Tensor) else n
    if count < 0:
        raise ValueError(f"For 'RandpermV2', the input 'n' must be greater than 0, but got data: {count}.")
    return wrap(_rk.randperm_v2(count, seed, offset).astype(mstype.to_np(dtype)))


_NDI_TYPES = (mstype.int32, mstype.int64, mstype.uint32, mstype.uint64)


def _check_ndi(dtype=mstype.int64):
    if dtype not in _NDI_TYPES:
        raise TypeError("For 'NonDeterministicInts', the 'dtype' should be one of [mindspore.int32, mindspore.int64, "
                        f"mindspore.uint32, mindspore.uint64], but got '{dtype!r}'.")


@op("prim_non_deterministic_ints", primitive="NonDeterministicInts", prim_args=("dtype",), family="random",
    prim_check=_check_ndi)
def _prim_non_deterministic_ints(shape, dtype=mstype.int64):
    """``ops.NonDeterministicInts(dtype=mindspore.int64)(shape)``: integers over the dtype's whole range from
    the OS's entropy (MindSpore's CPU kernel reads ``/dev/urandom``; neither is reproducible)."""
    if not isinstance(shape, Tensor):
        raise TypeError("For Primitive[NonDeterministicInts], the type of input argument[shape] must be Tensor but "
                        f"got {type(shape).__name__}.")
    shp = tuple(int(v) for v in np.asarray(shape._data).reshape(-1))
    if len(shp) < 2:
        raise ValueError("For 'NonDeterministicInts', 'shape' must be at least 2-dimensional.")
    npd = np.dtype(mstype.to_np(dtype))
    from ..._core import rng, state
    if state.in_transform():          # inside a compiled step: new numbers at every run (the JAX key)
        bits = jax.random.bits(rng.next_key(), shp, jnp.dtype(f"uint{8 * npd.itemsize}"))
        return wrap(jax.lax.bitcast_convert_type(bits, npd))
    n = int(np.prod(shp, dtype=np.int64))
    return wrap(np.frombuffer(os.urandom(n * npd.itemsize), npd).reshape(shp).copy())


__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler"]
