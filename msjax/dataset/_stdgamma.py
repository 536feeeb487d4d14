"""libstdc++'s ``std::normal_distribution<float>`` and ``std::gamma_distribution<float>``, as
MindSpore 2.10's ``MixUpBatch`` and ``CutMixBatch`` draw them from a ``std::mt19937``.

The arithmetic follows libstdc++ (``bits/random.tcc``, the same since GCC 4.x) step by step,
with float and double operations where C++ has them:

* the uniform numbers are ``generate_canonical<float, 24>``: one 32-bit draw each
  (``_stdrandom.canonical_float``);
* ``normal_distribution`` is Marsaglia's polar method; it makes two normals per accepted
  pair and keeps the second for its next call (``_M_saved``). A ``gamma_distribution``
  owns its normal distribution, so the kept value carries over between calls of one
  gamma object, never between two objects;
* ``gamma_distribution`` is Marsaglia and Tsang's method; for ``alpha < 1`` it draws
  Gamma(alpha + 1) and multiplies by ``U ** (1 / alpha)``.

``logf``, ``powf`` come from the C library (``ctypes``), as MindSpore's compiled code calls
them: their last bit may differ from a correctly rounded result, and MindSpore's numbers
carry that last bit. Without a loadable C math library numpy's float32 functions stand in.
"""
from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np

from ._stdrandom import canonical_float

__all__ = ["NormalFloat", "GammaFloat"]

_f32 = np.float32


def _libm():
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        logf, powf = lib.logf, lib.powf
    except (OSError, AttributeError):
        return (lambda x: _f32(np.log(_f32(x)))), (lambda x, y: _f32(np.power(_f32(x), _f32(y))))
    logf.restype, logf.argtypes = ctypes.c_float, [ctypes.c_float]
    powf.restype, powf.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]
    return (lambda x: _f32(logf(float(x)))), (lambda x, y: _f32(powf(float(x), float(y))))


_logf, _powf = _libm()
_ONE, _TWO, _THREE, _NINE = _f32(1.0), _f32(2.0), _f32(3.0), _f32(9.0)


class NormalFloat:
    """``std::normal_distribution<float>(mean, stddev)``: call it with an engine."""

    def __init__(self, mean=0.0, stddev=1.0):
        self.mean, self.stddev = _f32(mean), _f32(stddev)
        self._saved = None

    def __call__(self, g):
        if self._saved is not None:
            ret, self._saved = self._saved, None
        else:
            while True:
                x = _f32(float(_TWO * canonical_float(g)) - 1.0)    # float * float - double
                y = _f32(float(_TWO * canonical_float(g)) - 1.0)
                r2 = x * x + y * y
                if not (r2 > 1.0 or r2 == 0.0):
                    break
            mult = _f32(np.sqrt(_f32(-2) * _logf(r2) / r2))
            self._saved = x * mult
            ret = y * mult
        return ret * self.stddev + self.mean


class GammaFloat:
    """``std::gamma_distribution<float>(alpha, beta)``: call it with an engine; the object keeps
    its normal distribution (and the normal kept for the next call) as libstdc++'s does."""

    def __init__(self, alpha=1.0, beta=1.0):
        self.alpha, self.beta = _f32(alpha), _f32(beta)
        self._malpha = self.alpha + _ONE if self.alpha < 1.0 else self.alpha
        self._a1 = self._malpha - _ONE / _THREE
        self._a2 = _ONE / _f32(np.sqrt(_NINE * self._a1))
        self._nd = NormalFloat()

    def __call__(self, g):
        a1, a2 = self._a1, self._a2
        while True:
            while True:
                n = self._nd(g)
                v = _ONE + a2 * n
                if not v <= 0.0:
                    break
            v = v * v * v
            u = canonical_float(g)
            fn, fv = float(n), float(v)
            if not (float(u) > 1.0 - 0.0331 * fn * fn * fn * fn
                    and float(_logf(u)) > 0.5 * fn * fn + float(a1) * (1.0 - fv + float(_logf(v)))):
                break
        if self.alpha == self._malpha:
            return a1 * v * self.beta
        while True:
            u = canonical_float(g)
            if u != 0.0:
                break
        return _powf(u, _ONE / self.alpha) * a1 * v * self.beta
