"""``mindspore.runtime.stream_limit``: Ascend core limits per stream. Validated
and recorded per ``Stream`` (XLA has no such limit); ``-1`` means not set."""
from __future__ import annotations

from .stream import Stream, current_stream

_LIMITS = {}


def _check_stream(stream, where):
    if not isinstance(stream, Stream):
        raise TypeError(f"For '{where}', the argument 'stream' should be Stream, but got {type(stream)}.")


def get_stream_limit(stream):
    """``{"cube_core_num": n, "vector_core_num": m}`` as set for ``stream``."""
    _check_stream(stream, "get_stream_limit")
    cube, vector = _LIMITS.get(stream.stream_id, (-1, -1))
    return {"cube_core_num": cube, "vector_core_num": vector}


def set_stream_limit(stream, cube_num=-1, vector_num=-1):
    """Record core limits for ``stream``."""
    _check_stream(stream, "set_stream_limit")
    for name, value in (("cube_num", cube_num), ("vector_num", vector_num)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'set_stream_limit', the '{name}' must be int, but got {type(value).__name__}.")
    _LIMITS[stream.stream_id] = (cube_num, vector_num)


def reset_stream_limit(stream):
    """Forget the limits of ``stream``."""
    _check_stream(stream, "reset_stream_limit")
    _LIMITS.pop(stream.stream_id, None)


class StreamLimitCtx:
    """``StreamLimitCtx(stream, cube_num=-1, vector_num=-1)``: the limits for the current
    stream inside the block, restored after."""

    def __init__(self, stream=None, cube_num=-1, vector_num=-1):
        if stream is not None:
            _check_stream(stream, "StreamLimitCtx")
        self.stream = stream
        self.limits = (cube_num, vector_num)
        self._prev = None

    def __enter__(self):
        s = self.stream or current_stream()
        self._prev = _LIMITS.get(s.stream_id)
        set_stream_limit(s, *self.limits)
        return self

    def __exit__(self, *exc):
        s = self.stream or current_stream()
        if self._prev is None:
            _LIMITS.pop(s.stream_id, None)
        else:
            _LIMITS[s.stream_id] = self._prev
        return False
