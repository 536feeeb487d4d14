"""Float32 ``ReduceSum``/``ReduceMean`` summed in the order of MindSpore 2.10's CPU kernel, so that
the results are its bits (on a CPU backend; other backends keep XLA's reduction, as MindSpore's GPU
kernels have their own order):

* the general case (any rank, any axes; a whole-tensor reduction below 200,000 values): each output
  is the sum in float64 of its float32 values, rounded to float32; the mean divides that by the
  count in float32;
* a 2-D input reduced along axis 1 (``ReduceSum`` and ``ReduceMean``): nnacl's AVX sum, eight
  float32 lanes over the row's first multiple of 8 values, the lanes added in order, then the rest
  one by one, all in float32;
* ``ReduceSum`` along axis 0 alone (the other reduced axes of size 1): each column summed row by
  row in float32.

Differs from MindSpore: a whole-tensor reduction of 200,000 values or more, which MindSpore splits
over its threads (its bits depend on the thread count), is summed in float64 as the general case.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ...runtime import _host_eager
from .cpu_kernel_math import applies

UNROLLED = 32    # rows summed with unrolled adds (a program XLA compiles faster than its loop, same bits)


def _divided(s, count):
    """``s / count`` correctly rounded: XLA:CPU rewrites a division by a broadcast scalar as a
    multiplication by its reciprocal, which rounds some quotients the other way."""
    return lax.div(s, lax.optimization_barrier(lax.full(s.shape, count, s.dtype)))


# lax, not indexing: a PyNative new shape traces the program again, and ``x[:, k]`` costs a jnp trace each
def _row(x, k):
    return lax.index_in_dim(x, k, 0, keepdims=False)


def _col(x, k):
    return lax.index_in_dim(x, k, 1, keepdims=False)


def _cols(x, start, stop):
    return lax.slice_in_dim(x, start, stop, axis=1)


def _sequential_rows(x):
    """Sum of a (rows, cols) array over its rows, one row after another, in float32."""
    if x.shape[0] <= UNROLLED:
        acc = _row(x, 0)
        for k in range(1, x.shape[0]):
            acc = lax.add(acc, _row(x, k))
        return acc

    def step(acc, row):
        return acc + row, None
    acc, _ = lax.scan(step, x[0], x[1:])
    return acc


def _lanes(x):
    """nnacl's ``ReduceSumDim2Axis1``: (rows, cols) -> (rows,)."""
    cols = x.shape[1]
    body = cols - cols % 8
    total = lax.full(x.shape[:1], 0, x.dtype)
    if body:
        blocks = lax.transpose(lax.reshape(_cols(x, 0, body), (x.shape[0], body // 8, 8)), (1, 0, 2))
        acc = _sequential_rows(blocks) if body > 8 else _row(blocks, 0)
        for i in range(8):
            total = lax.add(total, _col(acc, i))
    for k in range(body, cols):
        total = lax.add(total, _col(x, k))
    return total


def _axes(x, axis):
    if axis is None:
        return tuple(range(x.ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(sorted({a % x.ndim for a in axes})) if x.ndim else ()


def _keep(s, x, axes, keepdims):
    """``s`` (the reduced axes removed) with the reduced axes kept as 1 when ``keepdims``."""
    return lax.reshape(s, tuple(1 if i in axes else d for i, d in enumerate(x.shape))) if keepdims else s


def _float64_sum(x, axes, keepdims):
    """Each output the sum in float64 of its float32 values, rounded to float32 (the program of
    ``jnp.sum(x.astype(float64), axes, keepdims=keepdims).astype(float32)``, written with ``lax``)."""
    s = lax.reduce_sum(lax.convert_element_type(x, jnp.float64), axes)
    if keepdims:
        s = lax.expand_dims(s, axes)
    return lax.convert_element_type(s, jnp.float32)


def reduce_sum(x, axis=None, keepdims=False, mean=False):
    """MindSpore's CPU ``ReduceSum`` (``mean``: ``ReduceMean``) of a float32 array ``x``."""
    return _reduce_sum(x, _axes(x, axis), bool(keepdims), bool(mean))


@functools.partial(jax.jit, static_argnums=(1, 2, 3), inline=True)
def _reduce_sum(x, axes, keepdims, mean):
    """One program for a PyNative call (inlined into an enclosing trace): op by op the lanes' scan
    and adds cost 80-180 ms a new shape and 75 ms a repeated call. Written with ``lax``: a new shape
    traces it again, and each ``jnp`` call inside is a jit of its own to trace (0.3-0.4 ms each)."""
    count = int(np.prod([x.shape[a] for a in axes])) if axes else 1
    if x.size == 0 or not axes:
        s = jnp.sum(x, axis=axes, keepdims=keepdims)
        return _divided(s, max(count, 1)) if mean and axes else s
    if x.ndim == 2 and axes == (1,):
        s = _keep(_lanes(x), x, axes, keepdims)
    elif not mean and x.ndim >= 2 and axes[0] == 0 and all(x.shape[a] == 1 for a in axes[1:]) and x.shape[0] > 1:
        rest = tuple(d for i, d in enumerate(x.shape) if i not in axes)
        rows = lax.reshape(x, (x.shape[0], x.size // x.shape[0]))
        s = _keep(lax.reshape(_sequential_rows(rows), rest), x, axes, keepdims)
    else:
        s = _float64_sum(x, axes, keepdims)
    return _divided(s, count) if mean else s


_host_eager.COMPOSITIONS.add("_reduce_sum")      # first calls on the host, as ``cpu_kernel_math``'s
