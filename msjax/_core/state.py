"""The swap frame: the one place where stateful Parameters meet pure JAX.

Every msjax transform (grad, value_and_grad, GradOperation, jit, GRAPH_MODE cells)
calls a user function inside :class:`SwapFrame`: each Parameter the call touches
has its stored value replaced by the traced value the transform passed in; writes
(``set_data``, ``ops.assign``, BatchNorm statistics) land in the Parameter as
usual; on exit the frame collects the values the Parameters hold (the new state,
returned by the transform) and restores every original value in a ``finally``.

A :class:`Recorder` notes which Parameters are read or written while it is open,
so a transform can find the state of a function that merely closes over a Cell.
"""
from __future__ import annotations

import jax

__all__ = ["SwapFrame", "Recorder", "frames", "recorders", "is_tracer", "in_transform"]

# Open frames and recorders, innermost last. Module-level lists, not thread
# locals: reading them is on the hot path of every Parameter access.
frames: list = []
recorders: list = []


def is_tracer(x) -> bool:
    return isinstance(x, jax.core.Tracer)


def in_transform() -> bool:
    return bool(frames)


class Recorder:
    """Collects the Parameters read and written while open (ordered, unique)."""

    def __init__(self):
        self.reads: dict = {}
        self.writes: dict = {}

    def __enter__(self):
        recorders.append(self)
        return self

    def __exit__(self, *exc):
        recorders.remove(self)
        return False


def note_read(param):
    for r in recorders:
        r.reads[id(param)] = param


def note_write(param, value):
    """Called by Parameter before its stored value changes to ``value``."""
    for r in recorders:
        r.writes[id(param)] = param
    if frames:
        frames[-1].adopt(param)
    elif is_tracer(value):
        raise RuntimeError(
            f"Parameter '{param.name}' would keep a traced value outside msjax's transforms. "
            "Writes to Parameters inside jax.jit/jax.grad must go through msjax (ms.jit, ms.grad, "
            "GRAPH_MODE) so the new value can be written back after the call.")


class SwapFrame:
    """Swap ``params`` to ``values`` for the duration of a ``with`` block.

    ``new_values()`` (valid after exit) gives the values the Parameters held at the
    end of the block, i.e. the state after the call. Parameters written inside the
    block that were not swapped in are restored too and listed in ``adopted``.
    """

    def __init__(self, params, values):
        self.params = list(params)
        self.values = list(values)
        self._saved = {}
        self.adopted = []
        self.final = None

    def adopt(self, param):
        key = id(param)
        if key not in self._saved:
            self._saved[key] = (param, param._raw_get())
            self.adopted.append(param)

    def __enter__(self):
        saved = self._saved
        for p, v in zip(self.params, self.values):
            if id(p) not in saved:
                saved[id(p)] = (p, p._raw_get())
            p._raw_set(v)
        frames.append(self)
        return self

    def __exit__(self, *exc):
        try:
            self.final = [p._raw_get() for p in self.params]
            self.adopted_final = [p._raw_get() for p in self.adopted]
        finally:
            frames.pop()
            for p, v in self._saved.values():
                p._raw_set(v)
        return False
