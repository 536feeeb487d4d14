"""Elementwise math: unary math (abs, sqrt, exp/exp2/log, trigonometric and hyperbolic functions,
erf, rounding), binary arithmetic (add ... pow, div in its rounding modes, maximum/minimum, atan2,
gcd, lcm, hypot, DivNoNan/MulNoNan/Mod, xlogy, copysign...), bitwise ops and shifts, clamp,
complex numbers (real/imag, conj, angle, polar, ``Complex``, ``ComplexAbs``), and the helpers the
other op modules share (dtype checks, ``_unary``/``_binary``/``_alias``, Tensor-method overloads).

Dtype rules are MindSpore 2.10's on CPU (recorded in ``tests/golden/ops_math_pynative.json``):

* Transcendental ops (``exp``, ``log``, ``sin``, ``erf``, ``floor``, ...) take float tensors only;
  an integer or bool input is a ``TypeError`` (MindSpore has no CPU kernel for it).
  ``sqrt`` and ``reciprocal`` turn integers and bools into Float32.
* Binary ops promote like JAX with weak Python scalars (a Python float meeting an integer
  tensor gives Float32); ``div`` of integers is Float32, ``floor_divide`` keeps integers.
* ``DivNoNan`` and ``hypot`` take float Tensors only, ``lcm`` Int32/Int64 only; ``Mod`` is C's
  ``fmod`` (``tests/golden/ops_extra_pynative.json``).

Gradients follow MindSpore where it differs from JAX's defaults: ``abs`` has gradient 0 at 0,
``clamp`` passes the gradient at the bounds.
"""
from __future__ import annotations

import builtins as _bi
import inspect
import numbers
import types

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import eager, provided, state
from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor, _mul, _truediv, broadcast_error
from . import divide_exact  # noqa: F401  (lends the core's Tensor / its elementwise division)
from . import overload_errors
from ._util import arr, operand_pair, wrap

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _dn(a):
    """MindSpore's name of an array's dtype ('Float32')."""
    try:
        return str(mstype.from_np(a.dtype))
    except TypeError:
        return str(a.dtype)


def _is_float(a):
    """Float or complex."""
    return jnp.issubdtype(a.dtype, jnp.inexact)


def _is_bool(a):
    return a.dtype == jnp.bool_


def _is_weak(a):
    try:
        return bool(jax.typeof(a).weak_type)
    except (AttributeError, TypeError):  # numpy scalars and the like
        return False


def _strong(a):
    """Drop JAX's weak type (a Tensor has a definite dtype, as in MindSpore)."""
    a = jnp.asarray(a)
    return lax.convert_element_type(a, a.dtype) if _is_weak(a) else a


def _out(a):
    return wrap(_strong(a))


def _is_number(v):
    return isinstance(v, (numbers.Number, np.generic)) and not isinstance(v, (np.ndarray,))


def _named(fn, name, doc=None):
    """``fn`` under another name, with its own code object (tracebacks and coverage see the name)."""
    code = fn.__code__.replace(co_name=name)
    new = types.FunctionType(code, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__doc__ = doc if doc is not None else fn.__doc__
    new.__qualname__ = name
    new.__module__ = fn.__module__
    new.__wrapped_op__ = fn
    return new


def _alias(name, fn, methods=(), primitive=None, prim_args=()):
    """Register ``name`` as another name of ``fn`` (``ops.absolute`` is ``ops.abs``)."""
    new = _named(fn, name, f"``ops.{name}``: same as ``ops.{fn.__name__}``.\n\n" + (fn.__doc__ or ""))
    op(name, methods=methods, primitive=primitive, prim_args=prim_args, family="math")(new)
    return new


def _need_tensor(name, argname, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{argname}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _rin(name, input):
    _need_tensor(name, "input", input)
    return input._data


def _check_bool_arg(name, argname, v):
    if not isinstance(v, bool):
        raise TypeError(f"For '{name}', the '{argname}' must be a bool, but got {type(v).__name__}.")


def _check_int_arg(name, argname, v):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"For '{name}', the '{argname}' must be an int, but got {type(v).__name__}.")


def _float_input(name, x, what="input"):
    if not _is_float(x):
        raise TypeError(f"For '{name}', the '{what}' must be a float Tensor (Float16, Float32, Float64, BFloat16 "
                        f"or complex), but got {_dn(x)}: MindSpore has no CPU kernel for it.")


def _norm_axis(name, axis, ndim):
    """One axis, checked against ``ndim`` (MindSpore raises ValueError out of range)."""
    if isinstance(axis, Tensor):
        axis = int(axis._data)
    _check_int_arg(name, "axis", axis)
    lo, hi = (-1, 1) if ndim == 0 else (-ndim, ndim)
    if not lo <= axis < hi:
        raise ValueError(f"For '{name}', the 'axis' must be in range [{lo}, {hi}), but got {axis}.")
    return int(axis) % _bi.max(ndim, 1)


def _norm_axes(name, axis, ndim):
    """``None`` (all axes) or a sorted tuple of distinct axes."""
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        axis = tuple(int(v) for v in np.ravel(np.asarray(axis._data)))
    if isinstance(axis, (list, tuple)):
        if len(axis) == 0:
            return None
        axes = tuple(_norm_axis(name, a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"For '{name}', the 'axis' must not contain duplicate values, but got {tuple(axis)}.")
        return tuple(sorted(axes)) if ndim else None
    a = _norm_axis(name, axis, ndim)
    return (a,) if ndim else None


def _binop(name, jfn, x, y):
    try:
        return jfn(x, y)
    except (TypeError, ValueError) as e:
        if "ncompatible shapes" in str(e):
            raise broadcast_error(name, x, y) from None
        raise


class _NoMatch(Exception):
    pass


def _dispatch(name, *variants):
    """A Tensor method with MindSpore's overloads: the first variant whose signature binds the
    call (and whose ``guard`` accepts the bound arguments) runs.

    ``variants`` are ``fn`` or ``(fn, guard)``; ``fn`` takes ``self`` first. When every variant annotates
    its parameters with MindSpore's type lists, a call none takes raises MindSpore's parser message
    (``overload_errors``).
    """
    table = []
    for v in variants:
        fn, guard = (v if isinstance(v, tuple) else (v, None))
        table.append((inspect.signature(fn), fn, guard))

    typed = overload_errors.annotated(table)     # overloads typed as MindSpore's: its parser's rules

    def method(self, *args, **kwargs):
        for sig, fn, guard in table:
            try:
                ba = sig.bind(self, *args, **kwargs)
            except TypeError:
                continue
            ba.apply_defaults()
            if guard is not None and not guard(ba.arguments) or \
                    typed and overload_errors.matched(sig, args) < len(args):
                continue
            return fn(*ba.args, **ba.kwargs)
        if typed:
            row = overload_errors.best(table, args, kwargs)
            if row is not None:     # one overload fits best: its own checks raise (MindSpore's messages)
                try:
                    ba = row[0].bind(self, *args, **kwargs)
                except TypeError:
                    ba = None
                if ba is not None:
                    return row[1](*ba.args, **ba.kwargs)
            raise overload_errors.error(name, table, args, kwargs)
        shown = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        valid = "\n".join(f'    "Tensor.{name}{str(s).replace("(self, ", "(").replace("(self)", "()")}"'
                          for s, _, _ in table)
        raise TypeError(f'Failed calling {name} with "{name}({shown})".\nThe valid calling should be:\n{valid}')

    method.__name__ = name
    method.__qualname__ = "Tensor." + name
    return method


def _tensor_method(name, method_names, fn, doc=None):
    """Register ``fn`` (taking ``self`` first) as Tensor method(s) only."""
    if isinstance(method_names, str):
        method_names = (method_names,)
    f = _named(fn, name, doc)
    op(name, methods=method_names, family="math")(f)
    return f


def _is_pyint(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


# ---------------------------------------------------------------------------
# unary elementwise ops
# ---------------------------------------------------------------------------

def _unary(name, compute, primitive=None, methods=(), doc=None):
    """``compute(x, name)`` gets the input array and returns the output array (compiled
    once its signature is hot in PyNative: ``_core.eager``)."""
    kernel = eager.hot(lambda x: _strong(compute(x, name)))

    def fn(input):
        if not isinstance(input, Tensor):
            raise TypeError(f"For '{name}', the 'input' must be a Tensor, but got {type(input).__name__}.")
        return wrap(kernel(input._data))
    fn = _named(fn, name, doc or f"``ops.{name}(input)``, elementwise.")
    op(name, primitive=primitive, methods=methods, family="math")(fn)
    return fn


def _float_fn(jfn):
    def compute(x, name):
        _float_input(name, x)
        return jfn(x)
    return compute


@jax.custom_jvp
def _abs_real(x):
    return jnp.abs(x)


@_abs_real.defjvp
def _abs_real_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return jnp.abs(x), t * jnp.sign(x).astype(t.dtype)   # MindSpore: gradient 0 at 0


def _abs(x, name):
    if _is_bool(x) or jnp.issubdtype(x.dtype, jnp.unsignedinteger):
        return x
    if jnp.issubdtype(x.dtype, jnp.floating):
        return _abs_real(x)
    return jnp.abs(x)


def _neg(x, name):
    if _is_bool(x):
        raise TypeError(f"For '{name}', the 'input' does not support Bool (MindSpore has no CPU kernel for it).")
    return jnp.negative(x)


def _to_float32_if_int(x):
    return x if _is_float(x) else x.astype(jnp.float32)


def _reciprocal(x, name):
    x = _to_float32_if_int(x)
    return jnp.asarray(1, x.dtype) / x


def _sqrt(x, name):
    return jnp.sqrt(_to_float32_if_int(x))


def _square(x, name):
    if _is_bool(x):
        raise TypeError(f"For '{name}', the 'input' does not support Bool (MindSpore has no CPU kernel for it).")
    return jnp.square(x)


def _sign(x, name):
    if not (_is_float(x) or x.dtype in (jnp.int32, jnp.int64)):
        raise TypeError(f"For '{name}', the type of 'input' must be in {{Int32, Int64, Float16, Float32, Float64, "
                        f"BFloat16, Complex64, Complex128}}, but got {_dn(x)}.")
    return sign_array(x)


def sign_array(x):
    """MindSpore's Sign: NaN gives 0, except in Float64 (MindSpore's documentation; its CPU
    kernel gives 0 there too)."""
    if jnp.issubdtype(x.dtype, jnp.floating) and x.dtype != jnp.float64:
        return jnp.where(jnp.isnan(x), jnp.zeros((), x.dtype), jnp.sign(x))
    return jnp.sign(x)


def _frac(x, name):
    if _is_bool(x):
        return jnp.zeros(x.shape, jnp.int64)
    if not _is_float(x):
        return jnp.zeros(x.shape, x.dtype)
    return x - jnp.trunc(x)


def _trunc(x, name):
    return x if not _is_float(x) else jnp.trunc(x)


def _inv(x, name):
    if _is_float(x):
        return jnp.asarray(1, x.dtype) / x
    if x.dtype not in (jnp.int16, jnp.int32, jnp.int64):
        raise TypeError(f"For '{name}', the type of 'input' must be in {{Int16, Int32, Int64, Float16, Float32, "
                        f"Float64, Complex64, Complex128}}, but got {_dn(x)}.")
    zero = jnp.iinfo(x.dtype).min if x.dtype != jnp.int16 else 0
    safe = jnp.where(x == 0, 1, x)
    return jnp.where(x == 0, jnp.asarray(zero, x.dtype), lax.div(jnp.ones_like(x), safe))


def _log2(x, name):
    _float_input(name, x)
    return jnp.log2(x)


abs = _unary("abs", _abs, "Abs", "abs", "``ops.abs(input)``: absolute value (gradient 0 at 0, as in MindSpore).")
absolute = _alias("absolute", abs, "absolute")
neg = _unary("neg", _neg, "Neg", ("neg", "negative"), "``ops.neg(input)``: ``-input`` (Bool is a TypeError).")
negative = _alias("negative", neg)
reciprocal = _unary("reciprocal", _reciprocal, "Reciprocal", "reciprocal",
                    "``ops.reciprocal(input)``: ``1 / input``; integers and bools give Float32.")
sqrt = _unary("sqrt", _sqrt, "Sqrt", "sqrt", "``ops.sqrt(x)``; integers and bools give Float32.")
square = _unary("square", _square, "Square", "square", "``ops.square(input)``: ``input * input``.")


@jax.custom_vjp
def _rint(x):
    return jnp.rint(x)


def _rint_bwd(_, g):
    raise RuntimeError("Illegal primitive Rint's bprop not defined")   # MindSpore 2.10 has none either


_rint.defvjp(lambda x: (jnp.rint(x), None), _rint_bwd)
rint = _unary("prim_rint", _float_fn(_rint), "Rint",
              doc="``ops.Rint()(x)``: the nearest integer, halves to even; float16/float32/float64. As in "
                  "MindSpore 2.10, it has no gradient (RuntimeError).")
exp = _unary("exp", _float_fn(jnp.exp), "Exp", "exp")
expm1 = _unary("expm1", _float_fn(jnp.expm1), "Expm1", "expm1")
log = _unary("log", _float_fn(jnp.log), "Log", "log")
log2 = _unary("log2", _log2, None, "log2")
log10 = _unary("log10", _float_fn(jnp.log10), None, "log10")
log1p = _unary("log1p", _float_fn(jnp.log1p), "Log1p", "log1p")
rsqrt = _unary("rsqrt", _float_fn(lax.rsqrt), "Rsqrt", "rsqrt")
sin = _unary("sin", _float_fn(jnp.sin), "Sin", "sin")
cos = _unary("cos", _float_fn(jnp.cos), "Cos", "cos")
tan = _unary("tan", _float_fn(jnp.tan), "Tan", "tan")
asin = _unary("asin", _float_fn(jnp.arcsin), "Asin", ("asin", "arcsin"))
arcsin = _alias("arcsin", asin)
acos = _unary("acos", _float_fn(jnp.arccos), "ACos", ("acos", "arccos"))
arccos = _alias("arccos", acos)
atan = _unary("atan", _float_fn(jnp.arctan), "Atan", ("atan", "arctan"))
arctan = _alias("arctan", atan)
sinh = _unary("sinh", _float_fn(jnp.sinh), "Sinh", "sinh")
cosh = _unary("cosh", _float_fn(jnp.cosh), "Cosh", "cosh")
asinh = _unary("asinh", _float_fn(jnp.arcsinh), "Asinh", ("asinh", "arcsinh"))
arcsinh = _alias("arcsinh", asinh)
acosh = _unary("acosh", _float_fn(jnp.arccosh), "Acosh", ("acosh", "arccosh"))
arccosh = _alias("arccosh", acosh)
atanh = _unary("atanh", _float_fn(jnp.arctanh), "Atanh", ("atanh", "arctanh"))
arctanh = _alias("arctanh", atanh)
erf = _unary("erf", _float_fn(jax.scipy.special.erf), "Erf", "erf")
erfc = _unary("erfc", _float_fn(jax.scipy.special.erfc), "Erfc", "erfc")
erfinv = _unary("erfinv", _float_fn(jax.scipy.special.erfinv), "Erfinv", "erfinv")
sign = _unary("sign", _sign, "Sign", "sign")
floor = _unary("floor", _float_fn(jnp.floor), "Floor", "floor")
ceil = _unary("ceil", _float_fn(jnp.ceil), "Ceil", "ceil")
trunc = _unary("trunc", _trunc, "Trunc", "trunc")
frac = _unary("frac", _frac, None, "frac", "``ops.frac(x)``: ``x - trunc(x)``; integers give zeros "
              "(Bool gives Int64 zeros, as in MindSpore).")
inv = _unary("inv", _inv, "Inv", "inv", "``ops.inv(x)``: ``1 / x``; Int16/Int32/Int64 divide as integers.")


@op("round", primitive="Round", family="math")
def round(input, *, decimals=0):
    """``ops.round(input, *, decimals=0)``: round half to even (floats); Int32/Int64 are unchanged."""
    _need_tensor("round", "input", input)
    x = input._data
    if not (_is_float(x) or x.dtype in (jnp.int32, jnp.int64)):
        raise RuntimeError(f"For 'Round', it does not support this kernel type: input({_dn(x)}).")
    if decimals != 0:
        raise RuntimeError(f"For Round only support decimals equal 0, but got decimals equal {decimals}")
    if not _is_float(x):
        return wrap(x)
    return wrap(jnp.round(x, decimals))


def _tensor_round(self, decimals=0):
    if not _is_pyint(decimals):
        raise TypeError(f"round(): argument 'decimals' (position 1) must be int, not {type(decimals).__name__}.")
    return round(self, decimals=decimals)


_tensor_method("tensor_m_round", "round", _tensor_round,
               "``Tensor.round(decimals=0)``: ``ops.round`` with ``decimals`` positional too (an int: "
               "MindSpore's TypeError otherwise).")


def _tensor_builtin_round(self, *ndigits):
    if not ndigits:
        return round(self)
    if not (state.COMPILED_SCOPE[0] > 0 or state.is_tracer(self._data)):
        raise TypeError(f"Tensor.__round__() takes 1 positional argument but {1 + len(ndigits)} were given")
    return round(self, decimals=ndigits[0])


_tensor_method("tensor_builtin_round", "__round__", _tensor_builtin_round,
               "Python's ``round(tensor)``: ``ops.round``. MindSpore's graph also takes ``round(tensor, 0)`` "
               "(another ``ndigits`` is its RuntimeError); PyNative refuses any ``ndigits`` with a TypeError.")


# ---------------------------------------------------------------------------
# binary elementwise ops
# ---------------------------------------------------------------------------

def _operands(name, input, other, *, scalar_first=True, scalars=True, bool_scalars_only=False,
              tensors_only=False):
    """Arrays of ``input``/``other`` with MindSpore's argument rules."""
    for argname, v in (("input", input), ("other", other)):
        if isinstance(v, Tensor):
            continue
        if tensors_only:
            raise TypeError(f"For '{name}', the '{argname}' must be a Tensor, but got {type(v).__name__}.")
        if isinstance(v, (list, tuple, np.ndarray)):
            continue
        if not _is_number(v):
            raise TypeError(f"Failed calling {name} with \"{name}(input={type(input).__name__}, "
                            f"other={type(other).__name__})\".")
        if (not scalars or (argname == "input" and not scalar_first) or
                (bool_scalars_only and not isinstance(v, (bool, np.bool_)))):
            raise TypeError(f"Failed calling {name} with \"{name}(input={type(input).__name__}, "
                            f"other={type(other).__name__})\".")
    return operand_pair(input, other)


def _binary(name, compute, primitive=None, methods=(), doc=None, **rules):
    """A broadcasting binary op: ``compute(x, y, name)`` on the (promoted) operands; two
    Tensors take the hot-kernel path (``_core.eager``)."""
    kernel = eager.hot(lambda x, y: _strong(compute(x, y, name)))

    def fn(input, other):
        if isinstance(input, Tensor) and isinstance(other, Tensor):
            return wrap(kernel(input._data, other._data))
        x, y = _operands(name, input, other, **rules)
        return _out(compute(x, y, name))
    fn = _named(fn, name, doc or f"``ops.{name}(input, other)`` with broadcasting and MindSpore's type promotion.")
    op(name, primitive=primitive, methods=methods, family="math")(fn)
    return fn


def _rtype(x, y):
    return jnp.result_type(x, y)


def _plain(jfn):
    def compute(x, y, name):
        return _binop(name, jfn, x, y)
    return compute


def _no_bool_pair(jfn, what="Bool"):
    def compute(x, y, name):
        if _rtype(x, y) == jnp.bool_:
            raise TypeError(f"For '{name}', the inputs must not both be {what} (MindSpore has no kernel for "
                            f"Bool {name}).")
        return _binop(name, jfn, x, y)
    return compute


def _squared_difference(x, y):
    t = jnp.result_type(x, y)
    if t in (jnp.float16, jnp.bfloat16):   # one rounding, as MindSpore's float16 kernel
        return jnp.square(x.astype(jnp.float32) - y.astype(jnp.float32)).astype(t)
    return jnp.square(x - y)


squared_difference = _binary(
    "prim_squared_difference", _no_bool_pair(_squared_difference), "SquaredDifference",
    doc="``ops.SquaredDifference()(x, y)``: ``(x - y) ** 2`` with broadcasting (float16/bfloat16 computed in "
        "float32 and rounded once).")


def _div_true(x, y, name):
    return _binop(name, _truediv, x, y)


def _floor_div(x, y, name):
    t = _rtype(x, y)
    if t == jnp.bool_:
        return _binop(name, jnp.logical_and, x, y)
    return _binop(name, jnp.floor_divide, x, y)


def _trunc_div(x, y, name):
    t = _rtype(x, y)
    if t == jnp.bool_:
        return _binop(name, lambda a, b: jnp.logical_and(a, b), x, y)
    if jnp.issubdtype(t, jnp.inexact):
        return _binop(name, lambda a, b: jnp.trunc(a / b), x, y)
    return _binop(name, lambda a, b: lax.div(*jnp.broadcast_arrays(jnp.asarray(a, t), jnp.asarray(b, t))), x, y)


def _as_int_for_bool(jfn):
    """Bool operands computed as Int32, result back to Bool (MindSpore keeps Bool)."""
    def compute(x, y, name):
        if _rtype(x, y) == jnp.bool_:
            return _binop(name, lambda a, b: jfn(jnp.asarray(a, jnp.int32), jnp.asarray(b, jnp.int32)), x, y) \
                .astype(jnp.bool_)
        return _binop(name, jfn, x, y)
    return compute


@jax.jit
def _int_pow(a, b):
    """Integer power with MindSpore's results for negative exponents (1/x truncated; 0 ** -n is INT_MIN)."""
    t = jnp.result_type(a, b)
    a, b = jnp.asarray(a, t), jnp.asarray(b, t)
    pos = jnp.power(a, jnp.where(b < 0, 0, b) if jnp.issubdtype(t, jnp.signedinteger) else b)
    if not jnp.issubdtype(t, jnp.signedinteger):
        return pos
    odd = (b % 2) != 0
    neg_res = jnp.where(a == 1, 1, jnp.where(a == -1, jnp.where(odd, -1, 1),
                                             jnp.where(a == 0, jnp.iinfo(t).min, 0)))
    return jnp.where(b < 0, neg_res.astype(t), pos)


def _pow(x, y, name):
    t = _rtype(x, y)
    if t == jnp.bool_:
        raise TypeError(f"For '{name}', the inputs must not both be Bool (MindSpore has no CPU kernel for it).")
    if jnp.issubdtype(t, jnp.integer):
        return _binop(name, _int_pow, x, y)
    return _binop(name, jnp.power, x, y)


def _nan_gradient(jfn, pick):
    """``jfn`` (``jnp.maximum``/``jnp.minimum``) with MindSpore's MaximumGrad/MinimumGrad: the
    picked input gets the gradient, a tie splits it in halves, and where either input is NaN
    both get all of it (JAX gives 0 to both there)."""
    @jax.custom_jvp
    def f(x, y):
        return jfn(x, y)

    @f.defjvp
    def f_jvp(primals, tangents):
        x, y = primals
        tx, ty = tangents
        out = jfn(x, y)
        nan = jnp.isnan(x) | jnp.isnan(y)
        wx = jnp.where(nan, 1.0, jnp.where(x == y, 0.5, pick(x, y))).astype(out.dtype)
        wy = jnp.where(nan, 1.0, jnp.where(x == y, 0.5, pick(y, x))).astype(out.dtype)
        return out, wx * tx + wy * ty

    def compute(x, y, name):
        if _rtype(x, y) == jnp.bool_ and jfn is jnp.minimum:
            raise TypeError(f"For '{name}', Bool inputs are not supported (MindSpore has no CPU kernel for it).")
        both_float = all(jnp.issubdtype(jnp.result_type(v), jnp.inexact) for v in (x, y))
        return _binop(name, f if both_float else jfn, x, y)
    return compute


def _atan2(x, y, name):
    if not jnp.issubdtype(_rtype(x, y), jnp.inexact):
        raise TypeError(f"For '{name}', the inputs must be float Tensors, but got {_dn(jnp.asarray(x))} and "
                        f"{_dn(jnp.asarray(y))}.")
    return _binop(name, jnp.arctan2, x, y)


def _bitwise(jfn):
    def compute(x, y, name):
        if jnp.issubdtype(_rtype(x, y), jnp.inexact):
            raise TypeError(f"For '{name}', the inputs must be Bool or integer Tensors, but got "
                            f"{_dn(jnp.asarray(x))} and {_dn(jnp.asarray(y))}.")
        return _binop(name, jfn, x, y)
    return compute


def _gcd(x, y, name):
    t = _rtype(x, y)
    if t not in (jnp.int16, jnp.int32, jnp.int64):
        raise TypeError(f"For Primitive[Gcd], the type of the input tensor must be [Int16, Int32, Int64], "
                        f"but got {_dn(jnp.zeros((), t))}!")
    return _binop(name, jnp.gcd, x, y)


add = _binary("add", _no_bool_pair(jnp.add), "Add", (), "``ops.add(input, other)``: ``input + other``.")
tensor_add = _alias("tensor_add", add)
sub = _binary("sub", _no_bool_pair(jnp.subtract), "Sub", (), "``ops.sub(input, other)``: ``input - other``.")
tensor_sub = _alias("tensor_sub", sub)
mul = _binary("mul", _plain(_mul), "Mul", ("mul",), "``ops.mul(input, other)``: ``input * other`` (in a graph "
             "the product is rounded before an addition, as MindSpore's kernels; XLA would fuse a multiply-add).")
tensor_mul = _alias("tensor_mul", mul)
multiply = _alias("multiply", mul, "multiply")
floor_divide = _binary("floor_divide", _floor_div, "FloorDiv", "floor_divide",
                       "``ops.floor_divide(input, other)``: ``floor(input / other)``; integers stay integers.")
tensor_floordiv = _alias("tensor_floordiv", floor_divide)
floor_mod = _binary("floor_mod", _as_int_for_bool(jnp.remainder), "FloorMod", (),
                    "``ops.floor_mod(x, y)``: Python's ``%`` (the result has the sign of ``y``).")
remainder = _binary("remainder", _as_int_for_bool(jnp.remainder), None, (),
                    "``ops.remainder(input, other)``: ``input - floor_divide(input, other) * other``.")
fmod = _binary("fmod", _as_int_for_bool(jnp.fmod), None, (),
               "``ops.fmod(input, other)``: C's ``fmod`` (the result has the sign of ``input``).")
pow = _binary("pow", _pow, "Pow", (), "``ops.pow(input, exponent)``.")
tensor_pow = _alias("tensor_pow", pow)
pows = _alias("pows", pow)
maximum = _binary("maximum", _nan_gradient(jnp.maximum, jnp.greater), "Maximum", "maximum",
                  "``ops.maximum(input, other)``; the gradient of a tie is split in halves, NaN gives it to both.")
minimum = _binary("minimum", _nan_gradient(jnp.minimum, jnp.less), "Minimum", "minimum",
                  "``ops.minimum(input, other)``; the gradient of a tie is split in halves, NaN gives it to both.")
atan2 = _binary("atan2", _atan2, "Atan2", ("atan2", "arctan2"), "``ops.atan2(input, other)``: float inputs only.")
arctan2 = _alias("arctan2", atan2)
bitwise_and = _binary("bitwise_and", _bitwise(jnp.bitwise_and), "BitwiseAnd", "bitwise_and")
bitwise_or = _binary("bitwise_or", _bitwise(jnp.bitwise_or), "BitwiseOr", "bitwise_or")
bitwise_xor = _binary("bitwise_xor", _bitwise(jnp.bitwise_xor), "BitwiseXor", "bitwise_xor")
gcd = _binary("gcd", _gcd, "Gcd", "gcd", "``ops.gcd(input, other)``: Int16/Int32/Int64 Tensors.", tensors_only=True)


@op("div", primitive="Div", methods=(), family="math")
def div(input, other, *, rounding_mode=None):
    """``ops.div(input, other, *, rounding_mode=None)``: true division (integers give Float32);
    ``'floor'`` and ``'trunc'`` round the quotient and keep integer dtypes."""
    if rounding_mode is not None and rounding_mode not in ("floor", "trunc"):
        raise ValueError("For ops.div, rounding_mode value should be None, 'floor' or 'trunc'.")
    x, y = _operands("div", input, other)
    if rounding_mode == "floor":
        return _out(_floor_div(x, y, "div"))
    if rounding_mode == "trunc":
        return _out(_trunc_div(x, y, "div"))
    return _out(_div_true(x, y, "div"))


divide = _alias("divide", div)


@op("true_divide", methods="true_divide", family="math")
def true_divide(dividend, divisor):
    """``ops.true_divide(dividend, divisor)``: ``ops.div`` without rounding."""
    x, y = _operands("true_divide", dividend, divisor)
    return _out(_div_true(x, y, "true_divide"))


@op("prim_realdiv", primitive="RealDiv", family="math")
def _prim_realdiv(x, y):
    """``RealDiv()(x, y)``: floats divide; integers divide with truncation and stay integers."""
    a, b = _operands("RealDiv", x, y)
    if jnp.issubdtype(_rtype(a, b), jnp.inexact):
        return _out(_binop("RealDiv", _truediv, a, b))
    return _out(_trunc_div(a, b, "RealDiv"))


tensor_div = _alias("tensor_div", _prim_realdiv)


@op("tensor_m_div", methods=("div", "divide"), family="math")
def _tensor_div(input, other, *, rounding_mode=None):
    """``Tensor.div(other, *, rounding_mode=None)``."""
    return div(input, other, rounding_mode=rounding_mode)


@op("float_power", methods="float_power", family="math")
def float_power(input, exponent):
    """``ops.float_power(input, exponent)``: computed in Float64 (Complex128 for complex inputs)."""
    if not (isinstance(input, Tensor) or isinstance(exponent, Tensor)):
        raise TypeError("At least one of the types of inputs must be tensor, but the type of 'input' got is "
                        f"{type(input)}, and the type of 'exponent' is {type(exponent)}.")
    for n, v in (("input", input), ("exponent", exponent)):
        if not isinstance(v, Tensor) and not _is_number(v):
            raise TypeError(f"The type of '{n}' must be Tensor or Number, but got {type(v)}.")
    vals = [arr(v) for v in (input, exponent)]
    cplx = _bi.any(jnp.issubdtype(v.dtype, jnp.complexfloating) for v in vals)
    t = jnp.complex128 if cplx else jnp.float64
    return wrap(jnp.power(*(v.astype(t) for v in vals)))


def _float_tensor_pair(name, input, other, in_msg="the input", other_msg="the other"):
    if not isinstance(input, Tensor):
        raise TypeError(f"For {name}, {in_msg} must be a Tensor, but got {type(input)}.")
    if not isinstance(other, Tensor):
        raise TypeError(f"For {name}, {other_msg} must be a Tensor, but got {type(other)}.")
    x, y = input._data, other._data
    if not (jnp.issubdtype(x.dtype, jnp.floating) and jnp.issubdtype(y.dtype, jnp.floating)):
        raise TypeError(f"For {name}, the dtype of 'input' and 'other' must be float,but got {_dn(x)} and {_dn(y)}.")
    return x, y


@op("logaddexp", methods="logaddexp", family="math")
def logaddexp(input, other):
    """``ops.logaddexp(input, other)``: ``log(exp(input) + exp(other))`` of float Tensors."""
    x, y = _float_tensor_pair("logaddexp", input, other)
    return wrap(_binop("logaddexp", jnp.logaddexp, x, y))


@op("logaddexp2", methods="logaddexp2", family="math")
def logaddexp2(input, other):
    """``ops.logaddexp2(input, other)``: ``log2(2**input + 2**other)`` of float Tensors."""
    x, y = _float_tensor_pair("logaddexp2", input, other, "input", "other")
    return wrap(_binop("logaddexp2", jnp.logaddexp2, x, y))


@op("lerp", primitive="Lerp", methods="lerp", family="math")
def lerp(input, end, weight):
    """``ops.lerp(input, end, weight)``: ``input + weight * (end - input)``; ``weight`` is a float or a Tensor."""
    _need_tensor("lerp", "input", input)
    _need_tensor("lerp", "end", end)
    if not isinstance(weight, (Tensor, float)):
        raise TypeError(f"Failed calling Lerp with \"Lerp()(input=Tensor, end=Tensor, "
                        f"weight={type(weight).__name__})\".")
    x, e = input._data, end._data
    w = weight._data if isinstance(weight, Tensor) else weight
    for v in (e,) + ((w,) if isinstance(weight, Tensor) else ()):
        if v.dtype != x.dtype:
            raise TypeError(f"For primitive[Lerp], the input[tensors] elements should have same type, but got: "
                            f"{_dn(x)}, {_dn(v)}.")
    if not _is_float(x):
        raise TypeError(f"For primitive[Lerp], the input must be a float Tensor, but got {_dn(x)}.")
    if not isinstance(weight, Tensor):
        w = jnp.asarray(w, x.dtype)
    return wrap(_binop("lerp", lambda a, b: a + w * (b - a), x, e))


def _scalar_value(name, v, dtype):
    if isinstance(v, Tensor):
        return v._data
    if not _is_number(v):
        raise TypeError(f"For '{name}', the 'value' must be a Tensor or a number, but got {type(v).__name__}.")
    return v


@op("addcdiv", primitive="Addcdiv", methods=(), family="math")
def addcdiv(input, tensor1, tensor2, value=1):
    """``ops.addcdiv(input, tensor1, tensor2, value=1)``: ``input + value * tensor1 / tensor2``."""
    for n, v in (("input", input), ("tensor1", tensor1), ("tensor2", tensor2)):
        _need_tensor("addcdiv", n, v)
    x, a, b = input._data, tensor1._data, tensor2._data
    v = _scalar_value("addcdiv", value, x.dtype)
    return _out(x + v * _truediv(a, b))


@op("addcmul", primitive="Addcmul", methods="addcmul", family="math")
def addcmul(input, tensor1, tensor2, value=1):
    """``ops.addcmul(input, tensor1, tensor2, value=1)``: ``input + value * tensor1 * tensor2``."""
    for n, v in (("input", input), ("tensor1", tensor1), ("tensor2", tensor2)):
        _need_tensor("addcmul", n, v)
    x, a, b = input._data, tensor1._data, tensor2._data
    v = _scalar_value("addcmul", value, x.dtype)
    if isinstance(v, (int, float)) and not isinstance(v, bool) and not _is_float(x) and isinstance(v, float):
        v = np.float32(v)
    return _out(x + v * (a * b))


def _tensor_addcdiv_kw(self, tensor1, tensor2, *, value=1):
    return addcdiv(self, tensor1, tensor2, value)


def _tensor_addcdiv_pos(self, tensor1, tensor2, value):
    return addcdiv(self, tensor1, tensor2, value)


_tensor_method("tensor_m_addcdiv", "addcdiv", _dispatch(
    "addcdiv", _tensor_addcdiv_kw, (_tensor_addcdiv_pos, lambda a: isinstance(a["value"], Tensor))),
    "``Tensor.addcdiv(tensor1, tensor2, *, value=1)`` (a Tensor ``value`` may be positional).")


@op("addn", primitive="AddN", family="math")
def addn(x):
    """``ops.addn(x)``: the sum of a list/tuple of Tensors of one dtype and shape."""
    if isinstance(x, Tensor):
        x = (x,)
    if not isinstance(x, (list, tuple)) or len(x) == 0:
        raise TypeError(f"For 'AddN', the input must be a non-empty list or tuple of Tensors, but got {x!r}.")
    arrays = []
    for t in x:
        _need_tensor("AddN", "x", t)
        arrays.append(t._data)
    d = arrays[0].dtype
    for a in arrays[1:]:
        if a.dtype != d:
            raise TypeError("For primitive[AddN], the input type must be same.")
        if a.shape != arrays[0].shape:
            raise ValueError(f"For primitive[AddN], the shapes of the inputs must be the same, but got "
                             f"{list(arrays[0].shape)} and {list(a.shape)}.")
    out = arrays[0]
    for a in arrays[1:]:
        out = out + a
    return wrap(out)


@op("subtract", family="math")
def subtract(input, other, *, alpha=1):
    """``ops.subtract(input, other, *, alpha=1)``: ``input - alpha * other``."""
    return sub(input, _times_alpha(other, alpha))


def _times_alpha(other, alpha):
    if alpha == 1:
        return other
    if _is_number(other) and _is_number(alpha):
        return other * alpha
    return mul(other, alpha)


def _tensor_pow(self, exponent):
    return pow(self, exponent)


_tensor_method("tensor_m_pow", "pow", _tensor_pow, "``Tensor.pow(exponent)``.")


def _tensor_remainder_other(self, other):
    return remainder(self, other)


def _tensor_remainder_divisor(self, divisor):
    return remainder(self, divisor)


_tensor_method("tensor_m_remainder", "remainder", _dispatch("remainder", _tensor_remainder_other,
                                                          _tensor_remainder_divisor),
               "``Tensor.remainder(other)`` (also ``divisor=``).")


def _tensor_fmod(self, other):
    return fmod(self, other)


_tensor_method("tensor_m_fmod", "fmod", _tensor_fmod, "``Tensor.fmod(other)``.")


# ---------------------------------------------------------------------------
# clamp
# ---------------------------------------------------------------------------

def _clamp_arrays(x, lo, hi):
    """``where``-based clamp: the gradient passes at the bounds (MindSpore), unlike ``jnp.clip``."""
    out = x
    if lo is not None:
        out = jnp.where(out < lo, lo, out)
    if hi is not None:
        out = jnp.where(out > hi, hi, out)
    return out


@op("clamp", methods=("clamp", "clip"), family="math")
def clamp(input, min=None, max=None):
    """``ops.clamp(input, min=None, max=None)``: bounds are numbers or Tensors (broadcast);
    an integer input with float bounds gives Float32; a bool input or bound is a ValueError."""
    _need_tensor("clamp", "input", input)
    if min is None and max is None:
        raise ValueError("For Clamp, at least one of 'min' or 'max' must not be None.")
    if any(isinstance(v, bool) or (isinstance(v, Tensor) and v.dtype == mstype.bool_) for v in (input, min, max)):
        raise ValueError("For Clamp, the dtype of 'input', 'min' and 'max' must not be bool.")
    for n, v in (("min", min), ("max", max)):
        if v is not None and not isinstance(v, Tensor) and not _is_number(v):
            raise TypeError(f"For 'clamp', the '{n}' must be a Tensor, a number or None, but got {type(v).__name__}.")
    if _bi.any(isinstance(v, (bool, np.bool_)) or (isinstance(v, Tensor) and v._data.dtype == jnp.bool_)
               for v in (input, min, max)):
        raise ValueError("For Clamp, the dtype of 'input', 'min' and 'max' must not be bool.")
    x = input._data
    bounds = [b for b in (min, max) if b is not None]
    t = jnp.result_type(x, *[b._data if isinstance(b, Tensor) else
                             (np.float32(b) if isinstance(b, float) and not _is_float(x) else b) for b in bounds])
    x = x.astype(t)
    lo = None if min is None else (min._data.astype(t) if isinstance(min, Tensor) else jnp.asarray(min, t))
    hi = None if max is None else (max._data.astype(t) if isinstance(max, Tensor) else jnp.asarray(max, t))
    try:
        return wrap(_clamp_arrays(x, lo, hi))
    except (TypeError, ValueError) as e:
        if "ncompatible shapes" in str(e):
            raise ValueError(f"For 'clamp', the shapes of 'input', 'min' and 'max' must broadcast, but got "
                             f"{list(x.shape)}, {None if lo is None else list(lo.shape)} and "
                             f"{None if hi is None else list(hi.shape)}.") from None
        raise


clip = _alias("clip", clamp)


@op("clip_by_value", family="math")
def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """``ops.clip_by_value(x, clip_value_min=None, clip_value_max=None)``: ``x`` is a Tensor or a
    list/tuple of Tensors; the bounds are cast to each Tensor's dtype."""
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("For 'clip_by_value', at least one of 'clip_value_min' or 'clip_value_max' must not be None")
    if not isinstance(x, (Tensor, tuple, list)):
        raise TypeError("For 'clip_by_value', the type of argument 'x' must be Tensor or tuple[Tensor] or list[Tensor]")
    for n, v in (("clip_value_min", clip_value_min), ("clip_value_max", clip_value_max)):
        if not isinstance(v, (type(None), Tensor, float, int)):
            raise TypeError(f"For 'clip_by_value', the type of argument '{n}' must be not one of None, Tensor, "
                            "float, int")

    def one(t):
        if not isinstance(t, Tensor):
            raise TypeError("For 'clip_by_value', the type of argument 'x' must be Tensor or tuple[Tensor] or "
                            "list[Tensor]")
        a = t._data
        lo = None if clip_value_min is None else arr(clip_value_min).astype(a.dtype)
        hi = None if clip_value_max is None else arr(clip_value_max).astype(a.dtype)
        out = a
        if lo is not None:
            out = jnp.maximum(out, lo)
        if hi is not None:
            out = jnp.minimum(out, hi)
        return wrap(out)

    if isinstance(x, Tensor):
        return one(x)
    return tuple(one(t) for t in x)


# ---------------------------------------------------------------------------
# complex parts
# ---------------------------------------------------------------------------
def _part(name, input):
    if not isinstance(input, Tensor):
        got = {bool: "Bool", int: "Int64", float: "Float32"}.get(type(input), type(input).__name__)
        raise TypeError(f"For Primitive[{name}], the type of input argument[input] must be Tensor but got {got}.")
    return input._data


@jax.custom_vjp
def _imag(x):
    return jnp.imag(x)


def _imag_bwd(_, g):
    # MindSpore's Imag backward: Complex(0, dout) (JAX's own rule gives its conjugate, -1j * dout)
    return (lax.complex(jnp.zeros_like(g), g),)


_imag.defvjp(lambda x: (jnp.imag(x), None), _imag_bwd)


@op("imag", methods="imag", primitive="Imag", family="math")
def imag(input):
    """``ops.imag(input)``: the imaginary part of a complex Tensor (Float32 for Complex64, Float64 for
    Complex128); zeros of the input's dtype for a real one. Its gradient is MindSpore's, ``1j * dout``."""
    x = _part("Imag", input)
    if not jnp.iscomplexobj(x):
        return wrap(jnp.zeros_like(x))
    return wrap(jnp.imag(x) if state.FORWARD_MODE[0] else _imag(x))   # forward mode: JAX's rule


@op("real", methods="real", primitive="Real", family="math")
def real(input):
    """``ops.real(input)``: the real part of a complex Tensor; a real Tensor unchanged."""
    x = _part("Real", input)
    return wrap(jnp.real(x) if jnp.iscomplexobj(x) else x)


@op("view_as_real", family="math")
def view_as_real(input):
    """``ops.view_as_real(input)``: a complex Tensor as real pairs on a new last axis (Float32 for
    Complex64, Float64 for Complex128). A copy: XLA has no views."""
    if not isinstance(input, Tensor):
        raise TypeError("The input must be Tensor!")
    x = input._data
    if not jnp.iscomplexobj(x):
        raise TypeError("For view_as_real, the dtype of input Tensor must be complex.")
    return wrap(jnp.stack([jnp.real(x), jnp.imag(x)], axis=-1))


# ---------------------------------------------------------------------------
# DivNoNan, MulNoNan, Mod, hypot, heaviside, lcm, logit, nan_to_num
# ---------------------------------------------------------------------------

def _type_error(prim, arg, allowed, x):
    names = ", ".join(f"Tensor[{a}]" for a in allowed)
    raise TypeError(f"For primitive[{prim}], the input argument[{arg}] must be a type of {{{names}}}, "
                    f"but got Tensor[{_dn(x)}].")


def _only(prim, allowed, compute):
    def checked(x, y, name):
        for argname, a in (("x1", x), ("x2", y)):
            if hasattr(a, "dtype") and not getattr(a, "weak_type", False) and _dn(jnp.asarray(a)) not in allowed:
                _type_error(prim, argname, allowed, jnp.asarray(a))
        return compute(x, y, name)
    return checked


def _div_no_nan(x, y, name):
    t = _rtype(x, y)
    if not jnp.issubdtype(t, jnp.inexact):
        raise TypeError(f"Select CPU operator[DivNoNan] fail! Unsupported data type! The supported data types are "
                        f"Float16, Float32, Float64, Complex64, Complex128, but get input[{_dn(jnp.zeros((), t))}].")
    x, y = jnp.asarray(x, t), jnp.asarray(y, t)
    zero = y == 0
    return _binop(name, lambda a, b: jnp.where(zero, jnp.zeros((), t), a / jnp.where(zero, jnp.ones((), t), b)), x, y)


@jax.custom_vjp
def _mul_no_nan_k(x, y):
    return jnp.where(y == 0, jnp.zeros((), x.dtype), x * y)


def _mnn_fwd(x, y):
    return _mul_no_nan_k(x, y), (x, y)


def _unbroadcast(g, shape):
    while g.ndim > len(shape):
        g = g.sum(0)
    return g.sum(tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1), keepdims=True).reshape(shape)


def _mnn_bwd(res, g):
    x, y = res
    gx = jnp.where(y == 0, jnp.zeros((), g.dtype), g * y)     # MindSpore: mul_no_nan(dout, y)
    gy = jnp.where(g == 0, jnp.zeros((), g.dtype), x * g)     # mul_no_nan(x, dout)
    return _unbroadcast(gx, x.shape), _unbroadcast(gy, y.shape)


_mul_no_nan_k.defvjp(_mnn_fwd, _mnn_bwd)


def _mul_no_nan(x, y, name):
    t = _rtype(x, y)
    x, y = jnp.asarray(x, t), jnp.asarray(y, t)
    x, y = _binop(name, jnp.broadcast_arrays, x, y)
    return _mul_no_nan_k(x, y)


def _lcm(x, y, name):
    return _binop(name, jnp.lcm, x, y)


def _heaviside(x, y, name):
    return _binop(name, lambda a, v: jnp.where(a == 0, v, (a > 0).astype(_rtype(a, v))), x, y)


div_no_nan = _binary("prim_div_no_nan", _div_no_nan, "DivNoNan", (),
                     "``ops.DivNoNan()(x, y)``: ``x / y``, 0 where ``y == 0`` (float Tensors).")
mul_no_nan = _binary("prim_mul_no_nan", _mul_no_nan, "MulNoNan", (),
                     "``ops.MulNoNan()(x, y)``: ``x * y``, 0 where ``y == 0`` (even if ``x`` is inf or nan).")
mod = _binary("prim_mod", lambda x, y, name: _binop(name, jnp.fmod, x, y), "Mod", (),
              "``ops.Mod()(x, y)``: C's ``fmod`` (the result has the sign of ``x``).")
hypot = _binary("hypot", _only("Hypot", ("Float32", "Float64"), lambda x, y, name: _binop(name, jnp.hypot, x, y)),
                "Hypot", "hypot", "``ops.hypot(input, other)``: ``sqrt(input**2 + other**2)`` (Float32/Float64).")
heaviside = _binary("heaviside", _heaviside, "Heaviside", "heaviside",
                    "``ops.heaviside(input, values)``: 0 below 0, 1 above, ``values`` at 0.")
lcm = _binary("lcm", _only("Lcm", ("Int32", "Int64"), _lcm), "Lcm", "lcm",
              "``ops.lcm(input, other)``: Int32/Int64 Tensors.")


@op("logit", primitive="Logit", prim_args=("eps",), methods="logit", family="math")
def logit(input, eps=None):
    """``ops.logit(input, eps=None)``: ``log(x / (1 - x))``, ``x`` clipped to ``[eps, 1 - eps]`` when
    ``eps`` is given (a negative ``eps``, the Primitive's default -1.0, means no clipping)."""
    _need_tensor("logit", "input", input)
    x = input._data
    _float_input("logit", x)
    if eps is not None and eps >= 0:
        x = jnp.clip(x, jnp.asarray(eps, x.dtype), jnp.asarray(1 - eps, x.dtype))
    return _out(jnp.log(x / (1 - x)))


@op("nan_to_num", primitive="NanToNum", prim_args=("nan", "posinf", "neginf"), methods="nan_to_num",
    family="math")
def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """``ops.nan_to_num(input, nan=0.0, posinf=None, neginf=None)``: inf/-inf default to the dtype's
    largest/lowest finite value."""
    _need_tensor("nan_to_num", "input", input)
    x = input._data
    _float_input("nan_to_num", x)
    return _out(jnp.nan_to_num(x, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf))


# ---------------------------------------------------------------------------
# xlogy, xdivy, copysign, ldexp, nextafter, sinc, deg2rad/rad2deg, sgn, signbit, positive, fmax/fmin
# ---------------------------------------------------------------------------

def _float_only(name, x, what="x"):
    if x.dtype not in (jnp.float16, jnp.float32, jnp.float64):
        raise TypeError(f"For '{name}', the '{what}' must be a Float16, Float32 or Float64 Tensor, but got "
                        f"{_dn(x)}.")


def _to_float(x):
    return x if _is_float(x) else x.astype(jnp.float32)


@op("xlogy", methods="xlogy", primitive="Xlogy", family="math")
def xlogy(input, other):
    """``ops.xlogy(input, other)``: ``input * log(other)`` (MindSpore's CPU kernel: ``0 * log(0)`` is NaN)."""
    x, y = operand_pair(input, other)
    r = jnp.asarray(x) * jnp.log(_to_float(jnp.asarray(y)))
    _float_input("xlogy", r)
    if not (_is_float(jnp.asarray(x)) or _is_float(jnp.asarray(y))):
        raise TypeError("For 'xlogy', integer inputs are not supported (MindSpore's CPU kernel has none).")
    return _out(r)


@op("xdivy", methods="xdivy", primitive="Xdivy", family="math")
def xdivy(x, y):
    """``ops.xdivy(x, y)``: ``x / y``, 0 where ``x`` is 0."""
    a, b = operand_pair(x, y)
    a, b = jnp.asarray(a), jnp.asarray(b)
    if not _is_float(a):
        raise TypeError("For primitive[Xdivy], the input argument[x] must be a type of {Tensor[Complex128], "
                        "Tensor[Complex64], Tensor[Float16], Tensor[Float32], Tensor[Float64]}, but got "
                        f"Tensor[{_dn(a)}].")
    safe = jnp.where(a == 0, jnp.ones_like(b), b)
    return _out(jnp.where(a == 0, jnp.zeros_like(a / safe), a / safe))


@op("copysign", methods="copysign", family="math")
def copysign(x, other):
    """``ops.copysign(x, other)``: ``|x|`` with the sign of ``other``; integers become Float32."""
    a, b = operand_pair(x, other)
    return _out(jnp.copysign(_to_float(jnp.asarray(a)), jnp.asarray(b)))


@op("ldexp", methods="ldexp", family="math")
def ldexp(x, other):
    """``ops.ldexp(x, other)``: ``x * 2 ** other``; integers become Float32."""
    a, b = operand_pair(x, other)
    a = _to_float(jnp.asarray(a))
    return _out(a * jnp.exp2(jnp.asarray(b).astype(a.dtype)))


@op("nextafter", methods="nextafter", primitive="NextAfter", family="math")
def nextafter(input, other):
    """``ops.nextafter(input, other)``: the next representable value after ``input`` towards ``other``.
    Gradient as MindSpore's: ``dout`` for ``input``, 0 for ``other``."""
    a, b = operand_pair(input, other)
    a, b = jnp.broadcast_arrays(jnp.asarray(a), jnp.asarray(b))
    return _out(_nextafter(a, b))


@jax.custom_jvp
def _nextafter(a, b):
    return jnp.nextafter(a, b)


@_nextafter.defjvp
def _nextafter_jvp(primals, tangents):
    return _nextafter(*primals), tangents[0]


@op("sinc", methods="sinc", family="math")
def sinc(input):
    """``ops.sinc(input)``: ``sin(pi x) / (pi x)``, 1 at 0; integers become Float32."""
    return _out(jnp.sinc(_to_float(arr(input))))


def _angle_conv(name, factor):
    def fn(x):
        a = arr(x)
        if a.dtype not in (jnp.float16, jnp.float32, jnp.float64):
            raise TypeError(f"The 'x' should be one of [mindspore.float16, mindspore.float32, mindspore.float64], "
                            f"but got 'mindspore.{str(mstype.from_np(a.dtype)).lower()}'.")
        return wrap(a * jnp.asarray(factor, a.dtype))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``ops.{name}(x)``, float inputs only."
    return op(name, methods=name, family="math")(fn)


deg2rad = _angle_conv("deg2rad", np.pi / 180)
rad2deg = _angle_conv("rad2deg", 180 / np.pi)


@op("sgn", methods="sgn", family="math")
def sgn(x):
    """``ops.sgn(x)``: ``sign`` for real inputs, ``x / |x|`` (0 at 0) for complex ones."""
    a = arr(x)
    if jnp.issubdtype(a.dtype, jnp.complexfloating):
        m = jnp.abs(a)
        return wrap(jnp.where(m == 0, jnp.zeros_like(a), a / jnp.where(m == 0, 1, m).astype(a.dtype)))
    return wrap(jnp.sign(a))


@op("signbit", methods="signbit", family="math")
def signbit(input):
    """``ops.signbit(input)``: True where ``input < 0`` (MindSpore's CPU kernel: -0.0 gives False)."""
    x = arr(input)
    return wrap(x < 0 if x.dtype != jnp.bool_ else jnp.zeros(x.shape, jnp.bool_))


@op("positive", methods="positive", family="math")
def positive(input):
    """``ops.positive(input)``: the input."""
    return wrap(arr(input))


def _nan_pick(name, jfn):
    def fn(input, other):
        a, b = operand_pair(input, other)
        return _out(jfn(jnp.asarray(a), jnp.asarray(b)))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``ops.{name}(input, other)``: elementwise, a NaN loses to a number."
    return op(name, methods=name, family="math")(fn)


def _fmax(a, b):
    # a NaN loses; at ties the gradient goes to the first input (MindSpore's FmaxGrad)
    return jnp.where((a >= b) | jnp.isnan(b), a, b)


def _fmin(a, b):
    return jnp.where((a <= b) | jnp.isnan(b), a, b)


fmax = _nan_pick("fmax", _fmax)
fmin = _nan_pick("fmin", _fmin)


# ---------------------------------------------------------------------------
# Invert, shifts, Complex/ComplexAbs/conj/angle
# ---------------------------------------------------------------------------

@op("prim_invert", primitive="Invert", methods="invert", family="array")
def invert(x):
    """``ops.Invert()(x)``: bitwise NOT of an integer Tensor."""
    a = arr(x)
    if not jnp.issubdtype(a.dtype, jnp.integer):
        raise TypeError(f"For 'Invert', the 'x' must be an integer Tensor, but got {mstype.from_np(a.dtype)}.")
    return wrap(jnp.invert(a))


def _tensor_bitwise_not(self):
    return wrap(jnp.logical_not(self._data)) if self._data.dtype == jnp.bool_ else invert(self)


_tensor_method("tensor_m_bitwise_not", "bitwise_not", _tensor_bitwise_not,
               "``Tensor.bitwise_not()``: ``~self`` of an integer Tensor, logical not of a Bool one (``mint.bitwise_not``; "
               "MindSpore 2.10's CPU build has no BitwiseNot kernel).")


left_shift = _binary("bitwise_left_shift", _bitwise(jnp.left_shift), "LeftShift", "bitwise_left_shift",
                     "``ops.bitwise_left_shift(input, other)``: ``input << other``.")
right_shift = _binary("bitwise_right_shift", _bitwise(jnp.right_shift), "RightShift", "bitwise_right_shift",
                      "``ops.bitwise_right_shift(input, other)``: arithmetic ``input >> other``.")


@op("prim_complex", primitive="Complex", family="array")
def complex_(real, imag):
    """``ops.Complex()(real, imag)``: Complex64 from Float32 parts (Complex128 from Float64)."""
    r, i = arr(real), arr(imag)
    return _out(_binop("Complex", jax.lax.complex, r, i))


@op("prim_complex_abs", primitive="ComplexAbs", family="array")
def complex_abs(x):
    """``ops.ComplexAbs()(x)``: ``|x|`` of a complex Tensor, as its real dtype."""
    return wrap(jnp.abs(arr(x)))


@op("conj", primitive="Conj", methods="conj", family="array")
def conj(input):
    """``ops.conj(input)``: complex conjugate (real Tensors are returned unchanged)."""
    _need_tensor("conj", "input", input)
    return wrap(jnp.conj(input._data) if jnp.iscomplexobj(input._data) else input._data)


@jax.custom_vjp
def _angle(x):
    return jnp.angle(x)


def _angle_bwd(x, g):
    # MindSpore's Angle backward: -dout / (imag(x) + 1j real(x)) (JAX's own rule gives its conjugate)
    return (-lax.complex(g, jnp.zeros_like(g)) / lax.complex(jnp.imag(x), jnp.real(x)),)


_angle.defvjp(lambda x: (jnp.angle(x), x), _angle_bwd)


@op("angle", primitive="Angle", methods="angle", family="array")
def angle(input):
    """``ops.angle(input)``: the argument of a complex Tensor (a real one raises MindSpore's TypeError); its
    gradient is MindSpore's, ``-dout / (imag(x) + 1j real(x))``."""
    _need_tensor("angle", "input", input)
    x = input._data
    if not jnp.iscomplexobj(x):
        raise TypeError(f"Select CPU operator[Angle] fail! Unsupported data type! The supported data types are "
                        f"input[Complex64], output[Float32]; input[Complex128], output[Float64]; , but get "
                        f"input[{mstype.from_np(x.dtype)} ]")
    return wrap(jnp.angle(x) if state.FORWARD_MODE[0] else _angle(x))


# ---------------------------------------------------------------------------
# exp2, polar
# ---------------------------------------------------------------------------

@op("exp2", family="math")
def exp2(input):
    """``ops.exp2(input)``: ``2 ** input``; integer and bool inputs give Float32."""
    x = _need_tensor("exp2", "input", input)._data
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        x = x.astype(jnp.float32)
    return wrap(jnp.exp2(x))


@op("polar", family="math")
def polar(abs, angle):  # noqa: A002  (MindSpore's argument name)
    """``ops.polar(abs, angle)``: the complex Tensor ``abs * (cos(angle) + i sin(angle))``
    (Complex64 from Float32, Complex128 from Float64)."""
    a, t = _need_tensor("polar", "abs", abs)._data, _need_tensor("polar", "angle", angle)._data
    if a.dtype != t.dtype or a.dtype not in (jnp.float32, jnp.float64):
        raise TypeError(f"For 'polar', 'abs' and 'angle' must both be Float32 or both Float64, but got "
                        f"{mstype.from_np(a.dtype)} and {mstype.from_np(t.dtype)}.")
    return wrap(lax.complex(a * jnp.cos(t), a * jnp.sin(t)))


provided.provide("int_pow", _int_pow)   # Tensor ``**`` of integers (msjax/_core/tensor.py)
