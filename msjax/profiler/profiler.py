"""``mindspore.Profiler`` / ``mindspore.profiler.profile`` on ``jax.profiler``.

``Profiler(output_path="./data", schedule=None, on_trace_ready=None, start_profile=True,
...)`` records a ``jax.profiler`` trace between ``start()`` and ``stop()`` (or, with a
``schedule``, over the steps it selects, advanced by ``step()``). Each recorded span is
one run, ``<output_path>/<host>_<pid>_<time in ms>_jax/plugins/profile/<time>/``
(MindSpore's ``<host>_<pid>_<time>_ascend_ms`` naming): ``<host>.xplane.pb``, which
TensorBoard's profile plugin opens (``tensorboard --logdir <output_path>``), and
``perfetto_trace.json.gz`` for https://ui.perfetto.dev. While recording, every Cell and
Primitive call opens a ``jax.named_scope`` and a trace annotation with its MindSpore
name (``Dense``, ``Conv2d``, ``MatMul``, ...), so the trace shows MindSpore's names.

Differences from MindSpore: the output is JAX/XLA's trace format, not MindSpore's
``ASCEND_PROFILER_OUTPUT``/``profiler_info`` files; ``analyse()`` has nothing left
to parse (the trace is complete when ``stop()`` returns); Ascend/GPU-specific options
(``profiler_level``, ``aic_metrics``, ``hbm_ddr``, ``pcie``, ...) are accepted and
have no effect; functions compiled before the profiler started keep their unnamed ops.
"""
from __future__ import annotations

import os
import socket
import time
from enum import Enum

import jax

from .. import log as logger
from .._core import profiling
from .schedule import ProfilerAction, Schedule

__all__ = ["Profiler", "profile", "tensorboard_trace_handler", "ProfilerLevel", "ProfilerActivity", "ExportType"]


class ProfilerLevel(Enum):
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(Enum):
    CPU = "CPU"
    NPU = "NPU"
    GPU = "GPU"


class ExportType(Enum):
    Db = "db"
    Text = "text"


_ACCEPTED = {"output_path", "profiler_level", "activities", "schedule", "on_trace_ready", "start_profile",
             "profile_memory", "with_stack", "data_process", "parallel_strategy", "hbm_ddr", "pcie",
             "sync_enable", "record_shapes", "aic_metrics", "l2_cache", "data_simplification", "export_type",
             "mstx", "mstx_domain_include", "mstx_domain_exclude", "host_sys", "sys_io", "sys_interconnect",
             "experimental_config", "op_time", "timeline_limit", "profile_communication", "analyse_flag"}
_RECORDING = (ProfilerAction.WARM_UP, ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)


class _TraceHandler:
    """What ``tensorboard_trace_handler`` returns: the directory the traces go to."""

    def __init__(self, dir_name, worker_name=None, analyse_flag=True, async_mode=False):
        self.dir_name = os.path.realpath(dir_name or "./data")
        self.worker_name = worker_name
        self.analyse_flag = analyse_flag
        self.async_mode = async_mode

    def __call__(self, prof):
        return None        # the trace is already written where the profiler recorded it


def tensorboard_trace_handler(dir_name=None, worker_name=None, analyse_flag=True, async_mode=False):
    """``on_trace_ready`` handler: the traces go to ``dir_name`` (default ``./data``)."""
    if dir_name is not None and not isinstance(dir_name, str):
        raise TypeError(f"dir_name must be a str, but got {type(dir_name).__name__}.")
    return _TraceHandler(dir_name, worker_name, analyse_flag, async_mode)


class Profiler:
    """``mindspore.Profiler``: start/stop/step/analyse over a ``jax.profiler`` trace."""

    _running = None        # one trace at a time (jax.profiler's rule too)

    def __init__(self, **kwargs):
        unknown = sorted(set(kwargs) - _ACCEPTED)
        if unknown:
            logger.warning(f"Profiler: unknown arguments {unknown} are ignored.")
        handler = kwargs.get("on_trace_ready")
        if handler is not None and not callable(handler):
            raise TypeError("For Profiler, 'on_trace_ready' must be callable.")
        sched = kwargs.get("schedule")
        if sched is not None and not isinstance(sched, Schedule):
            raise TypeError(f"For Profiler, 'schedule' must be a mindspore.profiler.schedule, but got "
                            f"{type(sched).__name__}.")
        out = kwargs.get("output_path")
        if out is None:
            out = handler.dir_name if isinstance(handler, _TraceHandler) else "./data"
        if not isinstance(out, str):
            raise TypeError(f"For Profiler, 'output_path' must be a str, but got {type(out).__name__}.")
        self._output_path = os.path.realpath(out)
        self._schedule = sched
        self._on_trace_ready = handler
        self._step_num = 0
        self._action = ProfilerAction.NONE
        self._tracing = False
        self._started = False
        self.runs = []                   # the run directories written, in order
        start = kwargs.get("start_profile", True)
        if not isinstance(start, bool):
            raise TypeError(f"For Profiler, 'start_profile' must be bool, but got {type(start).__name__}.")
        if start:
            self.start()

    @property
    def output_path(self):
        return self._output_path

    # --- recording ---------------------------------------------------------------------
    def _begin(self):
        if Profiler._running is not None and Profiler._running is not self:
            raise RuntimeError("Another Profiler is already recording; stop it before starting a new one.")
        span = os.path.join(self._output_path, f"{socket.gethostname()}_{os.getpid()}_{int(time.time() * 1000)}_jax")
        while os.path.exists(span):
            span += "_"
        os.makedirs(span)
        try:
            jax.profiler.start_trace(span, create_perfetto_trace=True)
        except RuntimeError as e:
            raise RuntimeError(f"Profiler could not start a trace: {e}") from None
        self._span = span
        self._tracing = True
        Profiler._running = self
        profiling.set_active(True)

    def _end(self, ready=True):
        if not self._tracing:
            return
        profiling.set_active(False)
        self._tracing = False
        Profiler._running = None
        jax.profiler.stop_trace()
        root = os.path.join(self._span, "plugins", "profile")
        self.runs.extend(sorted(os.path.join(root, d) for d in os.listdir(root)) if os.path.isdir(root) else [])
        if ready and self._on_trace_ready is not None:
            self._on_trace_ready(self)

    def start(self):
        """Start recording (with a schedule: from the schedule's first recorded step)."""
        if self._started:
            logger.warning("The profiler has already started. Do not turn on again in the open state.")
            return
        self._started = True
        if self._schedule is None:
            self._begin()
        else:
            self._action = self._schedule(self._step_num)
            if self._action in _RECORDING:
                self._begin()

    def step(self):
        """End one training step (with a schedule: record/save as it says)."""
        if not self._started:
            raise RuntimeError("Profiler.step() called before start().")
        if self._schedule is None:
            return
        prev = self._action
        self._step_num += 1
        if prev == ProfilerAction.RECORD_AND_SAVE:
            self._end()
        self._action = self._schedule(self._step_num)
        if self._action in _RECORDING and not self._tracing:
            self._begin()
        elif self._action == ProfilerAction.NONE and self._tracing:
            self._end(ready=False)

    def stop(self):
        """Stop recording and write the trace."""
        if not self._started:
            raise RuntimeError("The profiler has not started; call start() first.")
        self._started = False
        self._end()

    def analyse(self, offline_analyse_policy=None, pretty=False, step_list=None, mode="sync"):
        """Stop if still recording; the trace needs no further analysis."""
        if self._tracing:
            self.stop()
        return None

    def add_metadata(self, key, value):
        self._metadata = getattr(self, "_metadata", {})
        self._metadata[str(key)] = str(value)

    def add_metadata_json(self, key, value):
        self.add_metadata(key, value)

    @classmethod
    def offline_analyse(cls, path, pretty=False, step_list=None, data_simplification=True):
        return None

    def __enter__(self):
        if not self._started:
            self.start()
        return self

    def __exit__(self, *exc):
        if self._started:
            self.stop()
        return False


class profile(Profiler):  # noqa: N801  (MindSpore's name)
    """``mindspore.profiler.profile(activities=None, ..., schedule=None, on_trace_ready=None)``:
    the torch-style profiler; a context manager over ``Profiler``."""

    def __init__(self, activities=None, with_stack=False, profile_memory=False, data_process=False,
                 parallel_strategy=False, start_profile=True, hbm_ddr=False, pcie=False, sync_enable=True,
                 record_shapes=False, schedule=None, on_trace_ready=None, experimental_config=None):
        super().__init__(activities=activities, schedule=schedule, on_trace_ready=on_trace_ready,
                         start_profile=False)
        self._start_profile = start_profile
