"""``mindspore.communication.comm_func``: functional collectives returning new tensors
(``(output, handle)`` for the ``async_op`` ones, as MindSpore), over msjax's process group
(``msjax.communication._runtime``; eager across processes, or inside a compiled data-parallel
step). Point-to-point, all-to-all and scatter/gather to one rank raise ``RuntimeError``
naming themselves."""
from __future__ import annotations

import jax.numpy as jnp

from . import _runtime as _dist
from .._core.tensor import Tensor, wrap
from .management import GlobalComm, _check_group

__all__ = ["all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor", "reduce", "broadcast", "barrier",
           "all_to_all_with_output_shape", "all_to_all_single_with_output_shape", "gather_into_tensor", "isend",
           "irecv", "scatter_tensor", "send", "recv", "P2POp", "batch_isend_irecv", "all_to_all_v_c", "CommHandle"]


class CommHandle:
    """The handle of an ``async_op=True`` collective: msjax's collectives are done when
    they return, so ``wait()`` returns at once."""

    def wait(self):
        return True

    def is_completed(self):
        return True


def _args(name, tensor, group, async_op=False):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {name}, the input tensor must be tensor")
    if not isinstance(group, str):
        raise TypeError(f"The argument 'group' must be type of string, but got 'group' type : {type(group)}.")
    _check_group(group, name)
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    return tensor._data


def _out(a, async_op):
    return wrap(a), (CommHandle() if async_op else None)


def _check_op(name, op):
    if op not in ("sum", "max", "min", "prod"):
        raise TypeError(f"For {name}, the input op value must be one of sum, prod, min, max")


def all_reduce(tensor, op="sum", group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """``(reduced tensor, handle)``: ``tensor`` reduced over the ranks."""
    a = _args("all_reduce", tensor, group, async_op)
    _check_op("all_reduce", op)
    return _out(_dist.all_reduce(a, op), async_op)


def all_gather_into_tensor(tensor, group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """``(gathered tensor, handle)``: every rank's tensor concatenated along axis 0."""
    return _out(_dist.all_gather(_args("all_gather_into_tensor", tensor, group, async_op)), async_op)


def reduce_scatter_tensor(tensor, op="sum", group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """``(this rank's slice, handle)`` of ``tensor`` reduced over the ranks."""
    a = _args("reduce_scatter_tensor", tensor, group, async_op)
    _check_op("reduce_scatter_tensor", op)
    return _out(_dist.reduce_scatter(a, op), async_op)


def reduce(tensor, dst, op="sum", group=GlobalComm.WORLD_COMM_GROUP):
    """The reduction on rank ``dst``; the other ranks get ``[0.]`` (MindSpore's documented result)."""
    a = _args("reduce", tensor, group)
    _check_op("reduce", op)
    out = _dist.all_reduce(a, op)
    if _dist.world()["rank"] == dst or _dist.process_count() == 1:
        return wrap(out)
    return wrap(jnp.zeros((1,), a.dtype))


def broadcast(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP):
    """Rank ``src``'s tensor on every rank."""
    return wrap(_dist.broadcast(_args("broadcast", tensor, group), src))


def barrier(group=GlobalComm.WORLD_COMM_GROUP):
    """Wait until every rank reaches the barrier."""
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    _dist.all_reduce(jnp.zeros((1,), jnp.float32), "sum").block_until_ready()


def _unsupported(name):
    def fn(*args, **kwargs):
        raise RuntimeError(f"mindspore.communication.comm_func.{name}: point-to-point, all-to-all and "
                           "scatter/gather to one rank are not supported by msjax.")
    fn.__name__ = fn.__qualname__ = name
    fn.__ms_unsupported__ = True
    return fn


for _name in ("all_to_all_with_output_shape", "all_to_all_single_with_output_shape", "gather_into_tensor", "isend",
              "irecv", "scatter_tensor", "send", "recv", "batch_isend_irecv", "all_to_all_v_c"):
    globals()[_name] = _unsupported(_name)


class P2POp:
    """``comm_func.P2POp``: point-to-point is not supported by msjax."""
    __ms_unsupported__ = True

    def __init__(self, *args, **kwargs):
        raise RuntimeError("mindspore.communication.comm_func.P2POp: point-to-point communication is not "
                           "supported by msjax.")
