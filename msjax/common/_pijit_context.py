"""``mindspore.common._pijit_context``: ``PIJitCaptureContext``, the decorator behind
``jit(capture_mode="bytecode")`` (MindSpore's own tests build their PIJit helpers on it).

msjax has no bytecode capture: the decorated function is ``msjax.jit(fn, capture_mode="bytecode")``,
traced whole as the AST mode traces (no graph breaks); ``mindspore._c_expression.get_code_extra`` gives
the record of its compiled programs (``msjax.common._pijit_records``).
"""
from __future__ import annotations

import functools
import types

from .._core.jit import JitConfig, jit


class Unsupported(RuntimeError):
    """What PIJit raises under ``jit(fullgraph=True)`` at a graph break. msjax traces the whole function
    (it has no graph breaks: a ``print`` or other Python code runs while tracing), so it never raises it."""


class PIJitCaptureContext:
    """``PIJitCaptureContext(fullgraph=False, jit_config=None)``: a decorator compiling a function, a
    method, a Cell or a Cell class's ``construct``."""

    def __init__(self, fullgraph=False, jit_config=None):
        config = {"fullgraph": fullgraph}
        if isinstance(jit_config, JitConfig):
            config.update(jit_config.jit_config_dict)
        elif jit_config is not None:
            config.update(jit_config)
        disable = config.get("_disable_pijit")
        if disable is not None and not callable(disable):
            raise TypeError(f"The config '_disable_pijit' must be callable but got {disable}")
        self.config = config

    def __call__(self, fn):
        if isinstance(fn, type) and hasattr(fn, "construct"):
            fn.construct = self(fn.construct)
            return fn
        if hasattr(fn, "construct") and not isinstance(fn, types.FunctionType):
            return types.MethodType(self(fn.construct.__func__), fn)
        if isinstance(fn, types.MethodType):
            return types.MethodType(self(fn.__func__), fn.__self__)
        if not isinstance(fn, types.FunctionType):
            return fn
        compiled = jit(fn, capture_mode="bytecode", fullgraph=bool(self.config["fullgraph"]))
        disable = self.config.get("_disable_pijit")
        if disable is None:
            return compiled

        @functools.wraps(fn)
        def run(*args, **kwargs):   # jit_config={"_disable_pijit": f}: f(args, kwargs) true runs fn uncompiled
            return fn(*args, **kwargs) if disable(args, kwargs) else compiled(*args, **kwargs)
        return run
