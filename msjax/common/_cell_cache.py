"""The compiled functions of Cells, and MindSpore's views of them:
``Cell.compile_cache`` and ``mindspore.common.api.cells_compile_cache``.

A Cell that msjax compiles (a GRAPH_MODE call, a ``to_float`` cell, a training
step, a built-in optimizer's step, a loss-scale update) keeps its compiled
functions here, one per kind, each caching one ``jax.jit`` per argument
signature. ``cell_function(cell, kind, make)`` is how msjax's Cells get them.
The store sits in the Cell's ``__dict__`` (it dies with the Cell) and belongs to
that Cell only: a Cell that got another's store (a deep copy, ``nnx.merge`` of a
split Cell) starts an empty one of its own, so it compiles for itself.

MindSpore keeps, per Cell, the set of phases (compiled graphs) in
``cell.compile_cache`` and maps ``id(cell)`` to that set in
``cells_compile_cache`` for every live Cell; real code clears them, or deletes
keys, to free compiled graphs, and registers deep-copied Cells by hand. Here a
phase is one compiled signature (``'construct.0'``, ``'train_step.1'``...);
clearing a Cell's ``compile_cache``, or removing it from ``cells_compile_cache``
(``del``, ``pop``, ``popitem``, ``clear``), drops that Cell's compiled functions,
so its next call traces and compiles again.
"""
from __future__ import annotations

import weakref
from collections.abc import MutableSet

__all__ = ["cell_function", "cell_functions", "compile_cache", "register", "cells_compile_cache", "CompileCache"]

_STORE = "_ms_compiled"


class _Functions(dict):
    """kind -> compiled function of the Cell ``owner``; its ``view`` is the Cell's
    CompileCache. Copies are empty and unowned."""

    view = None

    def __init__(self, owner=None):
        super().__init__()
        self.owner = weakref.ref(owner) if owner is not None else None

    def owned_by(self, cell):
        return self.owner is not None and self.owner() is cell

    def __copy__(self):
        return _Functions()

    def __deepcopy__(self, memo):
        return _Functions()

    def __reduce__(self):       # a pickled Cell comes back without compiled functions
        return _Functions, ()


def _owned(cell):
    """``cell``'s own store, or None."""
    store = cell.__dict__.get(_STORE)
    return store if store is not None and store.owned_by(cell) else None


def _store(cell):
    store = _owned(cell)
    if store is None:
        store = _Functions(cell)
        object.__setattr__(cell, _STORE, store)
    return store


def cell_function(cell, kind, make):
    """``cell``'s compiled function ``kind``, made by ``make()`` on first use."""
    store = _store(cell)
    fn = store.get(kind)
    if fn is None:
        fn = store[kind] = make()
    return fn


def cell_functions(cell):
    """``cell``'s compiled functions by kind (read only; empty when it has none)."""
    return dict(_owned(cell) or {})


def _signatures(fn):
    return fn.signatures()      # a StatefulFunction: one entry per compiled signature


class CompileCache(MutableSet):
    """``cell.compile_cache``: the phases (compiled signatures) of one Cell.
    ``clear()`` drops the Cell's compiled functions; ``discard(phase)`` drops one
    signature. Phases are added by compiling, not by ``add``."""

    def __init__(self, cell):
        self._key = id(cell)
        self._cell = weakref.ref(cell, self._cell_died)

    def _cell_died(self, _ref):
        if dict.get(cells_compile_cache, self._key) is self:
            dict.__delitem__(cells_compile_cache, self._key)

    def _functions(self):
        cell = self._cell()
        store = None if cell is None else _owned(cell)
        return store if store is not None else {}

    def _phases(self):
        return [(f"{kind}.{i}", kind, key) for kind, fn in self._functions().items()
                for i, key in enumerate(_signatures(fn))]

    def __iter__(self):
        return iter([name for name, _, _ in self._phases()])

    def __len__(self):
        return sum(len(_signatures(fn)) for fn in self._functions().values())

    def __contains__(self, phase):
        return any(name == phase for name, _, _ in self._phases())

    def add(self, phase):
        raise TypeError("A Cell's compile_cache lists what msjax compiled for it; phases cannot be added by hand.")

    def discard(self, phase):
        for name, kind, key in self._phases():
            if name == phase:
                self._functions()[kind].discard(key)
                return

    def clear(self):
        """Drop all of the Cell's compiled functions: its next call compiles again."""
        self._functions().clear()

    def __repr__(self):
        return "{" + ", ".join(repr(p) for p in self) + "}" if len(self) else "set()"


def compile_cache(cell):
    """The CompileCache of ``cell`` (one per Cell)."""
    store = _store(cell)
    if store.view is None:
        store.view = CompileCache(cell)
    return store.view


class _CellsCompileCache(dict):
    """``cells_compile_cache``: ``id(cell)`` -> ``cell.compile_cache`` for every live
    Cell (MindSpore's dict). Removing an entry drops that Cell's compiled functions;
    an entry leaves by itself when its Cell is garbage-collected."""

    @staticmethod
    def _drop(value):
        if isinstance(value, CompileCache):
            value.clear()

    def __delitem__(self, key):
        value = self[key]
        super().__delitem__(key)
        self._drop(value)

    def pop(self, key, *default):
        missing = object()
        value = super().pop(key, missing)
        if value is missing:
            if default:
                return default[0]
            raise KeyError(key)
        self._drop(value)
        return value

    def popitem(self):
        key, value = super().popitem()
        self._drop(value)
        return key, value

    def clear(self):
        values = list(self.values())
        super().clear()
        for value in values:
            self._drop(value)


cells_compile_cache = _CellsCompileCache()


def register(cell):
    """Add a new Cell to ``cells_compile_cache`` (what MindSpore's ``Cell.__init__`` does)."""
    cells_compile_cache[id(cell)] = compile_cache(cell)
