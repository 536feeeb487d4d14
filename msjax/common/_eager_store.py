"""PyNative's store of eager executables: a program compiled once is loaded by the next process.

Every PyNative op call that JAX has not compiled yet (a new op, a new shape, a new
dtype) goes through one place, ``runtime._host_eager``'s hook in front of JAX's eager
compile. Programs of exact primitives run on the host for their first calls; every
other program (transcendentals, float sums, softmax, matmul, a gradient's program)
is compiled by XLA, 20-150 ms on a CPU core. This store keeps each such executable on
disk, so a second process (a notebook kernel restart, a script run again, the test
suite's other worker) loads it in about 2 ms instead of lowering and compiling it.
A loaded executable is the one the first process compiled: its numbers are the
compiled program's, bit for bit.

* Key: the program itself (the printed jaxpr: every primitive, its parameters and
  literals), its input and output types (shape, dtype, weak type), and what decides
  the compiled code beyond it: the JAX and jaxlib versions, JAX's tracing
  configuration and x64/matmul-precision settings, the ``XLA_``/``JAX_`` environment
  (``XLA_FLAGS``) as it was when the backend started (XLA reads it then), the backend and its devices, the CPU's instruction set. A program
  whose text is not the same in another process (an object shown by its address: a
  host callback) or that calls FFI targets other than msjax's native kernels, with closed-over
  constants, or larger than ``MAX_EQUATIONS`` equations, is not stored. A program calling
  msjax's native kernels (``nn.Dense``'s oneDNN matmul, the convolutions; a small net's
  gradient) has the built kernel library's name (a digest of its source) in its key.
* Trust: an entry's name starts with a public name of the per-user key; each entry is written and read through ``common._cache_auth`` (an HMAC tag
  under the per-user key, owner-only ``0700`` directories; a file or directory that
  another user owns or others can write is refused); a damaged, forged or foreign
  entry is refused with a warning, removed and compiled again. Nothing is unpickled
  before its tag verifies.
* Size: at most ``MSJAX_EAGER_STORE_MB`` megabytes (default 256); past it the least
  recently used entries (loading refreshes an entry's time) are removed down to 3/4.
* Place: ``$MSJAX_EAGER_STORE_DIR``; else, while the compile cache is on,
  ``<compile_cache_path>/msjax-eager``; else ``$MSJAX_CACHE_DIR/eager`` or
  ``~/.cache/msjax/eager``.
* On by default. ``MSJAX_EAGER_STORE=0`` turns it off, and so does an explicit
  ``set_context(enable_compile_cache=False)`` (MindSpore's switch for its caches;
  left unset, the store is on).

Differences from MindSpore: MindSpore compiles no program for a PyNative op (its
kernels are prebuilt), so it has no such store. msjax's entries are XLA executables
for this machine's CPU and this jaxlib; another version or CPU is another key.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import io
import os
import pickle
import re
import sys

import jax
import jax.extend.core
import numpy as np

from .._core import compile_cache, context, provided
from ..runtime import _host_eager
from . import _cache_auth, _frontend_cache

__all__ = ["directory", "key", "load", "save", "max_bytes", "SUBDIR", "DIR_ENV", "OFF_ENV", "MB_ENV"]

SUBDIR = "msjax-eager"
DIR_ENV = "MSJAX_EAGER_STORE_DIR"
OFF_ENV = "MSJAX_EAGER_STORE"
MB_ENV = "MSJAX_EAGER_STORE_MB"
SUFFIX = ".xe"
MAX_EQUATIONS = 400      # larger programs are whole networks: the compile cache's business
MAX_CONST_BYTES = 1 << 20   # constants closed over by nested calls, hashed into the key; more: not stored
_FORMAT = 2              # 2: nested calls' constants in the key
_BYTES = {}              # directory -> bytes this process believes it holds
_KEY_IDS = {}
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_REFUSED = ("0x", "callback")
_TARGET = re.compile(r"\btarget_name=(\w+)")


def directory():
    """The store's directory, or ``None`` when the store is off."""
    if os.environ.get(OFF_ENV, "1") == "0" or context._ctx.get("enable_compile_cache") is False:
        return None
    d = os.environ.get(DIR_ENV)
    if d:
        return os.path.abspath(d)
    active = compile_cache.active_path()
    if active is not None:
        return os.path.join(active, SUBDIR)
    return os.path.join(os.path.dirname(compile_cache.default_path()), "eager")


def max_bytes():
    try:
        return int(float(os.environ.get(MB_ENV, "256")) * (1 << 20))
    except ValueError:
        return 256 << 20


@functools.lru_cache(maxsize=1)
def _fixed():
    libs = tuple((m, getattr(sys.modules[m], "__version__", "")) for m in ("jaxlib",) if m in sys.modules)
    here = jax.local_devices()[0]       # the executable runs on the device it was compiled for
    # the XLA_/JAX_ variables as the backend, started above, read them: XLA parses XLA_FLAGS
    # once a process (and scanning the environment per program cost 0.2 ms of a 5 ms load)
    env = tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith(("XLA_", "JAX_"))))
    return (jax.__version__, libs, jax.default_backend(), here.client.platform_version, here.id,
            jax.process_index(), tuple(sorted({d.device_kind for d in jax.devices()})), jax.device_count(),
            _frontend_cache._cpu_features(), env)


def _environment():
    from jax._src import config
    return (_fixed(), _ADDRESS.sub("", repr(config.trace_context())),
            bool(jax.config.jax_enable_x64), str(jax.config.jax_default_matmul_precision))


def _avals(avals):
    return tuple((tuple(map(str, a.shape)), str(a.dtype), bool(getattr(a, "weak_type", False))) for a in avals)


def key(jaxpr, keep_unused):
    """The entry name of ``jaxpr`` (a ``ClosedJaxpr``), or ``None`` when it is not stored."""
    if jaxpr.consts or len(jaxpr.jaxpr.eqns) > MAX_EQUATIONS or directory() is None:
        return None
    consts = _nested_consts(jaxpr.jaxpr)
    if consts is None:
        return None
    text = str(jaxpr) + consts
    native = _native_kernels(text)
    if native is None or any(r in text for r in _REFUSED):
        return None
    owner = _key_id()
    if owner is None:
        return None
    full = repr((_FORMAT, _environment(), text, _avals(jaxpr.in_avals), _avals(jaxpr.out_avals), bool(keep_unused),
                 native))
    return owner + "-" + hashlib.sha256(full.encode()).hexdigest() + SUFFIX


def _nested_consts(jaxpr, budget=None):
    """A digest of the constants closed over by the jitted calls nested in ``jaxpr`` (a Jaxpr):
    their printed text shows only the constants' types (``lambda c:f32[100]; ...``), so two programs
    that differ only in such a constant (an array a function closed over, drawn by NumPy's generator)
    printed alike and shared one entry. ``""`` when there are none; ``None`` (not stored) past
    ``MAX_CONST_BYTES``."""
    budget = [MAX_CONST_BYTES] if budget is None else budget
    digest = []
    for eqn in jaxpr.eqns:
        for value in eqn.params.values():
            for sub in (value if isinstance(value, (tuple, list)) else (value,)):
                inner = getattr(sub, "jaxpr", None)
                if isinstance(sub, jax.extend.core.ClosedJaxpr):
                    for c in sub.consts:
                        a = np.asarray(c)
                        budget[0] -= a.nbytes
                        if budget[0] < 0:
                            return None
                        digest.append(f"{a.dtype}{a.shape}" + hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest())
                elif not isinstance(sub, jax.extend.core.Jaxpr):
                    continue
                got = _nested_consts(inner if isinstance(sub, jax.extend.core.ClosedJaxpr) else sub, budget)
                if got is None:
                    return None
                digest.append(got)
    return "".join(digest)


def _native_kernels(text):
    """``()`` for a program without FFI calls; for one whose FFI calls all name msjax's own native
    targets (``nn.Dense``'s oneDNN matmul, the convolutions), the built library's file name (a
    digest of its source, jaxlib, oneDNN and compiler: another build is another key; the targets
    are registered, since this process traced the calls); else ``None``: not stored."""
    if "ffi_call" not in text and "custom_call" not in text:
        return ()
    native = provided.lent("native_kernels")
    targets = set(_TARGET.findall(text))
    if native is None or not targets or not targets <= set(native.TARGETS) or \
            text.count("custom_call_api_version") != len(_TARGET.findall(text)):
        return None
    lib = native.library()
    return None if lib is None else (os.path.basename(lib._name),)


def _key_id():
    """A short public name of the per-user key: entries written under another key (a
    test's own key, another user's copy of the directory) are other names, never read."""
    k = _cache_auth.key()
    if k is None:
        return None
    if k not in _KEY_IDS:
        _KEY_IDS[k] = hmac.new(k, b"msjax eager store", hashlib.sha256).hexdigest()[:12]
    return _KEY_IDS[k]


def load(name):
    """The stored executable (a ``MeshExecutable``) under entry ``name``, or ``None``."""
    d = directory()
    body = _cache_auth.read_entry(d, name) if d is not None else None
    if body is None:
        return None
    try:
        from jax.experimental import serialize_executable as ser
        # a stored program runs on the process's default device (the hook stores plain calls only):
        # loaded for all of a launched job's devices, its outputs claimed every rank's device and
        # the next copy of them failed ("CopyArrays only supports destination device list ...")
        device = jax.local_devices()[0]
        with io.BytesIO(body) as f:
            fmt, unloaded = ser._JaxPjrtUnpickler(f, device.client, [device]).load()
        if fmt != _FORMAT:
            return None
        _frontend_cache.runtime_kernels_ready(body)
        executable = unloaded.load()
    except Exception:   # noqa: BLE001 - an entry this jaxlib cannot load: compiled again
        return None
    with contextlib.suppress(OSError):
        os.utime(os.path.join(d, name))      # recently used: evicted last
    return executable


def save(name, executable):
    """Store ``executable`` (a ``MeshExecutable`` compiled in this process) under ``name``."""
    d = directory()
    unloaded = getattr(executable, "_unloaded_executable", None)
    if d is None or unloaded is None:
        return False
    try:
        from jax.experimental import serialize_executable as ser
        with io.BytesIO() as f:
            ser._JaxPjrtPickler(f).dump((_FORMAT, unloaded))
            body = f.getvalue()
    except Exception:   # noqa: BLE001 - host callbacks, an unpicklable part: not storable
        return False
    if not _cache_auth.write_entry(d, name, body):
        return False
    _account(d, len(body) + 64)
    return True


def _account(d, added):
    """Count what this process added; past the bound, remove the least recently used."""
    held = _BYTES.get(d)
    held = sum(s for _, s, _ in _entries(d)) if held is None else held + added
    limit = max_bytes()
    if held > limit:
        held = _evict(d, limit * 3 // 4)
    _BYTES[d] = held


def _entries(d):
    out = []
    try:
        names = os.listdir(d)
    except OSError:
        return out
    for n in names:
        if n.endswith(SUFFIX):
            with contextlib.suppress(OSError):
                st = os.stat(os.path.join(d, n))
                out.append((n, st.st_size, st.st_mtime_ns))
    return out


def _evict(d, target):
    entries = sorted(_entries(d), key=lambda e: e[2])      # oldest first
    held = sum(s for _, s, _ in entries)
    for n, size, _ in entries:
        if held <= target:
            break
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(d, n))
            held -= size
    return held


def jax_cache_answered():
    """A counter that moves when JAX's persistent cache answers a compile: an
    executable it loaded serializes without its kernels (XLA:CPU), so it is not stored."""
    return _frontend_cache.jax_cache_hits()


_host_eager.STORE[0] = sys.modules[__name__]     # the hook in front of JAX's eager compile uses it
