"""Python builtins called in a compiled function, with the argument checks MindSpore's graph
compiler makes where Python itself would accept the call:

* ``range(...)``: MindSpore's ``make_range`` takes one to three int scalars; a Tensor (even a
  constant one made in the graph, which Python's ``range`` would read through ``__index__``), a
  bool or a float is a TypeError (``For 'make_range', the 0th input should be a int scalar but got
  ...``), a zero step a RuntimeError, a range past Int64 a ValueError. MindSpore names a Tensor
  argument by its abstract value (``AbstractTensor(shape: (), ...)``); msjax names its type and
  shape.

* ``enumerate(x, start)``: a number ``x`` and a ``start`` that is not an int (a list, a float, a
  Tensor) are TypeErrors with MindSpore's messages. For a Tensor argument as ``start`` MindSpore
  names ``make_range`` instead; msjax gives the ``start`` message for every Tensor.

* ``len(x)``: MindSpore calls ``x.__len__()``: a number or None is an AttributeError, a 0-D
  Tensor a TypeError (``Not support len of a 0-D tensor.``).

``_graph_source._graph_callee`` swaps a called builtin for its entry in :data:`CHECKED`.
"""
import builtins

import numpy as np

from .._core.tensor import Tensor


def _described(value):
    shape = getattr(value, "shape", None)
    if shape is not None and hasattr(value, "dtype") and not isinstance(value, np.generic):
        return f"Tensor(shape: {tuple(shape)}, dtype: {value.dtype})"
    return f"{type(value).__name__}({value!r})"


def _abstract_scalar(v):
    """A Python scalar as MindSpore's graph errors print it."""
    kind, text = ("Bool", str(v).lower()) if isinstance(v, bool) else ("Float32", f"{v:g}")
    return f"AbstractScalar(Type: {kind}, Value: {text}, Shape: NoShape)"


def _range(*args):
    """``range`` in a graph, as MindSpore's ``make_range``: one to three ints (a Tensor, a bool or a
    float refused), no zero step, no range whose next step leaves Int64; what JIT Fallback runs in
    Python (a NumPy integer, ``x.asnumpy()`` of an integer Tensor) is Python's ``range``."""
    if not 1 <= len(args) <= 3:
        raise RuntimeError(f"For 'make_range', the input size should within [1, 3] but got{len(args)}")
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            raise TypeError(f"For 'make_range', the {i}th input should be a int scalar but got {_described(a)}")
        if isinstance(a, (bool, float, np.floating)):
            raise TypeError(f"For 'make_range', the {i}th input should be a int scalar but got "
                            f"{_abstract_scalar(a)}")
    if len(args) == 3 and isinstance(args[2], (int, np.integer)) and args[2] == 0:
        raise RuntimeError("For 'range', the argument 'step' could not be 0.")
    out = builtins.range(*args)
    if len(out) and not -2 ** 63 <= out[-1] + out.step < 2 ** 63:
        raise ValueError("Integer overflow error occurred when traversing the range. Please check the inputs of range.")
    return out


def _enumerate(x, start=0):
    """``enumerate`` in a graph, as MindSpore's ``enumerate_``: a number to enumerate and a
    ``start`` that is not an int are TypeErrors (a bool ``start`` fails ``make_range``). MindSpore's
    messages come quoted (raised in its constant folding), and so do these."""
    if isinstance(x, (int, float, bool)):
        raise TypeError(f"'For 'enumerate', the 'first input' should be tuple or list or tensor, but got {type(x)}.'")
    if isinstance(start, bool):
        raise TypeError(f"For 'make_range', the 0th input should be a int scalar but got {_abstract_scalar(start)}")
    if not isinstance(start, (int, np.integer)):
        raise TypeError(f"'For 'enumerate', the 'start' should be a const int number, but got {start}.'")
    return builtins.enumerate(x, int(start))


_SCALAR_NAMES = ((bool, "Bool"), (np.bool_, "Bool"), (int, "Int"), (np.integer, "Int"), (float, "Float"),
                 (np.floating, "Float"))


def _len(obj):
    """``len`` in a graph, as MindSpore's ``obj.__len__()``: an object without one (a number,
    None) is an AttributeError naming MindSpore's type (``'Int' object has no attribute
    '__len__'``), a 0-D Tensor a TypeError."""
    if isinstance(obj, Tensor) and obj.ndim == 0:
        raise TypeError("Not support len of a 0-D tensor.")
    if not hasattr(type(obj), "__len__"):
        name = next((n for t, n in _SCALAR_NAMES if isinstance(obj, t)), type(obj).__name__)
        raise AttributeError(f"'{name}' object has no attribute '__len__'")
    return builtins.len(obj)


CHECKED = {id(builtins.range): _range, id(builtins.enumerate): _enumerate, id(builtins.len): _len}
