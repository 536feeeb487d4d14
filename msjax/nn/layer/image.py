"""Image layers: ``PixelShuffle``, ``PixelUnshuffle``, ``ChannelShuffle``, ``CentralCrop``,
``ImageGradients`` and the image-quality Cells ``SSIM``, ``MSSSIM``, ``PSNR`` (MindSpore's definitions:
Gaussian-window SSIM over each channel, integer images scaled by their dtype's maximum)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ... import _checkparam as validator
from ..._core import dtype as mstype
from ..._core.tensor import Tensor, wrap
from ...ops._impl import image as F
from ...ops._impl import pooling as _pool
from ...ops._impl.activation import relu_array
from ..cell import Cell

__all__ = ["PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "CentralCrop", "ImageGradients", "SSIM", "MSSSIM",
           "PSNR"]


class PixelShuffle(Cell):
    """``nn.PixelShuffle(upscale_factor)``: (*, C r^2, H, W) -> (*, C, H r, W r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """``nn.PixelUnshuffle(downscale_factor)``: (*, C, H r, W r) -> (*, C r^2, H, W)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)


def _check_input_4d(shape, param_name, func_name):
    if len(shape) != 4:
        raise ValueError(f"For '{func_name}', the dimension of '{param_name}' must be 4d, but got {len(shape)}.")


class ImageGradients(Cell):
    """``nn.ImageGradients()``: ``construct(images)`` -> (dy, dx), forward differences of (N, C, H, W) with a
    zero last row/column."""

    def construct(self, images):
        x = images._data
        _check_input_4d(x.shape, "images", type(self).__name__)
        dy = jnp.concatenate([x[:, :, 1:, :] - x[:, :, :-1, :], jnp.zeros_like(x[:, :, :1, :])], axis=2)
        dx = jnp.concatenate([x[:, :, :, 1:] - x[:, :, :, :-1], jnp.zeros_like(x[:, :, :, :1])], axis=3)
        return wrap(dy), wrap(dx)


def _dtype_max(x):
    return float(np.iinfo(x.dtype).max) if jnp.issubdtype(x.dtype, jnp.integer) else 1.0


def _to_float32(x, dtype_max):
    out = jnp.asarray(x, jnp.float32)
    if dtype_max > 1.0:
        out = out * (1.0 / dtype_max)
    return out


def _create_window(size, sigma):
    x_data, y_data = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1]
    x_data = np.expand_dims(np.expand_dims(x_data, axis=-1).astype(np.float32), axis=-1) ** 2
    y_data = np.expand_dims(np.expand_dims(y_data, axis=-1).astype(np.float32), axis=-1) ** 2
    g = np.exp(-(x_data + y_data) / (2 * sigma ** 2))
    return np.transpose(g / np.sum(g), (2, 3, 0, 1))


def _ssim_conv(filter_size, sigma):
    from .conv import Conv2d
    conv = Conv2d(1, 1, filter_size, weight_init=Tensor(_create_window(filter_size, sigma)), pad_mode="valid")
    conv.weight.requires_grad = False
    return conv


def _ssim_cs(c1, c2, img1, img2, conv):
    """Per-channel SSIM and contrast-structure maps averaged over H, W -> (N, C) each."""
    def f(t):
        n, c, h, w = t.shape
        return conv(wrap(t.reshape(n * c, 1, h, w)))._data
    n, c = img1.shape[:2]
    mu1, mu2 = f(img1), f(img2)
    mu1_sq, mu2_sq, mu1_mu2 = mu1 * mu1, mu2 * mu2, mu1 * mu2
    s1 = f(img1 * img1) - mu1_sq
    s2 = f(img2 * img2) - mu2_sq
    s12 = f(img1 * img2) - mu1_mu2
    v1 = 2 * s12 + c2
    v2 = s1 + s2 + c2
    ssim = (2 * mu1_mu2 + c1) * v1 / ((mu1_sq + mu2_sq + c1) * v2)
    cs = v1 / v2
    return ssim.reshape(n, c, -1).mean(-1), cs.reshape(n, c, -1).mean(-1)


def _check_ssim_args(cls_name, max_val, filter_size, filter_sigma, k1, k2):
    if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
        raise TypeError(f"For '{cls_name}', the type of 'max_val' must be int or float, but got "
                        f"{type(max_val).__name__}.")
    if max_val <= 0:
        raise ValueError(f"For '{cls_name}', the 'max_val' must be greater than 0, but got {max_val}.")
    validator.check_int(filter_size, 1, validator.GE, "filter_size", cls_name)
    validator.check_positive_float(filter_sigma, "filter_sigma", cls_name)
    for n, v in (("k1", k1), ("k2", k2)):
        if not isinstance(v, float):
            raise TypeError(f"For '{cls_name}', the type of '{n}' must be float, but got {type(v).__name__}.")


def _same_type_shape(img1, img2):
    if img1.dtype != img2.dtype:
        raise TypeError(f"For 'SameTypeShape', the dtype of 'input_x' and 'input_y' must be the same, but got "
                        f"{mstype.from_np(img1.dtype)} and {mstype.from_np(img2.dtype)}.")
    if img1.shape != img2.shape:
        raise ValueError(f"For 'SameTypeShape', the shape of 'input_x' and 'input_y' must be the same, but got "
                         f"{tuple(img1.shape)} and {tuple(img2.shape)}.")


class SSIM(Cell):
    """``nn.SSIM(max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03)``: ``construct(img1, img2)``
    -> per-image SSIM (N,), Gaussian window applied with a non-trainable 'valid' convolution ``conv``."""

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        _check_ssim_args(type(self).__name__, max_val, filter_size, filter_sigma, k1, k2)
        self.max_val = max_val
        self.filter_size = filter_size
        self.filter_sigma = filter_sigma
        self.k1 = k1
        self.k2 = k2
        self.conv = _ssim_conv(filter_size, filter_sigma)

    def construct(self, img1, img2):
        a, b = img1._data, img2._data
        cls_name = type(self).__name__
        if a.dtype not in (jnp.float32, jnp.float16):
            raise TypeError(f"For '{cls_name}', the 'img1' should be one of [Float32, Float16], "
                            f"but got {mstype.from_np(a.dtype)}.")
        _check_input_4d(a.shape, "img1", cls_name)
        if a.shape[2] < self.filter_size or a.shape[3] < self.filter_size:
            raise ValueError(f"For '{cls_name}', the 'img1 shape[2]' and 'img1 shape[3]' must be >= filter_size "
                             f"{self.filter_size}, but got {tuple(a.shape)}.")
        _same_type_shape(a, b)
        m = _dtype_max(a)
        max_val = float(np.float32(self.max_val) * (1.0 / m if m > 1.0 else 1.0))
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        ssim, _ = _ssim_cs(c1, c2, _to_float32(a, m), _to_float32(b, m), self.conv)
        return wrap(ssim.mean(-1))


class MSSSIM(Cell):
    """``nn.MSSSIM(max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333), filter_size=11,
    filter_sigma=1.5, k1=0.01, k2=0.03)``: multi-scale SSIM (N,)."""

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333), filter_size=11,
                 filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        _check_ssim_args(type(self).__name__, max_val, filter_size, filter_sigma, k1, k2)
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(f"For '{type(self).__name__}', the type of 'power_factors' must be tuple or list, "
                            f"but got {type(power_factors).__name__}.")
        from .container import CellList
        self.max_val = max_val
        self.filter_size = filter_size
        self.filter_sigma = filter_sigma
        self.k1 = k1
        self.k2 = k2
        self.level = len(power_factors)
        self.multi_convs_list = CellList([_ssim_conv(filter_size, filter_sigma) for _ in range(self.level)])
        object.__setattr__(self, "_power", np.asarray(power_factors, np.float32))

    def construct(self, img1, img2):
        a, b = img1._data, img2._data
        cls_name = type(self).__name__
        _check_input_4d(a.shape, "img1", cls_name)
        _check_input_4d(b.shape, "img2", cls_name)
        if a.dtype not in (jnp.float64, jnp.float32, jnp.float16, jnp.uint8):
            raise TypeError(f"For '{cls_name}', the 'img1' should be one of [Float64, Float32, Float16, UInt8], "
                            f"but got {mstype.from_np(a.dtype)}.")
        _same_type_shape(a, b)
        m = _dtype_max(a)
        max_val = float(np.float32(self.max_val) * (1.0 / m if m > 1.0 else 1.0))
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        a, b = _to_float32(a, m), _to_float32(b, m)
        mcs = []
        sim = None
        for i in range(self.level):
            sim, cs = _ssim_cs(c1, c2, a, b, self.multi_convs_list[i])
            mcs.append(relu_array(cs))
            a = _pool._avg_pool_array(a, (2, 2), (2, 2), [(0, 0), (0, 0)])
            b = _pool._avg_pool_array(b, (2, 2), (2, 2), [(0, 0), (0, 0)])
        stack = jnp.stack(mcs[:-1] + [relu_array(sim)], axis=-1)
        ms_ssim = jnp.prod(jnp.power(stack, jnp.asarray(self._power)), axis=-1)
        return wrap(ms_ssim.mean(-1))


class PSNR(Cell):
    """``nn.PSNR(max_val=1.0)``: ``construct(img1, img2)`` -> per-image PSNR in dB (N,)."""

    def __init__(self, max_val=1.0):
        super().__init__()
        if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
            raise TypeError(f"For 'PSNR', the type of 'max_val' must be int or float, but got "
                            f"{type(max_val).__name__}.")
        if max_val <= 0:
            raise ValueError(f"For 'PSNR', the 'max_val' must be greater than 0, but got {max_val}.")
        self.max_val = max_val

    def construct(self, img1, img2):
        a, b = img1._data, img2._data
        _check_input_4d(a.shape, "img1", "PSNR")
        _check_input_4d(b.shape, "img2", "PSNR")
        _same_type_shape(a, b)
        m = _dtype_max(a)
        max_val = np.float32(self.max_val) * np.float32(1.0 / m if m > 1.0 else 1.0)
        mse = jnp.mean(jnp.square(_to_float32(a, m) - _to_float32(b, m)), axis=(-3, -2, -1))
        return wrap(10 * jnp.log(jnp.float32(max_val) ** 2 / mse) / np.float32(np.log(10.0)))


class CentralCrop(Cell):
    """``nn.CentralCrop(central_fraction)``: the central part of (C, H, W) or (N, C, H, W) images."""

    def __init__(self, central_fraction):
        super().__init__()
        if not isinstance(central_fraction, float):
            raise TypeError(f"For 'CentralCrop', the type of 'central_fraction' must be float, "
                            f"but got {type(central_fraction).__name__}.")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For 'CentralCrop', the 'central_fraction' must be in range (0.0, 1.0], "
                             f"but got {central_fraction}.")
        self.central_fraction = central_fraction

    def construct(self, image):
        x = image._data
        if x.ndim not in (3, 4):
            raise ValueError(f"CentralCrop image must be 3d or 4d, but got shape {tuple(x.shape)}")
        if self.central_fraction == 1.0:
            return image
        h, w = x.shape[-2:]
        hs = int((float(h) - float(h * self.central_fraction)) / 2)
        ws = int((float(w) - float(w * self.central_fraction)) / 2)
        return wrap(x[..., hs:h - hs, ws:w - ws])


class ChannelShuffle(Cell):
    """``nn.ChannelShuffle(groups)``: (N, C, *) -> channels regrouped as (C / groups, groups)."""

    def __init__(self, groups):
        super().__init__()
        if not isinstance(groups, int):
            raise TypeError(f"For ChannelShuffle, the param `groups` must be int, but got {type(groups)}.")
        if groups < 1:
            raise ValueError(f"For ChannelShuffle, the param `groups` must be larger than 0, but got {groups}.")
        self.groups = groups

    def construct(self, x):
        a = x._data
        n, c = a.shape[:2]
        out = jnp.transpose(a.reshape(n, self.groups, c // self.groups, -1), (0, 2, 1, 3))
        return wrap(out.reshape(a.shape))
