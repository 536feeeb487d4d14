"""Ctrl-C once programs run: the process ends by SIGTERM, as MindSpore 2.10's runtime makes it.

MindSpore's runtime, when it launches its first kernel (``Tensor + 1``, a Cell's forward, a
training step; not ``import mindspore``, not a Tensor made from NumPy, not a dataset iterator),
puts its own SIGINT handler in place, which sends the process SIGTERM: Ctrl-C during
``Model.train`` ends the script with no ``KeyboardInterrupt`` traceback, killed by SIGTERM (exit
status 143 in a shell, -15 from ``subprocess``), Python's buffered output unwritten and no
``atexit`` hook run; a SIGTERM handler of the script's (``OnRequestExit``) receives it instead.
Measured on MindSpore 2.10's CPU build (``tests/golden/record_sigint.py``).

``arm()`` does the same at msjax's first program run (the eager call hook of
``runtime._host_eager`` and the compile cache's loaded executables call it). Differences: the
handler is Python's, so it runs when the main thread next runs Python (a Ctrl-C during a long
XLA compile takes effect after it); it replaces only Python's default handler (a handler the
script installed before, or SIG_IGN, is kept; MindSpore replaces those too); it is put in place
from the main thread only (a first program run on another thread leaves it for a later one).
"""
from __future__ import annotations

import os
import signal
import threading

__all__ = ["arm", "armed"]

_ARMED = [False]


def _terminate(signum, frame):   # noqa: ARG001 - signal handler signature
    os.kill(os.getpid(), signal.SIGTERM)


def armed():
    """Whether msjax's SIGINT handler has been put in place in this process."""
    return _ARMED[0]


def arm():
    """Put MindSpore's Ctrl-C behaviour in place, once, from the main thread."""
    if _ARMED[0] or threading.current_thread() is not threading.main_thread():
        return
    _ARMED[0] = True
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _terminate)
    except (ValueError, OSError):   # pragma: no cover - an interpreter without signals
        pass
