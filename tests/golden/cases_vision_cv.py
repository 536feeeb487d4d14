"""Golden cases for the OpenCV-backed vision kernels (issue 24): ``Decode`` on JPEGs of
every common layout (baseline 4:4:4 / 4:2:2 / 4:2:0, progressive, grayscale, odd
sizes) and PNG, ``Resize`` with each OpenCV interpolation at sizes a training
pipeline uses, crops resized as ``RandomResizedCrop`` does, and ``Rotate`` and ``Affine``
at arbitrary angles (``cv::warpAffine``). Compared bitwise (``RTOL = ATOL = 0``):
MindSpore's kernels here are OpenCV's and libjpeg-turbo's, and so are msjax's.

Large outputs are returned as their shape, a CRC-32 of their bytes and a strided
sample, to keep the fixture small. JPEG/PNG bytes are written by Pillow in the case
itself; their CRC-32 is part of the result, so an encoder that differs between the
two environments shows up as such rather than as a decode difference.
``ms`` is ``mindspore`` or ``msjax``; only numpy, zlib and Pillow are imported."""
import importlib
import io
import zlib

import numpy as np

RTOL = 0.0
ATOL = 0.0


def _v(ms):
    return importlib.import_module(ms.__name__ + ".dataset.vision")


def _pattern(h, w, seed=0):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w]
    return np.stack([(xx * 7 + yy * 3) % 256, (yy * 11 + 40) % 256, rng.integers(0, 256, (h, w))],
                    -1).astype(np.uint8)


def _smooth(h, w):
    yy, xx = np.mgrid[0:h, 0:w]
    return np.stack([(xx * 255 // max(w - 1, 1)), (yy * 255 // max(h - 1, 1)), ((xx + yy) * 3) % 256],
                    -1).astype(np.uint8)


def _digest(a):
    a = np.ascontiguousarray(a)
    sample = a[::max(1, a.shape[0] // 5), ::max(1, a.shape[1] // 5)]
    return [list(a.shape), a.dtype.name, zlib.crc32(a.tobytes()), sample]


def _encode(img, fmt, **kw):
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, fmt, **kw)
    return buf.getvalue()


def _decode(ms, data):
    out = _v(ms).Decode()(np.frombuffer(data, np.uint8))
    return [zlib.crc32(data)] + _digest(out)


# ----------------------------------------------------------------- decode
def case_decode_jpeg_444(ms):
    return _decode(ms, _encode(_pattern(40, 56), "JPEG", quality=90, subsampling=0))


def case_decode_jpeg_422(ms):
    return _decode(ms, _encode(_pattern(40, 56), "JPEG", quality=75, subsampling=1))


def case_decode_jpeg_420_odd(ms):
    return _decode(ms, _encode(_pattern(37, 53, 1), "JPEG", quality=90, subsampling=2))


def case_decode_jpeg_progressive(ms):
    return _decode(ms, _encode(_pattern(48, 64, 2), "JPEG", quality=85, progressive=True))


def case_decode_jpeg_gray(ms):
    return _decode(ms, _encode(_pattern(33, 45)[..., 1], "JPEG", quality=90))


def case_decode_jpeg_bench_size(ms):
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:256, 0:320]
    img = np.stack([xx % 256, (yy * 2) % 256, rng.integers(0, 256, (256, 320))], -1).astype(np.uint8)
    return _decode(ms, _encode(img, "JPEG", quality=90))


def case_decode_jpeg_exif_orientation(ms):
    """EXIF orientation 6 (rotate 90): MindSpore's libjpeg decode leaves the pixels as stored."""
    from PIL import Image
    exif = Image.Exif()
    exif[0x0112] = 6
    return _decode(ms, _encode(_pattern(20, 36, 7), "JPEG", quality=90, exif=exif.tobytes()))


def case_decode_png_rgba(ms):
    img = np.concatenate([_pattern(21, 30), _pattern(21, 30, 3)[..., :1]], -1)
    return _decode(ms, _encode(img, "PNG"))


def case_decode_png_gray(ms):
    return _decode(ms, _encode(_pattern(21, 30)[..., 0], "PNG"))


def case_decode_corrupt(ms):
    """MindSpore writes the bytes to ./abnormal_image.jpg when recording: delete it after."""
    data = _encode(_pattern(16, 16), "JPEG")[:40]
    return _v(ms).Decode()(np.frombuffer(data, np.uint8))


def _decode_as(ms, data, make):
    """Decode ``make(data)``; a failure as its type and MindSpore's message line (trimmed of
    the C++ call stack)."""
    try:
        out = _v(ms).Decode()(make(data))
    except (TypeError, RuntimeError) as e:
        lines = [ln for ln in str(e).splitlines() if ln.startswith("[ERROR]")]
        return [type(e).__name__, lines[0] if lines else str(e)]
    return _digest(out)


def _padded(data, n=8):
    return data + b"\0" * (-len(data) % n)


def case_decode_dtypes_jpeg(ms):
    """YOLOv5 reads images with ``np.fromfile(path, dtype='int8')``: MindSpore decodes an array's raw
    bytes whatever its dtype, a JPEG (libjpeg) even from int16/float32/uint32 arrays."""
    data = _padded(_encode(_pattern(24, 31, 3), "JPEG", quality=90))
    return [_decode_as(ms, data, lambda d, t=t: np.frombuffer(d, t))
            for t in (np.int8, np.uint8, np.bool_, np.int16, np.float32, np.uint32, np.float64)] + \
        [_decode_as(ms, data, bytes), _decode_as(ms, data, lambda d: np.array([d]))]


def case_decode_dtypes_png(ms):
    """Other formats go through cv::imdecode on a Mat of the array's dtype: one-byte dtypes decode,
    wider ones fail (and types OpenCV has no Mat for fail earlier)."""
    data = _padded(_encode(_pattern(17, 22, 4), "PNG"))
    return [_decode_as(ms, data, lambda d, t=t: np.frombuffer(d, t))
            for t in (np.int8, np.bool_, np.int16, np.uint16, np.float32, np.float16, np.int64)] + \
        [_decode_as(ms, data, bytes)]


def case_decode_bad_inputs(ms):
    """``bytes`` decodes; a bytearray, list, 2-D array, empty array or several ``bytes`` do not."""
    data = _encode(_pattern(8, 8, 5), "PNG")
    return [_decode_as(ms, data, bytearray), _decode_as(ms, data, lambda d: list(d[:8])),
            _decode_as(ms, data, lambda d: np.frombuffer(d[:len(d) // 2 * 2], np.int8).reshape(2, -1)),
            _decode_as(ms, data, lambda d: np.zeros(0, np.int8)), _decode_as(ms, data, lambda d: np.array([d, d]))]


# ----------------------------------------------------------------- resize
def _resize(ms, src, size, inter):
    V = _v(ms)
    return _digest(V.Resize(size, getattr(V.Inter, inter))(src))


def case_resize_linear_up(ms):
    return [_resize(ms, _pattern(29, 41), (224, 224), "LINEAR"), _resize(ms, _smooth(29, 41), (100, 61), "LINEAR")]


def case_resize_linear_down(ms):
    return [_resize(ms, _pattern(256, 320), (224, 224), "LINEAR"), _resize(ms, _pattern(97, 131), 31, "LINEAR"),
            _resize(ms, _smooth(256, 320), (57, 250), "LINEAR")]


def case_resize_linear_gray_and_float(ms):
    return [_resize(ms, _pattern(45, 38)[..., 2], (64, 20), "LINEAR"),
            _resize(ms, _pattern(45, 38).astype(np.float32) / 255, (30, 70), "LINEAR")]


def case_resize_nearest(ms):
    return [_resize(ms, _pattern(29, 41), (224, 224), "NEAREST"), _resize(ms, _pattern(97, 131), (40, 33), "NEAREST")]


def case_resize_cubic(ms):
    return [_resize(ms, _pattern(29, 41), (96, 80), "BICUBIC"), _resize(ms, _pattern(97, 131), (40, 33), "BICUBIC"),
            _resize(ms, _smooth(60, 70).astype(np.float32), (33, 90), "BICUBIC")]


def case_resize_area(ms):
    return [_resize(ms, _pattern(97, 131), (40, 33), "AREA"), _resize(ms, _pattern(96, 128), (48, 64), "AREA"),
            _resize(ms, _pattern(29, 41), (70, 20), "AREA"), _resize(ms, _pattern(29, 41), (64, 90), "AREA")]


def case_resized_crops(ms):
    """RandomResizedCrop's kernel: a crop of the decoded image resized to 224x224 (bilinear), as
    crops of several shapes from a 256x320 image."""
    V = _v(ms)
    img = _pattern(256, 320, 4)
    out = []
    for t, l, h, w in ((0, 0, 256, 320), (17, 33, 91, 77), (100, 5, 150, 300), (3, 200, 40, 31)):
        out.append(_digest(V.Crop((t, l), (h, w))(img)))
        out.append(_digest(V.Resize((224, 224))(V.Crop((t, l), (h, w))(img))))
    return out


def case_random_resized_crop_whole(ms):
    """scale and ratio pinned to the whole image: the box is deterministic."""
    V = _v(ms)
    img = _pattern(64, 80, 5)
    return [_digest(V.RandomResizedCrop((50, 40), scale=(1.0, 1.0), ratio=(1.25, 1.25))(img)),
            _digest(V.RandomResizedCrop(33, scale=(1.0, 1.0), ratio=(1.25, 1.25),
                                        interpolation=V.Inter.BICUBIC)(img))]


# ----------------------------------------------------------------- rotate
def case_rotate_angles(ms):
    V = _v(ms)
    img = _pattern(24, 31, 6)
    return [_digest(V.Rotate(30)(img)), _digest(V.Rotate(-45.5, V.Inter.BILINEAR)(img)),
            _digest(V.Rotate(90)(img)), _digest(V.Rotate(17, expand=True)(img)),
            _digest(V.Rotate(60, V.Inter.BILINEAR, center=(5, 8), fill_value=(10, 20, 30))(img)),
            _digest(V.Rotate(200, V.Inter.BICUBIC, expand=True, fill_value=255)(img))]


def case_rotate_gray(ms):
    V = _v(ms)
    return _digest(V.Rotate(33, V.Inter.BILINEAR, expand=True)(_pattern(24, 31, 6)[..., 0]))


# ----------------------------------------------------------------- affine
def case_affine(ms):
    V = _v(ms)
    img = _pattern(26, 33, 8)
    return [_digest(V.Affine(30, [1, -1], 1.2, [10.0, 5.0], V.Inter.BILINEAR, (10, 20, 30))(img)),
            _digest(V.Affine(-15.5, [0, 0], 0.8, 0.0, V.Inter.NEAREST, 200)(img)),
            _digest(V.Affine(7, [0.5, -0.25], 1.0, [0.0, -12.0], V.Inter.BICUBIC, (1, 2, 3))(img)),
            _digest(V.Affine(45, [0, 0], 1.1, 3.0, V.Inter.BILINEAR)(img[..., 1]))]


def case_affine_translate_range(ms):
    """Affine's translation is a fraction of the width and height, within [-1, 1]."""
    return _v(ms).Affine(0, [2, 0], 1.0, 0.0)


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
