"""``SequentialCell`` and ``CellList``: children named '0', '1', ..."""
from __future__ import annotations

from collections import OrderedDict

from ..cell import Cell

__all__ = ["SequentialCell", "CellList"]


class _IndexedCells(Cell):
    def __init__(self, cells=None):
        super().__init__()
        object.__setattr__(self, "_count", 0)
        if isinstance(cells, OrderedDict):
            for name, cell in cells.items():
                self.insert_child_to_cell(name, cell)
        elif cells is not None:
            for cell in cells:
                self.append(cell)

    def append(self, cell):
        if not isinstance(cell, Cell):
            raise TypeError(f"For '{type(self).__name__}', the type of cell must be Cell, but got {type(cell)}.")
        setattr(self, str(len(self)), cell)
        return self

    def extend(self, cells):
        for c in cells:
            self.append(c)
        return self

    def __len__(self):
        return len(self._own_cells())

    def __getitem__(self, index):
        cells = self._own_cells()
        if isinstance(index, slice):
            return type(self)([c for _, c in cells[index]])
        return cells[index][1]

    def __iter__(self):
        return iter([c for _, c in self._own_cells()])


class SequentialCell(_IndexedCells):
    """``nn.SequentialCell(*args)``: a list, an OrderedDict, or Cells as arguments."""

    def __init__(self, *args):
        if len(args) == 1 and isinstance(args[0], (list, tuple, OrderedDict)):
            cells = args[0]
        else:
            cells = list(args)
        super().__init__(cells)

    def construct(self, input_data):
        for cell in self:
            input_data = cell(input_data)
        return input_data


class CellList(_IndexedCells):
    """``nn.CellList(args=None)``."""

    def __init__(self, *args, **kwargs):
        super().__init__(args[0] if args else None)

    def construct(self, *inputs):
        raise TypeError("CellList is a container and has no construct; call its items.")
