"""``mindspore.mint.distributed.distributed``: torch-style collectives on msjax's process
group (``msjax.communication``, ``msjax.communication._runtime``).

``init_process_group`` joins the job the launcher described (``python -m msjax launch``,
``mpirun``), as MindSpore does with msrun's environment; the collectives update their
tensors in place and return ``None`` (with ``async_op=True``, a handle whose ``wait()``
returns at once: msjax's collectives finish before returning). ``op`` is one of
``'sum'``, ``'prod'``, ``'min'``, ``'max'``, ``'avg'``. The world group (or a group of all
ranks, ``new_group``) is the only group. Point-to-point (``send``/``recv``/``isend``/
``irecv``/``P2POp``/``batch_isend_irecv``), all-to-all, scatter/gather to one rank,
uneven variants, object collectives and ``TCPStore`` raise ``RuntimeError`` naming
themselves.
"""
from __future__ import annotations

import jax.numpy as jnp

from ...communication import _runtime as _dist
from ..._core.tensor import Tensor
from ...communication import management as _comm
from ...communication.comm_func import CommHandle as _Handle
from ...ops._impl.array import _write_inplace

_UNSUPPORTED = ["P2POp", "TCPStore", "all_gather_into_tensor_uneven", "all_gather_object", "all_to_all",
                "all_to_all_single", "batch_isend_irecv", "broadcast_object_list", "gather", "gather_object",
                "irecv", "isend", "recv", "recv_object_list", "reduce_scatter_tensor_uneven", "scatter",
                "scatter_object_list", "send", "send_object_list"]
_SUPPORTED = ["all_gather", "all_gather_into_tensor", "all_reduce", "barrier", "broadcast", "destroy_process_group",
              "get_backend", "get_global_rank", "get_group_rank", "get_process_group_ranks", "get_rank",
              "get_world_size", "init_process_group", "new_group", "reduce", "reduce_scatter",
              "reduce_scatter_tensor", "is_available", "is_initialized"]


def _error(name):
    return RuntimeError(f"mindspore.mint.distributed.{name}: msjax's collective communication has the "
                        "all-reduce/all-gather/reduce-scatter/broadcast family only; point-to-point, all-to-all, "
                        "scatter/gather to one rank, uneven and object collectives are not supported.")


def _unsupported(name):
    def fn(*args, **kwargs):
        raise _error(name)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``mint.distributed.{name}``: raises RuntimeError (not supported by msjax)."
    fn.__ms_unsupported__ = True
    return fn


class _UnsupportedClass:
    _name = ""

    def __init__(self, *args, **kwargs):
        raise _error(self._name)


P2POp = type("P2POp", (_UnsupportedClass,), {"_name": "P2POp", "__module__": __name__,
                                             "__doc__": "``mint.distributed.P2POp``: raises RuntimeError."})
TCPStore = type("TCPStore", (_UnsupportedClass,), {"_name": "TCPStore", "__module__": __name__,
                                                   "__doc__": "``mint.distributed.TCPStore``: raises RuntimeError."})
globals().update({_n: _unsupported(_n) for _n in _UNSUPPORTED if _n not in ("P2POp", "TCPStore")})


def _done(async_op, name):
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    return _Handle() if async_op else None


def _group(group):
    group = _comm.GlobalComm.WORLD_COMM_GROUP if group is None else group
    if not isinstance(group, str):
        raise TypeError(f"The argument 'group' must be type of string, but got 'group' type : {type(group)}.")
    _comm._check_group(group, "mint.distributed")
    return group


def _tensor(name, t):
    if not isinstance(t, Tensor):
        raise TypeError(f"For {name}, the input tensor must be tensor")
    return t._data


_OPS = ("sum", "prod", "min", "max", "avg")


def _reduce(name, a, op):
    if not isinstance(op, str):
        raise TypeError(f"For {name}, the input op type must be str")
    if op not in _OPS:
        raise TypeError(f"For {name}, the input op value must be one of sum, prod, min, max, avg")
    if op == "avg":
        return (_dist.all_reduce(a, "sum") / _dist.process_count()).astype(a.dtype)
    return _dist.all_reduce(a, op)


def is_available():
    """``mint.distributed.is_available()``: True (JAX's distributed runtime)."""
    return True


def is_initialized():
    """``mint.distributed.is_initialized()``: whether ``init_process_group`` (or ``init()``) ran."""
    return bool(_comm.GlobalComm.INITED)


def init_process_group(backend="hccl", init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    """Join the job started by the launcher (``communication.init``). ``backend`` is the
    device's (``'hccl'`` as MindSpore's default is accepted on CPU); ``world_size``/``rank``,
    when given, must match the launcher's; ``init_method``/``store`` are not supported."""
    if init_method is not None or store is not None:
        raise RuntimeError("mint.distributed.init_process_group: init_method/store are not supported by msjax; "
                           "start the job with `python -m msjax launch` (msrun's flags) or mpirun.")
    _comm.init(None if backend in (None, "hccl") else backend)
    w = _dist.world()
    if world_size not in (-1, w["size"]) or rank not in (-1, w["rank"]):
        raise ValueError(f"init_process_group: world_size={world_size}, rank={rank} do not match the launched job "
                         f"(world size {w['size']}, rank {w['rank']}).")


def destroy_process_group(group=None):
    """Leave the job (``communication.release``); a group alias is forgotten."""
    if group is None or group in (_comm.HCCL_WORLD_COMM_GROUP, _comm.NCCL_WORLD_COMM_GROUP,
                                  _comm.MCCL_WORLD_COMM_GROUP):
        _comm.release()
    else:
        _comm.destroy_group(group)


def get_rank(group=None):
    """This process's rank (0 before ``init_process_group``, as MindSpore 2.10)."""
    return _comm.get_rank(_group(group))


def get_world_size(group=None):
    """The number of ranks (1 before ``init_process_group``, as MindSpore 2.10)."""
    return _comm.get_group_size(_group(group))


def get_backend(group=None):
    _group(group)
    return _comm.GlobalComm.BACKEND


def get_global_rank(group, group_rank):
    return _comm.get_world_rank_from_group_rank(_group(group), group_rank)


def get_group_rank(group, global_rank):
    return _comm.get_group_rank_from_world_rank(global_rank, _group(group))


def get_process_group_ranks(group=None):
    return _comm.get_process_group_ranks(_group(group))


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False,
              group_desc=None):
    """A group of all ranks (``ranks=None`` or every rank): returns its name; sub-groups raise."""
    ranks = list(range(_dist.world()["size"])) if ranks is None else list(ranks)
    name = group_desc or f"msjax_group_{len(_comm._ALIASES)}"
    _comm.create_group(name, ranks)
    return name


def all_reduce(tensor, op="sum", group=None, async_op=False):
    """Reduce ``tensor`` over the ranks, in place."""
    a = _tensor("all_reduce", tensor)
    _group(group)
    _write_inplace(tensor, _reduce("all_reduce", a, op))
    return _done(async_op, "all_reduce")


def reduce(tensor, dst, op="sum", group=None, async_op=False):
    """Reduce ``tensor`` over the ranks; rank ``dst`` receives the result in place."""
    a = _tensor("reduce", tensor)
    _group(group)
    out = _reduce("reduce", a, op)
    if _dist.world()["rank"] == dst or _dist.process_count() == 1:
        _write_inplace(tensor, out)
    return _done(async_op, "reduce")


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """Every rank's ``input_tensor`` concatenated along axis 0 into ``output_tensor``."""
    out = _dist.all_gather(_tensor("all_gather_into_tensor", input_tensor))
    _group(group)
    if tuple(output_tensor.shape) != tuple(out.shape):
        raise ValueError(f"For all_gather_into_tensor, the output tensor shape should be {tuple(out.shape)}, "
                         f"but got {tuple(output_tensor.shape)}.")
    _write_inplace(output_tensor, out.astype(output_tensor._data.dtype))
    return _done(async_op, "all_gather_into_tensor")


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """``tensor_list[r]`` receives rank ``r``'s ``tensor``."""
    a = _tensor("all_gather", tensor)
    _group(group)
    n = _dist.process_count()
    if not isinstance(tensor_list, list) or len(tensor_list) != n:
        raise TypeError(f"For all_gather, the tensor_list must be a list of {n} tensors.")
    rows = _dist.all_gather(a[None])
    for r, t in enumerate(tensor_list):
        _write_inplace(t, rows[r].astype(t._data.dtype))
    return _done(async_op, "all_gather")


def reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):  # noqa: A002 (MindSpore's name)
    """The reduction of ``input`` over the ranks; each rank keeps its slice of axis 0 in ``output``."""
    a = _tensor("reduce_scatter_tensor", input)
    _group(group)
    if op == "avg":
        piece = (_dist.reduce_scatter(a, "sum") / _dist.process_count()).astype(a.dtype)
    else:
        _reduce("reduce_scatter_tensor", a[:0], op)   # validates op
        piece = _dist.reduce_scatter(a, op)
    _write_inplace(output, piece.astype(output._data.dtype))
    return _done(async_op, "reduce_scatter_tensor")


def reduce_scatter(output, input_list, op="sum", group=None, async_op=False):
    """``output`` receives the reduction over the ranks of ``input_list[rank]``."""
    stacked = jnp.concatenate([_tensor("reduce_scatter", t) for t in input_list], axis=0)
    return reduce_scatter_tensor(output, Tensor(stacked), op, group, async_op)


def broadcast(tensor, src, group=None, async_op=False):
    """Rank ``src``'s ``tensor`` on every rank, in place."""
    a = _tensor("broadcast", tensor)
    if isinstance(src, bool) or not isinstance(src, int):
        raise TypeError("For broadcast, the src must be int")
    _group(group)
    _write_inplace(tensor, _dist.broadcast(a, src))
    return _done(async_op, "broadcast")


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every rank reaches the barrier (a one-element all-reduce)."""
    _group(group)
    _dist.all_reduce(jnp.zeros((1,), jnp.float32), "sum").block_until_ready()
    return _done(async_op, "barrier")


__all__ = sorted(_UNSUPPORTED + _SUPPORTED)
