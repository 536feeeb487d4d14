"""MindSpore 2.10's CPU ``RandomGamma`` and ``ParameterizedTruncatedNormal`` kernels (rejection samplers).

* ``RandomGamma`` (``ops.random_gamma``): Philox4x32-10 keyed by ``seed`` with ``seed2`` in the counter's
  high half (both 0: random seeds), ``256 * n`` blocks reserved per launch of ``n`` samples; sample ``i``
  (alpha-major) starts at block ``256 * i`` of the launch. Marsaglia and Tsang's method in double (as
  TensorFlow's kernel): normals from Box-Muller on a block (two numbers, read last first), uniforms two
  per block (last first); ``alpha == 1`` is ``-log(1 - u)``, ``alpha < 1`` draws Gamma(alpha + 1) times
  ``u ** (1 / alpha)``. Output ``shape + alpha.shape``, sample ``s`` of alpha ``a`` at ``[s, a]``.
* ``ParameterizedTruncatedNormal``: ``minstd_rand0`` seeded with ``random::GetSeed(seed, seed2)`` when the
  kernel is built, kept from launch to launch; per batch row one of three samplers, in the parameters'
  dtype (libstdc++'s ``normal_distribution<double>``, made per row; uniform rejection; exponential
  rejection). MindSpore's kernel advances a parameter from row to row only when its rank is above 1,
  which its shape check refuses, so every row uses the first mean, stddev, min and max; msjax does the
  same. Where MindSpore flips a negative stddev it writes ``inf`` to one element and leaves the rest of
  the output as it found the buffer; msjax leaves zeros there.

Both run on the host (their loops depend on the values drawn), with the C library's math functions as
the kernels call them; inside compiled graphs they are host callbacks whose engines live in the graph's
kernel table (``random_kernels.run_kernel``).
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor
from ...common.seed import _get_graph_seed
from . import random_kernels as _rk
from ._util import wrap
from .dropout_stream import _philox_block

_M32 = 0xFFFFFFFF
_RESERVED = 256                     # Philox blocks per RandomGamma sample
_PI = 3.14159265358979323846
_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


# ---------------------------------------------------------------------------
# C math (C's results where Python's math raises)
# ---------------------------------------------------------------------------
def _log(x):
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _sqrt(x):
    return math.sqrt(x) if x >= 0 else math.nan


def _pow(x, y):
    try:
        return math.pow(x, y)
    except (ValueError, OverflowError):
        return math.inf if x == 0 else math.nan


# ---------------------------------------------------------------------------
# RandomGamma
# ---------------------------------------------------------------------------
def _doubles(words):
    """Philox words (uint[..., 4]) as two doubles in [0, 1) per block: of each word pair, the first word's
    low 20 bits and the second word make the mantissa (float64[..., 2])."""
    w = np.asarray(words, np.uint64).reshape(-1, 2, 2)
    bits = (np.uint64(1023 << 52) | ((w[..., 0] & np.uint64(0xFFFFF)) << np.uint64(32)) | w[..., 1])
    return (bits.view(np.float64) - 1.0).reshape(np.shape(words)[:-1] + (2,))


def _blocks(seed, seed2, first):
    """Philox blocks (uint64[n, 4] of words) at the 64-bit block indices ``first``."""
    first = np.asarray(first, np.uint64)
    c = _philox_block([first & np.uint64(_M32), first >> np.uint64(32), np.full_like(first, seed2 & _M32),
                       np.full_like(first, (seed2 >> 32) & _M32)], [seed & _M32, (seed >> 32) & _M32])
    return np.stack(c, axis=-1)


class _Sample:
    """One sample's Philox stream from its first block, as pairs of doubles; ``pre``: the first blocks'."""

    def __init__(self, seed, seed2, start, pre):
        self.seed, self.seed2, self.block, self.pre = seed, seed2, start, pre
        self.norm, self.uni = [], []

    def _next(self):
        self.block += 1
        if self.pre:
            return self.pre.pop(0)
        i = (self.block - 1) % 2 ** 64
        words = _philox_block([i & _M32, i >> 32, self.seed2 & _M32, self.seed2 >> 32],
                              [self.seed & _M32, self.seed >> 32])
        return _doubles(np.array([words], np.uint64))[0].tolist()

    def uniform(self):
        if not self.uni:
            self.uni = self._next()
        return self.uni.pop()

    def normal(self):
        if not self.norm:
            d0, d1 = self._next()
            u1 = max(d0, 1.0e-7)
            v1 = 2 * _PI * d1
            u2 = _sqrt(-2.0 * _log(u1))
            self.norm = [math.sin(v1) * u2, math.cos(v1) * u2]
        return self.norm.pop()


def _gamma_one(s, alpha):
    if abs(alpha - 1.0) <= 1e-14:
        return -_log(1.0 - s.uniform())
    less = alpha < 1
    su = alpha + (2.0 / 3 if less else -1.0 / 3)
    cut = 1.0 / 3 / _sqrt(su)
    while True:
        x = s.normal()
        v = 1 + cut * x
        if v <= 0:
            continue
        v = v * v * v
        u = s.uniform()
        if u < 1 - 0.0331 * (x * x) * (x * x) or _log(u) < 0.5 * x * x + su * (1 - v + _log(v)):
            res = su * v
            if less:
                res *= _pow(s.uniform(), 1 / alpha if alpha else math.copysign(math.inf, alpha))
            return res


def random_gamma_samples(alphas, per_alpha, engine):
    """One launch of the CPU ``RandomGamma`` kernel: Float64 samples ``(per_alpha, alphas.size)`` and the
    engine (key, counter offset, next block) after the launch's reservation."""
    seed, seed2, base = (int(v) for v in np.asarray(engine).reshape(-1)[:3])
    seed, seed2 = seed % 2 ** 64, seed2 % 2 ** 64
    alphas = np.asarray(alphas, np.float64).reshape(-1)
    n = alphas.size * per_alpha
    starts = np.uint64(base) + np.uint64(_RESERVED) * np.arange(n, dtype=np.uint64)    # wraps as C++'s counter
    pre = _doubles(np.stack([_blocks(seed, seed2, starts + np.uint64(k)) for k in range(2)], axis=1)).tolist()
    out = np.zeros((alphas.size, per_alpha), np.float64)
    first = starts.tolist()
    for a, alpha in enumerate(alphas.tolist()):
        row = out[a]
        for j in range(per_alpha):
            i = a * per_alpha + j
            row[j] = _gamma_one(_Sample(seed, seed2, first[i], pre[i]), alpha)
    out = out.T
    new = np.array([seed, seed2, (base + _RESERVED * n) % 2 ** 63], np.int64)
    return out, new


def _gamma(shape, alpha, seeds, primitive):
    if not isinstance(shape, Tensor):
        raise TypeError("For RandomGamma, input[0] only support tensor!")
    if shape._data.ndim != 1:
        raise ValueError("For RandomGamma, the input tensor must be a 1-D tensor.")
    if not isinstance(alpha, Tensor) or alpha._data.dtype not in _FLOATS:
        got = f"Tensor[{alpha.dtype}]" if isinstance(alpha, Tensor) else type(alpha).__name__
        raise TypeError("For primitive[RandomGamma], the input argument[alpha] must be a type of {Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got {got}.")
    shp = tuple(int(v) for v in np.asarray(shape._data))
    a = alpha._data
    npd = np.dtype(a.dtype)
    out_shape = shp + tuple(a.shape)
    per_alpha = int(np.prod(shp, dtype=np.int64))

    def host(alphas, engine):
        vals, new = random_gamma_samples(np.asarray(alphas).astype(np.float64), per_alpha, engine)
        return vals.astype(np.float32 if npd == np.float16 else npd).astype(npd).reshape(out_shape), new

    def step(engine):
        if isinstance(a, jax.core.Tracer) or isinstance(engine, jax.core.Tracer):
            return jax.pure_callback(host, (jax.ShapeDtypeStruct(out_shape, npd),
                                            jax.ShapeDtypeStruct((3,), jnp.int64)), a, engine)
        return host(a, engine)

    def fallback():
        return jax.random.gamma(_key(), jnp.broadcast_to(a, out_shape), out_shape).astype(npd)
    return wrap(_rk.run_kernel("Gamma", seeds, step, (out_shape, str(npd)), primitive, fallback))


def _key():
    from ..._core import rng
    return rng.next_key()


def _check_seeds(prim, seed=0, seed2=0):
    for name, v in (("seed", seed), ("seed2", seed2)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValueError(f"For '{prim}', the '{name}' must be int and must >= 0, but got '{v}' with type "
                             f"'{type(v).__name__}'.")


def _check_gamma(seed=0, seed2=0):
    _check_seeds("RandomGamma", seed, seed2)
    _rk.forget_primitive("Gamma", seed, seed2)


@op("prim_random_gamma", primitive="RandomGamma", prim_args=("seed", "seed2"), family="random",
    prim_check=_check_gamma)
def _prim_random_gamma(shape, alpha, seed=0, seed2=0):
    """``ops.RandomGamma(seed=0, seed2=0)(shape, alpha)``: Gamma(alpha, 1) samples, shape
    ``shape + alpha.shape``, the CPU kernel's (its Philox counter goes on from call to call)."""
    return _gamma(shape, alpha, (seed, seed2), True)


@op("random_gamma", family="random")
def random_gamma(shape, alpha, seed=None):
    """``ops.random_gamma(shape, alpha, seed=None)``: ``RandomGamma`` with the seeds of
    ``_get_graph_seed(seed, "random_gamma")`` (a fresh kernel per call in PyNative)."""
    return _gamma(shape, alpha, _get_graph_seed(seed, "random_gamma"), False)


# ---------------------------------------------------------------------------
# ParameterizedTruncatedNormal
# ---------------------------------------------------------------------------
class _Engine:
    """``minstd_rand0`` in state ``x`` with libstdc++'s ``generate_canonical<double, 53>``."""

    def __init__(self, x):
        self.x = int(x)

    def canonical(self):
        w0 = self.x * 16807 % 2147483647
        self.x = w0 * 16807 % 2147483647
        r = 2147483646.0
        return min((float(w0 - 1) + float(self.x - 1) * r) / (r * r), 0.9999999999999999)


def _normal_double(eng):
    """libstdc++'s ``normal_distribution<double>(0, 1)`` made anew: Marsaglia's polar method; the first
    number of a pair is returned, the second kept for the next call (a generator of the numbers)."""
    while True:
        while True:
            x = 2.0 * eng.canonical() - 1.0
            y = 2.0 * eng.canonical() - 1.0
            r2 = x * x + y * y
            if r2 <= 1.0 and r2 != 0.0:
                break
        mult = math.sqrt(-2 * math.log(r2) / r2)
        yield y * mult
        yield x * mult


def _exp64(v):
    """C's ``exp`` on a double: +inf past the largest double (Python's ``math.exp`` raises there)."""
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def _row(eng, size, mean, std, lo, hi, t):
    """The kernel's ``Generate`` of one batch row in the parameters' type ``t`` (NumPy scalar type)."""
    expf, logf = _rk.libm_float("expf"), _rk.libm_float("logf")

    def cast(v):                    # a double to T (Float16 through float, as MindSpore's float16 converts)
        return t(np.float32(v)) if t is np.float16 else t(v)
    if t is np.float64:
        exp, log = _exp64, _log
    else:
        def exp(v):
            return t(expf(float(v)))

        def log(v):
            return t(logf(float(v)))
    with np.errstate(all="ignore"):
        if (np.isinf(lo) and lo < 0) or hi < mean:      # the kernel's flip (a negative stddev)
            lo, hi, std = hi, lo, -std
        tmp = t(1) if std == 0 else std
        nmin, nmax = t((lo - mean) / tmp), t((hi - mean) / tmp)
        sqrt_factor = t(np.sqrt(t(nmin * nmin) + t(4)))
        cutoff = t(t(2) * exp(t(t(0.5) + t(t(nmin * t(nmin - sqrt_factor)) / t(4)))) / t(nmin + sqrt_factor))
        out = np.zeros(size, t)
        k = 0                               # where the next value goes (stays put after a flip, as in C++)
        if (nmin < t(-1.3) and nmax >= 0) or (nmax > t(1.3) and nmin <= 0):
            normals = _normal_double(eng)
            for _ in range(size):
                while True:
                    s = cast(next(normals))
                    if nmin <= s <= nmax:
                        break
                out[k] = t(t(s * std) + mean) if std > 0 else np.inf
                k += bool(std > 0)
        elif t(nmax - nmin) < cutoff:
            diff, plus = t(nmax - nmin), t(0) if nmin < 0 else t(nmin * nmin)
            for _ in range(size):
                while True:
                    z = t(t(cast(eng.canonical()) * diff) + nmin)
                    if cast(eng.canonical()) <= exp(t(t(plus - t(z * z)) / t(2))):
                        break
                out[k] = t(t(z * std) + mean) if std > 0 else np.inf
                k += bool(std > 0)
        else:
            alpha = t(t(nmin + t(np.sqrt(t(nmin * nmin) + t(4)))) / t(2))
            for k in range(size):
                while True:
                    z = t(t(-log(cast(eng.canonical())) / alpha) + nmin)
                    x = t(alpha - z) if nmin < alpha else t(nmin - alpha)
                    if cast(eng.canonical()) <= exp(t(t(-x * x) / t(2))) and z < nmax:
                        break
                out[k] = t(t(z * std) + mean)
    return out


def ptn_samples(shape, params, engine):
    """One launch of the CPU ``ParameterizedTruncatedNormal`` kernel (``params``: mean, stddev, min, max,
    first elements used for every row): (samples, new engine)."""
    eng = _Engine(np.asarray(engine).reshape(-1)[0])
    t = np.dtype(params[0].dtype).type
    mean, std, lo, hi = (t(np.asarray(p).reshape(-1)[0]) for p in params)
    batch, size = shape[0], int(np.prod(shape[1:], dtype=np.int64))
    rows = []
    for _ in range(batch):
        if std <= 0:
            raise RuntimeError("For ParameterizedTruncatedNormal, stdevs value must be greater than 0 in each batch.")
        if hi < lo:
            raise RuntimeError("For ParameterizedTruncatedNormal, max value must be greater than min value in each "
                               "batch.")
        rows.append(_row(eng, size, mean, std, lo, hi, t))
    out = np.concatenate(rows) if rows else np.zeros(0, t)
    return out.reshape(shape), np.array([eng.x], np.int64)


def _check_ptn(seed=0, seed2=0):
    _rk.forget_primitive("ParameterizedTruncatedNormal", seed, seed2)


@op("prim_parameterized_truncated_normal", primitive="ParameterizedTruncatedNormal", prim_args=("seed", "seed2"),
    family="random", prim_check=_check_ptn)
def _prim_parameterized_truncated_normal(shape, mean, stdevs, min, max, seed=0, seed2=0):
    """``ops.ParameterizedTruncatedNormal(seed=0, seed2=0)(shape, mean, stdevs, min, max)``: normal numbers
    within ``[min, max]``, the CPU kernel's (see the module's docstring for the rows' parameters)."""
    prim = "ParameterizedTruncatedNormal"
    if not isinstance(shape, Tensor) or shape._data.dtype not in (np.int32, np.int64):
        got = f"Tensor[{shape.dtype}]" if isinstance(shape, Tensor) else type(shape).__name__
        raise TypeError(f"For primitive[{prim}], the input argument[shape] must be a type of {{Tensor[Int32], "
                        f"Tensor[Int64]}}, but got {got}.")
    shp = tuple(int(v) for v in np.asarray(shape._data).reshape(-1))
    if len(shp) < 2:
        raise ValueError(f"For primitive[{prim}], the size of argument[shape] must be greater than or equal to 2, "
                         f"but got {len(shp)}.")
    params = [p._data if isinstance(p, Tensor) else p for p in (mean, stdevs, min, max)]
    if any(not hasattr(p, "dtype") for p in params) or len({np.dtype(p.dtype) for p in params}) != 1:
        raise TypeError(f"For primitive[{prim}], the input type must be same.")
    npd = np.dtype(params[0].dtype)
    if npd not in _FLOATS:
        raise TypeError(f"For primitive[{prim}], the input argument[mean] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{mstype.from_np(npd)}].")
    for name, p in zip(("mean", "stdevs", "min", "max"), params):
        if p.ndim > 1:
            raise ValueError(f"For {prim}, {name} should be at most rank 1, but got rank {p.ndim}.")
        if p.ndim == 1 and p.shape[0] not in (1, shp[0]):
            raise ValueError(f"For {prim}, {name} must be 0d, or {name}.shape = ({shp[0]}, ), but got "
                             f"({p.shape[0]}, ).")

    def host(engine, *ps):
        return ptn_samples(shp, [np.asarray(p) for p in ps], engine)

    def step(engine):
        if isinstance(engine, jax.core.Tracer) or any(isinstance(p, jax.core.Tracer) for p in params):
            return jax.pure_callback(host, (jax.ShapeDtypeStruct(shp, npd), jax.ShapeDtypeStruct((1,), jnp.int64)),
                                     engine, *params)
        return host(engine, *params)

    def fallback():
        raise RuntimeError(f"msjax's {prim} runs inside msjax's compiled graphs and PyNative, not inside other JAX "
                           "traces (its engine lives in msjax's kernel table).")
    return wrap(_rk.run_kernel(prim, (seed, seed2), step, (shp, str(npd)), True, fallback))


__all__ = ["random_gamma"]
