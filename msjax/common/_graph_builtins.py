"""Python builtins called in a compiled function, with the argument checks MindSpore's graph
compiler makes where Python itself would accept the call:

* ``range(...)``: MindSpore's ``make_range`` takes int scalars only; a Tensor (even a constant
  one made in the graph, which Python's ``range`` would read through ``__index__``) or a float
  is a TypeError (``For 'make_range', the 0th input should be a int scalar but got ...``).
  MindSpore names the argument by its abstract value (``AbstractTensor(shape: (), ...)``);
  msjax names its type and value.

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


def _range(*args, **kwargs):
    """``range`` in a graph: no argument a Tensor or a float, as MindSpore's ``make_range``; what
    JIT Fallback runs in Python (a NumPy integer, ``x.asnumpy()`` of an integer Tensor) is
    Python's ``range``."""
    for i, a in enumerate(args):
        if isinstance(a, (Tensor, float, np.floating)):
            raise TypeError(f"For 'make_range', the {i}th input should be a int scalar but got {_described(a)}")
    return builtins.range(*args, **kwargs)


CHECKED = {id(builtins.range): _range}
