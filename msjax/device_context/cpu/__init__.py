"""``mindspore.device_context.cpu``: the CPU device's queries and its kernel thread count."""
from .device import device_count, is_available
from .op_tuning import threads_num

__all__ = ["device_count", "is_available", "threads_num"]
