"""``mindspore.device_context``: per-backend device queries and settings.

msjax runs on the CPU backend (MindSpore's CPU build's view): ``cpu`` is
available with one device; ``gpu`` and ``ascend`` answer as MindSpore's CPU
build does when JAX has no such backend (not available; ``device_count`` raises).
"""
from . import ascend, cpu, gpu

__all__ = ["ascend", "cpu", "gpu"]
