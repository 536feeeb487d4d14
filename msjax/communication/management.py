"""Rank and group queries (single-process implementation, see the package doc)."""
from __future__ import annotations

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"


class GlobalComm:
    BACKEND = "nccl"
    WORLD_COMM_GROUP = NCCL_WORLD_COMM_GROUP
    INITED = False


_WORLD = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)


def _check_group(group):
    if not isinstance(group, str):
        raise TypeError(f"For 'get_rank', the argument 'group' must be str, but got {type(group).__name__}.")
    if group not in _WORLD:
        raise ValueError(f"The group '{group}' does not exist: msjax supports only the world group "
                         "on a single process.")


_BACKENDS = {"Ascend": "hccl", "GPU": "nccl", "CPU": "mccl"}


def init(backend_name=None):
    """Initialise communication: one process, nothing to connect. ``backend_name`` is
    checked like MindSpore (default from ``device_target``: 'mccl' on CPU, 'nccl' on GPU,
    'hccl' on Ascend). Unlike MindSpore, no launcher (msrun/mpirun) is needed: msjax
    runs on the one process it is started in."""
    from .._core.context import get_context
    device_target = get_context("device_target")
    if backend_name is None:
        backend_name = _BACKENDS[device_target]
    if not isinstance(backend_name, str):
        raise TypeError("For 'init', the argument 'backend_name' must be a string, "
                        f"but got the type : {type(backend_name)}")
    if backend_name not in ("hccl", "nccl", "mccl"):
        raise RuntimeError("For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' and 'mccl', "
                           f"but got 'backend_name' : {backend_name}")
    if backend_name != "mccl" and backend_name != _BACKENDS[device_target]:
        raise RuntimeError(f"For 'init', the argument 'backend_name' should be '{_BACKENDS[device_target]}' to "
                           f"init '{device_target}', but got '{backend_name}'.")
    import jax
    if jax.process_count() != 1:
        raise RuntimeError("msjax.communication supports a single process; multi-host training is not "
                           "supported yet.")
    GlobalComm.INITED = True


def release():
    GlobalComm.INITED = False


def get_rank(group=GlobalComm.WORLD_COMM_GROUP):
    _check_group(group)
    import jax
    return jax.process_index()


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP):
    _check_group(group)
    import jax
    return jax.process_count()


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP):
    return get_rank(group)


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP):
    return get_group_size(group)


def create_group(group, rank_ids, options=None):
    raise RuntimeError("create_group: communication sub-groups are not supported by msjax (single process).")


def destroy_group(group):
    raise RuntimeError("destroy_group: communication sub-groups are not supported by msjax (single process).")


create_group.__ms_unsupported__ = True
destroy_group.__ms_unsupported__ = True
