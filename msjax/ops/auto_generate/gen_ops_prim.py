"""``mindspore.ops.auto_generate.gen_ops_prim``: the registry's Primitive classes."""
from ..._core.registry import OPS as _OPS, primitive_class as _primitive_class
from .. import _impl  # noqa: F401  (fills the registry)

__all__ = []
for _d in _OPS.values():
    if _d.primitive:
        globals()[_d.primitive] = _primitive_class(_d)
        __all__.append(_d.primitive)
