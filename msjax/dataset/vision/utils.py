"""``mindspore.dataset.vision.utils``: the enums of the vision transforms (their home,
below the transforms that use them)."""
from enum import Enum, IntEnum

__all__ = ["AutoAugmentPolicy", "Border", "ColorConverter", "ImageBatchFormat", "Inter", "SliceMode"]


class Inter(IntEnum):
    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = 2
    BICUBIC = 3
    AREA = 4
    PILCUBIC = 5
    LINEAR = 2      # aliases
    CUBIC = 3


class Border(str, Enum):
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class SliceMode(IntEnum):
    PAD = 0
    DROP = 1


class ImageBatchFormat(IntEnum):
    NHWC = 0
    NCHW = 1


class ColorConverter(IntEnum):
    BGR2BGRA = 0
    RGB2RGBA = 0
    BGRA2BGR = 1
    RGBA2RGB = 1
    BGR2RGBA = 2
    RGB2BGRA = 2
    BGRA2RGB = 3
    RGBA2BGR = 3
    BGR2RGB = 4
    RGB2BGR = 4
    BGR2GRAY = 6
    RGB2GRAY = 7
    GRAY2BGR = 8
    GRAY2RGB = 8


class AutoAugmentPolicy(str, Enum):
    """The sub-policy tables of AutoAugment (25 pairs of (operation, probability, magnitude bin))."""
    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"
