"""``mindspore.dataset.vision``: image transforms on numpy HWC images."""
from . import augment, batch_mix, transforms
from .augment import (AutoAugment, AutoAugmentPolicy, RandAugment, AdjustBrightness, AdjustContrast, AdjustHue, AdjustSaturation, AdjustSharpness, Affine, AutoContrast,
                      CutOut, Equalize, Invert, Posterize, RandomAffine, RandomColor,
                      RandomColorAdjust, RandomPosterize, RandomSelectSubpolicy, RandomSharpness, RandomSolarize,
                      Solarize)
from .batch_mix import CutMixBatch, MixUpBatch
from .transforms import (Border, CenterCrop, ColorConverter, ConvertColor, Crop, Decode, Grayscale, HWC2CHW,
                         HorizontalFlip, ImageBatchFormat, Inter, Normalize, Pad, RandomCrop, RandomCropDecodeResize,
                         RandomHorizontalFlip, RandomResizedCrop, RandomRotation, RandomVerticalFlip, Rescale, Resize,
                         Rotate, SliceMode, SlicePatches, ToPIL, ToTensor, ToType, VerticalFlip)

__all__ = transforms.__all__ + augment.__all__ + batch_mix.__all__
