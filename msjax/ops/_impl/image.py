"""Image ops: resizing (``interpolate``/``upsample``, ``ResizeNearestNeighbor``,
``ResizeBilinearV2``), ``pixel_shuffle``/``pixel_unshuffle``, padding (``pad``, ``Pad``,
``MirrorPad``), ``grid_sample``, sliding blocks (``unfold``/``fold``, ``Im2Col``/``Col2Im``/
``col2im``, ``ExtractImagePatches``), and the block moves between batch and space
(``batch_to_space_nd``/``space_to_batch_nd``, ``BatchToSpace``, ``SpaceToBatch``,
``SpaceToBatchND``) and between depth and space (``DepthToSpace``, ``SpaceToDepth``).

Layouts are MindSpore's: NCHW (NCL / NCDHW) activations."""
from __future__ import annotations

import functools
import math as _math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import _is_int, arr, wrap
from .array import _ints, _need_concrete
from .math import _dn
from .conv import _compiled, _float_arg, _int_tuple, _same_pads, _tensor_arg
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
    """``pairs`` per axis (before, after), negative values crop: MindSpore's PadV3 crops the padded array,
    but for 'circular' it crops first (the wrapped values come from the cropped input)."""
    if mode == "constant":
        pos = [(max(a, 0), max(b, 0)) for a, b in pairs]
        y = jnp.pad(x, pos, constant_values=jnp.asarray(value, x.dtype)) if any(p != (0, 0) for p in pos) else x
        return y[_crop(pairs, y.shape)]
    jmode = {"reflect": "reflect", "replicate": "edge", "edge": "edge", "circular": "wrap",
             "symmetric": "symmetric"}[mode]
    pos = [(max(a, 0), max(b, 0)) for a, b in pairs]
    if mode == "circular":
        return jnp.pad(x[_crop(pairs, x.shape)], pos, mode=jmode)
    y = jnp.pad(x, pos, mode=jmode)
    return y[_crop(pairs, y.shape)]


def _crop(pairs, shape):
    """The slices that drop the negative parts of ``pairs``."""
    return tuple(slice(-a if a < 0 else 0, n + b if b < 0 else None) for (a, b), n in zip(pairs, shape))


@op("pad", family="nn_conv")
def pad(input_x, padding, mode="constant", value=None):
    """``ops.pad(input_x, padding, mode='constant', value=None)``: ``padding`` pairs start from the last
    axis (left, right, top, bottom, ...); negative values crop (see ``_pad_array``); modes 'constant',
    'reflect', 'replicate', 'circular' (these three with PadV3's rank rules)."""
    return pad_any_rank(input_x, padding, mode, value, ranks=True)


def pad_any_rank(input_x, padding, mode="constant", value=None, ranks=False):
    """``ops.pad`` without PadV3's rank rules unless ``ranks`` (``mint.nn.functional.pad``: other kernels)."""
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
    if ranks:
        _check_pad_rank(x.ndim, len(padding), mode)
    return wrap(_pad_array(x, pairs, mode))


def _check_pad_rank(ndim, k, mode):
    """PadV3's ranks for 'reflect'/'replicate'/'circular': ``k`` padding values pad a batched or unbatched
    input of ``k // 2 + 1`` spatial-plus-channel dims (a 2-D input takes two values), reflect at most 4-D."""
    if ndim < 3 and not (ndim == 2 and k == 2):
        raise ValueError(f"For primitive[PadV3], the input dims for edge, reflect or circular mode must be greater "
                         f"than or equal to 3, but got {ndim}.")
    full = ndim + 1 if ndim == k // 2 + 1 else ndim
    if mode == "reflect" and full > 4:
        raise ValueError(f"For primitive[PadV3], the input dims for reflect mode must be less than or equal to 4, "
                         f"but got {full}.")
    if ndim not in (k // 2 + 1, k // 2 + 2):
        raise ValueError(f"For primitive[PadV3], the input dims when padding's size equal {k} must be equal to "
                         f"{k // 2 + 2}, but got {ndim}.")


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


# ---------------------------------------------------------------------------
# Im2Col / Col2Im
# ---------------------------------------------------------------------------


def _im2col_pads(pads):
    """Im2Col's pads: 1 value (all sides), 2 (per axis) or 4 (top, bottom, left, right)."""
    if _is_int(pads):
        return ((int(pads),) * 2,) * 2
    p = tuple(int(v) for v in pads)
    if len(p) == 1:
        return ((p[0],) * 2,) * 2
    if len(p) == 2:
        return ((p[0], p[0]), (p[1], p[1]))
    return ((p[0], p[1]), (p[2], p[3]))


@op("prim_im2col", primitive="Im2Col", prim_args=("ksizes", "strides", "dilations", "pads"), family="nn")
def im2col(x, ksizes, strides=1, dilations=1, pads=0):
    """``ops.Im2Col(ksizes, strides=1, dilations=1, pads=0)(x)``: NCHW -> (N, C, kh*kw, L), the
    sliding blocks in row-major order."""
    a = _tensor_arg("x", x, "Im2Col")
    if a.ndim != 4:
        raise ValueError(f"For 'Im2Col', the dimension of 'x' must be 4, but got {a.ndim}.")
    k = _int_tuple(ksizes, "ksizes", "Im2Col")
    s = _int_tuple(strides, "strides", "Im2Col")
    d = _int_tuple(dilations, "dilations", "Im2Col")
    p = _im2col_pads(pads)
    n, c = a.shape[:2]
    patches = lax.conv_general_dilated_patches(a, k, s, p, rhs_dilation=d, precision=lax.Precision.HIGHEST)
    return wrap(patches.reshape(n, c, k[0] * k[1], -1))


@op("prim_col2im", primitive="Col2Im", prim_args=("kernel_size", "dilation", "padding", "stride"), family="nn")
def col2im(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """``ops.Col2Im(kernel_size, dilation=1, padding=0, stride=1)(x, output_size)``: (N, C, kh*kw, L)
    blocks summed back into (N, C, H, W) -- the adjoint of ``Im2Col``."""
    a = _tensor_arg("x", x, "Col2Im")
    if a.ndim != 4:
        raise ValueError(f"For 'Col2Im', the dimension of 'x' must be 4, but got {a.ndim}.")
    size = tuple(int(v) for v in np.ravel(_need_concrete(arr(output_size), "Col2Im")))
    k = _int_tuple(kernel_size, "kernel_size", "Col2Im")
    d = _int_tuple(dilation, "dilation", "Col2Im")
    p = _int_tuple(padding, "padding", "Col2Im")
    s = _int_tuple(stride, "stride", "Col2Im")
    n, c = a.shape[:2]
    if a.shape[2] != k[0] * k[1]:
        raise ValueError(f"For 'Col2Im', the third dimension of 'x' must be kernel_size[0] * kernel_size[1] = "
                         f"{k[0] * k[1]}, but got {a.shape[2]}.")

    def fwd(img):
        return lax.conv_general_dilated_patches(img, k, s, [(v, v) for v in p], rhs_dilation=d,
                                                precision=lax.Precision.HIGHEST).reshape(n, c, k[0] * k[1], -1)

    zero = jnp.zeros((n, c) + size, a.dtype)
    out_shape = jax.eval_shape(fwd, zero).shape
    if out_shape != a.shape:
        raise ValueError(f"For 'Col2Im', the shape of 'x' must be {list(out_shape)} for output_size {list(size)}, "
                         f"but got {list(a.shape)}.")
    return wrap(jax.linear_transpose(fwd, zero)(a)[0])


@op("col2im", family="nn")
def col2im_fn(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """``ops.col2im(input_x, output_size, kernel_size, dilation, padding_value, stride)``: ``ops.Col2Im``."""
    return col2im(input_x, output_size, kernel_size, dilation, padding_value, stride)


def _nchw_window(v, name):
    """ExtractImagePatches' ksizes/strides/rates: an int, (row, col) or [1, 1, row, col]."""
    if _is_int(v):
        v = (int(v),) * 2
    v = tuple(v) if isinstance(v, (tuple, list)) else ()
    if len(v) == 4 and v[:2] == (1, 1):
        v = v[2:]
    if len(v) != 2 or not all(_is_int(i) and i >= 1 for i in v):
        raise ValueError(f"For 'ExtractImagePatches', '{name}' must be an int, (row, col) or [1, 1, row, col] of "
                         f"positive ints, but got {v}.")
    return tuple(int(i) for i in v)


@op("prim_extract_image_patches", primitive="ExtractImagePatches",
    prim_args=("ksizes", "strides", "rates", "padding"), family="nn")
def extract_image_patches(input_x, ksizes, strides, rates, padding="VALID"):
    """``ops.ExtractImagePatches(ksizes, strides, rates, padding='VALID')(input_x)``: (N, C, H, W) ->
    (N, kh * kw * C, out_h, out_w), the depth ordered (kh, kw, C); ``ksizes``/``strides``/``rates`` are
    [1, 1, row, col] (``nn.Unfold``'s layout is [1, row, col, 1]). MindSpore 2.10's CPU build has no
    kernel for it."""
    x = arr(input_x)
    if x.ndim != 4:
        raise ValueError(f"For 'ExtractImagePatches', the dimension of 'input_x' must be 4, but got {x.ndim}.")
    if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
        raise ValueError(f"For 'ExtractImagePatches', the 'padding' must be 'VALID' or 'SAME', but got {padding}.")
    k, s, r = (_nchw_window(v, nm) for v, nm in ((ksizes, "ksizes"), (strides, "strides"), (rates, "rates")))
    n, c, h, w = x.shape
    eff = [(kk - 1) * rr + 1 for kk, rr in zip(k, r)]
    pads = _same_pads((h, w), eff, s, (1, 1)) if padding.upper() == "SAME" else [(0, 0), (0, 0)]
    xp = jnp.pad(x, [(0, 0), (0, 0)] + list(pads))
    oh = (h + sum(pads[0]) - eff[0]) // s[0] + 1
    ow = (w + sum(pads[1]) - eff[1]) // s[1] + 1
    patches = [xp[:, :, i * r[0]: i * r[0] + (oh - 1) * s[0] + 1: s[0], j * r[1]: j * r[1] + (ow - 1) * s[1] + 1: s[1]]
               for i in range(k[0]) for j in range(k[1])]
    out = jnp.stack(patches, axis=1)           # n, kh*kw, c, oh, ow
    return wrap(out.reshape(n, k[0] * k[1] * c, oh, ow))


# ---------------------------------------------------------------------------
# batch <-> space
# ---------------------------------------------------------------------------

def _block_args(name, x, block, pairs, what):
    """``block`` (int or M ints >= 1) and ``pairs`` (M (lo, hi) non-negative pairs) for the last M axes."""
    if _is_int(block):
        block = (int(block),) * len(pairs) if isinstance(pairs, (tuple, list)) else (int(block),)
    block = tuple(int(b) for b in block)
    if any(b < 1 for b in block):
        raise ValueError(f"For '{name}', the elements of 'block_shape' must be >= 1, but got {block}.")
    pairs = tuple(tuple(int(v) for v in p) for p in pairs)
    if len(pairs) != len(block) or any(len(p) != 2 for p in pairs):
        raise ValueError(f"For '{name}', the shape of '{what}' must be [{len(block)}, 2], but got "
                         f"{[list(p) for p in pairs]}.")
    if any(v < 0 for p in pairs for v in p):
        raise ValueError(f"For '{name}', the elements of '{what}' must be non-negative, but got {pairs}.")
    a = arr(x)
    if a.ndim < len(block) + 1:
        raise ValueError(f"For '{name}', the rank of 'input_x' must be at least {len(block) + 1}, but got {a.ndim}.")
    return a, block, pairs


@op("batch_to_space_nd", primitive="BatchToSpaceND", prim_args=("block_shape", "crops"), family="array")
def batch_to_space_nd(input_x, block_shape, crops):
    """``ops.batch_to_space_nd(input_x, block_shape, crops)``: the batch split into ``block_shape``
    blocks interleaved into the last M axes, then ``crops`` cut from each."""
    a, block, crops = _block_args("BatchToSpaceND", input_x, block_shape, crops, "crops")
    m, prod = len(block), int(np.prod(block))
    if a.shape[0] % prod:
        raise ValueError(f"For 'BatchToSpaceND', the first dimension of 'input_x' must be divisible by the product "
                         f"of 'block_shape' ({prod}), but got {a.shape[0]}.")
    rest, sp = a.shape[1:a.ndim - m], a.shape[a.ndim - m:]
    for s, b, (lo, hi) in zip(sp, block, crops):
        if lo + hi >= s * b:
            raise ValueError(f"For 'BatchToSpaceND', the crops {(lo, hi)} must be smaller than the output size "
                             f"{s * b}.")
    r = a.reshape(block + (a.shape[0] // prod,) + rest + sp)
    k = len(rest)
    perm = [m] + [m + 1 + i for i in range(k)] + [p for j in range(m) for p in (m + 1 + k + j, j)]
    r = r.transpose(perm).reshape((a.shape[0] // prod,) + rest + tuple(s * b for s, b in zip(sp, block)))
    idx = (slice(None),) * (1 + k) + tuple(slice(lo, s * b - hi) for s, b, (lo, hi) in zip(sp, block, crops))
    return wrap(r[idx])


def _block_size_check(name, block_size, pairs, what):
    if isinstance(block_size, bool) or not isinstance(block_size, int):
        raise TypeError(f"For '{name}', the type of 'block_size' must be int, but got {type(block_size)}.")
    if block_size < 2:
        raise ValueError(f"For '{name}', the 'block_size' must be >= 2, but got {block_size}.")
    if not isinstance(pairs, (list, tuple)) or np.array(pairs).shape != (2, 2):
        raise ValueError(f"For '{name}', the '{what}' must be a 2 x 2 list or tuple, but got {pairs}.")


def _batch_to_space_check(block_size, crops):
    _block_size_check("BatchToSpace", block_size, crops, "crops")


def _space_to_batch_check(block_size, paddings):
    _block_size_check("SpaceToBatch", block_size, paddings, "paddings")


@op("prim_batch_to_space", primitive="BatchToSpace", prim_args=("block_size", "crops"), family="array",
    prim_check=_batch_to_space_check)
def batch_to_space(x, block_size, crops):
    """``ops.BatchToSpace(block_size, crops)(x)``: ``BatchToSpaceND((block_size, block_size), crops)`` of
    an NCHW Tensor (MindSpore 2.10's CPU build has no kernel for it)."""
    if arr(x).ndim != 4:
        raise ValueError(f"For 'BatchToSpace', the rank of 'x' must be 4, but got {arr(x).ndim}.")
    return batch_to_space_nd(x, (block_size, block_size), crops)


@op("space_to_batch_nd", family="array")
def space_to_batch_nd(input_x, block_size, paddings):
    """``ops.space_to_batch_nd(input_x, block_size, paddings)``: the last M axes zero-padded by
    ``paddings`` and cut into ``block_size`` blocks stacked into the batch."""
    a, block, pads = _block_args("SpaceToBatchND", input_x, block_size, paddings, "paddings")
    m = len(block)
    k = a.ndim - 1 - m
    a = jnp.pad(a, [(0, 0)] * (1 + k) + list(pads))
    sp = a.shape[1 + k:]
    for s, b in zip(sp, block):
        if s % b:
            raise RuntimeError(f"For 'SpaceToBatchND', padded shape should be divisible by block_size, but got "
                               f"padded shape: {s}, block_size: {b}")
    r = a.reshape(a.shape[:1 + k] + tuple(v for s, b in zip(sp, block) for v in (s // b, b)))
    perm = [2 + k + 2 * j for j in range(m)] + list(range(1 + k)) + [1 + k + 2 * j for j in range(m)]
    r = r.transpose(perm)
    return wrap(r.reshape((a.shape[0] * int(np.prod(block)),) + a.shape[1:1 + k]
                          + tuple(s // b for s, b in zip(sp, block))))


@op("prim_space_to_batch", primitive="SpaceToBatch", prim_args=("block_size", "paddings"), family="array",
    prim_check=_space_to_batch_check)
def space_to_batch(x, block_size, paddings):
    """``ops.SpaceToBatch(block_size, paddings)(x)``: ``SpaceToBatchND((block_size, block_size), paddings)``
    of an NCHW Tensor (MindSpore 2.10's CPU build has no kernel for it)."""
    if arr(x).ndim != 4:
        raise ValueError(f"For 'SpaceToBatch', the rank of 'x' must be 4, but got {arr(x).ndim}.")
    return space_to_batch_nd(x, (block_size, block_size), paddings)


@op("prim_space_to_batch_nd", primitive="SpaceToBatchND", prim_args=("block_shape", "paddings"), family="array")
def prim_space_to_batch_nd(input_x, block_shape, paddings):
    """``ops.SpaceToBatchND(block_shape, paddings)(input_x)``: ``ops.space_to_batch_nd``."""
    return space_to_batch_nd(input_x, block_shape, paddings)


# ---------------------------------------------------------------------------
# DepthToSpace / SpaceToDepth
# ---------------------------------------------------------------------------

def _block_input(name, x, block_size):
    """The NCHW array of ``x`` and its shape, checked."""
    x = arr(x)
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 2:
        raise ValueError(f"For '{name}', the 'block_size' must be an int >= 2, but got {block_size}.")
    if x.ndim != 4:
        raise ValueError(f"For '{name}', the rank of 'x' must be 4, but got {x.ndim}.")
    return x, x.shape


@op("prim_depth_to_space", primitive="DepthToSpace", prim_args=("block_size",), family="array")
def depth_to_space(x, block_size):
    """``ops.DepthToSpace(block_size)(x)``: NCHW, ``C`` split into ``block_size**2`` spatial blocks."""
    a, (n, c, h, w) = _block_input("DepthToSpace", x, block_size)
    b = block_size
    if c % (b * b):
        raise ValueError(f"For 'DepthToSpace', the channel of 'x' must be divisible by block_size**2 ({b * b}), "
                         f"but got {c}.")
    a = a.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return wrap(a.reshape(n, c // (b * b), h * b, w * b))


@op("prim_space_to_depth", primitive="SpaceToDepth", prim_args=("block_size",), family="array")
def space_to_depth(x, block_size):
    """``ops.SpaceToDepth(block_size)(x)``: the inverse of ``DepthToSpace``."""
    a, (n, c, h, w) = _block_input("SpaceToDepth", x, block_size)
    b = block_size
    if h % b or w % b:
        raise ValueError(f"For 'SpaceToDepth', the height and width of 'x' must be divisible by block_size "
                         f"({b}), but got {h} and {w}.")
    a = a.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return wrap(a.reshape(n, c * b * b, h // b, w // b))


# ---------------------------------------------------------------------------
# unfold / fold
# ---------------------------------------------------------------------------

def _pair(v, name, op_name):
    if isinstance(v, Tensor):
        v = _ints(v)
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return (int(v), int(v))
    v = tuple(int(i) for i in v)
    if len(v) == 1:
        return v * 2
    if len(v) != 2:
        raise ValueError(f"For '{op_name}', '{name}' must be an int or a tuple of 2 ints, but got {v}.")
    return v


def _patch_index(h, w, kernel, dilation, padding, stride, op_name):
    """Row/column indices (into the padded image) of every patch element:
    arrays of shape (kh*kw, L) and the output grid size."""
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel, dilation, padding, stride
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if oh <= 0 or ow <= 0:
        raise ValueError(f"For '{op_name}', the calculated number of blocks must be positive, but got "
                         f"({oh}, {ow}).")
    ki, kj = np.meshgrid(np.arange(kh) * dh, np.arange(kw) * dw, indexing="ij")
    oi, oj = np.meshgrid(np.arange(oh) * sh, np.arange(ow) * sw, indexing="ij")
    rows = ki.reshape(-1, 1) + oi.reshape(1, -1)
    cols = kj.reshape(-1, 1) + oj.reshape(1, -1)
    return rows, cols, oh, ow


@op("unfold", family="array")
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """``ops.unfold(input, kernel_size, dilation=1, padding=0, stride=1)``: im2col,
    ``(N, C, H, W)`` -> ``(N, C*kh*kw, L)``."""
    x = arr(input)
    if x.ndim != 4:
        raise ValueError(f"For 'unfold', the rank of 'input' must be 4, but got {x.ndim}.")
    k = _pair(kernel_size, "kernel_size", "unfold")
    d = _pair(dilation, "dilation", "unfold")
    p = _pair(padding, "padding", "unfold")
    s = _pair(stride, "stride", "unfold")
    _patch_index(x.shape[2], x.shape[3], k, d, p, s, "unfold")   # validates the sizes
    return wrap(_unfold_kernel(x, k, d, p, s))


@functools.partial(jax.jit, static_argnums=(1, 2, 3, 4))
def _unfold_kernel(x, k, d, p, s):
    n, c, h, w = x.shape
    rows, cols, _, _ = _patch_index(h, w, k, d, p, s, "unfold")
    xp = jnp.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    patches = xp[:, :, rows, cols]          # (N, C, kh*kw, L)
    return jnp.reshape(patches, (n, c * rows.shape[0], rows.shape[1]))


@op("fold", methods="fold", family="array")
def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """``ops.fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1)``:
    col2im, ``(N, C*kh*kw, L)`` -> ``(N, C, H, W)``; overlapping values are summed."""
    x = arr(input)
    if x.ndim != 3:
        raise ValueError(f"For 'fold', the rank of 'input' must be 3, but got {x.ndim}.")
    oh_, ow_ = _pair(output_size, "output_size", "fold")
    k = _pair(kernel_size, "kernel_size", "fold")
    d = _pair(dilation, "dilation", "fold")
    p = _pair(padding, "padding", "fold")
    s = _pair(stride, "stride", "fold")
    n, ckk, length = x.shape
    kk = k[0] * k[1]
    if ckk % kk:
        raise ValueError(f"For 'fold', the size of dimension 1 of 'input' must be divisible by the product of "
                         f"'kernel_size' ({kk}), but got {ckk}.")
    rows, cols, gh, gw = _patch_index(oh_, ow_, k, d, p, s, "fold")
    if gh * gw != length:
        raise ValueError(f"For 'fold', the size of dimension 2 of 'input' must be {gh * gw}, but got {length}.")
    return wrap(_fold_kernel(x, (oh_, ow_), k, d, p, s))


@functools.partial(jax.jit, static_argnums=(1, 2, 3, 4, 5))
def _fold_kernel(x, size, k, d, p, s):
    (oh_, ow_), (n, ckk, length) = size, x.shape
    rows, cols, _, _ = _patch_index(oh_, ow_, k, d, p, s, "fold")
    kk = k[0] * k[1]
    c = ckk // kk
    vals = jnp.reshape(x, (n, c, kk, length))
    out = jnp.zeros((n, c, oh_ + 2 * p[0], ow_ + 2 * p[1]), x.dtype)
    out = out.at[:, :, rows, cols].add(vals)
    return out[:, :, p[0]:p[0] + oh_, p[1]:p[1] + ow_]


@op("tensor_unfold", methods="unfold", family="array")
def _tensor_unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    return unfold(input, kernel_size, dilation, padding, stride)


@op("prim_padding", primitive="Padding", family="image", prim_args=("pad_dim_size",),
    prim_check=lambda pad_dim_size=8: _padding_check(pad_dim_size))
def padding(x, pad_dim_size=8):
    """``ops.Padding(pad_dim_size=8)(x)``: ``x`` (last dimension 1, rank 2 or more) followed by zeros
    along its last dimension up to ``pad_dim_size``."""
    _padding_check(pad_dim_size)
    a = arr(x)
    if a.ndim < 2:
        raise ValueError(f"For primitive[Padding], the x rank must be greater than or equal to 2, but got {a.ndim}.")
    if a.shape[-1] != 1:
        raise ValueError(f"For 'Padding', the last dimension of 'x' must be 1, but got: {a.shape[-1]}.")
    return wrap(jnp.pad(a, [(0, 0)] * (a.ndim - 1) + [(0, pad_dim_size - 1)]))


def _padding_check(pad_dim_size):
    if not isinstance(pad_dim_size, int) or isinstance(pad_dim_size, bool):
        raise TypeError(f"For 'Padding', the type of 'pad_dim_size' should be 'int', but got type "
                        f"'{type(pad_dim_size).__name__}'.")
    if pad_dim_size <= 0:
        raise ValueError(f"For 'Padding', the 'pad_dim_size' must be int and must > 0, but got '{pad_dim_size}' "
                         f"with type 'int'.")


def _v2_size(size):
    s = np.asarray(_need_concrete(arr(size), "ResizeNearestNeighborV2") if isinstance(size, Tensor) else size)
    s = s.reshape(-1)
    if s.size != 2:
        raise ValueError(f"For primitive[ResizeNearestNeighborV2], the number of size must be equal to 2, "
                         f"but got {s.size}.")
    for v in s:
        if v <= 0:
            raise ValueError(f"For primitive[ResizeNearestNeighborV2], the size value must be greater than 0, "
                             f"but got {int(v)}.")
    return tuple(int(v) for v in s)


@op("prim_resize_nearest_neighbor_v2", primitive="ResizeNearestNeighborV2",
    prim_args=("align_corners", "half_pixel_centers"), family="nn_conv")
def prim_resize_nearest_neighbor_v2(image, size, align_corners=False, half_pixel_centers=False):
    """``array_ops.ResizeNearestNeighborV2(align_corners=False, half_pixel_centers=False)(image, size)``:
    ``ResizeNearestNeighbor`` on (N, C, H, W) UInt8/Float16/Float32/Float64 images with the size an input (a Tensor or tuple of 2 ints; its
    values must be known: in compiled code msjax then runs the function op by op)."""
    x = arr(image)
    if x.ndim != 4:
        raise ValueError(f"For primitive[ResizeNearestNeighborV2], the image rank must be equal to 4, but got {x.ndim}.")
    if x.dtype not in (jnp.uint8, jnp.float16, jnp.float32, jnp.float64):
        kinds = "; ".join(f"input[{t} Int64 Bool Bool], output[{t}]" for t in ("UInt8", "Float16", "Float32", "Float64"))
        raise TypeError(f"Select CPU operator[ResizeNearestNeighborV2] fail! Unsupported data type!\nThe supported "
                        f"data types are {kinds}; , but get input[{_dn(x)} Int64 Bool Bool ] and output[{_dn(x)} ]")
    mode = "half_pixel" if half_pixel_centers else "asymmetric"
    return wrap(_resize_nearest(x, _v2_size(size), mode, align_corners))


@op("prim_extract_volume_patches", primitive="ExtractVolumePatches", prim_args=("kernel_size", "strides", "padding"),
    family="nn_conv")
def prim_extract_volume_patches(input_x, kernel_size, strides, padding="VALID"):
    """``ops.ExtractVolumePatches(kernel_size, strides, padding)(x)`` on (N, C, D, H, W): every
    ``kernel_size[2:]`` patch at ``strides[2:]`` as channels, ordered (kd, kh, kw, c) with ``c`` fastest
    (TensorFlow's order); ``"SAME"`` pads zeros, half the total before and the rest after."""
    x = arr(input_x)
    if x.ndim != 5:
        raise ValueError(f"For 'ExtractVolumePatches', the dimension of 'input_x' must be 5, but got {x.ndim}.")
    pad = str(padding).upper()
    if pad not in ("SAME", "VALID"):
        raise ValueError(f"For 'ExtractVolumePatches', the 'padding' must be 'SAME' or 'VALID', but got {padding}.")
    ks, ss = tuple(kernel_size)[2:], tuple(strides)[2:]
    spatial = x.shape[2:]
    if pad == "VALID":
        outs = [(n - k) // s + 1 for n, k, s in zip(spatial, ks, ss)]
        pads = [(0, 0)] * 3
    else:
        outs = [-(-n // s) for n, s in zip(spatial, ss)]
        totals = [max((o - 1) * s + k - n, 0) for o, s, k, n in zip(outs, ss, ks, spatial)]
        pads = [(t // 2, t - t // 2) for t in totals]
    xp = jnp.pad(x, [(0, 0), (0, 0)] + pads)
    patches = []
    for kd in range(ks[0]):
        for kh in range(ks[1]):
            for kw in range(ks[2]):
                patches.append(xp[:, :, kd:kd + ss[0] * (outs[0] - 1) + 1:ss[0], kh:kh + ss[1] * (outs[1] - 1) + 1:ss[1],
                                  kw:kw + ss[2] * (outs[2] - 1) + 1:ss[2]])
    out = jnp.stack(patches, axis=1)   # (N, K, C, D', H', W')
    return wrap(out.reshape((x.shape[0], -1) + tuple(outs)))
