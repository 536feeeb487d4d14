"""``mindspore.communication`` on JAX's distributed runtime (see ``management``):
``init()`` joins the job started by ``python -m msjax launch`` (msrun's flags) or
``mpirun``; a rank is a process; the world group is the only group."""
from . import _pipeline_step, _sharded, comm_func  # noqa: F401
from .management import (GlobalComm, HCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP,
                         create_group, destroy_group, get_comm_name, get_group_rank_from_world_rank, get_group_size,
                         get_local_rank, get_local_rank_size, get_process_group_ranks, get_rank,
                         get_world_rank_from_group_rank, init, release)

__all__ = ["GlobalComm", "HCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "init",
           "release", "get_rank", "get_group_size", "get_local_rank", "get_local_rank_size", "create_group",
           "destroy_group", "get_world_rank_from_group_rank", "get_group_rank_from_world_rank",
           "get_process_group_ranks", "get_comm_name"]
