"""``mindspore.common.api``: ``jit``, ``_no_grad``."""
from .._core.jit import jit  # noqa: F401
from .._core.nograd import _no_grad  # noqa: F401
