"""``mindspore.profiler``: ``Profiler``/``profile`` writing ``jax.profiler`` traces
(TensorBoard's profile plugin, Perfetto), ``schedule`` and ``tensorboard_trace_handler``."""
from .profiler import ExportType, Profiler, ProfilerActivity, ProfilerLevel, profile, tensorboard_trace_handler
from .schedule import ProfilerAction, Schedule

schedule = Schedule

__all__ = ["Profiler", "profile", "schedule", "tensorboard_trace_handler", "ProfilerLevel", "ProfilerActivity",
           "ExportType", "ProfilerAction"]
