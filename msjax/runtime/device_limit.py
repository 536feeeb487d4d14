"""``mindspore.runtime.device_limit``: Ascend cube/vector core limits per device.
Validated and recorded (XLA devices have no such limit); ``-1`` means not set."""
from __future__ import annotations

_LIMITS = {}


def _check_int(name, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For 'set_device_limit', the '{name}' must be int, but got {type(value).__name__}.")


def get_device_limit(device):
    """``{"cube_core_num": n, "vector_core_num": m}`` as set for ``device`` (``-1``: not set)."""
    cube, vector = _LIMITS.get(device, (-1, -1))
    return {"cube_core_num": cube, "vector_core_num": vector}


def set_device_limit(device, cube_num=-1, vector_num=-1):
    """Record core limits for ``device``."""
    for name, value in (("device", device), ("cube_num", cube_num), ("vector_num", vector_num)):
        _check_int(name, value)
    _LIMITS[device] = (cube_num, vector_num)
