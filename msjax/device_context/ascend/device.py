"""``mindspore.device_context.ascend.device``: msjax has no Ascend backend, so it answers as
MindSpore's CPU build does (not available, no devices)."""
from ... import log as logger


def is_available():
    """``mindspore.device_context.ascend.is_available``: ``False`` with MindSpore's warning."""
    logger.warning("Device Ascend is not available.")
    return False


def device_count():
    """``mindspore.device_context.ascend.device_count``: MindSpore's CPU build's ``RuntimeError``."""
    raise RuntimeError("Device Ascend not exist.")
