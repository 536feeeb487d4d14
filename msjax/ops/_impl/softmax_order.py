"""Float32 ``Softmax`` along the last axis as MindSpore 2.10's CPU kernel (nnacl's ``SoftmaxLastAxis``)
computes it, so that the results are its bits on the CPU backend (issue 34's census: EcapaTDNN's
attentive statistics pooling):

``e = exp(x - max(x))`` with nnacl's ``exp`` (``cpu_kernel_math``); the row's sum in float32 in the
kernel's SIMD order: eight lanes over the first multiple of 8 values (AVX), the lanes added in
order; then one four-lane block (SSE) when four or more values remain, its lanes added in order and
the block's sum added; then the rest one by one; the output is ``e * (1 / sum)``. The gradient is
MindSpore's ``SoftmaxGrad``, ``y * (dy - sum(dy * y))``.

Differs from MindSpore: measured on an AVX2 machine (no AVX-512), whose lane count is the one here.
Other axes and dtypes keep XLA's softmax.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ...runtime import _host_eager
from .cpu_kernel_math import _exp
from .reduce_order import _row, _sequential_rows

__all__ = ["softmax_last"]


def _last(x, k):
    return lax.index_in_dim(x, k, x.ndim - 1, keepdims=False)


def _lane_total(e, start, width, stop):
    """The blocks of ``width`` values of ``e[..., start:stop]`` summed lane by lane, then the lanes in order."""
    nd = e.ndim
    blocks = lax.reshape(lax.slice_in_dim(e, start, stop, axis=nd - 1), e.shape[:-1] + ((stop - start) // width, width))
    blocks = lax.transpose(blocks, (nd - 1,) + tuple(range(nd - 1)) + (nd,))     # (block, *rows, lane)
    acc = _sequential_rows(blocks) if blocks.shape[0] > 1 else _row(blocks, 0)
    total = _last(acc, 0)
    for i in range(1, width):
        total = lax.add(total, _last(acc, i))
    return total


def _row_sum(e):
    """Each row's sum (the last axis), the leading axes kept: a sharded ``e`` keeps its layout (rows
    flattened into one axis would make XLA gather an operand cut over two of them)."""
    n = e.shape[-1]
    n8 = n - n % 8
    n4 = n8 + (4 if n - n8 >= 4 else 0)
    total = lax.full(e.shape[:-1], 0, e.dtype)
    if n8:
        total = _lane_total(e, 0, 8, n8)
    if n4 > n8:
        total = lax.add(total, _lane_total(e, n8, 4, n4))
    for k in range(n4, n):
        total = lax.add(total, _last(e, k))
    return total


@jax.custom_jvp
def _softmax_last(x):
    # lax, not jnp: a PyNative new shape traces this again (jnp's wrappers were most of it)
    lead = tuple(range(x.ndim - 1))
    e = _exp(lax.sub(x, lax.broadcast_in_dim(lax.reduce_max(x, (x.ndim - 1,)), x.shape, lead)))
    total = _row_sum(e)
    return lax.mul(e, lax.broadcast_in_dim(lax.div(np.float32(1), total), x.shape, lead))


@_softmax_last.defjvp
def _softmax_last_jvp(primals, tangents):
    y = _softmax_last(primals[0])
    t = tangents[0]
    return y, y * (t - jnp.sum(t * y, axis=-1, keepdims=True))


# One program for a PyNative call (inlined into an enclosing trace): op by op its primitives cost
# 60-220 ms a new shape and 40 ms a repeated call (each compiled alone once the host path gave up).
softmax_last = jax.jit(_softmax_last, inline=True)
softmax_last.__doc__ = "nnacl's float32 softmax of ``x`` along its last axis (see the module docstring)."
_host_eager.COMPOSITIONS.add("_softmax_last")      # first calls on the host, as ``cpu_kernel_math``'s
