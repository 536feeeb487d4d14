"""MindSpore's scalar and sequence primitives of graph syntax (``F.scalar_add``, ``F.tuple_getitem``,
``C.tail``...): in MindSpore they are the operators of compiled Python; msjax traces Python, so each
is the Python operator itself, on Python numbers as on Tensors."""
from __future__ import annotations

import math
import operator

from ..._core import dtype as mstype
from .creation import ones_like as _ones, zeros_like as _zeros

__all__ = ["scalar_add", "scalar_sub", "scalar_mul", "scalar_div", "scalar_floordiv", "scalar_mod", "scalar_pow",
           "scalar_uadd", "scalar_usub", "scalar_log", "scalar_eq", "scalar_ne", "scalar_lt", "scalar_gt",
           "scalar_le", "scalar_ge", "scalar_max", "scalar_min", "scalar_cast", "bool_not", "bool_and", "bool_or",
           "bool_eq", "string_eq", "string_concat", "tuple_getitem", "list_getitem", "tail", "zeros_like", "ones_like",
           "make_tuple", "switch"]

scalar_add = operator.add
scalar_sub = operator.sub
scalar_mul = operator.mul
scalar_div = operator.truediv
scalar_floordiv = operator.floordiv
scalar_mod = operator.mod
scalar_pow = operator.pow
scalar_uadd = operator.pos
scalar_usub = operator.neg
scalar_log = math.log
scalar_eq = operator.eq
scalar_ne = operator.ne
scalar_lt = operator.lt
scalar_gt = operator.gt
scalar_le = operator.le
scalar_ge = operator.ge
scalar_max = max
scalar_min = min
bool_not = operator.not_
bool_eq = operator.eq
string_eq = operator.eq
string_concat = operator.add
tuple_getitem = operator.getitem
list_getitem = operator.getitem


def bool_and(x, y):
    return x and y


def bool_or(x, y):
    return x or y


def make_tuple(*elements):
    """``F.make_tuple``: the tuple of its arguments."""
    return elements


def switch(cond, true_branch, false_branch):
    """``F.switch`` (MindSpore's ``Switch``): ``true_branch`` where the one-element ``cond`` is true, else
    ``false_branch`` (a traced ``cond`` runs the graph uncompiled). MindSpore 2.10 runs it only in a
    graph (PyNative: RuntimeError ``Get unknown cnode``); msjax in both modes."""
    return true_branch if cond else false_branch


def scalar_cast(input_x, input_y):
    """A Python number converted to the number type ``input_y`` (``mstype.float32`` -> float)."""
    if not isinstance(input_x, (int, float, bool)):
        raise TypeError(f"For 'ScalarCast', the 'input_x' must be a number, but got {type(input_x).__name__}.")
    kind = mstype.dtype_to_pytype(input_y) if isinstance(input_y, mstype.Type) else input_y
    if kind not in (int, float, bool):
        raise TypeError(f"For 'ScalarCast', the 'input_y' must be a number type, but got {input_y}.")
    return kind(input_x)


def tail(x):
    """``C.tail``: a tuple or list without its first element."""
    if not isinstance(x, (tuple, list)) or not x:
        raise ValueError(f"For 'tail', the input must be a non-empty tuple or list, but got {x!r}.")
    return x[1:]


def _fill_like(x, value):
    """``C.zeros_like``/``C.ones_like``: ``value`` in the structure and types of ``x`` (Tensors,
    Python numbers, tuples and lists of them)."""
    if isinstance(x, (tuple, list)):
        return type(x)(_fill_like(v, value) for v in x)
    if isinstance(x, bool):
        return bool(value)
    if isinstance(x, (int, float)):
        return type(x)(value)
    return (_ones if value else _zeros)(x)


def zeros_like(x):
    return _fill_like(x, 0)


def ones_like(x):
    return _fill_like(x, 1)
