"""Which random stream a random transform draws from: MindSpore 2.10's per-op, per-worker seeding.

MindSpore's C++ random operations (``RandomCrop``, ``RandomHorizontalFlip``,
``RandomResizedCrop``, ...) each own a ``std::mt19937``. Measured on MindSpore 2.10:

* a ``map`` builds its operations afresh for each of its ``num_parallel_workers``
  workers whenever an iterator is created; worker ``k``'s copy of an operation seeds
  its engine with ``GetSeed() + k`` (``GetSeed()``: the configured seed, a fresh random
  one while none is set), every operation of the list separately (two random
  operations in one ``map`` draw from two engines seeded alike);
* the map hands its rows to its workers in turn: message ``i`` goes to worker
  ``i % num_parallel_workers``, where the messages are the rows and one end-of-epoch
  marker after each epoch; each worker treats its rows in order, and the engines go on
  from epoch to epoch;
* an operation called eagerly (``op(image)``) is built for that call: its engine starts
  again from ``GetSeed()`` every call;
* the operations that a selecting operation holds (``RandomApply``, ``RandomChoice``,
  ``RandomSelectSubpolicy``: classes with ``_holds_operations = True``) are not seeded by the
  map: each keeps the ``GetSeed()`` it was built with, in every worker, while the selecting
  operation itself is seeded ``GetSeed() + k``.

``MapStreams`` keeps one map iterator's engines and hands each row its worker; the
transforms ask ``stream(self)`` for the engine to draw from (a fresh one outside a
map). Rows of one worker may run on several msjax threads: ``MapStreams.applying``
makes each wait for the previous row of its worker, so the draws come in MindSpore's
order whatever the thread scheduling.
"""
from __future__ import annotations

import threading

from . import config
from ._stdrandom import MT19937

__all__ = ["stream", "per_column", "eager", "MapStreams"]

_U32 = 0xFFFFFFFF
_local = threading.local()


def _seed():
    """MindSpore's ``GetSeed()``: the configured seed, or a random one when none is set."""
    return config._base_seed()


def stream(op):
    """The ``std::mt19937`` that ``op`` draws from now: its engine for the current map
    worker, or a fresh one seeded with ``GetSeed()`` for an eager call. Call it once per
    application and take every draw of that application from it."""
    ctx = getattr(_local, "ctx", None)
    if ctx is not None:
        streams, slot = ctx
        g = streams._engine(op, slot)
        if g is not None:
            return g
    return MT19937(_seed())


class eager:
    """Context in which the random operations draw as eager calls (a fresh engine seeded
    ``GetSeed()`` per call), also inside a map: MindSpore's Python-implemented operations
    (``RandomOrder``) call the operations they hold that way."""

    def __enter__(self):
        self.prev = getattr(_local, "ctx", None)
        _local.ctx = None
        return self

    def __exit__(self, *exc):
        _local.ctx = self.prev
        return False


def per_column(fn, columns):
    """``fn`` on each column of a row, every column drawing what the first drew: MindSpore's
    random operations draw once per row for all their input columns."""
    ctx = getattr(_local, "ctx", None)
    if ctx is None or len(columns) < 2:
        return [fn(c) for c in columns]     # eager engines start afresh on every call anyway
    streams, slot = ctx
    before = streams._snapshot(slot)
    out = [fn(columns[0])]
    after = streams._snapshot(slot)
    for c in columns[1:]:
        streams._restore(slot, before)
        out.append(fn(c))
    streams._restore(slot, after)
    return out


def _members(value):
    """The transforms an operation holds (``RandomApply``'s list, a policy's (op, prob)
    pairs, a wrapped crop, ...)."""
    todo = list(getattr(value, "__dict__", {}).values())
    while todo:
        v = todo.pop()
        if isinstance(v, (list, tuple)):
            todo.extend(v)
        elif callable(v) and not isinstance(v, type) and type(v).__module__.startswith("msjax.dataset"):
            yield v


class MapStreams:
    """One map iterator's random engines: one per (operation, worker), each seeded
    ``GetSeed() + worker``, created when first drawn from."""

    def __init__(self, operations, workers):
        self.workers = max(1, int(workers or 1))
        self._base = _seed()
        self._ops = {}
        self._held = set()               # ops inside a selecting operation: seeded GetSeed() alone
        todo = [(op, False) for op in operations]
        while todo:                      # the map's operations and those they hold
            op, held = todo.pop()
            if held:
                self._held.add(id(op))
            if id(op) not in self._ops:
                self._ops[id(op)] = op
                inner = held or getattr(op, "_holds_operations", False)
                todo.extend((m, inner) for m in _members(op))
        self._engines = [{} for _ in range(self.workers)]   # per worker: only its rows touch it
        self._next = 0                   # position of the next message (rows and end-of-epoch markers)
        self._assigned = [0] * self.workers
        self._done = [0] * self.workers
        self._cond = threading.Condition()

    def _engine(self, op, slot):
        if id(op) not in self._ops:
            return None                  # an operation made inside a user function: eager
        engines = self._engines[slot]
        g = engines.get(id(op))
        if g is None:
            offset = 0 if id(op) in self._held else slot
            g = engines[id(op)] = MT19937((self._base + offset) & _U32)
        return g

    def _snapshot(self, slot):
        return {k: g.getstate() for k, g in self._engines[slot].items()}

    def _restore(self, slot, snap):
        engines = self._engines[slot]
        for k in list(engines):
            if k not in snap:
                del engines[k]           # made by the first column: starts afresh
        for k, st in snap.items():
            g = engines.get(k)
            if g is None:
                g = engines[k] = MT19937(0)
            g.setstate(st)

    def rows(self, items):
        """``items`` (one epoch's rows), each paired with its (worker, turn); the epoch's
        end-of-epoch marker then takes a worker's turn too."""
        for item in items:
            slot = self._next % self.workers
            turn = self._assigned[slot]
            self._assigned[slot] += 1
            self._next += 1
            yield (slot, turn), item
        self._next += 1

    def applying(self, tag):
        """Context for applying the operations to the row tagged ``tag``."""
        return _Applying(self, tag)


class _Applying:
    def __init__(self, streams, tag):
        self.streams, (self.slot, self.turn) = streams, tag

    def __enter__(self):
        s = self.streams
        if s.workers > 1:
            with s._cond:
                s._cond.wait_for(lambda: s._done[self.slot] >= self.turn)
        self.prev = getattr(_local, "ctx", None)
        _local.ctx = (s, self.slot)
        return self

    def __exit__(self, *exc):
        _local.ctx = self.prev
        s = self.streams
        with s._cond:
            s._done[self.slot] = self.turn + 1
            s._cond.notify_all()
        return False
