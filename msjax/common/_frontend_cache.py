"""MindSpore's front-end compile cache: a traced, compiled function reused by a new process.

With ``set_context(enable_compile_cache=True)`` MindSpore saves the graph its front
end compiled and, "when the network is executed again, if enable_compile_cache is
still set to True and the network scripts are not changed, the compile cache is
loaded" (MindSpore's documentation), skipping the Python parse. msjax does the
same for its compiled functions (GRAPH_MODE Cells, training steps, ``ms.jit``,
gradient functions): the first process stores the XLA executable of each traced
signature under ``<compile cache>/msjax-frontend/``; a new process whose
fingerprint matches loads it without running Python through the network, without
lowering and without compiling. JAX's persistent cache (``compile_cache``) stays
on underneath for everything else.

The fingerprint is a hash of what decides the traced program:

* the code: msjax's own files (paths, sizes, modification times), and the content
  of every user module loaded (anything outside the standard library and
  site-packages: the script, ``src/``...), with the code of classes and functions
  that have no file (a notebook, ``python -c``);
* the configuration: ``sys.argv``, the ``MS_``/``MSJAX_``/``XLA_``/``JAX_``
  environment variables, msjax's context and seed, JAX's x64 and precision
  settings, versions of Python, JAX, jaxlib and the device;
* the objects: the function (its class or qualified name, bound arguments, the
  gradient it asks for), every Cell it involves (class, training flag and its
  plain attributes: numbers, strings, dtypes, constant Tensors' contents, and the
  attributes of msjax or user objects it holds, such as a Primitive's ``keep_dims``),
  the simple globals of user modules (a config object read at import), the
  Parameters' names, shapes and dtypes, and the call's argument shapes and static
  values.

Anything whose description is not stable across processes (an object shown by its
address) makes the call uncacheable rather than risk a wrong hit. Functions with
host callbacks (runtime prints, hooks, the ``cpu-kernels`` convolutions), a
data-parallel step, or Parameters found only while tracing are not stored.

Differences from MindSpore: like MindSpore's, the check cannot see everything a
trace may read (a mutable object only some library holds, a file read during
``construct``); set ``MSJAX_FRONTEND_CACHE=0`` to keep only JAX's persistent cache,
which is never stale. Entries are pickles, so each carries an HMAC-SHA256 tag under
a per-user key and is unpickled only when the tag verifies and the file and its
directory are the user's own and not writable by others (``common._cache_auth``);
any other entry is skipped with a warning and compiled again.
"""
from __future__ import annotations

import argparse
import functools
import hashlib
import os
import pickle
import site
import sys
import sysconfig
import types

import jax
import numpy as np

from .._core import compile_cache, context, provided, rng
from .._core.parameter import Parameter
from .._core.tensor import Tensor
from . import _cache_auth
from ..runtime import _interrupt

__all__ = ["enabled", "fingerprint", "load", "load_call", "save", "store", "compile_for_store", "jax_cache_hits", "SUBDIR"]

SUBDIR = "msjax-frontend"
_FORMAT = 1
_ENV_PREFIXES = ("MS_", "MSJAX_", "XLA_", "JAX_", "RANK", "DEVICE_")
_MSJAX_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # msjax/


class _Unstable(Exception):
    """A value with no description that is the same in another process."""


def enabled():
    """True while the compile cache is on and ``MSJAX_FRONTEND_CACHE`` is not ``0``."""
    return compile_cache.active_path() is not None and os.environ.get("MSJAX_FRONTEND_CACHE", "1") != "0"


# ---------------------------------------------------------------------------
# code
# ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _system_dirs():
    paths = sysconfig.get_paths()
    dirs = {paths.get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    try:
        dirs.update(site.getsitepackages())
        dirs.add(site.getusersitepackages())
    except AttributeError:   # pragma: no cover - virtualenv's old site module
        pass
    dirs.update({sys.prefix, sys.base_prefix, sys.exec_prefix})
    return tuple(sorted(os.path.realpath(d) + os.sep for d in dirs if d))


@functools.lru_cache(maxsize=1)
def _msjax_files():
    """msjax's own source, by path, size and modification time (read once per process)."""
    h = hashlib.sha256()
    for root, dirs, files in os.walk(_MSJAX_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                st = os.stat(os.path.join(root, f))
                h.update(f"{os.path.relpath(os.path.join(root, f), _MSJAX_DIR)}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


_FILE_HASHES = {}


def _file_hash(path):
    st = os.stat(path)
    key = (path, st.st_size, st.st_mtime_ns)
    h = _FILE_HASHES.get(key)
    if h is None:
        with open(path, "rb") as f:
            h = _FILE_HASHES[key] = hashlib.sha256(f.read()).hexdigest()
    return h


@functools.lru_cache(maxsize=None)
def _is_user_file(path):
    if path.startswith(_system_dirs() + (_MSJAX_DIR + os.sep,)):     # most modules: no links to resolve
        return False
    real = os.path.realpath(path)
    return not real.startswith(_system_dirs()) and not real.startswith(_MSJAX_DIR + os.sep)


def _user_modules():
    """(name, module, file or None) of every loaded module that is the user's code."""
    out = []
    for name, mod in sorted(list(sys.modules.items()), key=lambda kv: kv[0]):
        if not isinstance(mod, types.ModuleType):
            continue
        path = getattr(mod, "__file__", None)
        if path is None:
            if name == "__main__":      # a notebook or `python -c`: no file to hash
                out.append((name, mod, None))
            continue
        if path.endswith((".py", ".pyw")) and _is_user_file(path):
            out.append((name, mod, path))
    return out


def _module_is_user(modname):
    mod = sys.modules.get(modname)
    path = getattr(mod, "__file__", None)
    if path is None:
        return modname == "__main__" or mod is None
    return _is_user_file(path)


def _fileless(modname):
    mod = sys.modules.get(modname)
    return mod is None or getattr(mod, "__file__", None) is None


def _code(co):
    """A code object, with the code objects it contains (defined without a file)."""
    consts = tuple(_code(c) if isinstance(c, types.CodeType) else repr(c) for c in co.co_consts)
    return (co.co_name, co.co_code.hex(), consts, co.co_names, co.co_varnames)


# ---------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------
def _array(a):
    a = np.asarray(a)
    return ("array", a.dtype.str, a.shape, hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest())


def describe(x, depth=2, seen=None):
    """A description of ``x`` that is equal in two processes exactly when the trace
    would read the same from it; raises ``_Unstable`` when there is none."""
    seen = set() if seen is None else seen
    if x is None or isinstance(x, (bool, int, float, complex, str, bytes)):
        return repr(x)
    if isinstance(x, (np.generic, np.dtype)):
        return f"{type(x).__name__}:{x!r}"
    if isinstance(x, (types.ModuleType,)):
        return f"module:{x.__name__}"
    if isinstance(x, type):
        return f"class:{x.__module__}.{x.__qualname__}" + (
            repr(tuple((k, describe(v, depth - 1, seen)) for k, v in sorted(vars(x).items())
                       if isinstance(v, (types.FunctionType, staticmethod, classmethod))))
            if _fileless(x.__module__) else "")
    if isinstance(x, types.FunctionType):
        name = f"fn:{x.__module__}.{x.__qualname__}"
        cells = ()
        if x.__closure__:
            cells = tuple(_cell_content(c, depth, seen) for c in x.__closure__)
        code = _code(x.__code__) if _fileless(x.__module__) else ()
        return repr((name, code, cells, describe(x.__defaults__, depth, seen)))
    if isinstance(x, (staticmethod, classmethod)):
        return describe(x.__func__, depth, seen)
    if isinstance(x, types.MethodType):
        return repr(("method", describe(x.__func__, depth, seen), describe(x.__self__, depth, seen)))
    if isinstance(x, (types.BuiltinFunctionType, types.BuiltinMethodType)):
        return f"builtin:{getattr(x, '__module__', '')}.{x.__qualname__}"
    if isinstance(x, functools.partial):
        return repr(("partial", describe(x.func, depth, seen), describe(x.args, depth, seen),
                     describe(x.keywords, depth, seen)))
    if isinstance(x, Parameter):        # a value the function receives, not a constant
        return repr(("param", x.name, tuple(x.shape), str(x.dtype)))
    if isinstance(x, Tensor):           # a constant of the trace
        return repr(("tensor",) + _array(x._data))
    if isinstance(x, (jax.Array, np.ndarray)):
        return repr(_array(x))
    if isinstance(x, (tuple, list, set, frozenset)):
        if id(x) in seen:
            return "<cycle>"
        seen.add(id(x))
        items = [describe(v, depth, seen) for v in x]
        seen.discard(id(x))
        return repr((type(x).__name__, sorted(items) if isinstance(x, (set, frozenset)) else items))
    if isinstance(x, dict):
        if id(x) in seen:
            return "<cycle>"
        seen.add(id(x))
        items = sorted((describe(k, depth, seen), describe(v, depth, seen)) for k, v in x.items())
        seen.discard(id(x))
        return repr(("dict", items))
    return _describe_object(x, depth, seen)


def _cell_content(cell, depth, seen):
    try:
        return describe(cell.cell_contents, depth - 1, seen)
    except ValueError:      # an empty closure cell
        return "<empty>"


def _describe_object(x, depth, seen):
    cls = type(x)
    name = f"{cls.__module__}.{cls.__qualname__}"
    if getattr(cls, "_ms_is_cell", False):
        return f"cell:{name}"        # Cells are described one by one (``cells``)
    own = (cls.__module__.split(".")[0] == "msjax" or _module_is_user(cls.__module__)
           or cls in (argparse.Namespace, types.SimpleNamespace))    # parsed options held by a global
    if not own:
        return f"obj:{name}"         # another library's object: by its type only
    if depth <= 0 or id(x) in seen:
        return f"obj:{name}"
    seen.add(id(x))
    try:
        return repr((name, _attributes(x, depth - 1, seen)))
    finally:
        seen.discard(id(x))


def _class_data(cls, depth, seen):
    """The data attributes of the user's classes in ``cls``'s hierarchy (``class
    config: lr = 0.1``), which the trace may read as ``self.lr`` or ``config.lr``."""
    out = []
    for k in cls.__mro__:
        if _module_is_user(k.__module__):
            for name, v in sorted(vars(k).items()):
                if name.startswith("__") or isinstance(v, (types.FunctionType, staticmethod, classmethod, property,
                                                           type, types.ModuleType)):
                    continue
                out.append((k.__qualname__, name, describe(v, depth, seen)))
    return out


def _attributes(x, depth, seen):
    out = _class_data(type(x), depth, seen)
    d = getattr(x, "__dict__", None)
    if d is not None:
        for k in sorted(d):
            v = d[k]
            if getattr(type(v), "_ms_is_cell", False):
                continue
            out.append((k, describe(v, depth, seen)))
    for k in getattr(type(x), "__slots__", ()):
        if hasattr(x, k):
            out.append((k, describe(getattr(x, k), depth, seen)))
    return out


def _check_stable(text):
    if " at 0x" in text or "object at" in text:
        raise _Unstable(text[:200])
    return text


# ---------------------------------------------------------------------------
# the fingerprint
# ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _cpu_features():
    """The host CPU's model and instruction-set flags: XLA:CPU compiles for the host."""
    try:
        with open("/proc/cpuinfo") as f:
            lines = f.read().splitlines()
    except OSError:
        import platform
        return platform.processor() + platform.machine()
    keep = [ln for ln in lines if ln.startswith(("model name", "flags", "Features", "CPU part"))]
    return hashlib.sha256("\n".join(sorted(set(keep))).encode()).hexdigest()


def _environment():
    cfg = jax.config
    libs = tuple((m, getattr(sys.modules[m], "__version__", "")) for m in ("jaxlib", "numpy", "optax", "flax")
                 if m in sys.modules)
    argv = tuple(sys.argv)
    if argv and os.path.basename(argv[0]).startswith("ipykernel_launcher"):
        argv = argv[:1]         # a Jupyter kernel: the connection file changes every start
    parts = [sys.version, jax.__version__, libs, argv,
             tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith(_ENV_PREFIXES))),
             bool(cfg.jax_enable_x64), str(cfg.jax_default_matmul_precision), str(cfg.jax_numpy_rank_promotion),
             str(cfg.jax_default_prng_impl), jax.default_backend(),
             tuple(sorted({d.device_kind for d in jax.devices()})), jax.device_count(),
             _cpu_features(), _msjax_files(), describe(context._ctx, depth=3), rng.get_seed()]
    return repr(parts)


def _user_code():
    """The content of every user module loaded (the code in memory where its file is gone)."""
    out = []
    for name, mod, path in _user_modules():
        if path is None:
            continue
        try:
            out.append((name, _file_hash(path)))
        except OSError:
            out.append((name, "gone", _module_code(mod)))
    return repr(out)


def _module_code(mod):
    parts = []
    for k, v in sorted(vars(mod).items()):
        if isinstance(v, types.FunctionType) and v.__module__ == mod.__name__:
            parts.append((k, _code(v.__code__)))
        elif isinstance(v, type) and v.__module__ == mod.__name__:
            parts.append((k, [(f.__name__, _code(f.__code__)) for f in _functions_of(v)]))
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def _functions_of(cls):
    for v in vars(cls).values():
        if isinstance(v, (staticmethod, classmethod)):
            v = v.__func__
        elif isinstance(v, property):
            v = v.fget
        if isinstance(v, types.FunctionType):
            yield v


def _codes(co):
    yield co
    for c in co.co_consts:
        if isinstance(c, types.CodeType):
            yield from _codes(c)


def _globals_read(cells, fn):
    """What the user code a trace runs reads from its modules' globals (a config
    object, a constant, a helper function's own globals), and the code itself where
    it has no file: walked from the methods of the Cells' user classes and from
    ``fn``, following the user functions and classes they name."""
    todo, seen_fn, seen_cls, parts = [], set(), set(), []

    def add_function(f):
        if id(f) not in seen_fn and _module_is_user(f.__module__):
            seen_fn.add(id(f))
            todo.append(f)

    def add_class(cls):
        for k in cls.__mro__:
            if id(k) not in seen_cls and _module_is_user(k.__module__):
                seen_cls.add(id(k))
                for f in _functions_of(k):
                    add_function(f)

    for c in cells:
        add_class(type(c))
    f = fn
    while isinstance(f, (functools.partial, types.MethodType)):
        f = f.func if isinstance(f, functools.partial) else f.__func__
    if isinstance(f, types.FunctionType):
        add_function(f)
    elif not isinstance(f, types.BuiltinFunctionType) and f is not None:
        add_class(type(f))
    while todo:
        f = todo.pop()
        g = f.__globals__
        modname = f.__module__
        if _fileless(modname):
            parts.append((modname, f.__qualname__, _code(f.__code__)))
        names = sorted({n for co in _codes(f.__code__) for n in co.co_names})
        for name in names:
            if name not in g:
                continue
            v = g[name]
            if isinstance(v, types.FunctionType):
                add_function(v)
            elif isinstance(v, type):
                if _module_is_user(v.__module__):
                    add_class(v)
                    parts.append((modname, name, repr(_class_data(v, 2, set()))))
            elif isinstance(v, types.ModuleType):
                if getattr(v, "__file__", None) and _is_user_file(v.__file__):
                    # `cfg.lr` through a user module: its globals of the names read
                    parts.extend((v.__name__, n, describe(vars(v)[n], 2)) for n in names
                                 if n in vars(v) and not isinstance(vars(v)[n], (types.ModuleType, type,
                                                                                types.FunctionType)))
            else:
                parts.append((modname, name, describe(v, 2)))
    return repr(sorted(parts, key=repr))


def fingerprint(fn, spec, call_key, state_params, cells):
    """The key of one compiled signature, or ``None`` when it has no stable description."""
    try:
        cell_parts = []
        for c in cells:
            attrs = _attributes(c, 2, set())
            cell_parts.append((type(c).__module__, type(c).__qualname__, bool(getattr(c, "training", False)),
                               attrs))
        state_parts = [(type(p).__name__, getattr(p, "name", ""), tuple(p.shape), str(p.dtype),
                        bool(getattr(p, "requires_grad", False)))
                       for p in state_params]
        text = repr((_FORMAT, _environment(), _user_code(), _globals_read(cells, fn), describe(fn, 3),
                     describe(spec, 3),
                     repr(call_key), state_parts, repr(cell_parts)))
        _check_stable(text)
    except Exception:   # noqa: BLE001 - _Unstable, or a value that cannot be read: no cache
        return None
    return hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------------------
# storing
# ---------------------------------------------------------------------------
def _directory():
    return os.path.join(compile_cache.active_path(), SUBDIR)


_JAX_CACHE_HITS = [0]
_LISTENING = [False]


def _count_hit(name, **kwargs):
    if name == "/jax/compilation_cache/cache_hits":
        _JAX_CACHE_HITS[0] += 1


def jax_cache_hits():
    """How many compiles JAX's persistent cache has answered in this process (counted from the first call)."""
    if not _LISTENING[0]:
        jax.monitoring.register_event_listener(_count_hit)
        _LISTENING[0] = True
    return _JAX_CACHE_HITS[0]


def compile_for_store(lowered):
    """``lowered.compile()``, or ``None`` when JAX's persistent cache answered it: an
    executable loaded from that cache serializes without its kernels (XLA:CPU; the
    copy fails with ``Function ... not found`` when run), so it is not stored here;
    JAX's cache keeps serving that program."""
    before = jax_cache_hits()
    compiled = lowered.compile()
    return None if _JAX_CACHE_HITS[0] != before else compiled


def save(fp, compiled, meta):
    """Store ``compiled`` (a ``jax.stages.Compiled`` compiled in this process) and
    ``meta`` under ``fp``, authenticated (``_cache_auth``); silently nothing when it
    cannot be serialized."""
    from jax.experimental import serialize_executable
    try:
        payload, in_tree, out_tree = serialize_executable.serialize(compiled)
        blob = pickle.dumps((_FORMAT, payload, in_tree, out_tree, meta), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:   # noqa: BLE001 - a host callback, an unpicklable tree: not cacheable
        return False
    return _cache_auth.write_entry(_directory(), fp + ".pkl", blob)


def store(fp, lower, meta):
    """Compile ``lower()`` (the call that follows reuses the executable) and store it
    with ``meta``, unless JAX's cache answered the compile (see ``compile_for_store``)."""
    try:
        compiled = compile_for_store(lower())
    except Exception:   # noqa: BLE001 - the call itself will report the error
        return False
    native = provided.lent("native_kernels")
    # the executable may call msjax's native FFI targets: a loading process registers them first
    meta = dict(meta, native=bool(native is not None and native.loaded()))
    return compiled is not None and save(fp, compiled, meta)


def load_call(fp, n_state, donate, donation_call):
    """The stored executable for ``fp`` as an entry's call (``donation_call`` wraps a
    donating one; ``.checks``: its run-time checks' messages), or ``None``."""
    loaded = load(fp)
    if loaded is None:
        return None
    compiled, meta = loaded
    if meta.get("n_state") != n_state or meta.get("donate") != donate:
        return None
    call = donation_call(compiled, meta["written"]) if donate else compiled
    if meta.get("checks") is None:   # stored before run-time checks: the program returns no check vector
        return call

    def checked(*args):
        return call(*args)
    checked.checks = meta["checks"]   # the program's run-time checks (``_core.runtime_checks``)
    return checked


def runtime_kernels_ready(serialized):
    """Fill jaxlib's LAPACK function table before a stored executable runs: JAX fills it while
    lowering a linear-algebra op (``cholesky``, ``eigh``, ``svd``, ``qr``, ``lu`` ... lower to
    LAPACK custom calls), and a loaded executable was never lowered in this process, so its first
    call would jump through an empty table (a segmentation fault). Only for an executable whose
    bytes name a LAPACK target (``lapack_spotrf_ffi``...): filling the table imports SciPy's
    LAPACK, 0.3-1.2 s of CPU that an ``exp`` loaded from the eager store need not pay."""
    if b"lapack" not in serialized:
        return
    from jax._src.lib import lapack        # what jax's own ``linalg.initialize_lapack`` calls
    fill = getattr(getattr(lapack, "_lapack", None), "initialize", None)
    if fill is not None:                   # a jaxlib without it has no table to fill
        fill()


def load(fp):
    """``(compiled, meta)`` stored under ``fp``, or ``None``. Nothing is unpickled
    before ``_cache_auth`` has checked who wrote the entry."""
    body = _cache_auth.read_entry(_directory(), fp + ".pkl")
    if body is None:
        return None
    try:
        fmt, payload, in_tree, out_tree, meta = pickle.loads(body)
        if fmt != _FORMAT:
            return None
        if meta.get("native"):
            native = provided.lent("native_kernels")
            if native is None or native.library() is None:   # not here: trace with XLA's convolutions
                return None
        from jax.experimental import serialize_executable
        runtime_kernels_ready(payload)
        _interrupt.arm()     # a stored program is about to run (Ctrl-C as MindSpore's runtime)
        return serialize_executable.deserialize_and_load(payload, in_tree, out_tree), meta
    except Exception:   # noqa: BLE001 - an entry of another msjax or jax version: trace and compile instead
        return None


provided.provide("frontend_cache", sys.modules[__name__])   # the core's transforms look it up
