"""``mindspore.common.api``: ``jit``, ``_no_grad``, ``_pynative_executor``."""
from .._core.jit import jit  # noqa: F401
from .._core.nograd import _no_grad  # noqa: F401
from ..runtime._device import synchronize


class _PyNativeExecutor:
    """``mindspore.common.api._pynative_executor`` (an instance of this class): MindSpore's
    PyNative op dispatcher. ``sync()`` waits for JAX's in-flight work (``synchronize``),
    which is what real code calls it for; its other methods drive MindSpore's own graph
    building and have no counterpart here: they raise ``AttributeError`` naming themselves."""

    def sync(self):
        synchronize()

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"msjax does not support `mindspore.common.api._pynative_executor.{name}`: it drives "
                             "MindSpore's PyNative graph builder, which msjax does not have (JAX traces instead).")


_pynative_executor = _PyNativeExecutor()

from ._cell_cache import cells_compile_cache  # noqa: E402,F401  (id(cell) -> cell.compile_cache)
