"""MindSpore's no-grad context: ``mindspore._no_grad`` (also ``mindspore.common``,
``mindspore.common.api``, ``mindspore.graph.api`` and ``mindspore.common.recompute``).

Inside ``with _no_grad():`` (or a function decorated with ``@_no_grad()``) the values
computed are constants for differentiation, as MindSpore's PyNative tape records
nothing there: every Tensor produced inside a traced function passes through
``jax.lax.stop_gradient`` (``tensor.wrap`` asks :func:`active`). Gradient
functions (``grad``, ``value_and_grad``, ``GradOperation``) called inside raise
MindSpore's ``RuntimeError``; ``vjp`` gives zero gradients there (its forward pass
is not recorded) while ``jvp``/``jacfwd``/``jacrev`` are unaffected, as in
MindSpore 2.10. Parameters keep ``requires_grad``; eager code outside any
transform computes the same values either way.

Differences from MindSpore: MindSpore supports it in PyNative only (inside
GRAPH_MODE code it is a ``TypeError``, as a decorator it is ignored there); msjax
gives the PyNative semantics in both modes.
"""
from __future__ import annotations

import contextlib

__all__ = ["_no_grad", "active", "suspended", "check_grad_allowed"]

_DEPTH = [0]    # open no-grad blocks; read on the hot path of tensor.wrap


def active() -> bool:
    return _DEPTH[0] > 0


@contextlib.contextmanager
def suspended():
    """Gradients enabled for the duration (forward-mode transforms MindSpore compiles)."""
    prev = _DEPTH[0]
    _DEPTH[0] = 0
    try:
        yield
    finally:
        _DEPTH[0] = prev


def check_grad_allowed():
    if _DEPTH[0]:
        raise RuntimeError("In no_grad context, you can not calculate gradient")


class _no_grad(contextlib.ContextDecorator):
    """Context manager (and decorator: ``@_no_grad()``) disabling gradient
    calculation; on exit the previous state is restored."""

    def __init__(self):
        self.prev_state = False

    def __enter__(self):
        self.prev_state = not active()
        _DEPTH[0] += 1

    def __exit__(self, exc_type, exc_val, exc_tb):
        _DEPTH[0] -= 1
        return False
