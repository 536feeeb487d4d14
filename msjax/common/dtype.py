"""``mindspore.dtype`` / ``mindspore.common.dtype``: MindSpore's dtype objects."""
from .._core.dtype import *  # noqa: F401,F403
from .._core.dtype import (ALIASES as _ALIASES, DTYPES as _DTYPES, Type, all_types, bfloat16, bool_,  # noqa: F401
                          complex64, complex128, float_, int_, uint, number, dtype_to_nptype, dtype_to_pytype, float16, float32,
                          float64, float_type, int8, int16, int32, int64, int_type, number_type,
                          pytype_to_dtype, uint8, uint16, uint32, uint64, uint_type,
                           string, tuple_, list_, type_none, float8_e4m3fn, float8_e5m2, Int, TensorType)

globals().update(_ALIASES)
tensor_type = "Tensor"
