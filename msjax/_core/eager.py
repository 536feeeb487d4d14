"""Hot eager kernels: PyNative ops that run often take JAX's compiled fast path.

An op called eagerly on concrete arrays normally goes through ``jax.numpy``'s
Python layer (argument checks, dtype promotion, primitive binding) on every
call, about as slow as JAX eager. ``hot(fn)`` returns a callable that counts
calls per argument signature (shapes, dtypes, Python scalar types); from the
``THRESHOLD``-th call with the same signature on, it runs ``jax.jit(fn)``, whose
C++ dispatch skips all of that. One-off calls (a tutorial's single ``ops.exp``,
the golden cases) never pay a compile; a training loop's PyNative ops do once.

The numbers are XLA's either way (same primitives, same dtypes). Calls with a
tracer among the arguments (inside ``ms.grad``/``ms.jit``/GRAPH_MODE) run ``fn``
directly, inlined into the enclosing trace.
"""
from __future__ import annotations

import jax
import numpy as np

__all__ = ["hot", "THRESHOLD", "enabled"]

THRESHOLD = 3            # calls with one signature before it is compiled
_ENABLED = [True]
_NEVER = -1
_NEEDS_VALUES = (jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError,
                 jax.errors.TracerIntegerConversionError, jax.errors.TracerBoolConversionError)
_Tracer = jax.core.Tracer
_Array = jax.Array


def enabled(flag=None):
    """Read or set whether hot kernels are used (``MSJAX_EAGER_JIT=0`` turns them off)."""
    if flag is not None:
        _ENABLED[0] = bool(flag)
    return _ENABLED[0]


def _signature(args):
    key = []
    for x in args:
        if isinstance(x, _Tracer):
            return None
        if isinstance(x, _Array):
            key.append((x.shape, x.dtype, x.weak_type))
        elif isinstance(x, (bool, int, float, complex)):
            key.append(type(x))
        elif isinstance(x, (np.ndarray, np.generic)):
            key.append((np.shape(x), x.dtype))
        else:
            return None   # anything else (lists, None): the plain path
    return tuple(key)


class _Hot:
    __slots__ = ("fn", "jitted", "seen", "__wrapped__")

    def __init__(self, fn):
        self.fn = fn
        self.__wrapped__ = fn
        self.jitted = jax.jit(fn)
        self.seen = {}

    def __call__(self, *args):
        if not _ENABLED[0]:
            return self.fn(*args)
        key = _signature(args)
        if key is None:
            return self.fn(*args)
        n = self.seen.get(key, 0)
        if n >= THRESHOLD:
            try:
                return self.jitted(*args)
            except _NEEDS_VALUES:
                # fn looks at concrete values (a check, a NumPy call): this signature
                # stays on the plain path for good
                self.seen[key] = _NEVER
        elif n != _NEVER:
            self.seen[key] = n + 1
        return self.fn(*args)


def hot(fn):
    """``fn`` (arrays and Python scalars in, arrays out, no side effects) with a
    compiled fast path for signatures it meets often."""
    return _Hot(fn)


def _from_environment():
    import os
    if os.environ.get("MSJAX_EAGER_JIT") == "0":
        _ENABLED[0] = False


_from_environment()
