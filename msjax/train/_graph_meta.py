"""``<prefix>-graph.meta``: the compiled training step as MindSpore's ANF IR ``ModelProto``.

MindSpore's ``ModelCheckpoint`` writes, at the first ``step_end`` in GRAPH_MODE, the graph the
train network compiled to (``Cell.get_func_graph_proto()``, ``anf_ir.proto``) beside its
checkpoints; in PyNative nothing is compiled and no file is written. msjax writes the same file
from the step it compiles: the train network is traced once more on the abstract shapes of the
batch it was last called with (``jax.make_jaxpr``, nothing computed, Parameters swapped for
traced values so nothing is changed), and each JAX primitive of the trace becomes one node.

The file parses with MindSpore's ``anf_ir_pb2.ModelProto``; what it holds is msjax's step, not
MindSpore's optimised graph op for op:

* ``parameters``: the batch's Tensors (``inputs0``, ``inputs1``...) then the Parameters the step
  uses, by name and type, as MindSpore's; constants are ``cst<N>`` (tensors by shape and dtype,
  without data, as MindSpore writes them).
* nodes: the JAX primitives under MindSpore's operator names (``MatMul``, ``Conv2D``, ``ReduceSum``;
  ``_where.ms_op``), numbered ``1, 2, ...``; ``scope`` is MindSpore's (``Default/network-WithLossCell/
  _backbone-Dense``, ``Gradients/...`` for the backward pass), ``full_name`` adds ``<Op>-op<k>``.
  A Parameter the step writes gets an ``Assign`` node, and the output a ``Depend`` on them (where
  MindSpore chains ``UpdateState``/``Load`` nodes). No attributes, no ``instance_name``.
* Convolutions and poolings appear in their XLA form (``Conv2D``, ``MaxPool``), as in ``export``.

A network that cannot be traced without running it (Python control flow on values) gets no file;
the reason goes to msjax's log at INFO.
"""
from __future__ import annotations

import contextlib
import io
import os
import stat

import jax
import numpy as np

from .. import log as logger
from .._core import context as _context
from .._core import rng
from .._core.state import Recorder, SwapFrame
from .._core.tensor import Tensor, wrap
from ..ops._impl import conv_lowering
from .anf_ir_pb2 import DataType, ModelProto
from ._export._mindir_ops import _INLINE
from ._export._where import ms_op, tracing_scopes

__all__ = ["save_graph", "graph_proto"]

_DTYPES = {np.dtype(k): DataType.Value("DT_" + v) for k, v in {
    "bool": "BOOL", "int8": "INT8", "int16": "INT16", "int32": "INT32", "int64": "INT64", "uint8": "UINT8",
    "uint16": "UINT16", "uint32": "UINT32", "uint64": "UINT64", "float16": "FLOAT16", "float32": "FLOAT32",
    "float64": "FLOAT64", "complex64": "COMPLEX64", "complex128": "COMPLEX128"}.items()}
_DTYPES[np.dtype(jax.numpy.bfloat16)] = DataType.Value("DT_BFLOAT16")


def save_graph(network, file_name, inputs) -> bool:
    """Write ``network``'s compiled step on ``inputs`` (the last batch) to ``file_name``, as
    MindSpore's ``_save_graph``: an existing file is replaced, the new one is left ``0o600``.
    Nothing is written outside GRAPH_MODE or when the step cannot be traced; returns whether a
    file was written."""
    if not _context.is_graph_mode() or inputs is None:
        return False
    try:
        data = graph_proto(network, inputs)
    except Exception as e:  # noqa: BLE001 - a missing side file must not stop training
        logger.info(f"ModelCheckpoint: no graph file for this network ({type(e).__name__}: {e}).")
        return False
    file_name = os.path.realpath(file_name)
    if os.path.isfile(file_name):
        os.remove(file_name)
    with open(file_name, "wb") as f:
        os.chmod(file_name, stat.S_IRUSR | stat.S_IWUSR)
        f.write(data)
    return True


def graph_proto(network, inputs) -> bytes:
    """The serialized ``ModelProto`` of ``network`` called on ``inputs`` (Tensors; others are
    constants of the step)."""
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    specs = [jax.ShapeDtypeStruct(tuple(t.shape), np.dtype(t._data.dtype)) for t in inputs if isinstance(t, Tensor)]
    with _scope_labels(network), conv_lowering.forced("xla"), tracing_scopes(), \
            contextlib.redirect_stdout(io.StringIO()):      # the step's Python prints ran when it compiled
        closed, params = _trace(network, inputs, specs)
    name = f"{type(network).__module__.replace('.', '_')}_{type(network).__name__}_construct"
    return _Writer(closed, params, len(specs), name).model().SerializeToString()


@contextlib.contextmanager
def _scope_labels(network):
    """Label every Cell with its MindSpore scope segment while the step is traced: the network is
    ``Default``, a sub-Cell ``<attribute>-<Class>`` (``network-WithLossCell``, ``0-Conv2d``)."""
    labelled = []
    try:
        for path, cell in network.cells_and_names():
            if "_ms_scope_label" in cell.__dict__:
                continue
            cell.__dict__["_ms_scope_label"] = "Default" if not path else f"{path.rsplit('.', 1)[-1]}-{type(cell).__name__}"
            labelled.append(cell)
        yield
    finally:
        for cell in labelled:
            cell.__dict__.pop("_ms_scope_label", None)


def _trace(network, inputs, specs):
    """The step's ClosedJaxpr over (Parameter values, inputs), returning (outputs, final values);
    Parameters met while tracing that the network does not list join, as in the transform core."""
    params = {id(p): p for p in list(network.get_parameters()) + [rng.key_param()] + list(rng.EXTRA)}
    for _ in range(4):
        plist = list(params.values())

        def fn(values, *arrays):
            it = iter(arrays)
            with SwapFrame(plist, values) as frame:
                out = network(*[wrap(next(it)) if isinstance(t, Tensor) else t for t in inputs])
                out = [leaf._data if isinstance(leaf, Tensor) else leaf
                       for leaf in jax.tree_util.tree_leaves(out, is_leaf=lambda x: isinstance(x, Tensor))]
            return out, list(frame.final)

        values = [jax.ShapeDtypeStruct(p.shape, np.dtype(p._raw_get().dtype)) for p in plist]
        with Recorder() as rec:
            closed = jax.make_jaxpr(fn)(values, *specs)
        missed = {k: p for k, p in list(rec.reads.items()) + list(rec.writes.items())
                  if k not in params and k not in rec.created}
        if not missed:
            return closed, plist
        params.update(missed)
    raise RuntimeError("could not determine the Parameters of the step")


def _scope(name_stack):
    """MindSpore's scope of an equation from JAX's name stack of Cell labels: ``Default/...``,
    ``Gradients/Default/...`` for the backward pass (``transpose(...)`` segments)."""
    path, grad = [], False
    for seg in str(name_stack).split("/"):
        while "(" in seg:               # jvp(label), transpose(jvp(label)): the transform around a Cell
            grad = grad or seg.startswith("transpose(")
            seg = seg[seg.index("(") + 1:].rstrip(")")
        if seg == "Default" or "-" in seg:
            path.append(seg)
    scope = "/".join(path) or "Default"
    return "Gradients/" + scope if grad else scope


class _Writer:
    def __init__(self, closed, params, n_inputs, name):
        self.closed, self.params, self.n_inputs, self.name = closed, params, n_inputs, name
        self.model_proto = ModelProto(ir_version=1)
        self.graph = self.model_proto.graph
        self.graph.name = name
        self.names = {}          # jaxpr var -> node / parameter / constant name
        self.counts = {}         # (scope, op) -> ops written so far
        self.nconst = 0

    def model(self):
        jaxpr = self.closed.jaxpr
        n_params = len(self.params)
        values_in = jaxpr.invars[:n_params]
        n_out = len(jaxpr.outvars) - n_params
        outs, finals = jaxpr.outvars[:n_out], jaxpr.outvars[n_out:]
        written = [(v_in, v_new) for v_in, v_new in zip(values_in, finals) if v_new is not v_in]
        used = {v for e in _all_eqns(jaxpr) for v in e.invars if not hasattr(v, "val")} | set(outs) | \
            {v for pair in written for v in pair}
        for i, var in enumerate(jaxpr.invars[n_params:]):
            self._parameter(var, f"inputs{i}")
        for var, p in zip(values_in, self.params):
            if var in used:
                self._parameter(var, p.name)
        for var, c in zip(jaxpr.constvars, self.closed.consts):
            self.names[var] = self._const(np.asarray(c))
        self._eqns(jaxpr.eqns, "")
        assigns = [self._node("Assign", [self._ref(v_in), self._ref(v_new)], "Default", v_new.aval)
                   for v_in, v_new in written]
        if len(outs) == 1:
            out, aval = self._ref(outs[0]), outs[0].aval
        else:
            out, aval = self._node("MakeTuple", [self._ref(v) for v in outs], "Default", [v.aval for v in outs]), \
                [v.aval for v in outs]
        if assigns:
            out = self._node("Depend", [out] + assigns, "Default", aval)
        self._type(self.graph.outputs.add(name=out).type, aval)
        return self.model_proto

    # -- pieces ------------------------------------------------------------------------
    def _parameter(self, var, name):
        self.names[var] = name
        self._type(self.graph.parameters.add(name=name).type, var.aval)

    def _eqns(self, eqns, outer_stack):
        for eqn in eqns:
            stack = f"{outer_stack}/{eqn.source_info.name_stack}" if outer_stack else str(eqn.source_info.name_stack)
            if eqn.params.get("name") == "msjax_rounded":    # a product's rounding barrier: not a node
                self.names[eqn.outvars[0]] = self._ref(eqn.invars[0])
                continue
            inner = next((eqn.params[k] for k in ("jaxpr", "call_jaxpr", "fun_jaxpr")
                          if eqn.primitive.name in _INLINE and k in eqn.params), None)
            if inner is not None:           # a nested jaxpr (jit, custom_jvp...): its equations inline
                sub = getattr(inner, "jaxpr", inner)
                for var, c in zip(sub.constvars, getattr(inner, "consts", ())):
                    self.names[var] = self._const(np.asarray(c))
                for outer, var in zip(eqn.invars, sub.invars):
                    self.names[var] = self._ref(outer)
                self._eqns(sub.eqns, stack)
                for outer, var in zip(eqn.outvars, sub.outvars):
                    self.names[outer] = self._ref(var)
                continue
            ins = [self._ref(v) for v in eqn.invars]
            scope = _scope(stack)
            if len(eqn.outvars) == 1:
                self.names[eqn.outvars[0]] = self._node(ms_op(eqn.primitive.name), ins, scope, eqn.outvars[0].aval)
                continue
            node = self._node(ms_op(eqn.primitive.name), ins, scope, [v.aval for v in eqn.outvars])
            for i, var in enumerate(eqn.outvars):
                self.names[var] = self._node("TupleGetItem", [node, self._const(i)], scope, var.aval)

    def _node(self, op, ins, scope, aval):
        name = str(len(self.graph.node) + 1)
        k = self.counts.get((scope, op), 0)
        self.counts[(scope, op)] = k + 1
        node = self.graph.node.add(name=name, op_type=op, scope=scope, full_name=f"{scope}/{op}-op{k}")
        for i in ins:
            node.input.add(name=i)
        self._type(node.output_type, aval)
        return name

    def _ref(self, var):
        if hasattr(var, "val"):             # a literal
            return self._const(var.val)
        return self.names[var]

    def _const(self, value):
        self.nconst += 1
        key = f"cst{self.nconst}"
        v = self.graph.const_vals.add(key=key).value
        if isinstance(value, bool):         # Python scalars as MindSpore writes them; arrays as tensors
            v.dtype, v.bool_val = DataType.Value("DT_BOOL"), value
        elif isinstance(value, int):
            v.dtype, v.int_val = DataType.Value("DT_INT64"), value
        elif isinstance(value, float):
            v.dtype, v.float_val = DataType.Value("DT_FLOAT32"), value
        else:
            arr = np.asarray(value)
            v.dtype = DataType.Value("DT_TENSOR")
            v.tensor_val.dims.extend(arr.shape)
            v.tensor_val.data_type = _DTYPES.get(arr.dtype, DataType.Value("DT_UNDEFINED"))
        return key

    def _type(self, proto, aval):
        if isinstance(aval, list):
            proto.data_type = DataType.Value("DT_TUPLE")
            for a in aval:
                self._type(proto.sequence_type.elem_types.add(), a)
            return
        proto.data_type = DataType.Value("DT_TENSOR")
        proto.tensor_type.elem_type = _DTYPES.get(np.dtype(aval.dtype), DataType.Value("DT_UNDEFINED")) \
            if isinstance(aval.dtype, np.dtype) else DataType.Value("DT_UNDEFINED")
        if aval.shape:
            for d in aval.shape:
                proto.tensor_type.shape.dim.add(size=int(d) if isinstance(d, (int, np.integer)) else -1)


def _all_eqns(jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        for k in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
            if eqn.primitive.name in _INLINE and k in eqn.params:
                inner = eqn.params[k]
                yield from _all_eqns(getattr(inner, "jaxpr", inner))
