"""``mindspore.ops.functional``: the functional op namespace (same objects as ``ops``)."""
from .._core.registry import OPS as _OPS
from .._core.grad import grad, value_and_grad  # noqa: F401

for _name, _d in _OPS.items():
    if not _name.startswith("tensor_"):
        globals()[_name] = _d.fn
from ._impl.scalar import (bool_and, bool_eq, bool_not, bool_or, list_getitem, make_tuple, scalar_add, scalar_cast,  # noqa: F401,E402
                           scalar_div, scalar_eq, scalar_floordiv, scalar_ge, scalar_gt, scalar_le, scalar_log,
                           scalar_lt, scalar_max, scalar_min, scalar_mod, scalar_mul, scalar_ne, scalar_pow,
                           scalar_sub, scalar_uadd, scalar_usub, string_concat, string_eq, switch, tuple_getitem)
from ._impl.dynamic_shape import is_sequence_shape_unknown, is_sequence_value_unknown  # noqa: F401,E402
from ._impl.sequence_ops import list_setitem, tuple_setitem, shape_mul as _ShapeMul  # noqa: E402

shape_mul = _ShapeMul()   # MindSpore's F.shape_mul is the Primitive's instance
