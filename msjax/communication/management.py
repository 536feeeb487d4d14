"""Rank and group queries on JAX's distributed runtime.

``init()`` joins the job its launcher described: ``python -m msjax launch`` (msrun's
flags and environment: ``MS_ROLE``, ``MS_WORKER_NUM``, ``MS_SCHED_HOST``/``MS_SCHED_PORT``,
``RANK_ID``...) or ``mpirun`` (OpenMPI's ``OMPI_COMM_WORLD_*``), through
``jax.distributed.initialize`` (CPU collectives: gloo). Without a launcher it is one
process, as before. A rank is a process; the world group is the only group
(``create_group`` of all ranks under a new name is an alias of it, other sub-groups raise).
"""
from __future__ import annotations

import os

from . import _runtime as _dist

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"


class GlobalComm:
    """``mindspore.communication.GlobalComm``: backend, world group name, whether initialised."""
    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


_WORLD = {HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP}
_ALIASES = set()     # groups created over all ranks (the world under another name)


def _check_group(group, what="get_rank"):
    if not isinstance(group, str):
        raise TypeError(f"For '{what}', the argument 'group' must be str, but got {type(group).__name__}.")
    if group not in _WORLD and group not in _ALIASES:
        raise ValueError(f"For '{what}', the group '{group}' does not exist: msjax has the world group only "
                         "(and groups created over all ranks).")


_BACKENDS = {"Ascend": "hccl", "GPU": "nccl", "CPU": "mccl"}
_GROUPS = {"hccl": HCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP, "mccl": MCCL_WORLD_COMM_GROUP}


def _set_rank_from_mpi():
    """As MindSpore at import: OpenMPI's rank variables become RANK_ID/DEVICE_ID/RANK_SIZE."""
    env = os.environ
    if env.get("OMPI_COMM_WORLD_RANK"):
        env["RANK_ID"] = env["OMPI_COMM_WORLD_RANK"]
    if env.get("OMPI_COMM_WORLD_LOCAL_RANK"):
        env["DEVICE_ID"] = env["OMPI_COMM_WORLD_LOCAL_RANK"]
    if env.get("OMPI_COMM_WORLD_SIZE"):
        env["RANK_SIZE"] = env["OMPI_COMM_WORLD_SIZE"]


_set_rank_from_mpi()


def init(backend_name=None):
    """Initialise communication. ``backend_name`` is checked like MindSpore (default from
    ``device_target``: 'mccl' on CPU, 'nccl' on GPU, 'hccl' on Ascend). Under
    ``python -m msjax launch`` or ``mpirun`` the process joins the job with
    ``jax.distributed.initialize`` (timeout: ``--cluster_time_out``); started alone it is
    rank 0 of 1 (MindSpore needs a launcher even then)."""
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
    if not _dist.start_runtime():
        import jax
        if jax.process_count() != 1:   # a runtime started by the user's own jax.distributed.initialize
            _dist.set_world(True, jax.process_index(), jax.process_count(), 0, 1)
        else:
            _dist.set_world(True, 0, 1, 0, 1)
    GlobalComm.BACKEND = backend_name
    GlobalComm.WORLD_COMM_GROUP = _GROUPS[backend_name]
    GlobalComm.INITED = True
    w = _dist.world()
    os.environ.setdefault("RANK_ID", str(w["rank"]))
    os.environ.setdefault("RANK_SIZE", str(w["size"]))


def release():
    """Leave the job (``jax.distributed.shutdown``; waits for the other ranks)."""
    if _dist.world()["size"] > 1:
        _dist.stop_runtime()
    else:
        _dist.set_world(False)
    GlobalComm.INITED = False


def _w():
    w = _dist.world()
    if not w["inited"]:
        import jax
        return {"rank": jax.process_index(), "size": jax.process_count(), "local_rank": 0, "local_size": 1}
    return w


def get_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank (``RANK_ID``)."""
    _check_group(group, "get_rank")
    return _w()["rank"]


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of processes (ranks) in the job."""
    _check_group(group, "get_group_size")
    return _w()["size"]


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """The rank among this node's processes."""
    _check_group(group, "get_local_rank")
    return _w()["local_rank"]


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of processes on this node."""
    _check_group(group, "get_local_rank_size")
    return _w()["local_size"]


def get_world_rank_from_group_rank(group, group_rank_id):
    """The world group's ranks are its group ranks."""
    _check_group(group, "get_world_rank_from_group_rank")
    _check_rank(group_rank_id, "get_world_rank_from_group_rank")
    return group_rank_id


def get_group_rank_from_world_rank(world_rank_id, group):
    """The world group's ranks are its group ranks."""
    _check_group(group, "get_group_rank_from_world_rank")
    _check_rank(world_rank_id, "get_group_rank_from_world_rank")
    return world_rank_id


def _check_rank(r, what):
    if isinstance(r, bool) or not isinstance(r, int):
        raise TypeError(f"For '{what}', the rank id must be int, but got {type(r).__name__}.")
    if not 0 <= r < _w()["size"]:
        raise ValueError(f"For '{what}', the rank id {r} is out of range [0, {_w()['size']}).")


def get_process_group_ranks(group=GlobalComm.WORLD_COMM_GROUP):
    """The world ranks of ``group`` (all ranks)."""
    _check_group(group, "get_process_group_ranks")
    return list(range(_w()["size"]))


def get_comm_name(group=GlobalComm.WORLD_COMM_GROUP):
    _check_group(group, "get_comm_name")
    return group


def create_group(group, rank_ids, options=None):
    """A group over all ranks (any order) is the world group under another name; msjax has
    no sub-groups (a proper subset of the ranks raises ``RuntimeError``)."""
    if not isinstance(group, str):
        raise TypeError(f"For 'create_group', the argument 'group' must be str, but got {type(group).__name__}.")
    if not isinstance(rank_ids, (list, tuple)) or sorted(rank_ids) != list(range(_w()["size"])):
        raise RuntimeError(f"create_group: msjax supports groups of all ranks only, got rank_ids={rank_ids!r} "
                           f"for a job of {_w()['size']}: communication sub-groups are not supported.")
    if group in _WORLD:
        raise ValueError(f"For 'create_group', the group name '{group}' is a world group name.")
    _ALIASES.add(group)


def destroy_group(group):
    """Forget a group made by ``create_group``."""
    if group in _WORLD:
        raise ValueError(f"For 'destroy_group', the world group '{group}' cannot be destroyed.")
    if group not in _ALIASES:
        raise ValueError(f"For 'destroy_group', the group '{group}' does not exist.")
    _ALIASES.discard(group)
