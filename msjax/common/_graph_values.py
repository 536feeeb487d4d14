"""What a compiled function (``ms.jit``, GRAPH_MODE) returns for the Python values that
are not Tensors or numbers, by MindSpore 2.10's static-graph rules (its compile tutorial
``python_builtin_functions``, and its CPU build):

* ``range``, ``zip`` and ``enumerate`` objects and a dict's ``keys()`` and ``values()`` come
  back as tuples (of tuples); ``filter`` objects, generators and ``items()`` as lists;
  ``map`` objects as a tuple or a list like their input sequences (MindSpore refuses a
  ``map`` over a tuple and a list together: RuntimeError); ``iter(seq)`` as ``seq``'s type;
* NumPy scalars as Python numbers, NumPy arrays as NumPy arrays;
* anything else (a class from ``type(x)``, a dtype) as the object itself;
* a list of Python constants from outside the function (a module's global or a closure's
  variable) as that very list (MindSpore's in-place list methods; its compile tutorial
  ``static_graph``: ``global_list.reverse(); return global_list``). msjax runs the function's
  Python once, when it traces it: a later call of the compiled function returns the list
  without running ``reverse()`` again (MindSpore runs it per call).

The core's ``to_arrays`` borrows :func:`graph_value` (``provided``) for each such output.
"""
import gc
import sys
import types

import numpy as np

from .._core import provided

_TUPLE_ITER = type(iter(()))
_LIST_ITER = type(iter([]))
_KEYS, _VALUES, _ITEMS = type({}.keys()), type({}.values()), type({}.items())


def _map_container(obj):
    """The sequence type MindSpore gives a ``map`` object: that of its inputs."""
    _, args = obj.__reduce__()[:2]
    kinds = {type(a) for a in args[1:]}
    if len(kinds) > 1 and _LIST_ITER in kinds and _TUPLE_ITER in kinds:
        raise RuntimeError("The types of arguments in Map must be consistent, but the types of arguments "
                           "are inconsistent.")
    return list if kinds == {_LIST_ITER} else tuple


def graph_value(obj):
    """``obj`` (a returned value that is neither a Tensor nor a Python number) as MindSpore's graph returns it."""
    if isinstance(obj, (range, zip, enumerate, _KEYS, _VALUES)):
        return tuple(obj)
    if isinstance(obj, (filter, types.GeneratorType, _LIST_ITER, _ITEMS)):
        return list(obj)
    if isinstance(obj, map):
        return _map_container(obj)(obj)
    if isinstance(obj, _TUPLE_ITER):
        return tuple(obj)
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj
    if not isinstance(obj, type) and hasattr(obj, "__next__"):    # other iterators: what they still yield
        return tuple(obj)
    return obj


def _constant(x):
    if isinstance(x, (tuple, list)):
        return all(_constant(v) for v in x)
    return x is None or type(x) in (bool, int, float, str)


def _namespace(ref):
    """``ref`` is a closure cell or a module's ``__dict__``."""
    if isinstance(ref, types.CellType):
        return True
    mod = sys.modules.get(ref.get("__name__")) if isinstance(ref, dict) and isinstance(ref.get("__name__"), str) else None
    return mod is not None and vars(mod) is ref


def outside_list(obj):
    """Whether the returned list ``obj`` of Python constants is a global or closure variable."""
    return _constant(obj) and any(_namespace(r) for r in gc.get_referrers(obj))


provided.provide("graph_value", graph_value)
provided.provide("outside_list", outside_list)
