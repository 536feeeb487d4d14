"""Golden cases for math, reduction, comparison/logic and linear-algebra ops
(``msjax/ops/_impl/math.py``, ``reduction.py``, ``comparison.py``, ``linalg.py``).

Each ``case_<name>(ms)`` uses only the module it is given. Error cases raise once
(MindSpore's PyNative executor can misbehave after a failed kernel selection, so every
error is a case of its own). Many cases are generated from tables below; their names say
what they check:

  u_<op>          unary op forward (ops.<op>, Tensor method, Primitive) on Float32
  udt_<op>        unary op on Float64 values and Float16 dtype
  uint_<op>       unary op on integer / bool inputs (values or the error)
  ug_<op>         gradient of a unary op
  b_<op>          binary op on several dtype pairs and Python scalars
  berr_<op>_<k>   binary op argument errors
  bg_<op>         gradient of a binary op w.r.t. both inputs
  red_*, scan_*, sort_*, la_*   reductions, scans, sorting, linear algebra
"""
import numpy as np

RTOL = 1e-5
ATOL = 1e-5


def _f(ms, *v, dt=np.float32):
    return ms.Tensor(np.array(v, dt))


def _t(ms, a, dt=np.float32):
    return ms.Tensor(np.array(a, dt))


def _rand(shape, seed=0, lo=-1.0, hi=1.0, dt=np.float32):
    return np.random.RandomState(seed).uniform(lo, hi, shape).astype(dt)


# ===========================================================================
# unary ops
# ===========================================================================
# name -> (primitive name or None, tensor method or None, input values in the domain)
_POS = [0.5, 1.25, 2.0, 3.5]
_UNIT = [-0.75, -0.2, 0.3, 0.9]
_ANY = [-2.5, -0.5, 0.25, 1.75]
UNARY = {
    "abs": ("Abs", "abs", _ANY), "absolute": (None, "absolute", _ANY), "neg": ("Neg", "neg", _ANY),
    "negative": (None, "negative", _ANY), "reciprocal": ("Reciprocal", "reciprocal", _ANY),
    "sqrt": ("Sqrt", "sqrt", _POS), "rsqrt": ("Rsqrt", "rsqrt", _POS), "square": ("Square", "square", _ANY),
    "exp": ("Exp", "exp", _ANY), "expm1": ("Expm1", "expm1", _ANY), "log": ("Log", "log", _POS),
    "log2": (None, "log2", _POS), "log10": (None, "log10", _POS), "log1p": ("Log1p", "log1p", _POS),
    "sin": ("Sin", "sin", _ANY), "cos": ("Cos", "cos", _ANY), "tan": ("Tan", "tan", _UNIT),
    "asin": ("Asin", "asin", _UNIT), "arcsin": (None, "arcsin", _UNIT), "acos": ("ACos", "acos", _UNIT),
    "arccos": (None, "arccos", _UNIT), "atan": ("Atan", "atan", _ANY), "arctan": (None, "arctan", _ANY),
    "sinh": ("Sinh", "sinh", _ANY), "cosh": ("Cosh", "cosh", _ANY), "asinh": ("Asinh", "asinh", _ANY),
    "arcsinh": (None, "arcsinh", _ANY), "acosh": ("Acosh", "acosh", [1.0, 1.5, 2.0, 4.0]),
    "arccosh": (None, "arccosh", [1.0, 1.5, 2.0, 4.0]), "atanh": ("Atanh", "atanh", _UNIT),
    "arctanh": (None, "arctanh", _UNIT), "erf": ("Erf", "erf", _ANY), "erfc": ("Erfc", "erfc", _ANY),
    "erfinv": ("Erfinv", "erfinv", _UNIT), "sign": ("Sign", "sign", [-2.0, 0.0, 0.5, 3.0]),
    "floor": ("Floor", "floor", [-2.5, -0.5, 0.0, 1.75]), "ceil": ("Ceil", "ceil", [-2.5, -0.5, 0.0, 1.75]),
    "trunc": ("Trunc", "trunc", [-2.5, -0.5, 0.0, 1.75]), "frac": (None, "frac", [-2.5, -0.25, 0.0, 1.75]),
    "round": ("Round", "round", [-2.5, -0.5, 0.5, 1.5]), "inv": ("Inv", "inv", _ANY),
    "isfinite": ("IsFinite", "isfinite", [1.0, float("inf"), float("nan"), -float("inf")]),
    "isinf": ("IsInf", "isinf", [1.0, float("inf"), float("nan"), -float("inf")]),
    "isnan": ("IsNan", "isnan", [1.0, float("inf"), float("nan"), -float("inf")]),
    "isneginf": (None, "isneginf", [1.0, float("inf"), float("nan"), -float("inf")]),
    "isposinf": (None, "isposinf", [1.0, float("inf"), float("nan"), -float("inf")]),
    "logical_not": ("LogicalNot", "logical_not", [0.0, 1.0, -2.0, 0.0]),
}
# ops that reject integer/bool inputs on CPU
FLOAT_ONLY = ["exp", "expm1", "log", "log2", "log10", "log1p", "rsqrt", "sin", "cos", "tan", "asin", "acos",
              "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "erfinv", "floor", "ceil",
              "isinf", "isneginf"]
# ops with a gradient worth checking
UNARY_GRAD = ["abs", "neg", "reciprocal", "sqrt", "rsqrt", "square", "exp", "expm1", "log", "log2", "log10",
              "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
              "erf", "erfc", "erfinv", "sign", "floor", "ceil", "trunc", "frac", "round", "inv"]


def _make_unary(name):
    prim, meth, vals = UNARY[name]

    def case(ms):
        x = _f(ms, *vals)
        out = [getattr(ms.ops, name)(x)]
        if meth:
            out.append(getattr(x, meth)())
        if prim:
            out.append(getattr(ms.ops, prim)()(x))
        return out
    return case


def _make_unary_dtypes(name):
    _, _, vals = UNARY[name]

    def case(ms):
        fn = getattr(ms.ops, name)
        return [fn(_f(ms, *vals, dt=np.float64)), str(fn(_f(ms, *vals, dt=np.float16)).dtype)]
    return case


def _make_unary_int(name, dt):
    def case(ms):
        if dt == np.bool_:
            x = ms.Tensor(np.array([True, False, True, False]))
        else:
            x = ms.Tensor(np.array([2, 1, 0, 3] if np.dtype(dt).kind == "u" else [2, -1, 0, 3], dt))
        return getattr(ms.ops, name)(x)
    return case


def _make_unary_grad(name):
    _, _, vals = UNARY[name]
    if name == "abs":
        vals = [-1.5, 0.0, 0.5, 2.0]

    def case(ms):
        return ms.grad(getattr(ms.ops, name))(_f(ms, *vals))
    return case


for _n in UNARY:
    globals()["case_u_" + _n] = _make_unary(_n)
    if _n not in ("round",):
        globals()["case_udt_" + _n] = _make_unary_dtypes(_n)
for _n in FLOAT_ONLY:
    globals()["case_uint_%s_int32" % _n] = _make_unary_int(_n, np.int32)
for _n in ["exp", "sin", "floor", "isinf", "log"]:
    globals()["case_uint_%s_bool" % _n] = _make_unary_int(_n, np.bool_)
for _n in ["abs", "neg", "reciprocal", "sqrt", "square", "sign", "trunc", "frac", "inv", "isfinite", "isnan",
           "logical_not", "round"]:
    for _dt in (np.int32, np.int64):
        globals()["case_uint_%s_%s" % (_n, np.dtype(_dt).name)] = _make_unary_int(_n, _dt)
for _n, _dt in [("abs", np.bool_), ("abs", np.uint8), ("abs", np.int8), ("neg", np.bool_), ("neg", np.int8),
                ("reciprocal", np.bool_), ("reciprocal", np.uint8), ("sqrt", np.bool_), ("sqrt", np.int16),
                ("square", np.bool_), ("square", np.uint8), ("sign", np.bool_), ("sign", np.int8),
                ("trunc", np.bool_), ("frac", np.bool_), ("frac", np.uint8), ("inv", np.bool_), ("inv", np.int16),
                ("inv", np.uint8), ("isfinite", np.bool_), ("isnan", np.bool_), ("logical_not", np.bool_),
                ("round", np.bool_)]:
    globals()["case_uint_%s_%s" % (_n, np.dtype(_dt).name)] = _make_unary_int(_n, _dt)
for _n in UNARY_GRAD:
    globals()["case_ug_" + _n] = _make_unary_grad(_n)


def case_u_round_decimals(ms):
    x = _f(ms, 1.2345, -2.5678, 0.125)
    return [ms.ops.round(x, decimals=2), ms.ops.round(x, decimals=0), x.round()]


def case_u_not_tensor(ms):
    return ms.ops.sin(1.0)


# ===========================================================================
# binary ops
# ===========================================================================
_A = {
    "i32": lambda ms: ms.Tensor(np.array([7, -7, 3], np.int32)),
    "i64": lambda ms: ms.Tensor(np.array([2, 3, -2], np.int64)),
    "f32": lambda ms: ms.Tensor(np.array([2.0, -3.0, 0.5], np.float32)),
    "f64": lambda ms: ms.Tensor(np.array([2.0, 3.0, 1.5], np.float64)),
    "f16": lambda ms: ms.Tensor(np.array([2.0, 3.0, -1.5], np.float16)),
    "b": lambda ms: ms.Tensor(np.array([True, False, True])),
    "u8": lambda ms: ms.Tensor(np.array([2, 3, 250], np.uint8)),
    "i8": lambda ms: ms.Tensor(np.array([2, 3, -2], np.int8)),
}


def _arg(ms, k):
    return _A[k](ms) if isinstance(k, str) and k in _A else k


# op -> list of (a, b) operand keys that MindSpore accepts
_ARITH_PAIRS = [("i32", "i32"), ("i32", "i64"), ("i32", "f32"), ("f16", "f32"), ("b", "i32"), ("u8", "i8"),
                ("f32", "f64"), ("i32", 2), ("i32", 2.5), ("b", 2), (3, "i32"), (2.5, "i32"), ("i64", True),
                ("f32", "f32")]
BINARY = {
    "add": _ARITH_PAIRS, "sub": _ARITH_PAIRS, "tensor_add": [("i32", "f32"), ("f32", 2.5)],
    "tensor_sub": [("i32", "f32")],
    "mul": _ARITH_PAIRS + [("b", "b"), ("b", True)], "tensor_mul": [("i32", "f32"), ("b", "b")],
    "multiply": [("i32", "f32")],
    "div": _ARITH_PAIRS + [("b", "b"), ("b", True)], "divide": [("i32", "i32"), ("f32", 2)],
    "true_divide": [("i32", "i32"), ("b", 2), ("f32", "f64")],
    "floor_divide": _ARITH_PAIRS + [("b", "b")], "tensor_floordiv": [("i32", "i32"), ("f32", 2.5)],
    "floor_mod": [("f32", "f32"), ("i32", "i64"), ("i32", 2.5)],
    "fmod": _ARITH_PAIRS + [("b", "b")], "remainder": _ARITH_PAIRS + [("b", "b")],
    "pow": [("i32", "i64"), ("i32", "f32"), ("f16", "f32"), ("u8", "i8"), ("f32", "f64"), ("i32", 2),
            ("i32", 2.5), ("b", 2), (2.5, "i32"), ("f32", "f32"), ("i64", True)],
    "tensor_pow": [("f32", 2.0), ("i32", 2)], "pows": [("f32", 3)],
    "float_power": _ARITH_PAIRS + [("b", "b")],
    "maximum": _ARITH_PAIRS + [("b", "b")], "minimum": _ARITH_PAIRS,
    "atan2": [("i32", "f32"), ("f16", "f32"), ("f32", "f64"), ("i32", 2.5), (2.5, "i32"), ("f32", "f32")],
    "arctan2": [("f32", "f32")],
    "equal": [("i32", "i32"), ("i32", "f32"), ("f16", "f32"), ("b", "b"), ("u8", "i8"), ("i32", 2), ("b", True),
              ("f32", -3.0)],
    "eq": [("i32", "i64"), ("f32", 0.5)],
    "not_equal": _ARITH_PAIRS + [("b", "b")], "ne": [("i32", 7), (3, "i32")],
    "greater": _ARITH_PAIRS + [("b", "b")], "gt": [("f32", 0.0), (0.0, "f32")],
    "greater_equal": _ARITH_PAIRS + [("b", "b")], "ge": [("f32", 0.5), (1, "i32")],
    "less": [("i32", "i32"), ("i32", "f32"), ("b", "b"), ("i32", 2.5), ("f32", "f64")], "lt": [("f32", 0.0)],
    "less_equal": _ARITH_PAIRS + [("b", "b")], "le": [("f32", 0.5), (2, "i32")],
    "logical_and": [("i32", "f32"), ("b", "b"), ("b", "i32"), ("b", True), ("i64", True)],
    "logical_or": [("i32", "f32"), ("b", "b"), ("b", False)],
    "logical_xor": [("i32", "f32"), ("b", "b"), ("b", True), ("u8", "i8")],
    "bitwise_and": [("i32", "i32"), ("i32", "i64"), ("b", "b"), ("b", "i32"), ("u8", "i8"), ("i32", 2), (3, "i32"),
                    ("b", True), ("i64", True)],
    "bitwise_or": [("i32", "i64"), ("b", "b"), ("u8", "i8"), ("i32", 2)],
    "bitwise_xor": [("i32", "i64"), ("b", "b"), ("u8", "i8"), ("i32", 2), ("b", True)],
    "gcd": [("i32", "i32"), ("i32", "i64"), ("b", "i32"), ("u8", "i8")],
    "logaddexp": [("f32", "f32"), ("f16", "f32"), ("f32", "f64")],
    "logaddexp2": [("f32", "f32"), ("f32", "f64")],
}
# (op, a, b) that MindSpore rejects (TypeError)
BINARY_ERR = [("add", "b", "b"), ("add", "b", True), ("sub", "b", "b"), ("pow", "b", "b"), ("pow", "b", True),
              ("minimum", "b", "b"), ("atan2", "i32", "i32"), ("atan2", "i32", 2), ("equal", 3, "i32"),
              ("eq", 2.5, "i32"), ("less", 3, "i32"), ("lt", 2.5, "i32"),
              ("logical_and", "i32", 2), ("logical_and", 3, "i32"), ("logical_or", "f16", 2.5),
              ("logical_xor", "i32", 2), ("bitwise_and", "i32", "f32"), ("bitwise_or", "f32", "f32"),
              ("bitwise_xor", "i32", 2.5), ("gcd", "i32", 2), ("gcd", "f32", "f32"), ("gcd", "b", "b"),
              ("logaddexp", "i32", "f32"), ("logaddexp", "f32", 2.0), ("logaddexp2", 2.0, "f32"),
              ("logaddexp2", "i32", "i32"), ("add", "f32", "abc")]


def _make_binary(name):
    pairs = BINARY[name]

    def case(ms):
        fn = getattr(ms.ops, name)
        return [fn(_arg(ms, a), _arg(ms, b)) for a, b in pairs]
    return case


def _make_binary_err(name, a, b):
    def case(ms):
        return getattr(ms.ops, name)(_arg(ms, a), _arg(ms, b))
    return case


for _n in BINARY:
    globals()["case_b_" + _n] = _make_binary(_n)
for _i, (_n, _a, _b) in enumerate(BINARY_ERR):
    globals()["case_berr_%s_%d" % (_n, _i)] = _make_binary_err(_n, _a, _b)


def case_b_broadcast(ms):
    x = _t(ms, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y = _f(ms, 10.0, 20.0, 30.0)
    z = _t(ms, [[2.0], [3.0]])
    return [ms.ops.add(x, y), ms.ops.mul(x, z), ms.ops.maximum(y, z), ms.ops.greater(x, z), ms.ops.div(y, z)]


def case_b_broadcast_error(ms):
    return ms.ops.add(_f(ms, 1.0, 2.0), _f(ms, 1.0, 2.0, 3.0))


def case_b_scalars_only(ms):
    return [ms.ops.add(2, 3), ms.ops.mul(2.5, 3)]


def case_b_primitives(ms):
    x, y = _t(ms, [[1.0, -2.0], [3.0, 4.0]]), _t(ms, [[2.0, 2.0], [-1.0, 0.5]])
    i, j = ms.Tensor(np.array([7, -7], np.int32)), ms.Tensor(np.array([2, 2], np.int32))
    o = ms.ops
    return [o.Add()(x, y), o.Sub()(x, y), o.Mul()(x, y), o.Div()(x, y), o.Div()(i, j), o.RealDiv()(x, y),
            o.RealDiv()(i, j), o.FloorDiv()(i, j), o.FloorMod()(x, y), o.Pow()(x, 2.0), o.Maximum()(x, y),
            o.Minimum()(x, y), o.Equal()(x, y), o.NotEqual()(x, y), o.Greater()(x, y), o.GreaterEqual()(x, y),
            o.Less()(x, y), o.LessEqual()(x, y), o.LogicalAnd()(x > 0, y > 0), o.LogicalOr()(x > 0, y > 0),
            o.LogicalXor()(x > 0, y > 0), o.Atan2()(x, y), o.BitwiseAnd()(i, j), o.BitwiseOr()(i, j),
            o.BitwiseXor()(i, j), o.Gcd()(i, j), o.tensor_div(x, y)]


def case_b_methods(ms):
    x, y = _t(ms, [[1.0, -2.0], [3.0, 4.0]]), _t(ms, [[2.0, 2.0], [-1.0, 0.5]])
    i = ms.Tensor(np.array([[7, -7], [3, 4]], np.int32))
    return [x.add(y), x.add(2, alpha=3), i.add(2.0, alpha=3), x.sub(y), x.sub(y, alpha=2), x.mul(y), x.mul(3),
            x.multiply(y), x.div(y), x.div(2, rounding_mode="floor"), x.divide(y), x.true_divide(2), i.div(2),
            x.floor_divide(y), x.fmod(2.0), x.remainder(2.0), x.remainder(divisor=y), x.pow(2), i.pow(2),
            i.pow(0.5), x.float_power(2), x.maximum(y), x.minimum(3.0), x.atan2(y), x.arctan2(y), x.eq(y),
            x.equal(2.0), x.ne(y), x.not_equal(y), x.gt(1.0), x.greater(y), x.ge(y), x.greater_equal(y),
            x.lt(y), x.less(2.0), x.le(y), x.less_equal(y), x.logical_and(y), x.logical_or(True),
            x.logical_xor(y), i.bitwise_and(3), i.bitwise_or(i), i.bitwise_xor(1), i.gcd(i + 1),
            x.logaddexp(y), x.logaddexp2(y), x.subtract(y, alpha=2)]


def case_b_div_rounding(ms):
    x, y = _f(ms, 7.0, -7.0, 7.5), _f(ms, 2.0, 2.0, -2.0)
    i, j = ms.Tensor(np.array([7, -7, 9], np.int32)), ms.Tensor(np.array([2, 2, -4], np.int32))
    return [ms.ops.div(x, y, rounding_mode="floor"), ms.ops.div(x, y, rounding_mode="trunc"),
            ms.ops.div(i, j, rounding_mode="floor"), ms.ops.div(i, j, rounding_mode="trunc"),
            ms.ops.div(i, j), ms.ops.divide(x, y, rounding_mode="floor")]


def case_b_subtract(ms):
    x, y = _f(ms, 1.0, -2.0, 3.0), _f(ms, 2.0, 2.0, -1.0)
    i = ms.Tensor(np.array([7, -7, 3], np.int32))
    return [ms.ops.subtract(x, y), ms.ops.subtract(x, y, alpha=2), ms.ops.subtract(i, 2, alpha=3),
            ms.ops.subtract(i, 0.5, alpha=2)]


def case_berr_div_rounding_mode(ms):
    return ms.ops.div(_f(ms, 1.0), _f(ms, 2.0), rounding_mode="round")


def case_b_pow_int_negative_exponent(ms):
    x = ms.Tensor(np.array([2, -2, 1, -1, -1, 3], np.int32))
    y = ms.Tensor(np.array([-1, -3, -5, -5, -4, 2], np.int32))
    return ms.ops.pow(x, y)


def case_b_float_power_args(ms):
    return [ms.ops.float_power(2, _f(ms, 1.0, 0.5)), ms.ops.float_power(_f(ms, 4.0), 0.5)]


def case_berr_float_power_no_tensor(ms):
    return ms.ops.float_power(2, 3)


def case_b_isclose(ms):
    a = _f(ms, 1.0, 2.0, float("nan"), 1e-9, float("inf"))
    b = _f(ms, 1.00001, 2.1, float("nan"), 0.0, float("inf"))
    i = ms.Tensor(np.array([1, 2, 3], np.int32))
    return [ms.ops.isclose(a, b), ms.ops.isclose(a, b, equal_nan=True), ms.ops.isclose(a, b, 0.1, 0.0),
            a.isclose(b, rtol=0.1), ms.ops.IsClose(rtol=0.1)(a, b), ms.ops.isclose(i, i + 1, rtol=0.6)]


def case_berr_isclose_dtype(ms):
    return ms.ops.isclose(_f(ms, 1.0), _f(ms, 1.0, dt=np.float64))


def case_berr_isclose_scalar(ms):
    return ms.ops.isclose(_f(ms, 1.0), 1.0)


def case_b_lerp_addc(ms):
    s, e = _f(ms, 1.0, 2.0, 3.0), _f(ms, 3.0, 6.0, -1.0)
    w = _f(ms, 0.5, 0.25, 2.0)
    t1, t2 = _f(ms, 3.0, 6.0, 1.0), _f(ms, 2.0, 4.0, -8.0)
    i = ms.Tensor(np.array([1, 2, 3], np.int32))
    o = ms.ops
    return [o.lerp(s, e, 0.5), o.lerp(s, e, w), s.lerp(e, 0.25), o.Lerp()(s, e, w),
            o.addcdiv(s, t1, t2, 0.5), o.addcdiv(s, t1, t2), o.addcdiv(s, t1, t2, _f(ms, 2.0)),
            s.addcdiv(t1, t2, _f(ms, 3.0)), o.Addcdiv()(s, t1, t2, _f(ms, 0.5)),
            o.addcmul(s, t1, t2, 0.5), o.addcmul(i, i, i, 2), s.addcmul(t1, t2), o.Addcmul()(s, t1, t2, _f(ms, 2.0))]


def case_berr_lerp_int_weight(ms):
    return ms.ops.lerp(_f(ms, 1.0), _f(ms, 2.0), 1)


def case_berr_lerp_dtype(ms):
    return ms.ops.lerp(_f(ms, 1.0, dt=np.float16), _f(ms, 2.0), 0.5)


def case_b_addn(ms):
    a, b, c = _f(ms, 1.0, 2.0), _f(ms, 3.0, 6.0), _f(ms, 2.0, 4.0)
    i = ms.Tensor(np.array([1, 2], np.int32))
    return [ms.ops.addn([a, b, c]), ms.ops.addn((i, i)), ms.ops.AddN()([a, b])]


def case_berr_addn_dtype(ms):
    return ms.ops.addn([_f(ms, 1.0, 2.0), ms.Tensor(np.array([1, 2], np.int32))])


def case_b_clamp(ms):
    x = _f(ms, -1.0, 0.0, 0.5, 1.0, 2.0)
    i = ms.Tensor(np.array([-1, 3, 5], np.int32))
    o = ms.ops
    return [o.clamp(x, 0.0, 1.0), o.clamp(x, 0, 1), o.clamp(i, 0.5, 2.5), o.clamp(i, 0, 2),
            o.clamp(x, _f(ms, 0.0, 0.0, 0.0, 0.0, 0.0), _f(ms, 1.0, 1.0, 1.0, 0.5, 0.5)), o.clamp(x, None, 1.0),
            o.clamp(x, min=0.5), o.clamp(x, 1.0, 0.0), o.clamp(i, _f(ms, 0.0), _f(ms, 2.0)), o.clip(x, -0.5, 0.5),
            x.clamp(0.0, 1.0), x.clip(0.0, 1.0), x.clamp(min=0.0), i.clamp(0.5, 2.5), x.clip(max=_f(ms, 0.25))]


def case_berr_clamp_none(ms):
    return ms.ops.clamp(_f(ms, 1.0))


def case_b_clip_by_value(ms):
    x = _f(ms, -1.0, 0.5, 2.0)
    i = ms.Tensor(np.array([-1, 3, 5], np.int32))
    o = ms.ops
    return [o.clip_by_value(x, 0.0, 1.0), o.clip_by_value(x, _f(ms, 0.0), _f(ms, 1.0)),
            o.clip_by_value(i, 0.5, 2.5), o.clip_by_value([x, _f(ms, 3.0)], 0.0, 1.0),
            o.clip_by_value((x,), clip_value_max=0.0), o.clip_by_value(x, clip_value_min=1)]


def case_berr_clip_by_value_none(ms):
    return ms.ops.clip_by_value(_f(ms, 1.0))


# --- binary gradients -------------------------------------------------------
_G1, _G2 = [1.5, -0.5, 2.0, 3.0], [2.0, 2.0, -1.5, 3.0]
BINARY_GRAD = ["add", "sub", "mul", "div", "floor_divide", "fmod", "remainder", "pow", "maximum", "minimum",
               "atan2", "logaddexp", "logaddexp2", "true_divide"]


def _make_binary_grad(name):
    def case(ms):
        a, b = _f(ms, *_G1), _f(ms, *_G2)
        if name == "pow":
            a = _f(ms, 1.5, 0.5, 2.0, 0.0)
        return ms.grad(getattr(ms.ops, name), grad_position=(0, 1))(a, b)
    return case


for _n in BINARY_GRAD:
    globals()["case_bg_" + _n] = _make_binary_grad(_n)


def case_bg_clamp(ms):
    x = _f(ms, -1.0, 0.0, 0.5, 1.0, 2.0)
    return [ms.grad(lambda v: ms.ops.clamp(v, 0.0, 1.0))(x),
            ms.grad(lambda v, lo, hi: ms.ops.clamp(v, lo, hi), grad_position=(0, 1, 2))(
                x, _f(ms, 0.0, 0.0, 0.0, 0.0, 0.0), _f(ms, 1.0, 1.0, 1.0, 1.0, 1.0)),
            ms.grad(lambda v: v.clip(max=0.5))(x)]


def case_bg_clip_by_value(ms):
    x = _f(ms, -1.0, 0.0, 0.5, 1.0, 2.0)
    return ms.grad(lambda v: ms.ops.clip_by_value(v, 0.0, 1.0))(x)


def case_bg_lerp_addc(ms):
    s, e, w = _f(ms, 1.0, 2.0), _f(ms, 3.0, 6.0), _f(ms, 0.5, 0.25)
    t1, t2 = _f(ms, 3.0, 6.0), _f(ms, 2.0, 4.0)
    return [ms.grad(ms.ops.lerp, grad_position=(0, 1, 2))(s, e, w),
            ms.grad(lambda a, b, c: ms.ops.addcdiv(a, b, c, 0.5), grad_position=(0, 1, 2))(s, t1, t2),
            ms.grad(lambda a, b, c: ms.ops.addcmul(a, b, c, 2.0), grad_position=(0, 1, 2))(s, t1, t2)]


def case_bg_maximum_ties(ms):
    a, b = _f(ms, 1.0, 3.0, 2.0), _f(ms, 1.0, 2.0, 2.0)
    return [ms.grad(ms.ops.maximum, grad_position=(0, 1))(a, b), ms.grad(ms.ops.minimum, grad_position=(0, 1))(a, b)]


def case_bg_div_by_zero(ms):
    return ms.grad(ms.ops.div, grad_position=(0, 1))(_f(ms, 1.0, 2.0), _f(ms, 0.0, 4.0))


def case_bg_float_power(ms):
    return ms.grad(lambda a: ms.ops.float_power(a, 2.0))(_f(ms, 1.5, -2.0))


# ===========================================================================
# reductions
# ===========================================================================
def _x23(ms, dt=np.float32):
    return ms.Tensor(np.array([[1, 5, 3], [4, 2, 6]], dt))


def case_red_sum(ms):
    x, i, b = _x23(ms), _x23(ms, np.int32), ms.Tensor(np.array([[True, False], [True, True]]))
    o = ms.ops
    return [o.sum(x), o.sum(x, 1), o.sum(x, (0, 1), True), o.sum(x, dim=-1, keepdim=True), o.sum(i), o.sum(i, 0),
            o.sum(b), o.sum(i, dtype=ms.float32), o.sum(_x23(ms, np.float64), 0), o.sum(_x23(ms, np.uint8), 1),
            o.sum(x, [0])]


def case_red_reduce_sum(ms):
    x, i, b = _x23(ms), _x23(ms, np.int32), ms.Tensor(np.array([[True, False], [False, False]]))
    o = ms.ops
    return [o.reduce_sum(x), o.reduce_sum(x, 1), o.reduce_sum(i, 0), o.reduce_sum(b, 1), o.ReduceSum()(x),
            o.ReduceSum(True)(x, 1), o.ReduceSum(keep_dims=True)(i, (0, 1)), o.ReduceSum()(i, []),
            o.ReduceSum(skip_mode=True)(i, 0), o.ReduceSum()(_x23(ms, np.int8), 1)]


def case_red_mean(ms):
    x, i = _x23(ms), _x23(ms, np.int32)
    n = ms.Tensor(np.array([-1, -2, -4], np.int32))
    o = ms.ops
    return [o.mean(x), o.mean(x, 1), o.mean(x, (0, 1), True), o.mean(i), o.mean(i, 1), o.mean(n),
            o.reduce_mean(x, 0), o.ReduceMean()(x), o.ReduceMean(True)(x, 1), o.mean(_x23(ms, np.uint8), 0),
            o.mean(_x23(ms, np.float64), -1)]


def case_red_mean_bool(ms):
    return ms.ops.mean(ms.Tensor(np.array([True, False])))


def case_red_prod(ms):
    x, i, b = _x23(ms), _x23(ms, np.int32), ms.Tensor(np.array([[True, False], [True, True]]))
    o = ms.ops
    return [o.prod(x), o.prod(x, 1), o.prod(x, 0, True), o.prod(i, 1), o.prod(b, 1), o.prod(i, (0, 1)),
            o.prod(x, dtype=ms.int32), o.ReduceProd()(i, 0), o.ReduceProd(True)(x), i.prod(), i.prod(0),
            x.prod(dim=1, keepdim=True)]


def case_red_amax_amin(ms):
    x, i = _x23(ms), _x23(ms, np.int32)
    m = ms.Tensor(np.array([[True, False, True], [True, True, False]]))
    o = ms.ops
    return [o.amax(x), o.amax(x, 1), o.amax(x, (0, 1), True), o.amin(x, 0), o.amin(i, -1, True),
            o.amax(x, 1, initial=5.5), o.amax(x, 1, initial=0.0, where=m), o.amin(x, 0, initial=2.5),
            o.amin(x, initial=10.0, where=m), x.amax(), x.amax(0, True), x.amin(axis=1), o.ReduceMax()(x),
            o.ReduceMax(True)(i, 1), o.ReduceMin()(x, (0, 1)), o.reduce_max(x, 0), o.reduce_min(x, 1)]


def case_red_amax_bool(ms):
    return ms.ops.amax(ms.Tensor(np.array([True, False])))


def case_red_max_min(ms):
    x, i = _x23(ms), _x23(ms, np.int32)
    s = ms.Tensor(np.array(3.0, np.float32))
    o = ms.ops
    return [o.max(x), o.max(x, 1), o.max(x, 0, keepdims=True), o.min(i, 1), o.min(x, -1, True),
            o.max(x, 1, initial=5.5), o.min(x, 0, initial=2.5), o.max(s), o.min(s, 0)]


def case_red_max_tuple_axis(ms):
    return ms.ops.max(_x23(ms), (0, 1))


def case_red_max_axis_range(ms):
    return ms.ops.max(_x23(ms), 2)


def case_red_tensor_max_min(ms):
    x, i = _x23(ms), _x23(ms, np.int32)
    m = ms.Tensor(np.array([True, False, True]))
    return [x.max(), x.max(0), x.max(1, True), x.max(dim=1), x.max(dim=0, keepdim=True), x.max(axis=1),
            x.max(0, keepdims=True), x.max(axis=1, return_indices=True), x.max(axis=None, return_indices=True),
            x.max(axis=None, keepdims=True), x.max(axis=(0, 1)), x.max(axis=0, initial=4.5),
            x.max(axis=1, initial=0.0, where=m), x.min(), x.min(0), x.min(1, True), x.min(axis=0),
            x.min(axis=1, return_indices=True), x.min(axis=[0, 1], keepdims=True), i.max(), i.max(0), i.min(axis=1)]


def case_red_argmax_argmin(ms):
    x, i = _x23(ms), _x23(ms, np.int32)
    b = ms.Tensor(np.array([[False, True], [True, True]]))
    t = _f(ms, 1.0, 3.0, 3.0, 2.0)
    o = ms.ops
    return [o.argmax(x), o.argmax(x, 1), o.argmax(x, 0, True), o.argmax(i, -1), o.argmax(b, 1), o.argmax(t),
            o.argmin(x), o.argmin(x, 1), o.argmin(x, 0, True), o.argmin(i, 1), o.argmin(_f(ms, 2.0, 1.0, 1.0)),
            o.argmax(ms.Tensor(np.array(2.0, np.float32))), x.argmax(), x.argmax(1), x.argmax(axis=0, keepdims=True),
            x.argmax(dim=1, keepdim=True), x.argmin(), x.argmin(1), x.argmin(axis=0, keepdims=True),
            x.argmin(dim=1)]


def case_red_argmax_prims(ms):
    x = _x23(ms)
    o = ms.ops
    return [o.Argmax()(x), o.Argmax(axis=0)(x), o.Argmax(output_type=ms.int64)(x), o.Argmin()(x),
            o.Argmin(0, ms.int64)(x), o.ArgMaxWithValue()(x), o.ArgMaxWithValue(1, True)(x),
            o.ArgMinWithValue(axis=1)(x), o.ArgMinWithValue(0, True)(_x23(ms, np.int32)),
            x.argmax_with_value(), x.argmax_with_value(1, True), x.argmin_with_value(axis=1)]


def case_red_argmax_output_type(ms):
    return ms.ops.Argmax(output_type=ms.float32)(_x23(ms))


def case_red_argmax_keepdim_type(ms):
    return ms.ops.argmax(_x23(ms), 1, 1)


def case_red_argmin_bool(ms):
    return ms.ops.argmin(ms.Tensor(np.array([True, False])))


def case_red_std_var(ms):
    x = _t(ms, [[1.0, 5.0, 3.0], [4.0, 2.0, 7.0]])
    o = ms.ops
    return [o.std(x), o.std(x, 1), o.std(x, 0, 1), o.std(x, ddof=1, keepdims=True), o.var(x), o.var(x, 1),
            o.var(x, (0, 1), 1, True), o.var(x, ddof=2), o.std(x, -1, 2), o.std_mean(x, 1), o.var_mean(x, 0, 1, True),
            o.std(_t(ms, [[1.0, 2.0], [3.0, 5.0]], np.float64), 0)]


def case_red_reduce_std(ms):
    x = _t(ms, [[1.0, 5.0, 3.0], [4.0, 2.0, 7.0]])
    o = ms.ops
    return [o.ReduceStd()(x), o.ReduceStd(axis=1)(x), o.ReduceStd(0, False, True)(x), o.ReduceStd(axis=(0, 1))(x)]


def case_red_std_int(ms):
    return ms.ops.std(_x23(ms, np.int32), 1)


def case_red_tensor_std_var(ms):
    x = _t(ms, [[1.0, 5.0, 3.0], [4.0, 2.0, 7.0]])
    i = ms.Tensor(np.array([[1, 5, 3], [4, 2, 6]], np.int32))
    n = ms.Tensor(np.array([-1, -2, -4], np.int32))
    return [x.std(), x.std(0), x.std(0, 1), x.std(dim=1), x.std(correction=1), x.std(axis=1, ddof=1, keepdims=True),
            x.var(), x.var(0), x.var(0, 1, True), x.var(axis=1, ddof=1), i.std(), i.var(), i.var(1), n.var()]


def case_red_logsumexp(ms):
    x = _t(ms, [[1.0, 5.0, 3.0], [4.0, 2.0, 7.0]])
    return [ms.ops.logsumexp(x, 1), ms.ops.logsumexp(x, 0, True), ms.ops.logsumexp(x, (0, 1)),
            x.logsumexp(0), x.logsumexp(dim=(0, 1), keepdim=True)]


def case_red_logsumexp_int(ms):
    return ms.ops.logsumexp(_x23(ms, np.int32), 1)


def case_red_all_any(ms):
    # MindSpore's CPU ``any`` reads non-Bool inputs as raw bytes: any() is checked on Bool only
    x = _t(ms, [[1.0, 0.0, 2.0], [3.0, 4.0, 5.0]])
    b = ms.Tensor(np.array([[True, False], [True, True]]))
    i = ms.Tensor(np.array([[0, 0], [1, 0]], np.int32))
    xb = ms.Tensor(np.array([[True, False, False], [False, False, False]]))
    u = ms.Tensor(np.array([1, 2, 0], np.uint8))
    o = ms.ops
    return [o.all(x), o.all(x, 1), o.all(b, 0, True), o.all(i, (0, 1)), o.any(xb), o.any(b, 1), o.any(xb, 0, True),
            o.any(xb, [0, 1]), o.ReduceAll()(b), o.ReduceAll(True)(b, 1), o.ReduceAny()(xb, 0), o.ReduceAny(True)(b),
            x.all(), x.all(1), x.all(dim=1, keepdim=True), x.all(axis=(0, 1), keep_dims=True), xb.any(), xb.any(0),
            xb.any(dim=1, keepdim=True), xb.any(axis=(0, 1), keep_dims=True), o.all(u)]


def case_red_count_nonzero(ms):
    x = _t(ms, [[0.0, 1.0, 2.0], [0.0, 0.0, 5.0]])
    i = ms.Tensor(np.array([[0, 1], [2, 0]], np.int32))
    o = ms.ops
    return [o.count_nonzero(x), o.count_nonzero(x, 1), o.count_nonzero(x, (0, 1), True),
            o.count_nonzero(i, 0, True, ms.float32), o.count_nonzero(x, axis=0, dtype=ms.int64),
            x.count_nonzero(), x.count_nonzero(0), x.count_nonzero(axis=1, keep_dims=True)]


def case_red_count_nonzero_bool(ms):
    return ms.ops.count_nonzero(ms.Tensor(np.array([True, False])))


def case_red_tensor_sum_mean_prod(ms):
    x, i = _x23(ms), _x23(ms, np.int32)
    return [x.sum(), x.sum(0), x.sum(1, True), x.sum(dim=1), x.sum(axis=1), x.sum(keepdim=True), x.sum(keepdims=True),
            i.sum(), i.sum(1, ms.float32), i.sum(1, dtype=ms.float32), i.sum(0, True, dtype=ms.float32),
            i.sum(dtype=ms.bool_), i.sum(axis=0, initial=10), x.sum(axis=(0, 1), initial=1.5),
            x.mean(), x.mean(0), x.mean(0, True), x.mean(dim=1), x.mean(axis=1, keep_dims=True),
            x.mean((0, 1), keep_dims=True), i.mean(), i.mean(0), i.mean(0, dtype=ms.float32),
            x.prod(), i.prod(1)]


def case_red_tensor_prod_axis_kw(ms):
    return _x23(ms, np.int32).prod(axis=0)


def case_red_norm(ms):
    v = _f(ms, 3.0, -4.0, 0.0, 1.0)
    m = _t(ms, [[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
    i = ms.Tensor(np.array([1, 2, 2], np.int32))
    o = ms.ops
    return [o.norm(v), o.norm(v, 1), o.norm(v, 2), o.norm(v, 3), o.norm(v, 0), o.norm(v, float("inf")),
            o.norm(v, -float("inf")), o.norm(v, -1), o.norm(v, 0.5), o.norm(m), o.norm(m, "fro"), o.norm(m, 1),
            o.norm(m, -1), o.norm(m, float("inf")), o.norm(m, -float("inf")), o.norm(m, 2), o.norm(m, -2),
            o.norm(m, "nuc"), o.norm(m, dim=1), o.norm(m, 1, 0), o.norm(m, 2, dim=1, keepdim=True),
            o.norm(m, None, (0, 1), True), o.norm(m, 1, (1, 0)), o.norm(m, keepdim=True), o.norm(i),
            o.norm(m, dtype=ms.float64), v.norm(), m.norm(1), m.norm(dim=0)]


def case_red_norm_bad_ord(ms):
    return ms.ops.norm(_t(ms, [[1.0, 2.0], [3.0, 4.0]]), 3)


def case_red_norm_str_vector(ms):
    return ms.ops.norm(_f(ms, 1.0, 2.0), "fro", 0)


# --- reduction gradients ----------------------------------------------------
def case_redg_max_min_ties(ms):
    t = _f(ms, 1.0, 3.0, 3.0, 2.0)
    m = _t(ms, [[1.0, 2.0], [1.0, 0.0]])
    o = ms.ops
    return [ms.grad(lambda x: x.max())(t), ms.grad(o.amax)(t), ms.grad(lambda x: o.max(x, 0)[0])(t),
            ms.grad(lambda x: o.ReduceMax()(x))(t), ms.grad(lambda x: x.max(0)[0])(t),
            ms.grad(lambda x: x.max(axis=0))(t), ms.grad(lambda x: x.min())(_f(ms, 1.0, 1.0, 3.0)),
            ms.grad(lambda x: o.amax(x, 0))(m), ms.grad(lambda x: o.ArgMaxWithValue()(x)[1])(t),
            ms.grad(lambda x: x.max(axis=None, return_indices=True)[0])(t), ms.grad(lambda x: o.min(x, 1)[0])(m),
            ms.grad(lambda x: o.ReduceMin()(x))(_f(ms, 1.0, 1.0, 3.0))]


def case_redg_sum_mean_prod(ms):
    x = _t(ms, [[1.0, 0.0, 3.0], [2.0, 4.0, 0.5]])
    o = ms.ops
    return [ms.grad(lambda v: o.sum(v, 1))(x), ms.grad(lambda v: o.mean(v, 0))(x), ms.grad(o.prod)(x),
            ms.grad(lambda v: o.prod(v, 1))(x), ms.grad(o.prod)(_f(ms, 1.0, 0.0, 0.0)),
            ms.grad(lambda v: o.ReduceSum()(v, 0))(x), ms.grad(lambda v: v.sum(axis=1, initial=2.0))(x),
            ms.grad(lambda v: v.mean())(x)]


def case_redg_std_var_norm(ms):
    x = _f(ms, 1.0, 2.0, 4.0)
    m = _t(ms, [[1.0, -2.0], [3.0, 4.0]])
    o = ms.ops
    return [ms.grad(o.std)(x), ms.grad(lambda v: o.var(v, ddof=1))(x), ms.grad(lambda v: v.std())(x),
            ms.grad(lambda v: v.var(0, 1))(m), ms.grad(o.norm)(_f(ms, 3.0, 4.0)), ms.grad(lambda v: o.norm(v, 1))(
                _f(ms, 0.0, -2.0, 3.0)), ms.grad(lambda v: o.norm(v, float("inf")))(_f(ms, 1.0, -3.0, 3.0)),
            ms.grad(lambda v: o.norm(v, 3))(_f(ms, 1.0, -2.0, 3.0)), ms.grad(lambda v: o.norm(v, 1))(m),
            ms.grad(lambda v: o.norm(v, "fro"))(m), ms.grad(lambda v: o.logsumexp(v, 0))(x),
            ms.grad(o.norm)(_f(ms, 0.0, 0.0))]


# ===========================================================================
# scans
# ===========================================================================
def case_scan_cumsum(ms):
    x, i = _x23(ms), _x23(ms, np.int32)
    o = ms.ops
    return [o.cumsum(x, 1), o.cumsum(x, 0), o.cumsum(i, -1), o.cumsum(i, 1, ms.float32), o.cumsum(_x23(ms, np.int8), 1),
            o.CumSum()(x, 1), o.CumSum(exclusive=True)(x, 1), o.CumSum(reverse=True)(x, 1), o.CumSum(True, True)(i, 0),
            x.cumsum(), x.cumsum(0), x.cumsum(dim=1, dtype=ms.float64), x.cumsum(axis=1),
            _x23(ms, np.int8).cumsum(0), ms.Tensor(np.array([True, False, True])).cumsum(0)]


def case_scan_cumsum_bool(ms):
    return ms.ops.cumsum(ms.Tensor(np.array([True, False])), 0)


def case_scan_cumprod(ms):
    x, i = _x23(ms), _x23(ms, np.int32)
    o = ms.ops
    return [o.cumprod(x, 1), o.cumprod(i, 0), o.cumprod(ms.Tensor(np.array([True, False, True])), 0),
            o.cumprod(x, 1, ms.float64), o.CumProd()(x, 1), o.CumProd(exclusive=True)(x, 1),
            o.CumProd(reverse=True)(x, 1), x.cumprod(1), i.cumprod(-1)]


def case_scan_cummax_cummin(ms):
    t = _f(ms, 1.0, 3.0, 3.0, 2.0, 5.0)
    u = _f(ms, 3.0, 1.0, 1.0, 2.0, 0.0)
    m = _t(ms, [[1.0, 5.0, 2.0], [4.0, 4.0, 6.0]])
    o = ms.ops
    return [o.cummax(t, 0), o.cummin(u, 0), o.cummax(m, 1), o.cummin(m, 0), o.Cummax(axis=1)(m),
            o.Cummin(0)(m), o.cummax(_x23(ms, np.int32), 1), m.cummax(0), m.cummin(1), u.cummin(-1)]


def case_scan_grads(ms):
    x = _t(ms, [[1.0, 2.0, 3.0], [0.5, 4.0, 2.0]])
    o = ms.ops
    return [ms.grad(lambda v: o.cumsum(v, 1))(x), ms.grad(lambda v: o.CumSum(reverse=True)(v, 1))(x),
            ms.grad(lambda v: o.cumprod(v, 1))(x), ms.grad(lambda v: o.cumprod(v, 0))(_f(ms, 1.0, 0.0, 3.0)),
            ms.grad(lambda v: o.CumProd()(v, 0))(_f(ms, 2.0, 3.0, 0.5))]


# ===========================================================================
# sorting
# ===========================================================================
def case_sort_sort(ms):
    t = _f(ms, 3.0, 1.0, 3.0, 1.0, 2.0)
    m = _t(ms, [[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    i = _x23(ms, np.int32)
    o = ms.ops
    return [o.sort(t), o.sort(t, descending=True), o.sort(m), o.sort(m, 0), o.sort(m, -1, True), o.sort(i, 0),
            o.Sort()(m), o.Sort(0, True)(m), o.argsort(t), o.argsort(t, descending=True), o.argsort(m, 0),
            m.sort(), m.sort(0), m.sort(dim=1, descending=True), m.sort(axis=0, descending=True),
            m.sort(stable=True), m.argsort(), m.argsort(0), m.argsort(dim=0, stable=True),
            m.argsort(axis=1, descending=True)]


def case_sort_sort_bool(ms):
    return ms.ops.sort(ms.Tensor(np.array([True, False])))


def case_sort_topk(ms):
    t = _f(ms, 3.0, 1.0, 3.0, 1.0, 2.0)
    m = _t(ms, [[3.0, 1.0, 4.0], [2.0, 5.0, 0.0]])
    o = ms.ops
    return [o.topk(t, 3), o.topk(t, 3, largest=False), o.topk(m, 2), o.topk(m, 1, dim=0),
            o.topk(m, 1, 0, False), o.topk(_x23(ms, np.int32), 2), o.TopK()(t, 2), o.TopK(True)(m, 1),
            m.topk(1), m.topk(1, 0), m.topk(2, dim=1, largest=False)]


def case_sort_topk_k_too_big(ms):
    return ms.ops.topk(_f(ms, 1.0, 2.0), 3)


def case_sort_grads(ms):
    t = _f(ms, 3.0, 1.0, 2.0)
    w = _f(ms, 1.0, 2.0, 3.0)
    m = _t(ms, [[3.0, 1.0, 4.0], [2.0, 5.0, 0.0]])
    w2 = _t(ms, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    o = ms.ops
    return [ms.grad(lambda x: o.sort(x)[0] * w)(t), ms.grad(lambda x: o.sort(x, descending=True)[0] * w)(t),
            ms.grad(lambda x: o.topk(x, 2)[0] * _f(ms, 1.0, 2.0))(t), ms.grad(lambda x: o.topk(x, 1, dim=0)[0])(m),
            ms.grad(lambda x: x.sort(0)[0] * w2)(m)]


# ===========================================================================
# histograms
# ===========================================================================
def case_hist_histc(ms):
    x = _f(ms, 1.0, 2.0, 1.0, 4.0, 2.5)
    o = ms.ops
    return [o.histc(x, bins=4, min=0.0, max=3.0), o.histc(x, bins=4), o.histc(x, 5, 1, 4),
            o.histc(ms.Tensor(np.array([1, 2, 1], np.int32)), bins=4, min=0.0, max=3.0),
            o.histc(_t(ms, [[0.0, 0.5], [1.0, -1.0]]), 2, 0.0, 1.0), x.histc(4, 0.0, 5.0), x.histc(), x.histc(bins=3)]


def case_hist_histc_min_gt_max(ms):
    return ms.ops.histc(_f(ms, 1.0), bins=3, min=3.0, max=1.0)


def case_hist_histc_float64(ms):
    return ms.ops.histc(_f(ms, 1.0, dt=np.float64), bins=3, min=0.0, max=2.0)


def case_hist_bincount(ms):
    x = ms.Tensor(np.array([0, 1, 1, 3], np.int32))
    o = ms.ops
    return [o.bincount(x), o.bincount(ms.Tensor(np.array([0, 1, 1, 3], np.int64)), minlength=6),
            o.bincount(x, _f(ms, 0.5, 1.0, 2.0, 1.0)), o.bincount(x, ms.Tensor(np.array([1, 1, 2, 1], np.float64))),
            o.bincount(ms.Tensor(np.array([0, -1, 1, 3], np.int32))), x.bincount(), x.bincount(minlength=5)]


def case_hist_bincount_2d(ms):
    return ms.ops.bincount(ms.Tensor(np.array([[0, 1]], np.int32)))


# ===========================================================================
# linear algebra
# ===========================================================================
def _m(ms, shape, seed, dt=np.float32):
    return ms.Tensor(_rand(shape, seed).astype(dt))


def case_la_matmul(ms):
    a, b = _m(ms, (2, 3), 1), _m(ms, (3, 4), 2)
    v = _m(ms, (3,), 3)
    o = ms.ops
    return [o.matmul(a, b), o.matmul(a, v), o.matmul(v, b), o.matmul(v, v), o.matmul(_m(ms, (5, 2, 3), 4), b),
            o.matmul(_m(ms, (5, 2, 3), 4), _m(ms, (1, 3, 2), 5)),
            o.matmul(ms.Tensor(np.arange(6).reshape(2, 3).astype(np.int32)),
                     ms.Tensor(np.arange(6).reshape(3, 2).astype(np.int32))),
            o.matmul(a.astype(ms.float64), b.astype(ms.float64)), a.matmul(b), a.matmul(v)]


def case_la_matmul_dtype(ms):
    return ms.ops.matmul(_m(ms, (2, 3), 1), ms.Tensor(np.ones((3, 2), np.int32)))


def case_la_matmul_shape(ms):
    return ms.ops.matmul(_m(ms, (2, 3), 1), _m(ms, (2, 2), 2))


def case_la_matmul_prims(ms):
    a, b = _m(ms, (3, 2), 1), _m(ms, (3, 4), 2)
    o = ms.ops
    return [o.MatMul()(a.T, b), o.MatMul(True, False)(a, b), o.MatMul(transpose_b=True)(b.T, a.T),
            o.MatMul(True, True)(b, a.T), o.BatchMatMul()(_m(ms, (4, 2, 3), 3), _m(ms, (4, 3, 2), 4)),
            o.BatchMatMul(False, True)(_m(ms, (4, 2, 3), 3), _m(ms, (4, 2, 3), 4)),
            o.BatchMatMul(True, False)(_m(ms, (2, 3, 2), 3), _m(ms, (2, 3, 2), 4)),
            o.BatchMatMul()(a.T, b), o.bmm(_m(ms, (4, 2, 3), 3), _m(ms, (4, 3, 2), 4)),
            _m(ms, (4, 2, 3), 3).bmm(_m(ms, (4, 3, 1), 5)), o.mm(a.T, b)]


def case_la_matmul_prim_1d(ms):
    return ms.ops.MatMul()(_f(ms, 1.0, 2.0), _f(ms, 3.0, 4.0))


def case_la_batchmatmul_broadcast(ms):
    return ms.ops.BatchMatMul()(_m(ms, (4, 2, 3), 3), _m(ms, (3, 2), 4))


def case_la_dots(ms):
    o = ms.ops
    return [o.dot(_m(ms, (2, 3), 1), _m(ms, (3, 2), 2)), o.dot(_m(ms, (2, 2, 3), 1), _m(ms, (2, 3, 2), 2)),
            o.dot(_m(ms, (2, 3), 1), _m(ms, (4, 3, 2), 2)), _m(ms, (2, 3), 1).dot(_m(ms, (3, 2), 2)),
            o.batch_dot(_m(ms, (2, 2, 3), 1), _m(ms, (2, 3, 2), 2)), o.batch_dot(_m(ms, (2, 3), 1), _m(ms, (2, 3), 2)),
            o.batch_dot(_m(ms, (2, 2, 3), 1), _m(ms, (2, 2, 3), 2), (-1, -1)),
            o.batch_dot(_m(ms, (2, 2, 3), 1), _m(ms, (2, 2, 3), 2), 1),
            o.batch_dot(_m(ms, (3, 2, 4), 1), _m(ms, (3, 4, 5, 2), 2), (2, 1)),
            o.batch_dot(_m(ms, (2, 3), 1), _m(ms, (2, 3, 4), 2)),
            o.tensor_dot(_m(ms, (2, 3, 4), 1), _m(ms, (4, 3, 2), 2), ((1, 2), (1, 0))),
            o.tensor_dot(_m(ms, (2, 3), 1), _m(ms, (3, 2), 2), 1),
            o.tensor_dot(_m(ms, (2, 3), 1), _m(ms, (3, 2), 2), 0),
            o.tensor_dot(ms.Tensor(np.ones((2, 3), np.int32)), ms.Tensor(np.ones((3, 2), np.int32)), 1)]


def case_la_dot_int(ms):
    return ms.ops.dot(ms.Tensor(np.ones((2, 3), np.int32)), ms.Tensor(np.ones((3, 2), np.int32)))


def case_la_dot_1d(ms):
    return ms.ops.dot(_f(ms, 1.0, 2.0), _f(ms, 3.0, 4.0))


def case_la_batch_dot_axes0(ms):
    return ms.ops.batch_dot(_m(ms, (2, 2, 3), 1), _m(ms, (2, 3, 2), 2), (0, 1))


def case_la_tensor_dot_mismatch(ms):
    return ms.ops.tensor_dot(_m(ms, (2, 3), 1), _m(ms, (2, 3), 2), 1)


def case_la_addmm_family(ms):
    o = ms.ops
    i2 = ms.Tensor(np.ones((2, 2), np.int32))
    return [o.addmm(_m(ms, (2, 2), 1), _m(ms, (2, 3), 2), _m(ms, (3, 2), 3), beta=0.5, alpha=2),
            o.addmm(i2, ms.Tensor(np.ones((2, 3), np.int32)), ms.Tensor(np.ones((3, 2), np.int32)), beta=2, alpha=3),
            o.addmm(_f(ms, 1.0), _m(ms, (2, 3), 2), _m(ms, (3, 2), 3)),
            o.addbmm(_m(ms, (2, 2), 1), _m(ms, (3, 2, 3), 2), _m(ms, (3, 3, 2), 3), beta=0.5, alpha=2),
            o.baddbmm(_m(ms, (3, 2, 2), 1), _m(ms, (3, 2, 3), 2), _m(ms, (3, 3, 2), 3), 0.5, 2),
            o.baddbmm(_m(ms, (3, 2, 2), 1), _m(ms, (3, 2, 3), 2), _m(ms, (3, 3, 2), 3)),
            o.addmv(_f(ms, 1.0, 2.0), _m(ms, (2, 3), 2), _f(ms, 1.0, 2.0, 3.0), beta=2, alpha=0.5),
            o.addmv(ms.Tensor(np.array([1, 2], np.int32)), ms.Tensor(np.ones((2, 3), np.int32)),
                    ms.Tensor(np.array([1, 2, 3], np.int32)), beta=2, alpha=3),
            _m(ms, (2, 2), 1).addmm(_m(ms, (2, 3), 2), _m(ms, (3, 2), 3), alpha=0.5),
            _m(ms, (2, 2), 1).addbmm(_m(ms, (3, 2, 3), 2), _m(ms, (3, 3, 2), 3), beta=2),
            _m(ms, (3, 2, 2), 1).baddbmm(_m(ms, (3, 2, 3), 2), _m(ms, (3, 3, 2), 3), beta=0.5),
            _f(ms, 1.0, 2.0).addmv(_m(ms, (2, 3), 2), _f(ms, 1.0, 2.0, 3.0), beta=0.5)]


def case_la_baddbmm_int_float_scale(ms):
    i = ms.Tensor(np.ones((3, 2, 2), np.int32))
    return ms.ops.baddbmm(i, ms.Tensor(np.ones((3, 2, 3), np.int32)), ms.Tensor(np.ones((3, 3, 2), np.int32)), 0.5, 2)


def case_la_addmm_bad_alpha(ms):
    return ms.ops.addmm(_m(ms, (2, 2), 1), _m(ms, (2, 3), 2), _m(ms, (3, 2), 3), alpha="2")


def case_la_ger_outer_cross(ms):
    a, b = _f(ms, 1.0, 2.0), _f(ms, 3.0, 4.0, 5.0)
    p = _t(ms, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    q = _t(ms, [[7.0, 8.0, 9.0], [1.0, 0.0, 1.0]])
    o = ms.ops
    return [o.ger(a, b), a.ger(b), o.outer(a, b), o.outer(ms.Tensor(np.array([1, 2], np.int32)), b),
            o.cross(p, q), o.cross(p.T, q.T, 0), o.cross(p, q, -1), p.cross(q), o.Cross()(p, q), o.Cross(dim=1)(p, q),
            o.cross(ms.Tensor(np.array([[1, 2, 3]], np.int32)), ms.Tensor(np.array([[4, 5, 6]], np.int32)))]


def case_la_ger_int(ms):
    return ms.ops.ger(ms.Tensor(np.array([1, 2], np.int32)), ms.Tensor(np.array([1, 2, 3], np.int32)))


def case_la_cross_no_3(ms):
    return ms.ops.cross(_t(ms, [[1.0, 5.0], [4.0, 2.0]]), _t(ms, [[1.0, 5.0], [4.0, 2.0]]))


def case_la_diff(ms):
    o = ms.ops
    return [o.diff(_f(ms, 1.0, 3.0, 6.0, 10.0)), o.diff(ms.Tensor(np.array([[1, 3], [6, 10]], np.int32)), axis=0),
            o.diff(_f(ms, 1.0, 3.0, 6.0), prepend=_f(ms, 0.0), append=_f(ms, 20.0)),
            o.diff(ms.Tensor(np.array([True, False, True, True]))), o.diff(_t(ms, [[1.0, 5.0], [4.0, 2.0]])),
            _t(ms, [[1.0, 5.0, 2.0], [4.0, 2.0, 0.0]]).diff(axis=0),
            _f(ms, 1.0, 4.0).diff(append=_f(ms, 0.0, 1.0))]


def case_la_diff_n2(ms):
    return ms.ops.diff(_f(ms, 1.0, 3.0, 6.0), n=2)


def case_la_trace(ms):
    o = ms.ops
    m = _t(ms, [[2.0, 1.0, 4.0], [1.0, 3.0, 5.0]])
    i = ms.Tensor(np.array([[2, 1, 4], [1, 3, 5]], np.int32))
    return [o.trace(m), o.trace(i), o.Trace()(m), m.trace(), m.trace(1), i.trace(), m.trace(dtype=ms.float64),
            _m(ms, (2, 3, 3), 1).trace(axis1=1, axis2=2)]


def case_la_trace_3d(ms):
    return ms.ops.trace(_m(ms, (2, 2, 2), 1))


def case_la_inverse(ms):
    a = _t(ms, [[2.0, 1.0], [1.0, 3.0]])
    b = ms.Tensor(np.array([[[4.0, 7.0], [2.0, 6.0]], [[1.0, 2.0], [3.0, 4.0]]], np.float64))
    return [ms.ops.inverse(a), ms.ops.inverse(b), a.inverse(), ms.ops.MatrixInverse()(a),
            ms.ops.MatrixInverse(adjoint=True)(_t(ms, [[4.0, 7.0], [2.0, 6.0]]))]


def case_la_det(ms):
    a = _t(ms, [[2.0, 1.0], [1.0, 3.0]])
    b = ms.Tensor(np.array([[[4.0, 7.0], [2.0, 6.0]], [[1.0, 2.0], [3.0, 4.0]]], np.float64))
    return [ms.ops.det(a), ms.ops.det(b), a.det(), ms.grad(ms.ops.det)(a)]


def case_la_inverse_int(ms):
    return ms.ops.inverse(ms.Tensor(np.array([[2, 1], [1, 3]], np.int32)))


def case_la_svd(ms):
    a = _t(ms, [[2.0, 1.0], [1.0, 3.0], [0.5, -1.0]])
    o = ms.ops
    s, u, v = o.svd(a)
    s2, u2, v2 = o.svd(a, full_matrices=True)
    s3, u3, v3 = o.Svd()(a)
    rec = o.matmul(u * s.reshape(1, -1), v.T)
    return [s, rec, u.abs(), v.abs(), s2, u2.shape, v2.shape, s3, o.svd(a, compute_uv=False), a.svd(compute_uv=False),
            a.svd()[0], u2[:, :2].abs()]


def case_la_grads(ms):
    a, b = _m(ms, (2, 3), 1), _m(ms, (3, 2), 2)
    sq = _t(ms, [[2.0, 1.0], [1.0, 3.0]])
    o = ms.ops
    return [ms.grad(o.matmul, grad_position=(0, 1))(a, b),
            ms.grad(lambda x, y: o.MatMul(True, True)(x, y), grad_position=(0, 1))(b, a),
            ms.grad(o.bmm, grad_position=(0, 1))(_m(ms, (2, 2, 3), 3), _m(ms, (2, 3, 2), 4)),
            ms.grad(lambda x, y: o.batch_dot(x, y), grad_position=(0, 1))(_m(ms, (2, 3), 1), _m(ms, (2, 3), 2)),
            ms.grad(lambda x, y: o.tensor_dot(x, y, 1), grad_position=(0, 1))(a, b),
            ms.grad(lambda x: o.addmm(x, a, b, beta=0.5, alpha=2))(_m(ms, (2, 2), 5)),
            ms.grad(o.inverse)(sq), ms.grad(o.trace)(sq), ms.grad(lambda x: o.diff(x))(_f(ms, 1.0, 3.0, 6.0)),
            ms.grad(o.cross, grad_position=(0, 1))(_f(ms, 1.0, 2.0, 3.0), _f(ms, 4.0, 5.0, 7.0)),
            ms.grad(lambda x: o.svd(x, compute_uv=False))(_t(ms, [[2.0, 1.0], [1.0, 3.0], [0.5, -1.0]])),
            ms.grad(o.ger, grad_position=(0, 1))(_f(ms, 1.0, 2.0), _f(ms, 3.0, 4.0, 5.0))]


# ===========================================================================
# jit / graph: a few ops inside ms.jit and a Cell
# ===========================================================================
def case_jit_ops(ms):
    @ms.jit
    def f(x, y):
        v, i = ms.ops.max(x, 1)
        s, _ = ms.ops.sort(y)
        return ms.ops.clamp(x, 0.0, 2.0).sum() + v.mean() + s[0] + ms.ops.norm(x), i, ms.ops.argmax(y)

    return f(_t(ms, [[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]]), _f(ms, 3.0, 1.0, 2.0))


def case_cell_ops(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ms.ops.MatMul(transpose_b=True)
            self.reduce = ms.ops.ReduceMean(keep_dims=True)
            self.argmax = ms.ops.Argmax(axis=1)

        def construct(self, x, w):
            h = self.matmul(x, w)
            return self.reduce(ms.ops.square(h), 1), self.argmax(h)

    net = Net()
    x, w = _m(ms, (2, 3), 1), _m(ms, (4, 3), 2)
    out = net(x, w)
    g = ms.grad(lambda a, b: net(a, b)[0], grad_position=(0, 1))(x, w)
    return out, g


def case_tensor_dunder_int_negative_pow(ms):
    i = ms.Tensor([2, 3, 1, -1, 0], ms.int32)
    return [i ** -1, i ** 2, 2 ** ms.Tensor([0, 3], ms.int32), i ** 0.5]


def case_tensor_dunder_bool_arith(ms):
    b = ms.Tensor([True, False, True, False])
    c = ms.Tensor([True, True, False, False])
    return [b - c, b + c, b * c, b + 1, 1 - b, b + True, b * 2.5]


def case_tensor_dunder_bool_neg_error(ms):
    return -ms.Tensor([True, False])


# ===========================================================================
# complex parts, detection ops, generated-op module, collective constants
# ===========================================================================
def case_complex_imag_real(ms):
    ops = ms.ops
    c = ms.Tensor(np.array([1 + 2j, 3 - 4j, -0.5 + 0.25j], np.complex64))
    c128 = ms.Tensor(np.array([[1.5 - 1j], [0 + 3j]], np.complex128))
    r = _t(ms, [1.5, -2.0])
    return {"imag": ops.imag(c), "method": c.imag(), "prim": ops.Imag()(c), "imag128": ops.imag(c128),
            "imag_real": ops.imag(r), "imag_int": ops.imag(ms.Tensor(np.array([1, 2], np.int32))),
            "imag_f16": ops.imag(_t(ms, [1.0, 2.0], np.float16)), "imag_bool": ops.imag(ms.Tensor([True])),
            "real": ops.real(c), "real_method": c128.real(), "real_prim": ops.Real()(c), "real_real": ops.real(r)}


def case_complex_imag_not_tensor_error(ms):
    return ms.ops.imag(2.0)


_ANCHORS = [[0, 0, 2, 2], [1, 1, 3, 4], [2.5, 0.5, 6, 3], [0, 1, 5, 9]]
_GTS = [[0.5, 0.5, 2, 3], [1, 0, 3, 3], [3, 1, 5.5, 2.5], [0.5, 2, 4, 8]]


def case_det_bounding_box_encode(ms):
    ops = ms.ops
    a, g = _t(ms, _ANCHORS), _t(ms, _GTS)
    return {"default": ops.BoundingBoxEncode()(a, g),
            "norm": ops.BoundingBoxEncode(means=(0.1, -0.2, 0.0, 0.3), stds=(0.1, 0.1, 0.2, 0.2))(a, g),
            "f16": ops.BoundingBoxEncode()(_t(ms, _ANCHORS, np.float16), _t(ms, _GTS, np.float16))}


def case_det_bounding_box_decode(ms):
    ops = ms.ops
    a = _t(ms, _ANCHORS)
    d = _t(ms, [[0.1, -0.2, 0.3, 0.05], [-1, 2, 5, -6], [0.5, 0.5, -0.2, 0.4], [3, 1, 2, 2]])
    return {"clip": ops.BoundingBoxDecode((8, 6), wh_ratio_clip=0.016)(a, d),
            "norm": ops.BoundingBoxDecode((768, 1280), means=(0.1, -0.2, 0.0, 0.3), stds=(0.1, 0.1, 0.2, 0.2),
                                          wh_ratio_clip=0.1)(a, d),
            "roundtrip": ops.BoundingBoxDecode((100, 100))(a, ops.BoundingBoxEncode()(a, _t(ms, _GTS)))}


def case_det_iou(ms):
    ops = ms.ops
    a, g = _t(ms, _ANCHORS[:3]), _t(ms, _GTS + [[10, 10, 12, 12]])
    return {"iou": ops.IOU()(a, g), "iof": ops.IOU("iof")(a, g), "fn": ops.iou(a, g), "fn_iof": ops.iou(a, g, "iof"),
            "f16": ops.IOU()(_t(ms, _ANCHORS, np.float16), _t(ms, _GTS, np.float16))}


def case_det_iou_mode_error(ms):
    return ms.ops.IOU("giou")


def case_det_nms_with_mask(ms):
    ops = ms.ops
    b = _t(ms, [[0, 0, 10, 10, 0.9], [1, 1, 10, 10, 0.8], [20, 20, 30, 30, 0.7], [0, 0, 9, 9, 0.95],
                [0, 0, 10, 4, 0.3], [21, 19, 31, 29, 0.6], [0, 0, 2, 2, 0.1], [1, 0, 3, 2, 0.05]])
    doc = np.array([[100.0, 100.0, 50.0, 68.0, 0.63], [150.0, 75.0, 165.0, 115.0, 0.55],
                    [12.0, 190.0, 288.0, 200.0, 0.9], [28.0, 130.0, 106.0, 172.0, 0.3]])
    doc[:, 2] += doc[:, 0]
    doc[:, 3] += doc[:, 1]
    return {"0.5": ops.NMSWithMask()(b), "0.3": ops.NMSWithMask(0.3)(b), "0.34": ops.NMSWithMask(0.34)(b[6:]),
            "0.32": ops.NMSWithMask(0.32)(b[6:]), "doc": ops.NMSWithMask(0.1)(ms.Tensor(doc, ms.float32)),
            "f16": ops.NMSWithMask(0.2)(ms.Tensor(b.asnumpy().astype(np.float16)))}


def case_det_nms_threshold_type_error(ms):
    return ms.ops.NMSWithMask(1)


def case_auto_generate_module(ms):
    ag = ms.ops.auto_generate
    x, y = _t(ms, [[1.0, -2.0], [3.5, 0.25]]), _t(ms, [[0.5, 4.0], [-1.0, 2.0]])
    from_prim = ag.gen_ops_prim.MatMul(transpose_b=True)(x, y)
    return {"abs": ag.Abs()(x), "add": ag.add(x, y), "matmul": from_prim, "def_mul": ag.gen_ops_def.mul(x, y),
            "argmax": ag.Argmax(axis=1)(x)}


case_auto_generate_module.checks = ("mindspore.ops.auto_generate",)


def case_reduce_op_constants(ms):
    ops = ms.ops
    names = ("SUM", "MAX", "MIN", "PROD")
    return {"ops": [getattr(ops.ReduceOp, n) for n in names],
            "operations": [getattr(ms.ops.operations.ReduceOp, n) for n in names]}


case_reduce_op_constants.checks = ("mindspore.ops.ReduceOp", "mindspore.ops.operations.ReduceOp")


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
