"""``nn.GraphCell``: runs a graph loaded from MindIR (``mindspore.load``). msjax
does not support MindIR (see ``msjax.common._mindir``), so constructing one raises
a clear error naming the alternatives."""
from __future__ import annotations

from ..common._mindir import unsupported_error
from .cell import Cell

__all__ = ["GraphCell"]


class GraphCell(Cell):
    """``nn.GraphCell(graph, params_init=None, obf_random_seed=None)``: unsupported."""

    __ms_unsupported__ = True

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        raise unsupported_error("nn.GraphCell")
