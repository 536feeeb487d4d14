"""``print`` of traced Tensors prints their runtime value.

While msjax traces a user function, ``builtins.print`` is replaced by a version
that, when an argument holds a traced Tensor, emits a ``jax.debug.callback`` that
prints the concrete values (formatted exactly as outside a trace) every time the
compiled function runs -- MindSpore's graph mode turns ``print`` into a runtime
print op the same way. Other prints are passed straight through.
"""
from __future__ import annotations

import builtins
import contextlib
import sys

import jax
from jax.experimental import io_callback

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
    leaves = []
    if not _traced_leaves(args, leaves):
        return _real_print(*args, sep=sep, end=end, file=file, flush=flush)

    def emit(*values):
        concrete = _substitute(args, iter(values))
        _real_print(*concrete, sep=sep, end=end, file=file if file is not None else sys.stdout, flush=True)

    used[0] = True
    # ordered: prints of one call come out in program order (hooks print in the
    # backward pass too); batched values (vmap) cannot carry ordered effects
    # (io_callback: the effect host-side gradient hooks use too, so forward prints
    # and backward hooks interleave as written; its operands carry no gradient)
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
