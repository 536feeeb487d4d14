"""``mindspore.dataset.vision.py_transforms_util``: the PIL helpers model-zoo code imports
(``is_pil``, ``rotate``, ``augment_error_message``)."""
from .transforms import Inter, is_pil

__all__ = ["augment_error_message", "is_pil", "rotate"]

augment_error_message = "img should be PIL image. Got {}. Use Decode() for encoded data or ToPIL() for decoded data."


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
