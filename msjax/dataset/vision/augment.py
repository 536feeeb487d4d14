"""Colour, histogram, erasing and mixing augmentations of ``mindspore.dataset.vision``
on numpy HWC uint8 images, written after MindSpore's OpenCV kernels: OpenCV's
fixed-point RGB->gray, round-half-even saturation to uint8, ``equalizeHist``,
MindSpore's AutoContrast lookup table and 3x3 sharpening filter.

A PIL image in gives a PIL image out (MindSpore runs these on PIL through its
Python implementations; msjax runs its numpy kernels on the pixels).
Random parameters come from the dataset seed (``ds.config.set_seed``): the colour,
rotation, affine, posterize, solarize, CutOut, policy and selection operations draw what
MindSpore's C++ operations draw (``_opstreams``: per map worker engines, libstdc++'s
distributions); the batch mixers are in ``batch_mix``.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _opstreams, _stdrandom as _std
from . import _cv, py_transforms_util as _py
from .transforms import _image, _mid_spread, _Transform
from .utils import AutoAugmentPolicy, Inter

__all__ = ["AdjustBrightness", "AdjustContrast", "AdjustSaturation", "AdjustHue", "AdjustSharpness",
           "RandomColorAdjust", "RandomColor", "RandomSharpness", "AutoContrast", "Equalize", "Invert", "Posterize",
           "RandomPosterize", "Solarize", "RandomSolarize", "CutOut",
           "RandomSelectSubpolicy", "RandomAffine", "Affine"]


# ---------------------------------------------------------------------------
# kernels (OpenCV's arithmetic on uint8)
# ---------------------------------------------------------------------------
def _sat_u8(x):
    """OpenCV's saturate_cast<uchar>: round half to even, clip to [0, 255]."""
    return np.clip(np.rint(x), 0, 255).astype(np.uint8)


def _rgb3(img, name):
    img = _image(img, name)
    if img.ndim != 3 or img.shape[2] != 3:
        raise RuntimeError(f"{name}: image shape is not <H,W,C> or channel is not 3, got image rank: {img.ndim}")
    return img


def rgb_to_gray(img):
    """OpenCV's COLOR_RGB2GRAY on uint8: 15-bit fixed point 0.299/0.587/0.114."""
    r, g, b = (img[..., k].astype(np.int64) for k in range(3))
    return ((r * 9798 + g * 19235 + b * 3735 + (1 << 14)) >> 15).astype(np.uint8)


def _blend(s1, w1, s2, w2):
    """cv::addWeighted(s1, w1, s2, w2, 0) on uint8: float32 weights, ``fma(s1, w1, s2 * w2)``,
    rounded half to even and saturated."""
    w1, w2 = float(np.float32(w1)), float(np.float32(w2))
    second = (s2.astype(np.float64) * w2).astype(np.float32).astype(np.float64)
    return _sat_u8((s1.astype(np.float64) * w1 + second).astype(np.float32))


def adjust_brightness(img, alpha):
    return _sat_u8(img.astype(np.float32) * np.float32(alpha))


def adjust_contrast(img, alpha):
    alpha = float(np.float32(alpha))
    mean = _sat_u8(np.mean(rgb_to_gray(img), dtype=np.float64))
    return _blend(np.full_like(img, mean), 1.0 - alpha, img, alpha)


def adjust_saturation(img, alpha):
    alpha = float(np.float32(alpha))
    gray = np.repeat(rgb_to_gray(img)[..., None], 3, axis=2)
    return _blend(gray, 1.0 - alpha, img, alpha)


def adjust_hue(img, hue):
    """Hue shifted by ``hue`` of a full turn (``static_cast<uint8_t>(hue * 255)`` levels of
    OpenCV's 0..255 ``HSV_FULL`` hue): MindSpore's AdjustHue, by the same OpenCV calls."""
    return _cv.shift_hue(img, int(np.float32(hue) * np.float32(255)))


def adjust_sharpness(img, alpha):
    """MindSpore's Sharpness: a 3x3 (1,1,1/1,5,1/1,1,1)/13 smoothing, edges kept, blended with alpha."""
    x = img.astype(np.float32)
    k = np.full((3, 3), np.float32(1.0 / 13.0), np.float32)
    k[1, 1] = np.float32(5.0 / 13.0)
    pad = [(1, 1), (1, 1)] + [(0, 0)] * (x.ndim - 2)
    p = np.pad(x, pad, mode="reflect")
    acc = np.zeros_like(x)
    H, W = x.shape[:2]
    for dy in range(3):
        for dx in range(3):
            acc += k[dy, dx] * p[dy:dy + H, dx:dx + W]
    smooth = _sat_u8(acc)
    smooth[0], smooth[-1], smooth[:, 0], smooth[:, -1] = img[0], img[-1], img[:, 0], img[:, -1]
    alpha = float(np.float32(alpha))
    return _blend(img, alpha, smooth, 1.0 - alpha)


def _channels_1_or_3(img, name):
    if img.ndim == 3 and img.shape[2] not in (1, 3):
        raise RuntimeError(f"{name}: channel of input image should be 1 or 3, but got: {img.shape[2]}")
    return img


def auto_contrast(img, cutoff=0.0, ignore=()):
    """MindSpore's AutoContrast: per channel, cut ``cutoff`` % from both ends of the histogram and
    stretch the rest to 0..255 (lookup table with truncation, as PIL's)."""
    x = img if img.ndim == 3 else img[..., None]
    out = np.empty_like(x)
    for c in range(x.shape[2]):
        plane = x[..., c]
        hist = np.bincount(plane.reshape(-1), minlength=256).astype(np.int64)
        for v in ignore:
            hist[v] = 0
        lo, hi = _percentiles(hist, cutoff)
        if hi <= lo:
            table = np.arange(256)
        else:
            scale = np.float32(255.0) / np.float32(hi - lo)
            offset = np.float32(-lo) * scale
            table = np.clip((np.arange(256, dtype=np.float32) * scale + offset).astype(np.int32), 0, 255)
        out[..., c] = table.astype(np.uint8)[plane]
    return out if img.ndim == 3 else out[..., 0]


def _percentiles(hist, cutoff):
    hist = hist.copy()
    n = int(hist.sum())
    cut = int(n * cutoff / 100.0)
    lo_cut = cut
    for i in range(256):            # remove cutoff% from the low end
        take = min(lo_cut, hist[i])
        hist[i] -= take
        lo_cut -= take
        if lo_cut <= 0:
            break
    hi_cut = cut
    for i in range(255, -1, -1):
        take = min(hi_cut, hist[i])
        hist[i] -= take
        hi_cut -= take
        if hi_cut <= 0:
            break
    nz = np.nonzero(hist)[0]
    if len(nz) == 0:
        return 255, 0
    return int(nz[0]), int(nz[-1])


def equalize(img):
    """OpenCV's equalizeHist on each channel."""
    x = img if img.ndim == 3 else img[..., None]
    out = np.empty_like(x)
    for c in range(x.shape[2]):
        plane = x[..., c]
        hist = np.bincount(plane.reshape(-1), minlength=256)
        total = plane.size
        i = int(np.nonzero(hist)[0][0])
        if hist[i] == total:
            out[..., c] = i
            continue
        scale = np.float32(255.0 / (total - hist[i]))
        lut = np.zeros(256, np.uint8)
        cum = np.cumsum(hist[i + 1:])
        lut[i + 1:] = _sat_u8(cum.astype(np.float32) * scale)
        out[..., c] = lut[plane]
    return out if img.ndim == 3 else out[..., 0]


def posterize(img, bits):
    mask = np.uint8((~((1 << (8 - bits)) - 1)) & 0xFF)
    return img & mask


def solarize(img, lo, hi):
    """Pixels in [lo, hi] become 255 - pixel; for ``lo == hi`` every pixel >= lo (MindSpore's
    Solarize kernel)."""
    out = img.copy()
    m = (img >= lo) if lo == hi else (img >= lo) & (img <= hi)
    out[m] = 255 - img[m]
    return out


# ---------------------------------------------------------------------------
# operations
# ---------------------------------------------------------------------------
class _PilAware(_Transform):
    """Gives a PIL image back for a PIL image in."""

    _pil_out = True


def _factor_range(value, name, center=1.0, bound=None):
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"Input {name} is not within the required interval of [0, 16777216].")
        return (max(0.0, center - value), center + value) if center else (-value, value)
    if isinstance(value, (list, tuple)) and len(value) == 2:
        lo, hi = float(value[0]), float(value[1])
        if lo > hi:
            raise ValueError(f"{name}[0] should be less than or equal to {name}[1].")
        if bound is not None and (lo < bound[0] or hi > bound[1]):
            raise ValueError(f"Input {name} is not within the required interval of [{bound[0]}, {bound[1]}].")
        return lo, hi
    raise TypeError(f"Argument {name} with value {value} is not of type [<class 'numbers.Number'>, "
                    "<class 'list'>, <class 'tuple'>].")


class AdjustBrightness(_PilAware):
    """``AdjustBrightness(brightness_factor)``: pixels times the factor."""

    def __init__(self, brightness_factor):
        self.brightness_factor = float(brightness_factor)

    def _apply(self, img):
        return adjust_brightness(_rgb3(img, "AdjustBrightness"), self.brightness_factor)


class AdjustContrast(_PilAware):
    """``AdjustContrast(contrast_factor)``: blend with the mean gray level."""

    def __init__(self, contrast_factor):
        self.contrast_factor = float(contrast_factor)

    def _apply(self, img):
        return adjust_contrast(_rgb3(img, "AdjustContrast"), self.contrast_factor)


class AdjustSaturation(_PilAware):
    """``AdjustSaturation(saturation_factor)``: blend with the gray image."""

    def __init__(self, saturation_factor):
        self.saturation_factor = float(saturation_factor)

    def _apply(self, img):
        return adjust_saturation(_rgb3(img, "AdjustSaturation"), self.saturation_factor)


class AdjustHue(_PilAware):
    """``AdjustHue(hue_factor)`` in [-0.5, 0.5]: the hue (0..255 for a full turn) shifted by
    ``int(hue_factor * 255)``."""

    def __init__(self, hue_factor):
        if not -0.5 <= hue_factor <= 0.5:
            raise ValueError("Input hue_factor is not within the required interval of [-0.5, 0.5].")
        self.hue_factor = float(hue_factor)

    def _apply(self, img):
        return adjust_hue(_rgb3(img, "AdjustHue"), self.hue_factor)


class AdjustSharpness(_PilAware):
    """``AdjustSharpness(sharpness_factor)``: 0 blurred, 1 the image, 2 sharpened."""

    def __init__(self, sharpness_factor):
        self.sharpness_factor = float(sharpness_factor)

    def _apply(self, img):
        return adjust_sharpness(_image(img, "AdjustSharpness"), self.sharpness_factor)


class RandomColorAdjust(_PilAware):
    """``RandomColorAdjust(brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0))``: each
    factor drawn from its range, the four adjustments in a random order (MindSpore's); an identity
    range is skipped."""

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = _factor_range(brightness, "brightness")
        self.contrast = _factor_range(contrast, "contrast")
        self.saturation = _factor_range(saturation, "saturation")
        self.hue = _factor_range(hue, "hue", center=0.0, bound=(-0.5, 0.5))
        if isinstance(hue, numbers.Number) and not 0 <= hue <= 0.5:
            raise ValueError("Input hue is not within the required interval of [0, 0.5].")

    def _apply(self, img):
        img = _rgb3(img, "RandomColorAdjust")
        g = _opstreams.stream(self)
        steps = {"brightness": (self.brightness, adjust_brightness, 1.0),
                 "contrast": (self.contrast, adjust_contrast, 1.0),
                 "saturation": (self.saturation, adjust_saturation, 1.0), "hue": (self.hue, adjust_hue, 0.0)}
        # MindSpore: std::shuffle of the four names, then a float draw for each range that is
        # not the identity (both ends equal to it), in the shuffled order
        for name in _std.shuffle(list(steps), g):
            (lo, hi), fn, ident = steps[name]
            lo, hi = np.float32(lo), np.float32(hi)
            if _cmp_float(lo, hi) and _cmp_float(lo, ident):
                continue
            img = fn(img, _std.uniform_real_float(g, lo, hi))
        return img

    def _apply_pil(self, img):
        """MindSpore's Python path: Python's ``random`` and Pillow (``py_transforms_util``)."""
        return _py.random_color_adjust(img, self.brightness, self.contrast, self.saturation, self.hue)


def _cmp_float(a, b):
    """MindSpore's ``CmpFloat``: equal within float32's epsilon."""
    return abs(float(np.float32(a)) - float(np.float32(b))) < float(np.finfo(np.float32).eps)


class RandomColor(_PilAware):
    """``RandomColor(degrees=(0.1, 1.9))``: blend with the gray image by a random factor."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _factor_range(degrees, "degrees")

    def _apply(self, img):
        img = _rgb3(img, "RandomColor")
        t = _std.uniform_real_float(_opstreams.stream(self), *self.degrees)    # float, as MindSpore's
        if abs(t - 1.0) < 0.00195:
            return img
        gray = np.repeat(rgb_to_gray(img)[..., None], 3, axis=2)
        if abs(t) < 0.00195:
            return gray
        t = float(np.float32(t))
        return _blend(img, t, gray, 1 - t)

    def _apply_pil(self, img):
        """MindSpore's Python path: Pillow's ``Color`` enhancer by a Python ``random`` factor."""
        return _py.random_color(img, self.degrees)


class RandomSharpness(_PilAware):
    """``RandomSharpness(degrees=(0.1, 1.9))``: AdjustSharpness by a random factor."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _factor_range(degrees, "degrees")

    def _apply(self, img):
        return adjust_sharpness(_image(img, "RandomSharpness"), _mid_spread(_opstreams.stream(self), *self.degrees))

    def _apply_pil(self, img):
        """MindSpore's Python path: Pillow's ``Sharpness`` enhancer by a Python ``random`` factor."""
        return _py.random_sharpness(img, self.degrees)


class AutoContrast(_PilAware):
    """``AutoContrast(cutoff=0.0, ignore=None)``."""

    def __init__(self, cutoff=0.0, ignore=None):
        if not 0 <= cutoff < 50:
            raise ValueError("Input cutoff is not within the required interval of [0, 50).")
        self.cutoff = float(cutoff)
        self.ignore = [] if ignore is None else ([ignore] if isinstance(ignore, int) else list(ignore))

    def _apply(self, img):
        return auto_contrast(_channels_1_or_3(_image(img, "AutoContrast"), "AutoContrast"), self.cutoff,
                             self.ignore)


class Equalize(_PilAware):
    """``Equalize()``: histogram equalization of each channel."""

    def _apply(self, img):
        return equalize(_channels_1_or_3(_image(img, "Equalize"), "Equalize"))


class Invert(_PilAware):
    """``Invert()``: 255 - pixel."""

    def _apply(self, img):
        img = _image(img, "Invert")
        return (255 - img.astype(np.int64)).astype(img.dtype)


class Posterize(_PilAware):
    """``Posterize(bits)``: keep the ``bits`` high bits."""

    def __init__(self, bits):
        if not 0 <= bits <= 8:
            raise ValueError("Input bits is not within the required interval of [0, 8].")
        self.bits = int(bits)

    def _apply(self, img):
        return posterize(_image(img, "Posterize"), self.bits)


class RandomPosterize(_Transform):
    """``RandomPosterize(bits=(8, 8))``: Posterize by a random bit count in the range."""

    def __init__(self, bits=(8, 8)):
        if isinstance(bits, int):
            bits = (bits, bits)
        lo, hi = int(bits[0]), int(bits[1])
        if not 1 <= lo <= hi <= 8:
            raise ValueError("Input bits is not within the required interval of [1, 8].")
        self.bits = (lo, hi)

    def _apply(self, img):
        lo, hi = self.bits
        bits = lo if lo == hi else _std.uniform_int(_opstreams.stream(self), lo, hi)   # no draw for one value
        return posterize(_image(img, "RandomPosterize"), bits)


class Solarize(_PilAware):
    """``Solarize(threshold)``: pixels in [threshold, 255] (or [min, max]) become 255 - pixel."""

    def __init__(self, threshold):
        if isinstance(threshold, numbers.Number):
            threshold = (threshold, 255)
        self.threshold = (float(threshold[0]), float(threshold[1]))
        if self.threshold[0] > self.threshold[1]:
            raise ValueError("threshold must be in order of (min, max).")

    def _apply(self, img):
        return solarize(_image(img, "Solarize"), *self.threshold)


class RandomSolarize(_Transform):
    """``RandomSolarize(threshold=(0, 255))``: Solarize between two random levels of the range."""

    def __init__(self, threshold=(0, 255)):
        lo, hi = int(threshold[0]), int(threshold[1])
        if lo > hi:
            raise ValueError("threshold must be in min max format numbers.")
        self.threshold = (lo, hi)

    def _apply(self, img):
        g = _opstreams.stream(self)
        a = _std.uniform_int(g, *self.threshold)
        b = _std.uniform_int(g, *self.threshold)
        return solarize(_image(img, "RandomSolarize"), min(a, b), max(a, b))


class CutOut(_Transform):
    """``CutOut(length, num_patches=1, is_hwc=True)``: ``num_patches`` square patches of side
    ``length`` set to 0, their corners anywhere the patch still overlaps the image."""

    def __init__(self, length, num_patches=1, is_hwc=True):
        if not isinstance(length, int) or length < 1:
            raise ValueError("Input length is not within the required interval of [1, 2147483647].")
        if not isinstance(num_patches, int) or num_patches < 1:
            raise ValueError("Input num_patches is not within the required interval of [1, 2147483647].")
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc

    def _apply(self, img):
        img = _image(img, "CutOut")
        if img.ndim != 3:
            raise RuntimeError(f"CutOut: image shape is not <H,W,C>, but got rank: {img.ndim}")
        out = img.copy()
        view = out if self.is_hwc else np.moveaxis(out, 0, -1)
        H, W = view.shape[:2]
        L = self.length
        if L > H or L > W:
            raise RuntimeError(f"CutOut: box size is too large for image erase, got box height: {L}box weight: "
                               f"{L}, and image height: {H}, image width: {W}")
        g = _opstreams.stream(self)
        for _ in range(self.num_patches):
            y = _std.uniform_int(g, 0, H + L) - L      # MindSpore's order: the row, then the column
            x = _std.uniform_int(g, 0, W + L) - L
            view[max(y, 0):min(y + L, H), max(x, 0):min(x + L, W)] = 0
        return out


class RandomSelectSubpolicy(_Transform):
    """``RandomSelectSubpolicy(policy)``: one sub-policy (a list of ``(op, prob)``) chosen at random,
    each of its ops applied with its probability."""

    _holds_operations = True      # the held operations keep their own seeding (_opstreams)

    def __init__(self, policy):
        if not isinstance(policy, list) or not policy:
            raise TypeError("policy should be a non-empty list of sub-policies.")
        for sub in policy:
            if not isinstance(sub, list) or not sub:
                raise TypeError("each sub-policy should be a non-empty list of (op, prob) tuples.")
            for item in sub:
                if not (isinstance(item, tuple) and len(item) == 2 and callable(item[0]) and 0 <= item[1] <= 1):
                    raise ValueError("each sub-policy item should be a (callable op, probability in [0, 1]) tuple.")
        self.policy = policy

    def __call__(self, *args):
        g = _opstreams.stream(self)
        sub = self.policy[_std.uniform_int(g, 0, len(self.policy) - 1)]
        out = args
        for op, prob in sub:
            if _std.canonical(g) <= prob:          # MindSpore's uniform_real<double>(0, 1) <= prob
                res = op(*out)
                out = res if isinstance(res, tuple) else (res,)
        return out[0] if len(out) == 1 else out


def _affine_matrix(angle, translate, scale, shear, center):
    """MindSpore's ``GetAffineMatrix``: the forward 2x3 matrix ``T * C * RSS * C^-1`` of a
    rotation by ``angle``, a scale and shears (degrees) about ``center``, then ``translate``,
    in its float32 steps (angles to radians as ``CV_PI * deg / 180.0``, the entries computed in
    double and stored as float)."""
    f32 = np.float32
    rad = f32(math.pi * float(f32(angle)) / 180.0)
    sx = float(f32(math.pi * float(f32(shear[0])) / 180.0))
    sy = float(f32(math.pi * float(f32(-1 * f32(shear[1]))) / 180.0))
    cx, cy = f32(center[0]), f32(center[1])
    scale = float(f32(scale))
    a = float(f32(float(rad) + sy))          # float + float in C++: a float sum
    m0 = f32(scale * math.cos(a) / math.cos(sy))
    m1 = f32(scale * (-1 * math.cos(a) * math.tan(sx) / math.cos(sy) - math.sin(float(rad))))
    m3 = f32(scale * math.sin(a) / math.cos(sy))
    m4 = f32(scale * (-1 * math.sin(a) * math.tan(sx) / math.cos(sy) + math.cos(float(rad))))
    m2 = (f32(1) - m0) * cx - m1 * cy + f32(translate[0])
    m5 = (f32(1) - m4) * cy - m3 * cx + f32(translate[1])
    return np.array([[m0, m1, m2], [m3, m4, m5]], np.float32)


def _warp(img, m, interpolation, fill):
    """``cv::warpAffine`` by the forward matrix ``m`` into the image's own size, the border
    ``Scalar(r, g, b)`` (MindSpore's Affine)."""
    fill = tuple(fill) if isinstance(fill, (tuple, list)) else (fill,) * 3
    return _cv.warp_affine(img, m, img.shape[:2], interpolation, fill, name="Affine")


def _check_interval(value, lo, hi, name):
    if not lo <= value <= hi:
        raise ValueError(f"Input {name} is not within the required interval of [{lo}, {hi}].")


class Affine(_PilAware):
    """``Affine(degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0)``: rotate,
    translate (fractions of the width and height, in [-1, 1]), scale and shear (degrees) about
    the image centre, by ``cv::warpAffine`` with MindSpore's matrix: its pixels."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        _check_interval(degrees, -180, 180, "degrees")
        if len(translate) != 2:
            raise TypeError("The length of translate should be 2.")
        for i, t in enumerate(translate):
            _check_interval(t, -1.0, 1.0, f"translate[{i}]")
        if scale <= 0:
            raise ValueError("Input scale must be greater than 0.")
        for i, v in enumerate(shear if isinstance(shear, (list, tuple)) else [shear]):
            _check_interval(v, -180, 180, "shear" if isinstance(shear, numbers.Number) else f"shear[{i}]")
        self.degrees, self.translate, self.scale = float(degrees), tuple(translate), float(scale)
        self.shear = (float(shear), 0.0) if isinstance(shear, numbers.Number) else tuple(map(float, shear))
        self.resample, self.fill_value = resample, fill_value

    def _apply(self, img):
        img = _image(img, "Affine")
        H, W = img.shape[:2]
        f32 = np.float32
        shift = (float(f32(self.translate[0]) * f32(W)), float(f32(self.translate[1]) * f32(H)))
        m = _affine_matrix(self.degrees, shift, self.scale, self.shear, ((W - 1) * 0.5, (H - 1) * 0.5))
        return _warp(img, m, self.resample, self.fill_value)


class RandomAffine(_PilAware):
    """``RandomAffine(degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
    fill_value=0)``: MindSpore's parameter ranges (translate as fractions of width/height, shear
    in degrees along x and optionally y), then :class:`Affine`."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0):
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError("Input degrees is not within the required interval of [0, 16777216].")
            degrees = (-degrees, degrees)
        self.degrees = (float(degrees[0]), float(degrees[1]))
        if translate is not None:
            translate = list(translate)
            if len(translate) == 2:
                translate = translate + [0.0, 0.0]
            for t in translate:
                if not -1 <= t <= 1:
                    raise ValueError("Input translate is not within the required interval of [-1.0, 1.0].")
        self.translate = translate
        self.scale = None if scale is None else (float(scale[0]), float(scale[1]))
        if shear is not None:
            shear = [shear] if isinstance(shear, numbers.Number) else list(shear)
            if len(shear) == 1:
                shear = [-abs(shear[0]), abs(shear[0]), 0.0, 0.0]
            elif len(shear) == 2:
                shear = list(shear) + [0.0, 0.0]
        self.shear = shear
        self.resample, self.fill_value = resample, fill_value

    def _apply(self, img):
        img = _image(img, "RandomAffine")
        H, W = img.shape[:2]
        f32 = np.float32
        t = self.translate if self.translate is not None else (0.0, 0.0, 0.0, 0.0)
        shears = self.shear if self.shear is not None else (0.0, 0.0, 0.0, 0.0)
        scales = self.scale if self.scale is not None else (1.0, 1.0)
        # MindSpore draws all six (float draws, also from an empty range): the angle, the
        # shifts in pixels (the fractions times the size, in float32), the scale, the shears
        g = _opstreams.stream(self)
        angle = _std.uniform_real_float(g, *self.degrees)
        tx = _std.uniform_real_float(g, f32(t[0]) * f32(W), f32(t[1]) * f32(W))
        ty = _std.uniform_real_float(g, f32(t[2]) * f32(H), f32(t[3]) * f32(H))
        scale = _std.uniform_real_float(g, *scales)
        shear = (_std.uniform_real_float(g, shears[0], shears[1]), _std.uniform_real_float(g, shears[2], shears[3]))
        angle = float(np.fmod(f32(angle), f32(360)))
        m = _affine_matrix(angle, (tx, ty), scale, shear, ((W - 1) * 0.5, (H - 1) * 0.5))
        return _warp(img, m, self.resample, self.fill_value)


# ---------------------------------------------------------------------------
# AutoAugment / RandAugment
# ---------------------------------------------------------------------------
_POLICIES = {
    "imagenet": [
        (('Posterize', 0.4, 8), ('Rotate', 0.6, 9)),
        (('Solarize', 0.6, 5), ('AutoContrast', 0.6, None)),
        (('Equalize', 0.8, None), ('Equalize', 0.6, None)),
        (('Posterize', 0.6, 7), ('Posterize', 0.6, 6)),
        (('Equalize', 0.4, None), ('Solarize', 0.2, 4)),
        (('Equalize', 0.4, None), ('Rotate', 0.8, 8)),
        (('Solarize', 0.6, 3), ('Equalize', 0.6, None)),
        (('Posterize', 0.8, 5), ('Equalize', 1.0, None)),
        (('Rotate', 0.2, 3), ('Solarize', 0.6, 8)),
        (('Equalize', 0.6, None), ('Posterize', 0.4, 6)),
        (('Rotate', 0.8, 8), ('Color', 0.4, 0)),
        (('Rotate', 0.4, 9), ('Equalize', 0.6, None)),
        (('Equalize', 0.0, None), ('Equalize', 0.8, None)),
        (('Invert', 0.6, None), ('Equalize', 1.0, None)),
        (('Color', 0.6, 4), ('Contrast', 1.0, 8)),
        (('Rotate', 0.8, 8), ('Color', 1.0, 2)),
        (('Color', 0.8, 8), ('Solarize', 0.8, 7)),
        (('Sharpness', 0.4, 7), ('Invert', 0.6, None)),
        (('ShearX', 0.6, 5), ('Equalize', 1.0, None)),
        (('Color', 0.4, 0), ('Equalize', 0.6, None)),
        (('Equalize', 0.4, None), ('Solarize', 0.2, 4)),
        (('Solarize', 0.6, 5), ('AutoContrast', 0.6, None)),
        (('Invert', 0.6, None), ('Equalize', 1.0, None)),
        (('Color', 0.6, 4), ('Contrast', 1.0, 8)),
        (('Equalize', 0.8, None), ('Equalize', 0.6, None)),
    ],
    "cifar10": [          # MindSpore's order (torchvision lists the last ones otherwise)
        (('Invert', 0.1, None), ('Contrast', 0.2, 6)),
        (('Rotate', 0.7, 2), ('TranslateX', 0.3, 9)),
        (('Sharpness', 0.8, 1), ('Sharpness', 0.9, 3)),
        (('ShearY', 0.5, 8), ('TranslateY', 0.7, 9)),
        (('AutoContrast', 0.5, None), ('Equalize', 0.9, None)),
        (('ShearY', 0.2, 7), ('Posterize', 0.3, 7)),
        (('Color', 0.4, 3), ('Brightness', 0.6, 7)),
        (('Sharpness', 0.3, 9), ('Brightness', 0.7, 9)),
        (('Equalize', 0.6, None), ('Equalize', 0.5, None)),
        (('Contrast', 0.6, 7), ('Sharpness', 0.6, 5)),
        (('Color', 0.7, 7), ('TranslateX', 0.5, 8)),
        (('Equalize', 0.3, None), ('AutoContrast', 0.4, None)),
        (('TranslateY', 0.4, 3), ('Sharpness', 0.2, 6)),
        (('Brightness', 0.9, 6), ('Color', 0.2, 8)),
        (('Solarize', 0.5, 2), ('Invert', 0.0, None)),
        (('Equalize', 0.2, None), ('AutoContrast', 0.6, None)),
        (('Equalize', 0.2, None), ('Equalize', 0.6, None)),
        (('Color', 0.9, 9), ('Equalize', 0.6, None)),
        (('AutoContrast', 0.8, None), ('Solarize', 0.2, 8)),
        (('Brightness', 0.1, 3), ('Color', 0.7, 0)),
        (('Solarize', 0.4, 5), ('AutoContrast', 0.9, None)),
        (('TranslateY', 0.9, 9), ('TranslateY', 0.7, 9)),
        (('AutoContrast', 0.9, None), ('Solarize', 0.8, 3)),
        (('Equalize', 0.8, None), ('Invert', 0.1, None)),
        (('TranslateY', 0.7, 9), ('AutoContrast', 0.9, None)),
    ],
    "svhn": [
        (('ShearX', 0.9, 4), ('Invert', 0.2, None)),
        (('ShearY', 0.9, 8), ('Invert', 0.7, None)),
        (('Equalize', 0.6, None), ('Solarize', 0.6, 6)),
        (('Invert', 0.9, None), ('Equalize', 0.6, None)),
        (('Equalize', 0.6, None), ('Rotate', 0.9, 3)),
        (('ShearX', 0.9, 4), ('AutoContrast', 0.8, None)),
        (('ShearY', 0.9, 8), ('Invert', 0.4, None)),
        (('ShearY', 0.9, 5), ('Solarize', 0.2, 6)),
        (('Invert', 0.9, None), ('AutoContrast', 0.8, None)),
        (('Equalize', 0.6, None), ('Rotate', 0.9, 3)),
        (('ShearX', 0.9, 4), ('Solarize', 0.3, 3)),
        (('ShearY', 0.8, 8), ('Invert', 0.7, None)),
        (('Equalize', 0.9, None), ('TranslateY', 0.6, 6)),
        (('Invert', 0.9, None), ('Equalize', 0.6, None)),
        (('Contrast', 0.3, 3), ('Rotate', 0.8, 4)),
        (('Invert', 0.8, None), ('TranslateY', 0.0, 2)),
        (('ShearY', 0.7, 6), ('Solarize', 0.4, 8)),
        (('Invert', 0.6, None), ('Rotate', 0.8, 4)),
        (('ShearY', 0.3, 7), ('TranslateX', 0.9, 3)),
        (('ShearX', 0.1, 6), ('Invert', 0.6, None)),
        (('Solarize', 0.7, 2), ('TranslateY', 0.6, 7)),
        (('ShearY', 0.8, 4), ('Invert', 0.8, None)),
        (('ShearX', 0.7, 9), ('TranslateY', 0.8, 3)),
        (('ShearY', 0.8, 5), ('AutoContrast', 0.7, None)),
        (('ShearX', 0.7, 2), ('Invert', 0.1, None)),
    ],
}


def _linspace(start, end, n, scale=1.0, offset=0.0, rnd=False):
    """MindSpore's float ``Linspace`` of the augmentation magnitudes (rounded half to even)."""
    f32 = np.float32
    step = f32(0) if n == 1 else f32(f32(end) - f32(start)) / f32(n - 1)
    out = (f32(start) + np.arange(n, dtype=np.float32) * step) * f32(scale) + f32(offset)
    return np.rint(out) if rnd else out


def _magnitudes(name, bins, h, w, solarize_from=255.0):
    """MindSpore's ``GetSpace``: the magnitude of each bin and whether its sign is random
    (AutoAugment's Solarize bins start from 256, RandAugment's from 255)."""
    f32 = np.float32
    wide = {"ShearX": 0.3, "ShearY": 0.3, "TranslateX": f32(150.0) / f32(331) * f32(w),
            "TranslateY": f32(150.0) / f32(331) * f32(h), "Rotate": 30.0, "Brightness": 0.9, "Color": 0.9,
            "Contrast": 0.9, "Sharpness": 0.9}
    if name in wide:
        return _linspace(0.0, wide[name], bins), True
    if name == "Posterize":
        return _linspace(0.0, f32(bins) - f32(1), bins, f32(-4.0) / (f32(bins) - f32(1)), 8.0, True), False
    if name == "Solarize":
        return _linspace(solarize_from, 0.0, bins), False
    return np.zeros(1, np.float32), False       # AutoContrast, Equalize, Invert, Identity: one entry


def _rbg(fill):
    """MindSpore's ApplyAugment hands Rotate the fill as (r, b, g): green and blue swapped."""
    return fill[0], fill[2], fill[1]


def _apply_named(img, name, mag, interpolation, fill, rotate_fill):
    """MindSpore's ``ApplyAugment``: ``mag`` (float32) applied as ``name``. Shears in degrees
    ``mag * 180 / pi``; a translation truncated to whole pixels and then, as MindSpore's
    AffineOp reads it as a fraction, multiplied by the width (height); Rotate about the centre
    with ``rotate_fill`` (r, g, b)."""
    H, W = img.shape[:2]
    f32 = np.float32
    mag = f32(mag)
    center = ((W - 1) * 0.5, (H - 1) * 0.5)
    if name in ("ShearX", "ShearY"):
        shear = float(f32(float(mag * f32(180)) / math.pi))
        shears = (shear, 0.0) if name == "ShearX" else (0.0, shear)
        return _warp(img, _affine_matrix(0.0, (0.0, 0.0), 1.0, shears, center), interpolation, fill)
    if name in ("TranslateX", "TranslateY"):
        t = f32(int(mag))
        shift = (float(t * f32(W)), 0.0) if name == "TranslateX" else (0.0, float(t * f32(H)))
        return _warp(img, _affine_matrix(0.0, shift, 1.0, (0.0, 0.0), center), interpolation, fill)
    if name == "Rotate":
        return _cv.rotate(img, float(mag), interpolation, False, None, rotate_fill)
    one = f32(1) + mag
    if name == "Brightness":
        return adjust_brightness(img, one)
    if name == "Color":
        return adjust_saturation(img, one)
    if name == "Contrast":
        return adjust_contrast(img, one)
    if name == "Sharpness":
        return adjust_sharpness(img, float(one))
    if name == "Posterize":
        return posterize(img, int(mag))
    if name == "Solarize":
        return solarize(img, float(mag), float(mag))
    if name == "AutoContrast":
        return auto_contrast(img)
    if name == "Equalize":
        return equalize(img)
    if name == "Invert":
        return (255 - img.astype(np.int64)).astype(img.dtype)
    return img        # Identity


def _check_fill(fill_value):
    if isinstance(fill_value, int):
        fill_value = (fill_value,) * 3
    if len(fill_value) != 3 or not all(0 <= v <= 255 for v in fill_value):
        raise ValueError("fill_value should be a single integer or a 3-tuple of integers in [0, 255].")
    return tuple(fill_value)


class AutoAugment(_Transform):
    """``AutoAugment(policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST, fill_value=0)``: one
    of the policy's 25 sub-policies at random, each of its two operations with its probability and
    the magnitude of its bin (random sign where the operation has one), on RGB uint8 images."""

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST, fill_value=0):
        if not isinstance(policy, AutoAugmentPolicy):
            raise TypeError(f"Argument policy with value {policy} is not of type [<enum 'AutoAugmentPolicy'>].")
        if interpolation not in (Inter.NEAREST, Inter.BILINEAR):
            raise ValueError("AutoAugment: interpolation should be Inter.NEAREST or Inter.BILINEAR in msjax.")
        self.policy, self.interpolation, self.fill_value = policy, interpolation, _check_fill(fill_value)

    def _apply(self, img):
        img = _rgb3(img, "AutoAugment")
        table = _POLICIES[self.policy.value]
        # MindSpore's GetParams: the sub-policy, two float probabilities, two sign bits
        g = _opstreams.stream(self)
        sub = table[_std.uniform_int(g, 0, len(table) - 1)]
        probs = [_std.uniform_real_float(g, 0.0, 1.0) for _ in range(2)]
        signs = [_std.uniform_int(g, 0, 1) for _ in range(2)]
        H, W = img.shape[:2]
        for (name, prob, level), p, sign in zip(sub, probs, signs):
            if not p <= np.float32(prob):
                continue
            mags, signed = _magnitudes(name, 10, H, W, solarize_from=256.0)
            mag = mags[level] if len(mags) != 1 and level is not None else np.float32(0)
            if signed and sign == 0:
                mag = -mag
            img = _apply_named(img, name, mag, self.interpolation, self.fill_value, _rbg(self.fill_value))
        return img


class RandAugment(_Transform):
    """``RandAugment(num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=Inter.NEAREST,
    fill_value=0)``: ``num_ops`` operations drawn uniformly (Identity, ShearX/Y, TranslateX/Y, Rotate,
    Brightness, Color, Contrast, Sharpness, Posterize, Solarize, AutoContrast, Equalize) at bin
    ``magnitude``, with a random sign where the operation has one."""

    # MindSpore's operations by name, in its std::map's (sorted) order
    _OPS = ("AutoContrast", "Brightness", "Color", "Contrast", "Equalize", "Identity", "Posterize", "Rotate",
            "Sharpness", "ShearX", "ShearY", "Solarize", "TranslateX", "TranslateY")

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        if not isinstance(num_ops, int) or num_ops < 0:
            raise ValueError("Input num_ops is not within the required interval of [0, 16777216].")
        if not isinstance(num_magnitude_bins, int) or num_magnitude_bins < 2:
            raise ValueError("Input num_magnitude_bins is not within the required interval of [2, 16777216].")
        if not isinstance(magnitude, int) or not 0 <= magnitude < num_magnitude_bins:
            raise ValueError(f"Input magnitude is not within the required interval of [0, {num_magnitude_bins}).")
        if interpolation not in (Inter.NEAREST, Inter.BILINEAR):
            raise ValueError("RandAugment: interpolation should be Inter.NEAREST or Inter.BILINEAR in msjax.")
        self.num_ops, self.magnitude, self.num_magnitude_bins = num_ops, magnitude, num_magnitude_bins
        self.interpolation, self.fill_value = interpolation, _check_fill(fill_value)

    def _apply(self, img):
        img = _rgb3(img, "RandAugment")
        H, W = img.shape[:2]
        g = _opstreams.stream(self)
        for _ in range(self.num_ops):
            # MindSpore's RandInt(low, high): uniform_int(low, high) % (high - low) + low
            name = self._OPS[_std.uniform_int(g, 0, len(self._OPS)) % len(self._OPS)]
            negative = _std.uniform_int(g, 0, 2) % 2
            mags, signed = _magnitudes(name, self.num_magnitude_bins, H, W)
            mag = mags[self.magnitude] if len(mags) != 1 else np.float32(0)
            if signed and negative:
                mag = -mag
            img = _apply_named(img, name, mag, self.interpolation, self.fill_value, _rbg(self.fill_value))
        return img


__all__ += ["AutoAugmentPolicy", "AutoAugment", "RandAugment"]
