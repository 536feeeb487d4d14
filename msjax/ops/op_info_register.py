"""``mindspore.ops.op_info_register``: the builders of kernel registration info.

MindSpore registers device kernels (Ascend TBE and AiCPU, AKG, CPU, ``ops.Custom``)
with a description of their inputs, outputs, attributes and supported
(dtype, format) pairs. The builders here (``TBERegOp``, ``AiCPURegOp``,
``CpuRegOp``, ``Akg*RegOp``, ``CustomRegOp``) and ``DataType`` record that
description exactly as MindSpore 2.10 does: the same checks and errors, and
``get_op_info()`` returns the same dict. ``custom_info_register`` attaches the
info to a function, as in MindSpore.

What cannot exist on XLA is the kernel itself: ``op_info_register`` applied to a
function (registering a TBE/AiCPU/AKG/CPU kernel into MindSpore's op library)
raises ``NotImplementedError`` naming the kernel, as ``ops.Custom`` does for
every ``func_type`` other than ``'pyfunc'``.
"""
from __future__ import annotations

import functools
import inspect  # noqa: F401  (MindSpore's module namespace)
import json
import os  # noqa: F401  (MindSpore's module namespace)

__all__ = ["op_info_register", "custom_info_register", "RegOp", "CpuRegOp", "AkgRegOp", "AkgGpuRegOp",
           "AkgAscendRegOp", "AkgCpuRegOp", "AiCPURegOp", "TBERegOp", "CustomRegOp", "DataType"]

# where MindSpore keeps its built-in registrations (paths inside the wheel)
BUILT_IN_OPS_REGISTER_PATH = "mindspore/ops/_op_impl"
BUILT_IN_CUSTOM_OPS_REGISTER_PATH = "mindspore/ops/_op_impl/_custom_op"
KEY_NAME = "name"
ASCEND_CUSTOM_OPP_PATH = "ASCEND_CUSTOM_OPP_PATH"


def op_info_register(op_info):
    """Decorator registering a device kernel described by ``op_info`` (a JSON string
    or a dict). msjax compiles every op with XLA and has no kernel library to add
    to: applying the decorator raises ``NotImplementedError``."""
    def register_decorator(func):
        from .. import _checkparam as validator
        text = json.dumps(op_info) if isinstance(op_info, dict) else op_info
        validator.check_value_type("op_info", text, [str])
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = {}
        name = parsed.get("op_name", getattr(func, "__name__", "?")) if isinstance(parsed, dict) else "?"
        kind = parsed.get("imply_type", "device") if isinstance(parsed, dict) else "device"
        raise NotImplementedError(
            f"op_info_register: msjax cannot register the {kind} kernel '{name}' "
            f"({getattr(func, '__name__', func)}): MindSpore's {kind} kernels are Ascend/device code "
            "that XLA cannot run. Write the op with msjax ops, or use ops.Custom(func_type='pyfunc').")
    return register_decorator


def custom_info_register(*reg_info):
    """Decorator binding registration info to a function for ``ops.Custom``: the
    function gets ``reg_info`` (the tuple given) and is returned wrapped."""
    def decorator(func):
        func.reg_info = reg_info

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        return wrapper
    return decorator


# get_op_info: keys ending in '_' lose it; a few are renamed to MindSpore's camelCase
_INFO_KEYS = {"dynamic_shape_support": "dynamicShapeSupport", "dynamic_rank_support": "dynamicRankSupport",
              "dynamic_compile_static": "dynamicCompileStatic", "need_check_support": "needCheckSupport",
              "dynamic_format": "dynamicFormat"}


class RegOp:
    """Base of the registration-info builders (``op_name``, inputs, outputs,
    attributes, fusion type, (dtype, format) rows). Every setter returns ``self``."""

    def __init__(self, op_name=""):
        if not isinstance(op_name, str):
            raise ValueError("op name value must be string")
        if not op_name.strip():
            raise ValueError("op name is empty")
        self.op_name = op_name
        self.inputs = []
        self.outputs = []
        self.attr_ = []
        self.fusion_type_ = ""
        self.dtype_format_ = []

    # -- checks (MindSpore's messages) -------------------------------------------------
    @staticmethod
    def _require(value, kind, name):
        if not isinstance(value, kind):
            raise TypeError(f"{value} value must be {name}")
        return True

    def _is_string(self, value):
        return self._require(value, str, "str")

    def _is_int(self, value):
        return self._require(value, int, "int")

    def _is_bool(self, value):
        return self._require(value, bool, "bool")

    @staticmethod
    def _is_list(value):
        return RegOp._require(value, list, "list")

    def _check_param(self, param_list, key_list, fn_list, kwargs):
        """The dict of the given (non-None) values under ``key_list``'s keys, each
        checked by its function (one function checks them all), plus ``kwargs``."""
        for seq in (param_list, key_list, fn_list):
            if not isinstance(seq, list):
                raise TypeError(f"{seq} value must be list type")
        if len(param_list) != len(key_list) or len(fn_list) not in (1, len(param_list)):
            raise ValueError(f"param_list size {len(param_list)}, key_list size {len(key_list)}, must be equal.And "
                             f"fn_list size {len(fn_list)}.")
        out = {}
        for i, (value, key) in enumerate(zip(param_list, key_list)):
            if value is None:
                continue
            (fn_list[0] if len(fn_list) == 1 else fn_list[i])(value)
            out[key] = value
        out.update(kwargs)
        return out

    def _add_io(self, where, values, keys, checks, kwargs):
        where.append(self._check_param(list(values), list(keys), list(checks), kwargs))
        return self

    def _add_attr(self, values, keys, kwargs):
        self.attr_.append(self._check_param(list(values), list(keys), [self._is_string], kwargs))
        return self

    # -- common setters -----------------------------------------------------------------
    def fusion_type(self, fusion_type):
        """The fusion type of the operator (a str)."""
        self._is_string(fusion_type)
        self.fusion_type_ = fusion_type
        return self

    def dtype_format(self, *args):
        """One supported row: a (dtype, format[, object type]) pair per input and output."""
        if len(args) != len(self.inputs) + len(self.outputs):
            raise ValueError("input size add output size must be equal to dtype format size")
        row = []
        for pair in args:
            if not isinstance(pair, tuple) or len(pair) not in (2, 3):
                raise ValueError("dtype and format value must be tuple of two or three elements")
            for part in pair:
                self._is_string(part)
            row.append(pair)
        self.dtype_format_.append(tuple(row))
        return self

    def get_op_info(self):
        """The registration info as a dict (MindSpore's keys)."""
        info = {}
        for key, value in vars(self).items():
            if key.endswith("_"):
                key = key.rstrip("_")
                key = _INFO_KEYS.get(key, key)
            info[key] = value
        return info


_IO_KEYS = ("index", "name", "paramType")


class CpuRegOp(RegOp):
    """Registration info of a CPU kernel."""

    def __init__(self, op_name):
        super().__init__(op_name)
        self.imply_type = "CPU"

    def input(self, index=None, name=None, param_type=None, **kwargs):
        """Add an input (index, name, param type)."""
        return self._add_io(self.inputs, (index, name, param_type), _IO_KEYS,
                            (self._is_int, self._is_string, self._is_string), kwargs)

    def output(self, index=None, name=None, param_type=None, **kwargs):
        """Add an output (index, name, param type)."""
        return self._add_io(self.outputs, (index, name, param_type), _IO_KEYS,
                            (self._is_int, self._is_string, self._is_string), kwargs)

    def attr(self, name=None, value_type=None, value=None, **kwargs):
        """Add an attribute (name, value type, value)."""
        return self._add_attr((name, value_type, value), ("name", "type", "value"), kwargs)


class AiCPURegOp(CpuRegOp):
    """Registration info of an Ascend AiCPU kernel."""

    def __init__(self, op_name):
        super().__init__(op_name)
        self.imply_type = "AiCPU"


class AkgRegOp(RegOp):
    """Registration info of an AKG kernel on ``processor``."""

    def __init__(self, op_name, processor):
        super().__init__(op_name)
        self.imply_type = "AKG"
        self.processor = processor

    def input(self, index=None, name=None, param_type=None, **kwargs):
        """Add an input (index, name, param type)."""
        return self._add_io(self.inputs, (index, name, param_type), _IO_KEYS,
                            (self._is_int, self._is_string, self._is_string), kwargs)

    def output(self, index=None, name=None, **kwargs):
        """Add an output (index, name)."""
        return self._add_io(self.outputs, (index, name), ("index", "name"), (self._is_int, self._is_string), kwargs)

    def attr(self, name=None, param_type=None, value_type=None, **kwargs):
        """Add an attribute (name, param type, value type)."""
        return self._add_attr((name, param_type, value_type), ("name", "paramType", "type"), kwargs)


class AkgGpuRegOp(AkgRegOp):
    """AKG kernel info for CUDA."""

    def __init__(self, op_name):
        super().__init__(op_name, "CUDA")


class AkgAscendRegOp(AkgRegOp):
    """AKG kernel info for the Ascend AI core."""

    def __init__(self, op_name):
        super().__init__(op_name, "AiCore")


class AkgCpuRegOp(AkgRegOp):
    """AKG kernel info for CPU."""

    def __init__(self, op_name):
        super().__init__(op_name, "CPU")


def _flag(attr, check="_is_bool", *default):
    """A setter of the TBE builder storing its (checked) argument in ``attr``; the
    argument is optional when a default is given."""
    def store(self, value):
        getattr(self, check)(value)
        setattr(self, attr, value)
        return self

    if default:
        def setter(self, value=default[0]):
            return store(self, value)
    else:
        def setter(self, value):
            return store(self, value)
    setter.__doc__ = f"Set ``{attr.rstrip('_')}``."
    return setter


class TBERegOp(RegOp):
    """Registration info of an Ascend TBE (Tensor Boost Engine) kernel."""

    def __init__(self, op_name):
        super().__init__(op_name)
        self.imply_type = "TBE"
        self.async_flag_ = False
        self.binfile_ = ""
        self.compute_cost_ = 10
        self.kernel_ = ""
        self.partial_flag_ = False
        self.reshape_type_ = ""
        self.dynamic_rank_support_ = False
        self.dynamic_shape_support_ = False
        self.dynamic_compile_static_ = False
        self.need_check_support_ = False
        self.dynamic_format_ = False
        self.op_pattern_ = ""
        self.real_input_index_ = []
        self.input_to_attr_index_ = []
        self.unknown_shape_formats_ = []

    async_flag = _flag("async_flag_", "_is_bool", False)
    binfile_name = _flag("binfile_", "_is_string")
    compute_cost = _flag("compute_cost_", "_is_int", 10)
    kernel_name = _flag("kernel_", "_is_string")
    partial_flag = _flag("partial_flag_", "_is_bool", True)
    reshape_type = _flag("reshape_type_", "_is_string")
    dynamic_shape = _flag("dynamic_shape_support_", "_is_bool", False)
    dynamic_rank_support = _flag("dynamic_rank_support_")
    dynamic_compile_static = _flag("dynamic_compile_static_", "_is_bool", False)
    need_check_supported = _flag("need_check_support_", "_is_bool", False)
    is_dynamic_format = _flag("dynamic_format_", "_is_bool", False)
    real_input_index = _flag("real_input_index_", "_is_list")
    input_to_attr_index = _flag("input_to_attr_index_", "_is_list")

    def unknown_shape_formats(self, unknown_shape_formats):
        """Add the formats of inputs/outputs for dynamic shapes (a list)."""
        self._is_list(unknown_shape_formats)
        self.unknown_shape_formats_.append(unknown_shape_formats)
        return self

    def op_pattern(self, pattern=None):
        """The behaviour type ("broadcast", "reduce", ...); ``None`` leaves it."""
        if pattern is not None and self._is_string(pattern):
            self.op_pattern_ = pattern
        return self

    def attr(self, name=None, param_type=None, value_type=None, value=None, default_value=None, **kwargs):
        """Add an attribute (name, param type, value type, value, default value)."""
        return self._add_attr((name, param_type, value_type, value, default_value),
                              ("name", "paramType", "type", "value", "defaultValue"), kwargs)

    def input(self, index=None, name=None, need_compile=None, param_type=None, shape=None, value_depend=None,
              **kwargs):
        """Add an input; ``value_depend`` is one of 'ignored', 'optional', 'required'."""
        allowed = ("ignored", "optional", "required")
        entry = self._check_param([index, name, need_compile, param_type, shape, value_depend],
                                  ["index", "name", "needCompile", "paramType", "shape", "valueDepend"],
                                  [self._is_int, self._is_string, self._is_bool, self._is_string, self._is_string,
                                   self._is_string], kwargs)
        if value_depend and value_depend.lower() not in allowed:
            raise ValueError(f"Operator {self.op_name} input{index}'s value_depend's value ({value_depend}) is not "
                             f"in {allowed}.")
        self.inputs.append(entry)
        return self

    def output(self, index=None, name=None, need_compile=None, param_type=None, shape=None, **kwargs):
        """Add an output (index, name, need_compile, param type, shape)."""
        return self._add_io(self.outputs, (index, name, need_compile, param_type, shape),
                            ("index", "name", "need_compile", "paramType", "shape"),
                            (self._is_int, self._is_string, self._is_bool, self._is_string, self._is_string), kwargs)


class CustomRegOp(RegOp):
    """Registration info for the ``func`` of ``ops.Custom``."""

    def __init__(self, op_name="Custom"):
        super().__init__(op_name)
        self.target_ = "UnKnown"

    def input(self, index=None, name=None, param_type="required", **kwargs):
        """Add an input (index, name, 'required'/'dynamic'/'optional')."""
        return self._add_io(self.inputs, (index, name, param_type), _IO_KEYS,
                            (self._is_int, self._is_string, self._is_string), kwargs)

    def output(self, index=None, name=None, param_type="required", **kwargs):
        """Add an output (index, name, 'required'/'dynamic'/'optional')."""
        return self._add_io(self.outputs, (index, name, param_type), _IO_KEYS,
                            (self._is_int, self._is_string, self._is_string), kwargs)

    def dtype_format(self, *args):
        """One supported row of (dtype, format) pairs, one per input and output."""
        expected = len(self.inputs) + len(self.outputs)
        if len(args) != expected:
            raise ValueError("The size of 'args' must be equal to the sum of input tensors and output tensors, but "
                             f"got {len(args)} vs {expected}")
        return super().dtype_format(*args)

    def attr(self, name=None, param_type=None, value_type=None, default_value=None, **kwargs):
        """Add an attribute (name, param type, value type, default value)."""
        return self._add_attr((name, param_type, value_type, default_value),
                              ("name", "paramType", "type", "defaultValue"), kwargs)

    def target(self, target=None):
        """The device target this info is for ("Ascend", "GPU", "CPU"; None: inferred)."""
        if target is not None:
            self._is_string(target)
        self.target_ = target
        return self

    def get_op_info(self):
        """The registration info as a dict (trailing '_' dropped from the keys)."""
        return {(k.rstrip("_") if k.endswith("_") else k): v for k, v in vars(self).items()}


# DataType: (dtype, format[, object type]) pairs, named <DTYPE>_<FORMAT>. Every dtype has
# the common formats; some have more; complex types only the default format.
_FORMATS = {"None": ("",), "Default": ("DefaultFormat",), "5HD": ("NC1HWC0",), "FracZ": ("FRACTAL_Z",),
            "FracNZ": ("FRACTAL_NZ",), "C1HWNCoC0": ("C1HWNCoC0",), "NCHW": ("NCHW",), "NHWC": ("NHWC",),
            "HWCN": ("HWCN",), "NDHWC": ("NDHWC",), "NCDHW": ("NCDHW",), "DHWCN": ("DHWCN",),
            "NDC1HWC0": ("NDC1HWC0",), "NC1HWC0": ("NC1HWC0",), "FRACTAL_Z_3D": ("FRACTAL_Z_3D",),
            "FracZNLSTM": ("FRACTAL_ZN_LSTM",), "FracZNRNN": ("FRACTAL_ZN_RNN",), "ND_RNNBIAS": ("ND_RNN_BIAS",),
            "ChannelLast": ("ChannelLast",), "Default_Tuple": ("DefaultFormat", "tuple"),
            "Default_List": ("DefaultFormat", "list")}
_COMMON = ("None", "Default", "5HD", "FracZ", "FracNZ", "C1HWNCoC0", "NCHW", "NHWC", "HWCN", "NDHWC", "ChannelLast",
           "Default_Tuple", "Default_List")
_FLOAT_EXTRA = ("NCDHW", "DHWCN", "NDC1HWC0", "FRACTAL_Z_3D", "FracZNLSTM", "FracZNRNN", "ND_RNNBIAS")
_DTYPES = [("BOOL", "bool", _COMMON), ("I8", "int8", _COMMON + ("NCDHW", "NDC1HWC0", "NC1HWC0")),
           ("U8", "uint8", _COMMON + ("NCDHW", "NDC1HWC0", "NC1HWC0")), ("I16", "int16", _COMMON),
           ("U16", "uint16", _COMMON), ("I32", "int32", _COMMON + ("NDC1HWC0", "NCDHW")), ("U32", "uint32", _COMMON),
           ("I64", "int64", _COMMON), ("U64", "uint64", _COMMON), ("F16", "float16", _COMMON + _FLOAT_EXTRA),
           ("F32", "float32", _COMMON + _FLOAT_EXTRA), ("F64", "float64", _COMMON),
           ("BF16", "bfloat16", _COMMON + _FLOAT_EXTRA), ("C64", "complex64", ("Default", "Default_Tuple")),
           ("C128", "complex128", ("Default", "Default_Tuple")), ("None", "", ("None", "Default"))]


class DataType:
    """Named (dtype, format) pairs for ``dtype_format``: ``DataType.F32_Default`` is
    ``("float32", "DefaultFormat")``, ``DataType.F16_5HD`` is ``("float16", "NC1HWC0")``."""


for _prefix, _dtype, _suffixes in _DTYPES:
    for _suffix in _suffixes:
        setattr(DataType, f"{_prefix}_{_suffix}", (_dtype,) + _FORMATS[_suffix])
del _prefix, _dtype, _suffixes, _suffix
