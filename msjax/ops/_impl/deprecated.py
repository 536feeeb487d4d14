"""Primitives MindSpore 2.10 keeps only as deprecated names (``mindspore/ops/deprecated.py``,
``ops.operations.manually_defined._inner``) that model-zoo code still calls: ``Gelu``,
``TensorAdd``, ``ScalarCast``, ``ScalarToArray``. MindSpore prints a deprecation warning when one is built;
msjax does not."""
from __future__ import annotations

import numbers

import numpy as np

from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import Tensor
from .activation import prim_gelu
from .creation import scalar_to_array
from .math import add


@op("prim_deprecated_gelu", primitive="Gelu", family="nn")
def gelu(x):
    """``ops.Gelu()(x)``: the old name of ``ops.GeLU()`` (the tanh approximation)."""
    return prim_gelu(x)


@op("prim_tensor_add", primitive="TensorAdd", family="math")
def tensor_add(x, y):
    """``ops.TensorAdd()(x, y)``: the old name of ``ops.Add()``."""
    return add(x, y)


_SCALAR_CAST = {"Int64": np.int64, "Float64": np.float64, "Bool": np.bool_, "Float32": np.float32}


@op("prim_scalar_cast", primitive="ScalarCast", family="array")
def scalar_cast(input_x, input_y):
    """``ops.ScalarCast()(x, dtype)``: the Python number ``x`` cast to ``dtype`` (a Python number).

    MindSpore 2.10 accepts ``int64``, ``float64`` and ``bool``, and in graph mode also ``float32``
    (the float32 value, widened back to a Python float); other types raise ``ValueError`` there and here."""
    if isinstance(input_x, Tensor) or not isinstance(input_x, (bool, numbers.Number)):
        raise TypeError(f"For 'ScalarCast', the type of 'x' should be one of '['bool', 'Number']', but got type "
                        f"'{type(input_x).__name__}'.")
    name = str(input_y) if isinstance(input_y, mstype.Type) else None
    if name not in _SCALAR_CAST:
        raise ValueError(f"For 'ScalarCast', the supported type is in the list: [mindspore.int64, "
                         f"mindspore.float64, mindspore.bool], but got {input_y}")
    return _SCALAR_CAST[name](input_x).item()


@op("prim_scalar_to_array", primitive="ScalarToArray", family="array")
def scalar_to_array_prim(input_x):
    """``ops.ScalarToArray()(x)``: the old name of ``ops.scalar_to_array`` (a 0-D Tensor of the number).
    MindSpore 2.10's PyNative mode cannot run it (no infer function); its graph mode can."""
    return scalar_to_array(input_x)
