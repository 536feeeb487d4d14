"""``mindspore.runtime.stream``: device streams on XLA.

JAX gives no user control over streams: XLA runs each device's computations in
order on its own compute stream.  So there is one stream, ``default_stream()``;
``Stream()`` objects stand for it (work "on" any stream is work on XLA's), and
``StreamCtx``/``set_cur_stream`` only change what ``current_stream()`` returns.
What a stream does observe is real: ``query()`` says whether every computation
JAX has in flight has finished and ``synchronize()`` waits for them.
"""
from __future__ import annotations

import itertools

from . import event as _event
from ._device import synchronize  # noqa: F401  (mindspore.runtime.synchronize: one place)
from .event import Event

_ids = itertools.count(1)


def _pending_done():
    import jax
    return all(a.is_ready() for a in jax.live_arrays())


class Stream:
    """``mindspore.runtime.Stream(priority=0)``: a handle on XLA's one compute stream
    (see the module docstring); ``priority`` is validated and kept."""

    def __init__(self, priority=0, **kwargs):
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise TypeError(f"For 'Stream', the 'priority' must be int, but got '{type(priority).__name__}'")
        self.priority = priority
        self._id = kwargs.get("stream_id", next(_ids))

    @property
    def stream_id(self):
        return self._id

    def record_event(self, event=None):
        """Record ``event`` (a new one if ``None``) at the current point of the work; returns it."""
        if event is None:
            event = Event()
        elif not isinstance(event, Event):
            raise TypeError(f"For 'record_event', the argument 'event' should be Event, but got {type(event)}.")
        event.record(self)
        return event

    def wait_event(self, event):
        """Later work on this stream waits for ``event``: always true on XLA's one stream."""
        if not isinstance(event, Event):
            raise TypeError(f"For 'wait_event', the argument 'event' should be Event, but got {type(event)}.")

    def wait_stream(self, stream):
        """Later work waits for ``stream``'s: always true on XLA's one stream."""
        if not isinstance(stream, Stream):
            raise TypeError(f"For 'wait_stream', the argument 'stream' should be Stream, but got {type(stream)}.")

    def synchronize(self):
        """Wait until every computation in flight has finished."""
        synchronize()

    def query(self):
        """Whether every computation in flight has finished."""
        return _pending_done()

    def __eq__(self, other):
        return isinstance(other, Stream)   # one stream underneath

    def __hash__(self):
        return 0

    def __repr__(self):
        return f"Stream(stream_id={self._id}, priority={self.priority})"


_DEFAULT = Stream(stream_id=0)
_current = [_DEFAULT]


def _check(stream, where, arg):
    if not isinstance(stream, Stream):
        raise TypeError(f"For '{where}', the argument '{arg}' should be Stream, but got {type(stream)}.")


def set_cur_stream(stream):
    """``mindspore.runtime.set_cur_stream``: what ``current_stream()`` returns."""
    _check(stream, "set_cur_stream", "stream")
    _current[0] = stream


def current_stream():
    """``mindspore.runtime.current_stream``."""
    return _current[0]


def default_stream():
    """``mindspore.runtime.default_stream``: XLA's compute stream."""
    return _DEFAULT


def communication_stream():
    """``mindspore.runtime.communication_stream``: XLA runs collectives on its own
    schedule; this is the same single stream."""
    return _DEFAULT


class StreamCtx:
    """``mindspore.runtime.StreamCtx(stream)``: within it ``current_stream()`` is
    ``stream`` (a no-op for ``None``); the work itself runs on XLA's stream."""

    def __init__(self, ctx_stream):
        if ctx_stream is not None and not isinstance(ctx_stream, Stream):
            raise TypeError(f"For 'StreamCtx', the argument 'ctx_stream' should be Stream, but got {type(ctx_stream)}.")
        self.stream = ctx_stream
        self.prev_stream = None

    def __enter__(self):
        if self.stream is not None:
            self.prev_stream = current_stream()
            set_cur_stream(self.stream)
        return self.stream

    def __exit__(self, *exc):
        if self.stream is not None:
            set_cur_stream(self.prev_stream)
        return False


_event._STREAM[0] = Stream   # Event.record/wait check their stream argument against it
