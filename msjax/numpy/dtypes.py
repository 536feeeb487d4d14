"""``mindspore.numpy.dtypes``: MindSpore's dtypes under NumPy's names, with 32-bit
defaults (``int_`` is Int32, ``float_`` is Float32, ``uint`` is UInt32), and the constants."""
from __future__ import absolute_import

from .._core.dtype import (bool_, float16, float32, float64, int8, int16, int32, int64,  # noqa: F401
                           uint8, uint16, uint32, uint64)

inf = float("inf")
PINF = float("inf")
NINF = float("-inf")
nan = float("nan")
pi = 3.141592653589793

int_ = int32
uint = uint32
float_ = float32

numeric_types = ["int_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float_", "float16", "float32", "float64", "bool_"]

dtype_tuple = (int_, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float_, float16,
               float32, float64, bool_)

dtype_map = {"int": int_, "int8": int8, "int16": int16, "int32": int32, "int64": int64, "uint": uint,
             "uint8": uint8, "uint16": uint16, "uint32": uint32, "uint64": uint64, "float": float_,
             "float16": float16, "float32": float32, "float64": float64, "bool": bool_}
