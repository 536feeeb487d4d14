"""``ops.tensordump`` / ``ops.TensorDump`` / ``ops.DumpGradient``: a Tensor's values written to a
``.npy`` file each time the op runs.

As MindSpore's CPU build names them: ``<file without .npy>_<dtype>_<n>.npy``, ``n`` counting every
dump of the process from 0, the file read-only (mode 0400); BFloat16 values are written as float32.
In compiled code (``ms.jit``, GRAPH_MODE) the values reach the file through a
``jax.debug.callback`` when the step runs (differs from MindSpore, whose CPU build has no
TensorDump kernel there and raises ``RuntimeError``). ``DumpGradient(path, x, 'out')`` is ``x`` in the forward
pass and dumps the gradient flowing back to ``x``. Differs from MindSpore: ``input_output``/``mode``
('in' or 'out') is checked and recorded; MindSpore's CPU build treats both the same too.
"""
from __future__ import annotations

import itertools
import os
import threading

import jax
import numpy as np

from ..._core import dtype as mstype
from ..._core import printhook
from ..._core.registry import Primitive, op
from ..._core.tensor import Tensor
from ._util import arr
from .composite import InsertGradientOf

_COUNT = itertools.count()
_LOCK = threading.Lock()


def _save(file, value, name):
    stem = file[:-4] if file.endswith(".npy") else file
    with _LOCK:
        path = f"{stem}_{name}_{next(_COUNT)}.npy"
    host = np.asarray(value)
    if name == "bfloat16":
        host = host.astype(np.float32)
    np.save(path, host)
    os.chmod(path, 0o400)


def _dump(file, x):
    """Write ``x`` (a JAX array, maybe traced) as MindSpore's TensorDump does."""
    name = str(mstype.from_np(x.dtype)).lower()
    if isinstance(x, jax.core.Tracer):
        printhook.used[0] = True       # the compiled step waits for its callbacks before returning
        jax.debug.callback(lambda v: _save(file, v, name), x)
    else:
        _save(file, x, name)


class TensorDump(Primitive):
    """``ops.TensorDump(input_output='out')(file, input_x)``: dump ``input_x`` (see the module)."""

    def __init__(self, input_output="out"):
        if input_output not in ["in", "out"]:
            raise ValueError(f"The 'input_output' argument should be one of ['in', 'out'], but got: {input_output}")
        super().__init__()
        self.input_output = input_output
        self.add_prim_attr("side_effect_io", True)
        self.add_prim_attr("channel_name", "ms_tensor_dump")

    def __call__(self, file, input_x):
        if not isinstance(file, str):
            raise TypeError(f"For 'TensorDump', the type of 'file' should be 'str', but got type "
                            f"'{type(file).__name__}'.")
        if not file:
            raise ValueError("For 'TensorDump', the input argument[file] cannot be an empty string.")
        if not isinstance(input_x, Tensor):
            raise TypeError(f"For 'TensorDump', the type of 'input_x' should be 'Tensor', but got type "
                            f"'{type(input_x).__name__}'.")
        _dump(file, arr(input_x))


@op("tensordump", family="debug")
def tensordump(file_name, tensor, mode="out"):
    """``ops.tensordump(file_name, tensor, mode='out')``: ``TensorDump(mode)(file_name, tensor)``."""
    if not isinstance(file_name, str):
        raise TypeError(f"Parameter file_name should only be build_in str type but got: {type(file_name)}")
    if not isinstance(tensor, Tensor):
        raise TypeError(f"Parameter tensor should only be Tensor type, but got: {type(tensor)}")
    if not isinstance(mode, str):
        raise TypeError(f"Parameter mode should only be build_in str type, but got: {type(mode)}")
    if mode not in ["out", "in"]:
        if mode == "all":
            raise ValueError("Argument [mode] has been not supported value of 'all'.")
        raise ValueError(f"Parameter mode should in ['out', 'in'], but got {mode}")
    return TensorDump(input_output=mode)(file_name, tensor)


class DumpGradient(Primitive):
    """``ops.DumpGradient()(path, x, input_output)``: ``x``; the gradient flowing back to ``x`` is
    dumped to ``path`` (TensorDump's naming) when the backward pass runs."""

    def __call__(self, path, x, input_output):
        def dump_hook(dout):
            TensorDump()(path, dout)
            return dout
        return InsertGradientOf(dump_hook)(x)


__all__ = ["DumpGradient", "TensorDump", "tensordump"]
