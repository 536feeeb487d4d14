"""``mindspore.runtime.Event``: a marker in the device's work.

An event records the computations JAX has in flight when ``record()`` is
called: ``query()`` says whether they have finished, ``synchronize()`` waits for
them.  With ``enable_timing=True``, ``record()`` waits for them and notes the
time, so ``elapsed_time`` is the wall time between two points of finished
device work, in milliseconds (MindSpore times on the device; XLA has no event
timers, and waiting keeps the figure honest).
"""
from __future__ import annotations

import time


_STREAM = [object]   # the Stream class; msjax.runtime.stream puts it here when it is imported


class Event:
    """``mindspore.runtime.Event(enable_timing=False, blocking=False)``."""

    def __init__(self, enable_timing=False, blocking=False):
        if not isinstance(enable_timing, bool):
            raise TypeError(f"For 'Event', the 'enable_timing' must be a bool, but got {type(enable_timing).__name__}.")
        if not isinstance(blocking, bool):
            raise TypeError(f"For 'Event', the 'blocking' must be a bool, but got {type(blocking).__name__}.")
        self.enable_timing = enable_timing
        self.blocking = blocking
        self._arrays = None
        self._time = None

    def record(self, stream=None):
        """Mark the current point of the work (``stream``: a ``Stream`` or ``None``)."""
        if stream is not None and not isinstance(stream, _STREAM[0]):
            raise TypeError(f"For 'record', the argument 'stream' should be Stream, but got {type(stream)}.")
        import jax
        self._arrays = list(jax.live_arrays())
        if self.enable_timing:
            self.synchronize()
            self._time = time.perf_counter()

    def wait(self, stream=None):
        """Make later work wait for this event: XLA's one stream already orders it."""
        if stream is not None and not isinstance(stream, _STREAM[0]):
            raise TypeError(f"For 'wait', the argument 'stream' should be Stream, but got {type(stream)}.")
        if self.blocking:
            self.synchronize()

    def synchronize(self):
        """Wait until the work recorded has finished."""
        for a in self._arrays or ():
            a.block_until_ready()

    def query(self):
        """Whether the work recorded has finished (``True`` if nothing was recorded)."""
        return all(a.is_ready() for a in self._arrays or ())

    def elapsed_time(self, end_event):
        """Milliseconds between this event and ``end_event`` (both recorded with ``enable_timing=True``)."""
        if not isinstance(end_event, Event):
            raise TypeError(f"For 'elapsed_time', the argument 'end_event' should be Event, "
                            f"but got {type(end_event)}.")
        if self._time is None or end_event._time is None:
            raise RuntimeError("Both events must be recorded with enable_timing=True before elapsed_time.")
        return (end_event._time - self._time) * 1000.0
