"""``mindspore.mint.distributed.distributed``: the names of ``mint.distributed``; each raises
``RuntimeError`` naming itself until msjax has collective communication."""
from __future__ import annotations


_NAMES = ["P2POp", "TCPStore", "all_gather", "all_gather_into_tensor", "all_gather_into_tensor_uneven",
          "all_gather_object", "all_reduce", "all_to_all", "all_to_all_single", "barrier", "batch_isend_irecv",
          "broadcast", "broadcast_object_list", "destroy_process_group", "gather", "gather_object", "get_backend",
          "get_global_rank", "get_group_rank", "get_process_group_ranks", "get_rank", "get_world_size",
          "init_process_group", "irecv", "isend", "new_group", "recv", "recv_object_list", "reduce",
          "reduce_scatter", "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "scatter",
          "scatter_object_list", "send", "send_object_list"]


def _error(name):
    return RuntimeError(
        f"mindspore.mint.distributed.{name}: collective communication (process groups, data-parallel training) "
        "is not supported by msjax yet; msjax trains in a single process.")


def _unsupported(name):
    def fn(*args, **kwargs):
        raise _error(name)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``mint.distributed.{name}``: raises RuntimeError (no collective communication in msjax yet)."
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
globals().update({_n: _unsupported(_n) for _n in _NAMES if _n not in ("P2POp", "TCPStore")})


def is_available():
    """``mint.distributed.is_available()``: False (msjax has no collective-communication backend yet)."""
    return False


def is_initialized():
    """``mint.distributed.is_initialized()``: False (no process group can be created)."""
    return False


__all__ = sorted(_NAMES + ["is_available", "is_initialized"])
