"""Read a MindIR file (``mindspore.load``) into a graph that ``nn.GraphCell`` runs.

``load_mindir_graph(file_name)`` parses the file's ``ModelProto`` (MindSpore 2.10's
``mind_ir.proto``), keeps the weights (``GraphProto.parameter``: raw data, dtype, dims, or an
external data file) and turns the nodes into a program: constants (``Constant`` value nodes:
scalars, tuples, tensors, monads) are decoded once, every other node becomes a call of the msjax
op its primitive names (``_mindir_kernels.KERNELS``), in dependency order from the outputs.
``FuncGraph.run(params, inputs)`` evaluates it on Tensors; ``nn.GraphCell`` compiles that with
``ms.jit`` (one XLA program per input signature, the weights as its arguments).

Differences from MindSpore:

- Only the op types in ``_mindir_kernels.KERNELS`` are known (the zoo's CNNs, Transformer
  encoder layers and common element-wise ops); any other op type, and MindIR sub-graphs
  (control flow, ``ModelProto.functions``), raise ``RuntimeError`` naming it when loading.
- Files encrypted by MindSpore's built-in modes (``dec_key`` with ``dec_mode`` ``'AES-GCM'``,
  ``'AES-CBC'``, ``'SM4-CBC'``) raise ``NotImplementedError``; customized decryption (``dec_mode``
  a function, called ``dec_mode(file_name, dec_key)`` for the model's bytes) works.
"""
from __future__ import annotations

import os

import numpy as np

from ..._core.tensor import Tensor
from ...common import dtype as mstype
from .._mind_ir_pb import AttributeProto, ModelProto, TensorProto
from . import _mindir_f32_chain
from . import _mindir_layer_kernels  # noqa: F401  (registers the zoo layers' op types)
from ._mindir_kernels import KERNELS, MONAD, PLUMBING, STATIC_INPUTS, WEAK_SCALAR_OPS

__all__ = ["FuncGraph", "load_mindir_graph"]

A = AttributeProto
_NP_TYPES = {TensorProto.FLOAT: np.float32, TensorProto.UINT8: np.uint8, TensorProto.INT8: np.int8,
             TensorProto.UINT16: np.uint16, TensorProto.INT16: np.int16, TensorProto.INT32: np.int32,
             TensorProto.INT64: np.int64, TensorProto.BOOL: np.bool_, TensorProto.FLOAT16: np.float16,
             TensorProto.DOUBLE: np.float64, TensorProto.FLOAT64: np.float64, TensorProto.UINT32: np.uint32,
             TensorProto.UINT64: np.uint64, TensorProto.COMPLEX64: np.complex64,
             TensorProto.COMPLEX128: np.complex128}
_MS_TYPES = {TensorProto.FLOAT: mstype.float32, TensorProto.UINT8: mstype.uint8, TensorProto.INT8: mstype.int8,
             TensorProto.UINT16: mstype.uint16, TensorProto.INT16: mstype.int16, TensorProto.INT32: mstype.int32,
             TensorProto.INT64: mstype.int64, TensorProto.BOOL: mstype.bool_, TensorProto.FLOAT16: mstype.float16,
             TensorProto.DOUBLE: mstype.float64, TensorProto.FLOAT64: mstype.float64,
             TensorProto.UINT32: mstype.uint32, TensorProto.UINT64: mstype.uint64,
             TensorProto.BFLOAT16: mstype.bfloat16, TensorProto.COMPLEX64: mstype.complex64,
             TensorProto.COMPLEX128: mstype.complex128}
_INTS = (A.INT8, A.INT16, A.INT32, A.INT64, A.UINT8, A.UINT16, A.UINT32, A.UINT64)
# MindSpore's encrypted MindIR files start with one of these little-endian int32 magic numbers
_CIPHER_MAGIC = (0x7F3A5ED8, 0x7F3A5ED9)


def _np_dtype(data_type):
    if data_type == TensorProto.BFLOAT16:
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    if data_type not in _NP_TYPES:
        raise RuntimeError(f"Load MindIR failed: tensor data type {TensorProto.DataType.Name(data_type)} "
                           "is not supported by msjax.")
    return np.dtype(_NP_TYPES[data_type])


def tensor_value(t, base_dir=""):
    """A ``TensorProto``'s value as a NumPy array (raw data, typed fields or an external file)."""
    dtype = _np_dtype(t.data_type)
    shape = tuple(t.dims)
    if t.HasField("external_data"):
        ext = t.external_data
        with open(os.path.join(base_dir, ext.location), "rb") as f:
            f.seek(ext.offset)
            raw = f.read(ext.length)
        return np.frombuffer(raw, dtype).reshape(shape).copy()
    if t.HasField("raw_data"):
        return np.frombuffer(t.raw_data, dtype).reshape(shape).copy()
    for field in ("float_data", "int32_data", "int64_data", "double_data", "uint64_data"):
        values = getattr(t, field)
        if len(values):
            return np.asarray(values).astype(dtype).reshape(shape)
    return np.zeros(shape, dtype)


def _scalar(a, single, repeated):
    return getattr(a, single) if a.HasField(single) else (getattr(a, repeated)[0] if len(getattr(a, repeated))
                                                         else getattr(a, single))


def attr_value(a):
    """An ``AttributeProto`` (a Constant's value, a primitive's attribute) as a Python value;
    a tensor becomes a NumPy array."""
    t = a.type
    if t in (A.UMONAD, A.IOMONAD):
        return MONAD
    if t == A.NONE:
        return None
    if t in (A.TUPLE, A.LIST):
        seq = [attr_value(v) for v in a.values]
        return tuple(seq) if t == A.TUPLE else seq
    if t == A.BOOL:
        return bool(_scalar(a, "i", "ints"))
    if t in _INTS:
        return int(_scalar(a, "i", "ints"))
    if t in (A.FLOAT, A.FLOAT16, A.BFLOAT16):
        return float(_scalar(a, "f", "floats"))
    if t == A.DOUBLE:
        return float(_scalar(a, "d", "doubles"))
    if t == A.STRING:
        return _scalar(a, "s", "strings").decode()
    if t == A.TENSORS and len(a.tensors) == 1:
        return tensor_value(a.tensors[0])
    if t == A.TENSOR:
        return tensor_value(a.t)
    raise RuntimeError(f"Load MindIR failed: a value of type {A.AttributeType.Name(t)} "
                       f"({a.name!r}) is not supported by msjax.")


def _short(name, graph_name):
    """``'13_1___main___Net_construct_8:fc.weight'`` -> ``'fc.weight'``."""
    prefix = graph_name + ":"
    return name[len(prefix):] if name.startswith(prefix) else name


class _Node:
    __slots__ = ("name", "op", "kernel", "inputs", "attrs")

    def __init__(self, name, op, kernel, inputs, attrs):
        self.name, self.op, self.kernel, self.inputs, self.attrs = name, op, kernel, inputs, attrs


class FuncGraph:
    """A graph loaded from MindIR (``mindspore.load``'s result), run by ``nn.GraphCell``.

    ``name``: the graph's name; ``inputs``: ``[(name, shape, dtype)]`` as exported (``-1`` for a
    dynamic dimension); ``params``: ``{name: ndarray}``, the embedded weights in file order;
    ``run(params, inputs)`` evaluates the graph on Tensors (``params`` by name).
    """

    _ms_mindir_graph = True

    def __init__(self, name, inputs, params, nodes, outputs, constants, full_names=None):
        self.name, self.inputs, self.params = name, inputs, params
        self._nodes, self._outputs, self._constants = nodes, outputs, constants
        # short name (``x``, ``fc.weight``) -> the file's name (``<graph>:x``): the nodes refer to
        # the file's names, which a constant's name (a ``Constant`` named ``x``) cannot shadow
        self._full = full_names or {}

    def __repr__(self):
        return f"FuncGraph({self.name!r}, inputs={[n for n, _, _ in self.inputs]}, {len(self._nodes)} nodes)"

    def op_types(self):
        """The op types of the graph's nodes (plumbing included), sorted."""
        return sorted({n.op for n in self._nodes})

    def run(self, params, inputs):
        env = dict(self._constants)
        for key, value in self._constants.items():
            if isinstance(value, np.ndarray):
                env[key] = Tensor(value)
        full = self._full
        env.update((full.get(k, k), v) for k, v in params.items())
        env.update((full.get(n, n), x) for (n, _, _), x in zip(self.inputs, inputs))
        for node in self._nodes:
            args = [env[i] for i in node.inputs]
            if node.op not in PLUMBING:     # U/IO monads order side effects; no kernel takes them
                args = [a for a in args if a is not MONAD]
            try:
                env[node.name] = node.kernel(args, node.attrs)
            except Exception as e:      # pylint: disable=broad-except
                shapes = ", ".join(f"{tuple(a.shape)}:{a.dtype}" if isinstance(a, Tensor) else repr(a)
                                   for a in args)
                raise RuntimeError(f"Catch primitive:{node.op} exception:{type(e).__name__}: {e}\n"
                                   f"(MindIR node '{node.name}', arguments: {shapes})") from e
        outs = tuple(env[o] for o in self._outputs)
        return outs[0] if len(outs) == 1 else outs


def _file_bytes(file_name, dec_key, dec_mode):
    """The model's bytes: the file, or what a customized decryption (``dec_mode`` a function,
    called as MindSpore calls it: ``dec_mode(file_name, dec_key)``) returns for it."""
    if dec_key is not None and callable(dec_mode):
        data = dec_mode(file_name, dec_key)
        if not isinstance(data, (bytes, bytearray)):
            raise RuntimeError("Load MindIR failed.")
        return bytes(data)
    with open(file_name, "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[:4], "little") if len(data) >= 4 else None
    if dec_key is not None:
        if magic in _CIPHER_MAGIC:
            raise NotImplementedError(f"Decrypting a MindIR file with MindSpore's built-in '{dec_mode}' mode is not "
                                      "supported by msjax; export with enc_mode a function (customized encryption) "
                                      "or without enc_key.")
        raise RuntimeError("Load MindIR failed.")     # MindSpore: the key does not decrypt a plain file
    if magic in _CIPHER_MAGIC:
        raise RuntimeError("Load MindIR failed. The file may be encrypted and decrypt failed, you "
                           "can check whether the values of the arguments 'dec_key' and 'dec_mode'"
                           " are the same as when exported MindIR file, or check the file integrity.")
    return data


def _node_kind(node, prims, functions):
    """(op type, attributes) of a node: ``REF::MatMul:4`` names the primitive ``MatMul:4``."""
    ref = node.op_type[5:] if node.op_type.startswith("REF::") else None
    if ref is not None and ref in prims:
        p = prims[ref]
        return p.op_type, {a.name: attr_value(a) for a in p.attribute
                           if a.name not in ("input_names", "output_names")}
    if ref is not None and (ref in functions or ref.split(":")[0] in functions):
        raise RuntimeError(f"Load MindIR failed: node '{node.name}' calls the sub-graph '{ref}' (control flow); "
                           "MindIR sub-graphs are not supported by msjax.")
    op = ref.split(":")[0] if ref is not None else node.op_type
    return op, {a.name: attr_value(a) for a in node.attribute if a.name != "shape"}


def _nested_tuple(v):
    return tuple(_nested_tuple(x) for x in v) if isinstance(v, list) else v


def _node_inputs(node, op, constants):
    """The node's inputs: a constant at a position the kernel needs when tracing
    (``STATIC_INPUTS``) as nested tuples; a 0-d constant tensor of an element-wise op whose recorded output dtype
    is not the constant's (``ops.Mul()(0.25, x_fp16)``: MindSpore stores 0.25 as a float32 0-d
    tensor and the product as float16) is read as a Python number, which keeps the other
    operand's dtype as MindSpore's scalar did."""
    inputs = list(node.input)
    for k in STATIC_INPUTS.get(op, ()):
        v = constants.get(inputs[k]) if k < len(inputs) else None
        if isinstance(v, np.ndarray):
            key = f"{inputs[k]}#static"
            constants[key] = _nested_tuple(v.tolist())
            inputs[k] = key
    if op not in WEAK_SCALAR_OPS:
        return inputs
    out = [a for a in node.attribute if a.name == "shape" and a.type == A.TENSORS and len(a.tensors) == 1]
    if not out or out[0].tensors[0].data_type not in _NP_TYPES:
        return inputs
    out_dtype = _np_dtype(out[0].tensors[0].data_type)
    if all(isinstance(constants.get(name), np.ndarray) for name in inputs):
        return inputs
    for k, name in enumerate(inputs):
        v = constants.get(name)
        if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype != out_dtype and v.dtype != np.bool_:
            key = f"{name}#scalar"
            constants[key] = v.item()
            inputs[k] = key
    return inputs


def _program(graph, prims, functions, known):
    """Constants and the nodes needed for the outputs, in dependency order (an iterative
    depth-first walk from the outputs: nodes nothing reads are left out)."""
    by_output = {out: node for node in graph.node for out in node.output}
    constants, order, done, visiting = {}, [], set(), set()
    for out in graph.output:
        stack = [(out.name, False)]
        while stack:
            name, expanded = stack.pop()
            if name in done:
                continue
            node = by_output.get(name)
            if node is None:
                if name not in known:
                    raise RuntimeError(f"Load MindIR failed: '{name}' is neither a node, an input nor a parameter.")
                done.add(name)
            elif node.op_type == "Constant":
                constants[name] = attr_value(node.attribute[0])
                done.add(name)
            elif expanded:
                op, attrs = _node_kind(node, prims, functions)
                if op not in KERNELS:
                    raise RuntimeError(f"Load MindIR failed: the op type '{op}' (node '{node.name}') has no "
                                       "msjax implementation in nn.GraphCell's MindIR interpreter.")
                order.append(_Node(name, op, KERNELS[op], _node_inputs(node, op, constants), attrs))
                done.add(name)
                visiting.discard(name)
            elif name in visiting:
                raise RuntimeError(f"Load MindIR failed: the graph has a cycle through '{name}'.")
            else:
                visiting.add(name)
                stack.append((name, True))
                stack.extend((i, False) for i in reversed(node.input) if i not in done)
    return constants, order


def _fused_bias(order, outputs):
    """MindSpore's CPU runtime computes a ``MatMul`` or ``Conv2D`` whose one user is a ``BiasAdd`` as one
    kernel: in float16, the float32 product plus the bias, rounded once (its PyNative rounds the product
    first, as msjax's ``nn.Dense``/``nn.Conv1d``). Each such pair becomes one node computing so."""
    uses = {}
    for n in order:
        for i in n.inputs:
            uses[i] = uses.get(i, 0) + 1
    for o in outputs:
        uses[o] = uses.get(o, 0) + 1
    by_name = {n.name: n for n in order}
    gone = set()
    for n in order:
        mm = by_name.get(n.inputs[0]) if n.op == "BiasAdd" and n.inputs else None
        if mm is None or mm.op not in ("MatMul", "Conv2D") or uses.get(mm.name) != 1:
            continue
        k = len(mm.inputs)
        n.kernel = _matmul_bias(mm.kernel, mm.attrs, n.kernel, k)
        n.inputs, n.op = list(mm.inputs) + list(n.inputs[1:]), mm.op + "+BiasAdd"
        gone.add(mm.name)
    return [n for n in order if n.name not in gone]


def _matmul_bias(mm_kernel, mm_attrs, bias_kernel, k):
    def run(args, attrs):
        mm_args, rest = args[:k], args[k:]
        low = all(isinstance(a, Tensor) and a.dtype == mstype.float16 for a in (*mm_args[:2], rest[0]))
        if low:
            mm_args = [a.astype(mstype.float32) for a in mm_args[:2]] + list(mm_args[2:])
            rest = [rest[0].astype(mstype.float32)] + list(rest[1:])
        out = bias_kernel([mm_kernel(mm_args, mm_attrs)] + list(rest), attrs)
        return out.astype(mstype.float16) if low else out
    return run


def parse_model(model, base_dir=""):
    """A ``FuncGraph`` of a parsed ``ModelProto``."""
    g = model.graph
    prims = {p.name: p for p in model.primitives}
    functions = {f.name for f in model.functions}
    inputs = [(i.name, tuple(i.tensor[0].dims) if i.tensor else (),
               _MS_TYPES.get(i.tensor[0].data_type) if i.tensor else None) for i in g.input]
    params = {p.name: tensor_value(p, base_dir) for p in g.parameter}
    known = {n for n, _, _ in inputs} | set(params)
    constants, nodes = _program(g, prims, functions, known)
    nodes = _fused_bias(nodes, [o.name for o in g.output])
    nodes = _mindir_f32_chain.chained(nodes, _Node)
    # parameter and input names without the graph's prefix, as MindSpore's GraphCell names them
    # (the nodes keep the file's names)
    rename = {n: _short(n, g.name) for n in known}
    return FuncGraph(g.name, [(rename[n], s, d) for n, s, d in inputs],
                     {rename[n]: v for n, v in params.items()}, nodes, [o.name for o in g.output], constants,
                     {short: n for n, short in rename.items()})


def load_mindir_graph(file_name, dec_key=None, dec_mode="AES-GCM", obf_func=None):
    """The graph of the MindIR file ``file_name`` (already checked by ``mindspore.load``);
    ``RuntimeError('Load MindIR failed.')`` for a file that is not a MindIR model."""
    if obf_func is not None:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    data = _file_bytes(file_name, dec_key, dec_mode)
    model = ModelProto()
    try:
        model.ParseFromString(data)
    except Exception as e:      # pylint: disable=broad-except
        raise RuntimeError("Load MindIR failed.") from e
    if not model.HasField("graph"):
        raise RuntimeError("Load MindIR failed.")
    return parse_model(model, os.path.dirname(os.path.abspath(file_name)))
