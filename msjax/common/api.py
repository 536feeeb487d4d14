"""``mindspore.common.api``: ``jit``, ``_no_grad``, ``_pynative_executor``."""
from .._core.jit import jit  # noqa: F401
from .._core.nograd import _no_grad  # noqa: F401
from ..runtime._device import _pynative_executor  # noqa: F401
