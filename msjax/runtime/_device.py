"""MindSpore's top-level runtime helpers: ``synchronize``,
``set_deterministic``, ``get_current_device`` and the device-memory queries.

Memory figures come from the JAX device's ``memory_stats()`` (GPU/TPU report
their allocator's counters). The CPU backend reports none; MindSpore's CPU
backend returns zeros and empty pools there, and so does msjax.
"""
from __future__ import annotations

import gc

from .._core import context


class DeviceInfo(tuple):
    """``(device_target, device_id)``, as ``mindspore.get_current_device()`` returns it."""

    def __new__(cls, device_target, device_id):
        return super().__new__(cls, (device_target, device_id))

    @property
    def device_target(self):
        return self[0]

    @property
    def device_id(self):
        return self[1]


def get_current_device():
    """``mindspore.get_current_device``: the configured device target and id."""
    return DeviceInfo(context.get_context("device_target"), context.get_context("device_id"))


_deterministic_set = False


def set_deterministic(deterministic):
    """``mindspore.set_deterministic``: records the setting (``get_context('deterministic')``
    reads ``'ON'``/``'OFF'``); as in MindSpore it can be set once per process. XLA on
    CPU is deterministic already; on GPU, JAX's ``xla_gpu_deterministic_ops`` flag must
    be set before the backend starts."""
    global _deterministic_set
    if not isinstance(deterministic, bool):
        raise TypeError(f"The parameter 'deterministic' must be {bool}, but got {type(deterministic)}")
    if _deterministic_set:
        raise RuntimeError("The 'mindspore.set_deterministic' can not be set repeatedly.")
    _deterministic_set = True
    context._set_one("deterministic", "ON" if deterministic else "OFF")    # no deprecation warning


def synchronize():
    """``mindspore.synchronize``: waits until every pending JAX computation has finished."""
    import jax
    for a in jax.live_arrays():
        a.block_until_ready()


# ---------------------------------------------------------------------------
# device memory
# ---------------------------------------------------------------------------
_peak_reset = {}   # counter -> (peak reported by XLA, value in use) at the last reset


def _raw_stats():
    import jax
    dev = jax.local_devices()[0]
    return dev.memory_stats() or {}


def _in_use(stats):
    return int(stats.get("bytes_in_use", 0))


def _reserved(stats):
    return int(stats.get("pool_bytes", stats.get("bytes_reserved", 0)))


def _peak(stats, counter):
    """The peak of ``counter`` since the last reset. XLA's peak counters cannot be
    reset: after a reset the peak is XLA's when it grew since, else the larger of
    the values in use at the reset and now (a lower bound)."""
    if counter == "allocated":
        peak, now = int(stats.get("peak_bytes_in_use", 0)), _in_use(stats)
    else:
        peak, now = int(stats.get("peak_pool_bytes", stats.get("peak_bytes_reserved", 0))), _reserved(stats)
    if counter not in _peak_reset:
        return peak
    peak0, now0 = _peak_reset[counter]
    return peak if peak > peak0 else max(now0, now)


def _reset(counter):
    stats = _raw_stats()
    if counter == "allocated":
        _peak_reset[counter] = (int(stats.get("peak_bytes_in_use", 0)), _in_use(stats))
    else:
        _peak_reset[counter] = (int(stats.get("peak_pool_bytes", stats.get("peak_bytes_reserved", 0))),
                                _reserved(stats))


def memory_allocated():
    """``mindspore.memory_allocated``: bytes the device's allocator has handed out (0 on CPU)."""
    return _in_use(_raw_stats())


def max_memory_allocated():
    """``mindspore.max_memory_allocated``: the peak of ``memory_allocated()`` (0 on CPU)."""
    return _peak(_raw_stats(), "allocated")


def memory_reserved():
    """``mindspore.memory_reserved``: bytes the device's allocator holds (0 on CPU)."""
    return _reserved(_raw_stats())


def max_memory_reserved():
    """``mindspore.max_memory_reserved``: the peak of ``memory_reserved()`` (0 on CPU)."""
    return _peak(_raw_stats(), "reserved")


def memory_stats():
    """``mindspore.memory_stats``: MindSpore's dict. XLA's allocator reports no
    per-block information, so the pool entries hold zeros, as on MindSpore's CPU."""
    stats = _raw_stats()
    reserved, allocated = _reserved(stats), _in_use(stats)
    return {"total_reserved_memory": reserved, "total_allocated_memory": allocated,
            "total_idle_memory": max(reserved - allocated, 0), "total_eager_free_memory": 0,
            "max_reserved_memory": _peak(stats, "reserved"), "max_allocated_memory": _peak(stats, "allocated"),
            "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": 0, "blocks_info": {}},
            "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0, "blocks_info": {}}}


def reset_max_memory_allocated():
    """``mindspore.reset_max_memory_allocated``: restarts the peak of ``memory_allocated()``."""
    _reset("allocated")


def reset_max_memory_reserved():
    """``mindspore.reset_max_memory_reserved``: restarts the peak of ``memory_reserved()``."""
    _reset("reserved")


def reset_peak_memory_stats():
    """``mindspore.reset_peak_memory_stats``: restarts both peaks."""
    _reset("allocated")
    _reset("reserved")


def empty_cache():
    """``mindspore.empty_cache``: frees the device buffers of Tensors no longer
    referenced (a garbage collection). XLA's allocator keeps its pool; it has no
    call to hand cached memory back."""
    gc.collect()


def _format_size(sz, pref_sz):
    prefix = "B  "
    for new_prefix in ("KB", "MB", "GB", "TB", "PB"):
        if pref_sz < 768 * 1024:
            break
        prefix = new_prefix
        sz //= 1024
        pref_sz /= 1024
    return f"{sz:6d} {prefix}"


def memory_summary():
    """``mindspore.memory_summary``: ``memory_stats()`` as MindSpore's text table."""
    stats = memory_stats()
    metrics = [("total_reserved_memory", "Reserved memory"), ("total_allocated_memory", "Allocated memory"),
               ("total_idle_memory", "Idle memory"), ("total_eager_free_memory", "Eager free memory"),
               ("max_reserved_memory", "Max reserved memory"), ("max_allocated_memory", "Max allocated memory")]
    lines = ["=" * 45, " {:^43} ".format("Memory summary"), "=" * 45, " {:<20} | {:<20} ".format("Metric", "Data")]
    for key, name in metrics:
        lines.append("-" * 45)
        lines.append(" {:<20} | {:<20} ".format(name, _format_size(stats[key], stats[key])))
    lines.append("=" * 45)
    return "|" + "|\n|".join(lines) + "|\n"
