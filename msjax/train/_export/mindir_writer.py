"""``export(net, *inputs, file_name, file_format="MINDIR")``: the network as a MindSpore 2.10 MindIR
file (``mind_ir.proto``'s ModelProto) that MindSpore's ``load`` + ``nn.GraphCell`` runs.

How: the network is traced once in inference mode (``net.set_train(False)``, restored after)
with ``jax.make_jaxpr``, its Parameters swapped in as inputs of the trace (so each becomes a
named graph parameter, ``conv1.weight``, with its value embedded); ``_mindir_ops.Emitter``
writes each JAX primitive of the trace as the MindSpore primitive(s) computing it, in the
form MindSpore's own exporter writes them. During the trace convolutions and max pooling
take their XLA form (``conv_lowering.forced("xla")``, for this thread only), so they appear as ``Conv2D``/``MaxPool``
rather than as msjax's CPU lowering (patches and a matrix product).

Why the jaxpr rather than msjax's op registry: the nn layers (``Conv2d``, ``Dense``,
``BatchNorm2d``, ``MaxPool2d``...) call array-level kernels directly, not registered ops, so
the registry sees only part of a network; the trace sees all of it, in a small closed set of
about 60 JAX primitives, each with one rule. The price is granularity: a layer is written as
the primitives msjax computes it with (``nn.Dense`` as ``MatMul`` + ``Add``, GELU as its formula;
LayerNorm, Softmax, BatchNorm in inference, ReLU, ReLU6, HSwish and HSigmoid are MindSpore's single
nodes, ``_mindir_fused``), which MindSpore runs to
the same values (float32 rounding) but is not node for node the graph MindSpore's exporter writes for the same Cell.

Differences from MindSpore 2.10:

* Graph, node and primitive names are msjax's (``<Cell>_construct:CNode_<n>``); inputs are
  named after the ``construct`` parameters, graph parameters after the Parameters (their
  ``ref_key``), and Parameters the network does not read are left out (as MindSpore does).
* No ``Load``/``UpdateState``/``Depend`` side-effect chain: an inference graph only reads its
  Parameters, and MindSpore's loader accepts them as direct inputs of the nodes.
* ``Tensor(shape=[None, ...])``: the trace uses ``jax.export`` symbols (``dyn_<axis>``, one per
  axis position) and the file -1 dimensions, as MindSpore's; a trace that needs a dynamic
  dimension's value raises ``ValueError`` (``RuntimeError`` from a rule, e.g. a reshape with
  two dynamic dimensions).
* A float16 ``MatMul``/``BatchMatMul``/``BiasAdd``/``Tanh`` read by another of these gets an
  ``Identity`` between them, which MindSpore's exporter does not write: MindSpore's CPU runtime would
  hand the first one's result on unrounded, msjax rounds it as MindSpore's PyNative (``_mindir_wide``).
* An op with no MindIR rule (control flow, random bits, 3-D convolution...) raises
  ``RuntimeError`` naming the MindSpore operator, the Cell it ran in and the user's line that
  called it (``_where``); nothing is written then.
"""
from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.state import SwapFrame
from ..._core.tensor import DynamicShape, Tensor, wrap
from ...nn.cell import Cell
from ...ops._impl import conv_lowering, export_names
from .._mind_ir_pb import ModelProto, TensorProto
from . import _mindir_fused, _mindir_windows  # noqa: F401  (register the layer, convolution, pooling and gather rules)
from ._mindir_ops import Emitter, abstract, dims, prune, tensor_type
from ._output import replace_file
from ._where import tracing_scopes

__all__ = ["write_mindir", "build_mindir"]

IR_VERSION = "1.1"                 # what MindSpore 2.10 writes (ir_version, mind_ir_version)
MIND_IR_VERSION = 3
MODEL_VERSION = "2.10.0"


def write_mindir(net, inputs, file_name: str) -> None:
    """Write ``net`` called on ``inputs`` to ``file_name`` (the final path, '.mindir' included).

    ``net``: a Cell or a function of Tensors; ``inputs``: a tuple of Tensors (non-Tensor inputs
    are constants of the graph; ``Tensor(shape=[None, ...])`` gives a dynamic dimension). Raises
    ``RuntimeError`` naming an op that has no MindIR form; nothing is written then. The file is replaced
    atomically and left read-only, as MindSpore leaves it.
    """
    replace_file(file_name, build_mindir(net, inputs).SerializeToString())


def build_mindir(net, inputs) -> ModelProto:
    """The ModelProto of ``net`` on ``inputs`` (see :func:`write_mindir`)."""
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    tensors = [t for t in inputs if isinstance(t, Tensor)]
    specs = _specs(tensors)
    is_cell = isinstance(net, Cell)
    params = list(net.get_parameters()) if is_cell else []
    mode = net.training if is_cell else None
    if is_cell:
        net.set_train(False)
    try:
        with conv_lowering.forced("xla"), export_names.naming(), tracing_scopes():
            closed = _trace(net, inputs, params, specs)
    finally:
        if is_cell:
            net.set_train(mode)
    graph_name = f"{type(net).__name__ if is_cell else getattr(net, '__name__', 'function')}_construct"
    return _model(graph_name, closed, params, _input_names(net, len(tensors)), specs)


def _specs(tensors):
    """The inputs' ShapeDtypeStructs; a ``None`` dimension (``Tensor(shape=[None, ...])``) is a
    ``jax.export`` symbol, one per axis position (``dyn_0`` for every input's first axis...)."""
    specs = []
    for t in tensors:
        shape = tuple(t._data.shape) if isinstance(t._data, DynamicShape) else tuple(t.shape)
        if -2 in shape:
            raise ValueError(f"Exporting MINDIR: an input of unknown rank (shape {list(shape)}) is not supported; "
                             f"give its rank (None for each dynamic dimension).")
        if -1 in shape:
            syms = jax.export.symbolic_shape(", ".join(f"dyn_{a}" if d == -1 else str(d) for a, d in enumerate(shape)))
            shape = tuple(syms)
        specs.append(jax.ShapeDtypeStruct(shape, np.dtype(t._data.dtype)))
    return specs


def _trace(net, inputs, params, specs):
    def fn(values, *arrays):
        it = iter(arrays)
        with SwapFrame(params, values) as frame:
            out = net(*[wrap(next(it)) if isinstance(t, Tensor) else t for t in inputs])
        leaves = jax.tree_util.tree_leaves(out)
        if any(not isinstance(leaf, (jax.Array, np.ndarray, np.generic, bool, int, float)) for leaf in leaves):
            # MindSpore's exporter refuses outputs that are not tensors or numbers (a dtype, a string...)
            raise RuntimeError("Failed to export MindIR!")
        # the Parameters' values after the call: those the network writes become Assign nodes
        return [jnp.asarray(leaf) for leaf in leaves], list(frame.final)

    values = [jax.ShapeDtypeStruct(p.shape, np.dtype(p._raw_get().dtype)) for p in params]
    try:
        return jax.make_jaxpr(fn)(values, *specs)
    except Exception as e:
        if all(isinstance(d, int) for s in specs for d in s.shape) or isinstance(e, RuntimeError):
            raise
        raise ValueError(f"Exporting MINDIR with a dynamic dimension (None) failed while tracing the network: "
                         f"{type(e).__name__}: {e}. Export with a fixed shape.") from e


def _input_names(net, count):
    fn = net.construct if isinstance(net, Cell) else net
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    names = [p.name for p in params[:count]]
    return names + [f"input_{i}" for i in range(len(names), count)]


def _model(graph_name, closed, params, names, specs):
    jaxpr = closed.jaxpr
    em = Emitter(graph_name)
    nparams = len(params)
    n_out = len(jaxpr.outvars) - nparams
    used = _used_vars(jaxpr, n_out)
    pnames = [f"{graph_name}:{p.name}" for p in params]
    inames = [f"{graph_name}:{n}" for n in names]
    emitted = em.emit(jaxpr, [np.asarray(c) for c in closed.consts], pnames + inames)
    outs, finals = emitted[:n_out], emitted[n_out:]
    out_avals = closed.out_avals[:n_out]
    outs = [o if isinstance(o, str) and o not in pnames + inames else _identity(em, o, a)
            for o, a in zip(outs, out_avals)]
    # a Parameter the network writes (``self.w += 1``): Assign(parameter, new value), as in MindSpore's graph
    assigns = [em.op("Assign", [pname, new if isinstance(new, str) else em.const(new)], aval)
               for pname, new, aval in zip(pnames, finals, closed.out_avals[n_out:]) if new != pname]
    model = ModelProto(ir_version=IR_VERSION, producer_name="MindSpore", model_version=MODEL_VERSION,
                       little_endian=True, mind_ir_version=MIND_IR_VERSION)
    g = model.graph
    g.name = graph_name
    for var, p, name in zip(jaxpr.invars[:nparams], params, pnames):
        if var in used:
            value = np.ascontiguousarray(np.asarray(p._raw_get()))
            g.parameter.add(dims=value.shape, data_type=tensor_type(value.dtype), name=name, ref_key=p.name,
                            raw_data=value.tobytes(), compression_type=TensorProto.NO_COMPRESSION)
    for name, spec in zip(inames, specs):
        g.input.add(name=name).tensor.add(dims=dims(spec.shape), data_type=tensor_type(spec.dtype))
    if assigns:     # the first output depends on the writes (a typed node; MindSpore loads no untyped Depend)
        outs[0] = em.op("Depend", [outs[0]] + assigns, out_avals[0], function=False)
    if len(outs) == 1:
        out = outs[0]
        g.output.add(name=out).tensor.add(dims=dims(out_avals[0].shape), data_type=tensor_type(out_avals[0].dtype))
    else:
        out = em.op("MakeTuple", outs, None, function=False)
        info = g.output.add(name=out, denotation="Tuple")
        info.attr_info.type = info.attr_info.TUPLE
        for a in out_avals:
            abstract(info.attr_info.values.add(), a).name = ""
    nodes, primitives = prune(em.nodes, em.primitives, [out])
    g.node.extend(nodes)
    model.primitives.extend(primitives)
    return model


def _identity(em, value, aval):
    """An output that is an input, a Parameter or a constant still needs a node of its own."""
    src = em.tensor(value, aval)
    return em.op("Depend", [src, src], aval, attrs={"side_effect_propagate": 1})


def _used_vars(jaxpr, n_out):
    """The variables the graph reads: the outputs' (the first ``n_out``), the equations' inputs, and
    a Parameter's value the network writes (with the value it writes)."""
    n_params = len(jaxpr.outvars) - n_out
    used = set(v for v in jaxpr.outvars[:n_out] if not hasattr(v, "val"))
    used.update(v for v_in, v in zip(jaxpr.invars[:n_params], jaxpr.outvars[n_out:])
                if v is not v_in and not hasattr(v, "val"))
    used.update(jaxpr.invars[i] for i, v in enumerate(jaxpr.outvars[n_out:]) if v is not jaxpr.invars[i])
    for eqn in jaxpr.eqns:
        used.update(v for v in eqn.invars if not hasattr(v, "val"))
    return used

