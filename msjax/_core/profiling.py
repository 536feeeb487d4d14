"""Whether a ``Profiler`` is recording, and the named scope Cells and Primitives
open while it is (so a trace shows ``Dense``/``MatMul`` instead of bare XLA ops)."""
import contextlib

import jax

_STATE = {"active": 0}


def active():
    return _STATE["active"] > 0


def set_active(on):
    _STATE["active"] = max(0, _STATE["active"] + (1 if on else -1))


@contextlib.contextmanager
def scope(name):
    """A ``jax.named_scope`` (names the traced XLA ops) and a host-side trace annotation."""
    with jax.named_scope(name), jax.profiler.TraceAnnotation(name):
        yield
