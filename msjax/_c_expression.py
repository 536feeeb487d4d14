"""``mindspore._c_expression``: MindSpore's C++ binding. Only what real scripts
import from it is here: ``get_code_extra`` (PIJit's code records: none), ``init_exec_dataset`` (the device data queue of dataset
sink mode), which raises — msjax feeds data from the host; ``TensorPy``, the C++ base
class of MindSpore's Tensor (test helpers check ``isinstance(x, TensorPy)``): msjax's Tensor."""
from ._core.tensor import Tensor as TensorPy  # noqa: F401


def get_code_extra(code):
    """MindSpore's record of how PIJit (``jit(capture_mode="bytecode")``) compiled a function or code
    object. msjax traces the bytecode mode as the AST mode and keeps no such record: ``None``, MindSpore's
    answer for a function PIJit never ran (its tests then skip their graph-capture checks)."""
    return None


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
