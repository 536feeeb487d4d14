"""``ops.Assert``: a condition checked when the op runs (MindSpore's CPU kernel). In PyNative a false
condition prints MindSpore's report (``For 'Assert' condition is false.`` and the first ``summarize``
values of each input, one line each) and raises ``RuntimeError('assert failed')``; in compiled code
(GRAPH_MODE, ``ms.jit``) the condition is computed in the program and the RuntimeError is raised when
the program has run (``_core.runtime_checks``); the report of the input values is printed only in
PyNative (differs from MindSpore, whose graph kernel prints it too)."""
from __future__ import annotations

import builtins
import sys

import jax.numpy as jnp
import numpy as np

from ..._core import runtime_checks
from ..._core.registry import op
from ..._core.tensor import Tensor, wrap
from .array import _concrete


def _check_summarize(summarize=3):
    if not isinstance(summarize, int) or isinstance(summarize, bool):
        raise TypeError(f"For 'Assert', the type of 'summarize' should be 'int', but got type "
                        f"'{type(summarize).__name__}'.")


def _value_text(v):
    if v.dtype == np.bool_:
        return str(int(v))
    return f"{v:g}" if np.issubdtype(v.dtype, np.floating) else str(v)


@op("prim_assert", primitive="Assert", prim_args=("summarize",), family="array", prim_check=_check_summarize)
def _assert(condition, input_data, summarize=3):
    """``ops.Assert(summarize=3)(condition, input_data)``: ``condition`` a bool or a bool Tensor of
    one element, ``input_data`` a list or tuple of Tensors; returns Int32 ``[0]``."""
    if not isinstance(input_data, (list, tuple)):
        raise TypeError(f"'{type(input_data).__name__}' object is not iterable")
    cond = condition._data if isinstance(condition, Tensor) else jnp.asarray(bool(condition))
    if cond.ndim and cond.size != 1:
        raise ValueError(f"For 'Assert', the 'condition[0]' must be int and must = 1, but got '{cond.shape[0]}' "
                         f"with type 'int'.")
    ok = _concrete(cond)
    if ok is None:
        if runtime_checks.wanted(cond):
            runtime_checks.add(jnp.logical_not(cond.reshape(()).astype(bool)), np.zeros(1, np.int64),
                               [("RuntimeError", "assert failed")])
    elif not bool(np.asarray(ok).reshape(())):
        lines = ["For 'Assert' condition is false."]
        for x in input_data:
            vals = np.ravel(np.asarray(x._data if isinstance(x, Tensor) else x))[:builtins.max(summarize, 0)]
            lines.append("input data: [" + " ".join(_value_text(v) for v in vals) + "]")
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
        raise RuntimeError("assert failed")
    return wrap(jnp.zeros((1,), jnp.int32))
