"""Training-mode BatchNorm on msjax's native CPU kernel (``msjax/ops/_native/batch_norm.cc``,
``MsjaxBatchNormTrain`` / ``MsjaxBatchNormGrad``): MindSpore 2.10's CPU ``BatchNorm`` and
``BatchNormGrad`` arithmetic, so a training BatchNorm's output, batch statistics and gradients are
MindSpore's bit for bit.

MindSpore's CPU kernels run oneDNN 3.10's reference NCHW implementation (``ncsp_bnorm``) with each
channel reduced by one thread; its forward sums four float lanes per image and its backward sums each
image sequentially (see the C++ file for the order). XLA's reductions sum in other orders: before this
kernel 53-92 % of a ResNet-18 BatchNorm's outputs and gradients differed from MindSpore's in the last
bit, enough for the zoo's ResNet-18 to print other losses from step 10 on. The order does not depend
on the machine's instruction set or thread count (MindSpore's build of that code is SSE).

:func:`usable`: float32 input with the channel on axis 1 and no empty axis, and the conditions of
``matmul_onednn.native_usable`` (the CPU backend, the kernels loaded, outside forward-mode and
exporters' traces, ``MSJAX_CPU_KERNELS`` not 0). Otherwise ``normalization`` keeps XLA's formula.
Cotangents of the returned mean and variance (MindSpore's ``BatchNormGrad`` has none: only ``y``
carries gradients there) are added to ``dx`` by the closed form when they are not zero.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.custom_derivatives import SymbolicZero

from . import matmul_onednn


def usable(x, channel_axis):
    """Whether the native kernel may compute this training BatchNorm (see the module docstring)."""
    return (x.dtype == jnp.float32 and channel_axis == 1 and x.ndim >= 2 and x.size > 0
            and matmul_onednn.native_usable())


def _stats(c):
    return jax.ShapeDtypeStruct((c,), jnp.float32)


@functools.partial(jax.custom_vjp, nondiff_argnums=(3,))
def batch_norm_train(x, gamma, beta, eps):
    """(y, mean, biased variance) of float32 ``x`` (N, C, ...) with (C,) ``gamma`` / ``beta``."""
    c = x.shape[1]
    return jax.ffi.ffi_call("msjax_batch_norm_train", (jax.ShapeDtypeStruct(x.shape, jnp.float32), _stats(c),
                                                       _stats(c)), vmap_method="sequential")(
        x, gamma.astype(jnp.float32), beta.astype(jnp.float32), eps=np.float32(eps))


def _fwd(x, gamma, beta, eps):
    x, gamma, beta = (a.value for a in (x, gamma, beta))
    y, mean, var = batch_norm_train(x, gamma, beta, eps)
    return (y, mean, var), (x, gamma, beta, mean, var)


def _bwd(eps, res, cts):
    x, gamma, beta, mean, var = res
    ct, ct_mean, ct_var = cts
    c = x.shape[1]
    if isinstance(ct, SymbolicZero):
        ct = jnp.zeros(x.shape, jnp.float32)
    dx, dgamma, dbeta = jax.ffi.ffi_call(
        "msjax_batch_norm_grad", (jax.ShapeDtypeStruct(x.shape, jnp.float32), _stats(c), _stats(c)),
        vmap_method="sequential")(ct, x, gamma.astype(jnp.float32), mean, var, eps=np.float32(eps))
    shape = (1, c) + (1,) * (x.ndim - 2)
    n = x.size // c
    if not isinstance(ct_mean, SymbolicZero):      # d mean / dx = 1 / n
        dx = dx + ct_mean.reshape(shape) / n
    if not isinstance(ct_var, SymbolicZero):       # d var / dx = 2 (x - mean) / n
        dx = dx + ct_var.reshape(shape) * (2 / n) * (x - mean.reshape(shape))
    return dx, dgamma.astype(gamma.dtype), dbeta.astype(beta.dtype)


batch_norm_train.defvjp(_fwd, _bwd, symbolic_zeros=True)
