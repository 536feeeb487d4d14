"""``mindspore.communication``: process groups on one host.

msjax runs one process per host; ``init()`` succeeds there (MindSpore needs
``mpirun``/``msrun`` even for one device), ``get_rank()`` is JAX's process
index and ``get_group_size()`` the process count. Multi-host data parallelism
is not supported yet (its own issue); creating sub-groups raises a clear error.
"""
from .management import (GlobalComm, HCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP,
                         create_group, destroy_group, get_group_size, get_local_rank, get_local_rank_size,
                         get_rank, init, release)

__all__ = ["GlobalComm", "HCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "init",
           "release", "get_rank", "get_group_size", "get_local_rank", "get_local_rank_size", "create_group",
           "destroy_group"]
