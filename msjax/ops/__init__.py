"""``mindspore.ops``: the functional ops, the Primitive classes and the
higher-order functions (``GradOperation``, ``grad``...).

Names come from the one op registry (``msjax._core.registry``): each op's
function is exported here under its MindSpore name, and its Primitive class
(``ops.MatMul``...) is generated from the same entry.
"""
from __future__ import annotations

from .._core.registry import OPS as _OPS, Primitive, primitive_class as _primitive_class
from . import _impl  # noqa: F401  (fills the registry)

for _name, _d in _OPS.items():
    if not _name.startswith("tensor_"):
        globals()[_name] = _d.fn
    if _d.primitive:
        globals()[_d.primitive] = _primitive_class(_d)

from ._impl.summary import HistogramSummary, ImageSummary, ScalarSummary, TensorSummary  # noqa: E402,F401
from ._impl.tensor_to_tuple import TensorToTuple  # noqa: E402,F401
from ._impl.dynamic_shape import is_sequence_shape_unknown, is_sequence_value_unknown  # noqa: E402,F401
from ._impl.tensor_dump import DumpGradient, TensorDump  # noqa: E402,F401
from ._impl.composite import PrimitiveWithCheck, PrimitiveWithInfer, prim_arg_register, prim_attr_register  # noqa: E402,F401,E501  (Primitives written in Python)
from .._core.grad import GradOperation, get_grad, grad, value_and_grad  # noqa: E402
from .._core.autodiff import derivative, jacfwd, jacrev, jvp, linearize, vjp  # noqa: E402
from . import functional, operations, composite  # noqa: E402,F401
from . import auto_generate  # noqa: E402,F401  (the registry under MindSpore's generated-op module names)

__all__ = sorted(n for n in globals() if not n.startswith("_"))
from ._impl.math import tensor_add, tensor_div, tensor_floordiv, tensor_mul, tensor_pow, tensor_sub  # noqa: E402,F401,E501  (MindSpore functional names starting with tensor_)
from ._impl.linalg import tensor_dot  # noqa: E402,F401
from ._impl.array import tensor_split  # noqa: E402,F401,E501  (functional names starting with tensor_)
from ._impl.indexing import tensor_scatter_add, tensor_scatter_elements, tensor_scatter_update  # noqa: E402,F401,E501  (functional names starting with tensor_)
from ._impl.indexing import tensor_scatter_div, tensor_scatter_max, tensor_scatter_min, tensor_scatter_mul, tensor_scatter_sub  # noqa: E402,F401,E501
from .op_info_register import (AiCPURegOp, AkgAscendRegOp, AkgGpuRegOp, CpuRegOp, CustomRegOp, DataType,  # noqa: E402,F401,E501  (kernel registration info; ops.op_info_register is the decorator, as in MindSpore)
                               TBERegOp, custom_info_register, op_info_register)
