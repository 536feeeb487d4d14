"""``mindspore.numpy.fft``: NumPy's FFT functions on ``jax.numpy.fft``.

Real inputs of integer dtypes compute in Float32; complex results are Complex64 for
Float32 inputs (Complex128 for Float64), as MindSpore's FFT ops.
"""
from __future__ import absolute_import

import jax.numpy as jnp

from . import _util
from ._util import arr, out

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftshift", "ifftshift", "fftfreq", "rfftfreq"]


def _in(a):
    x = arr(a)
    if not _util.is_float(x):
        x = x.astype(jnp.float32)
    return x


def _check_norm(norm):
    if norm not in (None, "backward", "forward", "ortho"):
        raise ValueError(f"For fft, 'norm' must be one of None, 'backward', 'forward' or 'ortho', but got {norm}.")
    return norm


def _one(fn):
    def f(a, n=None, axis=-1, norm=None):
        return out(fn(_in(a), n, axis, _check_norm(norm)))
    f.__name__ = fn.__name__
    f.__doc__ = f"``numpy.fft.{fn.__name__}`` on a Tensor."
    return f


def _many(fn, default_axes):
    def f(a, s=None, axes=default_axes, norm=None):
        return out(fn(_in(a), s, axes, _check_norm(norm)))
    f.__name__ = fn.__name__
    f.__doc__ = f"``numpy.fft.{fn.__name__}`` on a Tensor."
    return f


fft = _one(jnp.fft.fft)
ifft = _one(jnp.fft.ifft)
rfft = _one(jnp.fft.rfft)
irfft = _one(jnp.fft.irfft)
hfft = _one(jnp.fft.hfft)
ihfft = _one(jnp.fft.ihfft)
fft2 = _many(jnp.fft.fft2, (-2, -1))
ifft2 = _many(jnp.fft.ifft2, (-2, -1))
rfft2 = _many(jnp.fft.rfft2, (-2, -1))
irfft2 = _many(jnp.fft.irfft2, (-2, -1))
fftn = _many(jnp.fft.fftn, None)
ifftn = _many(jnp.fft.ifftn, None)
rfftn = _many(jnp.fft.rfftn, None)
irfftn = _many(jnp.fft.irfftn, None)


def _hfftn(a, s, axes, norm):
    """n-D ``hfft``: ``irfftn`` of the conjugate, scaled as NumPy's Hermitian transform."""
    x = arr(a)
    axes_ = tuple(range(-len(s), 0)) if axes is None and s is not None else axes
    res = jnp.fft.irfftn(jnp.conj(x), s, axes_, {"backward": "forward", "forward": "backward", None: "forward",
                                                  "ortho": "ortho"}[norm])
    return res


def _ihfftn(a, s, axes, norm):
    x = _in(a)
    return jnp.conj(jnp.fft.rfftn(x, s, axes, {"backward": "forward", "forward": "backward", None: "forward",
                                               "ortho": "ortho"}[norm]))


def hfft2(a, s=None, axes=(-2, -1), norm=None):
    return out(_hfftn(a, s, axes, _check_norm(norm)))


def ihfft2(a, s=None, axes=(-2, -1), norm=None):
    return out(_ihfftn(a, s, axes, _check_norm(norm)))


def hfftn(a, s=None, axes=None, norm=None):
    return out(_hfftn(a, s, axes, _check_norm(norm)))


def ihfftn(a, s=None, axes=None, norm=None):
    return out(_ihfftn(a, s, axes, _check_norm(norm)))


def fftshift(x, axes=None):
    return out(jnp.fft.fftshift(arr(x), axes))


def ifftshift(x, axes=None):
    return out(jnp.fft.ifftshift(arr(x), axes))


def fftfreq(n, d=1.0, dtype=None):
    return out(jnp.fft.fftfreq(n, d).astype(jnp.float32), dtype)


def rfftfreq(n, d=1.0, dtype=None):
    return out(jnp.fft.rfftfreq(n, d).astype(jnp.float32), dtype)
