"""MindSpore 2.10's CPU ``Dropout`` kernel stream, as array code (runs inside ``ms.jit``).

MindSpore's kernel (``ops/kernel/cpu/dropout_cpu_kernel.cc``) seeds a
``std::default_random_engine`` (libstdc++'s ``minstd_rand0``: x <- 16807 x mod 2**31-1) with
``random::GetSeed(Seed0, Seed1)`` (one Philox4x32-10 block of the two seeds under a fixed key)
when the kernel is built, and keeps it between launches: each call of one ``Dropout`` on one
input shape reads the next ``size`` numbers, ``float(x - 1) / 2**31`` (``generate_canonical``
in float), and keeps an element when the number is below ``keep_prob``. A new input shape
builds a new kernel, so each (layer, shape) has its own stream. Here the k-th number is
``x0 * 16807**k`` (jump-ahead by precomputed squares), so a whole mask is one vectorised
expression, and the stream position lives in a hidden Int64 Parameter that compiled steps
thread like any other state.

Unseeded (``Seed0 == Seed1 == 0``) MindSpore takes a ``std::random_device`` number; msjax takes
one from ``os.urandom``. MindSpore's kernel shares its engine among threads for large inputs,
so its own masks of those are not reproducible; msjax's are MindSpore's single-thread stream.
"""
from __future__ import annotations

import functools
import os

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.parameter import Parameter

_M = 2 ** 31 - 1
_A = 16807
_MAX_SHAPES = 16
_BELOW_ONE = np.nextafter(np.float32(1), np.float32(0))


def _philox_block(counter, key):
    c, k = list(counter), list(key)
    for _ in range(10):
        t0, t1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(t1 >> 32) ^ c[1] ^ k[0], t1 & 0xFFFFFFFF, (t0 >> 32) ^ c[3] ^ k[1], t0 & 0xFFFFFFFF]
        k = [(k[0] + 0x9E3779B9) & 0xFFFFFFFF, (k[1] + 0xBB67AE85) & 0xFFFFFFFF]
    return c


def kernel_seed(seed0, seed1):
    """``random::GetSeed(seed0, seed1)`` (a random 32-bit number when both are 0)."""
    seed0, seed1 = int(seed0) % 2 ** 64, int(seed1) % 2 ** 64
    if seed0 == 0 and seed1 == 0:
        return int.from_bytes(os.urandom(4), "little")
    r = _philox_block([seed0 & 0xFFFFFFFF, seed0 >> 32, seed1 & 0xFFFFFFFF, seed1 >> 32], [0x3EC8F720, 0x02461E29])
    return (r[1] << 32) | r[0]


def engine_state(seed):
    """``minstd_rand0::seed(seed)``: the engine's first state."""
    return seed % _M or 1


_LOW = 1024        # 16807**k = 16807**(1024 h) * 16807**l for k = 1024 h + l: two small tables


@functools.lru_cache(maxsize=64)
def _power_tables(n):
    """``(high, low)``: 16807**(1024 h) and 16807**(l + 1) mod 2**31-1 for the ``n`` numbers."""
    low, v = [], 1
    for _ in range(_LOW):
        v = v * _A % _M
        low.append(v)
    high, v, step = [], 1, pow(_A, _LOW, _M)
    for _ in range(-(-n // _LOW)):
        high.append(v)
        v = v * step % _M
    return np.array(high, np.uint64), np.array(low, np.uint64)


def _mulmod(xp, a, b):
    """a * b mod 2**31-1 for a, b < 2**31 (uint64), by folding the Mersenne modulus (no division)."""
    v = a * b
    m = xp.uint64(_M)
    v = (v & m) + (v >> xp.uint64(31))
    v = (v & m) + (v >> xp.uint64(31))
    return xp.where(v >= m, v - m, v)


def _uniforms(xp, x, n):
    """The next ``n`` numbers of the engine in state ``x`` (Float32 in [0, 1)) and its new state,
    with the array module ``xp`` (numpy or jax.numpy): the k-th number is x * 16807**k."""
    high, low = _power_tables(n)
    power = _mulmod(xp, xp.asarray(high)[:, None], xp.asarray(low)[None, :]).reshape(-1)[:n]
    xs = _mulmod(xp, xp.asarray(x).astype(xp.uint64), power)
    u = (xs - xp.uint64(1)).astype(xp.float32) * xp.float32(2.0 ** -31)
    return xp.minimum(u, _BELOW_ONE), xs[-1].astype(xp.int64)


_jitted_uniforms = jax.jit(functools.partial(_uniforms, jnp), static_argnums=1)


class Streams:
    """One ``Dropout``'s engines, one per input shape (MindSpore builds a kernel per shape), in a
    hidden Parameter (not a Cell attribute: not in ``get_parameters`` or checkpoints)."""

    def __init__(self, seed0, seed1):
        first = engine_state(kernel_seed(seed0, seed1))
        self.state = Parameter(np.full((_MAX_SHAPES,), first, np.int64), name="_msjax_dropout_stream",
                                requires_grad=False)
        self._slots = {}

    def draw(self, shape):
        """Float32 numbers of ``shape`` from this shape's engine (which advances)."""
        shape = tuple(int(s) for s in shape)
        slot = self._slots.get(shape)
        if slot is None:
            if len(self._slots) == _MAX_SHAPES:
                raise RuntimeError(f"msjax's Dropout keeps MindSpore's random stream for at most {_MAX_SHAPES} "
                                   "input shapes per layer; this layer met more.")
            slot = self._slots[shape] = len(self._slots)
        n = int(np.prod(shape, dtype=np.int64))
        table = self.state._data
        if n == 0:
            return np.zeros(shape, np.float32)
        if isinstance(table, jax.core.Tracer):         # in a compiled step: array code, no host trip
            u, last = _jitted_uniforms(table[slot], n)
            self.state._data = table.at[slot].set(last)
        else:                                          # PyNative: on the host, nothing to compile
            table = np.array(table)
            u, table[slot] = _uniforms(np, table[slot], n)
            self.state._data = jnp.asarray(table)
        return u.reshape(shape)


@jax.jit
def _apply(x, kept, scale):
    if x.dtype == jnp.float16:
        scaled = (x.astype(jnp.float32) * scale).astype(jnp.float16)
    else:
        scaled = x * scale.astype(x.dtype)
    # MindSpore's mask * x * scale: a dropped element is 0 * x (-0.0 for a negative x, NaN for
    # inf/NaN), which XLA would fold to +0.0 if written as a product with the mask
    return jnp.where(kept, scaled, x * jnp.zeros((), x.dtype)), kept.astype(x.dtype)


def dropout(x, keep_prob, streams):
    """MindSpore's CPU Dropout of the array ``x``: (output, mask), the mask in ``x``'s dtype."""
    keep = np.float32(keep_prob)
    return _apply(x, streams.draw(x.shape) < keep, np.float32(1) / keep)
