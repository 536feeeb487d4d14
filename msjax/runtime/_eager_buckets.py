"""Shape buckets for PyNative programs: a new shape runs a program compiled for a larger one.

A loop over varying shapes (batch sizes 3, 5, 7, ..., a tokenizer's lengths) makes JAX compile
every op's program once per shape (30-250 ms each) when ``runtime._host_eager`` cannot run it on
the host (``erf``, ``log1p``, ``softplus``, ``log_softmax``, ``sort``, a layer norm...). For a
program whose result element at an index depends only on its operands' elements at the same index
along some axes, this module rewrites it for a bucket shape (each such axis rounded up to the next
power of two), pads the operands with zeros on the host, runs the bucket's executable and slices
the results: one compile per bucket instead of one per shape.

Which axes: the program's (variable, axis) pairs are joined into classes through the equations
(elementwise operands and results, ``broadcast_in_dim``'s kept axes, the kept axes of a reduction,
``transpose``'s permutation, ``squeeze``/``reshape`` that only drop or add 1s, ``concatenate`` and
``sort``/cumulative ops off their axis); a class that a reduction, a sort, a cumulative op or a
concatenation runs along is never padded, nor one of size 1. Any other primitive (``dot_general``,
``gather``, ``pad``, ``slice``, nested calls, effects) makes the program unbucketed.

Bits: an elementwise result does not depend on the position of its element, and a reduction over
an unpadded axis adds the same values in the same order: the sliced result is the unbucketed
program's, bit for bit, with one exception measured on XLA CPU (jaxlib 0.10.2): a float32 ``exp``
or ``log`` over a rank-1 operand finishes its last partial vector (1-D sizes 3, 5-7, 11, 13-15)
with the C library's ``expf``/``logf``, so those programs keep a bucket only when their rank-1
axes are left unpadded (``_TAILED``). ``bench/eager_buckets.py --verify`` compares bucketed and
unbucketed programs over shapes; ``tests/test_eager_buckets.py`` asserts bit equality per family.
Weak types and dtypes are the original's (the bucket program is traced from the same equations).
Only float32/float64 programs without a product feeding an add (an FMA in some loop forms, not in
others) and with the approximations measured position-independent (``APPROXIMATED``) are
bucketed, and only calls whose float operands and results hold no NaN (``no_nan``; else the shape
compiles its own program as before).

Differences from MindSpore: none visible (MindSpore runs prebuilt kernels per call).
"""
from __future__ import annotations

import jax
import numpy as np

__all__ = ["Bucket", "bucket_size", "no_nan", "plan"]

MAX_ELEMENTS = 1 << 20   # a larger bucket operand or result: its padding costs more than a compile saves
# exact: XLA CPU's result is the correctly rounded one (or no rounding), wherever the element sits
EXACT = frozenset("""
add sub mul div rem max min nextafter neg abs sign floor ceil round is_finite sqrt square integer_pow
convert_element_type select_n eq ne lt le gt ge and or not xor shift_left shift_right_logical
shift_right_arithmetic clamp copy copy_p stop_gradient population_count
""".split())
# XLA's approximations measured position-independent (bench/eager_buckets.py --verify); others
# (atan, asin, ... measured: every value of a (5, 16) atan differs from its (8, 16) bucket) are not
APPROXIMATED = frozenset("exp log log1p expm1 erf logistic tanh".split())
ELEMENTWISE = EXACT | APPROXIMATED
_PRODUCTS = frozenset("mul square integer_pow div".split())   # may be contracted into an FMA ...
_SUMS = frozenset("add sub".split())                           # ... with an add or sub they feed
_FLOATS = frozenset(("float32", "float64"))
REDUCTIONS = frozenset("reduce_sum reduce_max reduce_min reduce_prod reduce_and reduce_or reduce_xor "
                       "argmax argmin".split())
ALONG = {"cumsum": "axis", "cumprod": "axis", "cummax": "axis", "cummin": "axis",
         "cumlogsumexp": "axis", "sort": "dimension", "concatenate": "dimension"}
_CALLS = {"jit": "jaxpr", "pjit": "jaxpr", "custom_jvp_call": "call_jaxpr"}   # nested programs
_TAILED = frozenset({"exp", "log"})   # float32 rank-1: XLA's last partial vector calls the C library


def bucket_size(n):
    """The bucket of an axis of ``n`` elements: the next power of two (``n`` itself below 2)."""
    return n if n < 2 else 1 << (n - 1).bit_length()


class _Classes:
    """Union-find over (variable, axis) pairs; a class may be pinned (never padded)."""

    def __init__(self):
        self.parent, self.pinned = {}, set()

    def find(self, k):
        p = self.parent.setdefault(k, k)
        while p != k:
            self.parent[k] = self.parent.setdefault(p, p)
            k, p = p, self.parent[p]
        return k

    def join(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb
            if ra in self.pinned:
                self.pinned.add(rb)

    def pin(self, a):
        self.pinned.add(self.find(a))

    def is_pinned(self, a):
        return self.find(a) in self.pinned


def _shape(v):
    return tuple(getattr(v.aval, "shape", ()))


def _is_var(v):
    return not hasattr(v, "val")




def _drop_ones(shape):
    return [i for i, d in enumerate(shape) if d != 1]


def _link(c, eqn):
    """Join the axes one equation relates; False if the equation cannot be bucketed."""
    name, p = eqn.primitive.name, eqn.params
    ins = [v for v in eqn.invars if _shape(v)]   # rank-0 operands (scalars, literals) relate no axis
    out = eqn.outvars
    if name in ELEMENTWISE:
        for v in ins:   # operands of the result's shape, or of its rank with 1s broadcast
            if len(_shape(v)) != len(_shape(out[0])) or \
                    any(a not in (b, 1) for a, b in zip(_shape(v), _shape(out[0]))):
                return False
            for i, (a, b) in enumerate(zip(_shape(v), _shape(out[0]))):
                if a == b:
                    c.join((v, i), (out[0], i))
        return True
    if name == "broadcast_in_dim":
        if p.get("sharding") is not None or len(eqn.invars) != 1:
            return False
        src, dst = _shape(eqn.invars[0]), _shape(out[0])
        for j, d in enumerate(p["broadcast_dimensions"]):
            if src[j] == dst[d]:
                c.join((eqn.invars[0], j), (out[0], d))
        return True
    if name in REDUCTIONS:
        axes = p["axes"]
        kept = [i for i in range(len(_shape(ins[0]))) if i not in axes]
        for i in axes:
            c.pin((ins[0], i))
        for o, i in enumerate(kept):
            c.join((ins[0], i), (out[0], o))
        return True
    if name in ALONG:
        axis = p[ALONG[name]]
        for v in ins + list(out):
            for i in range(len(_shape(v))):
                c.join((v, i), (out[0], i)) if i != axis else c.pin((v, i))
        return name == "concatenate" or all(_shape(v) == _shape(out[0]) for v in ins)
    if name == "transpose":
        for o, i in enumerate(p["permutation"]):
            c.join((ins[0], i), (out[0], o))
        return True
    if name in ("squeeze", "reshape"):
        if name == "reshape" and p.get("dimensions") is not None:
            return False
        src, dst = _shape(ins[0]), _shape(out[0])
        a, b = _drop_ones(src), _drop_ones(dst)
        if [src[i] for i in a] != [dst[i] for i in b]:
            return False
        for i, o in zip(a, b):
            c.join((ins[0], i), (out[0], o))
        return True
    if name == "iota":
        return p.get("sharding") is None
    if name == "optimization_barrier":
        for v, o in zip(eqn.invars, out):
            for i in range(len(_shape(v))):
                c.join((v, i), (o, i))
        return True
    inner = _CALLS.get(name)
    if inner is not None:
        closed = p[inner]
        if closed.consts or closed.jaxpr.effects:
            return False
        return _link_call(c, closed.jaxpr, eqn.invars, out)
    return False


def _link_call(c, jaxpr, invars, outvars):
    """A nested call: its parameters are the call's operands, its results the call's results."""
    for outer, inner in zip(invars, jaxpr.invars):
        for i in range(len(_shape(inner))):
            c.join((outer, i), (inner, i))
    if not all(not eqn.effects and _link(c, eqn) for eqn in jaxpr.eqns):
        return False
    for inner, outer in zip(jaxpr.outvars, outvars):
        if not _is_var(inner) and _shape(inner):
            return False
        for i in range(len(_shape(inner))):
            c.join((inner, i), (outer, i))
    return True


class Bucket:
    """One program's bucket: the rewritten program and how to pad its inputs and slice its results."""

    def __init__(self, closed, in_avals, out_shapes, key):
        self.jaxpr, self.in_avals, self.out_shapes, self.key = closed, in_avals, out_shapes, key

    def pad(self, values):
        """The operands zero-padded to the bucket's shapes, as NumPy arrays of the program's dtypes;
        None when a float operand holds a NaN (which NaN an operation with two NaN operands returns,
        its sign and payload, follows the operand order the loop's code was given: measured, a NaN
        input to ``exp(x) - log(|x|) + sigmoid(tanh(x))`` came out +NaN unbucketed, -NaN bucketed)."""
        out = []
        for v, aval in zip(values, self.in_avals):
            v, shape = np.asarray(v, dtype=aval.dtype), aval.shape
            if not no_nan([v]):
                return None
            if v.shape != shape:
                big = np.zeros(shape, v.dtype)
                big[tuple(slice(0, n) for n in v.shape)] = v
                v = big
            out.append(v)
        return out

    def slice(self, values):
        """The bucket's results cut back to the original program's shapes."""
        return [np.asarray(v)[tuple(slice(0, n) for n in shape)] for v, shape in zip(values, self.out_shapes)]


def no_nan(values):
    """Whether no float value holds a NaN. A result with a NaN is not taken from a bucket either:
    which NaN an operation on two NaNs returns follows its code, and a NaN's bits reach only
    results that are NaN (comparisons, selects and conversions do not look at them)."""
    return not any(v.dtype.kind == "f" and np.isnan(v).any() for v in values)


def plan(closed):
    """The bucket of a ClosedJaxpr, or None (not bucketable, or already at its bucket shape)."""
    jaxpr = closed.jaxpr
    if closed.consts or jaxpr.effects or not jaxpr.eqns:
        return None
    for eqn in _equations(jaxpr):   # a nested call's constants would not be padded with its inputs
        inner = _CALLS.get(eqn.primitive.name)
        if inner is not None and getattr(eqn.params[inner], "consts", None):
            return None
    c = _Classes()
    for eqn in jaxpr.eqns:
        if eqn.effects or not _link(c, eqn):
            return None
    for o in jaxpr.outvars:
        if not _is_var(o):
            return None
    size = {}
    for v in jaxpr.invars:
        for i, n in enumerate(_shape(v)):
            if n >= 2 and not c.is_pinned((v, i)):
                size[c.find((v, i))] = bucket_size(n)
    if not any(bucket_size(n) != n for v in jaxpr.invars for i, n in enumerate(_shape(v))
               if c.find((v, i)) in size):
        return None

    def new_shape(v):
        return tuple(size.get(c.find((v, i)), n) for i, n in enumerate(_shape(v)))

    if any(np.prod(new_shape(v), dtype=np.int64) > MAX_ELEMENTS for v in list(jaxpr.invars) + list(jaxpr.outvars)):
        return None
    for eqn in _equations(jaxpr):   # a rank-1 exp/log keeps its length (its tail calls the C library)
        if eqn.primitive.name in _TAILED and len(_shape(eqn.outvars[0])) == 1 \
                and new_shape(eqn.outvars[0]) != _shape(eqn.outvars[0]):
            return None
    if not _codegen_independent(jaxpr):
        return None
    return _rebuild(closed, new_shape)


def _broadcast_divisor(eqn, producer):
    """XLA CPU multiplies by the reciprocal of a literal, smaller or broadcast divisor (then the
    product may be contracted); it divides by one of the result's shape (``_host_eager._division``)."""
    d = eqn.invars[1]
    return not _is_var(d) or _shape(d) != _shape(eqn.outvars[0]) or producer.get(d) == "broadcast_in_dim"


def _codegen_independent(jaxpr):
    """No 16-bit or complex float anywhere (XLA may keep chained ops in float32 depending on its
    fusion) and no product feeding an add or sub (LLVM contracts it into an FMA in some loop forms
    and not in others: measured, ``tanh(x) * x + 1`` of (6, 8) differs from its (8, 8) bucket in
    every value), nested calls followed through."""
    producer = {}

    def walk(jx):
        for eqn in jx.eqns:
            for v in list(eqn.invars) + list(eqn.outvars):
                dt = getattr(v.aval, "dtype", None)
                if dt is not None and np.issubdtype(dt, np.inexact) and str(dt) not in _FLOATS:
                    return False
            name = eqn.primitive.name
            inner = _CALLS.get(name)
            if inner is not None:
                sub = eqn.params[inner].jaxpr
                producer.update((i, producer.get(o)) for o, i in zip(eqn.invars, sub.invars) if _is_var(o))
                if not walk(sub):
                    return False
                producer.update((o, producer.get(i)) for i, o in zip(sub.outvars, eqn.outvars) if _is_var(i))
                continue
            if name in _SUMS and any(_is_var(v) and producer.get(v) in _PRODUCTS for v in eqn.invars):
                return False
            if name == "div" and not _broadcast_divisor(eqn, producer):
                name = "div_ieee"    # XLA keeps it a division: nothing to contract
            producer.update((o, name) for o in eqn.outvars)
        return True

    return walk(jaxpr)


def _equations(jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        inner = _CALLS.get(eqn.primitive.name)
        if inner is not None:
            yield from _equations(eqn.params[inner].jaxpr)


def _interpret(jaxpr, args, new_shape):
    """Bind ``jaxpr``'s equations again on ``args`` (traced at the bucket's shapes), with the
    shape parameters rewritten; a nested ``jit`` stays a ``jit`` of its rewritten program, a
    ``custom_jvp_call`` is inlined (as its lowering inlines it)."""
    env = dict(zip(jaxpr.invars, args))
    read = lambda v: v.val if not _is_var(v) else env[v]   # noqa: E731
    for eqn in jaxpr.eqns:
        name, params = eqn.primitive.name, dict(eqn.params)
        invals = list(map(read, eqn.invars))
        if name == "custom_jvp_call":
            env.update(zip(eqn.outvars, _interpret(params["call_jaxpr"].jaxpr, invals, new_shape)))
            continue
        if name in _CALLS:
            inner = params["jaxpr"].jaxpr
            params["jaxpr"] = jax.make_jaxpr(lambda *a, j=inner: _interpret(j, a, new_shape))(
                *[_aval(v, new_shape) for v in inner.invars])
        elif name in ("broadcast_in_dim", "iota"):
            params["shape"] = new_shape(eqn.outvars[0])
        elif name == "reshape":
            params["new_sizes"] = new_shape(eqn.outvars[0])
        outs = eqn.primitive.bind(*invals, **params)
        env.update(zip(eqn.outvars, outs if eqn.primitive.multiple_results else [outs]))
    return [read(v) for v in jaxpr.outvars]


def _aval(v, new_shape):
    return jax.ShapeDtypeStruct(new_shape(v), v.aval.dtype, weak_type=v.aval.weak_type)


def _rebuild(closed, new_shape):
    jaxpr = closed.jaxpr
    in_avals = [_aval(v, new_shape) for v in jaxpr.invars]
    try:
        bucket = jax.make_jaxpr(lambda *a: _interpret(jaxpr, a, new_shape))(*in_avals)
    except Exception:  # noqa: BLE001 - a primitive that refuses the new shapes: no bucket
        return None
    if [a.dtype for a in bucket.out_avals] != [a.dtype for a in closed.out_avals] or \
            [a.weak_type for a in bucket.out_avals] != [a.weak_type for a in closed.out_avals]:
        return None
    key = (str(bucket.jaxpr), tuple((a.shape, str(a.dtype), a.weak_type) for a in bucket.in_avals))
    return Bucket(bucket, in_avals, [_shape(v) for v in jaxpr.outvars], key)
