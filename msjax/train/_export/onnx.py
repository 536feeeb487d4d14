"""``export(net, *inputs, file_name, file_format="ONNX")``: the network as an ONNX opset-11 model.

How: the network is traced once in inference mode (``net.set_train(False)``, restored after)
with ``jax.make_jaxpr``; ``_onnx_ops.Emitter`` writes each JAX primitive of the trace as
``onnx.helper`` nodes, the Parameters as initializers under their MindSpore names; the model
is checked with ``onnx.checker`` (full shape inference) before anything touches the disk.

Why an own emitter on the ``onnx`` package rather than a JAX-to-ONNX converter (jax2onnx):
MindSpore writes opset 11 (``ONNX_VERSION = 11`` in its onnx_exporter.cc) and so does this;
jax2onnx targets recent opsets (21+), pulls equinox, dm-pix, huggingface-hub and netron in as
run-time dependencies, and its errors would not be MindSpore's. The primitive set of inference
networks is small (about 60 rules, one per primitive), and each rule is written so that
onnxruntime computes what XLA computes. ``onnx`` itself is the format's reference library
(protobuf classes, checker, shape inference), an optional extra: ``pip install msjax[onnx]``.

Differences from MindSpore 2.10:

* ``Tensor(shape=[None, ...])`` inputs become symbolic ONNX dimensions (a ``None`` at the same
  axis of several inputs is one symbol, ``dyn_<axis>``); MindSpore's ``export(...,
  file_format="ONNX")`` refuses dynamic shapes (its ``mindspore.onnx.export`` has
  ``dynamic_axes``). Operations whose ONNX form needs a dimension's value only at trace time
  (``iota``, a slice to a dynamic limit...) raise.
* Node names, graph name and the names of outputs (``output_0``...) are msjax's; inputs are
  named after the ``construct``/function parameters, initializers after the Parameters.
* An operation with no ONNX form raises MindSpore's ``RuntimeError`` message with the MindSpore
  spelling of the op, then the Cell it ran in and the user's line that called it; ops MindSpore cannot export but ONNX can say (e.g.
  ``Sinh``) are exported.
* The file is written atomically (``_output.replace_file``: a temporary file in the same folder,
  then ``os.replace``) and left read-only, as MindSpore leaves it; a failure leaves no file.
"""
from __future__ import annotations

import importlib.metadata

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.state import SwapFrame
from ..._core.tensor import DynamicShape, Tensor, wrap
from ...nn.cell import Cell
from ...ops._impl import conv_lowering
from ._onnx_ops import OPSET, Emitter
from ._output import replace_file
from ._where import tracing_scopes
from .mindir_writer import _input_names

__all__ = ["write_onnx"]

PROTO_LIMIT_SIZE = 1024 * 1024 * 2      # KB: MindSpore's limit for an ONNX file (protobuf's 2 GB)
_IR_VERSION = 6                          # the ONNX IR version that introduced opset 11


def _onnx():
    try:
        import onnx
    except ImportError:                  # pragma: no cover - the extra is installed in CI
        raise RuntimeError("Exporting ONNX needs the 'onnx' package: pip install 'msjax[onnx]' "
                           "(or pip install onnx).") from None
    return onnx


def write_onnx(net, inputs, file_name: str, **options) -> None:
    """Write ``net`` called on ``inputs`` to ``file_name`` (the final path, '.onnx' included).

    ``net``: a Cell or a function of Tensors; ``inputs``: a tuple of Tensors (a Tensor created
    with ``shape=[None, ...]`` and no data marks a dynamic dimension; non-Tensor inputs are
    constants of the graph). Raises ``RuntimeError`` naming an op that has no ONNX form; nothing
    is written then.
    """
    onnx = _onnx()
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    is_cell = isinstance(net, Cell)
    if is_cell:
        _check_size(net)
        mode = net.training
        net.set_train(False)
    try:
        model = _build(onnx, net, inputs, **options)
    finally:
        if is_cell:
            net.set_train(mode)
    replace_file(file_name, model.SerializeToString())


def _check_size(net):
    total = sum(np.asarray(p.asnumpy()).nbytes for p in net.get_parameters()) / 1024
    if total > PROTO_LIMIT_SIZE:
        raise RuntimeError('Export onnx model failed. Network size is: {}G, it exceeded the protobuf: {}G limit.'
                           .format(total / 1024 / 1024, PROTO_LIMIT_SIZE / 1024 / 1024))


def _specs(inputs, names):
    """ShapeDtypeStructs for the Tensor inputs (dynamic dimensions as jax.export symbols) and
    where each symbol can be read at run time: {symbol: (input name, axis)}."""
    tensors = [t for t in inputs if isinstance(t, Tensor)]
    dyn_axes = sorted({a for t in tensors if isinstance(t._data, DynamicShape)
                       for a, d in enumerate(t._data.shape) if d == -1})
    if any(isinstance(t._data, DynamicShape) and -2 in t._data.shape for t in tensors):
        raise ValueError("Exporting ONNX: an input of unknown rank (shape [-2]) has no ONNX form; "
                         "give its rank (None for each dynamic dimension).")
    syms = dict(zip(dyn_axes, jax.export.symbolic_shape(", ".join(f"dyn_{a}" for a in dyn_axes))
                    if dyn_axes else ()))
    specs, sources = [], {}
    for name, t in zip(names, tensors):
        shape = [syms[a] if d == -1 else int(d) for a, d in enumerate(t._data.shape)]
        for a, d in enumerate(t._data.shape):
            if d == -1:
                sources.setdefault(f"dyn_{a}", (name, a))
        specs.append(jax.ShapeDtypeStruct(tuple(shape), np.dtype(t._data.dtype)))
    return specs, sources


def _trace(net, inputs, specs):
    def fn(*arrays):
        it = iter(arrays)
        with SwapFrame([], []):     # a Parameter the network writes (BatchNorm's batch statistics) is restored
            out = net(*[wrap(next(it)) if isinstance(t, Tensor) else t for t in inputs])
        return [jnp.asarray(leaf) for leaf in jax.tree_util.tree_leaves(out)]

    dynamic = any(not isinstance(d, int) for s in specs for d in s.shape)
    try:
        with conv_lowering.forced("xla"), tracing_scopes():   # running lowerings (oneDNN calls, im2col slices) are not for export
            return jax.make_jaxpr(fn)(*specs)
    except Exception as e:
        if not dynamic or isinstance(e, (RuntimeError, TypeError)) and "convert map" in str(e):
            raise
        raise ValueError(f"Exporting ONNX with a dynamic dimension (None) failed while tracing the network: "
                         f"{type(e).__name__}: {e}. Export with a fixed shape.") from e


def _dims(shape, dim_names=None, name=None):
    table = (dim_names or {}).get(name) or (dim_names or {}).get(None) or {}
    return [d if isinstance(d, (int, np.integer)) else table.get(str(d), str(d)) for d in shape]


def _build(onnx, net, inputs, input_names=None, output_names=None, export_params=True,
           keep_initializers_as_inputs=False, dynamic_axes=None):
    """The checked ModelProto. The options are ``mindspore.onnx.export``'s: ``input_names`` /
    ``output_names`` rename the first inputs / outputs; ``export_params=False`` makes the
    Parameters graph inputs instead of initializers, ``keep_initializers_as_inputs`` lists them
    as inputs too; ``dynamic_axes`` ({input name: {axis: dimension name}}) makes those axes
    symbolic."""
    helper = onnx.helper
    count = sum(isinstance(t, Tensor) for t in inputs)
    names = list(input_names or [])[:count] + _input_names(net, count)[len(input_names or []):]
    inputs = _dynamic(inputs, names, dynamic_axes or {})
    specs, sources = _specs(inputs, names)
    closed = _trace(net, inputs, specs)
    em = Emitter(onnx, sources)
    for n in names:
        em.fresh(n)
    pnames = {id(p._data): p.name for p in net.get_parameters()} if isinstance(net, Cell) else {}
    consts = [em.const(np.asarray(c), name=pnames.get(id(c))) for c in closed.consts]
    outs = em.emit(closed.jaxpr, consts, names)
    given = list(output_names or [])
    out_names = [em.fresh(given[i] if i < len(given) else f"output_{i}") for i in range(len(outs))]
    for src, dst in zip(outs, out_names):
        em.nodes.append(helper.make_node("Identity", [src], [dst], name=dst + "_node"))
    nodes, initializers = _prune(em.nodes, em.initializers, out_names)
    dim_names = _dim_names(names, dynamic_axes or {})
    graph_inputs = [helper.make_tensor_value_info(n, em.onnx_type(s.dtype), _dims(s.shape, dim_names, n))
                    for n, s in zip(names, specs)]
    params = set(pnames.values())
    if not export_params or keep_initializers_as_inputs:
        graph_inputs += [helper.make_tensor_value_info(i.name, i.data_type, list(i.dims))
                         for i in initializers if i.name in params]
    if not export_params:
        initializers = [i for i in initializers if i.name not in params]
    graph = helper.make_graph(
        nodes, type(net).__name__ if isinstance(net, Cell) else getattr(net, "__name__", "function"), graph_inputs,
        [helper.make_tensor_value_info(n, em.onnx_type(a.dtype), _dims(a.shape, dim_names))
         for n, a in zip(out_names, closed.out_avals)],
        initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=_IR_VERSION,
                              producer_name="msjax", producer_version=_version())
    onnx.checker.check_model(model, full_check=True)
    return model


def _dynamic(inputs, names, dynamic_axes):
    """The inputs with the axes ``dynamic_axes`` names (by input name) made dynamic (``None``)."""
    out, it = [], iter(names)
    for t in inputs:
        axes = dynamic_axes.get(next(it)) if isinstance(t, Tensor) else None
        if axes:
            shape = [None if a in axes or a - len(t.shape) in axes else d for a, d in enumerate(t.shape)]
            t = Tensor(shape=shape, dtype=t.dtype)
        out.append(t)
    return out


def _dim_names(names, dynamic_axes):
    """``{input name or None: {symbol 'dyn_<axis>': the user's name}}`` (None: for the outputs,
    the first input's name for that axis)."""
    table = {None: {}}
    for n in names:
        for axis, dim in (dynamic_axes.get(n) or {}).items():
            table.setdefault(n, {})[f"dyn_{axis}"] = str(dim)
            table[None].setdefault(f"dyn_{axis}", str(dim))
    return table


def _prune(nodes, initializers, outputs):
    """Drop the nodes and initializers no output depends on (values the network computed and
    discarded: a discarded attention-weights average, an unused padding value)."""
    needed, keep = set(outputs), []
    for node in reversed(nodes):
        if any(o in needed for o in node.output):
            keep.append(node)
            needed.update(node.input)
    return keep[::-1], [i for i in initializers if i.name in needed]


def _version():
    try:
        return importlib.metadata.version("msjax")
    except importlib.metadata.PackageNotFoundError:    # pragma: no cover - a source tree
        return "0"
