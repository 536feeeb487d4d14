"""``mindspore.common.api``: ``jit``."""
from .._core.jit import jit  # noqa: F401
