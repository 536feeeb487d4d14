"""``mindspore.parallel``: the parallel context and mode names, ``Layout``, the distributed-checkpoint
tools. The parallel machinery is described in docs/ARCHITECTURE.md ("Parallel steps")."""
from ._context import (ParallelMode, get_auto_parallel_context, reset_auto_parallel_context,  # noqa: F401
                              set_auto_parallel_context)

from . import _apply  # noqa: F401  (lends Primitive.shard its effect)
from ._strategy import Layout  # noqa: F401
from .checkpoint_transform import build_searched_strategy, load_distributed_checkpoint, merge_sliced_parameter  # noqa: F401,E501
from .algo_parameter_config import get_algo_parameters, reset_algo_parameters, set_algo_parameters  # noqa: F401

__all__ = ["Layout", "ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context",
           "set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "merge_sliced_parameter",
           "build_searched_strategy", "load_distributed_checkpoint"]
