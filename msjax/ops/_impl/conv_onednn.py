"""Convolution passes on oneDNN's CPU kernels, reached in one of two ways:

* ``ffi`` (the default install): msjax's own kernels, ``msjax/ops/_native/conv_dnnl.cc``, built on
  first use against the ``onednn-cpu-gomp`` wheel and called as XLA FFI custom calls
  (``jax.ffi.ffi_call``): no Python and no GIL in the step, and the compiled step can be stored by
  JAX's persistent compile cache. See :mod:`msjax.ops._native` for the build and its fallbacks.
* ``torch``: PyTorch's CPU build (the optional ``cpu-kernels`` extra), called through
  ``jax.pure_callback``, used only where the native kernels cannot be had.

The rest of this docstring describes the ``torch`` path.

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

from .. import _native


@functools.lru_cache(maxsize=None)
def _torch_installed():
    return importlib.util.find_spec("torch") is not None


def backend():
    """``'ffi'`` (msjax's native oneDNN kernels), ``'torch'`` (the ``cpu-kernels`` extra) or None."""
    if _native.library() is not None:
        return "ffi"
    return "torch" if _torch_installed() else None


def available():
    """Whether either path to oneDNN can serve; does not import PyTorch."""
    return backend() is not None


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
def ffi_passes(stride, pads, dilation, groups):
    """``(forward(x, w), grad_input(g, x, w), grad_weight(g, x, w))``, each one FFI custom call into
    ``conv_dnnl.cc`` (oneDNN pads asymmetrically itself); the native library must be loaded."""
    attrs = dict(stride=np.asarray(stride, np.int64), pad_lo=np.asarray([lo for lo, _ in pads], np.int64),
                 pad_hi=np.asarray([hi for _, hi in pads], np.int64), dilation=np.asarray(dilation, np.int64),
                 groups=np.int64(groups))

    def call(target, shape, a, b):
        return jax.ffi.ffi_call(target, jax.ShapeDtypeStruct(shape, jnp.float32), vmap_method="sequential")(
            a, b, **attrs)

    def out_shape(x, w):
        return (x.shape[0], w.shape[0]) + tuple(
            (n + lo + hi - d * (k - 1) - 1) // s + 1
            for n, k, s, (lo, hi), d in zip(x.shape[2:], w.shape[2:], stride, pads, dilation))

    # the three passes are one family under transposition, so each is a custom_vjp whose
    # derivatives are the other two: reverse mode to any order (a transposed convolution is the
    # input gradient, and its own gradient is then the forward and weight-gradient passes)
    @jax.custom_vjp
    def forward(x, w):
        return call("msjax_conv_forward", out_shape(x, w), x, w)

    @functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
    def grad_input(g, w, x_shape):
        return call("msjax_conv_backward_data", x_shape, g, w)

    @functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
    def grad_weight(g, x, w_shape):
        return call("msjax_conv_backward_weights", w_shape, x, g)

    def forward_bwd(res, ct):
        x, w = res
        return grad_input(ct, w, x.shape), grad_weight(ct, x, w.shape)

    def grad_input_bwd(x_shape, res, ct):       # <ct, gi(g, w)> = <conv(ct, w), g>
        g, w = res
        return forward(ct, w), grad_weight(g, ct, w.shape)

    def grad_weight_bwd(w_shape, res, ct):      # <ct, gw(g, x)> = <conv(x, ct), g>
        g, x = res
        return forward(x, ct), grad_input(g, ct, x.shape)

    forward.defvjp(lambda x, w: (forward(x, w), (x, w)), forward_bwd)
    grad_input.defvjp(lambda g, w, x_shape: (grad_input(g, w, x_shape), (g, w)), grad_input_bwd)
    grad_weight.defvjp(lambda g, x, w_shape: (grad_weight(g, x, w_shape), (g, x)), grad_weight_bwd)
    return (forward,
            lambda g, x, w: grad_input(g, w, x.shape),
            lambda g, x, w: grad_weight(g, x, w.shape))


def _ffi_conv_function(stride, pads, dilation, groups):
    """``conv(x, w)`` with every pass on the native kernels (a ``jax.custom_vjp``)."""
    return ffi_passes(stride, pads, dilation, groups)[0]


@functools.lru_cache(maxsize=None)
def conv_function(stride, pads, dilation, groups):
    """``conv(x, w)`` for this configuration with every pass on oneDNN: the native FFI kernels where
    they load, else PyTorch's through callbacks (there asymmetric padding is applied in XLA first:
    PyTorch pads symmetrically)."""
    if backend() == "ffi":
        return _ffi_conv_function(stride, pads, dilation, groups)
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
