"""msjax: MindSpore's gradient and training API on JAX.

``import msjax as ms`` gives MindSpore's top level: Tensor, Parameter, dtypes,
``grad``/``value_and_grad``/``jit``, ``set_context`` and the ``nn``/``ops``/``amp``
namespaces. ``python -m msjax run script.py`` runs an unmodified MindSpore script
with ``mindspore`` resolved to this package.
"""
import os as _os

# MindSpore rounds every op's float16/bfloat16 result; XLA may keep a fusion's low-precision
# intermediates in float32 ("excess precision", on by default on GPU), which moves loss-scale
# overflow decisions (a scaled gradient that overflows float16 in one op stays finite). Off
# unless the user's XLA_FLAGS say otherwise; set before JAX starts its backends.
if "xla_allow_excess_precision" not in _os.environ.get("XLA_FLAGS", ""):
    _os.environ["XLA_FLAGS"] = (_os.environ.get("XLA_FLAGS", "") + " --xla_allow_excess_precision=false").strip()

import jax as _jax  # noqa: E402

# MindSpore's default integer is Int64 and it keeps Float64 from numpy: JAX must
# keep 64-bit types too. Float32 code stays Float32 (msjax never widens it).
_jax.config.update("jax_enable_x64", True)
# MindSpore computes Float32 matmuls/convolutions in full Float32 on GPU; JAX
# would otherwise use TF32 there.
_jax.config.update("jax_default_matmul_precision", "highest")

from . import log as _log  # noqa: E402
_log._quiet_jax()   # JAX's own INFO lines (backend probes) stay out of a script's logging.basicConfig(level=INFO)

from ._core import dtype as _dtype_mod  # noqa: E402
from ._core.context import GRAPH_MODE, PYNATIVE_MODE, get_context, set_context  # noqa: E402
from ._core.dtype import (bfloat16, bool_, complex64, complex128, dtype_to_nptype, dtype_to_pytype,  # noqa: E402
                          float_, int_, uint, number, float16, float32, float64, int8, int16, int32, int64, pytype_to_dtype, uint8,
                          uint16, uint32, uint64)
from ._core.grad import GradOperation, get_grad, grad, value_and_grad  # noqa: E402
from ._core.autodiff import jacfwd, jacrev, jvp, vjp  # noqa: E402
from .parallel._context import ParallelMode, get_auto_parallel_context, reset_auto_parallel_context, set_auto_parallel_context  # noqa: E402,E501
from ._core.context import get_ps_context, set_device, set_ps_context  # noqa: E402
from ._core.jit import COMPATIBLE, LAX, STRICT, JitConfig, jit, jit_class, lazy_inline  # noqa: E402
from .common._mindir import export, load, load_mindir, save_mindir  # noqa: E402
from .common.sparse_tensor import COOTensor, CSRTensor, RowTensor  # noqa: E402
from ._core.parameter import Parameter, ParameterTuple  # noqa: E402
from ._core.rng import get_seed  # noqa: E402
from ._core.tensor import Tensor  # noqa: E402
from . import common, communication, nn, ops, amp  # noqa: E402,F401
from .common import dtype  # noqa: E402  (mindspore.dtype is the module mindspore.common.dtype)
from .amp import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager  # noqa: E402
from . import dataset, train  # noqa: E402,F401
from . import mint  # noqa: E402,F401  (mindspore.mint: the torch-style namespace)
from . import numpy  # noqa: E402,F401  (mindspore.numpy: the NumPy-style namespace)
from .train import *  # noqa: E402,F401,F403  (Model, callbacks, metrics, checkpoints: MindSpore's top level)
from .train.auto_parallel import shard  # noqa: E402,F401  (mindspore.shard, mindspore.parallel.shard)
from .common.seed import set_seed  # noqa: E402


from ._core.registry import method_table as _method_table  # noqa: E402

globals().update(_dtype_mod.ALIASES)
bool = bool_  # noqa: A001  (mindspore.bool)

for _name, _fn in _method_table().items():
    if _name not in vars(_core.tensor.Tensor):
        setattr(Tensor, _name, _fn)

__version__ = "0.1.0"
mindspore_version = "2.10.0"

__all__ = ["Tensor", "Parameter", "ParameterTuple", "grad", "value_and_grad", "jit", "GradOperation",
           "vjp", "jvp", "jacfwd", "jacrev", "get_grad", "set_context", "get_context", "GRAPH_MODE", "PYNATIVE_MODE", "set_seed", "get_seed",
           "nn", "ops", "amp", "dtype", "float16", "float32", "float64", "bfloat16", "int8", "int16", "int32",
           "int64", "uint8", "uint16", "uint32", "uint64", "bool_", "complex64", "complex128"]
from .ops._impl.composite import vmap; from .ops._impl.creation import from_numpy  # noqa: E402,E702  (mindspore.vmap, mindspore.from_numpy)
from ._core.rng import (Generator, default_generator, get_rng_state, initial_seed, manual_seed,  # noqa: E402
                        seed, set_rng_state)
from .common._toplevel import is_tensor, mutable, no_inline, recompute, tensor  # noqa: E402
from .runtime._device import (empty_cache, get_current_device, max_memory_allocated, max_memory_reserved,  # noqa: E402
                            memory_allocated, memory_reserved, memory_stats, memory_summary,
                            reset_max_memory_allocated,
                            reset_max_memory_reserved, reset_peak_memory_stats, set_deterministic, synchronize)
from ._run_check import run_check  # noqa: E402
from ._core.dtype import Int, TensorType, float8_e4m3fn, float8_e5m2, list_, string, tuple_, type_none  # noqa: E402
from .ops._impl.composite import constexpr  # noqa: E402  (mindspore.constexpr)
from . import profiler  # noqa: E402,F401
from .profiler import Profiler  # noqa: E402  (mindspore.Profiler)


from . import _tree  # noqa: E402
_tree.install_msjax_finder()   # msjax.x.y for every MindSpore module path (``from msjax import context``)
_tree.attach_loaded()


def load_ipython_extension(ipython):
    """``%load_ext msjax`` in Jupyter/IPython: ``import mindspore`` then resolves to msjax."""
    from . import _compat
    _compat.install()
