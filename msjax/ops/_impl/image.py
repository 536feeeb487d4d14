"""Image ops: resizing (``interpolate``/``upsample``, ``ResizeNearestNeighbor``, ``ResizeBilinearV2``),
``pixel_shuffle``/``pixel_unshuffle``, padding (``pad``, ``Pad``, ``MirrorPad``) and ``grid_sample``.

Layouts are MindSpore's: NCHW (NCL / NCDHW) activations."""
from __future__ import annotations

import math as _math

import jax.numpy as jnp
import numpy as np

from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import wrap
from .conv import _compiled, _float_arg, _is_int, _tensor_arg
from .pooling import _adaptive_avg


# ---------------------------------------------------------------------------
# resize / interpolate
# ---------------------------------------------------------------------------
def _nearest_index(out, n, mode, align_corners=False, scale=None):
    """Source indices (numpy) of nearest-neighbour resizing."""
    d = np.arange(out, dtype=np.float64)
    if align_corners:
        s = (n - 1) / (out - 1) if out > 1 else 0.0
        src = np.floor(d * s + 0.5)           # roundf: halves away from zero
    else:
        s = (1.0 / scale) if scale else n / out
        src = np.floor((d + 0.5) * s) if mode == "half_pixel" else np.floor(d * s)
    return np.minimum(src, n - 1).astype(np.int64)


@_compiled("sizes", "mode", "align_corners", "scales")
def _resize_nearest(x, sizes, mode="asymmetric", align_corners=False, scales=None):
    nd = len(sizes)
    for i, o in enumerate(sizes):
        axis = x.ndim - nd + i
        idx = _nearest_index(o, x.shape[axis], mode, align_corners, scales[i] if scales else None)
        x = jnp.take(x, jnp.asarray(idx), axis=axis)
    return x


def _linear_weights(out, n, align_corners, scale=None):
    """(lower index, upper index, upper weight) for half-pixel or align-corners linear resizing."""
    d = np.arange(out, dtype=np.float64)
    if align_corners:
        s = (n - 1) / (out - 1) if out > 1 else 0.0
        src = d * s
    else:
        s = (1.0 / scale) if scale else n / out
        src = np.maximum((d + 0.5) * s - 0.5, 0.0)
    lo = np.minimum(np.floor(src), n - 1).astype(np.int64)
    hi = np.minimum(lo + 1, n - 1)
    w = src - lo
    return lo, hi, w


@_compiled("sizes", "align_corners", "scales")
def _resize_linear(x, sizes, align_corners, scales=None):
    nd = len(sizes)
    for i, o in enumerate(sizes):
        axis = x.ndim - nd + i
        lo, hi, w = _linear_weights(o, x.shape[axis], align_corners, scales[i] if scales else None)
        shape = [1] * x.ndim
        shape[axis] = o
        wj = jnp.asarray(w, x.dtype).reshape(shape)
        x = jnp.take(x, jnp.asarray(lo), axis=axis) * (1 - wj) + jnp.take(x, jnp.asarray(hi), axis=axis) * wj
    return x


_CUBIC_TABLE_SIZE = 1024


def _cubic_table(a):
    x = np.arange(_CUBIC_TABLE_SIZE + 1, dtype=np.float64) / _CUBIC_TABLE_SIZE
    t0 = (((a + 2) * x - (a + 3)) * x * x + 1).astype(np.float32)
    x1 = x + 1.0
    t1 = (((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a).astype(np.float32)
    return t0, t1


def _cubic_weights(o, n, align_corners):
    """Indices (4, o) and weights (4, o) of MindSpore's ResizeBicubic (TensorFlow's kernel: a 1024-entry
    coefficient table; half-pixel centres use a = -0.5 with out-of-image taps dropped and the weights
    renormalised, align_corners uses a = -0.75 with clamped taps)."""
    keys = not align_corners
    t0, t1 = _cubic_table(-0.5 if keys else -0.75)
    scale = np.float32((n - 1) / (o - 1) if (align_corners and o > 1) else n / o)
    d = np.arange(o, dtype=np.float32)
    loc = (d + np.float32(0.5)) * scale - np.float32(0.5) if keys else d * scale
    base = np.floor(loc).astype(np.int64)
    delta = (loc - base).astype(np.float32)
    off = np.rint(delta * _CUBIC_TABLE_SIZE).astype(np.int64)
    w = np.stack([t1[off], t0[off], t0[_CUBIC_TABLE_SIZE - off], t1[_CUBIC_TABLE_SIZE - off]]).astype(np.float32)
    raw = np.stack([base - 1, base, base + 1, base + 2])
    idx = np.clip(raw, 0, n - 1)
    if keys:
        w = np.where(idx == raw, w, np.float32(0))
        tot = w.sum(axis=0)
        w = np.where(np.abs(tot) >= 1000.0 * np.finfo(np.float32).tiny, w / tot, w).astype(np.float32)
    return idx, w


@_compiled("sizes", "align_corners")
def _resize_cubic(x, sizes, align_corners):
    nd = len(sizes)
    for i, o in enumerate(sizes):
        axis = x.ndim - nd + i
        idx, w = _cubic_weights(o, x.shape[axis], align_corners)
        shape = [1] * x.ndim
        shape[axis] = o
        out = 0
        for k in range(4):
            out = out + jnp.take(x, jnp.asarray(idx[k]), axis=axis) * jnp.asarray(w[k], x.dtype).reshape(shape)
        x = out
    return x


_INTERP_SUPPORTED = {"nearest": {3: (), 4: (), 5: ("scale_factor",)}, "linear": {3: ("align_corners",)},
                     "bilinear": {4: ("align_corners",)}, "bicubic": {4: ("align_corners",)},
                     "area": {3: ("scale_factor",), 4: ("scale_factor",), 5: ("scale_factor",)},
                     "nearest-exact": {3: (), 4: ()}, "trilinear": {5: ("align_corners", "scale_factor")}}


@op("interpolate", family="nn_conv")
def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """``ops.interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
    recompute_scale_factor=None)`` with MindSpore's per-mode rules (e.g. 'nearest' on 4-D input takes
    ``size`` only)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'interpolate', 'input' must be a tensor, but got {type(input)}")
    x = input._data
    rank = x.ndim
    if isinstance(size, list):
        size = tuple(size)
    if isinstance(scale_factor, list):
        scale_factor = tuple(scale_factor)
    if size is not None and scale_factor is not None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set simultaneously")
    if size is not None:
        if isinstance(size, tuple):
            if not all(_is_int(v) and v > 0 for v in size):
                raise ValueError(f"For 'interpolate', the 'size' must be a tuple of positive int, but got {size}.")
            if len(size) != rank - 2:
                raise ValueError(f"For 'interpolate', 'input' and 'size' must have the same spatial dimensions, "
                                 f"but got 'input' is {rank - 2}D, 'size' is {len(size)}D")
        else:
            if not _is_int(size) or size <= 0:
                raise ValueError(f"For 'interpolate', the 'size' must be a positive int, but got {size}.")
            size = (int(size),) * (rank - 2)
    elif scale_factor is not None:
        if isinstance(scale_factor, tuple):
            if len(scale_factor) != rank - 2:
                raise ValueError(f"For 'interpolate', 'input' and 'scale_factor' must have the same spatial "
                                 f"dimensions, but got 'input' is {rank - 2}D, 'scale_factor' is "
                                 f"{len(scale_factor)}D")
        else:
            scale_factor = (float(scale_factor),) * (rank - 2)
        if not all(isinstance(v, (int, float)) and v > 0 for v in scale_factor):
            raise ValueError(f"For 'interpolate', the 'scale_factor' must be positive, but got {scale_factor}.")
    else:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both empty")
    if mode not in _INTERP_SUPPORTED:
        raise ValueError(f"For 'interpolate', 'mode' must be in '{list(_INTERP_SUPPORTED)}', but got {mode}")
    if rank not in _INTERP_SUPPORTED[mode]:
        raise ValueError(f"For 'interpolate', {mode} only support '{list(_INTERP_SUPPORTED[mode])}'D, "
                         f"but got {rank}D")
    if mode == "area" and size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        if size is not None:
            raise ValueError("For 'interpolate', it is incorrect to set 'recompute_scale_factor' to True after "
                             "specifying an explicit 'size'.")
        size = tuple(int(_math.floor(x.shape[i + 2] * scale_factor[i])) for i in range(rank - 2))
        scale_factor = None
    elif scale_factor is not None and "scale_factor" not in _INTERP_SUPPORTED[mode][rank]:
        raise ValueError(f"For 'interpolate', 'scale_factor' option cannot currently be set with the "
                         f"mode = {mode} and dim = {rank}D.")
    if align_corners is not None:
        if not isinstance(align_corners, bool):
            raise TypeError(f"For 'interpolate', the 'align_corners' must be bool, "
                            f"but got {type(align_corners).__name__}.")
        if "align_corners" not in _INTERP_SUPPORTED[mode][rank]:
            raise ValueError(f"For 'interpolate', 'align_corners' option cannot currently be set with the "
                             f"mode = {mode}, and dim = {rank}D")
    else:
        align_corners = False
    if size is None:
        size = tuple(int(_math.floor(x.shape[i + 2] * scale_factor[i])) for i in range(rank - 2))
    if mode == "nearest":
        return wrap(_resize_nearest(x, size, scales=scale_factor))
    if mode == "nearest-exact":
        return wrap(_resize_nearest(x, size, "half_pixel"))
    if mode in ("linear", "bilinear", "trilinear"):
        return wrap(_resize_linear(x, size, align_corners, scale_factor if mode == "trilinear" else None))
    if mode == "bicubic":
        return wrap(_resize_cubic(x, size, align_corners))
    return wrap(_adaptive_avg(x, size))


@op("upsample", family="nn_conv")
def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
             recompute_scale_factor=None):
    """``ops.upsample``: the same as ``ops.interpolate``."""
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


@op("prim_resize_nearest_neighbor", primitive="ResizeNearestNeighbor",
    prim_args=("size", "align_corners", "half_pixel_centers"), family="nn_conv")
def prim_resize_nearest_neighbor(input_x, size=None, align_corners=False, half_pixel_centers=False):
    """``ops.ResizeNearestNeighbor(size, align_corners=False, half_pixel_centers=False)(x)`` on (N, C, H, W)."""
    x = _tensor_arg("input_x", input_x, "ResizeNearestNeighbor")
    if not isinstance(size, (tuple, list)) or len(size) != 2 or not all(_is_int(v) and v > 0 for v in size):
        raise ValueError(f"For 'ResizeNearestNeighbor', the 'size' must be a tuple of 2 positive int, "
                         f"but got {size}.")
    if x.ndim != 4:
        raise ValueError(f"For 'ResizeNearestNeighbor', the dimension of 'input_x' must be 4, but got {x.ndim}.")
    mode = "half_pixel" if half_pixel_centers else "asymmetric"
    return wrap(_resize_nearest(x, tuple(size), mode, align_corners))


@op("prim_resize_bilinear_v2", primitive="ResizeBilinearV2", prim_args=("align_corners", "half_pixel_centers"),
    family="nn_conv")
def prim_resize_bilinear_v2(image, size, align_corners=False, half_pixel_centers=False):
    """``ops.ResizeBilinearV2(align_corners=False, half_pixel_centers=False)(image, size)``."""
    x = _float_arg("image", image, "ResizeBilinearV2")
    if isinstance(size, Tensor):
        size = tuple(int(v) for v in np.asarray(size._data))
    size = tuple(size)
    if align_corners or half_pixel_centers:
        return wrap(_resize_linear(x, size, align_corners))
    # legacy TF mode: src = dst * in / out, no half-pixel offset
    for i, o in enumerate(size):
        axis = x.ndim - 2 + i
        n = x.shape[axis]
        src = np.arange(o, dtype=np.float64) * (n / o)
        lo = np.minimum(np.floor(src), n - 1).astype(np.int64)
        hi = np.minimum(lo + 1, n - 1)
        shape = [1] * x.ndim
        shape[axis] = o
        w = jnp.asarray(src - lo, x.dtype).reshape(shape)
        x = jnp.take(x, jnp.asarray(lo), axis=axis) * (1 - w) + jnp.take(x, jnp.asarray(hi), axis=axis) * w
    return wrap(x)


@op("pixel_shuffle", family="nn_conv")
def pixel_shuffle(input, upscale_factor):
    """``ops.pixel_shuffle(input, upscale_factor)``: (*, C r^2, H, W) -> (*, C, H r, W r)."""
    if not _is_int(upscale_factor) or upscale_factor <= 0:
        raise ValueError(f"For 'pixel_shuffle', the 'upscale_factor' must be a positive int, "
                         f"but got {upscale_factor}.")
    x = _tensor_arg("input", input, "pixel_shuffle")
    if x.ndim < 3:
        raise ValueError(f"For pixel_shuffle, the dimension of `input` should be larger than 2, but got {x.ndim}.")
    r = upscale_factor
    *pre, c, h, w = x.shape
    if c % (r * r):
        raise ValueError("For 'pixel_shuffle', the length of third to last dimension is not divisibleby "
                         "`upscale_factor` squared.")
    c //= r * r
    n = len(pre)
    y = x.reshape(tuple(pre) + (c, r, r, h, w))
    y = jnp.transpose(y, tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))
    return wrap(y.reshape(tuple(pre) + (c, h * r, w * r)))


@op("pixel_unshuffle", family="nn_conv")
def pixel_unshuffle(input, downscale_factor):
    """``ops.pixel_unshuffle(input, downscale_factor)``: (*, C, H r, W r) -> (*, C r^2, H, W)."""
    if not _is_int(downscale_factor) or downscale_factor <= 0:
        raise ValueError(f"For 'pixel_unshuffle', the 'downscale_factor' must be a positive int, "
                         f"but got {downscale_factor}.")
    x = _tensor_arg("input", input, "pixel_unshuffle")
    if x.ndim < 3:
        raise ValueError(f"For pixel_unshuffle, the dimension of `input` should be larger than 2, "
                         f"but got {x.ndim}.")
    r = downscale_factor
    *pre, c, h, w = x.shape
    if h % r or w % r:
        raise ValueError("For 'pixel_unshuffle', the length of second to last 2 dimension should be divisible "
                         "by downscale_factor.")
    h //= r
    w //= r
    n = len(pre)
    y = x.reshape(tuple(pre) + (c, h, r, w, r))
    y = jnp.transpose(y, tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3))
    return wrap(y.reshape(tuple(pre) + (c * r * r, h, w)))


# ---------------------------------------------------------------------------
# padding
# ---------------------------------------------------------------------------
@_compiled("pairs", "mode")
def _pad_array(x, pairs, mode, value=0):
    """``pairs`` per axis (before, after), negative values crop (constant mode)."""
    if mode == "constant":
        pos = [(max(a, 0), max(b, 0)) for a, b in pairs]
        y = jnp.pad(x, pos, constant_values=jnp.asarray(value, x.dtype)) if any(p != (0, 0) for p in pos) else x
        sl = tuple(slice(-a if a < 0 else 0, y.shape[i] + b if b < 0 else None) for i, (a, b) in enumerate(pairs))
        return y[sl]
    jmode = {"reflect": "reflect", "replicate": "edge", "edge": "edge", "circular": "wrap",
             "symmetric": "symmetric"}[mode]
    return jnp.pad(x, pairs, mode=jmode)


@op("pad", family="nn_conv")
def pad(input_x, padding, mode="constant", value=None):
    """``ops.pad(input_x, padding, mode='constant', value=None)``: ``padding`` pairs start from the last
    axis (left, right, top, bottom, ...); negative values crop; modes 'constant', 'reflect', 'replicate',
    'circular'."""
    if not isinstance(input_x, Tensor):
        raise TypeError(f"For 'pad', the type of 'input_x' must be Tensor, but got {type(input_x)}.")
    if isinstance(padding, Tensor):
        padding = tuple(int(v) for v in np.asarray(padding._data).reshape(-1))
    if isinstance(padding, (tuple, list)) and not padding:
        return input_x
    if not isinstance(padding, (tuple, list)):
        raise TypeError(f"For 'pad', the type of 'paddings' must be a tuple of int or list of int or a Tensor, "
                        f"but got {type(padding)}.")
    if len(padding) % 2 != 0:
        raise ValueError(f"For 'pad', the size of padding must be divisible by 2, but got {len(padding)}")
    for pd in padding:
        if not _is_int(pd):
            raise TypeError(f"For 'pad', the paddings value must be tuple of int or list of int, but got {padding}")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise ValueError(f"For 'pad', the 'mode' must be 'constant', 'reflect', 'replicate' or 'circular', "
                         f"but got {mode}.")
    x = input_x._data
    k = len(padding) // 2
    if k > x.ndim:
        raise ValueError(f"For 'pad', the length of 'padding' ({len(padding)}) must be no greater than twice the "
                         f"dimension of 'input_x' ({x.ndim}).")
    pairs = [(0, 0)] * (x.ndim - k) + [(padding[2 * i], padding[2 * i + 1]) for i in reversed(range(k))]
    if mode == "constant":
        return wrap(_pad_array(x, pairs, "constant", 0 if value is None else value))
    if len(padding) > 6:
        raise ValueError(f"For 'pad', the padding must be less than or equal to 6, but got {len(padding)}.")
    if value is not None:
        raise ValueError(f"For 'pad', the padding mode '{mode}' can not set value, but got value {value}.")
    if mode == "reflect":
        for (a, b), n in zip(pairs, x.shape):
            if a >= n or b >= n:
                raise ValueError(f"For 'pad', the padding size of reflect mode must be less than the "
                                 f"corresponding input dimension, but got padding {tuple(padding)} and input "
                                 f"shape {tuple(x.shape)}.")
    return wrap(_pad_array(x, pairs, mode))


@op("prim_pad", primitive="Pad", prim_args=("paddings",), family="nn_conv")
def prim_pad(input_x, paddings=None):
    """``ops.Pad(paddings)(x)``: ``paddings`` is ((before, after), ...) for every axis, zero fill."""
    x = _tensor_arg("input_x", input_x, "Pad")
    if not isinstance(paddings, (tuple, list)) or not all(isinstance(p, (tuple, list)) and len(p) == 2
                                                         for p in paddings):
        raise TypeError(f"For 'Pad', the 'paddings' must be a tuple of (before, after) pairs, but got {paddings}.")
    if len(paddings) != x.ndim:
        raise ValueError(f"For 'Pad', the size of 'paddings' must be equal to the dimension of 'input_x' "
                         f"{x.ndim}, but got {len(paddings)}.")
    pairs = [(int(a), int(b)) for a, b in paddings]
    if any(a < 0 or b < 0 for a, b in pairs):
        raise ValueError(f"For 'Pad', all elements of 'paddings' must be >= 0, but got {paddings}.")
    return wrap(_pad_array(x, pairs, "constant", 0))


@op("prim_mirror_pad", primitive="MirrorPad", prim_args=("mode",), family="nn_conv")
def prim_mirror_pad(input_x, paddings, mode="REFLECT"):
    """``ops.MirrorPad(mode='REFLECT')(x, paddings)``: ``paddings`` an Int Tensor of shape (ndim, 2)."""
    x = _tensor_arg("input_x", input_x, "MirrorPad")
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For 'MirrorPad', the 'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode}.")
    p = np.asarray(paddings._data if isinstance(paddings, Tensor) else paddings).reshape(-1, 2)
    pairs = [(0, 0)] * (x.ndim - len(p)) + [(int(a), int(b)) for a, b in p]
    return wrap(_pad_array(x, pairs, mode.lower()))


# ---------------------------------------------------------------------------
# grid sampling
# ---------------------------------------------------------------------------
@_compiled("mode", "padding_mode", "align_corners")
def _grid_sample_2d(x, grid, mode, padding_mode, align_corners):
    n, c, h, w = x.shape
    gx, gy = grid[..., 0], grid[..., 1]

    def unnorm(g, size):
        if align_corners:
            return (g + 1) / 2 * (size - 1)
        return ((g + 1) * size - 1) / 2

    ix, iy = unnorm(gx, w), unnorm(gy, h)

    def reflect(coord, size):
        if align_corners:
            lo, span = 0.0, 2 * (size - 1)
            if size == 1:
                return jnp.zeros_like(coord)
        else:
            lo, span = -0.5, 2 * size
        c0 = jnp.abs(coord - lo)
        extra = jnp.mod(c0, span)
        out = jnp.where(extra > span / 2, span - extra, extra) + lo
        return jnp.clip(out, 0, size - 1)

    if padding_mode == "border":
        ix, iy = jnp.clip(ix, 0, w - 1), jnp.clip(iy, 0, h - 1)
    elif padding_mode == "reflection":
        ix, iy = reflect(ix, w), reflect(iy, h)

    batch = jnp.arange(n)[:, None, None]

    def gather(yy, xx):
        valid = (xx >= 0) & (xx <= w - 1) & (yy >= 0) & (yy <= h - 1)
        xc = jnp.clip(xx, 0, w - 1).astype(jnp.int32)
        yc = jnp.clip(yy, 0, h - 1).astype(jnp.int32)
        v = x[batch, :, yc, xc]                       # n, ho, wo, c
        return jnp.where(valid[..., None], v, jnp.zeros((), x.dtype))

    if mode == "nearest":
        out = gather(jnp.round(iy), jnp.round(ix))
    else:
        x0, y0 = jnp.floor(ix), jnp.floor(iy)
        x1, y1 = x0 + 1, y0 + 1
        wx1, wy1 = ix - x0, iy - y0
        wx0, wy0 = 1 - wx1, 1 - wy1
        out = (gather(y0, x0) * (wx0 * wy0)[..., None] + gather(y0, x1) * (wx1 * wy0)[..., None] +
               gather(y1, x0) * (wx0 * wy1)[..., None] + gather(y1, x1) * (wx1 * wy1)[..., None])
    return jnp.moveaxis(out, -1, 1)


@op("grid_sample", family="nn_conv")
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """``ops.grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None)`` for 4-D
    input (N, C, H, W) and grid (N, Ho, Wo, 2) in [-1, 1] (x, y)."""
    x = _float_arg("input", input, "grid_sample")
    g = _float_arg("grid", grid, "grid_sample")
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"For 'grid_sample', the 'mode' must be 'bilinear' or 'nearest', but got {mode}.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"For 'grid_sample', the 'padding_mode' must be 'zeros', 'border' or 'reflection', "
                         f"but got {padding_mode}.")
    if x.ndim != 4:
        raise ValueError("For 'grid_sample', only 4-D input is supported by msjax, "
                         f"but got {x.ndim}-D input.")
    if g.ndim != 4 or g.shape[-1] != 2 or g.shape[0] != x.shape[0]:
        raise ValueError(f"For 'grid_sample', the 'grid' must have shape (N, H_out, W_out, 2), but got "
                         f"{tuple(g.shape)}.")
    return wrap(_grid_sample_2d(x, g.astype(x.dtype), mode, padding_mode, bool(align_corners)))
