"""``mindspore.runtime`` on XLA: execution settings, device memory, streams and events.

XLA schedules each device's work itself (one compute stream per device, its own
thread pools and allocator): the settings here are validated like MindSpore's and
recorded; streams and events order nothing but do observe and wait for the
computations JAX has in flight (see each module's docstring).
"""
from .device_limit import get_device_limit, set_device_limit
from .event import Event
from .executor import dispatch_threads_num, launch_blocking, set_cpu_affinity, set_kernel_launch_capture, \
    set_kernel_launch_group
from .memory import MemPool, PluggableAllocator, empty_cache, max_memory_allocated, max_memory_reserved, \
    memory_allocated, memory_replay, memory_reserved, memory_stats, memory_summary, reset_max_memory_allocated, \
    reset_max_memory_reserved, reset_peak_memory_stats, set_memory, use_mem_pool
from .stream import Stream, StreamCtx, communication_stream, current_stream, default_stream, set_cur_stream, \
    synchronize
from .stream_limit import StreamLimitCtx, get_stream_limit, reset_stream_limit, set_stream_limit

__all__ = sorted([
    "launch_blocking", "dispatch_threads_num", "set_cpu_affinity", "set_kernel_launch_group",
    "set_kernel_launch_capture", "Stream", "communication_stream", "synchronize", "set_cur_stream",
    "current_stream", "default_stream", "StreamCtx", "set_memory", "memory_stats", "memory_reserved",
    "max_memory_reserved", "empty_cache", "memory_replay", "reset_peak_memory_stats", "memory_summary",
    "memory_allocated", "max_memory_allocated", "reset_max_memory_reserved", "reset_max_memory_allocated", "Event",
    "PluggableAllocator", "MemPool", "use_mem_pool", "get_device_limit", "set_device_limit", "get_stream_limit",
    "set_stream_limit", "reset_stream_limit", "StreamLimitCtx"])

from . import _host_eager

_host_eager.install()
