"""``ms.jit``: compile a function or a ``construct`` method with ``jax.jit``.

The function runs through the same stateful core as gradients: Parameters it
touches become inputs, Parameters it writes are written back after each call,
and the compiled function is cached per argument signature.
"""
from __future__ import annotations

import functools
import types

from . import provided, state
from .transforms import COMPILED_SCOPE, StatefulFunction, to_tensors

__all__ = ["jit"]
PIJIT_ENABLED = [True]   # mindspore._c_expression.jit_mode_pi_enable()/jit_mode_pi_disable()


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False, backend="",
        input_signature=None, hash_args=None, jit_config=None, compile_once=False, **options):
    """``mindspore.jit`` (usable as ``@jit`` or ``@jit(...)``)."""
    if function is None:
        return functools.partial(jit, capture_mode=capture_mode, jit_level=jit_level, dynamic=dynamic,
                                 fullgraph=fullgraph, backend=backend)
    if capture_mode == "bytecode" and getattr(function, "_ms_is_cell", False):   # as MindSpore's PIJitCaptureContext:
        if isinstance(function, type):   # a Cell class: its construct compiled
            function.construct = jit(function.construct, capture_mode=capture_mode, fullgraph=fullgraph)
            return function              # a Cell: its construct (as it is now) compiled, bound to it
        return types.MethodType(jit(function.construct.__func__, capture_mode=capture_mode, fullgraph=fullgraph), function)
    sf = StatefulFunction(function)
    read = [capture_mode != "ast"]

    @functools.wraps(function)
    def compiled(*args, **kwargs):
        if capture_mode == "bytecode" and not PIJIT_ENABLED[0]:
            return function(*args, **kwargs)
        if not read[0]:   # as MindSpore's graph compiler reads it: its refusals, graph-only syntax
            sf.fn, read[0] = provided.need("graph_function")(function, args), True
        before = list(sf._cache.values()) if capture_mode == "bytecode" else None
        sf.last_entry = None
        COMPILED_SCOPE[0] += 1
        try:
            out = to_tensors(sf(*args, **kwargs))
        finally:
            COMPILED_SCOPE[0] -= 1
        if before is not None:   # PIJit's code record (mindspore._c_expression.get_code_extra)
            provided.need("pijit_record")(function, sf, before)
        return out

    compiled.__ms_jit__ = sf
    return compiled


# Syntax levels of ms.jit's JIT Fallback (accepted; JAX traces plain Python).
STRICT = 0
COMPATIBLE = 1
LAX = 2


class JitConfig:
    """``mindspore.JitConfig``: options of graph compilation. Accepted and kept
    (``self.jit_config_dict``); XLA decides the optimisation levels."""

    def __init__(self, jit_level="", exc_mode="auto", jit_syntax_level="", debug_level="RELEASE",
                 infer_boost="off", **kwargs):
        if jit_level not in ("", "O0", "O1", "O2"):
            raise ValueError(f"For 'jit_level', the value should be in ['O0', 'O1', 'O2'], but got {jit_level}.")
        if exc_mode not in ("auto", "sink", "no_sink"):
            raise ValueError(f"For 'exc_mode', the value should be in ['auto', 'sink', 'no_sink'], "
                             f"but got {exc_mode}.")
        self.jit_config_dict = dict(jit_level=jit_level, exc_mode=exc_mode, jit_syntax_level=jit_syntax_level,
                                    debug_level=debug_level, infer_boost=infer_boost, **kwargs)


def jit_class(cls):
    """``mindspore.jit_class``: a user class (not a Cell) usable in compiled code, as every class is in a trace."""
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    if getattr(cls, "_ms_is_cell", False):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot be used for nn.Cell: {cls}.")
    if not any("__call__" in vars(k) for k in cls.__mro__[:-1]):
        cls.__call__ = _not_callable
    return cls


def _not_callable(self, *args, **kwargs):
    """Calling a jit_class object without ``__call__``: ValueError in a graph (MindSpore's), else Python's TypeError."""
    name = type(self).__name__
    if state.in_transform():
        raise ValueError(f"MsClassObject: '{name}' has no __call__ function, please check the code.")
    raise TypeError(f"'{name}' object is not callable")


def lazy_inline(fn=None, attrs=None, policy=None):
    """``mindspore.lazy_inline``: a compile-time hint for reused Cells; XLA
    needs none, so the decorated ``__init__`` is returned unchanged."""
    if fn is None:
        return lambda f: f
    return fn
