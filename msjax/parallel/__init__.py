"""``mindspore.parallel`` (one device): the parallel context and mode names."""
from .._core.parallel import (ParallelMode, get_auto_parallel_context, reset_auto_parallel_context,  # noqa: F401
                              set_auto_parallel_context)

__all__ = ["ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context"]
