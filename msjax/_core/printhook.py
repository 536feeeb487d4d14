"""``print`` inside traced functions prints on every run, with runtime values.

While msjax traces a user function, ``builtins.print`` emits an ordered ``io_callback``
that prints the arguments (traced Tensors given their values) each time the function
runs, as Python's ``print`` in PyNative; in compiled code (``ms.jit``, GRAPH_MODE) as
MindSpore's ``Print`` op, which its graph compiler makes of ``print`` (the ``graph_print``
renderer that ``msjax.ops`` lends).
"""
from __future__ import annotations

import builtins
import contextlib
import sys

import jax
from jax.experimental import io_callback

from . import provided, state
from .parameter import Parameter
from .tensor import Tensor, wrap

_real_print = builtins.print
_depth = 0
used = [False]  # set when a traced print was emitted (callers flush effects)


def _traced_leaves(obj, out):
    if isinstance(obj, Parameter):
        return False  # prints its name/shape/dtype, no value
    if isinstance(obj, Tensor):
        d = obj._data
        if isinstance(d, jax.core.Tracer):
            out.append(d)
            return True
        return False
    if isinstance(obj, (tuple, list)):
        return any([_traced_leaves(x, out) for x in obj])
    if isinstance(obj, dict):
        return any([_traced_leaves(x, out) for x in obj.values()])
    return False


def _substitute(obj, it):
    if isinstance(obj, Parameter):
        return obj
    if isinstance(obj, Tensor):
        return wrap(next(it)) if isinstance(obj._data, jax.core.Tracer) else obj
    if isinstance(obj, tuple):
        return tuple(_substitute(x, it) for x in obj)
    if isinstance(obj, list):
        return [_substitute(x, it) for x in obj]
    if isinstance(obj, dict):
        return {k: _substitute(v, it) for k, v in obj.items()}
    return obj


def _print(*args, sep=" ", end="\n", file=None, flush=False):
    graph = state.compiled() and (sep, end, file) == (" ", "\n", None)
    at_run(args, provided.need("graph_print") if graph else lambda values: _real_print(
        *values, sep=sep, end=end, file=file if file is not None else sys.stdout, flush=True))


def at_run(args, render):
    """``render(args)`` each time the traced code runs, its traced Tensors given their values."""
    leaves = []
    _traced_leaves(args, leaves)

    def emit(*values):
        render(_substitute(args, iter(values)))

    used[0] = True
    # ordered (as the backward hooks' io_callbacks): program order; vmap cannot carry ordered effects
    if any(type(x).__name__ == "BatchTracer" for x in leaves):
        jax.debug.callback(emit, *leaves)
    else:
        io_callback(emit, None, *[jax.lax.stop_gradient(x) for x in leaves], ordered=True)


@contextlib.contextmanager
def traced_print():
    global _depth
    if _depth == 0:
        builtins.print = _print
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            builtins.print = _real_print
