"""Cases for the host path of PyNative first calls (``msjax/runtime/_host_eager.py``):
each routed primitive on every dtype MindSpore uses, on values that probe XLA CPU's
semantics (NaN, infinities, signed zeros, denormals, extremes, rounding ties), every
pool value against every other. ``record_host_eager.py`` keeps XLA's compiled results
as digests in ``host_eager_xla.json``; ``tests/test_host_eager.py`` checks the host path
against them (and a sample against the installed XLA, live)."""
import hashlib

import jax
import ml_dtypes
import numpy as np
from jax import lax

BF16 = np.dtype(ml_dtypes.bfloat16)
FLOATS = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]
INTS = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)]
BOOL = np.dtype(np.bool_)
DTYPES = FLOATS + INTS + [BOOL]


def _float_pool(dt):
    fi = ml_dtypes.finfo(dt) if dt == BF16 else np.finfo(dt)
    tiny = float(fi.tiny)
    vals = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 0.49999997,
            float(fi.max), -float(fi.max), tiny, -tiny, tiny / 2, -tiny / 4, tiny * 0.999, float(fi.eps),
            3e9, -3e9, 1e19, -1e19, 2.0 ** 31, -(2.0 ** 31), 2.0 ** 63, 65504.0, 65520.0, 1e-7, -6e-8, 300.7, -129.5]
    rng = np.random.RandomState(dt.itemsize)
    vals += list(rng.standard_normal(12) * 10.0 ** rng.randint(-3, 4, 12))
    with np.errstate(all="ignore"):
        return np.array(vals, np.float64).astype(dt)


def _int_pool(dt):
    info = np.iinfo(dt)
    vals = [0, 1, 2, 3, 7, -1, -2, -7, info.min, info.max, info.min + 1, info.max - 1, info.bits - 1, info.bits,
            info.bits + 1, 5, -128, 255, 2 ** 24 + 2 ** 16 + 1, 16777217, 2049, 65520]
    rng = np.random.RandomState(info.bits)
    vals = [v for v in vals if info.min <= v <= info.max] + list(rng.randint(info.min, info.max, 12, dtype=dt))
    return np.array(vals, dt)


def pool(dt):
    if dt == BOOL:
        return np.array([True, False, True, True, False, False], BOOL)
    return _int_pool(dt) if dt.kind in "iu" else _float_pool(dt)


def pairs(dt):
    """Every pool value against every other, as two flat arrays (shift amounts for
    integers folded into a range that reaches the width and past it)."""
    p = pool(dt)
    a, b = np.meshgrid(p, p, indexing="ij")
    a, b = a.ravel(), b.ravel()
    if dt.kind in "iu":
        b = b % (dt.itemsize * 8 + 3)
    return a, b


UNARY = {
    "neg": lax.neg, "abs": lax.abs, "sign": lax.sign, "floor": lax.floor, "ceil": lax.ceil,
    "round0": lambda x: lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO),
    "round1": lambda x: lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN),
    "is_finite": lax.is_finite, "sqrt": lax.sqrt, "square": lax.square,
    "pow2": lambda x: lax.integer_pow(x, 2), "pow3": lambda x: lax.integer_pow(x, 3),
    "pow_1": lambda x: lax.integer_pow(x, -1), "pow5": lambda x: lax.integer_pow(x, 5), "not": lax.bitwise_not,
}
BINARY = {
    "add": lax.add, "sub": lax.sub, "mul": lax.mul, "div": lax.div, "rem": lax.rem, "max": lax.max,
    "min": lax.min, "eq": lax.eq, "ne": lax.ne, "lt": lax.lt, "le": lax.le, "gt": lax.gt, "ge": lax.ge,
    "and": lax.bitwise_and, "or": lax.bitwise_or, "xor": lax.bitwise_xor, "shl": lax.shift_left,
    "shra": lax.shift_right_arithmetic, "shrl": lax.shift_right_logical,
    "select": lambda x, y: lax.select(lax.lt(x, y), x, y),
}
FLOAT_ONLY = {"floor", "ceil", "round0", "round1", "is_finite", "sqrt", "pow_1"}
INT_ONLY = {"not", "and", "or", "xor", "shl", "shra", "shrl", "rem"}   # float rem: XLA's fmod, compiled
BOOL_OK = {"not", "and", "or", "xor", "eq", "ne", "lt", "le", "gt", "ge", "select"}


def applies(name, dt):
    if dt == BOOL:
        return name in BOOL_OK
    if dt.kind in "iu":
        return name not in FLOAT_ONLY and not (dt.kind == "u" and name in ("abs", "neg"))
    if dt.itemsize == 2 and name in ("pow3", "pow5"):
        return False                 # several roundings XLA may keep in float32: compiled
    return name not in INT_ONLY


def convert_targets(src):
    from msjax.runtime._host_eager import convertible
    return [t for t in DTYPES if t != src and convertible(src, t)]


def elementwise(dt):
    """(name, function, number of operands) of every case on ``dt``."""
    return [(n, f, 1) for n, f in UNARY.items() if applies(n, dt)] + \
           [(n, f, 2) for n, f in BINARY.items() if applies(n, dt)]


REDUCTIONS = {
    "rmax": lambda x: lax.reduce_max(x, (1,)), "rmin": lambda x: lax.reduce_min(x, (0,)),
    "argmax": lambda x: lax.argmax(x, 1, np.int32), "argmin": lambda x: lax.argmin(x, 0, np.int32),
}


def reductions(dt):
    """(name, function) of each reduction over a (pool, pool) table of ``dt`` (rows and columns)."""
    if dt == BOOL:
        return []
    # XLA's float max/min reductions give -0.0 or +0.0 by the program around them: compiled
    return [(n, f) for n, f in REDUCTIONS.items() if dt.kind in "iu" or n.startswith("arg")]


def table(dt):
    """The pool against itself: a square table whose rows and columns mix NaN, signed zeros,
    denormals and ties, plus a row of -0.0 and +0.0 only."""
    a, b = pairs(dt)
    n = len(pool(dt))
    t = np.where(np.arange(n * n).reshape(n, n) % 3 == 0, a.reshape(n, n), b.reshape(n, n)).astype(dt)
    if dt.kind == "f" or dt == BF16:
        t[0] = np.where(np.arange(n) % 2, -0.0, 0.0).astype(dt)
        t[1] = np.where(np.arange(n) % 2, 0.0, -0.0).astype(dt)
        t[:, 2] = -0.0
    return t


def layout():
    """(name, function of (x, k), routed as one primitive) on a (2, 3, 4) float32 and an int32 scalar."""
    return [
        ("bcast", lambda a, k: lax.broadcast_in_dim(a, (5, 2, 3, 4), (1, 2, 3)), True),
        ("bcast_mid", lambda a, k: lax.broadcast_in_dim(a[:, :1], (2, 6, 4), (0, 1, 2)), False),
        ("reshape", lambda a, k: lax.reshape(a, (4, 6)), True),
        ("squeeze", lambda a, k: lax.squeeze(a[:1], (0,)), False),
        ("transpose", lambda a, k: lax.transpose(a, (2, 0, 1)), True),
        ("rev", lambda a, k: lax.rev(a, (0, 2)), True),
        ("concat", lambda a, k: lax.concatenate([a, -a], 1), False),
        ("slice", lambda a, k: lax.slice(a, (0, 1, 0), (2, 3, 4), (1, 1, 2)), True),
        ("dslice", lambda a, k: lax.dynamic_slice(a, (k, k, k), (1, 2, 3)), False),
        ("dslice_clamped", lambda a, k: lax.dynamic_slice(a, (-k, k - 9, k), (2, 1, 2)), False),
        ("iota", lambda a, k: lax.iota(np.int64, 5), True),
        ("iota2", lambda a, k: lax.broadcasted_iota(np.float16, (3, 4), 1), True),
        ("where", lambda a, k: jax.numpy.where(a > 0, a, 0.0), False),
        ("split", lambda a, k: jax.numpy.split(a, [1, 3], 2), False),
        ("any", lambda a, k: jax.numpy.any(a > 3, 1), False),
        ("int_sum", lambda a, k: jax.numpy.sum(a.astype(np.int8) * 50, (0, 2)), False),
        ("relu", lambda a, k: jax.nn.relu(a), False),
        ("add_weak", lambda a, k: jax.numpy.add(a, 2), False),
        ("int_plus_float", lambda a, k: jax.numpy.add(k, 2.5), False),
    ]


def layout_inputs():
    return (jax.numpy.asarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7.5),
            jax.numpy.asarray(np.int32(2)))


def canonical(a):
    """An output's bytes with every NaN made one NaN (XLA's NaN payloads are not a result)."""
    x = np.asarray(a)
    if x.dtype.kind == "f" or x.dtype == BF16:
        nan = np.isnan(x)
        x = np.where(nan, x.dtype.type(np.nan), x)
    return x.tobytes()


def digest(a):
    if isinstance(a, (list, tuple)):
        return "|".join(map(digest, a))
    return f"{a.dtype}{list(a.shape)}{'w' if a.weak_type else ''}:" + hashlib.sha256(canonical(a)).hexdigest()[:20]
