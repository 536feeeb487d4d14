"""``mindspore.ops.functional``: the functional op namespace (same objects as ``ops``)."""
from .._core.registry import OPS as _OPS
from .._core.grad import grad, value_and_grad  # noqa: F401

for _name, _d in _OPS.items():
    if not _name.startswith("tensor_"):
        globals()[_name] = _d.fn
