"""Convolution passes on oneDNN's CPU kernels, reached through PyTorch's CPU build: the optional
``cpu-kernels`` extra (``pip install -e '.[cpu-kernels]'``).

XLA:CPU runs a convolution through Eigen, which on small channel counts and large batches (LeNet5
at batch 256: 1 and 6 input channels) is 3-6x slower than oneDNN's JIT-generated kernels that
PyTorch calls. When ``torch`` can be imported, :mod:`conv_lowering` may hand a float32
convolution pass to this module: the jitted step calls PyTorch's ``aten::convolution`` /
``aten::convolution_backward`` on the host buffers through ``jax.pure_callback`` (no copy on the
way in; the result is copied into XLA's buffer), inside a ``jax.custom_vjp``. Each gradient is
its own callback, so a gradient nobody reads (a network's input image) is dropped with its
callback when XLA removes dead code.

Limits: float32 only; not inside forward-mode (``jvp``) traces, where :mod:`conv_lowering`
keeps XLA; the callback holds the GIL while PyTorch runs; JAX's persistent compile cache stores
no program with callbacks, so ``auto`` leaves oneDNN out while that cache is on. PyTorch is never imported unless a
convolution asks for it.
"""
from __future__ import annotations

import functools
import importlib.util
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


@functools.lru_cache(maxsize=None)
def available():
    """Whether PyTorch (the ``cpu-kernels`` extra) is installed; does not import it."""
    return importlib.util.find_spec("torch") is not None


@functools.lru_cache(maxsize=None)
def _torch():
    import torch
    # XLA's buffers arrive read-only; the kernels only read them
    warnings.filterwarnings("ignore", message="The given NumPy array is not writable", category=UserWarning)
    return torch


def _host(a):
    return _torch().from_numpy(np.asarray(a))


def _symmetric(pads):
    return all(lo == hi for lo, hi in pads)


@functools.lru_cache(maxsize=None)
def conv_function(stride, pads, dilation, groups):
    """``conv(x, w)`` for this configuration with every pass on oneDNN; asymmetric padding is
    applied in XLA first (PyTorch pads symmetrically)."""
    nd = len(stride)
    if not _symmetric(pads):
        inner = conv_function(stride, ((0, 0),) * nd, dilation, groups)

        def padded(x, w):
            return inner(lax.pad(x, jnp.zeros((), x.dtype), [(0, 0, 0), (0, 0, 0)] + [(lo, hi, 0) for lo, hi in pads]),
                         w)
        return padded

    args = (list(stride), [lo for lo, _ in pads], list(dilation), False, [0] * nd, groups)

    def forward_host(x, w):
        torch = _torch()
        with torch.no_grad():
            return torch.ops.aten.convolution(_host(x), _host(w), None, *args).numpy()

    def grad_host(which, g, x, w):
        torch = _torch()
        mask = [which == 0, which == 1, False]
        with torch.no_grad():
            out = torch.ops.aten.convolution_backward(_host(g), _host(x), _host(w), None, *args, mask)
        return out[which].numpy()

    def out_shape(x, w):
        sizes = tuple((n + 2 * p - d * (k - 1) - 1) // s + 1 for n, k, s, (p, _), d in
                      zip(x.shape[2:], w.shape[2:], stride, pads, dilation))
        return jax.ShapeDtypeStruct((x.shape[0], w.shape[0]) + sizes, x.dtype)

    def call(fn, shape, *operands):
        return jax.pure_callback(fn, shape, *operands, vmap_method="sequential")

    @jax.custom_vjp
    def conv(x, w):
        return call(forward_host, out_shape(x, w), x, w)

    def conv_fwd(x, w):
        return conv(x, w), (x, w)

    def conv_bwd(res, g):
        x, w = res
        return (call(functools.partial(grad_host, 0), jax.ShapeDtypeStruct(x.shape, x.dtype), g, x, w),
                call(functools.partial(grad_host, 1), jax.ShapeDtypeStruct(w.shape, w.dtype), g, x, w))

    conv.defvjp(conv_fwd, conv_bwd)
    return conv
