"""Run-time checks of compiled programs: the errors MindSpore's kernels raise while they run.

MindSpore's CPU kernels check values as they run (a gather or scatter index out of range raises
a RuntimeError or ValueError from the kernel, in GRAPH_MODE too). In PyNative msjax checks the
concrete values before the op; in a compiled function the values are traced, and XLA would clamp
or drop such an index silently. There an op calls ``add`` with a traced "bad" flag and an integer
payload (which index, its value); the compiled program (``StatefulFunction``, ``ms.jit``, a
GRAPH_MODE Cell) returns one small int64 vector beside its outputs: 0, or the number of the first
check that failed followed by its payload. The host reads it after each call and raises that
check's exception with MindSpore's message (``raise_failed``); the vector costs a few integer
reductions in the program and one host read of it per call.

``ops.vmap`` collects its body's checks per example and hands them on (``forward``): raised at once
in PyNative, registered again in a compiled program.

Differences from MindSpore: the error is raised when the whole program has run (MindSpore stops at
the kernel), after the Parameters it wrote are updated; under ``vmap`` the message names the
example's range and index (MindSpore's batched kernel: the flattened ones); a check whose flag is
computed inside another nested transform (a custom backward, a JAX transform called directly) is not
registered, and the kernel clamps or drops the index as before.
"""
from __future__ import annotations

import builtins
import threading

import jax.numpy as jnp
import numpy as np
from jax._src import core as _jcore

__all__ = ["add", "collecting", "forward", "raise_failed", "raise_payload", "wanted"]

_LOCAL = threading.local()
_EXCEPTIONS = {"RuntimeError": RuntimeError, "ValueError": ValueError, "IndexError": IndexError}


class _Collector:
    def __init__(self):
        self.top = _jcore.trace_ctx.trace    # the compiled program's own trace
        self.flags, self.payloads, self.checks = [], [], []

    def owns(self, x):
        return not isinstance(x, _jcore.Tracer) or x._trace is self.top


def wanted(x):
    """Whether a check on the traced value ``x`` would be registered (a compiled program's own trace):
    callers skip computing the flag otherwise, so a bare ``jax.make_jaxpr`` (the exporters) or a
    nested transform traces no check arithmetic."""
    col = getattr(_LOCAL, "col", None)
    return col is not None and col.owns(x)


def add(bad, payload, messages):
    """Register a check of the program being traced: ``bad`` a bool scalar, ``payload`` a 1-D
    integer vector whose first entry picks one of ``messages`` (``(exception name, template)``
    pairs; the template is ``str.format``-ed with the rest of the payload as ``{0}``, ``{1}``...,
    ``{rest}``: all but ``{0}`` joined by ", ", ``{restlist}``: them as a list). Returns False
    (nothing registered) outside a compiled program or for a flag of a nested transform."""
    col = getattr(_LOCAL, "col", None)
    if col is None or not (col.owns(bad) and col.owns(payload)):
        return False
    payload = jnp.asarray(payload).astype(jnp.int64).reshape(-1)
    col.flags.append(jnp.asarray(bad, bool).reshape(()))
    col.payloads.append(payload)
    col.checks.append((payload.shape[0], [tuple(m) for m in messages]))
    return True


def forward(codes, checks):
    """The check vectors a nested transform's body returned (``codes``: one per row, e.g. one per
    example of a ``vmap``) with that body's ``checks``: raised at once when concrete, else each check
    registered again in the enclosing program (failing when it failed for any row)."""
    if not checks:
        return
    if not isinstance(codes, _jcore.Tracer):
        for row in np.asarray(codes).reshape(-1, codes.shape[-1]):
            raise_failed(row, checks)
        return
    rows = codes.reshape(-1, codes.shape[-1])
    n = rows.shape[0]
    for k, (width, messages) in enumerate(checks):
        first = jnp.min(jnp.where(rows[:, 0] == k + 1, jnp.arange(n), n))
        add(first < n, rows[jnp.minimum(first, n - 1), 1:1 + width], messages)


class collecting:
    """``with collecting() as col:`` around the traced body; then ``col.code()`` is the vector the
    program returns (``None`` when nothing registered) and ``col.checks`` what ``raise_failed`` reads."""

    def __enter__(self):
        self._prev = getattr(_LOCAL, "col", None)
        self.col = _LOCAL.col = _Collector()
        return self

    def __exit__(self, *exc):
        _LOCAL.col = self._prev
        return False

    @property
    def checks(self):
        return self.col.checks

    def code(self):
        col = self.col
        if not col.flags:
            return None
        width = max(p.shape[0] for p in col.payloads)
        n = len(col.flags)
        first = jnp.min(jnp.where(jnp.stack(col.flags), jnp.arange(n), n))   # n: none failed
        rows = jnp.stack([jnp.pad(p, (0, width - p.shape[0])) for p in col.payloads])
        head = jnp.where(first < n, first + 1, 0).astype(jnp.int64)
        return jnp.concatenate([head[None], rows[jnp.minimum(first, n - 1)]])


def raise_failed(code, checks):
    """Raise the first failed check's exception (``code`` as the program returned it), if any."""
    if code is None:
        return
    v = np.asarray(code)
    if v[0]:
        width, messages = checks[int(v[0]) - 1]
        raise_payload(messages, v[1:1 + width])


def raise_payload(messages, payload):
    """Raise the exception ``messages`` and ``payload`` describe (see ``add``)."""
    choice, *ints = (int(i) for i in payload)
    name, template = messages[builtins.min(choice, len(messages) - 1)]
    text = template.format(*ints, rest=", ".join(str(i) for i in ints[1:]), restlist=str(ints[1:]))
    raise _EXCEPTIONS[name](text)
