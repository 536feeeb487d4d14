"""``LayerNorm`` in the arithmetic of MindSpore 2.10's CPU kernel, for float32 and float16 on the CPU
backend outside an exporter's trace (issue 34's census: ViT's and BERT's forwards parted from
MindSpore's here). Found by matching MindSpore 2.10's outputs bit for bit
(``tests/test_kernel_order.py``, recorded by ``tests/golden/record_kernel_order.py``):

* per normalised block of ``n`` values, the sums of ``x`` and of ``x * x`` in float64, one value after
  another; ``mean = sum / n`` and ``var = sum_sq / n - mean * mean`` (biased, not a second pass over
  ``x - mean``), each rounded to float32;
* float32: ``y = ((x - mean) / sqrtf(var + eps)) * gamma + beta``, every step rounded to float32 (a
  true division, no fused multiply-add);
* float16: the same steps, each rounded to float16: ``x - f16(mean)``, divided by
  ``f16(sqrtf(var + eps))``, times ``gamma``, plus ``beta`` (float16's subnormals kept, as MindSpore's
  float16 steps keep them; ``lax.reduce_precision`` would flush them: BERT's census, 3 values apart).

Where msjax's native kernels are loaded, the whole forward is one call of ``msjax_layer_norm``
(``ops/_native/layer_norm.cc``: the same arithmetic in C++; a PyNative first call runs its host twin,
later calls a program of one custom call that compiles in milliseconds). Elsewhere (no compiler,
``MSJAX_CPU_KERNELS=0`` / ``MSJAX_LAYER_NORM_NATIVE=0``, a semi-auto/auto-parallel step) the sums
are a float64 ``lax.scan`` (same bits; 0.4-0.9 s of XLA compile per new shape). The ``custom_jvp`` is made once, its static configuration
passed as non-differentiated arguments.

The gradient is that of msjax's XLA formula (``reference``): MindSpore's ``LayerNormGrad`` is its
own kernel, which this module does not model.

Differs from MindSpore: the mean and variance outputs keep msjax's dtype (float16 for a float16
input, where MindSpore's CPU kernel returns float32).
"""
from __future__ import annotations

import functools
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ...parallel import _apply
from .. import _native
from . import conv_lowering
from ._util import rounded
from .reduce_order import _divided

NATIVE_ENV = "MSJAX_LAYER_NORM_NATIVE"     # 0: the float64 lax.scan below even where the kernel is loaded


def applies(x, gamma, beta):
    """Whether this module computes the LayerNorm of ``x`` (see the module docstring)."""
    dt = x.dtype
    return (dt in (jnp.float32, jnp.float16) and all(p is None or p.dtype == dt for p in (gamma, beta))
            and jax.default_backend() == "cpu" and conv_lowering.setting() == "auto")


def _statistics(x, bna):
    """float32 (mean, var) of each block of ``x`` from axis ``bna`` on, shaped to broadcast."""
    blocks = int(np.prod(x.shape[:bna], dtype=np.int64))
    cols = x.reshape(blocks, -1).astype(jnp.float64).T           # (n, blocks)
    n = cols.shape[0]

    def step(acc, col):
        s, q = acc
        return (s + col, q + col * col), None                    # col * col is exact in float64
    # the sums start from +0.0 (a block of one -0.0 sums to +0.0, as MindSpore's): behind a barrier, or XLA
    # folds the one-step loop's ``0 + x`` into ``x``
    zero = lax.optimization_barrier(jnp.zeros((blocks,), jnp.float64))
    (s, q), _ = lax.scan(step, (zero, zero), cols)
    mean = _divided(s, n)
    var = _divided(q, n) - rounded(mean * mean)
    shape = x.shape[:bna] + (1,) * (x.ndim - bna)
    return mean.astype(jnp.float32).reshape(shape), var.astype(jnp.float32).reshape(shape)


def _forward(x, gamma, beta, bna, bpa, eps):
    mean, var = _statistics(x, bna)
    half = x.dtype == jnp.float16
    # float16 rounding as a conversion there and back: lax.reduce_precision flushes float16's subnormals
    # (|v| < 6.1e-5) to zero, which MindSpore's float16 steps keep (BERT's census)
    step = (lambda v: v.astype(jnp.float16).astype(jnp.float32)) if half else (lambda v: v)
    xf = x.astype(jnp.float32)
    den = step(jnp.sqrt(var + jnp.float32(eps)))
    # a division by a broadcast operand (XLA would multiply by its reciprocal)
    y = step(step(xf - step(mean)) / lax.optimization_barrier(jnp.broadcast_to(den, x.shape)))
    pshape = (1,) * bpa + tuple(x.shape[bpa:])
    if gamma is not None:
        y = step(rounded(y * gamma.astype(jnp.float32).reshape(pshape)))
    if beta is not None:
        y = step(y + beta.astype(jnp.float32).reshape(pshape))
    return y.astype(x.dtype), mean, var


def _native_usable():
    """Whether the float64 serial sums may run in msjax's native kernel (``ops/_native/layer_norm.cc``):
    the kernels loaded, ``MSJAX_CPU_KERNELS`` and ``MSJAX_LAYER_NORM_NATIVE`` not 0, and not a semi-auto/
    auto-parallel step's trace (XLA's partitioner would gather a custom call's operands on every device;
    the ``lax.scan`` splits by blocks)."""
    return (os.environ.get(NATIVE_ENV, "1") != "0" and os.environ.get(conv_lowering.KERNELS_ENV, "1") != "0"
            and _apply.active() is None and _native.library() is not None)


def _native_forward(x, gamma, beta, bna, eps):
    """``_forward`` as one call of the native kernel (the same arithmetic, see its C++ file)."""
    shape = x.shape[:bna] + (1,) * (x.ndim - bna)
    empty = jnp.zeros((0,), jnp.float32)
    f32 = jax.ShapeDtypeStruct
    y, mean, var = jax.ffi.ffi_call(
        "msjax_layer_norm", (f32(x.shape, jnp.float32), f32(shape, jnp.float32), f32(shape, jnp.float32)),
        vmap_method="sequential")(
        x.astype(jnp.float32), empty if gamma is None else gamma.astype(jnp.float32).reshape(-1),
        empty if beta is None else beta.astype(jnp.float32).reshape(-1), eps=np.float32(eps),
        block=np.int64(int(np.prod(x.shape[bna:], dtype=np.int64))), half=np.int64(x.dtype == jnp.float16))
    return y.astype(x.dtype), mean, var


@functools.partial(jax.custom_jvp, nondiff_argnums=(3, 4, 5, 6, 7))
def _kernel(x, gamma, beta, bna, bpa, eps, reference, native):
    """(y, mean, var); made once: the static configuration travels as non-differentiated arguments (JAX
    keeps the traced function by them: ``native``, the choice of the sums, is one of them)."""
    if native:
        y, mean, var = _native_forward(x, gamma, beta, bna, eps)
    else:
        y, mean, var = _forward(x, gamma, beta, bna, bpa, eps)
    dt = jnp.dtype(jnp.float16) if x.dtype == jnp.float16 else jnp.dtype(jnp.float32)
    return y, mean.astype(dt), var.astype(dt)


@_kernel.defjvp
def _jvp(bna, bpa, eps, reference, native, primals, tangents):
    ref = functools.partial(reference, begin_norm_axis=bna, begin_params_axis=bpa, eps=eps)
    return _kernel(*primals, bna, bpa, eps, reference, native), jax.jvp(ref, primals, tangents)[1]


def layer_norm(x, gamma, beta, begin_norm_axis, begin_params_axis, eps, reference):
    """(y, mean, var) of MindSpore's CPU kernel; ``reference(x, gamma, beta, begin_norm_axis,
    begin_params_axis, eps)`` gives the gradient and the statistics' dtype."""
    return _kernel(x, gamma, beta, begin_norm_axis % x.ndim, begin_params_axis % x.ndim, eps, reference,
                   _native_usable())
