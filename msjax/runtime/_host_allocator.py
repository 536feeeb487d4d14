"""Host memory reuse: glibc's malloc keeps the large buffers a compiled step frees, as MindSpore's
memory pool keeps its own.

XLA:CPU allocates a compiled program's temporaries (and its outputs) with ``malloc`` on every call
and frees them when the call ends. glibc serves an allocation over its mmap threshold (at most
32 MiB), or any allocation of a thread that is not on the main arena and does not fit that arena's
64 MiB heap, with a fresh ``mmap`` and gives it back with ``munmap`` on ``free``: the next call
faults in and zero-fills every page of its temporaries again. In ShuffleNetV1's O0 train step (batch
8) the kernel's page-fault handling and page clearing took 27 % of the process's CPU time against
MindSpore's 13 % (``perf``; issue 36), whose CPU runtime allocates from a memory pool it keeps.

:func:`keep_freed_memory` sets three of glibc's ``mallopt`` parameters before JAX starts its
threads: one arena (``M_ARENA_MAX=1``: every thread allocates from the main heap, which grows with
``brk`` and has no size limit), no ``mmap`` for large blocks (``M_MMAP_MAX=0``) and no trimming of
the heap's free top (``M_TRIM_THRESHOLD``): a freed buffer is reused by the next step's
allocation of the same size, its pages already mapped. Same effect as the environment variables
``MALLOC_ARENA_MAX=1 MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=...`` at process start.

Left alone when the user set any ``MALLOC_*`` variable or ``GLIBC_TUNABLES``, when
``MSJAX_HOST_MEMORY_POOL=0``, or off glibc. Difference from MindSpore: none in values; like
MindSpore's pool, the process keeps its peak host memory mapped instead of returning it to the
system between steps.
"""
from __future__ import annotations

import ctypes
import os
import platform

ENV = "MSJAX_HOST_MEMORY_POOL"
# glibc's mallopt parameter numbers (malloc.h)
M_TRIM_THRESHOLD, M_MMAP_MAX, M_ARENA_MAX = -1, -4, -8
# the largest threshold mallopt takes (a C int): 2 GiB of free heap top kept
TRIM_THRESHOLD = 2 ** 31 - 1


def _user_tuned(environ):
    return environ.get(ENV, "1").strip() == "0" or "GLIBC_TUNABLES" in environ or any(
        name.startswith("MALLOC_") for name in environ)


def keep_freed_memory(environ=os.environ):
    """Set glibc's allocator to keep and reuse freed large blocks (see the module docstring).
    Returns the settings applied as ``{name: value}`` (empty when left alone)."""
    if _user_tuned(environ) or platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return {}
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return {}
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    applied = {}
    for name, param, value in (("M_ARENA_MAX", M_ARENA_MAX, 1), ("M_MMAP_MAX", M_MMAP_MAX, 0),
                               ("M_TRIM_THRESHOLD", M_TRIM_THRESHOLD, TRIM_THRESHOLD)):
        if mallopt(param, value) == 1:
            applied[name] = value
    return applied
