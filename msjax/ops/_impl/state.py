"""In-place state ops (``assign`` & co, and the ``Scatter*``/``ScatterNd*`` ops that write
their result into a Parameter) and the runtime ``Print``.

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
import numpy as np

from ..._core import dtype as mstype
from ..._core import printhook, printing, provided, state
from ..._core.parameter import Parameter
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import arr, to_array, wrap
from .array import _write_inplace
from .index_checks import check_values
from .views import check_inplace_input
from .indexing import (check_scatter_rows, tensor_scatter_add, tensor_scatter_div, tensor_scatter_max, tensor_scatter_min,
                       tensor_scatter_mul, tensor_scatter_sub, tensor_scatter_update)


def _assign_value(variable, value, op_name):
    if not isinstance(variable, Tensor):
        raise TypeError(f"For '{op_name}', 'variable' must be a Parameter or Tensor, but got "
                        f"{type(variable).__name__}.")
    check_inplace_input(variable, op_name)
    cur = variable._data
    if isinstance(value, Tensor):
        v = value._data
        promoted = jnp.promote_types(cur.dtype, v.dtype)
        if promoted != cur.dtype and not state.SHADOW_PASS[0]:   # a stand-in of an integer input: the real
            # pass (run first) raised nothing, and the value written is the real pass's
            raise TypeError("Data type conversion is not supported for a 'Parameter', nor for the input tensor of an "
                            f"in-place operator, so data type {mstype.from_np(cur.dtype)}, which cannot be converted "
                            f"to data type {mstype.from_np(promoted)} automatically.")
    else:
        v = to_array(value)
    if {v.ndim, cur.ndim} == {0, 1} and v.size == cur.size == 1:   # MindSpore's CPU kernels: a scalar is a 1-vector
        if op_name == "Assign":
            raise RuntimeError(f"For 'Assign', the 'x' and 'y' must have the same dimension, but got the dimension of "
                               f"'x': {cur.ndim} and the dimension of 'y': {v.ndim}")
        v = v.reshape(cur.shape)
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
    """Writes ``new``; returns the variable's value (a Parameter's, as a gradient pass stores it)."""
    new = state.written(variable, new) if isinstance(variable, Parameter) else new
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
    """``ops.assign_add(variable, value)``: ``variable += value`` in place (a scalar
    ``value`` adds to a shape-(1,) ``variable`` and the other way round, as in MindSpore)."""
    cur, v = _assign_value(variable, value, "AssignAdd")
    return _store(variable, cur + v)


@op("assign_sub", primitive="AssignSub", family="state")
def assign_sub(variable, value):
    """``ops.assign_sub(variable, value)``: ``variable -= value`` in place (scalars as
    ``assign_add``)."""
    cur, v = _assign_value(variable, value, "AssignSub")
    return _store(variable, cur - v)


# ---------------------------------------------------------------------------
# Print
# ---------------------------------------------------------------------------
def _graph_text(x):
    """What MindSpore's graph ``Print`` op (``print`` in ``ms.jit``/GRAPH_MODE) writes for one
    argument: a Tensor in the C++ printer's form without commas (a 0-d one as its bare value),
    numbers as C++ streams them (``True`` is ``1``, ``1/3`` is ``0.333333``), sequences as
    ``(a, b)``."""
    if isinstance(x, Tensor) and not isinstance(x, Parameter):   # a Parameter prints its name
        a = np.asarray(x._data)
        if a.ndim == 0:
            return _graph_text(a.item())
        return f"{printing.head(a, x.dtype, '')}{printing.value_text(a, x.dtype.kind, use_comma=False)})"
    if isinstance(x, (bool, np.bool_)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        return printing._cpp_general(x)
    if isinstance(x, (tuple, list)):
        return "(" + ", ".join(_graph_text(v) for v in x) + ")"
    return str(x)


def graph_print(args):
    sys.stdout.write("".join(_graph_text(x) + "\n" for x in args))
    sys.stdout.flush()


provided.provide("graph_print", graph_print)


@op("print_", primitive="Print", family="state")
def print_(*input_x):
    """``ops.print_(*input_x)`` / ``ops.Print()(*args)``: each argument on its own line, every
    time it runs. In PyNative Tensors print in MindSpore's ``repr`` form; in compiled code
    (``ms.jit``, GRAPH_MODE) as MindSpore's graph ``Print`` op writes them (``_graph_text``)."""
    if not input_x:
        raise ValueError("For 'Print', the number of inputs must be greater than 0.")
    for x in input_x:
        if not isinstance(x, (Tensor, str, int, float, bool, tuple, list)) and x is not None:
            raise TypeError(f"For 'Print', the type of input must be Tensor, str, number, tuple or list, but got "
                            f"{type(x).__name__}.")
    input_x = _plain(input_x)
    if state.compiled():
        printhook.at_run(input_x, graph_print)
    elif state.in_transform():
        printhook.at_run(input_x, _pynative_print)
    else:
        _pynative_print(input_x)


def _plain(x):
    """Parameters as the Tensors of their values (Print writes values, not names)."""
    if isinstance(x, Tensor):
        return wrap(x._data)
    return type(x)(_plain(v) for v in x) if isinstance(x, (tuple, list)) else x


def _pynative_print(args):
    sys.stdout.write("".join((repr(x) if isinstance(x, Tensor) else str(x)) + "\n" for x in args))
    sys.stdout.flush()


__all__ = ["assign", "assign_add", "assign_sub", "print_"]


# ---------------------------------------------------------------------------
# Scatter*/ScatterNd*: scatter ops that write into a Parameter
# ---------------------------------------------------------------------------

def _scatter_inplace(name, prim, fn, rows=False, use_locking=False):
    """``ops.{name}``/``ops.{prim}()``: ``fn`` (a ``tensor_scatter_*``) written into ``input_x``;
    ``rows``: ``indices`` index the first axis (the ``Scatter*`` ops) instead of N-D positions."""
    def f(input_x, indices, updates, use_locking=use_locking):
        if not isinstance(input_x, Tensor):
            raise TypeError(f"For '{prim}', 'input_x' must be a Parameter or Tensor, but got {type(input_x)}.")
        if rows:
            n = input_x.shape[0] if input_x.ndim else 0
            check_values(arr(indices), 0, n, [("RuntimeError", f"For '{prim}', the value of indices should be in "
                                                               f"[0, {n}), but got '{{0}}' in indices.")])
            indices = wrap(arr(indices)[..., None])
        else:
            idx = arr(indices)
            check_scatter_rows(prim, idx, input_x.shape[:idx.shape[-1] if idx.ndim else 0])
        new = fn(input_x, indices, updates)._data
        _write_inplace(input_x, new)
        return wrap(new)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``ops.{prim}()(input_x, indices, updates)``: ``ops.{fn.__name__}`` at "
                 f"{'rows' if rows else 'N-D positions'} ``indices``, written into ``input_x`` (a Parameter) "
                 f"and returned.")
    return op(name, primitive=prim, prim_args=("use_locking",), family="array")(f)


scatter_nd_add = _scatter_inplace("scatter_nd_add", "ScatterNdAdd", tensor_scatter_add)
scatter_nd_sub = _scatter_inplace("scatter_nd_sub", "ScatterNdSub", tensor_scatter_sub)
scatter_nd_mul = _scatter_inplace("scatter_nd_mul", "ScatterNdMul", tensor_scatter_mul)
scatter_nd_div = _scatter_inplace("scatter_nd_div", "ScatterNdDiv", tensor_scatter_div)
scatter_nd_max = _scatter_inplace("scatter_nd_max", "ScatterNdMax", tensor_scatter_max)
scatter_nd_min = _scatter_inplace("scatter_nd_min", "ScatterNdMin", tensor_scatter_min)
scatter_nd_update = _scatter_inplace("scatter_nd_update", "ScatterNdUpdate", tensor_scatter_update)
scatter_add = _scatter_inplace("scatter_add", "ScatterAdd", tensor_scatter_add, rows=True)
scatter_sub = _scatter_inplace("prim_scatter_sub", "ScatterSub", tensor_scatter_sub, rows=True)
scatter_mul = _scatter_inplace("scatter_mul", "ScatterMul", tensor_scatter_mul, rows=True)
scatter_div = _scatter_inplace("scatter_div", "ScatterDiv", tensor_scatter_div, rows=True)
scatter_max = _scatter_inplace("scatter_max", "ScatterMax", tensor_scatter_max, rows=True)
scatter_min = _scatter_inplace("scatter_min", "ScatterMin", tensor_scatter_min, rows=True)
scatter_update = _scatter_inplace("scatter_update", "ScatterUpdate", tensor_scatter_update, rows=True,
                                  use_locking=True)
