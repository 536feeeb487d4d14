"""Compiling without running: ``Cell.compile`` and ``_cell_graph_executor.compile``."""
from __future__ import annotations

import jax

from .._core.transforms import _CONCRETE_ERRORS, COMPILED_SCOPE, StatefulFunction, _Args

__all__ = ["trace_only"]


def trace_only(fn, args, kwargs=None):
    """Compile without running (``Cell.compile``, ``_cell_graph_executor.compile``): trace
    ``fn(*args, **kwargs)`` abstractly through the stateful core, so shape, dtype and
    argument errors are raised as compiling raises them, while no kernel runs and no
    Parameter (weights, statistics, the random key) changes. Returns the outputs'
    abstract values, or ``None`` when the function's Python control flow depends on
    Tensor values (it then runs uncompiled, see docs/differences.md)."""
    sf = StatefulFunction(fn)
    a = _Args(tuple(args), dict(kwargs or {}))
    state_params = sf._state_for(a)
    body = sf._body(state_params, a, len(args))
    COMPILED_SCOPE[0] += 1
    try:
        out, _ = jax.eval_shape(body, [p._raw_get() for p in state_params], a.dyn, None)
    except _CONCRETE_ERRORS:
        return None
    finally:
        COMPILED_SCOPE[0] -= 1
    return out
