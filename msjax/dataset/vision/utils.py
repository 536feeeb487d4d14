"""``mindspore.dataset.vision.utils``: the enums of the vision transforms."""
from .augment import AutoAugmentPolicy
from .transforms import Border, ColorConverter, ImageBatchFormat, Inter

__all__ = ["AutoAugmentPolicy", "Border", "ColorConverter", "ImageBatchFormat", "Inter"]
