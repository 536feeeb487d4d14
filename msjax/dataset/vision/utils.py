"""``mindspore.dataset.vision.utils``: the enums of the vision transforms."""
from .transforms import Border, ColorConverter, ImageBatchFormat, Inter

__all__ = ["Border", "ColorConverter", "ImageBatchFormat", "Inter"]
