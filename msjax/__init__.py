"""msjax: MindSpore's gradient and training API on JAX.

``import msjax as ms`` gives MindSpore's top level: Tensor, Parameter, dtypes,
``grad``/``value_and_grad``/``jit``, ``set_context`` and the ``nn``/``ops``/``amp``
namespaces. ``python -m msjax run script.py`` runs an unmodified MindSpore script
with ``mindspore`` resolved to this package.

Layout: the XLA/JAX settings come first (before anything starts JAX's backends), then
MindSpore's top-level names grouped by where they live, the Tensor methods, ``__all__``,
and last the module-tree finder, all inside a ``try`` that restores the garbage collector.
The imports follow the settings on purpose (E402).
"""
# ruff: noqa: E402
import gc as _gc
import os as _os
import sys as _sys

# The import makes about 300,000 objects (JAX's and msjax's modules, functions, tables), none of
# them garbage, and Python's cyclic collector would scan them again and again while they are made
# (about a quarter of the import's CPU). It is paused for the import; at the end the objects are
# moved to the permanent generation (``gc.freeze``), which later collections, and the last one at
# exit, skip: ``import msjax`` 4.5-5.2 -> 3.0-3.5 CPU-s. The user's collector setting is restored,
# also when the import fails (the ``finally`` at the end).
_gc_was_enabled = _gc.isenabled()
_gc.disable()

try:
    # MindSpore rounds every op's float16/bfloat16 result; XLA may keep a fusion's low-precision
    # intermediates in float32 ("excess precision", on by default on GPU), which moves loss-scale
    # overflow decisions (a scaled gradient that overflows float16 in one op stays finite). Off
    # unless the user's XLA_FLAGS say otherwise; set before JAX starts its backends.
    if "xla_allow_excess_precision" not in _os.environ.get("XLA_FLAGS", ""):
        _os.environ["XLA_FLAGS"] = (_os.environ.get("XLA_FLAGS", "") + " --xla_allow_excess_precision=false").strip()

    # XLA's C++ warnings ("[SPMD] Involuntary full rematerialization ..." when a sharded step is
    # partitioned) go to stderr, where MindSpore prints nothing: errors only, unless the user sets
    # TF_CPP_MIN_LOG_LEVEL or asks MindSpore's log for INFO/DEBUG (GLOG_v=0/1).
    if "TF_CPP_MIN_LOG_LEVEL" not in _os.environ and _os.environ.get("GLOG_v", "2") not in ("0", "1"):
        _os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"

    import jax as _jax

    # MindSpore's default integer is Int64 and it keeps Float64 from numpy: JAX must
    # keep 64-bit types too. Float32 code stays Float32 (msjax never widens it).
    _jax.config.update("jax_enable_x64", True)
    # MindSpore computes Float32 matmuls/convolutions in full Float32 on GPU; JAX
    # would otherwise use TF32 there.
    _jax.config.update("jax_default_matmul_precision", "highest")

    # glibc keeps the large buffers a compiled step frees (as MindSpore's memory pool does) instead of
    # unmapping them and faulting them in again each step; set before JAX starts its threads.
    from .runtime._host_allocator import keep_freed_memory as _keep_freed_memory

    _keep_freed_memory()


    def _chained(exc):
        """``exc`` and the exceptions chained to it (``__cause__``, ``__context__``), each once."""
        todo, seen = [exc], set()
        while todo:
            e = todo.pop()
            if e is None or id(e) in seen:
                continue
            seen.add(id(e))
            yield e
            todo += [e.__cause__, e.__context__]


    def _strip_jax_notes(exc):
        """Remove the note JAX adds to an exception that crossed one of its transforms ("For simplicity,
        JAX has removed its internal frames...") from ``exc`` and the exceptions chained to it: a user's
        mistake reads as in MindSpore (JAX's internal frames stay filtered out)."""
        for e in _chained(exc):
            notes = getattr(e, "__notes__", None)
            if notes:
                kept = [n for n in notes if "JAX has removed its internal frames" not in n]
                if kept:
                    e.__notes__ = kept
                else:
                    del e.__notes__


    _CORE_DIR = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "_core", "")


    def _drop_core_frames(exc):
        """Leave msjax's transform machinery (``msjax/_core``: where a Cell call, ``grad`` or ``jit`` goes
        through JAX, C++ in MindSpore and never in its Python traceback) out of the traceback of ``exc``
        and of the exceptions chained to it, as JAX leaves out its own frames; the last frame stays.
        ``MSJAX_TRACEBACK_FILTERING=off`` keeps them all."""
        if _os.environ.get("MSJAX_TRACEBACK_FILTERING", "").lower() == "off":
            return
        for e in _chained(exc):
            frames, tb = [], e.__traceback__
            while tb is not None:
                frames.append(tb)
                tb = tb.tb_next
            kept = [t for t in frames[:-1] if not t.tb_frame.f_code.co_filename.startswith(_CORE_DIR)] + frames[-1:]
            for a, b in zip(kept, kept[1:] + [None]):
                a.tb_next = b
            if kept:
                e.__traceback__ = kept[0]


    def _excepthook(tp, value, tb, _previous=_sys.excepthook):
        _strip_jax_notes(value)
        _drop_core_frames(value)
        _previous(tp, value, value.__traceback__ if value is not None and value.__traceback__ is not None else tb)


    _sys.excepthook = _excepthook

    from . import log as _log

    _log._quiet_jax()   # JAX's own INFO lines (backend probes) stay out of a script's logging.basicConfig(level=INFO)

    # --- context and modes ---------------------------------------------------------------
    from ._core.context import (GRAPH_MODE, PYNATIVE_MODE, get_context, get_ps_context, set_context,
                                set_device, set_ps_context)
    from .parallel._context import (ParallelMode, get_auto_parallel_context, reset_auto_parallel_context,
                                    set_auto_parallel_context)

    # --- dtypes ----------------------------------------------------------------------------
    from ._core import dtype as _dtype_mod
    from ._core.dtype import (Int, TensorType, bfloat16, bool_, complex64, complex128, dtype_to_nptype,
                              dtype_to_pytype, float8_e4m3fn, float8_e5m2, float16, float32, float64, float_,
                              int8, int16, int32, int64, int_, list_, number, pytype_to_dtype, string, tuple_,
                              type_none, uint, uint8, uint16, uint32, uint64)

    # --- Tensor, Parameter ------------------------------------------------------------------
    from ._core.tensor import Tensor
    from ._core.parameter import Parameter, ParameterTuple
    from .common.sparse_tensor import COOTensor, CSRTensor, RowTensor

    # --- gradients and compilation ----------------------------------------------------------
    from ._core.grad import GradOperation, get_grad, grad, value_and_grad
    from ._core.autodiff import jacfwd, jacrev, jvp, vjp
    from ._core.jit import COMPATIBLE, LAX, STRICT, JitConfig, jit, jit_class, lazy_inline

    # --- namespaces (mindspore.nn, mindspore.ops, ...) --------------------------------------
    from . import common, communication, nn, ops, amp  # noqa: F401
    from .common import dtype  # mindspore.dtype is the module mindspore.common.dtype
    from .amp import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
    from . import dataset, train  # noqa: F401
    from . import mint  # noqa: F401  (mindspore.mint: the torch-style namespace)
    from . import numpy  # noqa: F401  (mindspore.numpy: the NumPy-style namespace)

    # --- training: Model, callbacks, metrics, checkpoints (MindSpore's top level) -----------
    from .train import *  # noqa: F401,F403
    from .train.auto_parallel import shard  # mindspore.shard, mindspore.parallel.shard

    # --- export and MindIR (mindspore.export, load, load_mindir, save_mindir, ...) ----------
    from .train._export import export, export_split_mindir, load, load_mindir, save_mindir

    # --- seeds and random state -------------------------------------------------------------
    from ._core.rng import get_seed
    from .common.seed import set_seed

    # --- dtype aliases (mindspore.half, mindspore.bool, ...) and the Tensor methods --------
    from ._core.registry import method_table as _method_table

    globals().update(_dtype_mod.ALIASES)
    bool = bool_  # noqa: A001  (mindspore.bool)

    for _name, _fn in _method_table().items():
        if _name not in vars(_core.tensor.Tensor):
            setattr(Tensor, _name, _fn)

    # --- functional transforms, random state, runtime ---------------------------------------
    from .ops._impl.composite import constexpr, vmap  # mindspore.constexpr, mindspore.vmap
    from .ops._impl.creation import from_numpy  # mindspore.from_numpy
    from ._core.rng import (Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed,
                            set_rng_state)
    from .common._toplevel import is_tensor, mutable, no_inline, recompute, tensor
    from .common._grad_function import _Function  # mindspore._Function (PyTorch-style custom backward)
    from .runtime._device import (empty_cache, get_current_device, max_memory_allocated, max_memory_reserved,
                                  memory_allocated, memory_reserved, memory_stats, memory_summary,
                                  reset_max_memory_allocated, reset_max_memory_reserved, reset_peak_memory_stats,
                                  set_deterministic, synchronize)
    from ._run_check import run_check
    from . import profiler  # noqa: F401
    from .profiler import Profiler  # mindspore.Profiler

    __version__ = "0.1.0"
    mindspore_version = "2.10.0"

    # ``from msjax import *``: the core of MindSpore's top level (the other names are attributes)
    __all__ = [
        # tensors
        "Tensor", "Parameter", "ParameterTuple",
        # gradients and compilation
        "grad", "value_and_grad", "jit", "GradOperation", "vjp", "jvp", "jacfwd", "jacrev", "get_grad",
        # context and seeds
        "set_context", "get_context", "GRAPH_MODE", "PYNATIVE_MODE", "set_seed", "get_seed",
        # namespaces
        "nn", "ops", "amp", "dtype",
        # dtypes
        "float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64",
        "uint8", "uint16", "uint32", "uint64", "bool_", "complex64", "complex128",
    ]


    def load_ipython_extension(ipython):
        """``%load_ext msjax`` in Jupyter/IPython: ``import mindspore`` then resolves to msjax."""
        from . import _compat
        _compat.install()


    # --- last: msjax.x.y for every MindSpore module path (``from msjax import context``) ------
    from . import _tree

    _tree.install_msjax_finder()
    _tree.attach_loaded()
    # the import's objects are long-lived: later collections need not scan them (see the top)
    _gc.freeze()
finally:
    # restored even when a submodule's import raised (the collector must not stay paused)
    if _gc_was_enabled:
        _gc.enable()
