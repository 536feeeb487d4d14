"""MindSpore 2.10's CPU kernels of ``UniformReal``, ``UniformInt`` and ``StandardNormal``, as array code.

MindSpore's kernel (``ops/kernel/cpu/random_cpu_kernel.cc``) seeds two libstdc++ engines with
``random::GetSeed(seed, seed2)`` when it is built and keeps them between launches:

* ``UniformReal``: ``std::mt19937`` read by ``uniform_real_distribution<double>(0, 1)`` (two words
  per number: ``(w0 + w1 * 2**32) / 2**64``, below 1), cast to Float32;
* ``UniformInt``: ``std::mt19937`` read by ``uniform_int_distribution<int>(min, max - 1)``
  (libstdc++'s downscaling: a word below ``range * scaling``, ``scaling = (2**32 - 1) // range``,
  gives ``min + w // scaling``; larger words are rejected);
* ``Dropout2D``/``Dropout3D`` (``DropoutNd``): a default-constructed ``std::default_random_engine``
  (seed 1, whatever the seeds) read by ``bernoulli_distribution(keep_prob)``, one draw of
  ``generate_canonical<double, 53>`` (two engine numbers) per channel; PyNative shares one kernel
  among all calls with the same keep_prob and shape;
* ``StandardNormal``: ``std::default_random_engine`` (``minstd_rand0``) read by
  ``normal_distribution<float>`` (Marsaglia's polar method on pairs of Float32 uniforms; a pair
  gives two numbers, the second first; the distribution is made per launch, so an odd count
  drops the last number of its pair).

The module also holds ``StandardLaplace`` and ``RandomCategorical`` (``minstd_rand0``), ``Bernoulli``
(Philox4x32-10), and, as host code, ``RandomChoiceWithMask`` (``std::shuffle``) and ``RandomPoisson``
(``std::mt19937`` with rejection loops).

Rejected draws only skip words, so each kernel's output is a filter of its engine's stream: all
numbers are computed at once (NumPy in PyNative, jax.numpy inside compiled steps). The functional
ops (``ops.uniform``...) build a new kernel per call in PyNative (each call has new seeds from the
op-seed counter); a Primitive instance and a node of a compiled graph keep their kernel, whose
engine advances call after call: ``Engines`` keeps those engines.
"""
from __future__ import annotations

import functools
import math
import os

import jax
import jax.numpy as jnp
import numpy as np

from ...common.seed import also_seed
from .dropout_stream import _mulmod, _power_tables, engine_state, kernel_seed

_N, _SHIFT = 624, 397
MT_WORDS = _MT_WORDS = _N + 1          # an mt19937 engine: 624 state words and the position of the next word
_MINSTD = 2 ** 31 - 1
_U32 = 0xFFFFFFFF


# ---------------------------------------------------------------------------
# mt19937
# ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def mt_seeded(seed):
    """``std::mt19937::seed(seed)`` (the seed's low 32 bits): the state, position 624."""
    x = [int(seed) & _U32]
    for i in range(1, _N):
        x.append((1812433253 * (x[-1] ^ (x[-1] >> 30)) + i) & _U32)
    return np.array(x + [_N], np.int64)


def _twist(xp, x):
    """The next 624 state words (uint32) from ``x``, in four vectorised passes."""
    u32 = xp.uint32

    def step(cur, nxt, far):
        y = (cur & u32(0x80000000)) | (nxt & u32(0x7FFFFFFF))
        return far ^ (y >> u32(1)) ^ xp.where((y & u32(1)) != 0, u32(0x9908B0DF), u32(0))
    a = step(x[:227], x[1:228], x[_SHIFT:])                  # words 0..226 read the old state only
    b = step(x[227:454], x[228:455], a)                      # 227..453 read 0..226 (new)
    c = step(x[454:623], x[455:624], b[:169])                # 454..622 read 227..395 (new)
    d = step(x[623:], a[:1], b[169:170])                     # 623 reads 0 and 396 (new)
    return xp.concatenate([a, b, c, d])


def _temper(xp, x):
    u32 = xp.uint32
    y = x ^ (x >> u32(11))
    y = y ^ ((y << u32(7)) & u32(0x9D2C5680))
    y = y ^ ((y << u32(15)) & u32(0xEFC60000))
    return y ^ (y >> u32(18))


def _numpy_mt(state):
    bg = np.random.MT19937(0)
    bg.state = {"bit_generator": "MT19937", "state": {"key": state[:_N].astype(np.uint32), "pos": int(state[_N])}}
    return bg


def _mt_host(state, k):
    """``k`` words of the engine ``state`` (int64[625]): NumPy's MT19937 is the same engine."""
    return _numpy_mt(state).random_raw(k).astype(np.uint32)


def _mt_host_after(state, used):
    """The engine ``state`` after ``used`` words."""
    bg = _numpy_mt(state)
    bg.random_raw(used)
    st = bg.state["state"]
    return np.concatenate([st["key"].astype(np.int64), [st["pos"]]])


def _mt_traced(state, k):
    """``k`` words of the engine ``state`` and a function giving the engine after ``used`` of them."""
    x, p = state[:_N].astype(jnp.uint32), state[_N]
    blocks = -(-k // _N)

    if blocks <= 2:                   # small draws: unrolled (quicker to compile than a loop)
        states = [x]
        for _ in range(blocks):
            states.append(_twist(jnp, states[-1]))
        states = jnp.stack(states)
    else:
        def body(c, _):
            n = _twist(jnp, c)
            return n, n
        _, later = jax.lax.scan(body, x, None, length=blocks)
        states = jnp.concatenate([x[None], later])                               # (blocks + 1, 624)
    stream = _temper(jnp, states).reshape(-1)
    words = jax.lax.dynamic_slice(stream, (p,), (k,))

    def after(used):
        q = p + used
        b = jnp.maximum(q - 1, 0) // _N
        return jnp.concatenate([states[b].astype(jnp.int64), (q - b * _N)[None].astype(jnp.int64)])
    return words, after


# ---------------------------------------------------------------------------
# minstd_rand0
# ---------------------------------------------------------------------------
def _minstd(xp, x, n):
    """The next ``n`` states of ``minstd_rand0`` from state ``x`` (uint64), by jump-ahead."""
    high, low = _power_tables(n)
    power = _mulmod(xp, xp.asarray(high)[:, None], xp.asarray(low)[None, :]).reshape(-1)[:n]
    return _mulmod(xp, xp.asarray(x).astype(xp.uint64), power)


# ---------------------------------------------------------------------------
# the distributions: (values, words used) from a word stream
# ---------------------------------------------------------------------------
def _first_true(xp, ok, count):
    """Indices of the first ``count`` True entries of ``ok`` (and whether there were enough)."""
    if xp is np:
        idx = np.flatnonzero(ok)[:count]
        return idx, idx.size == count
    idx = jnp.nonzero(ok, size=count, fill_value=ok.size - 1)[0]
    return idx, jnp.sum(ok) >= count


def uniform_real(xp, words, n):
    """``static_cast<float>(uniform_real_distribution<double>(0, 1)(mt))`` ``n`` times."""
    w = words[:2 * n].reshape(n, 2).astype(xp.float64)
    d = (w[:, 0] + w[:, 1] * 4294967296.0) * 2.0 ** -64
    d = xp.minimum(d, np.nextafter(1.0, 0.0))
    return d.astype(xp.float32), 2 * n


def uniform_int(xp, words, n, lo, hi):
    """``uniform_int_distribution<int>(lo, hi - 1)(mt)`` ``n`` times (``lo``, ``hi`` Int32 scalars),
    as the libstdc++ MindSpore 2.10 is built with draws it: a word ``w`` below ``span * scaling``
    (``scaling = (2**32 - 1) // span``) is kept and gives ``lo + w // scaling``."""
    lo = xp.asarray(lo).astype(xp.int64)
    span = (xp.asarray(hi).astype(xp.int64) - lo).astype(xp.uint64)
    scaling = xp.uint64(_U32) // span
    w = words.astype(xp.uint64)
    idx, enough = _first_true(xp, w < span * scaling, n)
    vals = (w[idx] // scaling).astype(xp.int64) + lo
    used = idx[-1] + 1 if n else 0
    return vals.astype(xp.int32), used, enough


def int_words_needed(n, span=None):
    """Words to draw for ``n`` integers of ``span`` values (rejections included, with room)."""
    reject = 0.5 if span is None else (2 ** 32 - (2 ** 32 - 1) // span * span) / 2 ** 32
    return n + int(n * reject * 2) + 64


# glibc's logf (2.28 and later, which MindSpore's kernel calls through std::log): a 16-entry table
# of (1/c, log c) and a cubic for log1p, evaluated in Float64, one rounding to Float32 at the end
_LOGF_TABLE = np.array([float.fromhex(h) for h in (
    "0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2", "0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2",
    "0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2", "0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3",
    "0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3", "0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3",
    "0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4", "0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4",
    "0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5", "0x1p+0", "0x0p+0",
    "0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5", "0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4",
    "0x1.b2036576afce6p-1", "0x1.526e57720db08p-3", "0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3",
    "0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2", "0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2")]).reshape(16, 2)
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_POLY = tuple(float.fromhex(h) for h in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))


def logf(xp, x):
    """glibc's ``logf`` of positive normal Float32 numbers ``x`` (r2 of the polar method)."""
    ix = x.view(xp.uint32) if xp is np else jax.lax.bitcast_convert_type(x, jnp.uint32)
    ix = ix.astype(xp.int64)
    tmp = ix - 0x3F330000
    i = (tmp >> 19) % 16
    k = (tmp.astype(xp.int32) >> 23).astype(xp.float64)
    iz = (ix - (tmp & (0x1FF << 23))).astype(xp.uint32)
    z = (iz.view(np.float32) if xp is np else jax.lax.bitcast_convert_type(iz, jnp.float32)).astype(xp.float64)
    table = xp.asarray(_LOGF_TABLE)
    r = z * table[i, 0] - 1.0
    y0 = table[i, 1] + k * _LN2
    r2 = r * r
    y = _LOGF_POLY[1] * r + _LOGF_POLY[2]
    y = _LOGF_POLY[0] * r2 + y
    y = y * r2 + (y0 + r)
    return xp.where(ix == 0x3F800000, xp.float32(0), y.astype(xp.float32))


def standard_normal(xp, states, n):
    """``normal_distribution<float>()(minstd)`` ``n`` times from the engine's next ``states``."""
    u = (states - xp.uint64(1)).astype(xp.float32) * xp.float32(2.0 ** -31)
    u = xp.minimum(u, np.nextafter(np.float32(1), np.float32(0)))
    pairs = u[:u.size // 2 * 2].reshape(-1, 2) * xp.float32(2) - xp.float32(1)
    x, y = pairs[:, 0], pairs[:, 1]
    if xp is jnp:      # each product rounded to Float32 before the sum: no fused multiply-add
        x64, y64 = x.astype(jnp.float64), y.astype(jnp.float64)
        f32 = functools.partial(jax.lax.reduce_precision, exponent_bits=8, mantissa_bits=23)
        r2 = f32(f32(x64 * x64) + f32(y64 * y64)).astype(jnp.float32)
    else:
        r2 = x * x + y * y
    ok = (r2 <= xp.float32(1)) & (r2 != xp.float32(0))
    count = (n + 1) // 2
    idx, enough = _first_true(xp, ok, count)
    x, y, r2 = x[idx], y[idx], r2[idx]
    log = logf(xp, r2)
    mult = xp.sqrt(xp.float32(-2) * log / r2)
    vals = xp.stack([y * mult, x * mult], axis=1).reshape(-1)[:n]
    used = 2 * (idx[-1] + 1) if n else 0
    return vals, used, enough


def _numpy_log_is_libm():
    """Whether NumPy's float64 ``log`` is the C library's here: its own SIMD version (another result in
    the last bits) runs only on CPUs with AVX-512 (NumPy 1.22 and later)."""
    umath = getattr(getattr(np, "_core", None), "_multiarray_umath", None) or \
        getattr(getattr(np, "core", None), "_multiarray_umath", None)
    features = getattr(umath, "__cpu_features__", None)
    return features is not None and not features.get("AVX512F", False)


_NUMPY_LOG_IS_LIBM = _numpy_log_is_libm()


def _log64(xp, x):
    """Float64 ``std::log`` (glibc's, as MindSpore's kernels call it) of ``x``: on the host NumPy's
    ``log`` where that is the C library's, else each value through Python's ``math.log`` (NumPy's
    AVX-512 ``log`` differs in the last bits); in a graph, XLA's."""
    if xp is np and not _NUMPY_LOG_IS_LIBM:
        flat = np.asarray(x, np.float64).reshape(-1)
        return np.fromiter(map(math.log, flat.tolist()), np.float64, count=flat.size).reshape(np.shape(x))
    return xp.log(x)


def _truncated_normal(xp, x, n):
    """The CPU ``TruncatedNormal`` kernel's launch: ``normal_distribution<double>`` (the polar method on
    ``generate_canonical<double, 53>`` uniforms, two engine numbers each; a pair gives two numbers, the
    second first) of ``minstd_rand0`` in state ``x``, numbers outside [-2, 2] dropped: (Float64 values,
    new state, whether enough were drawn)."""
    m = int(n * 1.06) + 16                                   # normals to draw (4.6% fall outside)
    pairs = int((m + 1) // 2 * 1.35) + 32                    # candidate pairs (1 - pi/4 rejected)
    states = _minstd(xp, x, 4 * pairs)
    w = (states - xp.uint64(1)).astype(xp.float64).reshape(-1, 2)
    r = 2147483646.0
    u = xp.minimum((w[:, 0] + w[:, 1] * r) / (r * r), np.nextafter(1.0, 0.0)).reshape(-1, 2) * 2.0 - 1.0
    px, py = u[:, 0], u[:, 1]
    r2 = px * px + py * py
    if xp is jnp:      # each product rounded before the sum, as in C++ (no fused multiply-add)
        r2 = jax.lax.reduce_precision(px * px, exponent_bits=11, mantissa_bits=52) + \
            jax.lax.reduce_precision(py * py, exponent_bits=11, mantissa_bits=52)
    idx, enough = _first_true(xp, (r2 <= 1.0) & (r2 != 0.0), (m + 1) // 2)
    px, py, r2 = px[idx], py[idx], r2[idx]
    mult = xp.sqrt(-2.0 * _log64(xp, r2) / r2)
    vals = xp.stack([py * mult, px * mult], axis=1).reshape(-1)[:m]
    keep, enough2 = _first_true(xp, xp.abs(vals) <= 2.0, n)
    last_pair = idx[keep[-1] // 2]
    new = xp.reshape(states[4 * last_pair + 3].astype(xp.int64), (1,))
    return vals[keep], new, enough & enough2


def normal_states_needed(n):
    """Engine states to draw for ``n`` normal numbers (pairs rejected with probability 1 - pi/4)."""
    return 2 * (int((n + 1) // 2 * 1.45) + 32)


def _canonical_floats(xp, states):
    """``generate_canonical<float, 24>`` of ``minstd_rand0`` (one engine number each): Float32 in [0, 1)."""
    return xp.minimum((states - xp.uint64(1)).astype(xp.float32) * xp.float32(2.0 ** -31),
                      np.nextafter(np.float32(1), np.float32(0)))


def _canonical_doubles(xp, x, n):
    """``n`` draws of ``generate_canonical<double, 53>`` (two ``minstd_rand0`` numbers each) from state
    ``x``, and the engine's state after them."""
    states = _minstd(xp, x, 2 * n).reshape(n, 2)
    words = (states - xp.uint64(1)).astype(xp.float64)
    r = 2147483646.0
    u = xp.minimum((words[:, 0] + words[:, 1] * r) / (r * r), np.nextafter(1.0, 0.0))
    return u, xp.reshape(states[-1, 1].astype(xp.int64), (1,))


_LAPLACE_LO = np.nextafter(np.float32(-1), np.float32(0))


def _laplace(xp, c):
    """``StandardLaplace``: ``u = uniform_real_distribution<float>(nextafter(-1, 0), 1)`` (canonical
    ``c`` times 2, plus the bound, in Float32), then ``-copysign(1, u) * log(1.0 - |u|)`` in double."""
    u = c * xp.float32(2) + _LAPLACE_LO
    u64 = u.astype(xp.float64)
    out = -xp.copysign(1.0, u64) * _log64(xp, 1.0 - xp.abs(u64))
    return (round_f32(out) if xp is jnp else out).astype(xp.float32)


def round_f32(x):
    """``x`` rounded to Float32 inside a compiled graph, which XLA keeps (it may drop a convert pair)."""
    return jax.lax.reduce_precision(x, exponent_bits=8, mantissa_bits=23)


def _philox_stream(xp, seed, offset, blocks, first=0):
    """``4 * blocks`` words of ``random::PhiloxRandom(seed, offset)`` (key = the seed, counters
    (i, 0, offset's two words)) from block ``first``, as uint32."""
    from .dropout_stream import _philox_block
    i = xp.arange(first, first + blocks, dtype=xp.uint64)
    seed, offset = (xp.asarray(v).astype(xp.uint64) for v in (seed, offset))
    zero = xp.zeros_like(i)
    c = _philox_block([i, zero, zero + (offset & xp.uint64(_U32)), zero + (offset >> xp.uint64(32))],
                      [seed & xp.uint64(_U32), seed >> xp.uint64(32)])
    return xp.stack(c, axis=1).reshape(-1).astype(xp.uint32)


def _bernoulli_floats(xp, state, n):
    """The ``Bernoulli`` kernel's ``RandFloat()`` ``n`` times: each launch re-seeds its Philox generator
    but first reads the words of the last block its previous launch left unread (``state``: seed,
    count, three words right-aligned, offset); a word's low 23 bits make a Float32 in [0, 1)."""
    blocks = n // 4 + 2
    stream = _philox_stream(xp, state[0], state[5], blocks)
    r = state[1]
    seq = xp.concatenate([state[2:5].astype(xp.uint32), stream])
    m = xp.maximum(n - r, 0)
    b = (m + 3) // 4
    if xp is np:
        words = seq[3 - r:3 - r + n]
        later = stream[4 * b - 3:4 * b] if b else state[2:5].astype(np.uint32)
    else:
        words = jax.lax.dynamic_slice(seq, (3 - r,), (n,))
        later = jnp.where(b > 0, jax.lax.dynamic_slice(stream, (jnp.maximum(4 * b - 3, 0),), (3,)),
                          state[2:5].astype(jnp.uint32))
    left = xp.where(n > r, 4 * b - m, r - n)
    new = xp.concatenate([xp.reshape(state[0], (1,)), xp.reshape(left, (1,)).astype(xp.int64), later.astype(xp.int64),
                          xp.reshape(state[5], (1,))])
    return (words & xp.uint32(0x7FFFFF)).astype(xp.float32) * xp.float32(2.0 ** -23), new


# ---------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------
_MINSTD_KINDS = ("StandardNormal", "Dropout", "StandardLaplace", "Categorical", "ChoiceWithMask", "TruncatedNormal",
                 "CandidateSampler", "ParameterizedTruncatedNormal", "Shuffle")


def fresh_state(kind, seed, seed2):
    """A new kernel's engine: int64[625] for the mt19937 kernels, int64[1] for the minstd_rand0 ones
    (``StandardNormal``, ``Dropout``: ``dropout_stream.py``, ``StandardLaplace``, ``RandomChoiceWithMask``,
    ``RandomCategorical``, whose caller passes ``(0, seed)``; ``DropoutNd``, MindSpore's ``Dropout2D`` and
    ``Dropout3D``, whose engine is default-constructed), int64[6] for ``Bernoulli`` (its seed, the
    count and values of the Philox words its last launch left unread, right-aligned, its offset)."""
    if kind == "DropoutNd":           # a default-constructed engine: seed 1, whatever the seeds
        return np.array([1], np.int64)
    if kind == "Bernoulli":           # Philox keyed by the op's seed (seed2: the offset); no words left over yet
        return np.array([seed, 0, 0, 0, 0, seed2], np.int64)
    if kind == "Poisson":
        return poisson_state(seed, seed2)
    if kind == "Gamma":               # RandomGamma's Philox key, counter offset and next block (random_rejection.py)
        if seed == 0 and seed2 == 0:
            seed, seed2 = (int.from_bytes(os.urandom(7), "little") for _ in range(2))
        return np.array([seed, seed2, 0], np.int64)
    if kind == "LogCandidateSampler":  # the next Philox block of LogUniformCandidateSampler (random_samplers.py)
        return np.array([0], np.int64)
    if kind == "MultinomialWR":       # its generator's seed, offset and next block (-1: none yet), the
        return np.array([0, 0, -1, 4, 0, 0, 0, 0], np.int64)     # words of the current block read, that block
    s = kernel_seed(seed, seed2)
    if kind in _MINSTD_KINDS:
        return np.array([engine_state(s)], np.int64)
    return mt_seeded(s & _U32).copy()


def _fail_short(kind):
    raise RuntimeError(f"msjax's {kind} drew fewer accepted numbers than it needs; this is a bug in msjax.")


def launch(kind, state, shape, lo=0, hi=1):
    """One launch of ``kind`` on the engine ``state``: (values, new state), NumPy or traced alike."""
    n = int(np.prod(shape, dtype=np.int64))
    traced = isinstance(state, jax.core.Tracer) or isinstance(lo, jax.core.Tracer) or isinstance(hi, jax.core.Tracer)
    xp = jnp if traced else np
    if n == 0:
        return xp.zeros(shape, xp.int32 if kind == "UniformInt" else xp.float32), state
    if kind == "Dropout":             # the numbers the kernel compares with keep_prob
        states = _minstd(xp, state[0], n)
        return _canonical_floats(xp, states).reshape(shape), xp.reshape(states[-1].astype(xp.int64), (1,))
    if kind in ("DropoutNd", "Categorical"):
        u, new = _canonical_doubles(xp, state[0], n)
        if kind == "Categorical":     # uniform_real_distribution<double>(0, 1), kept as float
            return u.astype(xp.float32).reshape(shape), new
        return (u < float(np.float32(lo))).reshape(shape), new    # one bernoulli_distribution(keep_prob) per channel
    if kind == "StandardLaplace":
        states = _minstd(xp, state[0], n)
        return _laplace(xp, _canonical_floats(xp, states)).reshape(shape), xp.reshape(states[-1].astype(xp.int64), (1,))
    if kind == "Bernoulli":
        u, new = _bernoulli_floats(xp, state, n)
        return u.reshape(shape), new
    if kind == "TruncatedNormal":
        vals, new, enough = _truncated_normal(xp, state[0], n)
        if not traced and not enough:
            _fail_short(kind)
        return vals.reshape(shape), new
    if kind == "StandardNormal":
        k = normal_states_needed(n)
        states = _minstd(xp, state[0], k)
        vals, used, enough = standard_normal(xp, states, n)
        if not traced and not enough:
            _fail_short(kind)
        new = xp.reshape(states[used - 1].astype(xp.int64), (1,))
        return vals.reshape(shape), new
    if kind == "UniformReal":
        k = 2 * n
    else:
        span = None if traced else int(hi) - int(lo)
        k = int_words_needed(n, span)
    if traced:
        words, after = _mt_traced(jnp.asarray(state), k)
    else:
        words = _mt_host(state, k)
    if kind == "UniformReal":
        vals, used = uniform_real(xp, words, n)
    else:
        vals, used, enough = uniform_int(xp, words, n, lo, hi)
        if not traced and not enough:
            _fail_short(kind)
    new = after(used) if traced else _mt_host_after(state, used)
    return vals.reshape(shape), new


# ---------------------------------------------------------------------------
# where the engines live
# ---------------------------------------------------------------------------
_CAP, _COLS = 32, _MT_WORDS + 1      # compiled kernels' engines: one row each, the last column names the kernel
_TABLE = []
_NEXT = [0, 0]                        # the next row, the next kernel id
_PRIM_ENGINES = {}                    # PyNative Primitive instances: (kind, seed, seed2, shape) -> engine


def _table():
    """The Parameter holding compiled kernels' engines (``_core.rng.EXTRA``: every transform
    threads it as state). Made outside any transform even when first needed inside one."""
    if not _TABLE:
        from ..._core import rng, state
        from ..._core.parameter import Parameter
        saved = state.frames[:], state.recorders[:]
        state.frames.clear()
        state.recorders.clear()
        try:
            with jax.ensure_compile_time_eval():
                _TABLE.append(Parameter(np.zeros((_CAP, _COLS), np.int64), name="_msjax_random_kernels",
                                        requires_grad=False))
        finally:
            state.frames[:], state.recorders[:] = saved
        rng.EXTRA.append(_TABLE[0])
    return _TABLE[0]


@also_seed
def _table_before_graphs(seed):
    """``set_seed`` makes the table, so that a graph traced afterwards finds it (a table made during
    a trace would make the transform trace again, and the op-seed counter advance twice)."""
    _table()


def forget_primitive(kind, seed, seed2):
    """A new Primitive instance of ``kind`` with these seeds builds a new kernel."""
    for key in [k for k in _PRIM_ENGINES if k[:3] == (kind, seed, seed2)]:
        del _PRIM_ENGINES[key]


def foreign_trace():
    """Whether a ``jax.jit`` trace that is not msjax's (an export, a user's ``jax.jit``) is open."""
    from jax._src import core as jax_core
    trace = getattr(getattr(jax_core, "trace_ctx", None), "trace", None)
    return type(trace).__name__ == "DynamicJaxprTrace"


def _key_draw(kind, shape, lo, hi):
    """The kernel's distribution from msjax's JAX key: inside traces msjax does not thread
    state through (exports name the random operator; a user's ``jax.jit`` gets fresh numbers)."""
    from ..._core import rng
    key = rng.next_key()
    if kind == "UniformInt":
        return jax.random.randint(key, shape, lo, hi, dtype=jnp.int32)
    if kind == "StandardNormal":
        return jax.random.normal(key, shape, jnp.float32)
    if kind == "TruncatedNormal":
        return jax.random.truncated_normal(key, -2.0, 2.0, shape, jnp.float64)
    if kind == "DropoutNd":
        return jax.random.bernoulli(key, float(lo), shape)
    if kind == "StandardLaplace":
        return jax.random.laplace(key, shape, jnp.float32)
    return jax.random.uniform(key, shape, jnp.float32)


def run_kernel(kind, seeds, step, key=(), primitive=False, fallback=None):
    """Run ``step(engine) -> (values, new engine)`` on MindSpore's ``kind`` kernel with ``seeds``: a fresh
    kernel per call (the functional ops in PyNative), the instance's kernel (``primitive``; ``key``
    tells its launches apart), or, in a compiled graph, the node's kernel, whose engine persists between
    runs of the graph (a row of the table; a Primitive's graph kernel kept by the instance's seeds when the
    graph runs uncompiled). ``fallback()`` draws inside traces msjax does not own."""
    from ..._core import state
    compiled = state.compiled() and state.in_transform()
    if not compiled and foreign_trace() and fallback is not None:
        return fallback()
    if compiled and primitive and not isinstance(_table()._data, jax.core.Tracer):
        # a compiled call run uncompiled (MindSpore's JIT Fallback: a data-dependent shape): its Python
        # runs again at every call, so the node's kernel is the instance's graph kernel, kept here
        key = (kind,) + tuple(seeds) + ("graph",) + tuple(key)
        engine = _PRIM_ENGINES.get(key)
        vals, _PRIM_ENGINES[key] = step(fresh_state(kind, *seeds) if engine is None else engine)
        return vals
    if compiled:
        table = _table()
        slot, kid = _NEXT[0], _NEXT[1] + 1
        _NEXT[0], _NEXT[1] = (slot + 1) % _CAP, kid
        init = np.zeros(_MT_WORDS, np.int64)
        first = fresh_state(kind, *seeds)
        init[:first.size] = first
        t = jnp.asarray(table._data)
        row = t[slot]
        engine = jnp.where(row[-1] == kid, row[:-1], jnp.asarray(init))[:first.size]
        vals, new = step(engine)
        table._data = t.at[slot].set(jnp.concatenate([new, row[new.size:-1], jnp.full((1,), kid, jnp.int64)]))
        return vals
    if primitive and not state.in_transform():
        key = (kind,) + tuple(seeds) + tuple(key)
        engine = _PRIM_ENGINES.get(key)
        if engine is None:
            engine = fresh_state(kind, *seeds)
        vals, _PRIM_ENGINES[key] = step(engine)
        return vals
    return step(fresh_state(kind, *seeds))[0]


def draw(kind, seeds, shape, lo=0, hi=1, primitive=False, signature=()):
    """MindSpore's ``kind`` kernel with ``seeds`` launched on ``shape`` (``run_kernel``; a Primitive
    has a kernel per shape and ``signature``, the other inputs' dtypes and shapes)."""
    shape = tuple(int(s) for s in shape)
    return run_kernel(kind, seeds, lambda engine: launch(kind, engine, shape, lo, hi), (shape, float(lo)) + signature,
                      primitive, lambda: _key_draw(kind, shape, lo, hi))


# ---------------------------------------------------------------------------
# std::shuffle (host code, a sequential algorithm): RandomShuffle and RandpermV2
# ---------------------------------------------------------------------------
def uniform_below(word, urange, engine_range):
    """libstdc++'s ``uniform_int_distribution(0, urange)`` over an engine whose numbers less its minimum
    ``word()`` gives (``engine_range`` = max - min): downscaling with rejection, or for a range wider than
    the engine's, the combination of a draw of the high part and an engine number."""
    if engine_range > urange:
        count = urange + 1
        scaling = engine_range // count
        past = count * scaling
        while True:
            w = word()
            if w < past:
                return w // scaling
    if engine_range == urange:
        return word()
    step = engine_range + 1
    while True:
        tmp = step * uniform_below(word, urange // step, engine_range)
        ret = tmp + word()
        if ret <= urange and ret >= tmp:
            return ret


def _std_shuffle(n, next_word, engine_range):
    """libstdc++'s ``std::shuffle`` of ``range(n)`` with an engine whose numbers, less its minimum,
    ``next_word()`` gives (``engine_range`` = max - min): for ranges small enough one number makes
    two swaps; each number comes from ``uniform_int_distribution`` (downscaling, with rejection)."""
    def below(count):                           # uniform_int_distribution(0, count - 1)
        return uniform_below(next_word, count - 1, engine_range)
    perm = list(range(n))
    if n <= 1:
        return np.array(perm, np.int64)
    if engine_range // n >= n:
        i = 1
        if n % 2 == 0:
            j = below(2)
            perm[1], perm[j] = perm[j], perm[1]
            i = 2
        while i != n:
            span = i + 1
            both = below(span * (span + 1))
            a, b = both // (span + 1), both % (span + 1)
            perm[i], perm[a] = perm[a], perm[i]
            perm[i + 1], perm[b] = perm[b], perm[i + 1]
            i += 2
    else:
        for i in range(1, n):
            j = below(i + 1)
            perm[i], perm[j] = perm[j], perm[i]
    return np.array(perm, np.int64)


def _minstd_shuffle(x, n):
    """``std::shuffle`` of ``range(n)`` over ``minstd_rand0`` in state ``x``: (permutation, new state)."""
    x = [int(x)]

    def next_word():
        x[0] = x[0] * 16807 % _MINSTD
        return x[0] - 1
    return _std_shuffle(n, next_word, _MINSTD - 2), x[0]


def shuffle_permutation(seeds, n):
    """The permutation a fresh CPU ``RandomShuffle`` kernel applies to ``n`` rows: ``std::shuffle``
    over ``minstd_rand0`` seeded with ``random::GetSeed(seeds)``."""
    return _minstd_shuffle(engine_state(kernel_seed(*seeds)), n)[0]


def choice_with_mask(x, count, engine):
    """One launch of the CPU ``RandomChoiceWithMask`` kernel on the Bool array ``x`` (host code):
    ``std::shuffle`` of the True elements' ranks over the kernel's ``minstd_rand0`` (``engine``,
    int64[1]), the first ``count`` kept (padded with zeros, mask False). MindSpore turns a flat index
    into coordinates dividing by one column count (``size // shape[0]``) at every axis but the last, so
    inputs of rank 3 and more get its coordinates, not the true ones. Returns (coords, mask, engine)."""
    x = np.asarray(x)
    flat = np.flatnonzero(x.reshape(-1))
    perm, new = _minstd_shuffle(int(np.asarray(engine).reshape(-1)[0]), flat.size)
    k = min(count, flat.size)
    picked = flat[perm[:k]]
    column = max(x.size // x.shape[0], 1) if x.ndim else 1
    coords = np.zeros((count, max(x.ndim, 1)), np.int32)
    rest = picked.copy()
    for j in range(x.ndim - 1):
        coords[:k, j] = rest // column
        rest = rest % column
    coords[:k, -1] = rest
    mask = np.zeros(count, np.bool_)
    mask[:k] = True
    return coords, mask, np.array([new], np.int64)


def randperm_v2(n, seed, offset):
    """``RandpermV2``'s CPU kernel: ``std::shuffle`` of ``range(n)`` over ``std::mt19937`` seeded with
    ``offset`` if it is not 0, else ``seed`` (a random seed for -1), at every launch."""
    final = offset if offset != 0 else seed if seed != -1 else int.from_bytes(os.urandom(4), "little")
    bg = np.random.MT19937(0)
    bg._legacy_seeding(int(final) % 2 ** 32)
    buf, pos = [], [0]

    def next_word():
        if pos[0] == len(buf):
            buf[:] = bg.random_raw(max(64, n)).tolist()
            pos[0] = 0
        pos[0] += 1
        return buf[pos[0] - 1]
    return _std_shuffle(n, next_word, _U32)


# ---------------------------------------------------------------------------
# RandomPoisson (host code: rejection loops whose draws depend on the values)
# ---------------------------------------------------------------------------
def poisson_state(seed, seed2):
    """``RandomPoisson``'s engine: ``std::mt19937`` seeded with ``GetSeed(seed, seed2) * 6364136223846793005
    + 0xda3e39cb94b95bdb`` (mod 2**64, the low 32 bits taken; seeds (0, 0) draw a random seed)."""
    s = kernel_seed(seed, seed2)
    return mt_seeded((s * 6364136223846793005 + 0xDA3E39CB94B95BDB) & _U32).copy()


@functools.lru_cache(maxsize=8)
def libm_float(name):
    """glibc's float function ``name`` (``logf``, ``expf``...), as MindSpore's kernels call it."""
    import ctypes
    import ctypes.util
    fn = getattr(ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6"), name)
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return fn


@functools.lru_cache(maxsize=1)
def _libm_lgamma():
    """glibc's ``lgamma`` (the kernel's ``std::lgamma``); Python's ``math.lgamma`` is its own."""
    import ctypes
    import ctypes.util
    try:
        fn = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6").lgamma
    except (OSError, AttributeError):
        import math
        return math.lgamma
    fn.restype, fn.argtypes = ctypes.c_double, [ctypes.c_double]
    return fn


def poisson(rates, per_rate, state, integer):
    """The CPU ``RandomPoisson`` kernel: ``per_rate`` samples of each rate in turn (Knuth's product of
    uniforms below 10, transformed rejection from 10), each uniform ``uniform_real_distribution<double>``
    of the engine ``state`` (two words). Returns (Float64 samples, rate-major, new state)."""
    import math
    lgamma = _libm_lgamma()
    bg = _numpy_mt(np.asarray(state))
    buf, pos, used = [], [0], [0]

    def uniform():
        if pos[0] + 2 > len(buf):
            buf[:] = buf[pos[0]:] + bg.random_raw(4096).tolist()
            pos[0] = 0
        w0, w1 = buf[pos[0]], buf[pos[0] + 1]
        pos[0] += 2
        used[0] += 2
        return min((w0 + w1 * 4294967296.0) * 2.0 ** -64, 0.9999999999999999)

    def one(rate):
        if rate < 10.0:
            x, prod, limit = 0.0, 1.0, math.exp(-rate)
            while True:
                prod *= uniform()
                if prod <= limit:
                    return x
                x += 1
        if math.isinf(rate):
            return 0.0 if integer else math.inf
        if math.isnan(rate):      # MindSpore's kernel never returns here
            return math.nan
        log_rate, sqrt_rate = math.log(rate), math.sqrt(rate)
        b = 0.931 + 2.53 * sqrt_rate
        a = -0.059 + 0.02483 * b
        inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = uniform() - 0.5
            v = uniform()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + rate + 0.43)
            if us >= 0.07 and v <= vr:
                return float(k)
            if k < 0 or (us < 0.013 and v > us):
                continue
            if math.log(v * inv_alpha / (a / (us * us) + b)) <= -rate + k * log_rate - lgamma(k + 1.0):
                return float(k)

    out = np.empty((len(rates), per_rate), np.float64)
    for i, rate in enumerate(rates):
        for j in range(per_rate):
            out[i, j] = one(float(rate))
    return out.T.reshape(-1), _mt_host_after(np.asarray(state), used[0])


# ---------------------------------------------------------------------------
# MultinomialWithReplacement (host code)
# ---------------------------------------------------------------------------
def _pick(cdf, rr):
    """The kernel's lookup: the smallest running sum >= ``rr`` (at most the total), then the LAST
    column holding that value (zero-weight columns hold 0.0)."""
    total = cdf.max() if cdf.size else 0.0
    cand = cdf[(cdf >= rr) & (cdf <= total)]
    temp = cand.min() if cand.size else total
    return int(np.flatnonzero(cdf == temp)[-1]) if np.any(cdf == temp) else 0


def _running(w):
    cdf = w.astype(np.float64).copy()
    nz = cdf != 0.0
    cdf[nz] = np.cumsum(cdf[nz])          # zero-weight columns keep 0.0
    return cdf, (cdf[nz][-1] if nz.any() else 0.0)


def _philox_single(state, seed, offset, n):
    """``n`` calls of the kernels' ``GenerateSingle()``: the rest of the current Philox block first, then
    new blocks of the generator, which is made again (from block 0) when ``seed``/``offset`` change but
    keeps the block it was reading. ``state``: seed, offset, next block (-1: none), words read of the
    current block, its four words. Returns (uint32 words, new state)."""
    state = np.asarray(state).copy()
    if state[2] < 0 or (int(state[0]), int(state[1])) != (seed, offset):
        state[:3] = (seed, offset, 0)
    key_seed, key_offset = seed, offset
    if seed == 0 and offset == 0:
        key_seed, key_offset = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
    used = int(state[3])
    rest = state[4 + used:8].astype(np.uint32)
    if n <= rest.size:
        state[3] = used + n
        return rest[:n], state
    m = n - rest.size
    blocks = -(-m // 4)
    stream = _philox_stream(np, np.uint64(key_seed % 2 ** 64), np.uint64(key_offset % 2 ** 64), blocks, int(state[2]))
    state[2] += blocks
    state[3] = m - 4 * (blocks - 1)
    state[4:8] = stream[-4:].astype(np.int64)
    return np.concatenate([rest, stream[:m]]), state


def multinomial_with_replacement(x, numsamples, replacement, seed, offset, state):
    """The CPU ``MultinomialWithReplacement`` kernel: Float numbers from Philox(seed, offset) (the
    ``Bernoulli`` kernel's ``RandFloat``, ``_philox_single``), cast to the input's dtype, looked up per row
    in the running sums (double). Returns (Int64 indices, new state)."""
    x = np.asarray(x)
    rows = x.shape[0] if x.ndim == 2 else 1
    xs = x.reshape(rows, -1)
    words, new = _philox_single(state, seed, offset, rows * numsamples)
    u = (words & np.uint32(0x7FFFFF)).astype(np.float32) * np.float32(2.0 ** -23)
    rand = u.astype(x.dtype).astype(np.float64).reshape(rows, numsamples)
    out = np.zeros((rows, numsamples), np.int64)
    for i in range(rows):
        w = xs[i].copy()
        cdf, total = _running(w)
        zeros = np.flatnonzero(cdf == 0.0) if not replacement else None
        for j in range(numsamples):
            if replacement:
                out[i, j] = _pick(cdf, rand[i, j] * total)
            elif j < w.size - zeros.size:
                out[i, j] = _pick(cdf, rand[i, j] * total)
                w[out[i, j]] = 0
                cdf, total = _running(w)
            else:
                out[i, j] = zeros[j - w.size + zeros.size]
    return out.reshape(x.shape[:-1] + (numsamples,)), new
