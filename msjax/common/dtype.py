"""``mindspore.dtype`` / ``mindspore.common.dtype``: MindSpore's dtype objects."""
from .._core.dtype import *  # noqa: F401,F403
from .._core.dtype import (ALIASES as _ALIASES, DTYPES as _DTYPES, Type, all_types, bfloat16, bool_,  # noqa: F401
                          complex64, complex128, float_, int_, uint, number, dtype_to_nptype, dtype_to_pytype, float16, float32,
                          float64, float_type, int8, int16, int32, int64, int_type, number_type,
                          pytype_to_dtype, uint8, uint16, uint32, uint64, uint_type,
                           string, tuple_, list_, type_none, float8_e4m3fn, float8_e5m2, Int, TensorType)

globals().update(_ALIASES)
tensor_type = "Tensor"


def _quant_dtype():
    import enum
    members = [(f"INT{i}", i - 1) for i in range(1, 17)] + [(f"UINT{i}", 99 + i) for i in range(1, 17)]
    cls = enum.Enum("QuantDtype", members, module=__name__)
    cls.__doc__ = "``mindspore.QuantDtype``: quantization data types INT1..INT16 (0..15), UINT1..UINT16 (100..115)."
    cls.__str__ = lambda self: self.name

    def value(self):
        """The member's int (MindSpore's ``QuantDtype.value()`` is a method)."""
        return self._value_
    cls.value = value
    return cls


QuantDtype = _quant_dtype()
