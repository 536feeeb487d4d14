"""``mindspore.ops.auto_generate.gen_ops_def``: the registry's functional ops."""
from ..._core.registry import OPS as _OPS
from .. import _impl  # noqa: F401  (fills the registry)

__all__ = [_n for _n in _OPS if not _n.startswith("prim_")]
globals().update({_n: _OPS[_n].fn for _n in __all__})
