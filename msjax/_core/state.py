"""The swap frame: the one place where stateful Parameters meet pure JAX.

Every msjax transform (grad, value_and_grad, GradOperation, jit, GRAPH_MODE cells)
calls a user function inside :class:`SwapFrame`: each Parameter the call touches
has its stored value replaced by the traced value the transform passed in; writes
(``set_data``, ``ops.assign``, BatchNorm statistics) land in the Parameter as
usual; on exit the frame collects the values the Parameters hold (the new state,
returned by the transform) and restores every original value in a ``finally``.

A :class:`Recorder` notes which Parameters are read or written while it is open,
so a transform can find the state of a function that merely closes over a Cell.

Parameters *created* while a transform runs (a Cell built inside an ``ms.jit``
function, a GRAPH_MODE ``construct`` or a function given to ``ms.grad``) are not
state of the transform: their values are computed inside the trace (initializers
draw from the traced RNG key). When the outermost frame closes, such a Parameter
that still holds a traced value gets a placeholder that raises a clear error if
it is ever used, so no tracer escapes into a Parameter that outlives the call.
"""
from __future__ import annotations

import jax

__all__ = ["SwapFrame", "Recorder", "frames", "recorders", "is_tracer", "in_transform"]

# Open frames and recorders, innermost last. Module-level lists, not thread
# locals: reading them is on the hot path of every Parameter access.
frames: list = []
recorders: list = []

# How functions trace, as far as caches are concerned:
VERSION = [0]           # bumped by anything that changes how a Cell traces (to_float, hook
                        # registration...); a compiled function made before is retraced.
                        # Training flags are part of the cache key instead (train/eval switch
                        # back and forth without recompiling)
TRACE_ONLY = [0]        # bumped when a traced call makes something that lives only in that call (a
                        # HookBackward built in ``construct``): its compiled function is not kept
COMPILED_SCOPE = [0]    # > 0 while an ``ms.jit`` function runs (MindSpore compiles its body)
SHADOW_PASS = [0]       # > 0 while integer inputs' Float32 stand-ins are differentiated (dtype refusals: the real pass's)
COLLECTIVES_TRACED = [0]   # collectives traced outside a data-parallel step; msjax.communication
                           # counts them, and lends the transform core its data-parallel step


def bump_version():
    VERSION[0] += 1


def compiled():
    """Whether MindSpore would run the current code as a compiled graph."""
    from . import context
    return COMPILED_SCOPE[0] > 0 or context.is_graph_mode()


def is_tracer(x) -> bool:
    return isinstance(x, jax.core.Tracer)


def in_transform() -> bool:
    return bool(frames)


class Recorder:
    """Collects the Parameters read and written while open (ordered, unique), and
    those created while open (not state: they are local to the traced call)."""

    def __init__(self):
        self.reads: dict = {}
        self.writes: dict = {}
        self.created: dict = {}

    def __enter__(self):
        recorders.append(self)
        return self

    def __exit__(self, *exc):
        recorders.remove(self)
        return False


def note_read(param):
    for r in recorders:
        r.reads[id(param)] = param


FORWARD_MODE = [0]     # open forward-mode (jvp) traces: custom backward rules cannot serve them


def forward_mode_body(fn):
    """``fn`` (a forward-mode transform's pure body) noting that forward mode is open."""
    def body(*args):
        FORWARD_MODE[0] += 1
        try:
            return fn(*args)
        finally:
            FORWARD_MODE[0] -= 1
    return body


def note_created(param):
    """Called by Parameter.__init__: a Parameter born inside a transform."""
    for r in recorders:
        r.created[id(param)] = param
    if frames:
        frames[0].created.append(param)


class EscapedValue:
    """The value of a Parameter created inside a traced call, after that call: its
    traced value no longer exists. Shape and dtype stay readable; any use of the
    value raises ``RuntimeError`` naming the Parameter."""

    __slots__ = ("name", "shape", "dtype")

    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, tuple(shape), dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def _fail(self, *args, **kwargs):
        raise RuntimeError(
            f"Parameter '{self.name}' was created inside a compiled or differentiated function (ms.jit, "
            "GRAPH_MODE, ms.grad) and its value only existed during that call. Create Parameters and Cells "
            "outside the function to keep them, or use them only inside the call.")

    __array__ = __float__ = __int__ = __bool__ = __iter__ = __len__ = __getitem__ = _fail

    def __getattr__(self, name):
        self._fail()

    def __repr__(self):
        return f"<value of Parameter '{self.name}' that only existed inside a traced call>"


def written(param, value):
    """The value a state op (``Assign`` & co, a Tensor assigned to a Cell's Parameter attribute) stores
    in ``param``: inside a gradient pass, as MindSpore differentiates ``Assign`` (the frame's ``tie``)."""
    return frames[-1].written(param, value) if frames else value


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

    def __init__(self, params, values, tie=None):
        self.params = list(params)
        self.values = list(values)
        self.tie = tie      # (written value, the Parameter's value at entry or None) -> the value stored
        self._saved = {}
        self.adopted = []
        self.created = []     # Parameters created while this (outermost) frame was open
        self.final = None

    def written(self, param, value):
        if self.tie is None:
            return value
        entry = next((v for p, v in zip(self.params, self.values) if p is param), None)
        return self.tie(value, entry)

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
            if self.created and not frames:
                for p in self.created:
                    v = p._raw_get()
                    if is_tracer(v):
                        p._raw_set(EscapedValue(p.name, v.shape, v.dtype))
                self.created = []
        return False
