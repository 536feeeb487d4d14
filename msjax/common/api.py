"""``mindspore.common.api``: ``jit``, ``_no_grad``, ``_pynative_executor``, ``_cell_graph_executor``."""
from .._core.jit import jit  # noqa: F401
from .._core.nograd import _no_grad  # noqa: F401
from ..runtime._device import synchronize
from ._compile import trace_only


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


class _CellGraphExecutor:
    """``mindspore.common.api._cell_graph_executor`` (an instance of this class): MindSpore's
    graph compiler, which its own tests and some scripts call directly.
    ``compile(obj, *args, phase='predict')`` compiles a Cell for the inputs without running
    it (``Cell.compile``: errors raised, nothing written) and returns ``(phase, first)``,
    ``first`` being ``False`` when that Cell was already compiled for that phase and
    argument signature; calling the executor runs the Cell. Its other methods (parallel
    strategies, MindIR graphs) have no counterpart: ``AttributeError`` naming themselves."""

    def __init__(self):
        self._compiled = {}      # phase -> the Cell compiled under it (a weak link would do)

    def compile(self, obj, *args, phase="predict", do_convert=True, jit_config_dict=None, **kwargs):
        if not hasattr(obj, "construct"):
            raise AttributeError(f"The class {type(obj).__name__} does not have method construct")
        key = _signature(args, kwargs)
        full = f"{phase}.{id(obj)}.{key}"
        if self._compiled.get(full) is obj:
            return full, False
        if hasattr(obj, "check_names"):
            obj.check_names()
        trace_only(obj, args, kwargs)
        self._compiled[full] = obj
        return full, True

    def has_compiled(self, phase="predict"):
        return phase in self._compiled

    def __call__(self, obj, *args, phase="predict"):
        return obj(*args)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"msjax does not support `mindspore.common.api._cell_graph_executor.{name}`: it drives "
                             "MindSpore's graph compiler (parallel strategies, MindIR graphs), which msjax does not "
                             "have (JAX traces instead).")


def _signature(args, kwargs):
    """A short text key of the arguments' shapes and dtypes (what a compiled graph depends on)."""
    def one(x):
        shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
        if shape is not None and dtype is not None:
            return f"{tuple(shape)}:{dtype}"
        if isinstance(x, (tuple, list)):
            return "(" + ",".join(one(v) for v in x) + ")"
        return repr(x)
    return "|".join([one(a) for a in args] + [f"{k}={one(v)}" for k, v in sorted(kwargs.items())])


_cell_graph_executor = _CellGraphExecutor()

from ._cell_cache import cells_compile_cache  # noqa: E402,F401  (id(cell) -> cell.compile_cache)
