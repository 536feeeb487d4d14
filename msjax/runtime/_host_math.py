"""XLA CPU's float32 ``exp``, ``log``, ``logistic``, ``tanh``, ``sin``, ``cos`` and ``pow``, bit for bit.

``sin``, ``cos`` and ``pow`` XLA leaves to the C library (one ``sinf``/``cosf``/``powf`` call
per element, resolved to the process's libm): they are called here the same way (up to
``LIBM_MAX_ELEMENTS`` elements). For the others:

XLA does not call the C library for these: its CPU backend rewrites them into its own
polynomial approximations, and LLVM contracts each single-use multiply feeding an add
into one fused multiply-add (FMA, one rounding). The functions below replay that
arithmetic step for step, as jaxlib 0.10.2 compiles it for an AVX2+FMA CPU:

* every FMA is rounded once (``_fma``: the exact product in float64, the sum rounded to
  odd, then to float32);
* denormals are flushed as XLA's executables run them (DAZ on operands, FTZ on results);
* NaN comes out as XLA's does (the operand's payload, quieted; ``logistic``: of ``-x``).

Bit equality is measured, not assumed: ``tests/test_host_math.py`` compares each function
with the compiled primitive on special values, ranges around the clamps and random bit
patterns, and across shapes. ``exp`` and ``log`` of a 1-D array of 3, 5, 6, 7, 11, 13, 14 or 15
elements: XLA computes the last partial vector of such a program (all of it below 8 elements)
with the C library's ``expf``/``logf`` instead of its polynomial, and so does ``_libm_tail``
(refused on a denormal tail operand or an ``exp`` below -87.3: XLA's call runs with DAZ/FTZ set) (measured: every 1-D size up to 129 and 255, 257, 1003, 4099, 72 2-D shapes
and 5 of rank 3-4; no other shape has such a tail). ``available()`` is False on any other jaxlib,
CPU instruction set or ``xla_cpu`` flags, where XLA may compile other arithmetic. Measured CPUs: AVX2+FMA
without AVX-512 (CI's), and AMD's with AVX-512 (an EPYC, this project's development machine: XLA
compiles the same 256-bit loops there; ``bench/host_math_verify.py``, 8-16M values a function and
every 1-D size to 300, no difference); Intel's AVX-512 CPUs were not measured, so they compile.
"""
from __future__ import annotations

import os
import platform

import numpy as np

__all__ = ["Refused", "available", "cos", "exp", "log", "logistic", "power", "sin", "tanh"]

VERIFIED_JAXLIB = "0.10.2"
_F32 = np.float32
_SIGN, _EXPO, _QUIET = np.uint32(0x80000000), np.uint32(0x7F800000), np.uint32(0x00400000)
_STATE = []


class Refused(Exception):
    """This call's arithmetic is not the one replayed here: let XLA compile it."""


def available():
    """Whether this process's XLA compiles the arithmetic replayed here."""
    if not _STATE:
        _STATE.append(_check())
    return _STATE[0]


def _cpu():
    """(vendor, instruction-set flags) of this machine's first CPU, from /proc/cpuinfo."""
    vendor, flags = "", []
    with open("/proc/cpuinfo") as f:
        for ln in f:
            if ln.startswith("vendor_id") and not vendor:
                vendor = ln.split(":", 1)[1].strip()
            elif ln.startswith("flags"):
                flags = ln.split(":", 1)[1].split()
                break
    return vendor, flags


def _check():
    try:
        import jaxlib
        vendor, flags = _cpu()
    except (ImportError, OSError):
        return False
    # AVX-512: XLA still compiles these loops with 256-bit vectors (its preferred width), the same
    # arithmetic; measured on AMD's (bench/host_math_verify.py), not on Intel's, which stay compiled
    isa = "avx2" in flags and "fma" in flags and ("avx512f" not in flags or vendor == "AuthenticAMD")
    return (getattr(jaxlib, "__version__", None) == VERIFIED_JAXLIB and platform.machine() == "x86_64"
            and isa and "xla_cpu" not in os.environ.get("XLA_FLAGS", ""))


def _k(bits):
    return np.array([bits], np.uint32).view(_F32)[0]


def _flush(x):
    b = np.asarray(x, _F32).view(np.uint32)
    return np.where(b & _EXPO == 0, b & _SIGN, b).view(_F32)


def _fma(a, b, c):
    """float32 ``a * b + c`` rounded once, operands and result flushed."""
    a, b, c = (_flush(v).astype(np.float64) for v in (a, b, c))
    p = a * b                                   # exact: 24 + 24 bits
    s = p + c
    t = s - c
    err = (p - t) + (c - (s - t))               # TwoSum: s + err is exactly p + c
    bits = s.view(np.uint64)
    inexact_even = (err != 0) & (bits & np.uint64(1) == 0) & np.isfinite(s)
    if inexact_even.any():                      # round to odd: one step toward the exact sum
        away = (err > 0) == (s > 0)
        step = np.where(away, bits + np.uint64(1), bits - np.uint64(1))
        s = np.where(inexact_even, step, bits).view(np.float64)
    return _flush(s.astype(_F32))


def _mul(a, b):
    return _flush(_flush(a) * _flush(b))


def _clamp(x, lo, hi):
    """``x < lo ? lo : x`` then ``x > hi ? hi : x``: NaN passes."""
    x = np.where(x < lo, _F32(lo), x)
    return np.where(x > hi, _F32(hi), x)


def _quiet(nan_of, out):
    return np.where(np.isnan(nan_of), (nan_of.view(np.uint32) | _QUIET).view(_F32), out)


def _exp_parts(x):
    """exp(x) = y * scale, the last multiply left to the caller (logistic fuses it)."""
    x = _clamp(_flush(x), -87.8, 88.8)
    n = _clamp(np.floor(_fma(x, _k(0x3FB8AA3B), _F32(0.5))), -127.0, 127.0)
    r = _fma(-n, _k(0x3F318000), x)
    r = _fma(-n, _k(0xB95E8083), r)
    p = _fma(r, _k(0x39506967), _k(0x3AB743CE))
    for c in (0x3C088908, 0x3D2AA9C1, 0x3E2AAAAA):
        p = _fma(p, r, _k(c))
    p = _fma(p, r, _F32(0.5))
    y = _flush(_F32(1.0) + _fma(p, _mul(r, r), r))
    ni = np.where(np.isnan(n), np.int32(-2 ** 31), np.nan_to_num(n).astype(np.int32))
    scale = ((ni + np.int32(127)).astype(np.uint32) << np.uint32(23)).view(_F32)
    return y, scale


def _libm_tail(x, out, name):
    """``out`` with XLA's scalar tail of a short 1-D program put in: a vector of 8, 4, 2 or 1 lanes
    runs the polynomial, any other remainder of fewer than 8 elements calls the C library."""
    n = x.size
    if x.ndim != 1 or n >= 16 or n % 8 not in (3, 5, 6, 7):
        return out
    start = n - n % 8
    tail = x[start:]
    if np.any(((tail.view(np.uint32) & _EXPO) == 0) & (tail != 0)) or name == "expf" and np.any(tail < _F32(-87.3)):
        # XLA's C call runs with DAZ/FTZ set (logf of a denormal is not logf of zero there) and an
        # expf result near the smallest normal may round to it or flush: not replayed, compiled
        raise Refused(f"{name} of a denormal operand or an underflowing result in XLA's C-library tail")
    out = out.copy()
    out[start:] = _flush(_elementwise(name, tail))
    return out


def exp(x):
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        y, scale = _exp_parts(x)
        return _libm_tail(x, _quiet(x, _mul(y, scale)), "expf")


def logistic(x):
    """1 / (1 + exp(-x)), the add fused into exp's last multiply."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        y, scale = _exp_parts(-_flush(x))
        return _quiet(-x, _flush(_F32(1.0) / _fma(y, scale, _F32(1.0))))


def tanh(x):
    """A rational approximation on [-7.9990, 7.9990]; x itself below 4e-4, +-1 from 20."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        xf = _flush(x)
        xc = _clamp(xf, _k(0xC0FFF644), _k(0x40FFF644))
        x2 = _mul(xc, xc)
        p = _fma(x2, _k(0xA59F25C0), _k(0x2A61337E))
        for c in (0xAEBD37FF, 0x335C0041, 0x3779434A, 0x3A270DED, 0x3BA059DC):
            p = _fma(x2, p, _k(c))
        q = _fma(x2, _k(0x35A0D3D8), _k(0x38F895D6))
        for c in (0x3B14AA05, 0x3BA059DD):
            q = _fma(x2, q, _k(c))
        r = _flush(_mul(xc, p) / q)
        ax = np.abs(xf)
        r = np.where(ax < _F32(4e-4), x, r)
        r = np.where(ax >= _F32(20.0), np.copysign(_F32(1.0), x), r)
        return _quiet(x, r)


def log(x):
    """Cephes-style: x = m * 2^e with m in [sqrt(1/2), sqrt(2)), a degree-9 polynomial in m - 1;
    0 gives -inf, +inf itself, a negative or NaN operand all ones (a NaN)."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        xf = _flush(x)
        bits = np.where(~(xf > _k(0x00800000)), _k(0x00800000), xf).view(np.uint32)
        e = _F32(1.0) + ((bits >> np.uint32(23)).astype(np.int32) - np.int32(127)).astype(_F32)
        m = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(_F32)
        low = m < _k(0x3F3504F3)
        e = _flush(e - np.where(low, _F32(1.0), _F32(0.0)))
        t = _flush(_flush(m - _F32(1.0)) + np.where(low, m, _F32(0.0)))
        z = _mul(t, t)
        t3 = _mul(z, t)
        y0 = _fma(_fma(t, _k(0x3D9021BB), _k(0xBDEBD1B8)), t, _k(0x3DEF251A))
        y1 = _fma(_fma(t, _k(0xBDFE5D4F), _k(0x3E11E9BF)), t, _k(0xBE2AAE50))
        y2 = _fma(_fma(t, _k(0x3E4CCEAC), _k(0xBE7FFFFC)), t, _k(0x3EAAAAAA))
        y = _fma(_fma(y0, t3, y1), t3, y2)
        y = _fma(y, t3, _mul(_k(0xB95E8083), e))
        r = _fma(_k(0x3F318000), e, _flush(_fma(_F32(-0.5), z, t) + y))
        r = np.where(~(xf > 0), np.uint32(0xFFFFFFFF).view(_F32), r)
        r = np.where(xf == 0, _F32(-np.inf), r)
        return _libm_tail(x, np.where(xf == np.inf, _F32(np.inf), r), "logf")


# ---------------------------------------------------------------------------
# sin, cos, pow: XLA calls the C library (sinf/cosf/powf) for every element
# ---------------------------------------------------------------------------
LIBM_MAX_ELEMENTS = 1 << 14     # one C call per element from Python: beyond this a compile is cheaper
_LIBM = {}


def _libm(name, nargs):
    if name not in _LIBM:
        import ctypes
        fn = getattr(ctypes.CDLL("libm.so.6"), name)      # glibc's, the one XLA's code calls
        fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float] * nargs
        _LIBM[name] = np.frompyfunc(fn, nargs, 1)
    return _LIBM[name]


def _elementwise(name, *xs):
    if xs[0].size > LIBM_MAX_ELEMENTS:
        raise Refused(f"{name} of more than {LIBM_MAX_ELEMENTS} elements")
    with np.errstate(all="ignore"):
        return np.asarray(_libm(name, len(xs))(*xs), dtype=_F32).reshape(xs[0].shape)


def sin(x):
    """The C library's sinf on the operand as it is (it returns a denormal operand itself)."""
    return _elementwise("sinf", np.asarray(x, _F32))


def cos(x):
    return _elementwise("cosf", np.asarray(x, _F32))


def power(x, y):
    """powf on the operands as they are, a denormal result flushed (XLA runs it with FTZ). Refused
    where an operand is zero, denormal, infinite or NaN: XLA's pow differs from powf called here on
    some of them (a denormal base, NaN ** 0), measured."""
    x, y = np.broadcast_arrays(np.asarray(x, _F32), np.asarray(y, _F32))
    for v in (x, y):
        e = v.view(np.uint32) & _EXPO
        if np.any((e == 0) | (e == _EXPO)):
            raise Refused("pow of a zero, denormal, infinite or NaN operand")
    return _flush(_elementwise("powf", x, y))
