"""``mindspore.dataset.vision.py_transforms_util``: the PIL helpers model-zoo code imports
(``is_pil``, ``rotate``, ``augment_error_message``; research/cv/autoaugment also calls
``random_crop`` and ``adjust_brightness``/``contrast``/``saturation``), and ``resize``, which
``vision.Resize`` runs on a PIL image as MindSpore does.

Each takes and returns a ``PIL.Image.Image`` and raises ``TypeError`` with
``augment_error_message`` for anything else, as MindSpore's. ``random_crop`` draws its
corner from Python's ``random`` module, as MindSpore's does (seeded by ``random.seed``).

The random operations of ``vision`` given a PIL image run here, as MindSpore 2.10 runs their
Python implementations (``_execute_py``): ``random_horizontal_flip``/``random_vertical_flip``,
``random_crop``, ``random_resize_crop``, ``random_rotation``, ``random_color_adjust``,
``random_color`` and ``random_sharpness`` draw
from Python's ``random`` in MindSpore's order (``ds.config.set_seed`` seeds it), the pixels
from Pillow. In a map with several workers MindSpore's threads share Python's ``random``, so
its draws there depend on thread scheduling (msjax's too).
"""
import math
import numbers
import random

import numpy as np

from .utils import Inter

__all__ = ["augment_error_message", "is_pil", "to_pil", "crop", "resize", "pad", "random_crop", "adjust_brightness",
           "adjust_contrast", "adjust_saturation", "adjust_hue", "rotate", "horizontal_flip", "vertical_flip",
           "random_horizontal_flip", "random_vertical_flip", "random_resize_crop", "random_rotation",
           "random_color_adjust", "random_color", "random_sharpness"]


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


def adjust_hue(img, hue_factor):
    """Shift the hue by ``hue_factor`` (in [-0.5, 0.5]) turns in Pillow's HSV: the H channel
    plus ``hue_factor * 255`` made an 8-bit integer as numpy 1.26 makes it (truncated toward
    zero, wrapped); "L", "1", "I", "F" images come back unchanged."""
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"image_hue_factor {hue_factor} is not in [-0.5, 0.5].")
    _check(img)
    if img.mode in {"L", "1", "I", "F"}:
        return img
    Image = _pil()[0]
    hue, saturation, value = img.convert("HSV").split()
    shifted = (np.array(hue, dtype=np.uint8) + np.uint8(int(hue_factor * 255) % 256)).astype(np.uint8)
    return Image.merge("HSV", (Image.fromarray(shifted, "L"), saturation, value)).convert(img.mode)


def horizontal_flip(img):
    """The image mirrored left to right."""
    _check(img)
    return img.transpose(_pil()[0].FLIP_LEFT_RIGHT)


def vertical_flip(img):
    """The image mirrored top to bottom."""
    _check(img)
    return img.transpose(_pil()[0].FLIP_TOP_BOTTOM)


def random_horizontal_flip(img, prob):
    """Flipped left to right when ``prob > random.random()``."""
    _check(img)
    return horizontal_flip(img) if prob > random.random() else img


def random_vertical_flip(img, prob):
    """Flipped top to bottom when ``prob > random.random()``."""
    _check(img)
    return vertical_flip(img) if prob > random.random() else img


def _resized_crop_box(img, scale, ratio, max_attempts):
    """MindSpore's proposal loop: an area fraction and a log-uniform aspect ratio per attempt,
    the corner drawn when the box fits; a centre crop after ``max_attempts`` misses."""
    img_width, img_height = img.size
    area = img_width * img_height
    for _ in range(max_attempts):
        crop_area = random.uniform(scale[0], scale[1]) * area
        aspect = math.exp(random.uniform(math.log(ratio[0]), math.log(ratio[1])))
        width = int(round(math.sqrt(crop_area * aspect)))
        height = int(round(width / aspect))
        if 0 < width <= img_width and 0 < height <= img_height:
            top = random.randint(0, img_height - height)
            left = random.randint(0, img_width - width)
            return top, left, height, width
    img_ratio = img_width / img_height
    width, height = img_width, img_height
    if img_ratio < ratio[0]:
        height = int(round(width / ratio[0]))
    elif img_ratio > ratio[1]:
        width = int(round(height * ratio[1]))
    return int(round((img_height - height) / 2.)), int(round((img_width - width) / 2.)), height, width


def random_resize_crop(img, size, scale, ratio, interpolation=Inter.BILINEAR, max_attempts=10):
    """A random box (``scale`` of the area, aspect ratio in ``ratio``) resized to ``size``."""
    _check(img)
    if isinstance(size, int):
        size = (size, size)
    elif not (isinstance(size, (tuple, list)) and len(size) == 2):
        raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")
    if scale[0] > scale[1] or ratio[0] > ratio[1]:
        raise ValueError("Range should be in the order of (min, max).")
    top, left, height, width = _resized_crop_box(img, scale, ratio, max_attempts)
    return resize(crop(img, top, left, height, width), size, interpolation)


def random_rotation(img, degrees, resample, expand, center, fill_value):
    """:func:`rotate` by ``random.uniform(*degrees)`` (a number ``d`` means ``(-d, d)``)."""
    _check(img)
    if isinstance(degrees, numbers.Number):
        if degrees < 0:
            raise ValueError("If degrees is a single number, it cannot be negative.")
        degrees = (-degrees, degrees)
    elif isinstance(degrees, (list, tuple)):
        if len(degrees) != 2:
            raise ValueError("If degrees is a sequence, the length must be 2.")
    else:
        raise TypeError("Degrees must be a single non-negative number or a sequence.")
    return rotate(img, random.uniform(degrees[0], degrees[1]), resample, expand, center, fill_value)


def _color_factor(value, name, center=1, bound=(0, float("inf")), non_negative=True):
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"The input value of {name} cannot be negative.")
        value = [center - value, center + value]
        if non_negative:
            value[0] = max(0, value[0])
    elif isinstance(value, (list, tuple)) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"Please check your value range of {name} is valid and within the bound {bound}.")
    else:
        raise TypeError(f"Input of {name} should be either a single value, or a list/tuple of length 2.")
    return random.uniform(value[0], value[1])


def random_color_adjust(img, brightness, contrast, saturation, hue):
    """Brightness, contrast, saturation and hue factors drawn in that order (every range, also
    an identity one), then the four adjustments applied in a ``random.shuffle``'d order."""
    _check(img)
    b = _color_factor(brightness, "brightness")
    c = _color_factor(contrast, "contrast")
    s = _color_factor(saturation, "saturation")
    h = _color_factor(hue, "hue", center=0, bound=(-0.5, 0.5), non_negative=False)
    steps = [lambda im: adjust_brightness(im, b), lambda im: adjust_contrast(im, c),
             lambda im: adjust_saturation(im, s), lambda im: adjust_hue(im, h)]
    random.shuffle(steps)
    for step in steps:
        img = step(img)
    return img


def _random_enhance(kind):
    def enhance(img, degrees):
        _check(img)
        factor = (degrees[1] - degrees[0]) * random.random() + degrees[0]
        return getattr(_pil()[1], kind)(img).enhance(factor)
    enhance.__name__ = "random_" + kind.lower()
    enhance.__doc__ = (f"``PIL.ImageEnhance.{kind}`` by ``(degrees[1] - degrees[0]) * random.random() + "
                       "degrees[0]``.")
    return enhance


random_color = _random_enhance("Color")
random_sharpness = _random_enhance("Sharpness")
