"""``mindspore.dataset.vision``: image transforms on numpy HWC images."""
from . import transforms
from .transforms import (Border, CenterCrop, ColorConverter, ConvertColor, Crop, Decode, Grayscale, HWC2CHW,
                         HorizontalFlip, ImageBatchFormat, Inter, Normalize, Pad, RandomCrop, RandomCropDecodeResize,
                         RandomHorizontalFlip, RandomResizedCrop, RandomRotation, RandomVerticalFlip, Rescale, Resize,
                         Rotate, ToTensor, ToType, VerticalFlip)

__all__ = transforms.__all__
