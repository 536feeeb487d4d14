"""Image transforms (``mindspore.dataset.vision``) on numpy HWC images.

Every transform is a plain callable: use it in ``dataset.map(operations=...)`` or
call it eagerly on an array. Where MindSpore's kernel is OpenCV's (``Decode``, ``Resize``
and the resizing crops, ``Rotate``), msjax calls the same OpenCV functions (``_cv``), so
the pixels are MindSpore's bit for bit; ``Inter.PILCUBIC`` is Pillow's bicubic (MindSpore's
kernel is a port of it). Crops, flips, pads and layout changes are numpy slicing.
Random transforms draw from the pipeline's generator (``ds.config.set_seed``).
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _opstreams, _stdrandom as _std, config
from ...mindrecord.filewriter import _pipeline_error
from . import _cv
from . import py_transforms_util as _py
from .py_transforms_util import is_pil, resize as _pil_resize, to_pil as _to_pil
from .utils import Border, ColorConverter, ImageBatchFormat, Inter, SliceMode

__all__ = ["Inter", "Border", "ImageBatchFormat", "Resize", "Rescale", "Normalize", "HWC2CHW", "CenterCrop",
           "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip", "RandomResizedCrop",
           "RandomCropDecodeResize", "Decode", "ToPIL", "ToTensor", "Pad", "Grayscale", "ToType", "Crop", "HorizontalFlip",
           "VerticalFlip", "ConvertColor", "ColorConverter", "RandomRotation", "Rotate", "SliceMode", "SlicePatches"]


# ---------------------------------------------------------------------------
# randomness
# ---------------------------------------------------------------------------
_rng_lock = config._augment_lock
_rng = config._augment_rng


def _uniform(lo=0.0, hi=1.0):
    r = _rng()
    with _rng_lock:
        return float(r.uniform(lo, hi))


def _randint(lo, hi):
    """Integer in [lo, hi]."""
    r = _rng()
    with _rng_lock:
        return int(r.integers(lo, hi + 1))


def _mid_spread(g, start, end):
    """MindSpore's ``mid + r * half_range`` with ``r`` a ``uniform_real_distribution<float>(-1, 1)``
    draw, all in float32 (``RandomRotation``, ``RandomSharpness``)."""
    f32 = np.float32
    r = f32(_std.uniform_real_float(g, -1.0, 1.0))
    start, end = f32(start), f32(end)
    return float(f32((end + start) / f32(2)) + r * f32((end - start) / f32(2)))


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
_is_pil = is_pil


def _image(img, name):
    if hasattr(img, "asnumpy") and hasattr(img, "dtype"):
        img = img.asnumpy()
    if hasattr(img, "mode") and hasattr(img, "size") and not isinstance(img, np.ndarray):  # PIL image
        img = np.asarray(img)
    if not isinstance(img, np.ndarray):
        raise TypeError(f"{name}: Input should be NumPy or PIL image, got {type(img)}.")
    if img.ndim not in (2, 3):
        raise RuntimeError(f"{name}: input tensor is not in shape of <H,W> or <H,W,C>, but got rank: {img.ndim}")
    return img


def _size_pair(size, name):
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        if size <= 0:
            raise ValueError(f"Input is not within the required interval of [1, 16777216].")
        return int(size)
    if isinstance(size, (list, tuple)) and len(size) in (1, 2) and all(isinstance(s, numbers.Integral)
                                                                         for s in size):
        if any(s <= 0 for s in size):
            raise ValueError(f"Input is not within the required interval of [1, 16777216].")
        return tuple(int(s) for s in size) if len(size) == 2 else int(size[0])
    raise TypeError(f"Argument size with value {size} is not of type [<class 'int'>, <class 'list'>, "
                    "<class 'tuple'>].")


def _target_size(h, w, size):
    if isinstance(size, tuple):
        return size
    if h <= w:
        return size, int(w * size / h)
    return int(h * size / w), size


def _resize_pilcubic(img, h, w):
    """``Inter.PILCUBIC``: MindSpore's port of Pillow's bicubic resample, run by Pillow itself
    (equal pixels). As MindSpore, only 3-channel images; non-uint8 ones, which MindSpore
    resamples as raw bytes, are refused."""
    if img.ndim != 3 or img.shape[2] != 3:
        shape = ",".join(str(d) for d in img.shape)
        raise _pipeline_error(f"Resize: Interpolation mode PILCUBIC only supports image with 3 channels, but got: "
                              f"<{shape}>")
    if img.dtype != np.uint8:
        raise NotImplementedError(f"Resize: Inter.PILCUBIC on {img.dtype} images is not supported by msjax "
                                  "(MindSpore resamples their raw bytes); use Inter.BICUBIC or a uint8 image.")
    from PIL import Image
    return np.asarray(Image.fromarray(img).resize((w, h), Image.BICUBIC))


def _resize(img, size, interpolation):
    h, w = _target_size(img.shape[0], img.shape[1], size)
    if (h, w) == img.shape[:2]:
        return img.copy()
    if interpolation == Inter.PILCUBIC:
        return _resize_pilcubic(img, h, w)
    return _cv.resize(img, h, w, interpolation)


class _Transform:
    """Base of the vision/transforms operations: a callable on numpy arrays. Operations that
    MindSpore also runs on PIL images (``_pil_out``) give a PIL image back for a PIL image in; the
    pixels come from Pillow where the operation has ``_apply_pil`` (as MindSpore's), else from
    msjax's numpy kernels (equal to Pillow's for crops, flips and pads)."""

    _pil_out = False
    _apply_pil = None

    def __call__(self, *args):
        if len(args) == 1:
            if self._apply_pil is not None and _is_pil(args[0]):
                return self._apply_pil(args[0])
            if self._pil_out and _is_pil(args[0]):
                from PIL import Image
                out = np.ascontiguousarray(self._apply(np.asarray(args[0])))
                return Image.fromarray(out[..., 0] if out.ndim == 3 and out.shape[2] == 1 else out)
            return self._apply(args[0])
        return tuple(_opstreams.per_column(self._apply, args))

    def _apply(self, img):
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}()"


# ---------------------------------------------------------------------------
# geometry
# ---------------------------------------------------------------------------
class Resize(_Transform):
    """``Resize(size, interpolation=Inter.LINEAR)``: ``size`` (h, w), or an int for the
    shorter edge (the other keeps the aspect ratio)."""

    _pil_out = True

    def __init__(self, size, interpolation=Inter.LINEAR):
        self.size = _size_pair(size, "Resize")
        if not isinstance(interpolation, Inter):
            raise TypeError(f"Argument interpolation with value {interpolation} is not of type [<enum 'Inter'>].")
        self.interpolation = interpolation

    def _apply(self, img):
        return _resize(_image(img, "Resize"), self.size, self.interpolation)

    def _apply_pil(self, img):
        """A PIL image is resized by Pillow, as MindSpore does (``py_transforms_util.resize``)."""
        if self.interpolation in (Inter.AREA, Inter.PILCUBIC):
            raise TypeError("Current Interpolation is not supported with PIL input.")
        return _pil_resize(img, self.size if isinstance(self.size, int) else list(self.size), self.interpolation)


def _crop_hw(size):
    if isinstance(size, numbers.Integral):
        return int(size), int(size)
    return int(size[0]), int(size[1])


class Crop(_Transform):
    """``Crop(coordinates, size)``: the (top, left) corner and (h, w) size."""

    _pil_out = True

    def __init__(self, coordinates, size):
        self.coordinates = tuple(coordinates)
        self.size = _crop_hw(size)

    def _apply(self, img):
        img = _image(img, "Crop")
        t, l = self.coordinates
        h, w = self.size
        if t + h > img.shape[0] or l + w > img.shape[1]:
            raise RuntimeError(f"Crop: Crop height/width out of bounds of the image {img.shape[:2]}.")
        return img[t:t + h, l:l + w].copy()


class CenterCrop(_Transform):
    """``CenterCrop(size)``: the central (h, w) region (padded with zeros if larger)."""

    _pil_out = True

    def __init__(self, size):
        self.size = _crop_hw(_size_pair(size, "CenterCrop") if not isinstance(size, (list, tuple))
                             else tuple(size) if len(size) == 2 else size[0])

    def _apply(self, img):
        img = _image(img, "CenterCrop")
        h, w = self.size
        H, W = img.shape[:2]
        if h > H or w > W:       # MindSpore pads with zeros, the larger half on top/left
            ph, pw = max(h - H, 0), max(w - W, 0)
            img = _pad(img, (pw - pw // 2, ph - ph // 2, pw // 2, ph // 2))
            H, W = img.shape[:2]
        t = (H - h) // 2
        l = (W - w) // 2
        return img[t:t + h, l:l + w].copy()


def _pad_arg(padding):
    if padding is None:
        return None
    if isinstance(padding, numbers.Integral):
        return (padding,) * 4
    padding = tuple(padding)
    if len(padding) == 2:
        return (padding[0], padding[1], padding[0], padding[1])
    if len(padding) == 4:
        return padding
    raise ValueError("padding should be an int, or a sequence of 2 or 4 ints.")


def _pad(img, pad, fill_value=0, padding_mode=Border.CONSTANT):
    if img.ndim == 3 and img.shape[2] not in (1, 3):
        raise RuntimeError("Pad: the channel of image tensor does not match the requirement of operator. Expecting "
                           f"tensor in channel of (1, 3). But got channel {img.shape[2]}.")
    left, top, right, bottom = pad
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
    mode = {Border.CONSTANT: "constant", Border.EDGE: "edge", Border.REFLECT: "reflect",
            Border.SYMMETRIC: "symmetric"}[Border(padding_mode)]
    if mode == "constant":
        if isinstance(fill_value, (tuple, list)) and img.ndim == 3:
            out = np.empty((img.shape[0] + top + bottom, img.shape[1] + left + right, img.shape[2]), img.dtype)
            out[...] = np.asarray(fill_value, img.dtype)
            out[top:top + img.shape[0], left:left + img.shape[1]] = img
            return out
        return np.pad(img, widths, mode="constant", constant_values=fill_value)
    return np.pad(img, widths, mode=mode)


class Pad(_Transform):
    """``Pad(padding, fill_value=0, padding_mode=Border.CONSTANT)``; padding is
    (left, top, right, bottom), (left/right, top/bottom) or one int."""

    _pil_out = True

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = _pad_arg(padding)
        self.fill_value = fill_value
        self.padding_mode = padding_mode

    def _apply(self, img):
        return _pad(_image(img, "Pad"), self.padding, self.fill_value, self.padding_mode)


class RandomCrop(_Transform):
    """``RandomCrop(size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT)``."""

    _pil_out = True

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = _crop_hw(size)
        self.padding = _pad_arg(padding)
        self.pad_if_needed = pad_if_needed
        self.fill_value = fill_value
        self.padding_mode = padding_mode

    def _apply(self, img):
        img = _image(img, "RandomCrop")
        if self.padding is not None:
            img = _pad(img, self.padding, self.fill_value, self.padding_mode)
        h, w = self.size
        H, W = img.shape[:2]
        if self.pad_if_needed and (H < h or W < w):
            ph, pw = max(h - H, 0), max(w - W, 0)
            img = _pad(img, (pw, ph, pw, ph), self.fill_value, self.padding_mode)
            H, W = img.shape[:2]
        if H < h or W < w:
            raise RuntimeError(f"RandomCrop: invalid crop size {self.size}, it is larger than the image {(H, W)}.")
        if (H, W) == (h, w):
            return img                  # MindSpore draws nothing then
        g = _opstreams.stream(self)
        l = _std.uniform_int(g, 0, W - w)   # MindSpore's order: x, then y
        t = _std.uniform_int(g, 0, H - h)
        return img[t:t + h, l:l + w].copy()

    def _apply_pil(self, img):
        """MindSpore's Python path: Python's ``random`` and Pillow (``py_transforms_util``)."""
        fill = (self.fill_value,) * 3 if isinstance(self.fill_value, int) else self.fill_value
        return _py.random_crop(img, self.size, self.padding or (0, 0, 0, 0), self.pad_if_needed, fill,
                               Border(self.padding_mode).value)


class HorizontalFlip(_Transform):
    _pil_out = True

    def _apply(self, img):
        return _image(img, "HorizontalFlip")[:, ::-1].copy()


class VerticalFlip(_Transform):
    _pil_out = True

    def _apply(self, img):
        return _image(img, "VerticalFlip")[::-1].copy()


class RandomHorizontalFlip(_Transform):
    """``RandomHorizontalFlip(prob=0.5)``."""

    _pil_out = True

    def __init__(self, prob=0.5):
        if not isinstance(prob, numbers.Real) or not 0 <= prob <= 1:
            raise ValueError(f"Input prob is not within the required interval of [0.0, 1.0].")
        self.prob = prob

    def _apply(self, img):
        img = _image(img, "RandomHorizontalFlip")
        return img[:, ::-1].copy() if _flip_coin(self) else img

    def _apply_pil(self, img):
        """MindSpore's Python path: flipped when ``prob > random.random()``."""
        return _py.random_horizontal_flip(img, self.prob)


class RandomVerticalFlip(_Transform):
    """``RandomVerticalFlip(prob=0.5)``."""

    _pil_out = True

    def __init__(self, prob=0.5):
        if not isinstance(prob, numbers.Real) or not 0 <= prob <= 1:
            raise ValueError(f"Input prob is not within the required interval of [0.0, 1.0].")
        self.prob = prob

    def _apply(self, img):
        img = _image(img, "RandomVerticalFlip")
        return img[::-1].copy() if _flip_coin(self) else img

    def _apply_pil(self, img):
        """MindSpore's Python path: flipped when ``prob > random.random()``."""
        return _py.random_vertical_flip(img, self.prob)


def _flip_coin(op):
    """MindSpore's ``std::bernoulli_distribution(prob)`` (prob a float32) on the op's engine."""
    return _std.bernoulli(_opstreams.stream(op), float(np.float32(op.prob)))


def _random_resized_box(g, H, W, scale, ratio, max_attempts):
    """MindSpore's ``RandomCropAndResizeOp::GetCropBox`` on engine ``g``: float32 scale and
    log-ratio draws, the box rounded as C++ rounds; (top, left, height, width)."""
    s_lo, s_hi = np.float32(scale[0]), np.float32(scale[1])
    r_lo, r_hi = float(np.float32(ratio[0])), float(np.float32(ratio[1]))
    log_lo, log_hi = np.float32(math.log(r_lo)), np.float32(math.log(r_hi))
    for _ in range(max_attempts):
        sample_scale = _std.uniform_real_float(g, s_lo, s_hi)
        sample_aspect = math.exp(_std.uniform_real_float(g, log_lo, log_hi))
        w = max(int(_std.cpp_round(math.sqrt(H * W * sample_scale * sample_aspect))), 1)
        h = max(int(_std.cpp_round(w / sample_aspect)), 1)
        if w <= W and h <= H:
            left = _std.uniform_int(g, 0, W - w)
            return _std.uniform_int(g, 0, H - h), left, h, w
    in_ratio = W / H
    if in_ratio < r_lo:
        w, h = W, int(_std.cpp_round(W / r_lo))
    elif in_ratio > r_hi:
        h, w = H, int(_std.cpp_round(H * r_hi))
    else:
        w, h = W, H
    w, h = max(w, 1), max(h, 1)
    # (size - crop) / 2.0f: a float32 quotient, rounded half away from zero
    return (int(_std.cpp_round(float(np.float32(H - h) / np.float32(2)))),
            int(_std.cpp_round(float(np.float32(W - w) / np.float32(2)))), h, w)


class RandomResizedCrop(_Transform):
    """``RandomResizedCrop(size, scale=(0.08, 1.0), ratio=(3/4, 4/3), interpolation=Inter.BILINEAR,
    max_attempts=10)``."""

    _pil_out = True

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        self.size = _crop_hw(size)
        self.scale, self.ratio = tuple(scale), tuple(ratio)
        self.interpolation = interpolation
        self.max_attempts = max_attempts

    def _apply(self, img):
        img = _image(img, "RandomResizedCrop")
        t, l, h, w = _random_resized_box(_opstreams.stream(self), img.shape[0], img.shape[1], self.scale,
                                         self.ratio, self.max_attempts)
        return _resize(img[t:t + h, l:l + w], self.size, self.interpolation)

    def _apply_pil(self, img):
        """MindSpore's Python path: Python's ``random`` and Pillow (``py_transforms_util``)."""
        if self.interpolation in (Inter.AREA, Inter.PILCUBIC):
            raise TypeError("Current Interpolation is not supported with PIL input.")
        return _py.random_resize_crop(img, self.size, self.scale, self.ratio, self.interpolation, self.max_attempts)


class Decode(_Transform):
    """``Decode(to_pil=False)``: encoded image bytes to an RGB HWC uint8 image (libjpeg-turbo for
    JPEG, OpenCV's ``imdecode`` otherwise, as MindSpore). The bytes come as ``bytes``, as a 1-D
    array, or as MindDataset gives a MindRecord ``bytes`` field: a (1,) ``S`` array (MindSpore's
    C++ Decode reads that one element). As MindSpore's kernel, an array's raw bytes are decoded
    whatever its dtype (``np.fromfile(path, dtype='int8')`` works): a JPEG by libjpeg from any
    dtype, another format only from a one-byte dtype (int8, uint8, bool), the others failing as
    MindSpore's ``imdecode`` does."""

    def __init__(self, to_pil=False):
        self.to_pil = to_pil

    def _apply(self, data):
        if hasattr(data, "asnumpy"):
            data = data.asnumpy()
        if isinstance(data, bytes):
            data = np.frombuffer(data, np.uint8)
        if not isinstance(data, np.ndarray):
            raise TypeError(f"The type of the encoded image should be {np.ndarray}, but got {type(data)}.")
        if data.dtype.kind == "U":
            raise TypeError(f"The data type of the encoded image can not be {data.dtype.type}.")
        if data.ndim != 1:
            raise TypeError(f"The number of array dimensions of the encoded image should be 1, but got "
                            f"{data.ndim}.")
        if data.dtype.kind == "S":
            if data.shape != (1,):
                raise _pipeline_error("Decode: couldn't decode bytes field with multi dims.")
            data = np.frombuffer(data[0], np.uint8)
        if data.size == 0:
            raise _pipeline_error("Input Tensor has no data.")
        raw = np.ascontiguousarray(data).view(np.uint8)     # the tensor's bytes, as MindSpore's kernel reads them
        if data.itemsize != 1 and not _cv.is_jpeg(raw):
            # MindSpore hands the array to cv::imdecode as a Mat of its own dtype: only 8-bit ones decode
            if data.dtype in (np.uint32, np.int64, np.uint64) or data.dtype.kind not in "biuf":
                raise _pipeline_error("[Internal ERROR] Decode: load image failed.")
            raise _pipeline_error("Decode: image decode failed.")
        if self.to_pil:         # MindSpore's Python Decode: Pillow, converted to RGB
            import io
            from PIL import Image
            return Image.open(io.BytesIO(raw.tobytes())).convert("RGB")
        return _cv.decode(raw)


class RandomCropDecodeResize(_Transform):
    """Decode, random-resized-crop and resize in one step."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        self._rrc = RandomResizedCrop(size, scale, ratio, interpolation, max_attempts)

    def _apply(self, data):
        return self._rrc(Decode()(data))


class Rescale(_Transform):
    """``Rescale(rescale, shift)``: ``image * rescale + shift`` as float32."""

    def __init__(self, rescale, shift):
        for name, v in (("rescale", rescale), ("shift", shift)):
            if not isinstance(v, numbers.Real) or isinstance(v, bool):
                raise TypeError(f"Argument {name} with value {v} is not of type [<class 'float'>, <class 'int'>].")
        self.rescale, self.shift = rescale, shift

    def _apply(self, img):
        if hasattr(img, "asnumpy"):
            img = img.asnumpy()
        img = np.asarray(img)
        # OpenCV convertTo: float32 coefficients, fused multiply-add
        a, b = np.float64(np.float32(self.rescale)), np.float64(np.float32(self.shift))
        return (img.astype(np.float64) * a + b).astype(np.float32)


class Normalize(_Transform):
    """``Normalize(mean, std, is_hwc=True)``: ``(image - mean) / std`` per channel, float32."""

    def __init__(self, mean, std, is_hwc=True):
        mean, std = list(mean), list(std)
        if len(mean) != len(std):
            raise ValueError("Length of mean and std must be equal.")
        if any(s <= 0 for s in std):
            raise ValueError("Input std_value is not within the required interval of (0.0, 255.0].")
        self.mean = np.asarray(mean, np.float32)
        self.std = np.asarray(std, np.float32)
        self.is_hwc = is_hwc

    def _apply(self, img):
        img = _image(img, "Normalize")
        if img.dtype == np.uint8 and (img.ndim == 2 or self.is_hwc) and \
                len(self.mean) in (1, 1 if img.ndim == 2 else img.shape[2]):
            return self._apply_u8(img)
        img = img.astype(np.float32)
        if img.ndim == 2:
            if len(self.mean) != 1:
                raise RuntimeError("Normalize: the number of channels does not match the number of mean values.")
            return ((img - self.mean[0]) / self.std[0]).astype(np.float32)
        c = img.shape[2] if self.is_hwc else img.shape[0]
        if len(self.mean) not in (1, c):
            raise RuntimeError(f"Normalize: number of channels {c} does not match the size of mean "
                               f"{len(self.mean)}.")
        shape = (1, 1, -1) if self.is_hwc else (-1, 1, 1)
        # full-size mean/std planes (cached per image shape): the same float32 ops without a
        # broadcast over the short channel axis, which numpy runs slowly
        key = img.shape
        full = self._full.get(key) if hasattr(self, "_full") else None
        if full is None:
            full = (np.ascontiguousarray(np.broadcast_to(self.mean.reshape(shape), key)),
                    np.ascontiguousarray(np.broadcast_to(self.std.reshape(shape), key)))
            self._full = {key: full}
        return ((img - full[0]) / full[1]).astype(np.float32)

    def _apply_u8(self, img):
        """A uint8 HWC image through a 256-entry table per channel (``cv2.LUT``): each entry is the
        float32 ``(value - mean) / std`` of the general path, so the pixels are the same."""
        c = 1 if img.ndim == 2 else img.shape[2]
        table = getattr(self, "_table", None)
        if table is None or table.shape[1] != c:
            v = np.arange(256, dtype=np.float32)[:, None]
            table = ((v - np.broadcast_to(self.mean, (c,))[None]) / np.broadcast_to(self.std, (c,))[None])
            table = self._table = np.ascontiguousarray(table.astype(np.float32))
        return _cv.lut(img, table)


class HWC2CHW(_Transform):
    """``HWC2CHW()``: (H, W, C) to (C, H, W); a 2-D image is returned as is."""

    def _apply(self, img):
        img = _image(img, "HWC2CHW")
        if img.ndim == 2:
            return img
        return np.ascontiguousarray(img.transpose(2, 0, 1))


class SlicePatches(_Transform):
    """``SlicePatches(num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0)``: an
    ``<H, W>`` or ``<H, W, C>`` image cut into ``num_height * num_width`` patches, row by row
    (one output column each). ``PAD`` pads the bottom and right with ``fill_value`` up to a
    multiple of the patch count, ``DROP`` drops the remainder. As MindSpore, a CHW image is
    taken for HWC (its C and H axes are cut)."""

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        for name, v in (("num_height", num_height), ("num_width", num_width)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"Argument {name} with value {v} is not of type [<class 'int'>], "
                                f"but got {type(v)}.")
            if not 1 <= v <= 2147483647:
                raise ValueError(f"Input {name} is not within the required interval of [1, 2147483647].")
        if not isinstance(slice_mode, SliceMode):
            raise TypeError(f"Argument slice_mode with value {slice_mode} is not of type [{SliceMode}], "
                            f"but got {type(slice_mode)}.")
        if isinstance(fill_value, bool) or not isinstance(fill_value, int):
            raise TypeError(f"Argument fill_value with value {fill_value} is not of type [<class 'int'>], "
                            f"but got {type(fill_value)}.")
        if not 0 <= fill_value <= 255:
            raise ValueError("Input fill_value is not within the required interval of [0, 255].")
        self.num_height, self.num_width = num_height, num_width
        self.slice_mode, self.fill_value = slice_mode, fill_value

    def __call__(self, *args):
        if len(args) != 1:
            raise RuntimeError(f"SlicePatches: expected one input column, but got {len(args)}.")
        out = self._apply(args[0])
        return out[0] if len(out) == 1 else out

    def _apply(self, img):
        img = _image(img, "SlicePatches")
        nh, nw = self.num_height, self.num_width
        h, w = img.shape[:2]
        if self.slice_mode == SliceMode.PAD:
            ph, pw = -(-h // nh), -(-w // nw)
            if (ph * nh, pw * nw) != (h, w):
                pad = [(0, ph * nh - h), (0, pw * nw - w)] + [(0, 0)] * (img.ndim - 2)
                img = np.pad(img, pad, constant_values=np.array(self.fill_value).astype(img.dtype))
        else:
            ph, pw = h // nh, w // nw
        return tuple(np.ascontiguousarray(img[i * ph:(i + 1) * ph, j * pw:(j + 1) * pw])
                     for i in range(nh) for j in range(nw))


class ToPIL(_Transform):
    """``ToPIL()``: a decoded numpy image (HWC uint8, or HW) to a PIL image, for the Python
    (Pillow) operations after it; a PIL image passes through (``py_transforms_util.to_pil``)."""

    def __call__(self, img):
        if hasattr(img, "asnumpy") and hasattr(img, "dtype"):
            img = img.asnumpy()
        return _to_pil(img)


class ToTensor(_Transform):
    """``ToTensor(output_type=np.float32)``: HWC uint8 in [0, 255] to CHW float in [0, 1]."""

    def __init__(self, output_type=np.float32):
        from ..._core import dtype as mstype
        self.output_type = np.dtype(output_type if isinstance(output_type, (str, type)) and
                                    not hasattr(output_type, "_np") else mstype.to_np(output_type))

    def _apply(self, img):
        img = _image(img, "ToTensor")
        if img.ndim == 2:
            img = img[:, :, None]
        scaled = img.astype(np.float32) * np.float32(1.0 / 255.0)
        return np.ascontiguousarray(scaled.transpose(2, 0, 1)).astype(self.output_type)


class ToType(_Transform):
    """``ToType(data_type)``: cast to a numpy/MindSpore dtype."""

    def __init__(self, data_type):
        from ..transforms.transforms import _np_dtype
        self.data_type = _np_dtype(data_type)

    def _apply(self, img):
        return np.asarray(img).astype(self.data_type)


class Grayscale(_Transform):
    """``Grayscale(num_output_channels=1)``: ITU-R 601-2 luma (as PIL's ``convert('L')``)."""

    _pil_out = True

    def __init__(self, num_output_channels=1):
        self.num_output_channels = num_output_channels

    def _apply(self, img):
        img = _image(img, "Grayscale")
        if img.ndim == 2:
            g = img
        else:
            g = img[..., 0] * 0.299 + img[..., 1] * 0.587 + img[..., 2] * 0.114
            g = np.rint(g).astype(img.dtype) if np.issubdtype(img.dtype, np.integer) else g.astype(img.dtype)
        return g if self.num_output_channels == 1 else np.stack([g] * 3, -1)


class ConvertColor(_Transform):
    """``ConvertColor(convert_mode)``: channel reorders, alpha add/drop and gray conversions."""

    def __init__(self, convert_mode):
        self.convert_mode = ColorConverter(convert_mode)

    def _apply(self, img):
        img = _image(img, "ConvertColor")
        m = self.convert_mode
        if m == ColorConverter.BGR2RGB:
            return img[..., ::-1].copy()
        if m == ColorConverter.RGB2RGBA:
            alpha = np.full(img.shape[:2] + (1,), 255 if img.dtype == np.uint8 else 1, img.dtype)
            return np.concatenate([img, alpha], -1)
        if m == ColorConverter.RGBA2RGB:
            return img[..., :3].copy()
        if m == ColorConverter.RGB2BGRA:
            alpha = np.full(img.shape[:2] + (1,), 255 if img.dtype == np.uint8 else 1, img.dtype)
            return np.concatenate([img[..., ::-1], alpha], -1)
        if m == ColorConverter.RGBA2BGR:
            return img[..., 2::-1].copy()
        if m == ColorConverter.RGB2GRAY:
            return Grayscale()(img)
        if m == ColorConverter.BGR2GRAY:
            return Grayscale()(img[..., ::-1])
        if m == ColorConverter.GRAY2RGB:
            g = img if img.ndim == 2 else img[..., 0]
            return np.stack([g] * 3, -1)
        raise NotImplementedError(f"ConvertColor mode {m} is not supported.")


def _rotate_args(resample, expand, center, fill_value):
    if not isinstance(resample, Inter):
        raise TypeError(f"Argument resample with value {resample} is not of type [<enum 'Inter'>].")
    if not isinstance(expand, bool):
        raise TypeError(f"Argument expand with value {expand} is not of type [<class 'bool'>].")
    if center is not None and (not isinstance(center, (tuple, list)) or len(center) != 2):
        raise ValueError("Value center needs to be a 2-tuple.")
    if isinstance(fill_value, numbers.Integral):
        fill_value = (int(fill_value),) * 3
    fill_value = tuple(fill_value)
    if len(fill_value) != 3 or not all(0 <= v <= 255 for v in fill_value):
        raise ValueError("fill_value should be a single integer or a 3-tuple.")
    return center, fill_value


class Rotate(_Transform):
    """``Rotate(degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0)``:
    counter-clockwise about ``center`` (default the middle pixel) by ``cv::warpAffine``, as
    MindSpore; a PIL image is rotated by Pillow (``py_transforms_util.rotate``), as MindSpore's
    Python path."""

    _pil_out = True

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        if isinstance(degrees, bool) or not isinstance(degrees, numbers.Real):
            raise TypeError(f"Argument degrees with value {degrees} is not of type [<class 'float'>, "
                            "<class 'int'>].")
        self.degrees = degrees % 360
        self.center, self.fill_value = _rotate_args(resample, expand, center, fill_value)
        self.resample, self.expand = resample, expand

    def _apply(self, img):
        return _rotate(_image(img, "Rotate"), self.degrees, self.resample, self.expand, self.center,
                       self.fill_value)

    def _apply_pil(self, img):
        return _py.rotate(img, self.degrees, self.resample, self.expand, self.center, self.fill_value)


def _rotate(img, degrees, resample, expand, center, fill_value):
    if resample not in _cv.CV_INTER:
        raise RuntimeError(f"Rotate: Invalid interpolation mode {resample.name} for an OpenCV warp.")
    return _cv.rotate(img, degrees, resample, expand, center, fill_value)


class RandomRotation(_Transform):
    """``RandomRotation(degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0)``:
    :class:`Rotate` by an angle drawn from ``degrees`` (a number ``d`` means ``(-d, d)``)."""

    _pil_out = True

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        if isinstance(degrees, numbers.Real) and not isinstance(degrees, bool):
            if degrees < 0:
                raise ValueError("Input degrees is not within the required interval of [0, 16777216].")
            degrees = (-(degrees % 360), degrees % 360)
        elif degrees[1] - degrees[0] >= 360:       # MindSpore's range normalisation
            degrees = (-180, 180)
        else:
            degrees = [degrees[0] % 360, degrees[1] % 360]
            if degrees[0] > degrees[1]:
                degrees[1] += 360
        self.degrees = (float(degrees[0]), float(degrees[1]))
        self.center, self.fill_value = _rotate_args(resample, expand, center, fill_value)
        self.resample, self.expand = resample, expand

    def _apply(self, img):
        angle = _mid_spread(_opstreams.stream(self), *self.degrees)
        return _rotate(_image(img, "RandomRotation"), angle, self.resample, self.expand, self.center,
                       self.fill_value)

    def _apply_pil(self, img):
        """MindSpore's Python path: ``random.uniform`` over the range, rotated by Pillow."""
        if self.resample in (Inter.AREA, Inter.PILCUBIC):
            raise TypeError("Current Interpolation is not supported with PIL input.")
        return _py.random_rotation(img, self.degrees, self.resample, self.expand, self.center, self.fill_value)
