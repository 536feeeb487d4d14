"""``export(..., file_format="STABLEHLO")``: msjax's own format (MindSpore has none like it).

The network is traced with ``jax.jit`` and serialized by ``jax.export``: StableHLO with the
Parameters embedded as constants, in JAX's versioned serialization (the bytes of
``jax.export.Exported.serialize()``, which needs the ``flatbuffers`` package).
``jax.export.deserialize(data).call(*arrays)`` runs it wherever JAX runs, without msjax or the
network's Python code; ``load_stablehlo(path)`` is the same in one call.

Inputs: each Tensor (at any depth of tuples/lists) becomes an argument of the exported function,
in order; a dimension given as ``None`` (``Tensor(shape=[None, 3, 224, 224], dtype=...)``) is
exported as a symbolic dimension (``b0``, ``b1``, ... by position, one per dynamic axis, so
equal sizes are not assumed). Any other input (a number, a bool, a string) is a constant of
the trace. The outputs are the network's outputs with every Tensor as a ``jax.Array``.
The network is traced in its current mode (as MindSpore exports); one that draws random
numbers (dropout in training mode) raises NotImplementedError.
"""
from __future__ import annotations

import jax
import numpy as np

from ..._core import rng
from ..._core.tensor import Tensor, wrap
from ...ops._impl import conv_lowering
from ._output import replace_file

__all__ = ["export_stablehlo", "write_stablehlo", "load_stablehlo"]


def _is_tensor(x):
    return isinstance(x, Tensor)


def _arg_spec(t, names):
    """The ``jax.ShapeDtypeStruct`` of one input Tensor (``-1`` dims become new symbols)."""
    shape = tuple(t.shape)
    if any(d < 0 for d in shape):
        dims = []
        for d in shape:
            if d < 0:
                dims.append(f"b{len(names)}")
                names.append(dims[-1])
            else:
                dims.append(str(d))
        shape = jax.export.symbolic_shape(", ".join(dims))
    return jax.ShapeDtypeStruct(shape, np.dtype(t._data.dtype))


def export_stablehlo(net, inputs):
    """``jax.export.Exported`` of ``net(*inputs)`` (a Cell or a function, Tensor inputs as arguments)."""
    leaves, treedef = jax.tree_util.tree_flatten(tuple(inputs), is_leaf=_is_tensor)
    where = [i for i, x in enumerate(leaves) if _is_tensor(x)]
    names = []
    specs = [_arg_spec(leaves[i], names) for i in where]

    def forward(*arrays):
        args = list(leaves)
        for i, a in zip(where, arrays):
            args[i] = wrap(a)
        out = net(*jax.tree_util.tree_unflatten(treedef, args))
        return jax.tree_util.tree_map(lambda t: t._data if _is_tensor(t) else t, out, is_leaf=_is_tensor)

    key = rng.key_param()            # created before the trace, so it is not born a tracer
    before = key._data
    try:
        with conv_lowering.forced("xla"):      # XLA's own ops: msjax's native CPU kernels are custom calls
            return jax.export.export(jax.jit(forward))(*specs)   # that a serialized program cannot carry
    finally:
        if key._data is not before:
            key._data = before
            raise NotImplementedError("STABLEHLO export of a network that draws random numbers (dropout, random "
                                      "ops) is not supported: export it in inference mode (net.set_train(False)).")


def write_stablehlo(net, inputs, file_name):
    """Serialize ``net`` for ``inputs`` to ``file_name`` (replaced atomically, left read-only)."""
    data = export_stablehlo(net, inputs).serialize()
    replace_file(file_name, data)


def load_stablehlo(file_name):
    """The ``jax.export.Exported`` stored by ``export(..., file_format="STABLEHLO")``; call
    ``.call(*arrays)`` on it."""
    with open(file_name, "rb") as f:
        return jax.export.deserialize(bytearray(f.read()))
