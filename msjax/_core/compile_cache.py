"""MindSpore's compile cache as JAX's persistent compilation cache.

``ms.set_context(enable_compile_cache=True, compile_cache_path=...)`` (or MindSpore's
environment variables ``MS_COMPILER_CACHE_ENABLE=1`` and ``MS_COMPILER_CACHE_PATH``)
make every executable XLA compiles for msjax (GRAPH_MODE Cells, ``ms.jit``, gradient
functions, training steps) land in a directory on disk, so a second process running the
same script loads it instead of compiling again. Without a path, msjax uses
``$MSJAX_CACHE_DIR`` or ``~/.cache/msjax/xla``. It is made 0700; one others own or can
write is refused (``common._cache_auth``).

Differences from MindSpore: MindSpore caches its front-end graph per script and
rank (``<path>/rank_<id>/``); JAX caches compiled executables by the hash of
their program and compile options, so one directory serves every script, rank
and MindSpore version safely (a changed program is a new entry, never a stale
hit). On top, ``common._frontend_cache`` is MindSpore's front-end cache: unchanged
scripts load compiled steps untraced. No entry is written for executables with host
callbacks (runtime prints, hooks, the ``cpu-kernels`` convolutions).
"""
from __future__ import annotations

import os

import jax

__all__ = ["enable", "disable", "default_path", "active_path"]

_active = [None]
check_dir = [lambda path: os.makedirs(path, 0o700, exist_ok=True) or True]   # common._cache_auth lends its check


def default_path():
    """The directory used when no ``compile_cache_path`` is given."""
    root = os.environ.get("MSJAX_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "msjax")
    return os.path.join(root, "xla")


def enable(path=None):
    """Turn on JAX's persistent cache in ``path`` (made 0700); off if ``check_dir`` refuses it."""
    if not check_dir[0](path := os.path.realpath(path or default_path())):
        return disable()
    jax.config.update("jax_compilation_cache_dir", path)
    # cache every executable, however small or quick to compile: msjax's steps are
    # many small programs, and the first step of a new process is what users feel
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
    _reset_jax_cache_state()
    _active[0] = path
    return path


def disable():
    """Turn the persistent cache off again (compiled functions stay in memory)."""
    if _active[0] is not None:
        jax.config.update("jax_compilation_cache_dir", None)
        _reset_jax_cache_state()
        _active[0] = None


def active_path():
    """The directory in use, or ``None`` when the cache is off."""
    return _active[0]


def _reset_jax_cache_state():
    # JAX decides once per process whether its cache is usable; a directory set
    # after the first compile needs that decision taken again.
    try:
        from jax._src import compilation_cache
        compilation_cache.reset_cache()
    except (ImportError, AttributeError):   # pragma: no cover - other jax layouts
        pass

