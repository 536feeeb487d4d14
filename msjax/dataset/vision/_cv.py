"""The OpenCV kernels under ``mindspore.dataset.vision``: decode, resize and warps.

MindSpore's C++ vision kernels call OpenCV 4.11 (bundled as ``libopencv_*.so.411``)
and libjpeg-turbo; msjax calls the same functions through ``opencv-python-headless``
4.11, so the pixels are the same bit for bit (``tests/golden/cases_vision_cv.py``
records them from MindSpore 2.10). The kernels release the GIL, so the dataset's
worker threads run them in parallel.

MindSpore's OpenCV is built without Intel IPP, whose bicubic and float resizes round
differently from OpenCV's own code; the wheel's IPP is switched off (OpenCV keeps that switch
per thread, so each thread that runs a kernel switches it off once).

Importing this module sets ``cv2.setNumThreads(1)``: one thread per kernel call, the
parallelism coming from the map workers (as MindSpore's workers), which keeps a small
machine from being oversubscribed. It is process-wide: a program that wants OpenCV's own
thread pool for its other work can call ``cv2.setNumThreads`` again after importing
``mindspore.dataset.vision``.

Differences from MindSpore: a JPEG that fails to decode raises MindSpore's message but
is not dumped to ``./abnormal_image.jpg``.
"""
from __future__ import annotations

import threading

import numpy as np

try:
    import cv2
except ImportError:  # pragma: no cover - opencv-python-headless is a declared dependency
    raise ImportError("mindspore.dataset.vision needs OpenCV for its image kernels (as MindSpore's own kernels): "
                      "pip install opencv-python-headless") from None

from ...mindrecord.filewriter import _pipeline_error
from .utils import Inter

__all__ = ["decode", "is_jpeg", "resize", "rotate", "warp_affine", "lut", "shift_hue", "CV_INTER"]

cv2.setNumThreads(1)
_thread = threading.local()


def _no_ipp():
    """OpenCV's own code paths in this thread, as MindSpore's IPP-less build."""
    if not getattr(_thread, "ready", False):
        cv2.ipp.setUseIPP(False)
        _thread.ready = True


# MindSpore's GetCVInterpolationMode
CV_INTER = {Inter.NEAREST: cv2.INTER_NEAREST, Inter.BILINEAR: cv2.INTER_LINEAR, Inter.BICUBIC: cv2.INTER_CUBIC,
            Inter.AREA: cv2.INTER_AREA}

_JPEG_FLAGS = cv2.IMREAD_COLOR_RGB | cv2.IMREAD_IGNORE_ORIENTATION


def is_jpeg(buf):
    return len(buf) > 3 and buf[0] == 0xFF and buf[1] == 0xD8 and buf[2] == 0xFF


def decode(buf):
    """Encoded bytes (a 1-D uint8 array) to an RGB HWC uint8 image. JPEG goes through
    libjpeg-turbo without EXIF rotation (MindSpore calls libjpeg itself), the other formats
    through ``cv::imdecode(IMREAD_COLOR)`` with BGR turned to RGB, as MindSpore's Decode."""
    buf = np.ascontiguousarray(buf, np.uint8)
    flags = _JPEG_FLAGS if is_jpeg(buf) else cv2.IMREAD_COLOR_RGB
    _no_ipp()
    try:
        img = cv2.imdecode(buf, flags)
    except cv2.error:
        img = None
    if img is None:
        raise _pipeline_error("Decode: image decode failed.")
    return img


def _rows_of_pixels(a):
    """Whether OpenCV can take ``a`` as it is: rows of packed pixels, any row step (a crop
    of a larger image is passed without a copy)."""
    packed = a.itemsize if a.ndim == 2 else a.itemsize * a.shape[2]
    return a.strides[-1] == a.itemsize and a.strides[1] == packed and a.strides[0] >= packed * a.shape[1]


def _cv_call(name, fn, img, *args, **kwargs):
    """Run an OpenCV kernel on ``img``: bool images as uint8, an (H, W, 1) image kept
    3-D, OpenCV's failures (an unsupported dtype) as MindSpore's RuntimeError."""
    src = img.view(np.uint8) if img.dtype == np.bool_ else img
    _no_ipp()
    if not _rows_of_pixels(src):
        src = np.ascontiguousarray(src)
    try:
        out = fn(src, *args, **kwargs)
    except cv2.error as e:
        raise _pipeline_error(f"{name}: {str(e).strip()}") from None
    if img.ndim == 3 and out.ndim == 2:
        out = out[:, :, None]
    return out.view(np.bool_) if img.dtype == np.bool_ else out


def resize(img, h, w, interpolation=Inter.BILINEAR):
    """``cv::resize`` to (h, w); ``interpolation`` one of NEAREST, BILINEAR, BICUBIC, AREA."""
    return _cv_call("Resize", cv2.resize, img, (int(w), int(h)), interpolation=CV_INTER[Inter(interpolation)])


def warp_affine(img, matrix, size_hw, interpolation=Inter.NEAREST, fill=0, name="Affine"):
    """``cv::warpAffine`` with a constant border of ``fill`` (an int or one value per channel)."""
    if isinstance(fill, (tuple, list)):
        fill = tuple(float(v) for v in fill)
    else:
        fill = (float(fill),) * 4
    return _cv_call(name, cv2.warpAffine, img, np.asarray(matrix, np.float64), (int(size_hw[1]), int(size_hw[0])),
                    flags=CV_INTER[Inter(interpolation)], borderMode=cv2.BORDER_CONSTANT, borderValue=fill)


def rotate(img, degrees, interpolation=Inter.NEAREST, expand=False, center=None, fill=(0, 0, 0)):
    """MindSpore's Rotate: ``cv::getRotationMatrix2D`` about ``center`` (default the middle
    pixel, ``(W-1)/2, (H-1)/2``), counter-clockwise ``degrees``; ``expand`` grows the output to
    the rotated image's bounding box (float32 box, rounded as OpenCV converts a Size2f).
    ``fill`` is (r, g, b); MindSpore hands OpenCV ``Scalar(b, g, r)`` for its channels."""
    H, W = img.shape[:2]
    if center is None:
        cx, cy = (W - 1) / 2.0, (H - 1) / 2.0
    else:
        cx, cy = float(center[0]), float(center[1])
    cx, cy = float(np.float32(cx)), float(np.float32(cy))
    rot = cv2.getRotationMatrix2D((cx, cy), float(degrees), 1.0)
    size = (H, W)
    if expand:
        pts = cv2.boxPoints(((cx, cy), (float(W), float(H)), float(degrees))).astype(np.float32)
        x0, y0 = pts[:, 0].min(), pts[:, 1].min()
        bw, bh = np.float32(pts[:, 0].max() - x0), np.float32(pts[:, 1].max() - y0)
        rot[0, 2] += float(bw) / 2.0 - W / 2.0
        rot[1, 2] += float(bh) / 2.0 - H / 2.0
        size = (int(np.rint(bh)), int(np.rint(bw)))
    r, g, b = fill
    return warp_affine(img, rot, size, interpolation, (b, g, r), name="Rotate")


def lut(img, table):
    """``img`` (uint8, HW or HWC) mapped through ``table`` (256 x C, any dtype OpenCV takes):
    ``out[..., k] = table[img[..., k], k]``, in one pass without the GIL."""
    c = table.shape[1]
    if c > 4:           # OpenCV's LUT takes up to 4 channels in the table
        return np.stack([lut(np.ascontiguousarray(img[..., k]), table[:, k:k + 1]) for k in range(c)], -1)
    return _cv_call("LUT", cv2.LUT, img, np.ascontiguousarray(table.reshape(1, 256, c)))


def shift_hue(img, shift):
    """MindSpore's AdjustHue kernel: RGB uint8 to ``HSV_FULL`` (hue 0..255 a full turn), the
    hue plus ``shift`` modulo 256, back to RGB, all by ``cv::cvtColor``."""
    hsv = _cv_call("AdjustHue", cv2.cvtColor, img, cv2.COLOR_RGB2HSV_FULL)
    hsv[..., 0] += np.uint8(shift & 0xFF)            # uint8 arithmetic wraps as MindSpore's
    return _cv_call("AdjustHue", cv2.cvtColor, hsv, cv2.COLOR_HSV2RGB_FULL)
