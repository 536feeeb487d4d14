"""Hot eager kernels: PyNative ops that run often take JAX's compiled fast path.

An op called eagerly on concrete arrays normally goes through ``jax.numpy``'s
Python layer (argument checks, dtype promotion, primitive binding) on every
call, about as slow as JAX eager. ``hot(fn)`` returns a callable that counts
calls per argument signature (each array's interned aval, each Python scalar's
type); after ``THRESHOLD`` plain calls it runs ``jax.jit(fn)``, whose C++
dispatch skips all of that. One-off calls (a tutorial's single ``ops.exp``, the
golden cases) never pay a compile; a training loop's PyNative ops do once.

A signature whose compiled call has run is *proven*: later calls take the
shortest path (one set lookup, then ``jax.jit``'s dispatch). A signature whose
compiled call fails (``fn`` needs concrete values, or raises) stays on the plain
path for good, so errors come from the plain, checking path. The numbers are
XLA's either way (same primitives, same dtypes). Calls with a tracer among the
arguments (inside ``ms.grad``/``ms.jit``/GRAPH_MODE) run ``fn`` directly,
inlined into the enclosing trace.
"""
from __future__ import annotations

import jax
import numpy as np

__all__ = ["hot", "THRESHOLD", "enabled"]

THRESHOLD = 3            # plain calls with one signature before it is compiled
_ON = True
_NEVER = -1
_Tracer = jax.core.Tracer
_Array = jax.Array
try:   # the concrete jax.Array type: its interned ``aval`` is the fast key
    from jax._src.array import ArrayImpl as _ArrayImpl
except ImportError:  # pragma: no cover  (then every call takes the generic path)
    _ArrayImpl = None


def enabled(flag=None):
    """Read or set whether hot kernels are used (``MSJAX_EAGER_JIT=0`` turns them off)."""
    global _ON
    if flag is not None:
        _ON = bool(flag)
    return _ON


def _key(x):
    """One argument's part of a signature; None where only the plain path will do.
    A concrete array's key is its aval (interned by JAX: shape, dtype, weak type,
    sharding), a Python scalar's its type; the fast paths below build the same keys."""
    if isinstance(x, _Tracer):
        return None
    if isinstance(x, _Array):
        return x.aval
    if isinstance(x, (bool, int, float, complex)):
        return type(x)
    if isinstance(x, (np.ndarray, np.generic)):
        return (np.shape(x), x.dtype)
    return None   # anything else (lists, None): the plain path


def _signature(args):
    if len(args) == 1:
        return _key(args[0])
    keys = tuple(map(_key, args))
    return None if any(k is None for k in keys) else keys


def _arity(fn):
    """The fixed number of positional arguments of a plain function, else None."""
    code = getattr(fn, "__code__", None)
    if code is None or fn.__defaults__ or code.co_kwonlyargcount or code.co_flags & 0x0C:  # *args/**kw
        return None
    return code.co_argcount


def hot(fn, nargs=None):
    """``fn`` (arrays and Python scalars in, arrays out, no side effects) with a
    compiled fast path for signatures it meets often. ``nargs`` (found for a plain
    function) gives one- and two-argument kernels their shortest path."""
    jitted = jax.jit(fn)
    seen = {}         # signature -> plain calls so far, or _NEVER
    proven = set()    # signatures whose compiled call has run

    def full(args):
        if not _ON:
            return fn(*args)
        key = _signature(args)
        if key is None:
            return fn(*args)
        if key in proven:
            return jitted(*args)
        n = seen.get(key, 0)
        if n == _NEVER:
            return fn(*args)
        if n < THRESHOLD:
            seen[key] = n + 1
            return fn(*args)
        try:
            out = jitted(*args)
        except Exception:
            # fn looks at concrete values (a check, a NumPy call) or raises: this
            # signature stays on the plain path for good, which gives its errors
            seen[key] = _NEVER
            return fn(*args)
        proven.add(key)
        return out

    nargs = _arity(fn) if nargs is None else nargs
    if nargs == 1:
        def kernel(x):
            if _ON and (x.aval if type(x) is _ArrayImpl else type(x)) in proven:
                return jitted(x)
            return full((x,))
    elif nargs == 2:
        def kernel(x, y):
            if _ON and (x.aval if type(x) is _ArrayImpl else type(x),
                        y.aval if type(y) is _ArrayImpl else type(y)) in proven:
                return jitted(x, y)
            return full((x, y))
    else:
        def kernel(*args):
            return full(args)
    kernel.__wrapped__ = fn
    return kernel


def _from_environment():
    import os
    if os.environ.get("MSJAX_EAGER_JIT") == "0":
        enabled(False)


_from_environment()
