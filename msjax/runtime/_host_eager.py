"""First PyNative calls of exact primitives, evaluated on the host instead of compiled.

Every op called eagerly makes JAX compile an XLA program the first time it meets a
shape and dtype (30-70 ms on CPU), even when the program is one ``add``. This module
hooks JAX's one place that compiles an eagerly called program
(``jax._src.pjit._pjit_call_impl_python``: both a primitive bound outside any trace
and a ``jax.jit`` function's cache miss go through it) and, for a program made only
of the primitives below, evaluates it with NumPy for its first ``THRESHOLD`` calls and
after them while its host calls have taken less than ``HOST_BUDGET_MS`` in all (a compile
costs 25-150 ms: a cheap program met now and then, such as a mean's division on a shape
seen before, stays on the host, a loop's op compiles after a few milliseconds); the next
call compiles it as before, so a loop's warm calls run XLA's executable at today's speed.

The routed primitives are those whose result XLA CPU computes exactly (IEEE
correctly rounded or no rounding at all): layout (broadcast, reshape, squeeze,
transpose, rev, slice, dynamic_slice, concatenate, split, iota, copy), comparisons,
select, bitwise/logical ops and shifts, neg/abs/sign/floor/ceil/round/is_finite, max/min,
conversions, argmax/argmin, integer and bool reductions (sum, max, min, any, all), float
max/min reductions, and
add/sub/mul/div/sqrt/square/integer_pow (rem on integers; float div only by a
program input: IEEE by one of the result's shape, by its reciprocal for a broadcast one,
see ``_division``). Float32 exp/log/logistic/tanh
(XLA's own polynomial approximations, replayed by ``_host_math``; alone in their program)
and sin/cos/pow (the C library's functions, which XLA calls per element) count as the
program's one rounding operation, with no constant operand in the program. The NumPy versions
follow XLA CPU's semantics, measured against the compiled programs
(``tests/test_host_eager.py`` asserts bit equality on every one, every dtype):

* XLA CPU runs with denormals flushed (FTZ and DAZ) for float32/float64/bfloat16:
  a denormal operand counts as a zero of its sign, a denormal result becomes one;
  float16 is computed in float32 and keeps its denormals;
* max/min propagate NaN and order -0.0 below +0.0;
* float to integer saturates, NaN gives 0; integer division by zero gives -1
  (all ones), remainder by zero the dividend, ``MIN / -1`` wraps; shifts by the
  width or more give 0 (arithmetic right shift: the sign);
* sign(-0.0) is -0.0, round half away from zero keeps the sign of zero.

A program with more than one rounding float operation (an ``add`` after a ``mul``
could be fused into an FMA; chained float16 ops may be kept in float32) is compiled,
as are conversions from float64 to the 16-bit floats (XLA may round twice), select
on an integer index, pad/gather/scatter/sort/dot and the other transcendental functions
and dtypes, float sums (but float32/float64 ones over at most 32 elements,
``_float_sum_rule``), a float max/min reduction over a slice whose
extreme is a tie of +0.0 and -0.0 (XLA gives either by the program around it; refused per
call), float rem. Only programs on
the default CPU device with plain inputs (uncommitted single-device arrays, NumPy
values, Python scalars; up to ``MAX_ELEMENTS`` each) and no shardings, layouts,
donation or effects are routed; everything else compiles.
An FFI call whose target has a host twin in ``KERNELS`` (``msjax_matmul``: ``nn.Dense``'s
oneDNN product, lent by ``ops._native``: the same C++ plan and primitive on the host buffers,
run with the denormals flushed as XLA runs it) is routed too.
A jitted program whose name is in ``COMPOSITIONS`` (lent by ``ops``: MindSpore's CPU kernels'
float32 arithmetic, ``cpu_kernel_math``/``softmax_order``/``reduce_order``) is evaluated equation by
equation without the one-rounding budget: its owner keeps XLA from rounding it otherwise (no float32
multiply feeding an add, divisions by a divisor of the result's shape) and tests the bits compiled.
``MSJAX_HOST_EAGER=0`` turns this off.
"""
from __future__ import annotations

import math
import operator
import inspect
import os
import time
import weakref

import jax
import ml_dtypes
import numpy as np

from .._core import provided
from . import _eager_buckets, _host_math, _interrupt, _ir_context, _stepwise

__all__ = ["COMPOSITIONS", "HOST_BUDGET_MS", "THRESHOLD", "convertible", "enabled", "install", "stats"]

THRESHOLD = 3        # host evaluations of one program before its next call may compile it
HOST_BUDGET_MS = 10.0    # ... and the host time it may spend in all before that call compiles it
MAX_ELEMENTS = 1 << 22   # larger operands or results: XLA's threads win at once, compile
_ON = True
_STATS = {"host": 0, "compiled": 0, "loaded": 0, "stored": 0, "stepwise": 0, "stepwise_plans": 0, "bucketed": 0,
          "last_refusal": None}
BUCKETS = [True]     # new shapes of programs the host cannot run use a shape bucket's executable (_eager_buckets)
MAX_BUCKETS = 1024   # bucket executables kept in memory (oldest dropped first)
STORE = [None]       # common._eager_store puts itself here: compiled programs kept across processes
KERNELS = {}         # FFI target name -> its host twin, lent by the layer that owns the target (ops._native)
# names of jitted functions whose compiled program rounds as its equations one by one (no float32
# multiply feeding an add that XLA could contract, no reassociation; its owner tests the bits compiled
# and on the host), lent by ops (``cpu_kernel_math``, ``softmax_order``, ``reduce_order``): their
# equations are evaluated on the host without the one-rounding budget, as op by op they were
COMPOSITIONS = set()
# names of jitted programs run equation by equation when small (``_stepwise``): the core's PyNative
# gradient programs
STEPWISE = {"msjax_pynative_grad"}   # the name StatefulFunction._build gives a PyNative gradient program
_BF16 = np.dtype(ml_dtypes.bfloat16)
_F16 = np.dtype(np.float16)
_FLUSHED = {np.dtype(np.float32): np.uint32, np.dtype(np.float64): np.uint64, _BF16: np.uint16}


def enabled(flag=None):
    """Read or set whether first calls of exact programs run on the host."""
    global _ON
    if flag is not None:
        _ON = bool(flag)
    return _ON


def stats():
    """Counts of programs run on the host and of those handed to the compiler."""
    return dict(_STATS)


# ---------------------------------------------------------------------------
# XLA CPU's float environment: denormals flushed (DAZ on operands, FTZ on results)
# ---------------------------------------------------------------------------
def _masks(dt):
    bits = dt.itemsize * 8
    mant = np.finfo(dt).nmant if dt != _BF16 else 7
    u = _FLUSHED[dt]
    return u, u(1 << (bits - 1)), u(((1 << (bits - 1 - mant)) - 1) << mant)


_MASKS = {dt: _masks(dt) for dt in _FLUSHED}


_TINY = {dt: float(np.finfo(dt).tiny) for dt in (np.dtype(np.float32), np.dtype(np.float64))}
SMALL_FLUSH = 32     # up to this many float32/float64 elements, _flush looks for a denormal in Python first


def _flush(x):
    """A denormal float32/float64/bfloat16 becomes a zero of its sign (a new array). A small
    float32/float64 operand without a denormal is copied as it is: a Python scan of its values costs a
    fifth of the masked rewrite's four NumPy calls (the warm calls of ``_stepwise`` programs)."""
    m = _MASKS.get(x.dtype)
    if m is None:
        return x
    tiny = _TINY.get(x.dtype)
    if tiny is not None and x.size <= SMALL_FLUSH:
        for v in np.ravel(x).tolist():
            if 0.0 < abs(v) < tiny:
                break
        else:
            return np.array(x)
    u, sign, expo = m
    b = np.asarray(x).view(u)
    return np.where(b & expo == 0, b & sign, b).view(x.dtype)


def _float(x):
    return x.dtype.kind == "f" or x.dtype == _BF16


def _arith(fn):
    """An IEEE operation as the CPU runs it for XLA: operands and result flushed."""
    def run(*xs, **_):
        with np.errstate(all="ignore"):
            return _flush(fn(*map(_flush, xs)))
    return run


def _exact(fn):
    """An operation on flushed operands whose result needs no flushing."""
    def run(*xs, **_):
        with np.errstate(all="ignore"):
            return fn(*map(_flush, xs))
    return run


def _plain(fn):
    def run(*xs, **_):
        with np.errstate(all="ignore"):
            return fn(*xs)
    return run


# ---------------------------------------------------------------------------
# XLA's semantics where NumPy's differ
# ---------------------------------------------------------------------------
def _int_info(dt):
    return np.iinfo(dt) if dt.kind in "iu" else None


def _div(x, y):
    if _float(x):
        return x / y
    info = _int_info(x.dtype)
    zero = y == 0
    safe = np.where(zero, 1, y).astype(y.dtype)
    if info.min < 0:
        safe = np.where((x == info.min) & (safe == -1), 1, safe).astype(y.dtype)
    q = x // safe
    q = np.where((q * safe != x) & ((x < 0) != (safe < 0)), q + 1, q).astype(x.dtype)
    return np.where(zero, x.dtype.type(-1) if info.min < 0 else x.dtype.type(info.max), q)


def _rem(x, y):
    if _float(x):
        return np.fmod(x, y)
    return np.where(y == 0, x, x - _div(x, y) * np.where(y == 0, 1, y).astype(y.dtype)).astype(x.dtype)


def _maxmin(pick, zero_neg):
    def run(x, y):
        r = pick(x, y)
        if not _float(x):
            return r
        both = (x == 0) & (y == 0)
        if not both.any():
            return r
        neg = zero_neg(np.signbit(x), np.signbit(y))
        return np.where(both, np.where(neg, x.dtype.type(-0.0), x.dtype.type(0.0)), r)
    return run


def _sign(x):
    if x.dtype.kind == "u":
        return (x != 0).astype(x.dtype)
    if not _float(x):
        return np.sign(x)
    one = np.where(np.signbit(x), x.dtype.type(-1), x.dtype.type(1))
    return np.where((x == 0) | np.isnan(x), x, one).astype(x.dtype)


def _round(x, rounding_method):
    if int(rounding_method) == 1:          # to nearest even
        return np.rint(x)
    t = np.trunc(x)
    up = np.abs(x - t) >= x.dtype.type(0.5)
    r = np.where(up, t + np.where(np.signbit(x), x.dtype.type(-1), x.dtype.type(1)), t)
    return np.where(np.isfinite(x), np.copysign(r, x), x).astype(x.dtype)


def _convert(x, new_dtype, **_):
    dt = np.dtype(new_dtype)
    src = x.dtype
    if dt == src:
        return x
    if dt == np.bool_:
        return x != 0
    if _float(x):
        info = _int_info(dt)
        if info is None:
            return x.astype(dt)
        t = np.trunc(x)
        hi = t >= np.float64(info.max) + 1 if info.bits < 64 else t >= 2.0 ** (64 if info.min == 0 else 63)
        lo = (t < 0) if info.min == 0 else (t < np.float64(info.min))
        bad = hi | lo | np.isnan(t)
        out = np.where(bad, 0, t).astype(dt)
        return np.where(hi, dt.type(info.max), np.where(lo, dt.type(info.min), out))
    return x.astype(dt)


def convertible(src, dt):
    """Whether a conversion from ``src`` to ``dt`` is routed to the host."""
    src, dt = np.dtype(src), np.dtype(dt)
    if src.kind == "c" or dt.kind == "c":
        return False
    if dt in (_F16, _BF16) and src == np.float64:
        return False                     # XLA may round through float32 first
    return True


_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


def _convert_run(x, new_dtype, **_):
    """The CPU's conversions: float32/float64 operands flushed (float32 to bfloat16 is
    XLA's own rounding, without; bfloat16 to float64 goes through float32, with),
    float64 to float32 results flushed."""
    dt = np.dtype(new_dtype)
    with np.errstate(all="ignore"):
        src = x.dtype
        if src in (_F32, _F64) and dt != _BF16 or src == _BF16 and dt == _F64:
            x = _flush(x)
        out = _convert(x, dt)
        return _flush(out) if src == _F64 and dt == _F32 else out


def _shift(kind):
    def run(x, s):
        bits = x.dtype.itemsize * 8
        u = np.dtype(f"u{x.dtype.itemsize}")
        i = np.dtype(f"i{x.dtype.itemsize}")
        amount = s.astype(u)
        oob = amount >= bits
        amount = np.where(oob, 0, amount).astype(u)
        if kind == "left":
            r = (x.astype(u) << amount).astype(x.dtype)
            return np.where(oob, x.dtype.type(0), r)
        if kind == "logical":
            r = (x.view(u) >> amount).view(x.dtype)
            return np.where(oob, x.dtype.type(0), r)
        xs = x.view(i)
        r = (xs >> amount.astype(i)).view(x.dtype)
        fill = np.where(xs < 0, i.type(-1), i.type(0)).view(x.dtype)
        return np.where(oob, fill, r)
    return run


def _integer_pow(x, y):
    if y == 0:
        return np.ones_like(x)
    if y == 1:
        return x
    if y == 2:
        return x * x
    if y == 3:
        return x * x * x
    if y == -1:
        return x.dtype.type(1) / x
    acc, base, n = None, x, abs(y)
    while n > 0:                           # JAX's order of multiplications
        if n & 1:
            acc = base if acc is None else acc * base
        n >>= 1
        if n > 0:
            base = base * base
    return x.dtype.type(1) / acc if y < 0 else acc


def _select_n(which, *cases):
    return np.where(which, cases[1], cases[0]) if len(cases) == 2 else cases[0]


def _broadcast_in_dim(x, shape, broadcast_dimensions, **_):
    dims = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        dims[d] = x.shape[i]
    return np.broadcast_to(x.reshape(dims), shape)


def _iota(dtype, shape, dimension, **_):
    r = np.arange(shape[dimension], dtype=np.dtype(dtype))
    dims = [1] * len(shape)
    dims[dimension] = shape[dimension]
    return np.broadcast_to(r.reshape(dims), shape)


def _slice(x, start_indices, limit_indices, strides):
    steps = strides or (1,) * x.ndim
    return x[tuple(slice(a, b, s) for a, b, s in zip(start_indices, limit_indices, steps))]


def _dynamic_slice(x, *starts, slice_sizes):
    idx = []
    for dim, size, s in zip(x.shape, slice_sizes, starts):
        s = int(min(max(int(s), 0), dim - size))       # XLA clamps the start
        idx.append(slice(s, s + size))
    return x[tuple(idx)]


def _argminmax(is_max):
    """The first index of the largest/smallest element, NaN counted as both."""
    def run(x, axes, index_dtype):
        x = _flush(x)
        (axis,) = axes
        r = (np.argmax if is_max else np.argmin)(x, axis=axis)
        return np.asarray(r).astype(index_dtype)
    return run


def _extreme(pick):
    """reduce_max / reduce_min. Floats: operands flushed, NaN propagates; where a slice's
    extreme is a zero and the slice holds zeros of both signs, XLA returns -0.0 or +0.0 by
    the program around the reduction, so such a call is left to XLA (refused: compiled)."""
    def run(x, axes, **_):
        axes = tuple(axes)
        if not _float(x):
            return pick(x, axis=axes)
        with np.errstate(all="ignore"):
            f = _flush(x)
            out = pick(f, axis=axes)
            zero = f == 0
            if (np.any(out == 0) and np.any((out == 0) & np.any(zero & np.signbit(f), axis=axes)
                                            & np.any(zero & ~np.signbit(f), axis=axes))):
                raise _NotExact("a tie of signed zeros")
        return out
    return run


def _split(x, sizes, axis):
    return np.split(x, np.cumsum(sizes)[:-1], axis=axis)


# name -> (NumPy rule, kind); kind "round": a rounding float op (at most one a program)
_RULES = {
    "add": (_arith(operator.add), "round"), "sub": (_arith(operator.sub), "round"),
    "mul": (_arith(operator.mul), "round"), "div": (_arith(_div), "round"),
    "rem": (_arith(_rem), "round"),     # integers only (XLA's fmod keeps some denormals)
    "sqrt": (_arith(np.sqrt), "round"),
    "square": (_arith(lambda x: x * x), "round"),
    "integer_pow": (lambda x, y: _arith(lambda v: _integer_pow(v, y))(x), "round"),
    "max": (_exact(_maxmin(np.maximum, operator.and_)), "exact"),
    "min": (_exact(_maxmin(np.minimum, operator.or_)), "exact"),
    "neg": (_plain(operator.neg), "exact"), "abs": (_plain(np.abs), "exact"),
    "sign": (_exact(_sign), "exact"), "floor": (_exact(np.floor), "exact"),
    "ceil": (_exact(np.ceil), "exact"),
    "round": (lambda x, rounding_method: _exact(lambda v: _round(v, rounding_method))(x), "exact"),
    "is_finite": (_plain(np.isfinite), "exact"),
    "eq": (_exact(operator.eq), "exact"), "ne": (_exact(operator.ne), "exact"),
    "lt": (_exact(operator.lt), "exact"), "le": (_exact(operator.le), "exact"),
    "gt": (_exact(operator.gt), "exact"), "ge": (_exact(operator.ge), "exact"),
    "and": (_plain(operator.and_), "exact"), "or": (_plain(operator.or_), "exact"),
    "xor": (_plain(operator.xor), "exact"), "not": (_plain(np.invert), "exact"),
    "shift_left": (_plain(_shift("left")), "exact"),
    "shift_right_logical": (_plain(_shift("logical")), "exact"),
    "shift_right_arithmetic": (_plain(_shift("arithmetic")), "exact"),
    "select_n": (_select_n, "exact"), "convert_element_type": (_convert_run, "exact"),
    "broadcast_in_dim": (_broadcast_in_dim, "exact"),
    "reshape": (lambda x, new_sizes, **_: x.reshape(new_sizes), "exact"),
    "squeeze": (lambda x, dimensions: x.reshape([d for i, d in enumerate(x.shape) if i not in dimensions]),
                "exact"),
    "transpose": (lambda x, permutation: np.transpose(x, permutation), "exact"),
    "rev": (lambda x, dimensions: np.flip(x, dimensions), "exact"),
    "concatenate": (lambda *xs, dimension: np.concatenate(xs, dimension), "exact"),
    "slice": (_slice, "exact"), "dynamic_slice": (_dynamic_slice, "exact"),
    "iota": (_iota, "exact"), "split": (_split, "exact"),
    "reduce_max": (_extreme(np.max), "exact"), "reduce_min": (_extreme(np.min), "exact"),
    "argmax": (_argminmax(True), "exact"), "argmin": (_argminmax(False), "exact"),
    "reduce_or": (lambda x, axes: np.bitwise_or.reduce(x, axis=tuple(axes)), "exact"),
    "reduce_and": (lambda x, axes: np.bitwise_and.reduce(x, axis=tuple(axes)), "exact"),
    "reduce_sum": (lambda x, axes, **_: np.sum(x, axis=tuple(axes), dtype=x.dtype), "exact"),
    # XLA's own float32 approximations replayed (_host_math; "math": alone in their program)
    # and the C library's functions XLA calls per element ("libm")
    "exp": (_host_math.exp, "math"), "logistic": (_host_math.logistic, "math"),
    "tanh": (_host_math.tanh, "math"), "log": (_host_math.log, "math"),
    "sin": (_host_math.sin, "libm"), "cos": (_host_math.cos, "libm"), "pow": (_host_math.power, "libm"),
    "copy": (lambda x: x, "exact"), "copy_p": (lambda x: x, "exact"),
    "optimization_barrier": (lambda *xs: list(xs), "exact"),     # an identity that XLA keeps unfused
    "bitcast_convert_type": (lambda x, new_dtype: x.view(np.dtype(new_dtype)), "exact"),     # same width only
}
_CALLS = {"pjit": "jaxpr", "jit": "jaxpr", "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr"}
_MATH = {"exp", "log", "logistic", "tanh", "sin", "cos", "pow"}
_INT_OR_FLOAT_ONLY = {"add", "sub", "mul", "div", "rem", "square", "integer_pow", "sign", "sqrt",
                      "floor", "ceil", "round", "is_finite", "neg", "abs", "max", "min"}


def _oversized_or_float0(variables):
    """Whether one of the equation's operands or results has more than ``MAX_ELEMENTS`` elements or
    is a float0 tangent."""
    for v in variables:
        a = v.aval
        if math.prod(a.shape) > MAX_ELEMENTS or a.dtype == jax.dtypes.float0:
            return True
    return False


_HOST_DTYPES = {}    # an aval's dtype -> its NumPy dtype where NumPy runs it, else None


def _host_dtype(dt):
    """``np.dtype(dt)``, or None for PRNG keys and other extended types, complex and void types
    (bfloat16 excepted); a memo, as the same few dtypes come with every equation."""
    try:
        return _HOST_DTYPES[dt]
    except (KeyError, TypeError):
        pass
    if jax.dtypes.issubdtype(dt, jax.dtypes.extended):
        d = None
    else:
        d = np.dtype(dt)
        d = None if d.kind == "c" or d.kind == "V" and d != _BF16 else d
    try:
        _HOST_DTYPES[dt] = d
    except TypeError:     # pragma: no cover - an unhashable dtype: not kept
        pass
    return d


def _routable_eqn(eqn):
    name = eqn.primitive.name
    dts = []
    for vs in (eqn.invars, eqn.outvars):
        for v in vs:
            dt = getattr(v.aval, "dtype", None)
            d = None if dt is None else _host_dtype(dt)
            if d is None:
                return None      # PRNG keys and other extended types, complex, tokens
            dts.append(d)
    if name in _INT_OR_FLOAT_ONLY and np.dtype(eqn.invars[0].aval.dtype) == np.bool_:
        return None
    if name == "convert_element_type" and (not convertible(eqn.invars[0].aval.dtype, eqn.params["new_dtype"])
                                           or eqn.params.get("sharding") is not None):
        return None
    if name in ("broadcast_in_dim", "iota", "reshape") and eqn.params.get("sharding") is not None:
        return None
    if name == "reduce_sum" and np.dtype(eqn.invars[0].aval.dtype).kind not in "iu":
        return _float_sum_rule(eqn)      # a float sum depends on the order of its additions
    if name in ("reduce_max", "reduce_min") and not _float_or_int(eqn.invars[0].aval.dtype):
        return None      # bool: XLA's or/and
    if name in ("reduce_max", "reduce_min", "argmax", "argmin", "reduce_or", "reduce_and") and \
            (0 in eqn.invars[0].aval.shape or eqn.params.get("out_sharding") is not None):
        return None
    if name == "reshape" and eqn.params.get("dimensions") is not None:
        return None
    if name == "bitcast_convert_type" and np.dtype(eqn.invars[0].aval.dtype).itemsize != \
            np.dtype(eqn.params["new_dtype"]).itemsize:
        return None
    if name == "select_n" and (len(eqn.invars) != 3 or np.dtype(eqn.invars[0].aval.dtype) != np.bool_):
        return None
    if name == "rem" and np.dtype(eqn.invars[0].aval.dtype).kind not in "iu":
        return None
    if name in ("sqrt", "div", "rem", "integer_pow", "square") and not _float_or_int(eqn.invars[0].aval.dtype):
        return None
    if name == "sqrt" and np.dtype(eqn.invars[0].aval.dtype).kind != "f" and \
            np.dtype(eqn.invars[0].aval.dtype) != _BF16:
        return None
    if name == "integer_pow" and np.dtype(eqn.invars[0].aval.dtype) in (_F16, _BF16) and \
            eqn.params["y"] not in (0, 1, 2, -1):
        return None
    if name == "ffi_call":
        return _kernel_rule(eqn)
    if name in _MATH and not (_host_math.available() and all(d == _F32 for d in dts)):
        return None
    rule = _RULES.get(name)
    return rule


SEQUENTIAL_SUM = 32      # XLA CPU adds up to this many float32/float64 values in order, one after another


def _float_sum_rule(eqn):
    """A float32 or float64 sum over one axis of at most ``SEQUENTIAL_SUM`` elements of a 1-D or 2-D
    operand: XLA adds the elements one after the other from +0.0 (measured: every extent up
    to 32 along either axis, both dtypes; longer ones it splits into vector lanes), so it is replayed in
    that order, each partial sum flushed; a sum over one element is a copy. Counts as the program's one rounding operation."""
    aval = eqn.invars[0].aval
    axes = tuple(eqn.params["axes"])
    # reduced axes of extent 1 are dropped first (XLA's simplifier does): [8, 1] over (0, 1) is [8] over 0
    kept = [d for i, d in enumerate(aval.shape) if not (i in axes and d == 1)]
    long = [a for a in axes if aval.shape[a] != 1]
    if np.dtype(aval.dtype) not in (_F32, _F64) or len(long) > 1 or not len(kept) <= 2 or \
            long and aval.shape[long[0]] > SEQUENTIAL_SUM or eqn.params.get("out_sharding") is not None:
        return None
    axis = sum(1 for a in axes if a < long[0] and aval.shape[a] == 1) if long else None

    def run(x, axes, **_):
        if axis is None:
            return x.reshape([d for i, d in enumerate(x.shape) if i not in axes])   # XLA: a copy
        x = np.moveaxis(_flush(x.reshape(kept)), long[0] - axis, 0)
        return _in_order_sum(x)
    return run, "round"


def _in_order_sum(x):
    """``x``'s rows added one after the other from +0.0, each partial sum flushed: NumPy's
    ``add.accumulate`` (sequential along the axis) over a zero row and ``x``, where no partial sum is
    a denormal (the flushes then change nothing), else row by row."""
    with np.errstate(all="ignore"):
        partial = np.add.accumulate(np.concatenate([np.zeros((1,) + x.shape[1:], x.dtype), x]), axis=0)
        if not _has_denormal(partial):
            return partial[-1]
        acc = np.zeros(x.shape[1:], x.dtype)
        for row in x:
            acc = _flush(acc + row)
        return acc


def _has_denormal(x):
    """Whether the float32/float64 ``x`` holds a denormal (which ``_flush`` would change)."""
    u, sign, expo = _MASKS[x.dtype]
    b = x.view(u)
    return bool(np.any(((b & expo) == 0) & ((b & ~(sign | expo)) != 0)))


def _kernel_rule(eqn):
    """An FFI call whose target has a host twin in ``KERNELS`` (the same C++ code, called on the
    host buffers): a plain call (no side effect, no aliasing, row-major layouts) of a kernel XLA
    never fuses with its neighbours, so it spends no rounding budget."""
    p = eqn.params
    twin = KERNELS.get(p.get("target_name"))
    if twin is None or p.get("has_side_effect") or p.get("input_output_aliases"):
        return None
    avals = [v.aval for v in eqn.invars] + list(p.get("result_avals", ()))
    layouts = list(p.get("input_layouts") or [None] * len(eqn.invars)) + \
        list(p.get("output_layouts") or [None] * len(eqn.outvars))
    if len(layouts) != len(avals) or any(
            lay is not None and tuple(lay) != tuple(range(len(a.shape) - 1, -1, -1)) for lay, a in zip(layouts, avals)):
        return None

    shapes = [tuple(a.shape) for a in p.get("result_avals", ())]
    kwargs = {k: getattr(v, "val", v) for k, v in p.get("attributes", ())}    # arrays come as HashableArray

    def run(*xs, **_):       # the equation's own attributes and result shapes, resolved above
        return twin(*[np.ascontiguousarray(x) for x in xs], shapes=shapes, **kwargs)
    return run, "kernel"


def _float_or_int(dt):
    dt = np.dtype(dt)
    return dt.kind in "iuf" or dt == _BF16


def _division(eqn, jaxpr, top):
    """How XLA CPU divides by this divisor: ``"ieee"`` (correctly rounded), ``"reciprocal"`` or
    None (not routed). A broadcast divisor becomes a multiply by its reciprocal (``1 / y`` rounded,
    then the product rounded: measured on float32 and float64, 1-sized dimensions broadcast);
    a divisor of the result's shape that is an input of the whole program is an IEEE division;
    other divisors (a literal, a broadcast made inside the program) are not routed."""
    divisor, out = eqn.invars[1], eqn.outvars[0]
    if hasattr(divisor, "val") and _power_of_two(divisor.val):
        return "ieee"        # x / 2**k and x * 2**-k round the same real number
    if not top or hasattr(divisor, "val") or divisor not in jaxpr.invars:
        return None
    if tuple(divisor.aval.shape) == tuple(out.aval.shape):
        return "ieee"
    if np.dtype(out.aval.dtype) in (_F32, _F64) and len(divisor.aval.shape) == len(out.aval.shape):
        return "reciprocal"
    return None


def _reciprocal_div(x, y):
    with np.errstate(all="ignore"):
        r = _flush(y.dtype.type(1) / _flush(y))
        return _flush(_flush(x) * r)


def _power_of_two(v):
    v = np.asarray(v)
    if v.shape != () or v.dtype.kind != "f":
        return False
    m, e = np.frexp(np.float64(v))
    return m in (0.5, -0.5) and -120 < e < 120


def _composition_division(eqn):
    """A division inside a ``COMPOSITIONS`` program: IEEE by a divisor of the result's shape (or a
    power of two), else not routed."""
    divisor, out = eqn.invars[1], eqn.outvars[0]
    if hasattr(divisor, "val"):
        return "ieee" if _power_of_two(divisor.val) else None
    return "ieee" if tuple(divisor.aval.shape) == tuple(out.aval.shape) else None


def _plan(jaxpr, budget, top=True, composition=False):
    """The jaxpr's equations with their NumPy rules, or None where one is not
    routable; ``budget`` counts the rounding float operations met so far (not inside a
    ``composition``, a ``COMPOSITIONS`` program, where "math"/"libm" operations are refused)."""
    if len(budget) == 1:          # + the kinds met, whether a constant operand was met
        budget += [set(), False]
    steps = []
    for eqn in jaxpr.eqns:
        inner = _CALLS.get(eqn.primitive.name)
        if inner is not None:
            sub = eqn.params[inner]
            if sub.consts or getattr(sub.jaxpr, "effects", None):
                return None
            inner_composition = composition or eqn.params.get("name") in COMPOSITIONS and inner == "jaxpr"
            plan = _plan(sub.jaxpr, budget, top=False, composition=inner_composition)
            if plan is None:
                return None
            steps.append((eqn, None, plan))
            continue
        rule = _routable_eqn(eqn)
        if rule is None or _oversized_or_float0(eqn.invars) or _oversized_or_float0(eqn.outvars):
            return None
        fn, kind = rule
        if eqn.primitive.name == "div" and np.dtype(eqn.outvars[0].aval.dtype).kind not in "iub":
            how = _composition_division(eqn) if composition else _division(eqn, jaxpr, top)
            if how is None:
                return None
            fn = _reciprocal_div if how == "reciprocal" else fn
        if composition:
            if kind in ("math", "libm"):
                return None
            steps.append((eqn, fn, {k: v for k, v in eqn.params.items() if k not in ("sharding", "out_sharding")}))
            continue
        budget[1].add(kind)
        budget[2] = budget[2] or any(hasattr(v, "val") for v in eqn.invars)
        if eqn.primitive.name == "div" and hasattr(eqn.invars[1], "val") and _power_of_two(eqn.invars[1].val):
            kind = "exact"
        if kind in ("round", "math", "libm") and _float_or_int(eqn.outvars[0].aval.dtype) and \
                np.dtype(eqn.outvars[0].aval.dtype).kind not in "iu":
            budget[0] += 1
            if budget[0] > 1:
                return None
        params = {k: v for k, v in eqn.params.items() if k not in ("sharding", "accuracy", "out_sharding")}
        if eqn.params.get("accuracy") is not None:
            return None
        steps.append((eqn, fn, params))
    # XLA folds constants (x ** 2.0 becomes x * x) and fuses an approximation's vector code with
    # its neighbours: a program with one of them has no constant operand, and "math" is alone
    if top and budget[1] & {"math", "libm"} and (budget[2] or "math" in budget[1] and _equations(steps) != 1):
        return None
    return steps


def _equations(steps):
    return sum(_equations(params) if fn is None else 1 for _, fn, params in steps)


def _read(env, v):
    if hasattr(v, "val"):         # a Literal
        return np.asarray(v.val, dtype=v.aval.dtype)
    return env[v]


def _evaluate(jaxpr, steps, args):
    env = dict(zip(jaxpr.invars, args))
    for eqn, fn, params in steps:
        ins = [_read(env, v) for v in eqn.invars]
        if fn is None:
            outs = _evaluate(eqn.params[_CALLS[eqn.primitive.name]].jaxpr, params, ins)
        elif eqn.primitive.multiple_results:
            outs = fn(*ins, **params)
        else:
            outs = [fn(*ins, **params)]
        for v, o in zip(eqn.outvars, outs):
            o = np.asarray(o)
            want = np.dtype(v.aval.dtype)
            if o.dtype != want or o.shape != tuple(v.aval.shape):
                raise _NotExact(f"{eqn.primitive.name} gave {o.dtype}{o.shape}")
            env[v] = o
    return [_read(env, v) for v in jaxpr.outvars]


def _flat(jaxpr, steps):
    """``_evaluate(jaxpr, steps, args)`` resolved once: a function of ``args`` running the plan's
    rules in order over one list of slots (the arguments, the literals as ``_read`` gives them, then
    each result), checking each result's dtype and shape as ``_evaluate`` does; nested programs are
    inlined. For a program called again and again (``_stepwise``)."""
    fixed, ops = [], []
    n_in = len(jaxpr.invars)

    def walk(jaxpr, steps, slots):
        def read(v):
            if hasattr(v, "val"):
                fixed.append(_read(None, v))
                return -len(fixed)            # a literal: from the end of ``fixed`` (resolved below)
            return slots[v]
        for eqn, fn, params in steps:
            ins = [read(v) for v in eqn.invars]
            if fn is None:
                inner = eqn.params[_CALLS[eqn.primitive.name]].jaxpr
                if any(np.dtype(a.aval.dtype) != np.dtype(b.aval.dtype) or tuple(a.aval.shape) != tuple(b.aval.shape)
                       for a, b in zip(inner.outvars, eqn.outvars)) or len(inner.outvars) != len(eqn.outvars):
                    raise _NotExact(f"{eqn.primitive.name}'s results are not its program's")
                sub = dict(zip(inner.invars, ins))
                walk(inner, params, sub)
                for v, w in zip(eqn.outvars, inner.outvars):
                    slots[v] = read(w) if hasattr(w, "val") else sub[w]
                continue
            outs = []
            for v in eqn.outvars:
                slots[v] = ("out", len(ops), len(outs))
                outs.append(slots[v])
            wants = tuple((np.dtype(v.aval.dtype), tuple(v.aval.shape)) for v in eqn.outvars)
            ops.append((fn, params, ins, outs, eqn.primitive.multiple_results, wants, eqn.primitive.name))
    top = {v: i for i, v in enumerate(jaxpr.invars)}
    walk(jaxpr, steps, top)
    # slots: the arguments, the literals, then the results of each op in order
    base = n_in + len(fixed)
    starts, n = [], base
    for op in ops:
        starts.append(n)
        n += len(op[3])

    def resolve(s):
        if type(s) is tuple:
            return starts[s[1]] + s[2]
        return n_in + (-s - 1) if s < 0 else s
    flat = [(fn, params, [resolve(s) for s in ins], starts[k], multiple, wants, name)
            for k, (fn, params, ins, _, multiple, wants, name) in enumerate(ops)]
    outs = [resolve(top[v]) if not hasattr(v, "val") else None for v in jaxpr.outvars]
    tail = fixed + [None] * (n - base)
    lit_outs = [None if o is not None else _read(None, v) for o, v in zip(outs, jaxpr.outvars)]

    def run(args):
        env = list(args) + tail
        for fn, params, ins, at, multiple, wants, name in flat:
            res = fn(*[env[i] for i in ins], **params)
            if not multiple:
                res = (res,)
            elif len(res) != len(wants):
                raise _NotExact(f"{name} gave {len(res)} results")
            for o, (want, shape) in zip(res, wants):
                o = np.asarray(o)
                if o.dtype != want or o.shape != shape:
                    raise _NotExact(f"{name} gave {o.dtype}{o.shape}")
                env[at] = o
                at += 1
        return [env[i] if i is not None else lit for i, lit in zip(outs, lit_outs)]
    return run


class _NotExact(Exception):
    pass


class _Retry:
    """Returned as the run's profiler: JAX's C++ dispatch then forgets the call's
    signature (as when a PGLE profile is still to come) instead of sending it to
    Python for good, so the call that compiles installs the fast path."""
    @staticmethod
    def is_enabled():
        return True

    @staticmethod
    def is_fdo_consumed():
        return False


_RETRY = _Retry()


# ---------------------------------------------------------------------------
# the hook
# ---------------------------------------------------------------------------
# the parameters of the JAX function the hook replaces (as in jax 0.10); any other list: no hook
_HOOKED_SIGNATURE = ("args", "jaxpr", "in_shardings", "out_shardings", "in_layouts", "out_layouts",
                     "donated_invars", "ctx_mesh", "name", "keep_unused", "inline", "compiler_options_kvs")
_TABLE = weakref.WeakKeyDictionary()   # ClosedJaxpr -> [plan or None, host runs, its stored executable, host ms, bucket]
_BUCKET_TABLE = {}   # a bucket program's key -> its entry (as _TABLE's: the executable in entry[2])
_STEPWISE_TABLE = weakref.WeakKeyDictionary()   # ClosedJaxpr -> its _stepwise.Program, or False: compiled whole


_INSTALLED = [False]


def _runs_stepwise(traced, jitted):
    """The call running this PyNative gradient program (``jitted``'s trace ``traced``) op by op
    (``stepwise_runner``), or None where it is compiled whole: the front-end cache keeps no whole
    program of one run op by op (its numbers would be the fused ones)."""
    if not (_INSTALLED[0] and jax.local_devices()[0].platform == "cpu" and _stepwise.small(traced.jaxpr.jaxpr)):
        return None
    return stepwise_runner(traced, jitted)


_DIRECT = [None]     # install's direct_call


def stepwise_runner(traced, jitted):
    """How msjax's PyNative ``grad`` calls ``jitted`` (a ``STEPWISE`` program's ``jax.jit``, traced as
    ``traced``): where the arguments are Arrays of the traced avals (and tree), the program runs op by
    op (``_stepwise``) without JAX's jit dispatch (its Python path, taken on every call of a program
    with no executable: about 0.1 ms); any other call goes to ``jitted``. Same results either way."""
    closed = traced.jaxpr
    if _DIRECT[0] is None or len(closed.in_avals) != traced.in_tree.num_leaves:
        return jitted
    from jax._src.array import ArrayImpl
    in_tree, out_tree, avals = traced.in_tree, traced.out_tree, closed.in_avals
    flatten, unflatten, direct = jax.tree_util.tree_flatten, jax.tree_util.tree_unflatten, _DIRECT[0]

    def call(*args):
        leaves, tree = flatten((args, {}))
        if tree == in_tree and all(type(x) is ArrayImpl and x.aval == a for x, a in zip(leaves, avals)):
            outs = direct(leaves, closed)
            if outs is not None:
                return unflatten(out_tree, outs)
        return jitted(*args)
    call.jitted = jitted
    return call


provided.provide("stepwise", _runs_stepwise)


def install():
    """Put the host path in front of JAX's eager compile; idempotent. Returns
    whether it is in place (False where this JAX has no such hook)."""
    try:
        from jax._src import pjit as pjit_mod
        from jax._src import core, config, dispatch
        from jax._src.array import ArrayImpl
        from jax._src.interpreters import pxla
        from jax._src.sharding_impls import SingleDeviceSharding, UnspecifiedValue
    except ImportError:   # pragma: no cover
        return False
    original = getattr(pjit_mod, "_pjit_call_impl_python", None)
    if original is None or getattr(original, "_msjax_host", False):
        return original is not None
    if tuple(inspect.signature(original).parameters) != _HOOKED_SIGNATURE:
        return False   # another JAX: its eager call takes other arguments, so keep JAX's own path
    cpu = []

    def device():
        if not cpu:
            d = jax.local_devices()[0]   # a launched rank's default device, not process 0's
            cpu.append(d if d.platform == "cpu" else None)
            cpu.append(SingleDeviceSharding(d) if cpu[0] is not None else None)
        return cpu[0]

    def plain_arg(a):
        """An uncommitted array on the default CPU device, a NumPy value or a Python scalar."""
        if type(a) is ArrayImpl:
            return not (a._committed or a.sharding != cpu[1] or a.is_deleted())
        return isinstance(a, (np.ndarray, np.generic, bool, int, float))

    def host_value(a):
        if not plain_arg(a):
            return None
        return np.asarray(a) if type(a) is ArrayImpl else a

    def plain_call(jaxpr, in_shardings, out_shardings, in_layouts, out_layouts, donated_invars, ctx_mesh,
                   compiler_options_kvs):
        if any(not isinstance(s, UnspecifiedValue) for s in in_shardings + out_shardings):
            return False
        if any(l is not None for l in in_layouts + out_layouts) or any(donated_invars):
            return False
        if compiler_options_kvs or jaxpr.effects or jaxpr.consts or not getattr(ctx_mesh, "empty", True):
            return False
        return not (config.debug_nans.value or config.debug_infs.value)

    def call_impl_python(*args, jaxpr, in_shardings, out_shardings, in_layouts, out_layouts,
                         donated_invars, ctx_mesh, name, keep_unused, inline, compiler_options_kvs):
        _interrupt.arm()     # a program runs: Ctrl-C now ends the process as MindSpore's runtime does
        if name in STEPWISE and device() is not None:
            result = stepwise_call(args, jaxpr, plain_call(
                jaxpr, in_shardings, out_shardings, in_layouts, out_layouts, donated_invars, ctx_mesh,
                compiler_options_kvs))
            if result is not None:
                return result, None, _RETRY, []
        if _ON and device() is not None:
            entry = _TABLE.get(jaxpr)
            if entry is None:
                try:
                    plan = _plan(jaxpr.jaxpr, [0], composition=name in COMPOSITIONS)
                except Exception:  # noqa: BLE001 - a type NumPy does not know (PRNG keys): XLA's
                    plan = None
                if any(a.dtype == jax.dtypes.float0 for a in (*jaxpr.in_avals, *jaxpr.out_avals)):
                    plan = None     # an integer input's tangent, which NumPy cannot hold
                entry = _TABLE[jaxpr] = [plan, 0, None, 0.0, None]
            # the call's placement (mesh, shardings, committed inputs) is checked per call: a
            # program refused once (say under a mesh) still runs on the host in a plain call
            plain = plain_call(jaxpr, in_shardings, out_shardings, in_layouts, out_layouts, donated_invars,
                               ctx_mesh, compiler_options_kvs)
            if entry[0] is not None and (entry[1] < THRESHOLD or entry[3] < HOST_BUDGET_MS) and plain:
                t0 = time.perf_counter()
                outs = run_on_host(jaxpr, entry[0], args)
                if outs is not None:
                    entry[1] += 1
                    entry[3] += (time.perf_counter() - t0) * 1e3
                    _STATS["host"] += 1
                    return outs, None, _RETRY, []
            params = dict(in_shardings=in_shardings, out_shardings=out_shardings, in_layouts=in_layouts,
                          out_layouts=out_layouts, donated_invars=donated_invars, ctx_mesh=ctx_mesh, name=name,
                          keep_unused=keep_unused, inline=inline, compiler_options_kvs=compiler_options_kvs)
            if plain and BUCKETS[0] and (entry[1] < THRESHOLD or entry[3] < HOST_BUDGET_MS) \
                    and all(map(plain_arg, args)):
                outs = bucketed_call(args, jaxpr, entry, params)
                if outs is not None:
                    return outs, None, _RETRY, []
            if plain and STORE[0] is not None and all(map(plain_arg, args)):
                return stored_call(args, jaxpr, entry, params)
        _STATS["compiled"] += 1
        with _ir_context.reusing(jaxpr):
            return original(*args, jaxpr=jaxpr, in_shardings=in_shardings, out_shardings=out_shardings,
                            in_layouts=in_layouts, out_layouts=out_layouts, donated_invars=donated_invars,
                            ctx_mesh=ctx_mesh, name=name, keep_unused=keep_unused, inline=inline,
                            compiler_options_kvs=compiler_options_kvs)

    def stepwise_call(args, jaxpr, plain):
        """A small ``STEPWISE`` program in a plain call: its results, equation by equation
        (``_stepwise``); else None (compiled whole, as any program)."""
        if not (plain and all(map(plain_arg, args))):
            return None
        entry = _STEPWISE_TABLE.get(jaxpr)
        if entry is None:
            entry = _STEPWISE_TABLE[jaxpr] = _stepwise.Program(jaxpr, host_rule) if _stepwise.small(jaxpr.jaxpr) \
                else False
            _STATS["stepwise_plans"] += 1
        if entry is False:
            return None
        outs, hosted = entry.run(args, _ON)
        _STATS["stepwise"] += 1
        _STATS["host"] += hosted
        return [o if isinstance(o, jax.Array) else
                pxla.batched_device_put(aval, cpu[1], [np.array(o, aval.dtype, order="C")], [cpu[0]],
                                        committed=False) for o, aval in zip(outs, jaxpr.out_avals)]

    def direct_call(leaves, jaxpr):
        """``stepwise_call`` for a plain call of a jitted ``STEPWISE`` program without JAX's
        dispatch (``stepwise_runner``): None where JAX's own call would not be plain."""
        if device() is None or not core.trace_state_clean() or config.debug_key_reuse.value or \
                not pjit_mod.get_ctx_mesh(False).empty or jaxpr.effects or jaxpr.consts or \
                config.debug_nans.value or config.debug_infs.value:
            return None
        _interrupt.arm()
        return stepwise_call(leaves, jaxpr, True)

    def host_rule(eqn):
        """One equation of a ``STEPWISE`` program as the host path runs it called alone: a function
        of its distinct non-literal operands' values giving its NumPy results, or None for a call it
        refuses (then it is called eagerly); None where it has no host plan."""
        invars = list(dict.fromkeys(v for v in eqn.invars if not hasattr(v, "val")))
        alone = core.Jaxpr([], invars, list(eqn.outvars), [eqn],
                           debug_info=core.DebugInfo("msjax stepwise", eqn.primitive.name, None, None))
        try:
            plan = _plan(alone, [0])
            evaluate = _flat(alone, plan) if plan else None
        except Exception:  # noqa: BLE001 - a type NumPy does not know: called eagerly
            return None
        if evaluate is None:
            return None
        dtypes = [np.dtype(v.aval.dtype) for v in invars]
        array, asarray = jax.Array, np.asarray

        def run(values):
            vals = []
            for x, dt in zip(values, dtypes):
                if type(x) is not np.ndarray and isinstance(x, array) and not plain_arg(x):
                    return None
                vals.append(asarray(x, dtype=dt))
            try:
                return evaluate(vals)
            except Exception as e:  # noqa: BLE001 - a value NumPy refuses: called eagerly
                _STATS["last_refusal"] = f"{type(e).__name__}: {e}"
                return None
        return run

    def stored_call(args, jaxpr, entry, params):
        """A plain call's executable from the eager store, else compiled and stored. The
        executable is kept with the program (``entry[2]``; ``False``: not storable), so a
        call JAX's C++ dispatch sends here again (no fast path for it) skips the disk."""
        store, kept = STORE[0], entry[2]
        _STATS["compiled"] += 1
        if kept is not None and kept is not False:
            return kept.unsafe_call(*args), kept, None, []
        name = None
        if kept is None:
            try:
                name = store.key(jaxpr, params["keep_unused"])
            except Exception:  # noqa: BLE001 - a program that cannot be printed: not stored
                name = None
        if name is None:
            entry[2] = False      # JAX's own path from now on
            with _ir_context.reusing(jaxpr):
                return original(*args, jaxpr=jaxpr, **params)
        executable = store.load(name)
        if executable is not None:
            try:
                outs = executable.unsafe_call(*args)
            except Exception:  # noqa: BLE001 - an entry that does not fit this call: compiled
                pass
            else:
                _STATS["loaded"] += 1
                entry[2] = executable
                return outs, executable, None, []
        hits = store.jax_cache_answered()
        with _ir_context.reusing(jaxpr):
            result = original(*args, jaxpr=jaxpr, **params)
        saved = not result[3] and store.jax_cache_answered() == hits and store.save(name, result[1])
        _STATS["stored"] += bool(saved)
        entry[2] = result[1] if saved else False
        return result

    def bucketed_call(args, jaxpr, entry, params):
        """A new shape run by its bucket's executable (compiled, loaded or kept): the operands
        padded, the results sliced; counted as a host call, so a shape met often compiles its own."""
        if entry[4] is None:
            try:
                entry[4] = _eager_buckets.plan(jaxpr) or False
            except Exception:  # noqa: BLE001 - a program the rewrite does not know: its own compile
                entry[4] = False
        bucket = entry[4]
        if bucket is False:
            return None
        t0 = time.perf_counter()
        values = [host_value(a) for a in args]
        if len(values) != len(jaxpr.in_avals) or \
                any(np.shape(v) != a.shape for v, a in zip(values, jaxpr.in_avals)):
            return None             # operands that are not the program's own avals: JAX decides
        padded = bucket.pad(values)
        if padded is None:          # a NaN operand: the shape's own program decides its NaN's bits
            return None
        kept = _BUCKET_TABLE.get(bucket.key)
        if kept is None:
            while len(_BUCKET_TABLE) >= MAX_BUCKETS:
                _BUCKET_TABLE.pop(next(iter(_BUCKET_TABLE)))
            kept = _BUCKET_TABLE[bucket.key] = [None, 0, None, 0.0, False]
        if kept[2] is None:
            if STORE[0] is not None:
                result = stored_call(padded, bucket.jaxpr, kept, params)
            else:
                with _ir_context.reusing(bucket.jaxpr):
                    result = original(*padded, jaxpr=bucket.jaxpr, **params)
            outs = result[0]
            kept[2] = result[1] if result[1] is not None and not result[3] else False
        elif kept[2] is False:      # an executable that needs more than its operands: no bucket
            entry[4] = False
            return None
        else:
            outs = kept[2].unsafe_call(*padded)
        outs = bucket.slice(outs)
        if not _eager_buckets.no_nan(outs):    # a NaN made inside: its bits may follow the loop's code
            return None
        dev = [cpu[0]]
        outs = [pxla.batched_device_put(aval, cpu[1], [np.ascontiguousarray(o)], dev, committed=False)
                for o, aval in zip(outs, jaxpr.out_avals)]
        entry[1] += 1
        entry[3] += (time.perf_counter() - t0) * 1e3
        _STATS["bucketed"] += 1
        return outs

    def run_on_host(jaxpr, plan, args):
        vals = []
        for a, aval in zip(args, jaxpr.in_avals):
            v = host_value(a)
            if v is None:
                return None
            vals.append(np.asarray(v, dtype=aval.dtype))
        try:
            outs = _evaluate(jaxpr.jaxpr, plan, vals)
        except Exception as e:  # noqa: BLE001 - a value NumPy refuses: XLA decides
            _STATS["last_refusal"] = f"{type(e).__name__}: {e}"
            return None
        dev = [cpu[0]]
        return [pxla.batched_device_put(aval, cpu[1], [o if o.flags.c_contiguous else o.copy()], dev, committed=False)
                for o, aval in zip(outs, jaxpr.out_avals)]

    del dispatch
    _ir_context.install()
    _INSTALLED[0] = True
    _DIRECT[0] = direct_call if hasattr(pjit_mod, "get_ctx_mesh") else None
    call_impl_python._msjax_host = True
    call_impl_python.__wrapped__ = original
    pjit_mod._pjit_call_impl_python = call_impl_python
    return True


def _from_environment():
    if os.environ.get("MSJAX_HOST_EAGER") == "0":
        enabled(False)
    if os.environ.get("MSJAX_EAGER_BUCKETS") == "0":
        BUCKETS[0] = False


_from_environment()
