"""``mindspore.device_context.cpu.device``: whether the CPU backend is there and how many devices it has."""


def is_available():
    """``mindspore.device_context.cpu.is_available``: always ``True`` (JAX's CPU backend
    is part of every jaxlib)."""
    return True


def device_count():
    """``mindspore.device_context.cpu.device_count``: ``1``, as MindSpore (one CPU device,
    whatever ``--xla_force_host_platform_device_count`` says)."""
    return 1
