"""Float32 arithmetic in the rounding of MindSpore 2.10's CPU kernels, used on the CPU backend so that
msjax computes MindSpore's bits (issue 34's census: forwards that parted from MindSpore's by float32
rounding):

* ``applies(x)``: float32 on the CPU backend, outside an exporter's trace (the writers write the
  MindSpore node, which MindSpore's kernel computes so);
* ``sigmoid(x)``: nnacl's ``Sigmoid``, ``1 / (1 + exp(-x))`` with nnacl's ``exp``: ``x`` clamped to
  ``[log(FLT_MIN), log(FLT_MAX)]``, ``n = floor(x * log2(e) + 0.5)``, ``r = x - n * 0.693147`` and a
  degree-5 polynomial of ``r`` in fused multiply-adds, times ``2 * 2^(n - 1)``. Its values are up
  to a few float32 ulps from the exact sigmoid (MindSpore's, which msjax now gives); the gradient is
  MindSpore's ``SigmoidGrad``, ``dy * y * (1 - y)``.
* ``tanh(x)``: nnacl's ``Tanh``, the rational (Pade) form ``a / b`` with ``s = x * x``,
  ``a = (((s + 378) * s + 17325) * s + 135135) * x``, ``b = ((28 * s + 3150) * s + 62370) * s + 135135``
  in fused multiply-adds, and ``sign(x)`` where ``|x| > 5``. Up to 1e-4 from the exact tanh (above 1
  just below ``|x| = 5``), as MindSpore's PyNative and GRAPH_MODE give it; the gradient is
  MindSpore's ``TanhGrad``, ``dy * (1 - y * y)``.

Differs from MindSpore (``docs/differences.md``): a sigmoid below the smallest normal float32 (``x``
near -88) is 0, where MindSpore's kernel returns a subnormal or 0 depending on its thread (XLA:CPU
flushes subnormals); a MindSpore thread's chunk of the tensor that holds a NaN is computed with the
C library's ``expf`` instead, which msjax does not reproduce (the chunks follow MindSpore's count of
its launches).

A fused multiply-add is computed in float64 (the product of two float32 values is exact there) and
rounded to float32 once.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import conv_lowering
from ...runtime import _host_eager

_F32 = np.float32
_LN2 = _F32(0.693147)
_POLY = (_F32(1.0) / _F32(120), _F32(1.0) / _F32(24), _F32(1.0) / _F32(6), _F32(0.5), _F32(1.0), _F32(1.0))


def applies(x):
    """Whether ``x`` is computed as MindSpore's CPU kernels compute it (see the module docstring)."""
    return x.dtype == jnp.float32 and jax.default_backend() == "cpu" and conv_lowering.setting() == "auto"


def _f64(v):
    return lax.convert_element_type(v, np.float64) if isinstance(v, jax.Array) else np.float64(v)


def _fma(a, b, c):
    # lax, not jnp: a PyNative new shape traces the program again, and jnp's wrappers were most of it
    return lax.convert_element_type(lax.add(lax.mul(_f64(a), _f64(b)), _f64(c)), np.float32)


def _exp(x):
    """nnacl's float32 ``exp`` (``simd_exp32``)."""
    x = lax.min(lax.max(_F32(-87.3365478515625), x), _F32(88.72283935546875))     # jnp.clip's order
    n = lax.floor(_fma(x, _F32(1.44269504088896341), _F32(0.5)))
    r = _fma(lax.neg(n), _LN2, x)
    q = lax.full_like(r, _POLY[0])
    for c in _POLY[1:]:
        q = _fma(r, q, c)
    scale = lax.bitcast_convert_type(
        lax.shift_left(lax.add(lax.convert_element_type(n, np.int32), np.int32(126)), np.int32(23)), np.float32)
    return lax.mul(lax.mul(_F32(2), scale), q)


@jax.custom_jvp
def _sigmoid(x):
    return lax.div(_F32(1), lax.add(_F32(1), _exp(lax.neg(x))))


@_sigmoid.defjvp
def _sigmoid_jvp(primals, tangents):
    y = _sigmoid(primals[0])
    return y, tangents[0] * y * (_F32(1) - y)


# One program for a PyNative call: evaluated op by op, its 47 primitives were as many eager programs,
# several called more than 3 times a call (the 7 multiply-adds), so that the host path
# compiled them on the first and second calls (about 450 and 200 ms). Inlined into an enclosing trace
# (GRAPH_MODE, ``ms.grad``), so traced programs are unchanged. Same bits: each float64 product of two
# float32 values is exact, so contracting it with the add cannot round differently.
sigmoid = jax.jit(_sigmoid, inline=True)
sigmoid.__doc__ = "nnacl's float32 ``Sigmoid`` (see the module docstring)."


@jax.custom_jvp
def _tanh(x):
    s = lax.optimization_barrier(lax.mul(x, x))     # rounded to float32 before ``+ 378``: kept from an FMA
    a = lax.mul(_fma(_fma(lax.add(s, _F32(378)), s, _F32(17325)), s, _F32(135135)), x)
    b = _fma(_fma(_fma(_F32(28), s, _F32(3150)), s, _F32(62370)), s, _F32(135135))
    return lax.select(lax.gt(lax.abs(x), _F32(5)), lax.sign(x), lax.div(a, b))


@_tanh.defjvp
def _tanh_jvp(primals, tangents):
    y = _tanh(primals[0])
    return y, tangents[0] * (_F32(1) - y * y)


# One program for a PyNative call, as ``sigmoid``: op by op its 30 primitives cost 30 ms a new shape
# and 12 ms a repeated call (the host path compiled the repeated multiply-adds one by one).
tanh = jax.jit(_tanh, inline=True)
tanh.__doc__ = "nnacl's float32 ``Tanh`` (see the module docstring)."
# first calls on the host as the primitives were (tests/test_host_eager.py: the same bits compiled)
_host_eager.COMPOSITIONS.update(("_sigmoid", "_tanh"))
