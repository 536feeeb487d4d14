"""``mindspore.ops.auto_generate.gen_ops_def``: the registry's functional ops."""
from ..._core.registry import OPS as _OPS
from .. import _impl  # noqa: F401  (fills the registry)

__all__ = [_n for _n in _OPS if not _n.startswith("prim_")]
globals().update({_n: _OPS[_n].fn for _n in __all__})

from .._impl.alpha_ext import add_ext, sub_ext  # noqa: E402  (AddExt/SubExt: no functional op of their own)

__all__ += ["add_ext", "sub_ext"]
