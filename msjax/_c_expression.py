"""``mindspore._c_expression``: MindSpore's C++ binding. Only what real scripts
import from it is here: ``get_code_extra`` (PIJit's code records: none), ``update_pijit_default_config``
(PIJit's options: kept, unread), ``jit_mode_pi_enable``/``jit_mode_pi_disable``, ``function_id``, ``init_exec_dataset`` (the device data queue of dataset
sink mode), which raises — msjax feeds data from the host; ``TensorPy``, the C++ base
class of MindSpore's Tensor (test helpers check ``isinstance(x, TensorPy)``): msjax's Tensor."""
import types

from ._core.jit import PIJIT_ENABLED
from .common._pijit_records import record_of
from ._core.tensor import Tensor as TensorPy  # noqa: F401


def get_code_extra(code):
    """MindSpore's record of how PIJit (``jit(capture_mode="bytecode")``) compiled a function or code
    object. msjax traces a bytecode-mode function whole: a function it compiled has a record with no graph
    break (``GRAPH_CALLABLE``, ``break_count_`` 0, its programs and compiled calls counted); one it never ran
    or ran uncompiled gives ``None`` (``msjax.common._pijit_records``)."""
    return record_of(code)


PIJIT_DEFAULT_CONFIG = {}


def update_pijit_default_config(*args, **kwargs):
    """Sets PIJit's (``jit(capture_mode="bytecode")``) default options (``compile_with_try=False``, ...).
    MindSpore accepts any name and value without a check; msjax keeps them in ``PIJIT_DEFAULT_CONFIG``
    and reads none: its bytecode mode traces as the AST mode, with no capture options to tune."""
    if args:
        raise TypeError("update_pijit_default_config(): incompatible function arguments. The following argument "
                        "types are supported:\n    1. (**kwargs) -> None\n\nInvoked with: "
                        + ", ".join(map(repr, args)))
    PIJIT_DEFAULT_CONFIG.update(kwargs)


def jit_mode_pi_enable():
    """Turns PIJit back on: ``jit(capture_mode="bytecode")`` functions compile again. Returns ``True``
    (MindSpore returns a bool whose meaning it does not document)."""
    PIJIT_ENABLED[0] = True
    return True


def jit_mode_pi_disable():
    """Turns PIJit off: ``jit(capture_mode="bytecode")`` functions run as plain Python (PyNative) until
    ``jit_mode_pi_enable()``; the AST mode is not affected. Returns ``False``."""
    PIJIT_ENABLED[0] = False
    return False


_SLOT_CALLABLES = (types.MethodWrapperType, types.BuiltinMethodType)


def function_id(obj):
    """The identity PIJit keys a callable on: the function behind a bound method, staticmethod or
    classmethod (``function_id(Test().f) == id(Test.f)``), the type's slot or method descriptor behind a
    bound built-in method (``function_id([].__getitem__) == function_id(list.__getitem__)``), else
    ``id(obj)``. MindSpore gives C++ function pointers for built-ins; msjax gives the ``id`` of the
    descriptor, equal and unequal for the same pairs."""
    func = getattr(obj, "__func__", None)
    if isinstance(obj, types.MethodType) and func is not None:
        return id(func)
    owner = getattr(obj, "__self__", None)
    if isinstance(obj, _SLOT_CALLABLES) and owner is not None and not isinstance(owner, types.ModuleType):
        descriptor = getattr(owner if isinstance(owner, type) else type(owner), obj.__name__, None)
        if descriptor is not None and not isinstance(descriptor, _SLOT_CALLABLES):
            return id(descriptor)
    return id(obj)


def init_exec_dataset(queue_name, size, batch_size, types, shapes, input_indexs, phase="dataset", need_run=True):
    """Raises: msjax has no device data queue (dataset sink mode)."""
    raise RuntimeError("mindspore._c_expression.init_exec_dataset (the device data queue of dataset sink mode) is not "
                       "supported by msjax; iterate over the dataset instead (dataset_sink_mode=False).")


class security:  # noqa: N801  (a submodule of MindSpore's binding)
    """``mindspore._c_expression.security``: whether MindSpore was built with ``ENABLE_SECURITY``
    (a build without dump, summaries and the graph printer). msjax has them: ``False``."""

    @staticmethod
    def enable_security():
        return False
