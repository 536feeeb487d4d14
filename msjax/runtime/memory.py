"""``mindspore.runtime.memory``: device memory.

The queries are msjax's top-level ones (``msjax.runtime._device``: JAX's device
memory statistics; zeros on CPU, like MindSpore's CPU build).  ``set_memory`` is
validated like MindSpore's and recorded: XLA's allocator is configured by
``XLA_PYTHON_CLIENT_*`` environment variables before JAX starts.  Custom
allocators and memory replay are MindSpore runtime features XLA has no hook for:
they raise ``RuntimeError`` naming the feature.
"""
from __future__ import annotations

import re

from ._device import (empty_cache, max_memory_allocated, max_memory_reserved, memory_allocated,  # noqa: F401
                             memory_reserved, memory_stats, memory_summary, reset_max_memory_allocated,
                             reset_max_memory_reserved, reset_peak_memory_stats)

SETTINGS = {}
_SIZE = re.compile(r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB", re.ASCII)


def _check_size(size):
    if not isinstance(size, str) or not _SIZE.fullmatch(size):
        raise ValueError(f"The '{size}' is illegal, it must be match regular'[1-9][0-9]*(\\.)?[0-9]*GB|"
                         f"0\\.[0-9]*GB' by flags're.ASCII.'")
    return float(size[:-2])


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB"):
    """``mindspore.runtime.set_memory``: the memory pool's sizes (validated, recorded). Can be set once."""
    if SETTINGS:
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    sizes = [_check_size(s) for s in (init_size, increase_size, max_size)]
    if not isinstance(huge_page_reserve_size, str) or not re.fullmatch(r"[0-9]+(\.)?[0-9]*GB",
                                                                       huge_page_reserve_size):
        raise ValueError(f"The '{huge_page_reserve_size}' is illegal, it must be match regular'[0-9]+(\\.)?[0-9]*GB'"
                         f" by flags're.ASCII.'")
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"The optimize_level must be one of ['O0', 'O1'], but got {optimize_level}.")
    SETTINGS.update(init_size=sizes[0], increase_size=sizes[1], max_size=sizes[2], optimize_level=optimize_level,
                    huge_page_reserve_size=float(huge_page_reserve_size[:-2]))


def memory_replay(file_path):
    """``mindspore.runtime.memory_replay``: not available on XLA (raises)."""
    raise RuntimeError("mindspore.runtime.memory_replay (replaying a recorded allocation trace in MindSpore's "
                       "memory pool) is not supported by msjax: XLA owns the device allocator.")


class PluggableAllocator:
    """``mindspore.runtime.PluggableAllocator``: not available on XLA (raises)."""

    def __init__(self, path_to_so_file, alloc_fn_name, free_fn_name):
        raise RuntimeError("mindspore.runtime.PluggableAllocator (a custom device allocator from a shared library) "
                           "is not supported by msjax: XLA owns the device allocator.")


class MemPool:
    """``mindspore.runtime.MemPool``: not available on XLA (raises)."""

    def __init__(self, allocator=None):
        raise RuntimeError("mindspore.runtime.MemPool (a separate device memory pool) is not supported by msjax: "
                           "XLA owns the device allocator.")


def use_mem_pool(pool):
    """``mindspore.runtime.use_mem_pool``: not available on XLA (raises)."""
    raise RuntimeError("mindspore.runtime.use_mem_pool is not supported by msjax: XLA owns the device allocator.")
