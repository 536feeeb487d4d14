"""``mindspore.ops.auto_generate.gen_ops_prim``: the registry's Primitive classes."""
from ..._core.registry import OPS as _OPS, primitive_class as _primitive_class
from .. import _impl  # noqa: F401  (fills the registry)

__all__ = []
for _d in _OPS.values():
    if _d.primitive:
        globals()[_d.primitive] = _primitive_class(_d)
        __all__.append(_d.primitive)

_BY_KEY = {_d.primitive.lower(): _d.primitive for _d in _OPS.values() if _d.primitive}


def primitive_for_instance(name):
    """The Primitive class of MindSpore's generated instance ``name`` (``tracev2_grad_op`` is
    ``TraceV2Grad()``: the class name, lower case, is the name without ``_op`` and underscores), or None."""
    if not name.endswith("_op"):
        return None
    cls = _BY_KEY.get(name[:-3].replace("_", ""))
    return None if cls is None else globals()[cls]
