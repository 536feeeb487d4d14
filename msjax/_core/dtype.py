"""MindSpore's dtype objects (``mindspore.float32`` ...) mapped onto numpy/JAX dtypes.

``str(ms.float32)`` is ``Float32`` and ``repr`` is ``mindspore.float32``, as in
MindSpore 2.x. Each dtype object knows its numpy dtype (``.np``); JAX runs with
``jax_enable_x64`` so Int64/Float64 keep their width, as MindSpore does.
"""
from __future__ import annotations

import numpy as np
import ml_dtypes

__all__ = ["Type", "to_np", "from_np", "get_dtype", "is_float", "DTYPES"]


class Type:
    """One MindSpore dtype. Instances are singletons; compare with ``==`` or ``is``."""

    __slots__ = ("name", "np", "attr", "kind")

    def __init__(self, name, np_dtype, attr, kind):
        self.name = name          # MindSpore's display name, e.g. 'Float32'
        self.np = np.dtype(np_dtype) if np_dtype is not None else None
        self.attr = attr          # canonical attribute name, e.g. 'float32'
        self.kind = kind          # 'float', 'int', 'uint', 'bool', 'complex'

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"mindspore.{self.attr}"

    def __eq__(self, other):
        if isinstance(other, Type):
            return self is other
        return NotImplemented

    def __hash__(self):
        return hash(("msjax.dtype", self.attr))

    def __reduce__(self):
        return (get_dtype, (self.attr,))


bool_ = Type("Bool", np.bool_, "bool", "bool")
int8 = Type("Int8", np.int8, "int8", "int")
int16 = Type("Int16", np.int16, "int16", "int")
int32 = Type("Int32", np.int32, "int32", "int")
int64 = Type("Int64", np.int64, "int64", "int")
uint8 = Type("UInt8", np.uint8, "uint8", "uint")
uint16 = Type("UInt16", np.uint16, "uint16", "uint")
uint32 = Type("UInt32", np.uint32, "uint32", "uint")
uint64 = Type("UInt64", np.uint64, "uint64", "uint")
float16 = Type("Float16", np.float16, "float16", "float")
float32 = Type("Float32", np.float32, "float32", "float")
float64 = Type("Float64", np.float64, "float64", "float")
bfloat16 = Type("BFloat16", ml_dtypes.bfloat16, "bfloat16", "float")
complex64 = Type("Complex64", np.complex64, "complex64", "complex")
complex128 = Type("Complex128", np.complex128, "complex128", "complex")

# MindSpore's abstract number types (``mindspore.float_`` prints ``Float``).
float_ = Type("Float", None, "float_", "float")
int_ = Type("Int", None, "int_", "int")
uint = Type("UInt", None, "uint", "uint")
number = Type("Number", None, "number", "number")

# Non-number types MindSpore exposes at the top level (graph-mode type annotations).
string = Type("String", None, "string_", "string")
tuple_ = Type("Tuple", None, "tuple_", "tuple")
list_ = Type("List", None, "list_", "list")
type_none = Type("None", None, "type_none", "none")

# 8-bit floats (ml_dtypes/JAX support them; kept out of DTYPES, which lists the
# types every op is checked with).
float8_e4m3fn = Type("Float8E4M3FN", ml_dtypes.float8_e4m3fn, "float8_e4m3fn", "float")
float8_e5m2 = Type("Float8E5M2", ml_dtypes.float8_e5m2, "float8_e5m2", "float")

DTYPES = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
          float16, float32, float64, bfloat16, complex64, complex128)

# MindSpore's aliases (mindspore.half, mindspore.double, ...).
ALIASES = {
    "bool": bool_, "byte": int8, "short": int16, "int": int32, "intc": int32,
    "long": int64, "intp": int64, "ubyte": uint8, "ushort": uint16, "uintc": uint32,
    "uintp": uint64, "half": float16, "float": float32, "single": float32,
    "double": float64, "cfloat": complex64, "cdouble": complex128,
}

_BY_NP = {t.np: t for t in DTYPES + (float8_e4m3fn, float8_e5m2)}
_BY_NAME = {t.attr: t for t in DTYPES}
_BY_NAME.update({"bool_": bool_, "float_": float_, "int_": int_, "uint": uint, "number": number})
_BY_NAME.update(ALIASES)
_BY_NAME.update({t.name: t for t in DTYPES})
_BY_NAME.update({t.attr: t for t in (string, tuple_, list_, type_none, float8_e4m3fn, float8_e5m2)})
_BY_NAME["string"] = string


class _IntMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Type) and obj.kind == "int"


class Int(metaclass=_IntMeta):
    """``mindspore.Int``: ``Int(32)`` is ``mindspore.int32``; ``Int()`` the abstract ``int_``.
    ``isinstance(mindspore.int8, mindspore.Int)`` holds."""

    def __new__(cls, nbits=None):
        if nbits is None:
            return int_
        if nbits not in (8, 16, 32, 64):
            raise RuntimeError(f"For Int type only support number of 8bits, 16bits, 32bits and 64bits, "
                               f"but got {nbits}bits")
        return _BY_NAME[f"int{nbits}"]


class TensorType:
    """``mindspore.TensorType``: the type of a Tensor with a given element type."""

    def __init__(self, element_type):
        self._element = to_ms(element_type)

    def element_type(self):
        return self._element

    def __str__(self):
        return f"Tensor[{self._element}]"

    def __repr__(self):
        return f"mindspore.tensor[{self._element.attr}]"

    def __eq__(self, other):
        return isinstance(other, TensorType) and other._element is self._element

    def __hash__(self):
        return hash(("msjax.TensorType", self._element.attr))


def get_dtype(name: str) -> Type:
    return _BY_NAME[name]


def from_np(np_dtype) -> Type:
    """The MindSpore dtype of a numpy/JAX dtype."""
    try:
        return _BY_NP[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"For 'Tensor', the dtype {np_dtype} is not supported.") from None


def to_np(dtype) -> np.dtype:
    """numpy dtype of a MindSpore dtype, numpy dtype, Python type or name."""
    if isinstance(dtype, Type):
        if dtype.np is None:
            raise TypeError(f"The abstract type {dtype} has no concrete dtype; use e.g. mindspore.float32.")
        return dtype.np
    if dtype is bool:
        return np.dtype(np.bool_)
    if dtype is int:
        return np.dtype(np.int64)
    if dtype is float:
        return np.dtype(np.float32)
    if isinstance(dtype, str) and dtype in _BY_NAME:
        return _BY_NAME[dtype].np
    try:
        return np.dtype(dtype)
    except TypeError:
        raise TypeError(f"The dtype {dtype!r} is not a MindSpore dtype.") from None


def to_ms(dtype) -> Type:
    """MindSpore dtype object of any dtype-like value."""
    return dtype if isinstance(dtype, Type) else from_np(to_np(dtype))


def is_float(dtype) -> bool:
    return to_ms(dtype).kind == "float"


# Helpers MindSpore exposes in mindspore.common.dtype.
def dtype_to_nptype(type_):
    return to_np(type_).type


def pytype_to_dtype(obj):
    if isinstance(obj, np.dtype):
        return from_np(obj)
    return {bool: bool_, int: int64, float: float64}.get(obj) or from_np(obj)


def dtype_to_pytype(type_):
    kind = to_ms(type_).kind
    return {"bool": bool, "int": int, "uint": int, "float": float, "complex": complex}[kind]


float_type = (float16, float32, float64, bfloat16)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
number_type = int_type + uint_type + float_type + (complex64, complex128)
all_types = (bool_,) + number_type
