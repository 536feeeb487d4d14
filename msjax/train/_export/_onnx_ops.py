"""JAX primitives as ONNX opset-11 nodes: the emitter behind ``export(..., file_format="ONNX")``.

``Emitter.emit`` walks a jaxpr (the traced network) and appends ``onnx.helper`` nodes; each
primitive has one rule in ``RULES``. Nested jaxprs (``jit``, ``custom_jvp_call``,
``custom_vjp_call``, ``remat``) are inlined. A primitive without a rule, or a rule's case ONNX
opset 11 cannot say (transposed convolution, interior padding, control flow, random bits...),
raises MindSpore's ``RuntimeError`` ("Can not find key Sinh in convert map. Exporting Sinh
operator is not yet supported.") with the JAX primitive named as well.

Numbers: each rule computes what XLA computes (``integer_pow`` by the same repeated
multiplication, ``le``/``ge`` NaN-correct, ``log1p``/``expm1`` by exact corrections), so
onnxruntime agrees with msjax to float32 rounding. Dynamic dimensions (``jax.export``
symbols) are read from the inputs' ``Shape`` at run time where a rule needs their value.
"""
from __future__ import annotations

import numpy as np

from ._layout import gather_layout, gather_nd_layout, gather_nd_out_perm, scatter_nd_layout
from ._where import Unsupported

OPSET = 11
_I64_MAX = np.iinfo(np.int64).max
_I64_MIN = np.iinfo(np.int64).min

def _message(op, detail, where):
    """MindSpore's error for an op its ONNX converter has no entry for, with what msjax knows."""
    notes = [n for n in (detail, where.describe() if where is not None else "") if n]
    extra = f" [msjax: {'; '.join(notes)}]" if notes else ""
    return f"Can not find key {op} in convert map. Exporting {op} operator is not yet supported.{extra}"


def unsupported(prim, detail=None):
    """The ``RuntimeError`` for an operation with no ONNX opset-11 form, named by its MindSpore
    operator; ``Emitter.emit`` adds the layer and the user's line it came from."""
    return Unsupported(prim, f"no ONNX opset {OPSET} form" + (f": {detail}" if detail else ""), _message)


RULES = {}      # JAX primitive name -> rule(emitter, eqn, input names) -> output name(s)


def rule(*names):
    return lambda fn: RULES.update(dict.fromkeys(names, fn)) or fn


def _is_int(d):
    return isinstance(d, (int, np.integer))


class _Dim:
    """A dynamic dimension's value during ``_DimExpr._evaluate``: an int64 [1] ONNX tensor."""

    def __init__(self, em, name):
        self.em, self.name = em, name

    def _bin(self, op, other, swap=False):
        other = other.name if isinstance(other, _Dim) else self.em.const(np.array([int(other)], np.int64))
        a, b = (other, self.name) if swap else (self.name, other)
        return _Dim(self.em, self.em.op(op, [a, b]))

    def __add__(self, o):
        return self._bin("Add", o)

    def __radd__(self, o):
        return self._bin("Add", o, True)

    def __mul__(self, o):
        return self._bin("Mul", o)

    def __rmul__(self, o):
        return self._bin("Mul", o, True)

    def __sub__(self, o):
        return self._bin("Sub", o)

    def __rsub__(self, o):
        return self._bin("Sub", o, True)


class Emitter:
    """Collects the nodes and initializers of one ONNX graph."""

    def __init__(self, onnx, dim_sources=None):
        self.helper, self.numpy_helper = onnx.helper, onnx.numpy_helper
        self.nodes, self.initializers = [], []
        self.dim_sources = dim_sources or {}     # symbol -> (input name, axis)
        self._dims, self._consts, self._used = {}, {}, set()
        self.parents = ()       # the equation being written and those it is nested in
        self.reversed = {}      # a reversing Slice's output -> (its input, axes): ConvTranspose undoes it

    # ----- graph building
    def fresh(self, hint):
        n, i = hint, 0
        while n in self._used:
            i += 1
            n = f"{hint}_{i}"
        self._used.add(n)
        return n

    def const(self, value, name=None):
        arr = np.asarray(value)
        key = None
        if name is None and arr.size <= 16:
            key = (arr.dtype.str, arr.shape, arr.tobytes())
            if key in self._consts:
                return self._consts[key]
        name = self.fresh(name or "const")
        self.initializers.append(self.numpy_helper.from_array(np.array(arr, order="C"), name))
        if key is not None:
            self._consts[key] = name
        return name

    def op(self, op_type, inputs, outputs=1, **attrs):
        outs = [self.fresh(f"{op_type}") for _ in range(outputs)]
        self.nodes.append(self.helper.make_node(op_type, list(inputs), outs, name=outs[0] + "_node", **attrs))
        return outs[0] if outputs == 1 else outs

    def i64(self, values):
        return self.const(np.asarray(values, np.int64))

    # ----- dynamic dimensions
    def dim(self, d):
        """An int64 [1] tensor holding dimension ``d`` (an int or a jax.export symbol expression)."""
        if _is_int(d):
            return self.i64([int(d)])
        key = str(d)
        if key not in self._dims:
            try:
                env = {s: _Dim(self, self._symbol(s)) for s in self.dim_sources}
                val = d._evaluate(env)
            except Exception as e:     # pragma: no cover - other symbolic forms (floordiv, max...)
                raise RuntimeError(f"Exporting ONNX: the dynamic dimension '{d}' has no ONNX form ({e}); "
                                   "export with a fixed shape.") from None
            self._dims[key] = val.name if isinstance(val, _Dim) else self.i64([int(val)])
        return self._dims[key]

    def _symbol(self, s):
        if s not in self._dims:
            src, axis = self.dim_sources[s]
            self._dims[s] = self.op("Gather", [self.op("Shape", [src]), self.i64([axis])], axis=0)
        return self._dims[s]

    def shape(self, dims):
        """A shape input (Reshape/Expand): constant, -1 for one dynamic dimension, else computed."""
        dyn = [i for i, d in enumerate(dims) if not _is_int(d)]
        if not dyn:
            return self.i64([int(d) for d in dims])
        if len(dyn) == 1:
            return self.i64([-1 if i == dyn[0] else int(d) for i, d in enumerate(dims)])
        return self.op("Concat", [self.dim(d) for d in dims], axis=0)

    def onnx_type(self, dtype):
        return self.helper.np_dtype_to_tensor_dtype(np.dtype(dtype))

    # ----- jaxpr walking
    def emit(self, jaxpr, consts, args, parents=()):
        """Emit ``jaxpr`` on ``consts`` and ``args`` (value names); ``parents``: the equations whose
        nested jaxpr this is (for an error's location)."""
        env = {}

        def read(v):
            if type(v).__name__ == "Literal":
                return self.const(np.asarray(v.val, v.aval.dtype))
            return env[v]

        env.update(zip(jaxpr.constvars, consts))
        env.update(zip(jaxpr.invars, args))
        for eqn in jaxpr.eqns:
            fn = RULES.get(eqn.primitive.name)
            if eqn.primitive.name in ("jit", "pjit"):     # a named kernel with its own rule (msjax_rnn_LSTM)
                fn = RULES.get(f"jit:{eqn.params.get('name')}")
            self.parents = (*parents, eqn)
            try:
                outs = None if fn is None else fn(self, eqn, [read(v) for v in eqn.invars])
                if outs is None:        # no rule, or a named kernel's rule declined: inline the call
                    sub = _sub_jaxpr(eqn)
                    if sub is None:
                        raise unsupported(eqn.primitive.name)
                    outs = self.emit_closed(sub, [read(v) for v in eqn.invars], (*parents, eqn))
            except Unsupported as e:
                raise e.located((*parents, eqn)) from None
            if not isinstance(outs, (list, tuple)):
                outs = [outs]
            env.update(zip(eqn.outvars, outs))
        return [read(v) for v in jaxpr.outvars]

    def emit_closed(self, sub, args, parents=()):
        jaxpr, consts = sub
        return self.emit(jaxpr, [self.const(np.asarray(c)) for c in consts], args, parents)


_CALLS = ("jit", "pjit", "closed_call", "core_call", "custom_jvp_call", "custom_vjp_call",
          "custom_vjp_call_jaxpr", "remat", "checkpoint", "custom_lin")


def _sub_jaxpr(eqn):
    if eqn.primitive.name not in _CALLS:
        return None
    for key in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
        j = eqn.params.get(key)
        if j is not None:
            return (j.jaxpr, j.consts) if hasattr(j, "consts") else (j, ())
    return None


def _aval(eqn, i=0):
    return eqn.invars[i].aval


def _out(eqn, i=0):
    return eqn.outvars[i].aval


def _float(dtype):
    return np.issubdtype(np.dtype(dtype), np.floating) or np.dtype(dtype).name == "bfloat16"


# ----- elementwise
_UNARY = {"neg": "Neg", "exp": "Exp", "log": "Log", "tanh": "Tanh", "logistic": "Sigmoid",
          "erf": "Erf", "sqrt": "Sqrt", "abs": "Abs", "sign": "Sign", "floor": "Floor",
          "ceil": "Ceil", "sin": "Sin", "cos": "Cos", "tan": "Tan", "asin": "Asin", "acos": "Acos",
          "atan": "Atan", "sinh": "Sinh", "cosh": "Cosh", "asinh": "Asinh", "acosh": "Acosh",
          "atanh": "Atanh", "stop_gradient": "Identity", "copy": "Identity", "copy_p": "Identity"}
_BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "pow": "Pow"}


@rule(*_UNARY)
def _unary(em, eqn, ins):
    return em.op(_UNARY[eqn.primitive.name], ins)


@rule("not", "and", "or", "xor")
def _logical(em, eqn, ins):
    if np.dtype(_aval(eqn).dtype) != np.bool_:
        raise unsupported(eqn.primitive.name, "bitwise operations on integers need opset 18")
    return em.op(eqn.primitive.name.capitalize(), ins)


@rule(*_BINARY)
def _binary(em, eqn, ins):
    if eqn.primitive.name == "pow" and not _float(_aval(eqn).dtype):
        raise unsupported("pow", "integer base")
    return em.op(_BINARY[eqn.primitive.name], ins)


@rule("rem")
def _rem(em, eqn, ins):
    return em.op("Mod", ins, fmod=1)        # C's fmod: the sign of the dividend, as lax.rem


@rule("max", "min")
def _maxmin(em, eqn, ins):
    if _float(_aval(eqn).dtype):
        return em.op("Max" if eqn.primitive.name == "max" else "Min", ins)
    pick = em.op("Greater" if eqn.primitive.name == "max" else "Less", ins)   # Max/Min are float-only in 11
    return em.op("Where", [pick, ins[0], ins[1]])


@rule("eq", "ne", "lt", "gt", "le", "ge")
def _compare(em, eqn, ins):
    name = eqn.primitive.name
    if name in ("eq", "ne"):
        out = em.op("Equal", ins)
        return em.op("Not", [out]) if name == "ne" else out
    if name in ("lt", "gt"):
        return em.op("Less" if name == "lt" else "Greater", ins)
    strict = em.op("Less" if name == "le" else "Greater", ins)     # LessOrEqual is opset 12
    return em.op("Or", [strict, em.op("Equal", ins)])


@rule("select_n")
def _select_n(em, eqn, ins):
    pred, cases = ins[0], ins[1:]
    if np.dtype(_aval(eqn).dtype) == np.bool_:
        return em.op("Where", [pred, cases[1], cases[0]])
    out = cases[0]
    for i, c in enumerate(cases[1:], 1):
        hit = em.op("Equal", [pred, em.const(np.asarray(i, _aval(eqn).dtype))])
        out = em.op("Where", [hit, c, out])
    return out


@rule("clamp")
def _clamp(em, eqn, ins):
    lo, x, hi = ins
    if _float(_aval(eqn, 1).dtype):
        return em.op("Min", [em.op("Max", [x, lo]), hi])
    x = em.op("Where", [em.op("Less", [x, lo]), lo, x])
    return em.op("Where", [em.op("Greater", [x, hi]), hi, x])


@rule("convert_element_type")
def _convert(em, eqn, ins):
    new = _out(eqn).dtype
    if np.dtype(new) == np.dtype(_aval(eqn).dtype):
        return em.op("Identity", ins)
    return em.op("Cast", ins, to=em.onnx_type(new))


@rule("rsqrt")
def _rsqrt(em, eqn, ins):
    return em.op("Reciprocal", [em.op("Sqrt", ins)])


@rule("square")
def _square(em, eqn, ins):
    return em.op("Mul", [ins[0], ins[0]])


@rule("exp2")
def _exp2(em, eqn, ins):
    return em.op("Pow", [em.const(np.asarray(2, _aval(eqn).dtype)), ins[0]])


@rule("log1p")
def _log1p(em, eqn, ins):
    # log1p(x) = log(u) * x / (u - 1) with u = 1 + x (exact where u != 1; x itself where u == 1)
    x, one = ins[0], em.const(np.asarray(1, _aval(eqn).dtype))
    u = em.op("Add", [x, one])
    um1 = em.op("Sub", [u, one])
    corr = em.op("Div", [em.op("Mul", [em.op("Log", [u]), x]), um1])
    return em.op("Where", [em.op("Equal", [um1, em.const(np.asarray(0, _aval(eqn).dtype))]), x, corr])


@rule("expm1")
def _expm1(em, eqn, ins):
    # expm1(x) = (u - 1) * x / log(u) with u = exp(x) (x where u == 1, -1 where u - 1 == -1)
    dt = _aval(eqn).dtype
    x, one = ins[0], em.const(np.asarray(1, dt))
    u = em.op("Exp", [x])
    um1 = em.op("Sub", [u, one])
    corr = em.op("Div", [em.op("Mul", [um1, x]), em.op("Log", [u])])
    corr = em.op("Where", [em.op("Equal", [um1, em.const(np.asarray(-1, dt))]), um1, corr])
    inf = em.op("IsInf", [u])
    corr = em.op("Where", [inf, u, corr])
    return em.op("Where", [em.op("Equal", [u, one]), x, corr])


@rule("integer_pow")
def _integer_pow(em, eqn, ins):
    # the repeated squaring XLA uses, so results agree bit for bit
    y, x = eqn.params["y"], ins[0]
    acc, base, n = None, x, abs(y)
    while n:
        if n & 1:
            acc = base if acc is None else em.op("Mul", [acc, base])
        n >>= 1
        if n:
            base = em.op("Mul", [base, base])
    one = em.const(np.asarray(1, _aval(eqn).dtype))
    if acc is None:
        return em.op("Expand", [one, em.op("Shape", [x])])
    return em.op("Div", [one, acc]) if y < 0 else acc


@rule("is_finite")
def _is_finite(em, eqn, ins):
    return em.op("Not", [em.op("Or", [em.op("IsInf", ins), em.op("IsNaN", ins)])])


@rule("round")
def _round(em, eqn, ins):
    x = ins[0]
    r = em.op("Round", [x])                                     # half to even
    if int(eqn.params.get("rounding_method", 0)) == 1:
        return r
    dt = _aval(eqn).dtype                                       # half away from zero: fix the ties
    ax = em.op("Abs", [x])
    fl = em.op("Floor", [ax])
    tie = em.op("Equal", [em.op("Sub", [ax, fl]), em.const(np.asarray(0.5, dt))])
    away = em.op("Mul", [em.op("Sign", [x]), em.op("Add", [fl, em.const(np.asarray(1, dt))])])
    return em.op("Where", [tie, away, r])


@rule("optimization_barrier")
def _barrier(em, eqn, ins):
    return [em.op("Identity", [i]) for i in ins]


@rule("jit:msjax_rounded")     # a product's rounding before an addition (XLA's barrier); ONNX's Mul rounds
def _rounded(em, eqn, ins):
    return ins[:1]


# ----- shapes
@rule("reshape")
def _reshape(em, eqn, ins):
    sizes = eqn.params["new_sizes"]
    if eqn.params.get("dimensions") is not None:     # reads its input in another axis order: Transpose first
        ins = [em.op("Transpose", ins[:1], perm=[int(d) for d in eqn.params["dimensions"]])]
    if any(_is_int(d) and d == 0 for d in sizes):
        raise unsupported("reshape", "to an empty shape")
    return em.op("Reshape", [ins[0], em.shape(sizes)])


@rule("squeeze")
def _squeeze(em, eqn, ins):
    return em.op("Squeeze", ins, axes=[int(a) for a in eqn.params["dimensions"]])


@rule("expand_dims")
def _expand_dims(em, eqn, ins):     # pragma: no cover - lax builds it from broadcast_in_dim
    return em.op("Unsqueeze", ins, axes=[int(a) for a in eqn.params["dimensions"]])


@rule("broadcast_in_dim")
def _broadcast_in_dim(em, eqn, ins):
    out_shape, bdims = eqn.params["shape"], eqn.params["broadcast_dimensions"]
    src = _aval(eqn).shape
    mid = [1] * len(out_shape)
    for i, d in zip(bdims, src):
        mid[i] = d
    x = ins[0]
    if tuple(mid) != tuple(src):
        x = em.op("Reshape", [x, em.shape(mid)])
    if tuple(mid) == tuple(out_shape):
        return x if x != ins[0] else em.op("Identity", [x])
    target = [1 if m == o else o for m, o in zip(mid, out_shape)]   # 1: Expand keeps the input's
    return em.op("Expand", [x, em.shape(target) if all(_is_int(t) for t in target)
                            else em.op("Concat", [em.dim(t) for t in target], axis=0)])


@rule("transpose")
def _transpose(em, eqn, ins):
    return em.op("Transpose", ins, perm=[int(p) for p in eqn.params["permutation"]])


@rule("rev")
def _rev(em, eqn, ins):
    axes = [int(a) for a in eqn.params["dimensions"]]
    n = len(axes)
    out = em.op("Slice", [ins[0], em.i64([-1] * n), em.i64([_I64_MIN] * n), em.i64(axes), em.i64([-1] * n)])
    em.reversed[out] = (ins[0], axes)
    return out


@rule("slice")
def _slice(em, eqn, ins):
    shape = _aval(eqn).shape
    starts, limits = eqn.params["start_indices"], eqn.params["limit_indices"]
    strides = eqn.params["strides"] or (1,) * len(shape)
    axes = [i for i, (s, e, st, d) in enumerate(zip(starts, limits, strides, shape))
            if not (_is_int(s) and s == 0 and st == 1 and (e is d or str(e) == str(d)))]
    if not axes:
        return em.op("Identity", ins)
    if any(not _is_int(starts[a]) or not _is_int(strides[a]) for a in axes):
        raise unsupported("slice", "a dynamic start")
    ends = [_I64_MAX if str(limits[a]) == str(shape[a]) else limits[a] for a in axes]
    if not all(_is_int(e) for e in ends):
        raise unsupported("slice", "a dynamic limit")
    return em.op("Slice", [ins[0], em.i64([starts[a] for a in axes]), em.i64(ends), em.i64(axes),
                           em.i64([strides[a] for a in axes])])


@rule("concatenate")
def _concatenate(em, eqn, ins):
    return em.op("Concat", ins, axis=int(eqn.params["dimension"]))


@rule("stack")
def _stack(em, eqn, ins):
    axis = int(eqn.params["axis"])
    return em.op("Concat", [em.op("Unsqueeze", [i], axes=[axis]) for i in ins], axis=axis)


@rule("tile")
def _tile(em, eqn, ins):
    return em.op("Tile", [ins[0], em.i64([int(r) for r in eqn.params["reps"]])])


@rule("split")
def _split(em, eqn, ins):
    sizes = [int(s) for s in eqn.params["sizes"]]
    return em.op("Split", ins, outputs=len(sizes), axis=int(eqn.params["axis"]), split=sizes)


@rule("pad")
def _pad(em, eqn, ins):
    cfg = eqn.params["padding_config"]
    if any(int(i) for _, _, i in cfg):
        raise unsupported("pad", "interior padding")
    lo, hi = [int(c[0]) for c in cfg], [int(c[1]) for c in cfg]
    x = ins[0]
    if any(lo) or any(hi):
        pads = [max(p, 0) for p in lo] + [max(p, 0) for p in hi]
        if any(pads):
            x = em.op("Pad", [x, em.i64(pads), ins[1]], mode="constant")
        cut = [a for a in range(len(cfg)) if lo[a] < 0 or hi[a] < 0]
        if cut:                     # negative padding crops
            x = em.op("Slice", [x, em.i64([max(-lo[a], 0) for a in cut]),
                                em.i64([hi[a] if hi[a] < 0 else _I64_MAX for a in cut]), em.i64(cut)])
    return x if x != ins[0] else em.op("Identity", [x])


@rule("iota")
def _iota(em, eqn, ins):
    p = eqn.params
    if not all(_is_int(d) for d in p["shape"]):
        raise unsupported("iota", "a dynamic shape")
    ar = np.arange(p["shape"][p["dimension"]], dtype=p["dtype"])
    shape = [1] * len(p["shape"])
    shape[p["dimension"]] = -1
    return em.const(np.broadcast_to(ar.reshape(shape), p["shape"]).copy())


# ----- reductions
_REDUCE = {"reduce_sum": "ReduceSum", "reduce_max": "ReduceMax", "reduce_min": "ReduceMin",
           "reduce_prod": "ReduceProd"}


@rule(*_REDUCE)
def _reduce(em, eqn, ins):
    axes = [int(a) for a in eqn.params["axes"]]
    if not axes:
        return em.op("Identity", ins)
    return em.op(_REDUCE[eqn.primitive.name], ins, axes=axes, keepdims=0)


@rule("reduce_and", "reduce_or")
def _reduce_bool(em, eqn, ins):
    axes = [int(a) for a in eqn.params["axes"]]
    x = em.op("Cast", ins, to=em.onnx_type(np.int32))
    x = em.op("ReduceMin" if eqn.primitive.name == "reduce_and" else "ReduceMax", [x], axes=axes, keepdims=0)
    return em.op("Cast", [x], to=em.onnx_type(np.bool_))


@rule("argmax", "argmin")
def _arg(em, eqn, ins):
    (axis,) = eqn.params["axes"]
    out = em.op("ArgMax" if eqn.primitive.name == "argmax" else "ArgMin", ins, axis=int(axis), keepdims=0)
    dt = eqn.params["index_dtype"]
    return out if np.dtype(dt) == np.int64 else em.op("Cast", [out], to=em.onnx_type(dt))


@rule("cumsum")
def _cumsum(em, eqn, ins):
    return em.op("CumSum", [ins[0], em.const(np.asarray(eqn.params["axis"], np.int64))],
                 reverse=int(bool(eqn.params.get("reverse", False))))


# ----- linear algebra and windows
@rule("dot_general")
def _dot_general(em, eqn, ins):
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    lhs, rhs = ins
    ls, rs = _aval(eqn, 0).shape, _aval(eqn, 1).shape
    out_dt = _out(eqn).dtype
    for i, a in enumerate((_aval(eqn, 0), _aval(eqn, 1))):
        if np.dtype(a.dtype) != np.dtype(out_dt):
            cast = em.op("Cast", [ins[i]], to=em.onnx_type(out_dt))
            lhs, rhs = (cast, rhs) if i == 0 else (lhs, cast)
    lc, rc, lb, rb = map(lambda t: [int(a) for a in t], (lc, rc, lb, rb))
    lf = [d for d in range(len(ls)) if d not in lc + lb]
    rf = [d for d in range(len(rs)) if d not in rc + rb]
    if not lb and lc == [len(ls) - 1] and rc == [0] and len(rs) <= 2:
        return em.op("MatMul", [lhs, rhs])                      # x @ W, the Dense layout
    lhs = _permute(em, lhs, lb + lf + lc)
    rhs = _permute(em, rhs, rb + rc + rf)
    bsz = [ls[d] for d in lb]
    m, k, n = [_prod([s[d] for d in ds]) for s, ds in ((ls, lf), (ls, lc), (rs, rf))]
    lhs = em.op("Reshape", [lhs, em.shape(bsz + [m, k])])
    rhs = em.op("Reshape", [rhs, em.shape(bsz + [k, n])])
    out = em.op("MatMul", [lhs, rhs])
    return em.op("Reshape", [out, em.shape(list(_out(eqn).shape))])


def _prod(sizes):
    out = 1
    for s in sizes:
        out = out * s
    return out


def _permute(em, x, perm):
    return x if list(perm) == sorted(perm) else em.op("Transpose", [x], perm=list(perm))


def _inverse(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return inv


@rule("conv_general_dilated")
def _conv(em, eqn, ins):
    p = eqn.params
    if any(int(d) != 1 for d in p["lhs_dilation"]):
        return _conv_transpose(em, eqn, ins)
    if int(p["batch_group_count"]) != 1:
        raise unsupported("conv_general_dilated", "batch groups")
    if not _float(_aval(eqn).dtype):
        raise unsupported("conv_general_dilated", "integer inputs")
    pads = [(int(lo), int(hi)) for lo, hi in p["padding"]]
    if any(lo < 0 or hi < 0 for lo, hi in pads):
        raise unsupported("conv_general_dilated", "negative padding")
    dn = p["dimension_numbers"]
    x = _permute(em, ins[0], list(dn.lhs_spec))
    w = _permute(em, ins[1], list(dn.rhs_spec))
    kernel = [int(_aval(eqn, 1).shape[d]) for d in dn.rhs_spec[2:]]
    y = em.op("Conv", [x, w], kernel_shape=kernel, strides=[int(s) for s in p["window_strides"]],
              pads=[lo for lo, _ in pads] + [hi for _, hi in pads],
              dilations=[int(d) for d in p["rhs_dilation"]], group=int(p["feature_group_count"]))
    return _permute(em, y, _inverse(list(dn.out_spec)))


def _conv_transpose(em, eqn, ins):
    """An input-dilated convolution (how a transposed one is traced) as ``ConvTranspose``: the
    kernel with its channels swapped and its window flipped (the trace's own ``rev`` of the
    weight is undone rather than flipped twice), pads of ``d * (k - 1)`` less the trace's."""
    p = eqn.params
    dn, rhs = p["dimension_numbers"], _aval(eqn, 1)
    spec = [int(d) for d in dn.rhs_spec]
    if (any(int(s) != 1 for s in p["window_strides"]) or int(p["feature_group_count"]) != 1
            or int(p["batch_group_count"]) != 1 or not _float(_aval(eqn).dtype)):
        raise unsupported("conv_general_dilated", "a transposed convolution with strides on its dilated input, "
                                                  "groups or integer inputs")
    k = [int(rhs.shape[d]) for d in spec[2:]]
    dil = [int(d) for d in p["rhs_dilation"]]
    begin = [d * (kk - 1) - int(lo) for (lo, _), kk, d in zip(p["padding"], k, dil)]
    end = [d * (kk - 1) - int(hi) for (_, hi), kk, d in zip(p["padding"], k, dil)]
    if any(b < 0 for b in begin):
        raise unsupported("conv_general_dilated", "a transposed convolution padded before its input")
    w, flip = ins[1], True
    src = em.reversed.get(w)
    if src is not None and sorted(src[1]) == sorted(spec[2:]):
        w, flip = src[0], False
    w = _permute(em, w, [spec[1], spec[0], *spec[2:]])
    if flip:
        n = len(k)
        w = em.op("Slice", [w, em.i64([-1] * n), em.i64([_I64_MIN] * n), em.i64(list(range(2, 2 + n))),
                            em.i64([-1] * n)])
    x = _permute(em, ins[0], list(dn.lhs_spec))
    y = em.op("ConvTranspose", [x, w], kernel_shape=k, strides=[int(s) for s in p["lhs_dilation"]],
              pads=begin + [max(e, 0) for e in end], output_padding=[max(-e, 0) for e in end], dilations=dil)
    return _permute(em, y, _inverse(list(dn.out_spec)))


@rule("reduce_window_sum", "reduce_window_max", "reduce_window_min")
def _reduce_window(em, eqn, ins):
    p, a = eqn.params, _aval(eqn)
    if any(int(d) != 1 for d in p["base_dilation"]):
        raise unsupported(eqn.primitive.name, "a dilated input")
    win, strides = [int(w) for w in p["window_dimensions"]], [int(s) for s in p["window_strides"]]
    pads, dil = [(int(lo), int(hi)) for lo, hi in p["padding"]], [int(d) for d in p["window_dilation"]]
    active = [i for i in range(a.ndim) if win[i] != 1 or strides[i] != 1 or pads[i] != (0, 0)]
    if not active:
        return em.op("Identity", ins)
    if any(lo < 0 or hi < 0 for lo, hi in pads) or any(not _is_int(a.shape[i]) for i in active):
        raise unsupported(eqn.primitive.name, "negative padding or a dynamic window dimension")
    passive = [i for i in range(a.ndim) if i not in active]
    x = _permute(em, ins[0], passive + active)
    x = em.op("Reshape", [x, em.shape([_prod([a.shape[i] for i in passive]), 1] + [a.shape[i] for i in active])])
    attrs = dict(kernel_shape=[win[i] for i in active], strides=[strides[i] for i in active],
                 pads=[pads[i][0] for i in active] + [pads[i][1] for i in active])
    kind = eqn.primitive.name
    if kind == "reduce_window_sum":
        if not _float(a.dtype):
            raise unsupported(kind, "integer inputs")
        ones = em.const(np.ones([1, 1] + attrs["kernel_shape"], a.dtype))
        y = em.op("Conv", [x, ones], dilations=[dil[i] for i in active], **attrs)
    else:
        neg = kind == "reduce_window_min"
        y = em.op("MaxPool", [em.op("Neg", [x]) if neg else x], dilations=[dil[i] for i in active], **attrs)
        y = em.op("Neg", [y]) if neg else y
    out = _out(eqn).shape
    y = em.op("Reshape", [y, em.shape([out[i] for i in passive] + [out[i] for i in active])])
    return _permute(em, y, _inverse(passive + active))


@rule("top_k")
def _top_k(em, eqn, ins):
    k = int(eqn.params["k"])
    vals, idx = em.op("TopK", [ins[0], em.i64([k])], outputs=2, axis=-1, largest=1, sorted=1)
    return [vals, em.op("Cast", [idx], to=em.onnx_type(_out(eqn, 1).dtype))]


@rule("gather")
def _gather(em, eqn, ins):
    """The one-axis gather (``take``/embedding lookup) as ONNX ``Gather``, indices clamped or masked
    as the gather's mode says."""
    p = eqn.params
    dn = p["dimension_numbers"]
    op_a, idx_a = _aval(eqn, 0), _aval(eqn, 1)
    if (len(dn.start_index_map) != 1 or tuple(dn.collapsed_slice_dims) != tuple(dn.start_index_map)
            or getattr(dn, "operand_batching_dims", ()) or idx_a.shape[-1:] != (1,)):
        return _gather_nd(em, eqn, ins)
    axis = int(dn.start_index_map[0])
    sizes = list(p["slice_sizes"])
    if sizes[axis] != 1 or any(str(s) != str(d) for i, (s, d) in enumerate(zip(sizes, op_a.shape)) if i != axis):
        raise unsupported("gather", "partial slices")
    n = op_a.shape[axis]
    if not _is_int(n):
        raise unsupported("gather", "along a dynamic axis")
    idx = em.op("Squeeze", [ins[1]], axes=[idx_a.ndim - 1])
    idt = idx_a.dtype
    lo, hi = em.const(np.asarray(0, idt)), em.const(np.asarray(n - 1, idt))
    inside = em.op("And", [em.op("Not", [em.op("Less", [idx, lo])]), em.op("Not", [em.op("Greater", [idx, hi])])])
    safe = em.op("Where", [em.op("Less", [idx, lo]), lo, idx])
    safe = em.op("Where", [em.op("Greater", [safe, hi]), hi, safe])
    y = em.op("Gather", [ins[0], safe], axis=axis)
    # ONNX puts the index dimensions at `axis`; lax at the positions offset_dims leaves free
    perm, lax_dims = gather_layout(dn.offset_dims, idx_a.ndim - 1, op_a.ndim, axis)
    y = _permute(em, y, perm)
    return _filled(em, eqn, y, lambda: _broadcast_mask(em, inside, lax_dims, idx_a))


def _filled(em, eqn, y, mask):
    """``y`` where ``mask()`` (in bounds), the fill value elsewhere, under the gather's ``FILL_OR_DROP``."""
    p = eqn.params
    if "FILL" not in str(p.get("mode")).upper():
        return y
    fill = p.get("fill_value")
    dt = np.dtype(_aval(eqn, 0).dtype)
    if fill is None:
        fill = np.nan if _float(dt) else (np.iinfo(dt).min if np.issubdtype(dt, np.signedinteger)
                                           else (True if dt == np.bool_ else np.iinfo(dt).max))
    return em.op("Where", [mask(), y, em.const(np.asarray(fill, dt))])


def _gather_nd(em, eqn, ins):
    """A gather at points of several axes, whole slices of the others (``ops.GatherNd``,
    ``x[i, j]``) as ONNX ``GatherND`` on the operand transposed so that the indexed axes come
    first; indices clamped (or masked) per axis as the gather's mode says."""
    dn = eqn.params["dimension_numbers"]
    op_a, idx_a = _aval(eqn, 0), _aval(eqn, 1)
    layout = gather_nd_layout(dn, eqn.params["slice_sizes"], op_a.shape)
    if layout is None or not all(_is_int(op_a.shape[d]) for d in dn.start_index_map):
        raise unsupported("gather", "a gather other than whole slices at points of static axes")
    perm, rest = layout
    idx = em.op("Cast", [ins[1]], to=em.onnx_type(np.int64))
    lo = em.const(np.zeros(len(dn.start_index_map), np.int64))
    hi = em.const(np.asarray([op_a.shape[d] - 1 for d in dn.start_index_map], np.int64))
    inside = em.op("And", [em.op("Not", [em.op("Less", [idx, lo])]), em.op("Not", [em.op("Greater", [idx, hi])])])
    inside = em.op("ReduceMin", [em.op("Cast", [inside], to=em.onnx_type(np.int32))], axes=[idx_a.ndim - 1],
                   keepdims=0)
    inside = em.op("Cast", [inside], to=em.onnx_type(np.bool_))
    safe = em.op("Where", [em.op("Less", [idx, lo]), lo, idx])
    safe = em.op("Where", [em.op("Greater", [safe, hi]), hi, safe])
    y = em.op("GatherND", [_permute(em, ins[0], perm), safe])
    nb = idx_a.ndim - 1
    to_lax = gather_nd_out_perm(dn.offset_dims, nb, len(rest))
    y = _permute(em, y, to_lax)
    shape = [idx_a.shape[to_lax[i]] if to_lax[i] < nb else 1 for i in range(len(to_lax))]
    return _filled(em, eqn, y, lambda: em.op("Reshape", [inside, em.shape(shape)]))


def _broadcast_mask(em, inside, lax_dims, idx_a):
    """The [batch...] in-bounds mask reshaped to broadcast over lax's output layout."""
    shape = [idx_a.shape[d[1]] if d[0] == "b" else 1 for d in lax_dims]
    return em.op("Reshape", [inside, em.shape(shape)])


@rule("scatter", "scatter-add", "scatter_add")
def _scatter(em, eqn, ins):
    """``x[i] = v`` (whole slices written at points of some axes) as ``ScatterND`` on the operand
    transposed so that the indexed axes come first; ``x.at[i].add(v)`` as ``ScatterND`` of
    ``GatherND + v`` where the trace promises unique indices (opset 11's ``ScatterND`` has no
    reduction). Indices out of range: onnxruntime refuses them where lax drops the update."""
    p = eqn.params
    x_a, idx_a, upd_a = (v.aval for v in eqn.invars)
    add = eqn.primitive.name != "scatter"
    nb = idx_a.ndim - 1
    layout = scatter_nd_layout(p["dimension_numbers"], x_a.shape, nb)
    if layout is None or (add and not p.get("unique_indices")):
        raise unsupported(eqn.primitive.name, "only whole slices at points of the operand" +
                          (", added at unique indices" if add else ""))
    perm, upd_perm = layout
    x = _permute(em, ins[0], perm)
    upd = _permute(em, ins[2], upd_perm)
    idx = em.op("Cast", [ins[1]], to=em.onnx_type(np.int64))
    if nb == 0:          # one point: an index dimension for ScatterND
        idx = em.op("Unsqueeze", [idx], axes=[0])
        upd = em.op("Unsqueeze", [upd], axes=[0])
    if add:
        upd = em.op("Add", [em.op("GatherND", [x, idx]), upd])
    return _permute(em, em.op("ScatterND", [x, idx, upd]), _inverse(perm))


# ----- recurrent layers
_RNN_GATES = {"msjax_rnn_LSTM": ("LSTM", 4, (0, 3, 1, 2)), "msjax_rnn_GRU": ("GRU", 3, (1, 0, 2))}


@rule("jit:msjax_rnn_LSTM", "jit:msjax_rnn_GRU")
def _rnn(em, eqn, ins):
    """One direction of ``nn.LSTM``/``nn.GRU`` (msjax's named kernel: x (T, N, I), the initial
    state(s) (N, H), w_ih, w_hh and the biases) as ONNX's ``LSTM``/``GRU``: gates reordered from
    MindSpore's (i, f, g, o) / (r, z, n) to ONNX's (i, o, f, c) / (z, r, h); GRU with
    ``linear_before_reset=1``, MindSpore's (and PyTorch's) formula."""
    op, k, order = _RNN_GATES[eqn.params["name"]]
    nstate = 2 if op == "LSTM" else 1
    avals = [v.aval for v in eqn.invars]
    nw = len(ins) - 1 - nstate
    if nw not in (2, 4) or not all(_float(a.dtype) for a in avals):
        return None             # seq_length: the masked loop is unrolled as traced
    h = int(avals[1].shape[-1])

    def gates(w):
        parts = em.op("Split", [w], outputs=k, axis=0, split=[h] * k)
        return em.op("Unsqueeze", [em.op("Concat", [parts[j] for j in order], axis=0)], axes=[0])
    w_ih, w_hh = (gates(w) for w in ins[1 + nstate:3 + nstate])
    args = [ins[0], w_ih, w_hh]
    if nw == 4:
        b = em.op("Concat", [em.op("Squeeze", [gates(b)], axes=[0]) for b in ins[3 + nstate:5 + nstate]], axis=0)
        args.append(em.op("Unsqueeze", [b], axes=[0]))
    else:
        args.append("")
    args.append("")                                     # sequence_lens
    args += [em.op("Unsqueeze", [s], axes=[0]) for s in ins[1:1 + nstate]]
    attrs = {"hidden_size": h}
    if op == "GRU":
        attrs["linear_before_reset"] = 1
    outs = em.op(op, args, outputs=1 + nstate, **attrs)
    y = em.op("Squeeze", [outs[0]], axes=[1])        # (T, 1, N, H) -> (T, N, H)
    return [y] + [em.op("Squeeze", [s], axes=[0]) for s in outs[1:]]


_UNROLL_LIMIT = 1024


@rule("scan")
def _scan(em, eqn, ins):
    """A loop of static length (``nn.RNN``, an LSTM/GRU with ``seq_length``) unrolled: each step
    takes ``Slice`` + ``Squeeze`` of the scanned inputs and writes the body once; the per-step
    outputs are joined with ``Unsqueeze`` + ``Concat``."""
    p = eqn.params
    length, nc, ncar = int(p["length"]), int(p["num_consts"]), int(p["num_carry"])
    if length > _UNROLL_LIMIT:
        raise unsupported("scan", f"a loop of {length} steps (msjax unrolls at most {_UNROLL_LIMIT})")
    parents, body = em.parents, p["jaxpr"]
    consts, carry, xs = ins[:nc], list(ins[nc:nc + ncar]), ins[nc + ncar:]
    steps = {}
    for t in (range(length - 1, -1, -1) if p["reverse"] else range(length)):
        x_t = [em.op("Squeeze", [em.op("Slice", [x, em.i64([t]), em.i64([t + 1]), em.i64([0])])], axes=[0])
               for x in xs]
        outs = em.emit(body.jaxpr, [em.const(np.asarray(c)) for c in body.consts], [*consts, *carry, *x_t], parents)
        carry, steps[t] = outs[:ncar], outs[ncar:]
    ys = [em.op("Concat", [em.op("Unsqueeze", [steps[t][j]], axes=[0]) for t in range(length)], axis=0)
          for j in range(len(eqn.outvars) - ncar)]
    return [*carry, *ys]
