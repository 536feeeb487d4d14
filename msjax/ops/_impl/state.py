"""In-place state ops (``assign`` & co) and the runtime ``Print``.

``ops.assign(variable, value)`` writes ``value`` into a Parameter (or a Tensor)
in place, as in MindSpore. On a Parameter the write goes through its value slot:
inside ``ms.jit``, a GRAPH_MODE ``construct`` or ``ms.grad`` the swap frame of
``msjax._core.state`` records it, and the transform writes the new value back to
the Parameter after the call, so no traced value stays behind.

``ops.Print()`` / ``ops.print_`` print MindSpore's text of their arguments each
time they run: immediately in PyNative, and from the compiled function (through a
``jax.debug.callback``) when traced.
"""
from __future__ import annotations

import sys

import jax
import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core import printhook
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import to_array, wrap
from .array import _write_inplace


def _assign_value(variable, value, op_name):
    if not isinstance(variable, Tensor):
        raise TypeError(f"For '{op_name}', 'variable' must be a Parameter or Tensor, but got "
                        f"{type(variable).__name__}.")
    cur = variable._data
    if isinstance(value, Tensor):
        v = value._data
        promoted = jnp.promote_types(cur.dtype, v.dtype)
        if promoted != cur.dtype:
            raise TypeError("Data type conversion is not supported for a 'Parameter', nor for the input tensor of an "
                            f"in-place operator, so data type {mstype.from_np(cur.dtype)}, which cannot be converted "
                            f"to data type {mstype.from_np(promoted)} automatically.")
    else:
        v = to_array(value)
    if v.ndim != cur.ndim:
        raise ValueError(f"For '{op_name}','value' must have the same rank as 'variable'. But got 'value' rank: "
                         f"{v.ndim}, 'variable' rank: {cur.ndim}.")
    if tuple(v.shape) != tuple(cur.shape):
        vs = "(" + ", ".join(str(d) for d in v.shape) + ")"
        cs = "(" + ", ".join(str(d) for d in cur.shape) + ")"
        raise ValueError(f"For '{op_name}','value' must have the same shape as 'variable'. But got 'value' shape: "
                         f"{vs}, 'variable' shape: {cs}.")
    return cur, v.astype(cur.dtype)


def _store(variable, new):
    _write_inplace(variable, new)
    return wrap(new)


@op("assign", primitive="Assign", family="state")
def assign(variable, value):
    """``ops.assign(variable, value)``: ``variable`` takes ``value`` (same shape; the
    dtype must convert to the variable's without widening). Returns the new value."""
    _, v = _assign_value(variable, value, "Assign")
    return _store(variable, v)


@op("assign_add", primitive="AssignAdd", family="state")
def assign_add(variable, value):
    """``ops.assign_add(variable, value)``: ``variable += value`` in place."""
    cur, v = _assign_value(variable, value, "AssignAdd")
    return _store(variable, cur + v)


@op("assign_sub", primitive="AssignSub", family="state")
def assign_sub(variable, value):
    """``ops.assign_sub(variable, value)``: ``variable -= value`` in place."""
    cur, v = _assign_value(variable, value, "AssignSub")
    return _store(variable, cur - v)


# ---------------------------------------------------------------------------
# Print
# ---------------------------------------------------------------------------
def _text(x):
    """What MindSpore's Print writes for one argument."""
    if isinstance(x, Tensor):
        return repr(wrap(x._data))
    return str(x)


def _leaves(obj, out):
    if isinstance(obj, Tensor):
        out.append(obj._data)
    elif isinstance(obj, (tuple, list)):
        for v in obj:
            _leaves(v, out)
    return out


def _rebuild(obj, it):
    if isinstance(obj, Tensor):
        return wrap(next(it))
    if isinstance(obj, tuple):
        return tuple(_rebuild(v, it) for v in obj)
    if isinstance(obj, list):
        return [_rebuild(v, it) for v in obj]
    return obj


@op("print_", primitive="Print", family="state")
def print_(*input_x):
    """``ops.print_(*input_x)`` / ``ops.Print()(*args)``: each argument on its own line
    (Tensors in MindSpore's ``Tensor(shape=..., dtype=..., value=...)`` form). Inside a
    compiled function the values are printed every time it runs."""
    if not input_x:
        raise ValueError("For 'Print', the number of inputs must be greater than 0.")
    for x in input_x:
        if not isinstance(x, (Tensor, str, int, float, bool, tuple, list)) and x is not None:
            raise TypeError(f"For 'Print', the type of input must be Tensor, str, number, tuple or list, but got "
                            f"{type(x).__name__}.")
    leaves = _leaves(input_x, [])
    if not any(isinstance(v, jax.core.Tracer) for v in leaves):
        sys.stdout.write("\n".join(_text(x) for x in input_x) + "\n")
        sys.stdout.flush()
        return None

    def emit(*values):
        args = _rebuild(input_x, iter(values))
        sys.stdout.write("\n".join(_text(x) for x in args) + "\n")
        sys.stdout.flush()

    printhook.used[0] = True
    jax.debug.callback(emit, *leaves)
    return None


__all__ = ["assign", "assign_add", "assign_sub", "print_"]
