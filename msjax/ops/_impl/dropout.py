"""Dropout ops: ``dropout``, ``dropout1d``/``dropout2d``/``dropout3d`` and the ``Dropout``,
``Dropout2D``, ``Dropout3D`` Primitives (which return the output and the mask, as MindSpore's do).

``dropout`` and ``Dropout`` draw MindSpore 2.10's CPU kernel masks (``random_kernels.py``, the
``Dropout`` kernel of ``dropout_stream.py``): seeds from the "dropout" op-seed counter, a fresh
kernel per call in PyNative, a kernel per Primitive instance and per node of a compiled graph.
The channel dropouts and the mask pair draw from ``msjax._core.rng.next_key()`` (same
distribution, not MindSpore's bit stream: docs/differences.md)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.registry import op
from ..._core.tensor import Tensor
from ...common.seed import _get_graph_seed
from . import dropout_stream as _drop_stream
from . import random_kernels as _rk
from ._util import _is_int, wrap
from .conv import _float_arg, _tensor_arg


# ---------------------------------------------------------------------------
# dropout
# ---------------------------------------------------------------------------
def _keep_mask(shape, keep_prob):
    from ..._core.rng import next_key
    return jax.random.bernoulli(next_key(), keep_prob, tuple(shape))


def _dropout_array(x, keep_prob, mask_shape=None):
    if keep_prob >= 1.0:
        return x, jnp.ones(mask_shape or x.shape, jnp.bool_)
    if keep_prob <= 0.0:
        return jnp.zeros_like(x), jnp.zeros(mask_shape or x.shape, jnp.bool_)
    mask = _keep_mask(mask_shape or x.shape, keep_prob)
    scale = jnp.asarray(1.0 / keep_prob, x.dtype)
    return jnp.where(mask, x * scale, jnp.zeros((), x.dtype)), mask


def _check_p(p, name, low_open=False, high_open=True):
    if isinstance(p, bool) or not isinstance(p, (float, int)):
        raise TypeError(f"For '{name}', the type of 'p' must be float, but got {type(p).__name__}.")
    if p < 0 or (p >= 1 if high_open else p > 1):
        raise ValueError(f"For '{name}', the 'p' must be a number in range [0, 1{')' if high_open else ']'}, "
                         f"but got {p}.")


@op("dropout", family="nn_conv")
def dropout(input, p=0.5, training=True, seed=None):
    """``ops.dropout(input, p=0.5, training=True, seed=None)``: zero each element with probability ``p``
    and scale the rest by ``1 / (1 - p)``; the identity when ``training`` is False."""
    if not isinstance(training, bool):
        raise TypeError(f"For 'dropout', the 'training' must be bool, but got {type(training).__name__}.")
    x = _tensor_arg("input", input, "dropout")
    if not training:
        return input
    _check_p(p, "dropout")
    return wrap(_kernel_dropout(x, 1.0 - p, _get_graph_seed(seed, "dropout"))[0])


def _kernel_dropout(x, keep_prob, seeds, primitive=False):
    """MindSpore's CPU ``Dropout`` kernel with ``seeds``: (output, mask in ``x``'s dtype)."""
    keep = np.float32(keep_prob)
    u = _rk.draw("Dropout", seeds, x.shape, primitive=primitive)
    return _drop_stream._apply(x, u < keep, np.float32(1) / keep)


def _new_dropout_kernel(keep_prob=0.5, Seed0=0, Seed1=0):
    _rk.forget_primitive("Dropout", Seed0, Seed1)


@op("prim_dropout", primitive="Dropout", prim_args=("keep_prob", "Seed0", "Seed1"), family="nn_conv",
    prim_check=_new_dropout_kernel)
def prim_dropout(x, keep_prob=0.5, Seed0=0, Seed1=0):
    """``ops.Dropout(keep_prob=0.5, Seed0=0, Seed1=0)(x)`` -> (output, mask); the mask has ``x``'s dtype
    (1 kept, 0 dropped)."""
    xa = _float_arg("x", x, "Dropout")
    if not isinstance(keep_prob, float) or not 0 < keep_prob <= 1:
        raise ValueError(f"For 'Dropout', the 'keep_prob' must be a float in range (0, 1], but got {keep_prob}.")
    out, mask = _kernel_dropout(xa, keep_prob, (Seed0, Seed1), primitive=True)
    return wrap(out), wrap(mask)


def _channel_dropout(x, keep_prob, nd, name):
    """MindSpore's CPU ``Dropout2D``/``Dropout3D`` kernel: one draw per channel from a
    default-constructed engine (seed 1) that all PyNative calls with this keep_prob and shape
    share, as MindSpore's kernel cache does (one per node in a compiled graph); dropped channels
    are +0.0."""
    if x.ndim != nd + 2:
        raise ValueError(f"For '{name}', the dimension of 'x' must be {nd + 2}, but got {x.ndim}.")
    if keep_prob <= 0.0:
        return jnp.zeros_like(x), jnp.zeros(x.shape, jnp.bool_)
    kept = _rk.draw("DropoutNd", (name, 0), x.shape[:2], keep_prob, primitive=True)
    mask = jnp.broadcast_to(jnp.asarray(kept).reshape(x.shape[:2] + (1,) * nd), x.shape)
    scaled = (x.astype(jnp.float32) * (np.float32(1) / np.float32(keep_prob))).astype(x.dtype)   # in float
    return jnp.where(mask, scaled, jnp.zeros((), x.dtype)), mask


def _check_keep_prob(keep_prob, name):
    if not isinstance(keep_prob, float) and not (_is_int(keep_prob)):
        raise TypeError(f"For '{name}', the 'keep_prob' must be float, but got {type(keep_prob).__name__}.")
    if not 0 <= keep_prob <= 1:
        raise ValueError(f"For '{name}', the 'keep_prob' must be in range [0, 1], but got {keep_prob}.")


@op("prim_dropout2d", primitive="Dropout2D", prim_args=("keep_prob",), family="nn_conv")
def prim_dropout2d(x, keep_prob=0.5):
    """``ops.Dropout2D(keep_prob=0.5)(x)`` -> (output, Bool mask): whole channels of (N, C, H, W)."""
    xa = _tensor_arg("x", x, "Dropout2D")
    _check_keep_prob(keep_prob, "Dropout2D")
    out, mask = _channel_dropout(xa, float(keep_prob), 2, "Dropout2D")
    return wrap(out), wrap(mask)


@op("prim_dropout3d", primitive="Dropout3D", prim_args=("keep_prob",), family="nn_conv")
def prim_dropout3d(x, keep_prob=0.5):
    """``ops.Dropout3D(keep_prob=0.5)(x)`` -> (output, Bool mask): whole channels of (N, C, D, H, W)."""
    xa = _tensor_arg("x", x, "Dropout3D")
    _check_keep_prob(keep_prob, "Dropout3D")
    out, mask = _channel_dropout(xa, float(keep_prob), 3, "Dropout3D")
    return wrap(out), wrap(mask)


@op("dropout1d", family="nn_conv")
def dropout1d(input, p=0.5, training=True):
    """``ops.dropout1d(input, p=0.5, training=True)``: whole channels of (N, C, L) or (C, L)."""
    if not isinstance(p, float):
        raise TypeError(f"For dropout1d, 'p' must be float, but got type {type(p)}.")
    if p < 0 or p > 1:
        raise ValueError(f"For dropout1d, the 'p' must be a number in range [0, 1], but got {p}.")
    if not isinstance(input, Tensor):
        raise TypeError(f"For dropout1d, 'input' must be Tensor, but got type {type(input)}.")
    if not training:
        return input
    x = input._data
    if x.ndim == 2:
        return wrap(_channel_dropout(x[None, :, :, None], 1.0 - p, 2, "Dropout2D")[0][0, :, :, 0])
    if x.ndim == 3:
        return wrap(_channel_dropout(x[..., None], 1.0 - p, 2, "Dropout2D")[0][..., 0])
    raise ValueError(f"For dropout1d, input shape should be 2D or 3D, but got {x.ndim}.")


@op("dropout2d", family="nn_conv")
def dropout2d(input, p=0.5, training=True):
    """``ops.dropout2d(input, p=0.5, training=True)``: whole channels of (N, C, H, W)."""
    if not training:
        return input
    _check_p(p, "dropout2d", high_open=False)
    return wrap(_channel_dropout(_tensor_arg("input", input, "dropout2d"), 1.0 - p, 2, "Dropout2D")[0])


@op("dropout3d", family="nn_conv")
def dropout3d(input, p=0.5, training=True):
    """``ops.dropout3d(input, p=0.5, training=True)``: whole channels of (N, C, D, H, W)."""
    if not training:
        return input
    _check_p(p, "dropout3d", high_open=False)
    return wrap(_channel_dropout(_tensor_arg("input", input, "dropout3d"), 1.0 - p, 3, "Dropout3D")[0])


# ---------------------------------------------------------------------------
# the deprecated mask pair (Ascend): DropoutGenMask + DropoutDoMask
# ---------------------------------------------------------------------------
def _mask_keep_prob(keep_prob, name):
    kp = keep_prob._data if isinstance(keep_prob, Tensor) else jnp.asarray(keep_prob)
    if kp.size != 1:
        raise ValueError(f"For '{name}', the 'keep_prob' must be a scalar, but got shape {list(kp.shape)}.")
    return kp.reshape(()).astype(jnp.float32)


def _mask_bytes(n):
    return -(-n // 128) * 16     # whole 128-bit words, as MindSpore's kernel


def _check_gen_mask(Seed0=0, Seed1=0):
    for name, v in (("Seed0", Seed0), ("Seed1", Seed1)):
        if not _is_int(v):
            raise TypeError(f"For 'DropoutGenMask', the type of '{name}' should be 'int', but got "
                            f"'{type(v).__name__}'.")


@op("prim_dropout_gen_mask", primitive="DropoutGenMask", prim_args=("Seed0", "Seed1"), family="nn_conv",
    prim_check=_check_gen_mask)
def dropout_gen_mask(shape, keep_prob, Seed0=0, Seed1=0):
    """``ops.DropoutGenMask(Seed0=0, Seed1=0)(shape, keep_prob)``: a UInt8 bit mask for
    ``prod(shape)`` elements, one bit per element (1 keeps it, with probability ``keep_prob``),
    padded to whole 128-bit words: ``ceil(n / 128) * 16`` bytes.

    Difference from MindSpore: only ``DropoutDoMask`` reads the mask, and msjax's pair agrees
    with itself (bit ``i % 8`` of byte ``i // 8``, least significant first) rather than with
    Ascend's undocumented bit order; MindSpore has no CPU/GPU kernel for either Primitive."""
    _check_gen_mask(Seed0, Seed1)
    if not isinstance(shape, (tuple, list)) or not all(_is_int(d) and d >= 0 for d in shape):
        raise TypeError(f"For 'DropoutGenMask', the 'shape' must be a tuple of non-negative int, but got {shape}.")
    n = 1
    for d in shape:
        n *= int(d)
    kp = _mask_keep_prob(keep_prob, "DropoutGenMask")
    nbytes = _mask_bytes(n)
    from ..._core.rng import next_key
    bits = jax.random.uniform(next_key(), (nbytes * 8,)) < kp
    bits = jnp.where(jnp.arange(nbytes * 8) < n, bits, False)
    return wrap(jnp.packbits(bits, bitorder="little"))


@op("prim_dropout_do_mask", primitive="DropoutDoMask", family="nn_conv")
def dropout_do_mask(input_x, mask, keep_prob):
    """``ops.DropoutDoMask()(input_x, mask, keep_prob)``: ``input_x / keep_prob`` where the element's
    bit of the ``DropoutGenMask`` mask is set, else 0 (the gradient is masked and scaled alike)."""
    x = _tensor_arg("input_x", input_x, "DropoutDoMask")
    if not isinstance(mask, Tensor) or mask._data.dtype != jnp.uint8 or mask._data.ndim != 1:
        raise TypeError("For 'DropoutDoMask', the 'mask' must be a 1-D UInt8 Tensor made by DropoutGenMask.")
    m = mask._data
    if m.shape[0] * 8 < x.size:
        raise ValueError(f"For 'DropoutDoMask', the 'mask' has {m.shape[0] * 8} bits, fewer than the "
                         f"{x.size} elements of 'input_x'.")
    keep = jnp.unpackbits(m, bitorder="little")[:x.size].reshape(x.shape).astype(bool)
    kp = _mask_keep_prob(keep_prob, "DropoutDoMask")
    scale = (1.0 / kp).astype(x.dtype)
    return wrap(jnp.where(keep, x * scale, jnp.zeros((), x.dtype)))
