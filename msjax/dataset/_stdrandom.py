"""The random streams of MindSpore's C++ data engine, reproduced in Python.

MindSpore's samplers and shuffle buffer draw from ``std::mt19937`` /
``std::mt19937_64`` through libstdc++'s ``std::shuffle``,
``std::uniform_int_distribution``, ``std::discrete_distribution`` and
``std::exponential_distribution`` (MindSpore 2.10's Linux wheels are built with
GCC 9: ``uniform_int_distribution`` downscales by division and rejection,
``std::shuffle`` draws two swap positions per number while the range allows it).
Following the same arithmetic here gives MindSpore's orders for the same seed.

``MT19937`` hands out the raw 32-bit outputs of numpy's Mersenne Twister, seeded as
``std::mt19937(seed)`` seeds (``init_genrand``); ``MT19937_64`` is the 64-bit
engine in pure Python (only the shuffle buffer uses it).
"""
from __future__ import annotations

import bisect
import math

import numpy as np

__all__ = ["MT19937", "MT19937_64", "uniform_int", "shuffle", "canonical", "exponential", "discrete_sampler",
           "bernoulli", "uniform_real", "uniform_real_float", "canonical_float", "cpp_round"]

_U32 = 0xFFFFFFFF
_U64 = (1 << 64) - 1


def _init_genrand(seed):
    key = [0] * 624
    key[0] = seed & _U32
    for i in range(1, 624):
        prev = key[i - 1]
        key[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _U32
    return key


class MT19937:
    """``std::mt19937(seed)``: call it for the next 32-bit output."""

    max = _U32

    def __init__(self, seed):
        self._bg = np.random.MT19937(0)
        self._bg.state = {"bit_generator": "MT19937",
                          "state": {"key": np.array(_init_genrand(int(seed)), np.uint32), "pos": 624}}
        self._buf = []
        self._pos = 0

    def _ensure(self, k):
        if len(self._buf) - self._pos < k:
            self._buf = self._buf[self._pos:] + self._bg.random_raw(max(k, 624)).tolist()
            self._pos = 0

    def __call__(self):
        if self._pos >= len(self._buf):
            self._ensure(1)
        v = self._buf[self._pos]
        self._pos += 1
        return v

    def peek(self, k):
        """The next ``k`` outputs (uint64 array) without using them up."""
        self._ensure(k)
        return np.asarray(self._buf[self._pos:self._pos + k], np.uint64)

    def skip(self, k):
        self._pos += k

    def getstate(self):
        return self._bg.state, self._buf[self._pos:]

    def setstate(self, state):
        self._bg.state, buf = state
        self._buf, self._pos = list(buf), 0


class MT19937_64:
    """``std::mt19937_64(seed)``."""

    max = _U64

    def __init__(self, seed):
        mt = [0] * 312
        mt[0] = int(seed) & _U64
        for i in range(1, 312):
            prev = mt[i - 1]
            mt[i] = (6364136223846793005 * (prev ^ (prev >> 62)) + i) & _U64
        self._mt, self._i = mt, 312

    def _twist(self):
        mt = self._mt
        for i in range(312):
            x = (mt[i] & 0xFFFFFFFF80000000) | (mt[(i + 1) % 312] & 0x7FFFFFFF)
            xa = x >> 1
            if x & 1:
                xa ^= 0xB5026F5AA96619E9
            mt[i] = mt[(i + 156) % 312] ^ xa
        self._i = 0

    def __call__(self):
        if self._i >= 312:
            self._twist()
        y = self._mt[self._i]
        self._i += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & _U64


def uniform_int(g, a, b):
    """``std::uniform_int_distribution(a, b)(g)`` (libstdc++ 9, a 32-bit engine)."""
    urange = b - a
    if urange < 0:
        raise ValueError("empty range")
    if urange == g.max:
        return a + g()
    if urange > g.max:
        # libstdc++: high part from a recursive draw, low part from one engine output,
        # redrawn when the sum leaves the range or wraps (64-bit arithmetic)
        uerng = g.max + 1
        while True:
            tmp = (uerng * uniform_int(g, 0, urange // uerng)) & _U64
            ret = (tmp + g()) & _U64
            if tmp <= ret <= urange:
                return a + ret
    uerange = urange + 1
    scaling = g.max // uerange
    past = uerange * scaling
    r = g()
    while r >= past:
        r = g()
    return a + r // scaling


def shuffle(ids, g):
    """``std::shuffle(ids.begin(), ids.end(), g)`` in place (libstdc++'s version: two
    swap positions from one draw while ``n * n`` fits the engine's range)."""
    n = len(ids)
    if n == 0:
        return ids
    if g.max // n >= n:
        i = 1
        if n % 2 == 0:
            j = uniform_int(g, 0, 1)
            ids[1], ids[j] = ids[j], ids[1]
            i = 2
        while i != n:
            span = i + 1
            x = uniform_int(g, 0, span * (span + 1) - 1)
            j, k = divmod(x, span + 1)
            ids[i], ids[j] = ids[j], ids[i]
            ids[i + 1], ids[k] = ids[k], ids[i + 1]
            i += 2
        return ids
    if not isinstance(g, MT19937):
        for i in range(1, n):
            j = uniform_int(g, 0, i)
            ids[i], ids[j] = ids[j], ids[i]
        return ids
    for i, j in zip(range(1, n), _swap_positions(g, n)):
        ids[i], ids[j] = ids[j], ids[i]
    return ids


def _swap_positions(g, n, block=65536):
    """``uniform_int(g, 0, i)`` for i = 1 .. n-1 from a 32-bit engine, a block of draws at a
    time: the block is cut at the first rejected draw (rare), which is redrawn one by one."""
    out = []
    i = 1
    while i < n:
        span = np.arange(i, min(i + block, n), dtype=np.uint64) + np.uint64(1)
        scaling = np.uint64(_U32) // span
        raw = g.peek(len(span))
        bad = np.flatnonzero(raw >= span * scaling)
        keep = int(bad[0]) if len(bad) else len(span)
        out.append(raw[:keep] // scaling[:keep])
        g.skip(keep)
        i += keep
        if len(bad):
            out.append(np.array([uniform_int(g, 0, i)], np.uint64))
            i += 1
    return np.concatenate(out).tolist() if out else []


def canonical(g):
    """``std::generate_canonical<double, 53>(g)`` for a 32-bit engine: two draws."""
    lo = float(g())
    hi = float(g())
    r = (lo + hi * 4294967296.0) / 18446744073709551616.0
    return r if r < 1.0 else math.nextafter(1.0, 0.0)


def bernoulli(g, p):
    """``std::bernoulli_distribution(p)(g)``: a canonical double below ``p`` (two draws)."""
    return canonical(g) < p


def uniform_real(g, a, b):
    """``std::uniform_real_distribution<double>(a, b)(g)``."""
    return canonical(g) * (b - a) + a


_F1 = np.float32(1.0)
_BELOW_F1 = np.nextafter(_F1, np.float32(0.0))
_F2_32 = np.float32(4294967296.0)


def canonical_float(g):
    """``std::generate_canonical<float, 24>(g)`` for a 32-bit engine: ONE draw made a float
    (rounded to nearest, so it may reach 2**32), divided by 2**32 in float32; a result of 1
    becomes the float just below it. Returns a ``np.float32``."""
    u = np.float32(g()) / _F2_32
    return _BELOW_F1 if u >= _F1 else u


def uniform_real_float(g, a, b):
    """``std::uniform_real_distribution<float>(a, b)(g)`` for a 32-bit engine: a canonical
    float scaled in float32 arithmetic."""
    a, b = np.float32(a), np.float32(b)
    return float(canonical_float(g) * (b - a) + a)


def cpp_round(x):
    """``std::round``: halves away from zero (Python's ``round`` goes to even)."""
    ax = abs(x)
    r = math.floor(ax)
    if ax - r >= 0.5:         # exact: no ``ax + 0.5`` rounding up just below a half
        r += 1
    return math.copysign(r, x)


def exponential(g, lam=1.0):
    """``std::exponential_distribution<double>(lam)(g)``."""
    return -math.log(1.0 - canonical(g)) / lam


def discrete_sampler(weights):
    """``std::discrete_distribution<int64_t>(weights)``: returns ``draw(g)``."""
    total = 0.0
    for w in weights:          # std::accumulate: a plain running sum
        total += float(w)
    cp, acc = [], 0.0
    for w in weights:
        acc += float(w) / total
        cp.append(acc)
    cp[-1] = 1.0

    def draw(g):
        return bisect.bisect_left(cp, canonical(g))
    return draw
