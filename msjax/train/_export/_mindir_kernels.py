"""MindIR op types as msjax ops: the table behind ``nn.GraphCell``'s interpreter.

A node of a MindSpore 2.10 MindIR file names its primitive (``REF::MatMul:4`` -> the
``PrimitiveProto`` ``MatMul:4`` of type ``MatMul``). Most primitives are
``PRIMITIVE_FUNCTION``s: every argument, the former constructor arguments included, is a
node input in the order of MindSpore's op definition (``MatMul(x, w, transpose_a,
transpose_b)``), which is also the order of the msjax function registered for that primitive
(``ops.MatMul``'s ``prim_matmul(input, mat2, transpose_a, transpose_b)``). A few keep the older
``PRIMITIVE`` form, with the constructor arguments as the primitive's attributes (``Conv2D``,
``MaxPool``, ``Pad``). Enumerations travel as integers (``data_format`` 0 = ``'NCHW'``,
``pad_mode`` 2 = ``'VALID'``, dtypes as MindSpore's TypeId numbers) and are mapped back here.

Each entry was checked against MindSpore 2.10's outputs (``tests/test_mindir_load.py``); an op
type missing here makes ``load`` raise, naming it.
"""
from __future__ import annotations

from ..._core.registry import OPS
from ..._core.tensor import Tensor, wrap
from ...common import dtype as mstype
from ... import ops
from ...ops._impl import matmul_onednn as _mm

__all__ = ["KERNELS", "MONAD", "PLUMBING", "STATIC_INPUTS", "WEAK_SCALAR_OPS"]


class _Monad:
    """MindSpore's U/IO monads (the ordering tokens of side effects): no value here."""

    def __repr__(self):
        return "U"


MONAD = _Monad()

# MindSpore's TypeId numbers (mindspore.ops._utils.arg_handler.dtype_to_type_id)
_TYPE_IDS = {30: mstype.bool_, 32: mstype.int8, 33: mstype.int16, 34: mstype.int32, 35: mstype.int64,
             37: mstype.uint8, 38: mstype.uint16, 39: mstype.uint32, 40: mstype.uint64, 42: mstype.float16,
             43: mstype.float32, 44: mstype.float64, 45: mstype.bfloat16, 51: mstype.complex64,
             52: mstype.complex128}
_FORMATS = {0: "NCHW", 1: "NHWC", 14: "NCDHW"}
_PAD_MODES = {0: "PAD", 1: "SAME", 2: "VALID"}


def _type_id(v):
    if v is None:
        return None
    if v not in _TYPE_IDS:
        raise ValueError(f"MindIR dtype id {v} has no msjax dtype")
    return _TYPE_IDS[v]


def _format(v):
    return _FORMATS[v] if isinstance(v, int) else v


def _pad_mode(v):
    return _PAD_MODES[v] if isinstance(v, int) else v


_FN = {d.primitive: d.fn for d in OPS.values() if d.primitive}


def _positional(fn, **convert):
    """A PRIMITIVE_FUNCTION: node inputs are ``fn``'s positional arguments; ``convert`` maps
    an argument position (``a2``) to the function turning MindIR's integer into msjax's value."""
    conv = {int(k[1:]): f for k, f in convert.items()}

    def run(args, attrs):
        return fn(*[conv[i](a) if i in conv else a for i, a in enumerate(args)])
    return run


def _prim(name, **convert):
    return _positional(_FN[name], **convert)


def _matmul(args, attrs):
    """``MatMul``: on the CPU a loaded graph's float32 product runs on oneDNN's matmul, as MindSpore's
    runtime runs it and as msjax's ``nn.Dense`` does (:mod:`msjax.ops._impl.matmul_onednn`), so a
    ``GraphCell`` gives the exported net's own values; otherwise (and for its errors) the primitive."""
    x, y, ta, tb = (list(args) + [False, False])[:4]
    a, b = getattr(x, "_data", x), getattr(y, "_data", y)
    ta, tb = bool(ta), bool(tb)
    if (hasattr(a, "ndim") and hasattr(b, "ndim") and _mm.usable(a, b)
            and a.shape[0 if ta else 1] == b.shape[1 if tb else 0]):
        return wrap(_mm.matmul(a, b, ta, tb))
    return _FN["MatMul"](*args)


_ENUMS = {"pad_mode": _pad_mode, "format": _format}


def _attrs(name, keys, renames=None):
    """A PRIMITIVE: tensors are inputs, the constructor arguments are the primitive's attributes
    (``pad_mode``/``format`` as MindSpore's enumeration numbers or as strings)."""
    fn, renames = _FN[name], renames or {}

    def run(args, attrs):
        kw = {renames.get(k, k): _ENUMS[k](attrs[k]) if k in _ENUMS else attrs[k] for k in keys if k in attrs}
        return fn(*args, **kw)
    return run


_PADV3_MODES = {0: "constant", 1: "reflect", 2: "replicate", 3: "circular"}
_ROUNDING = {None: None, 0: None, 1: "trunc", 2: "floor"}      # MindSpore's RoundingMode enum


def _pad_v3(args, attrs):
    x, paddings, value = (list(args) + [None])[:3]
    mode = attrs.get("mode", "constant")
    mode = _PADV3_MODES.get(mode, mode) if isinstance(mode, int) else {"edge": "replicate"}.get(mode, mode)
    if not attrs.get("paddings_contiguous", True):
        raise ValueError("PadV3 with paddings_contiguous=False is not supported by msjax")
    pads = tuple(int(p) for p in (paddings.asnumpy().ravel() if hasattr(paddings, "asnumpy") else paddings))
    if mode != "constant":
        return ops.pad(x, pads, mode=mode)
    if not isinstance(value, Tensor):
        return ops.pad(x, pads, value=0 if value is None else value)
    import jax.numpy as jnp      # a traced fill value: jnp.pad takes it as an array
    pairs = [(0, 0)] * (x.ndim - len(pads) // 2) + [(pads[i], pads[i + 1]) for i in range(len(pads) - 2, -1, -2)]
    return wrap(jnp.pad(x._data, pairs, constant_values=value._data.astype(x._data.dtype)))


def _resize_nearest_v2(args, attrs):
    """``ResizeNearestNeighborV2(x, size, align_corners, half_pixel_centers)`` on NCHW: each
    output pixel takes the input pixel its (scaled) coordinate falls in."""
    import numpy as np
    x, size, align, half = args
    size = tuple(int(s) for s in (size.asnumpy().ravel() if hasattr(size, "asnumpy") else size))
    for axis, out_n in zip((2, 3), size):
        in_n = x.shape[axis]
        i = np.arange(out_n, dtype=np.float64)
        if align and out_n > 1:
            src = np.round(i * (in_n - 1) / (out_n - 1))
        elif half:
            src = np.floor((i + 0.5) * in_n / out_n)
        else:
            src = np.floor(i * in_n / out_n)
        x = ops.gather(x, Tensor(np.minimum(src, in_n - 1).astype(np.int32)), axis)
    return x


def _div_mod(args, attrs):
    x, y, mode = args
    return ops.div(x, y, rounding_mode=_ROUNDING[mode] if isinstance(mode, int) or mode is None else mode)


def _stack(args, attrs):
    return _FN["Stack"](*args[0], axis=attrs["axis"])


def _sum_ext(args, attrs):
    x, dim, keepdim, dtype = args
    return ops.sum(x, dim, keepdim, dtype=_type_id(dtype))


# Side-effect plumbing: Load(param, U) reads a Parameter, UpdateState orders effects,
# Depend(value, state) is its value.
PLUMBING = {
    "Load": lambda args, attrs: args[0],
    "Depend": lambda args, attrs: args[0],
    "UpdateState": lambda args, attrs: MONAD,
    "MakeTuple": lambda args, attrs: tuple(args),
    "make_list": lambda args, attrs: list(args),        # a list built in construct (OpenPose's outputs)
    "TupleGetItem": lambda args, attrs: args[0][args[1]],
}

KERNELS = dict(PLUMBING)
KERNELS.update({
    # a Parameter the graph writes: the GraphCell's Parameter takes the value (ms.jit writes it back)
    "Assign": lambda args, attrs: ops.assign(args[0], args[1]),
    "Identity": lambda args, attrs: args[0],      # ops.deepcopy; msjax's writer's float16 rounding (_mindir_wide)
    # convolution, pooling, padding (PRIMITIVE form)
    "Conv2D": _attrs("Conv2D", ("out_channel", "kernel_size", "mode", "pad_mode", "pad", "stride", "dilation",
                                "group", "format"), {"format": "data_format"}),
    "MaxPool": _attrs("MaxPool", ("kernel_size", "strides", "pad_mode", "format"), {"format": "data_format"}),
    "Pad": _attrs("Pad", ("paddings",)),
    "AvgPool": _prim("AvgPool", a3=_pad_mode, a4=_format),
    "AdaptiveAvgPool2D": _attrs("AdaptiveAvgPool2D", ("output_size",)),
    "Conv2DTranspose": _attrs("Conv2DTranspose", ("out_channel", "kernel_size", "pad_mode", "pad", "pad_list", "mode",
                                                  "stride", "dilation", "group", "format"), {"format": "data_format"}),
    "ResizeNearestNeighbor": _prim("ResizeNearestNeighbor"),
    # dense algebra
    "MatMul": _matmul,
    "BatchMatMul": _prim("BatchMatMul"),
    "MatMulExt": _positional(ops.matmul),
    "BiasAdd": _prim("BiasAdd", a2=_format),
    # normalization, activations
    "BatchNorm": _prim("BatchNorm", a8=_format),
    "LayerNorm": _prim("LayerNorm"),
    "Softmax": _prim("Softmax"),
    "ReLU": _prim("ReLU"),
    "ReLU6": _prim("ReLU6"),
    "Sigmoid": _prim("Sigmoid"),
    "Tanh": _prim("Tanh"),
    "Erf": _prim("Erf"),
    "GeLU": _prim("GeLU"),
    "FastGeLU": _prim("FastGeLU"),
    "HSwish": _prim("HSwish"),
    "HSigmoid": _prim("HSigmoid"),
    "LogSoftmax": _prim("LogSoftmax"),
    # element-wise arithmetic
    "Add": _prim("Add"),
    "Sub": _prim("Sub"),
    "Mul": _prim("Mul"),
    "Div": _prim("Div"),
    "Muls": _positional(ops.mul),
    "Divs": _positional(ops.div),
    "Pow": _prim("Pow"),
    "Maximum": _prim("Maximum"),
    "Minimum": _prim("Minimum"),
    "Abs": _prim("Abs"),
    "Neg": _prim("Neg"),
    "Exp": _prim("Exp"),
    "Log": _prim("Log"),
    "Sqrt": _prim("Sqrt"),
    "Square": _prim("Square"),
    "Rsqrt": _prim("Rsqrt"),
    "Reciprocal": _prim("Reciprocal"),
    "Floor": _prim("Floor"),
    "Sin": _prim("Sin"),
    "Cos": _prim("Cos"),
    "Tan": _prim("Tan"),
    "Sinh": _prim("Sinh"),
    "Cosh": _prim("Cosh"),
    "ACos": _positional(ops.acos),
    "Asin": _prim("Asin"),
    "Atan": _prim("Atan"),
    "Atan2": _prim("Atan2"),
    "Acosh": _prim("Acosh"),
    "Asinh": _prim("Asinh"),
    "Atanh": _prim("Atanh"),
    "Erfc": _prim("Erfc"),
    "Expm1": _prim("Expm1"),
    "Log1p": _prim("Log1p"),
    "Sign": _prim("Sign"),
    "Ceil": _prim("Ceil"),
    "RealDiv": _prim("RealDiv"),
    "Cast": _prim("Cast", a1=_type_id),
    # comparisons and selection
    "Equal": _prim("Equal"),
    "Greater": _prim("Greater"),
    "GreaterEqual": _prim("GreaterEqual"),
    "Less": _prim("Less"),
    "LessEqual": _prim("LessEqual"),
    "NotEqual": _prim("NotEqual"),
    "LessScalar": _positional(ops.less),
    "LogicalAnd": _prim("LogicalAnd"),
    "LogicalOr": _prim("LogicalOr"),
    "LogicalNot": _prim("LogicalNot"),
    "IsFinite": _prim("IsFinite"),
    "Select": _prim("Select"),
    # reductions
    "ReduceMean": _prim("ReduceMean"),
    "ReduceMax": _prim("ReduceMax"),
    "ReduceSum": _prim("ReduceSum"),
    "ReduceMin": _prim("ReduceMin"),
    "ReduceProd": _prim("ReduceProd"),
    "CumSum": _prim("CumSum"),
    "Argmin": _prim("Argmin", a2=_type_id),
    "SumExt": _sum_ext,
    "ArgMaxWithValue": _prim("ArgMaxWithValue"),
    "Argmax": _prim("Argmax", a2=_type_id),
    # shapes and gathering
    "Reshape": _prim("Reshape"),
    "Flatten": _prim("Flatten"),
    "Transpose": _prim("Transpose"),
    "ExpandDims": _prim("ExpandDims"),
    "Squeeze": _prim("Squeeze"),
    "Concat": _prim("Concat"),
    "Split": _prim("Split"),
    "Gather": _prim("Gather"),
    "StridedSlice": _prim("StridedSlice"),
    "Slice": _prim("Slice"),
    "Tile": _prim("Tile"),
    "BroadcastTo": _prim("BroadcastTo"),
    "Stack": _stack,
    "OneHot": _prim("OneHot"),
    # layers of generators and super-resolution nets (issue 34)
    "DepthToSpace": _attrs("DepthToSpace", ("block_size",)),
    "SpaceToDepth": _attrs("SpaceToDepth", ("block_size",)),
    "ReverseV2": _prim("ReverseV2"),
    "PadV3": _pad_v3,
    "MirrorPad": _attrs("MirrorPad", ("mode",)),
    "LSTM": _attrs("LSTM", ("input_size", "hidden_size", "num_layers", "has_bias", "bidirectional", "dropout",
                            "proj_size")),
    "ResizeNearestNeighborV2": _resize_nearest_v2,
    "AvgPool3D": _attrs("AvgPool3D", ("kernel_size", "strides", "pad_mode", "pad", "ceil_mode", "count_include_pad",
                                      "divisor_override", "format"), {"format": "data_format"}),
    # integer division
    "FloorDiv": _prim("FloorDiv"),
    "FloorMod": _prim("FloorMod"),
    "TruncateDiv": lambda args, attrs: ops.div(*args, rounding_mode="trunc"),
    "TruncateMod": lambda args, attrs: ops.fmod(*args),
    "DivMod": _div_mod,
    "RemainderTensorScalar": lambda args, attrs: ops.remainder(*args),
    "RemainderTensorTensor": lambda args, attrs: ops.remainder(*args),
})

# op -> input positions that must be known when tracing (shapes, paddings): a constant tensor
# there is handed to the kernel as nested tuples rather than as a (traced) Tensor
STATIC_INPUTS = {"MirrorPad": (1,), "PadV3": (1,), "ResizeNearestNeighborV2": (1,)}

# element-wise ops whose 0-d constant operands MindSpore treats as scalars (the other operand's dtype)
# (arithmetic only: a comparison's recorded output is bool whatever its operands are)
WEAK_SCALAR_OPS = frozenset({"Add", "Sub", "Mul", "Div", "RealDiv", "Maximum", "Minimum", "Pow", "FloorDiv",
                             "FloorMod", "TruncateDiv", "TruncateMod", "Muls", "Divs"})
