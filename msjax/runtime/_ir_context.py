"""One MLIR context per thread, reused to lower the small programs PyNative calls compile.

JAX makes a fresh MLIR context for every program it lowers (``mlir.make_ir_context``
registers and loads its dialects: about 6 ms of CPU time, a tenth of a small
program's first call, and the context's destruction after it). While the hook in
front of JAX's eager compile (``_host_eager``) compiles a small program (at most
``MAX_EQUATIONS`` equations, nested ones included, and at most ``MAX_CONST_BYTES``
of closed-over constants), ``mlir.make_ir_context`` hands out this thread's kept
context instead. A context keeps what it uniqued (types, names, source locations,
constants) until it dies, so a thread's context is replaced after ``REUSES``
programs: its memory stays bounded. The printed module, hence what XLA compiles and
every number it computes, is the same as in a fresh context
(``tests/test_ir_context.py`` compares them). Everything else JAX lowers (``jax.jit``
ahead of time, GRAPH_MODE networks, exports) gets a fresh context as before.

Differences from MindSpore: none visible; MindSpore compiles no program per PyNative op.
"""
from __future__ import annotations

import contextlib
import threading

import numpy as np

__all__ = ["MAX_CONST_BYTES", "MAX_EQUATIONS", "REUSES", "install", "reusing", "small", "stats"]

REUSES = 256              # programs lowered in one context before it is replaced
MAX_EQUATIONS = 400       # larger programs are networks: a fresh context, as JAX makes
MAX_CONST_BYTES = 1 << 16
_LOCAL = threading.local()
_STATS = {"made": 0, "reused": 0}


def small(jaxpr):
    """Whether a ``ClosedJaxpr`` is small enough to be lowered in a kept context."""
    from jax._src import core
    budget = [MAX_EQUATIONS, MAX_CONST_BYTES]

    def walk(j, consts):
        budget[1] -= sum(np.asarray(c).nbytes if hasattr(c, "shape") else 8 for c in consts)
        budget[0] -= len(j.eqns)
        if budget[0] < 0 or budget[1] < 0:
            return False
        for eqn in j.eqns:
            for p in eqn.params.values():
                for sub in (p if isinstance(p, (tuple, list)) else (p,)):
                    if isinstance(sub, core.ClosedJaxpr):
                        ok = walk(sub.jaxpr, sub.consts)
                    elif isinstance(sub, core.Jaxpr):
                        ok = walk(sub, ())
                    else:
                        continue
                    if not ok:
                        return False
        return True
    return walk(jaxpr.jaxpr, jaxpr.consts)


@contextlib.contextmanager
def reusing(jaxpr):
    """Lower ``jaxpr``'s program in this thread's kept context when it is small (a program
    compiled while another is lowered decides for itself)."""
    was = getattr(_LOCAL, "on", False)
    _LOCAL.on = small(jaxpr)
    try:
        yield
    finally:
        _LOCAL.on = was


def stats():
    """Contexts made for small programs and lowerings that reused one."""
    return dict(_STATS)


def install():
    """Put the per-thread context behind ``jax._src.interpreters.mlir.make_ir_context``;
    idempotent. Returns whether it is in place."""
    try:
        from jax._src.interpreters import mlir
    except ImportError:   # pragma: no cover
        return False
    original = getattr(mlir, "make_ir_context", None)
    if original is None:
        return False
    if getattr(original, "_msjax_kept", False):
        return True

    def make_ir_context():
        if not getattr(_LOCAL, "on", False):
            return original()
        ctx = getattr(_LOCAL, "context", None)
        if ctx is None or _LOCAL.uses >= REUSES:
            ctx = _LOCAL.context = original()
            _LOCAL.uses = 0
            _STATS["made"] += 1
        else:
            _STATS["reused"] += 1
        _LOCAL.uses += 1
        return ctx

    make_ir_context._msjax_kept = True
    make_ir_context.__wrapped__ = original
    mlir.make_ir_context = make_ir_context
    return True
