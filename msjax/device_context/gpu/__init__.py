"""``mindspore.device_context.gpu``: the GPU device's queries (none here: MindSpore's CPU build's answers)."""
from .device import device_count, is_available

__all__ = ["device_count", "is_available"]
