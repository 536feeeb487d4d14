"""Array kernels that the MINDIR writer writes as one MindSpore node (``LayerNorm``, ``Softmax``)
rather than as the arithmetic they trace to.

Why: MindSpore computes a written ``ReduceSum``/``RealDiv``/``Rsqrt`` chain with its own kernels,
whose float32 sums round in another order than XLA's; in a float16 network (the zoo's BERT with
``compute_type: float16``) the next ``Cast`` to float16 then rounds some values the other way and
the outputs drift apart (3e-4 on BERT's logits). MindSpore's own ``LayerNorm`` and ``Softmax``
kernels give msjax's values, as the two forwards agree.

While ``naming()`` is open (the MINDIR writer's trace; this thread or task only), ``exported(kind,
fn, *arrays, **static)`` calls ``fn`` as a ``jax.jit`` named ``msjax_<kind>(key=value,...)`` (the
static arguments written into the name); XLA inlines it, and the writer reads the name back with
``parse``. Outside ``naming()`` it calls ``fn`` directly: training and eager code are untouched.
"""
from __future__ import annotations

import ast
import contextlib
import contextvars

import jax

__all__ = ["naming", "exported", "parse"]

_NAMING = contextvars.ContextVar("msjax_export_naming", default=False)
_PREFIX = "msjax_"


@contextlib.contextmanager
def naming():
    """Trace the kernels that ``exported`` wraps as named calls (this thread or task only)."""
    token = _NAMING.set(True)
    try:
        yield
    finally:
        _NAMING.reset(token)


def active():
    """Whether ``naming()`` is open (a module-level ``jax.jit`` whose body calls ``exported`` keys its
    cache on it, so a trace made outside an export is not reused inside one)."""
    return _NAMING.get()


def exported(kind, fn, *arrays, **static):
    """``fn(*arrays, **static)``; a named ``jax.jit`` call while ``naming()`` is open."""
    if not _NAMING.get():
        return fn(*arrays, **static)

    def named(*xs):
        return fn(*xs, **static)
    named.__name__ = named.__qualname__ = (
        f"{_PREFIX}{kind}({','.join(f'{k}={v!r}' for k, v in sorted(static.items()))})")
    return jax.jit(named)(*arrays)


def parse(name):
    """``(kind, static)`` of a name ``exported`` gave, else ``(None, None)``."""
    if not (isinstance(name, str) and name.startswith(_PREFIX) and name.endswith(")") and "(" in name):
        return None, None
    kind, _, args = name[len(_PREFIX):-1].partition("(")
    try:
        static = _kwargs(args)
    except (ValueError, SyntaxError):
        return None, None
    return kind, static


def _kwargs(text):
    call = ast.parse(f"f({text})", mode="eval").body
    return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
