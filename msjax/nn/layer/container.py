"""``SequentialCell`` and ``CellList``: children named '0', '1', ..."""
from __future__ import annotations

from collections import OrderedDict

from ..._core import state
from ..._core.tensor import Tensor
from ..cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


def _valid_index(n, index, who, inserting=False):
    """MindSpore's index check: an int in [-n, n) ([-n, n] when inserting), made non-negative."""
    if not isinstance(index, int):
        raise TypeError(f"For '{who}', the type of 'index' must be int, but got {type(index).__name__}.")
    hi = n + 1 if inserting else n
    if not -n <= index < hi:
        bracket = "]" if inserting else ")"
        raise IndexError(f"For '{who}', the value of 'index' must be a number in range [{-n}, {n}{bracket}, "
                         f"but got {index}.")
    return index + n if index < 0 else index


def _valid_cell(cell, who):
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{who}', each cell must be subclass of Cell, but got {type(cell).__name__}.")


class _IndexedCells(Cell):
    """Children kept as attributes in order; a child added by position is named by its
    index ('0', '1', ...), and renumbered when cells are deleted or inserted before it, as
    are its Parameters' names (MindSpore's ``_is_dynamic_name``); a child given a key (an
    ``OrderedDict`` to ``SequentialCell``) keeps it."""

    def __init__(self, cells=None):
        super().__init__()
        object.__setattr__(self, "_ms_dynamic", [])
        if isinstance(cells, OrderedDict):
            for name, cell in cells.items():
                self.insert_child_to_cell(name, cell)
                self._ms_dynamic.append(False)
        elif cells is not None:
            for cell in cells:
                self.append(cell)

    def _prefix(self):
        """The names' prefix above this container (``'net.layers.'``), read off its first
        child that has Parameters; '' when none has."""
        for key, cell in self._own_cells():
            for pname, p in cell.parameters_and_names():
                tail = f"{key}.{pname}"
                if p.name.endswith(tail):
                    return p.name[:len(p.name) - len(tail)]
                break
        return ""

    def _relist(self, entries):
        """Make ``entries`` ((key or None, cell) pairs, None for a positional child) the
        children, in order, renaming positional children and their Parameters by index."""
        prefix = self._prefix()
        for key, _ in self._own_cells():
            delattr(self, key)
        dynamic = []
        for i, (key, cell) in enumerate(entries):
            name = str(i) if key is None else key
            setattr(self, name, cell)
            if prefix and self.__dict__.get("_auto_prefix", True):
                cell.update_parameters_name(f"{prefix}{name}.")
            dynamic.append(key is None)
        object.__setattr__(self, "_ms_dynamic", dynamic)

    def _entries(self):
        dyn = self.__dict__.get("_ms_dynamic", [])
        return [(None if i < len(dyn) and dyn[i] else k, c) for i, (k, c) in enumerate(self._own_cells())]

    def append(self, cell):
        """Appends ``cell``; returns None, as MindSpore's."""
        _valid_cell(cell, type(self).__name__)
        self._relist(self._entries() + [(None, cell)])

    def extend(self, cells):
        who = type(self).__name__
        if not isinstance(cells, list):
            raise TypeError(f"For '{who}', the new cells wanted to append should be instance of list, "
                            f"but got {type(cells).__name__}.")
        for c in cells:
            if isinstance(c, CellDict):
                raise TypeError(f"For '{who}', the type of cell can not be CellDict, but got {type(c).__name__}.")
            _valid_cell(c, who)
        self._relist(self._entries() + [(None, c) for c in cells])
        return self

    def __iadd__(self, cells):
        return self.extend(cells)

    def insert(self, index, cell):
        who = type(self).__name__
        entries = self._entries()
        index = _valid_index(len(entries), index, who, inserting=True)
        _valid_cell(cell, who)
        self._relist(entries[:index] + [(None, cell)] + entries[index:])

    def __len__(self):
        return len(self._own_cells())

    def __bool__(self):
        return len(self) != 0

    def __getitem__(self, index):
        cells = self._own_cells()
        if isinstance(index, slice):
            return type(self)([c for _, c in cells[index]])
        if isinstance(index, Tensor) and state.compiled() and index.dtype.kind in ("int", "uint") and index.size == 1:
            index = int(index)     # MindSpore's graph switches over the layers; a traced index runs uncompiled
        return cells[_valid_index(len(cells), index, type(self).__name__)][1]

    def __setitem__(self, index, cell):
        who = type(self).__name__
        _valid_cell(cell, who)
        entries = self._entries()
        index = _valid_index(len(entries), index, who)
        entries[index] = (entries[index][0], cell)
        self._relist(entries)

    def __delitem__(self, index):
        who = type(self).__name__
        entries = self._entries()
        if isinstance(index, int):
            del entries[_valid_index(len(entries), index, who)]
        elif isinstance(index, slice):
            del entries[index]
        else:
            raise TypeError(f"For '{who}', the type of 'index' must be int or slice, but got {type(index).__name__}.")
        self._relist(entries)

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
        super().__init__()
        if len(args) == 1:   # MindSpore's extend: a list, no CellDict in it
            self.extend(args[0])

    def construct(self, *inputs):
        raise TypeError("CellList is a container and has no construct; call its items.")


class CellDict(Cell):
    """``nn.CellDict(*args, **kwargs)``: an ordered dict of Cells; each Cell becomes a child named by its
    key (parameter names get the key as prefix). ``auto_prefix=False`` keeps parameter names."""

    def __init__(self, *args, **kwargs):
        auto_prefix = kwargs.get("auto_prefix", True)
        super().__init__(auto_prefix)
        object.__setattr__(self, "_keys", [])
        if len(args) == 1:
            self.update(args[0])

    def __getitem__(self, key):
        if key not in self._keys:
            raise KeyError(key)
        return getattr(self, key)

    def __setitem__(self, key, cell):
        self._validate_key(key)
        self._validate_cell_type(cell)
        if key not in self._keys:
            self._keys.append(key)
        setattr(self, key, cell)

    def __delitem__(self, key):
        self._keys.remove(key)
        delattr(self, key)

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(list(self._keys))

    def __contains__(self, key):
        return key in self._keys

    def _validate_key(self, key):
        cls_name = type(self).__name__
        if not isinstance(key, str):
            raise TypeError(f"For '{cls_name}', the type of key should be string but got {type(key).__name__}.")
        if hasattr(self, key) and key not in self._keys:
            raise KeyError(f"For '{cls_name}', the key can not be same with the attributes of Cell, but got key {key}.")
        if "." in key:
            raise KeyError(f"For '{cls_name}', key can not contain \".\", but got key {key}")
        if key == "":
            raise KeyError(f"For '{cls_name}', key can not be empty string \"\", but got key {key}")

    def _validate_cell_type(self, cell):
        cls_name = type(self).__name__
        if cell is None:
            raise TypeError(f"For '{cls_name}', cell can not be None.")
        if not isinstance(cell, Cell):
            raise TypeError(f"For '{cls_name}', the type of cell should be Cell, but got {type(cell).__name__}.")
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            raise TypeError(f"For '{cls_name}', the type of cell can not be CellDict, CellList or SequentialCell, "
                            f"but got {type(cell).__name__}.")

    def clear(self):
        for k in list(self._keys):
            del self[k]

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def keys(self):
        return list(self._keys)

    def values(self):
        return [getattr(self, k) for k in self._keys]

    def items(self):
        return [(k, getattr(self, k)) for k in self._keys]

    def update(self, cells):
        from collections import abc
        if not isinstance(cells, abc.Iterable):
            raise TypeError("CellDict.update() should be called with an iterable of key-value pairs, but got "
                            + type(cells).__name__)
        if isinstance(cells, (OrderedDict, CellDict, abc.Mapping)):
            for key, cell in cells.items():
                self[key] = cell
        else:
            for i, k_v in enumerate(cells):
                if not isinstance(k_v, abc.Iterable):
                    raise TypeError("CellDict update sequence element #" + str(i) + " should be Iterable; but got "
                                    + type(k_v).__name__)
                if len(k_v) != 2:
                    raise ValueError("CellDict update sequence element #" + str(i) + ", length should be 2; but has "
                                     "length " + str(len(k_v)))
                self[k_v[0]] = k_v[1]

    def construct(self, *inputs):
        raise NotImplementedError
