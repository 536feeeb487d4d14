"""``mindspore.ops.operations`` (``P``): the Primitive classes."""
from .._core.registry import OPS as _OPS, Primitive, primitive_class as _primitive_class  # noqa: F401

for _d in _OPS.values():
    if _d.primitive:
        globals()[_d.primitive] = _primitive_class(_d)
