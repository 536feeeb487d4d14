"""``mindspore.device_context.gpu.device``: whether JAX has a GPU backend and how many devices it has.

Without one (a CPU-only jaxlib), the answers are MindSpore's CPU build's: not
available (with its warning), and ``device_count`` raises its ``RuntimeError``.
"""
from ... import log as logger


def _gpus():
    import jax
    try:
        return jax.devices("gpu")
    except RuntimeError:     # no GPU backend in this jaxlib / on this machine
        return []


def is_available():
    """``mindspore.device_context.gpu.is_available``: whether JAX sees a GPU."""
    if _gpus():
        return True
    logger.warning("Device GPU is not available.")
    return False


def device_count():
    """``mindspore.device_context.gpu.device_count``: JAX's GPU devices."""
    gpus = _gpus()
    if not gpus:
        raise RuntimeError("Device_target GPU not exist.")
    return len(gpus)
