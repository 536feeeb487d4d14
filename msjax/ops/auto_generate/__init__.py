"""``mindspore.ops.auto_generate``: in MindSpore the operator layer generated from
its YAML op definitions (``gen_ops_prim``: Primitive classes, ``gen_ops_def``:
functional ops), re-exported by ``mindspore.ops``. msjax's equivalent is its op
registry (``msjax._core.registry``), from which ``msjax.ops`` is generated too;
this module exposes the same registry under MindSpore's module names, so
``from mindspore.ops.auto_generate import Abs, add`` works.

Difference: the names are those of msjax's registry, not MindSpore's generated
list (a few ops that MindSpore writes by hand appear here as well; generated ops
msjax lacks are absent)."""
from .gen_ops_def import *  # noqa: F401,F403
from .gen_ops_prim import *  # noqa: F401,F403
from . import gen_ops_def, gen_ops_prim  # noqa: F401

__all__ = gen_ops_prim.__all__ + gen_ops_def.__all__


def __getattr__(name):
    """MindSpore's ``<op>_op`` instances (``from .gen_ops_prim import *`` there) are ``gen_ops_prim``'s."""
    if name.endswith("_op"):
        return getattr(gen_ops_prim, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
