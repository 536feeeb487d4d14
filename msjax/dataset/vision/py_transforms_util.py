"""``mindspore.dataset.vision.py_transforms_util``: the PIL helpers model-zoo code imports
(``is_pil``, ``rotate``, ``augment_error_message``; research/cv/autoaugment also calls
``random_crop`` and ``adjust_brightness``/``contrast``/``saturation``), and ``resize``, which
``vision.Resize`` runs on a PIL image as MindSpore does.

Each takes and returns a ``PIL.Image.Image`` and raises ``TypeError`` with
``augment_error_message`` for anything else, as MindSpore's. ``random_crop`` draws its
corner from Python's ``random`` module, as MindSpore's does (seeded by ``random.seed``).
"""
import numbers
import random

import numpy as np

from .utils import Inter

__all__ = ["augment_error_message", "is_pil", "to_pil", "crop", "resize", "pad", "random_crop", "adjust_brightness",
           "adjust_contrast", "adjust_saturation", "rotate"]


def is_pil(img):
    """Whether ``img`` is a PIL image (``mindspore.dataset.vision.py_transforms_util.is_pil``)."""
    return hasattr(img, "mode") and hasattr(img, "size") and hasattr(img, "getdata") and \
        not isinstance(img, np.ndarray)


augment_error_message = "img should be PIL image. Got {}. Use Decode() for encoded data or ToPIL() for decoded data."


def _pil():
    from PIL import Image, ImageEnhance, ImageOps
    return Image, ImageEnhance, ImageOps


def to_pil(img):
    """A decoded HWC (or HW) numpy image as a PIL image, with MindSpore's checks; a PIL image is
    returned as is (``mindspore.dataset.vision.py_transforms_util.to_pil``, behind ``vision.ToPIL``)."""
    if is_pil(img):
        return img
    if not isinstance(img, np.ndarray):
        raise TypeError("The input image should be of type numpy.ndarray or PIL.Image.Image. "
                        "Got {}.".format(type(img)))
    if img.ndim not in (2, 3):
        raise ValueError("The dimension of input image should be 2 or 3. Got {}.".format(img.ndim))
    if img.ndim == 2:
        img = np.expand_dims(img, 2)
    if img.shape[-1] > 4:
        raise ValueError("The channel of input image should not exceed 4. Got {}.".format(img.shape[-1]))
    if img.shape[-1] == 1:
        if img.dtype not in (np.bool_, np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32, np.float32,
                             np.float64):
            raise TypeError("The input image type {} is not supported when "
                            "image shape is [H, W] or [H, W, 1].".format(img.dtype))
        img = img[:, :, 0]
    elif img.dtype != np.uint8:
        raise TypeError("The input image type {} is not supported when "
                        "image shape is [H, W, 2], [H, W, 3] or [H, W, 4].".format(img.dtype))
    return _pil()[0].fromarray(img)


def _check(img):
    if not is_pil(img):
        raise TypeError(augment_error_message.format(type(img)))


def crop(img, top, left, height, width):
    """The ``height`` x ``width`` region whose top-left corner is (``top``, ``left``)."""
    _check(img)
    return img.crop((left, top, left + width, top + height))


def resize(img, size, interpolation=Inter.BILINEAR):
    """Pillow's ``img.resize``: ``size`` (height, width), or an int for the shorter edge (the
    longer one scaled and truncated; an image whose shorter edge already has that size is
    returned as it is). ``interpolation`` an :class:`Inter` whose value is Pillow's filter."""
    _check(img)
    if not (isinstance(size, int) or (isinstance(size, (list, tuple)) and len(size) == 2)):
        raise TypeError(f"Size should be a single number or a list/tuple (h, w) of length 2.Got {size}.")
    if isinstance(size, int):
        width, height = img.size
        aspect = width / height
        if (width <= height and width == size) or (height <= width and height == size):
            return img
        if width < height:
            return img.resize((size, int(size / aspect)), int(interpolation))
        return img.resize((int(size * aspect), size), int(interpolation))
    return img.resize(tuple(size[::-1]), int(interpolation))


def _fill(fill_value):
    if isinstance(fill_value, list):
        fill_value = tuple(fill_value)
    if not isinstance(fill_value, (numbers.Number, str, tuple)):
        raise TypeError("fill_value can be any of: an integer, a string or a tuple.")
    return fill_value


def pad(img, padding, fill_value, padding_mode):
    """Pad by ``padding`` (one number, (left/right, top/bottom) or (left, top, right,
    bottom)) with ``padding_mode`` ``'constant'`` (``fill_value``), ``'edge'``,
    ``'reflect'`` or ``'symmetric'``."""
    _check(img)
    Image, _, ImageOps = _pil()
    if isinstance(padding, numbers.Number):
        top = bottom = left = right = padding
    elif isinstance(padding, (tuple, list)):
        if len(padding) == 2:
            left = right = padding[0]
            top = bottom = padding[1]
        elif len(padding) == 4:
            left, top, right, bottom = padding
        else:
            raise ValueError("The size of the padding list or tuple should be 2 or 4.")
    else:
        raise TypeError("Padding can be any of: a number, a tuple or list of size 2 or 4.")
    fill_value = _fill(fill_value)
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise ValueError("Padding mode should be 'constant', 'edge', 'reflect', or 'symmetric'.")
    if padding_mode == "constant":
        if img.mode == "P":
            palette = img.getpalette()
            out = ImageOps.expand(img, border=(left, top, right, bottom), fill=fill_value)
            out.putpalette(palette)
            return out
        if isinstance(fill_value, tuple) and img.mode in ("L", "1", "I", "F"):
            fill_value = fill_value[0]
        return ImageOps.expand(img, border=(left, top, right, bottom), fill=fill_value)
    arr = np.asarray(img)
    widths = ((top, bottom), (left, right)) + (((0, 0),) if arr.ndim == 3 else ())
    out = Image.fromarray(np.pad(arr, widths, padding_mode))
    if img.mode == "P":
        out.putpalette(img.getpalette())
    return out


def random_crop(img, size, padding, pad_if_needed, fill_value, padding_mode):
    """A ``size`` crop (int or (height, width)) at a random place, after optional padding
    (``padding``; ``pad_if_needed`` pads a side shorter than the crop)."""
    _check(img)
    if isinstance(size, int):
        size = (size, size)
    elif not (isinstance(size, (tuple, list)) and len(size) == 2):
        raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")
    if isinstance(fill_value, list):
        fill_value = tuple(fill_value)
    if padding is not None:
        img = pad(img, padding, fill_value, padding_mode)
    if pad_if_needed and img.size[0] < size[1]:
        img = pad(img, (size[1] - img.size[0], 0), fill_value, padding_mode)
    if pad_if_needed and img.size[1] < size[0]:
        img = pad(img, (0, size[0] - img.size[1]), fill_value, padding_mode)
    img_width, img_height = img.size
    height, width = size
    if height > img_height or width > img_width:
        raise ValueError(f"Crop size {tuple(size)} is larger than input image size {(img_height, img_width)}.")
    if (height, width) == (img_height, img_width):
        return crop(img, 0, 0, img_height, img_width)
    top = random.randint(0, img_height - height)
    left = random.randint(0, img_width - width)
    return crop(img, top, left, height, width)


def _enhance(kind):
    def adjust(img, factor):
        _check(img)
        return getattr(_pil()[1], kind)(img).enhance(factor)
    adjust.__name__ = "adjust_" + kind.lower().replace("color", "saturation")
    adjust.__doc__ = f"``PIL.ImageEnhance.{kind}(img).enhance(factor)``: 0 gives the fully reduced image, 1 the original."
    return adjust


adjust_brightness = _enhance("Brightness")
adjust_contrast = _enhance("Contrast")
adjust_saturation = _enhance("Color")



def rotate(img, angle, resample, expand, center, fill_value):
    """Rotate a PIL image by ``angle`` degrees counter-clockwise with Pillow (``Image.rotate``);
    ``resample`` an :class:`Inter` (its value is Pillow's filter number), ``fill_value`` an int
    or an RGB tuple."""
    if not is_pil(img):
        raise TypeError(augment_error_message.format(type(img)))
    if isinstance(fill_value, int):
        fill_value = (fill_value,) * 3
    elif isinstance(fill_value, list):
        fill_value = tuple(fill_value)
    angle = angle % 360.0
    if resample == Inter.ANTIALIAS and (angle not in (0, 90, 180, 270) or center):
        raise ValueError("When using Inter.ANTIALIAS, center needs to be None and angle needs to be an integer "
                         "multiple of 90.")
    return img.rotate(angle, int(resample), expand, center, fillcolor=fill_value)
