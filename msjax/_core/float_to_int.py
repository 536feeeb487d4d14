"""Float -> integer conversion as MindSpore's CPU ``Cast`` kernel computes it on x86.

MindSpore's kernel is C++'s ``static_cast<T>(float)``, which x86 compiles to the truncating
``cvtt*2si`` instructions: to Int8/UInt8/Int16/UInt16/Int32 through a 32-bit conversion, to
UInt32/Int64 through a 64-bit one, whose out-of-range inputs (NaN and infinities too) give the
"integer indefinite" value (``INT32_MIN`` / ``INT64_MIN``); the result then keeps its low bits
(``-4.0`` -> UInt8 252, ``300.0`` -> 44). UInt64 takes gcc's two-branch sequence (inputs from
2**63 up are converted less 2**63 and get the top bit). XLA's conversion saturates instead
(``-4.0`` -> 0, ``300.0`` -> 255); values inside the target's range agree.

Differs from MindSpore: on an ARM host MindSpore's kernel saturates, as XLA does; msjax gives the
x86 answer everywhere.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

_VIA_32 = {np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32)}
_VIA_64 = {np.dtype(t) for t in (np.uint32, np.int64)}
_TOP = 2.0 ** 63


def _cvtt(x, bits):
    """x86's truncating conversion to a signed ``bits``-bit integer (``INT_MIN`` out of range)."""
    it = jnp.int32 if bits == 32 else jnp.int64
    lim = 2.0 ** (bits - 1)
    ok = (x >= -lim) & (x < lim)      # NaN fails both
    return jnp.where(ok, jnp.where(ok, x, 0).astype(it), jnp.iinfo(it).min)


def astype(a, dtype):
    """``a.astype(dtype)``, a floating ``a`` going to an integer dtype as MindSpore's x86 ``Cast``."""
    dtype = np.dtype(dtype)
    src = np.dtype(a.dtype)
    if src.kind != "f" and src != jnp.bfloat16 or dtype.kind not in "iu":
        return a.astype(dtype)
    return _convert(a, dtype)


@functools.partial(jax.jit, static_argnums=1)
def _convert(a, dtype):
    x = a.astype(jnp.float32) if a.dtype.itemsize < 4 else a      # Float16/BFloat16 values are exact in float32
    if dtype in _VIA_32:
        return _cvtt(x, 32).astype(dtype)
    if dtype in _VIA_64:
        return _cvtt(x, 64).astype(dtype)
    big = x >= _TOP
    low = _cvtt(jnp.where(big, x - _TOP, x), 64)
    return jnp.where(big, low ^ jnp.int64(jnp.iinfo(jnp.int64).min), low).astype(dtype)
