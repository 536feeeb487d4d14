"""JAX primitives as MindSpore 2.10 MindIR nodes: the rules behind ``export(..., file_format="MINDIR")``.

``Emitter.emit`` walks a jaxpr (the traced network) and writes each JAX primitive as the
MindSpore primitive(s) computing the same values, in the form MindSpore 2.10's own exporter
writes them (recorded from its files): most ops are ``PRIMITIVE_FUNCTION`` nodes whose
arguments are inputs (``ReduceSum(x, axis, keep_dims, skip_mode)``, ``MatMul(a, b,
transpose_a, transpose_b)``, constants as ``Constant`` nodes), a few keep the older
``PRIMITIVE`` form with attributes (``Conv2D``, ``MaxPool``, ``Pad``). Nested jaxprs (``jit``,
``custom_jvp_call``, ``custom_vjp_call``, ``remat``) are inlined; an equation whose inputs
are all constants is evaluated here and written as a constant (``iota``, a broadcast
scalar...).

A primitive without a rule, or a case MindIR cannot say here (transposed or 3-D
convolutions, interior padding, control flow, random bits...) raises ``RuntimeError`` naming
the op, before anything is written.
"""
from __future__ import annotations

import math

import jax
import jax.extend.core as jcore
import numpy as np

from ...ops._impl import export_names
from .._mind_ir_pb import AttributeProto, NodeProto, PrimitiveProto, TensorProto
from ._mindir_wide import WIDE
from ._where import Unsupported

__all__ = ["Emitter", "tensor_type", "unsupported"]

A = AttributeProto
_TENSOR_TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
                 np.dtype(np.float64): TensorProto.FLOAT64, np.dtype(np.int8): TensorProto.INT8,
                 np.dtype(np.int16): TensorProto.INT16, np.dtype(np.int32): TensorProto.INT32,
                 np.dtype(np.int64): TensorProto.INT64, np.dtype(np.uint8): TensorProto.UINT8,
                 np.dtype(np.uint16): TensorProto.UINT16, np.dtype(np.uint32): TensorProto.UINT32,
                 np.dtype(np.uint64): TensorProto.UINT64, np.dtype(np.bool_): TensorProto.BOOL}
# MindSpore's TypeId numbers (a Cast's or Argmax's dtype argument)
_TYPE_IDS = {np.dtype(np.bool_): 30, np.dtype(np.int8): 32, np.dtype(np.int16): 33, np.dtype(np.int32): 34,
             np.dtype(np.int64): 35, np.dtype(np.uint8): 37, np.dtype(np.uint16): 38, np.dtype(np.uint32): 39,
             np.dtype(np.uint64): 40, np.dtype(np.float16): 42, np.dtype(np.float32): 43,
             np.dtype(np.float64): 44}
_INLINE = {"jit": "jaxpr", "pjit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr",
           "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr", "custom_vjp_call_jaxpr": "fun_jaxpr",
           "remat": "jaxpr", "checkpoint": "jaxpr"}
_FOLD_LIMIT = 1 << 16      # elements: a larger all-constant result is computed by the graph instead


def _message(op, detail, where):
    what = f" ({detail})" if detail else ""
    loc = where.describe() if where is not None else ""
    return (f"Exporting MINDIR failed: the MindSpore operator '{op}'{what}{' ' + loc if loc else ''} has no MindIR "
            f"form in msjax's exporter; docs/export.md lists the ones it has.")


def unsupported(prim, detail=""):
    """The error for an operation with no MindIR form (``RuntimeError``, as MindSpore raises for an
    op it cannot export), named by its MindSpore operator; ``Emitter.emit`` adds the layer and the
    user's line it came from."""
    return Unsupported(prim, detail, _message)


def dims(shape):
    """A shape as MindIR writes it: a dynamic dimension (a ``jax.export`` symbol) is -1."""
    return tuple(int(d) if isinstance(d, (int, np.integer)) else -1 for d in shape)


def shape_arg(shape, prim):
    """A shape argument (``Reshape``'s): at most one dimension may be unknown (-1)."""
    out = dims(shape)
    if out.count(-1) > 1:
        raise unsupported(prim, f"a shape {tuple(str(d) for d in shape)} with several dynamic dimensions")
    return out


def tensor_type(dtype, prim="convert_element_type"):
    t = _TENSOR_TYPES.get(np.dtype(dtype))
    if t is None:
        raise unsupported(prim, f"dtype {np.dtype(dtype)}")
    return t


class TypeId(int):
    """A dtype argument (``Cast(x, dtype)``): MindSpore writes its TypeId as an INT64 constant."""

    @classmethod
    def of(cls, dtype, prim):
        if np.dtype(dtype) not in _TYPE_IDS:
            raise unsupported(prim, f"dtype {np.dtype(dtype)}")
        return cls(_TYPE_IDS[np.dtype(dtype)])


def attr_value(a, v):
    """Fill AttributeProto ``a`` with a Python value (bool, int, float, str, tuple, array)."""
    if isinstance(v, (bool, np.bool_)):
        a.type, a.i = A.BOOL, int(v)
    elif isinstance(v, (int, np.integer)):
        a.type, a.i = A.INT64, int(v)
    elif isinstance(v, (float, np.floating)):
        a.type, a.f = A.FLOAT, float(v)
    elif isinstance(v, str):
        a.type, a.s = A.STRING, v.encode()
    elif isinstance(v, (tuple, list)):
        a.type = A.TUPLE if isinstance(v, tuple) else A.LIST
        for item in v:
            sub = a.values.add()
            if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
                sub.type = A.INT64
                sub.ints.append(int(item))
            elif isinstance(item, str):
                sub.type = A.STRING
                sub.strings.append(item.encode())
            elif isinstance(item, (float, np.floating)):    # MindSpore's loader reads a tuple's floats here
                sub.type = A.FLOAT
                sub.floats.append(float(item))
            else:
                attr_value(sub, item)
    elif isinstance(v, np.ndarray):
        a.type = A.TENSORS
        t = a.tensors.add()
        t.dims.extend(v.shape)
        t.data_type = tensor_type(v.dtype)
        t.name = "value0"
        t.raw_data = np.ascontiguousarray(v).tobytes()
    else:
        raise TypeError(f"no MindIR attribute for {type(v).__name__}")
    return a


def abstract(a, aval):
    """The ``shape`` attribute MindSpore puts on each node: the output's shape and dtype."""
    a.name, a.type = "shape", A.TENSORS
    t = a.tensors.add()
    t.dims.extend(dims(aval.shape))
    t.data_type = tensor_type(aval.dtype)
    return a


class Emitter:
    """Builds the nodes and primitives of one MindIR graph named ``graph_name``."""

    def __init__(self, graph_name):
        self.graph = graph_name
        self.nodes: list = []
        self.primitives: list = []
        self._prims: dict = {}
        self._count = 0
        self.parents: tuple = ()     # the equation being written and those it is nested in
        self.reversed: dict = {}     # a ReverseV2's output -> (its input, axes): Conv2DTranspose undoes it
        self.transposed: dict = {}   # a Transpose of the last two axes: output -> input (2-D MatMul's flags)
        self.wide: dict = {}         # float16 outputs that MindSpore's CPU runtime keeps in float32 -> aval
        self._rounded: dict = {}     # such an output -> its Identity

    # -- the graph -----------------------------------------------------------------------
    def fresh(self, stem="CNode"):
        self._count += 1
        return f"{self.graph}:{stem}_{self._count}"

    def const(self, value):
        """A ``Constant`` node holding ``value`` (a scalar, a tuple of ints, a TypeId, an array)."""
        if isinstance(value, (np.ndarray, np.generic, jax.Array)) and not isinstance(value, TypeId):
            value = np.asarray(value)
        name = self.fresh("ValueNode")
        node = NodeProto(output=[name], name=name, op_type="Constant")
        attr_value(node.attribute.add(name="value"), value)
        self.nodes.append(node)
        return name

    def _primitive(self, op_type, attrs, function):
        key = (op_type, repr(sorted(attrs.items())) if attrs else "", function)
        if key not in self._prims:
            p = PrimitiveProto(name=f"{op_type}:{len(self._prims) + 1}", op_type=op_type, instance_name="",
                               prim_type=PrimitiveProto.PRIMITIVE_FUNCTION if function else PrimitiveProto.PRIMITIVE)
            for k, v in (attrs or {}).items():
                attr_value(p.attribute.add(name=k), v)
            self._prims[key] = p.name
            self.primitives.append(p)
        return self._prims[key]

    def op(self, op_type, inputs, aval, attrs=None, function=True):
        """A node applying MindSpore primitive ``op_type`` to ``inputs`` (value names, or Python
        values that become constants); ``attrs`` make it a ``PRIMITIVE`` (attribute form)."""
        prim = self._primitive(op_type, attrs, function and attrs is None)
        names = [x if isinstance(x, str) else self.const(x) for x in inputs]
        if op_type in WIDE:     # msjax rounds every float16 op's output: keep it so in MindSpore's runtime
            names = [self._round(x) if x in self.wide else x for x in names]
        out = self.fresh()
        if op_type in WIDE and aval is not None and aval.dtype == np.float16:
            self.wide[out] = aval
        node = NodeProto(input=names, output=[out], name=out, op_type=f"REF::{prim}")
        if aval is not None:
            abstract(node.attribute.add(), aval)
        self.nodes.append(node)
        return out

    def _round(self, x):
        """An ``Identity`` of ``x``, a float16 kernel where MindSpore's CPU runtime would hand a float32
        kernel's unrounded output to the next one (``_mindir_wide``)."""
        if x not in self._rounded:
            self._rounded[x] = self.op("Identity", [x], self.wide[x])
        return self._rounded[x]

    # -- jaxprs --------------------------------------------------------------------------
    def emit(self, jaxpr, consts, args, parents=()):
        """Emit ``jaxpr`` with its constvars bound to ``consts`` and invars to ``args`` (value
        names, or numpy arrays for constants); returns the outputs, in the same two kinds.
        ``parents``: the equations whose nested jaxpr this is (for an error's location)."""
        env = {}
        for v, x in zip(jaxpr.constvars, consts):
            env[v] = x
        for v, x in zip(jaxpr.invars, args):
            env[v] = x

        def read(v):
            return np.asarray(v.val) if isinstance(v, jcore.Literal) else env[v]

        for eqn in jaxpr.eqns:
            if _dead(eqn):
                continue
            ins = [read(v) for v in eqn.invars]
            name = eqn.primitive.name
            jname = eqn.params.get("name") if name in ("jit", "pjit") else None
            kind, static = export_names.parse(jname)
            named = RULES.get(f"jit:{jname}") or RULES.get(f"named:{kind}")
            self.parents = (*parents, eqn)
            try:
                # a named kernel written as one MindSpore node (msjax_rnn_LSTM, msjax_LayerNorm(...)); None: inline it
                outs = named(self, eqn, ins, **(static or {})) if named is not None else None
                if outs is not None:
                    outs = list(outs)
                elif name in _INLINE:
                    sub = eqn.params[_INLINE[name]]
                    if isinstance(sub, jcore.ClosedJaxpr):
                        outs = self.emit(sub.jaxpr, [np.asarray(c) for c in sub.consts], ins, (*parents, eqn))
                    else:
                        outs = self.emit(sub, [], ins, (*parents, eqn))
                elif all(not isinstance(x, str) for x in ins) and self._foldable(eqn):
                    res = eqn.primitive.bind(*ins, **eqn.params)
                    outs = [np.asarray(r) for r in (res if eqn.primitive.multiple_results else [res])]
                else:
                    rule = RULES.get(name)
                    if rule is None:
                        raise unsupported(name)
                    res = rule(self, eqn, ins, **eqn.params)
                    outs = list(res) if eqn.primitive.multiple_results else [res]
            except Unsupported as e:
                raise e.located((*parents, eqn)) from None
            for v, x in zip(eqn.outvars, outs):
                env[v] = x
        return [read(v) for v in jaxpr.outvars]

    @staticmethod
    def _foldable(eqn):
        return (not eqn.effects and eqn.primitive.name not in ("random_bits", "random_seed", "random_wrap")
                and all(-1 not in dims(v.aval.shape) for v in eqn.outvars)
                and sum(math.prod(v.aval.shape) for v in eqn.outvars) <= _FOLD_LIMIT)

    def tensor(self, x, aval=None):
        """A value name for ``x`` (a constant array becomes a constant tensor node)."""
        if isinstance(x, str):
            return x
        arr = np.asarray(x)
        if aval is not None:
            arr = arr.astype(aval.dtype)
        return self.const(arr)


def prune(nodes, primitives, outputs):
    """The nodes (and primitives) that ``outputs`` depend on, in order: a rule may leave a node
    nothing reads (the ReverseV2 of a kernel that Conv2DTranspose reads unreversed)."""
    by_out = {n.output[0]: n for n in nodes}
    needed, stack = set(), list(outputs)
    while stack:
        name = stack.pop()
        if name in needed or name not in by_out:
            continue
        needed.add(name)
        stack.extend(by_out[name].input)
    keep = [n for n in nodes if n.output[0] in needed]
    refs = {n.op_type[5:] for n in keep if n.op_type.startswith("REF::")}
    return keep, [p for p in primitives if p.name in refs]


def _dead(eqn):
    """An equation whose results nothing reads (jax's ``_`` outputs) and that has no effects."""
    return not eqn.effects and all(type(v).__name__ == "DropVar" for v in eqn.outvars)


RULES = {}


def rule(*names):
    def deco(fn):
        for n in names:
            RULES[n] = fn
        return fn
    return deco


def _out(eqn, i=0):
    return eqn.outvars[i].aval


_UNARY = {"exp": "Exp", "log": "Log", "tanh": "Tanh", "logistic": "Sigmoid", "erf": "Erf", "rsqrt": "Rsqrt",
          "sqrt": "Sqrt", "neg": "Neg", "abs": "Abs", "sign": "Sign", "floor": "Floor", "ceil": "Ceil",
          "sin": "Sin", "cos": "Cos", "square": "Square", "log1p": "Log1p", "expm1": "Expm1", "erfc": "Erfc",
          "is_finite": "IsFinite", "sinh": "Sinh", "cosh": "Cosh", "tan": "Tan", "asin": "Asin", "acos": "ACos",
          "atan": "Atan", "asinh": "Asinh", "acosh": "Acosh", "atanh": "Atanh"}
_BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "max": "Maximum", "min": "Minimum", "pow": "Pow",
           "atan2": "Atan2", "eq": "Equal", "ne": "NotEqual", "lt": "Less", "le": "LessEqual", "gt": "Greater",
           "ge": "GreaterEqual"}


def _unary(em, eqn, ins, **_):
    return em.op(_UNARY[eqn.primitive.name], [em.tensor(ins[0])], _out(eqn))


def _binary(em, eqn, ins, **_):
    a, b = (em.tensor(x, v.aval) for x, v in zip(ins, eqn.invars))
    return em.op(_BINARY[eqn.primitive.name], [a, b], _out(eqn))


for _n in _UNARY:
    rule(_n)(_unary)
for _n in _BINARY:
    rule(_n)(_binary)


@rule("and", "or", "not")
def _logical(em, eqn, ins, **_):
    if _out(eqn).dtype != np.bool_:
        raise unsupported(eqn.primitive.name, "bitwise on integers")
    op = {"and": "LogicalAnd", "or": "LogicalOr", "not": "LogicalNot"}[eqn.primitive.name]
    return em.op(op, [em.tensor(x, v.aval) for x, v in zip(ins, eqn.invars)], _out(eqn))


@rule("integer_pow")
def _integer_pow(em, eqn, ins, y):
    x = em.tensor(ins[0])
    if y == 2:
        return em.op("Square", [x], _out(eqn))
    return em.op("Pow", [x, np.asarray(y, _out(eqn).dtype)], _out(eqn))


@rule("copy", "copy_p", "stop_gradient", "optimization_barrier", "reduce_precision")
def _identity(em, eqn, ins, **_):
    return ins[0] if len(ins) == 1 else tuple(ins)


@rule("jit:msjax_rounded")     # a product's rounding before an addition (XLA's barrier); MindSpore's Mul rounds
def _rounded(em, eqn, ins):
    return ins[:1]


@rule("convert_element_type")
def _convert(em, eqn, ins, new_dtype, **_):
    if eqn.invars[0].aval.dtype == np.dtype(new_dtype):
        return ins[0]
    return em.op("Cast", [em.tensor(ins[0]), TypeId.of(new_dtype, "convert_element_type")], _out(eqn))


@rule("reshape", "squeeze", "expand_dims")
def _reshape(em, eqn, ins, **_):
    x, aval = em.tensor(ins[0]), eqn.invars[0].aval
    if eqn.primitive.name == "reshape" and eqn.params.get("dimensions") is not None:
        # lax's reshape that reads its input in another axis order (a grouped transposed
        # convolution's kernel): Transpose first
        x = _transposed(em, x, aval, tuple(int(d) for d in eqn.params["dimensions"]))
        aval = aval.update(shape=tuple(aval.shape[int(d)] for d in eqn.params["dimensions"]))
    if tuple(aval.shape) == tuple(_out(eqn).shape):
        return x
    return em.op("Reshape", [x, shape_arg(_out(eqn).shape, "reshape")], _out(eqn))


@rule("broadcast_in_dim")
def _broadcast(em, eqn, ins, shape, broadcast_dimensions, **_):
    src = eqn.invars[0].aval
    mid = [1] * len(shape)
    for d, n in zip(broadcast_dimensions, src.shape):
        mid[d] = n
    x = em.tensor(ins[0])
    if tuple(mid) != tuple(src.shape):
        x = em.op("Reshape", [x, shape_arg(mid, "broadcast_in_dim")], src.update(shape=tuple(mid)))
    if tuple(mid) == tuple(shape):
        return x
    if any(-1 == t != dims([m])[0] for m, t in zip(mid, dims(shape))):
        raise unsupported("broadcast_in_dim", "to a dynamic dimension")
    return em.op("BroadcastTo", [x, dims(shape)], _out(eqn))


@rule("transpose")
def _transpose(em, eqn, ins, permutation):
    x = em.tensor(ins[0])
    out = em.op("Transpose", [x, tuple(int(p) for p in permutation)], _out(eqn))
    n = len(permutation)
    if n >= 2 and tuple(permutation) == (*range(n - 2), n - 1, n - 2):
        em.transposed[out] = x
    return out


def _transposed(em, x, aval, perm):
    if list(perm) == list(range(len(perm))):
        return x
    shape = tuple(aval.shape[p] for p in perm)
    return em.op("Transpose", [x, tuple(perm)], aval.update(shape=shape))


def _reshaped(em, x, aval, shape):
    if tuple(aval.shape) == tuple(shape):
        return x
    return em.op("Reshape", [x, shape_arg(shape, "dot_general")], aval.update(shape=tuple(shape)))


@rule("dot_general")
def _dot_general(em, eqn, ins, dimension_numbers, **_):
    """Any ``dot_general`` as (Batch)MatMul: operands transposed to (batch, free, contracted) and
    (batch, contracted, free), flattened to 3-D (2-D without batch), the product reshaped back."""
    (lc, rc), (lb, rb) = dimension_numbers
    la, ra = (v.aval for v in eqn.invars)
    out = _out(eqn)
    if la.dtype != ra.dtype or out.dtype != la.dtype:
        raise unsupported("dot_general", f"mixed dtypes {la.dtype} x {ra.dtype} -> {out.dtype}")
    lf = [d for d in range(len(la.shape)) if d not in lc and d not in lb]
    rf = [d for d in range(len(ra.shape)) if d not in rc and d not in rb]
    size = (lambda aval, axes: math.prod(aval.shape[d] for d in axes))
    bshape = [la.shape[d] for d in lb]
    m, k, n = size(la, lf), size(la, lc), size(ra, rf)
    a, b = em.tensor(ins[0]), em.tensor(ins[1])
    # keep a plain (transposed) 2-D MatMul where the operands allow, as MindSpore writes Dense: an operand
    # that is a 2-D Transpose is read through the flag (``x @ w.T`` as ``MatMul(x, w, False, True)``; oneDNN
    # sums a transposed operand in another order than its transposed copy, so the node must be MindSpore's)
    if not lb and len(la.shape) == 2 and len(ra.shape) == 2:
        ta, tb = lc[0] == 0, rc[0] == 1
        if a in em.transposed:
            a, ta = em.transposed[a], not ta
        if b in em.transposed:
            b, tb = em.transposed[b], not tb
        return em.op("MatMul", [a, b, ta, tb], out)
    rank = len(la.shape)
    if lb and len(ra.shape) == rank and tuple(lb) == tuple(rb) == tuple(range(rank - 2)) and len(lc) == 1 \
            and lc[0] >= rank - 2 and rc[0] >= rank - 2:
        # a BatchMatMul of the last two axes (flattened to 3-D), the contraction read as its flags
        return _batch_matmul(em, a, b, la, ra, lc[0] == rank - 2, rc[0] == rank - 1, bshape, out)
    a = _transposed(em, a, la, [*lb, *lf, *lc])
    la = la.update(shape=tuple(la.shape[d] for d in [*lb, *lf, *lc]))
    b = _transposed(em, b, ra, [*rb, *rc, *rf])
    ra = ra.update(shape=tuple(ra.shape[d] for d in [*rb, *rc, *rf]))
    batch = [math.prod(bshape)] if lb else []
    a = _reshaped(em, a, la, [*batch, m, k])
    b = _reshaped(em, b, ra, [*batch, k, n])
    flat = out.update(shape=(*batch, m, n))
    r = em.op("BatchMatMul" if lb else "MatMul", [a, b, False, False], flat)
    return _reshaped(em, r, flat, out.shape)


def _batch_matmul(em, a, b, la, ra, ta, tb, bshape, out):
    """One ``BatchMatMul`` with the flags of the contraction (msjax's ``BatchMatMul`` traces its flags
    that way). A Transpose feeding it stays a node: MindSpore's CPU kernel sums a transposed copy in
    another order than a transposed operand read by the flag (PointNet2's ``square_distance``,
    ``BatchMatMul()(src, Transpose()(dst, (0, 2, 1)))``: 218 of 524,288 values 1 ulp apart)."""
    batch = [math.prod(bshape)]
    ops = []
    for x, aval, t in ((a, la, ta), (b, ra, tb)):
        ops += [_reshaped(em, x, aval, [*batch, *aval.shape[-2:]]), t]
    flat = out.update(shape=(*batch, *out.shape[-2:]))
    r = em.op("BatchMatMul", [ops[0], ops[2], ops[1], ops[3]], flat)
    return _reshaped(em, r, flat, out.shape)


_REDUCE = {"reduce_sum": ("ReduceSum", True), "reduce_max": ("ReduceMax", False),
           "reduce_min": ("ReduceMin", False), "reduce_prod": ("ReduceProd", False)}


@rule(*_REDUCE)
def _reduce(em, eqn, ins, axes, **_):
    op, skip_mode = _REDUCE[eqn.primitive.name]
    args = [em.tensor(ins[0]), tuple(int(a) for a in axes), False] + ([False] if skip_mode else [])
    if eqn.invars[0].aval.dtype == np.bool_:
        raise unsupported(eqn.primitive.name, "on booleans")
    return em.op(op, args, _out(eqn))


@rule("argmax", "argmin")
def _argmax(em, eqn, ins, axes, index_dtype):
    op = "Argmax" if eqn.primitive.name == "argmax" else "Argmin"
    return em.op(op, [em.tensor(ins[0]), int(axes[0]), TypeId.of(index_dtype, eqn.primitive.name)], _out(eqn))


@rule("select_n")
def _select(em, eqn, ins, **_):
    if len(ins) != 3 or eqn.invars[0].aval.dtype != np.bool_:
        raise unsupported("select_n", "more than two cases")
    out = _out(eqn)
    pred = em.tensor(ins[0])
    if tuple(eqn.invars[0].aval.shape) != tuple(out.shape):
        pred = em.op("BroadcastTo", [pred, dims(out.shape)], out.update(dtype=np.dtype(bool)))
    return em.op("Select", [pred, em.tensor(ins[2], out), em.tensor(ins[1], out)], out)


@rule("clamp")
def _clamp(em, eqn, ins, **_):
    lo, x, hi = (em.tensor(v, a.aval) for v, a in zip(ins, eqn.invars))
    out = _out(eqn)
    return em.op("Minimum", [em.op("Maximum", [x, lo], out), hi], out)


@rule("concatenate")
def _concat(em, eqn, ins, dimension):
    parts = em.op("MakeTuple", [em.tensor(x, v.aval) for x, v in zip(ins, eqn.invars)], None, function=False)
    return em.op("Concat", [parts, int(dimension)], _out(eqn))


@rule("tile")
def _tile(em, eqn, ins, reps):
    return em.op("Tile", [em.tensor(ins[0]), tuple(int(r) for r in reps)], _out(eqn))


@rule("slice")
def _slice(em, eqn, ins, start_indices, limit_indices, strides):
    nd = len(start_indices)
    strides = tuple(int(s) for s in strides) if strides else (1,) * nd
    return em.op("StridedSlice", [em.tensor(ins[0]), tuple(map(int, start_indices)), _ends(limit_indices, eqn.invars[0].aval.shape, "slice"),
                                  strides, 0, 0, 0, 0, 0], _out(eqn))


def _ends(limits, full, prim):
    """Slice ends; a dynamic dimension's full extent is written as int64's largest value (clamped)."""
    out = []
    for d, n in zip(limits, full):
        if not isinstance(d, (int, np.integer)) and d is not n and str(d) != str(n):
            raise unsupported(prim, f"a slice ending at {d} within a dynamic dimension")
        out.append(int(d) if isinstance(d, (int, np.integer)) else int(np.iinfo(np.int64).max))
    return tuple(out)


@rule("split")
def _split(em, eqn, ins, sizes, axis):
    x = eqn.invars[0].aval
    outs, start = [], 0
    for i, size in enumerate(sizes):
        begin = [0] * len(x.shape)
        end = list(_ends(x.shape, x.shape, "split"))
        begin[axis], end[axis] = start, start + int(size)
        start += int(size)
        outs.append(em.op("StridedSlice", [em.tensor(ins[0]), tuple(begin), tuple(end), (1,) * len(end),
                                           0, 0, 0, 0, 0], _out(eqn, i)))
    return outs


@rule("cumsum")
def _cumsum(em, eqn, ins, axis, reverse):
    return em.op("CumSum", [em.tensor(ins[0]), int(axis), False, bool(reverse)], _out(eqn))
