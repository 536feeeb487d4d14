"""First PyNative calls of exact primitives run on the host (msjax/runtime/_host_eager.py):
bit equality with XLA CPU's compiled programs for every routed primitive and dtype, on
values that probe XLA's semantics (NaN, infinities, signed zeros, denormals, extremes,
rounding ties); the N-th call of a program compiles it; what is not routed compiles."""
import itertools

import jax
import ml_dtypes
import numpy as np
import pytest
from jax import lax

import msjax as ms  # noqa: F401  (installs the host path)
from msjax.runtime import _host_eager as he

BF16 = np.dtype(ml_dtypes.bfloat16)
FLOATS = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]
INTS = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)]
BOOL = np.dtype(np.bool_)


def _float_pool(dt):
    fi = ml_dtypes.finfo(dt) if dt == BF16 else np.finfo(dt)
    tiny = float(fi.tiny)
    vals = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 0.49999997,
            float(fi.max), -float(fi.max), tiny, -tiny, tiny / 2, -tiny / 4, tiny * 0.999, float(fi.eps),
            3e9, -3e9, 1e19, -1e19, 2.0 ** 31, -(2.0 ** 31), 2.0 ** 63, 65504.0, 65520.0, 1e-7, -6e-8, 300.7, -129.5]
    rng = np.random.RandomState(dt.itemsize)
    vals += list(rng.standard_normal(20) * 10.0 ** rng.randint(-3, 4, 20))
    with np.errstate(all="ignore"):
        return np.array(vals, np.float64).astype(dt)


def _int_pool(dt):
    info = np.iinfo(dt)
    vals = [0, 1, 2, 3, 7, -1, -2, -7, info.min, info.max, info.min + 1, info.max - 1, info.bits - 1, info.bits,
            info.bits + 1, 5, -128, 255, 2 ** 24 + 2 ** 16 + 1, 16777217, 2049, 65520]
    rng = np.random.RandomState(info.bits)
    vals = [v for v in vals if info.min <= v <= info.max] + list(rng.randint(info.min, info.max, 16, dtype=dt))
    return np.array(vals, dt)


def _pool(dt):
    if dt == BOOL:
        return np.array([True, False, True, True, False, False], BOOL)
    return _int_pool(dt) if dt.kind in "iu" else _float_pool(dt)


def _pairs(dt):
    """Every pool value against every other (the cross product), as two flat arrays."""
    p = _pool(dt)
    a, b = np.meshgrid(p, p, indexing="ij")
    return a.ravel(), b.ravel()


UNARY = {
    "neg": lax.neg, "abs": lax.abs, "sign": lax.sign, "floor": lax.floor, "ceil": lax.ceil,
    "round0": lambda x: lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO),
    "round1": lambda x: lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN),
    "is_finite": lax.is_finite, "sqrt": lax.sqrt, "square": lax.square,
    "pow2": lambda x: lax.integer_pow(x, 2), "pow3": lambda x: lax.integer_pow(x, 3),
    "pow_1": lambda x: lax.integer_pow(x, -1), "not": lax.bitwise_not,
}
BINARY = {
    "add": lax.add, "sub": lax.sub, "mul": lax.mul, "div": lax.div, "rem": lax.rem, "max": lax.max,
    "min": lax.min, "eq": lax.eq, "ne": lax.ne, "lt": lax.lt, "le": lax.le, "gt": lax.gt, "ge": lax.ge,
    "and": lax.bitwise_and, "or": lax.bitwise_or, "xor": lax.bitwise_xor, "shl": lax.shift_left,
    "shra": lax.shift_right_arithmetic, "shrl": lax.shift_right_logical,
    "select": lambda x, y: lax.select(lax.lt(x, y), x, y),
}
FLOAT_ONLY = {"floor", "ceil", "round0", "round1", "is_finite", "sqrt"}
INT_ONLY = {"not", "and", "or", "xor", "shl", "shra", "shrl"}
BOOL_OK = {"not", "and", "or", "xor", "eq", "ne", "lt", "le", "gt", "ge", "select"}


def _applies(name, dt):
    if dt == BOOL:
        return name in BOOL_OK
    if dt.kind in "iu":
        return name not in FLOAT_ONLY and name != "pow_1" and not (dt.kind == "u" and name in ("abs", "neg"))
    if dt.itemsize == 2 and name == "pow3":
        return False                   # two roundings that XLA may keep in float32: compiled
    return name not in INT_ONLY and name != "rem"   # XLA's float rem keeps some denormals: compiled


def _same(a, b):
    """Bit equality (any NaN equals any NaN), same dtype, shape and weak type."""
    assert a.dtype == b.dtype and a.shape == b.shape and getattr(a, "weak_type", 0) == getattr(b, "weak_type", 0)
    x, y = np.asarray(a), np.asarray(b)
    if x.dtype.kind == "b" or x.dtype.kind in "iu":
        return np.array_equal(x, y)
    nan = np.isnan(x.astype(np.float64)) & np.isnan(y.astype(np.float64))
    u = np.dtype(f"u{x.dtype.itemsize}")
    return bool(np.all(nan | (x.view(u) == y.view(u))))


def _first_difference(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return next(i for i in range(a.size) if not _same(a[i:i + 1], b[i:i + 1]))


@pytest.fixture
def host_only(monkeypatch):
    """Every routed call stays on the host (no compile) while the test runs."""
    monkeypatch.setattr(he, "THRESHOLD", 10 ** 9)
    monkeypatch.setattr(he, "_ON", True)
    return he


def _host(fn, *args):
    before = he.stats()
    out = fn(*args)
    after = he.stats()
    assert after["host"] > before["host"] and after["compiled"] == before["compiled"], f"not run on the host ({after['last_refusal']})"
    return out


def _compiled(fns, *args):
    """All ``fns`` in one compiled program (independent outputs: no fusion changes their rounding)."""
    he.enabled(False)
    try:
        return jax.jit(lambda *a: [f(*a) for f in fns])(*args)
    finally:
        he.enabled(True)


@pytest.mark.parametrize("dt", FLOATS + INTS + [BOOL], ids=str)
def test_elementwise_bit_equal_to_xla(dt, host_only):
    x, y = (jax.numpy.asarray(v) for v in _pairs(dt))
    un = [(n, f) for n, f in UNARY.items() if _applies(n, dt)]
    bi = [(n, f) for n, f in BINARY.items() if _applies(n, dt)]
    if dt.kind in "iu" and dt != BOOL:   # shift amounts: small ones too
        y = jax.numpy.asarray(np.asarray(y) % (dt.itemsize * 8 + 3))
    ref = _compiled([(lambda f: lambda a, b: f(a))(f) for _, f in un] + [f for _, f in bi], x, y)
    wrong = []
    for (n, f), r in zip(un + bi, ref):
        try:
            out = _host(f, x) if (n, f) in un else _host(f, x, y)
        except AssertionError as e:
            raise AssertionError(f"{n}: {e}") from None
        if not _same(out, r):
            i = _first_difference(out, r)
            wrong.append(f"{n}: x={np.asarray(x)[i]!r} y={np.asarray(y)[i]!r} host={np.asarray(out)[i]!r} "
                         f"xla={np.asarray(r)[i]!r}")
    assert not wrong, "\n".join(wrong)


CONVERT_DTS = FLOATS + INTS + [BOOL]


@pytest.mark.parametrize("src", CONVERT_DTS, ids=str)
def test_convert_bit_equal_to_xla(src, host_only):
    x = jax.numpy.asarray(_pool(src))
    targets = [t for t in CONVERT_DTS if t != src and he._convert_ok(src, t)]
    ref = _compiled([(lambda t: lambda a: lax.convert_element_type(a, t))(t) for t in targets], x)
    wrong = []
    for t, r in zip(targets, ref):
        out = _host(lambda a: lax.convert_element_type(a, t), x)
        if not _same(out, r):
            i = _first_difference(out, r)
            wrong.append(f"{src}->{t}: x={np.asarray(x)[i]!r} host={np.asarray(out)[i]!r} xla={np.asarray(r)[i]!r}")
    assert not wrong, "\n".join(wrong)


def test_layout_bit_equal_to_xla(host_only):
    x = jax.numpy.asarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7.5)
    i = jax.numpy.asarray(np.int32(2))
    fns = [
        lambda a, k: lax.broadcast_in_dim(a, (5, 2, 3, 4), (1, 2, 3)),
        lambda a, k: lax.broadcast_in_dim(a[:, :1], (2, 6, 4), (0, 1, 2)),
        lambda a, k: lax.reshape(a, (4, 6)), lambda a, k: lax.squeeze(a[:1], (0,)),
        lambda a, k: lax.transpose(a, (2, 0, 1)), lambda a, k: lax.rev(a, (0, 2)),
        lambda a, k: lax.concatenate([a, a * 0], 1), lambda a, k: lax.slice(a, (0, 1, 0), (2, 3, 4), (1, 1, 2)),
        lambda a, k: lax.dynamic_slice(a, (k, k, k), (1, 2, 3)),
        lambda a, k: lax.dynamic_slice(a, (-k, k - 9, k), (2, 1, 2)),
        lambda a, k: lax.iota(np.int64, 5), lambda a, k: lax.broadcasted_iota(np.float16, (3, 4), 1),
        lambda a, k: jax.numpy.where(a > 0, a, 0.0), lambda a, k: jax.nn.relu(a),
        lambda a, k: jax.numpy.add(a, 2), lambda a, k: jax.numpy.add(k, 2.5),
    ]
    ref = _compiled(fns, x, i)
    for n, (f, r) in enumerate(zip(fns, ref)):
        if n in (2, 3, 4, 5, 10, 11):         # single primitives: through JAX's primitive dispatch
            out = _host(f, x, i)
        else:                                 # small programs: through jax.jit's cache miss
            out = _host(jax.jit(f), x, i)
        assert _same(out, r), n
        assert out.sharding == r.sharding and out.committed == r.committed


def test_nth_call_compiles_and_warm_calls_stay_compiled(monkeypatch):
    monkeypatch.setattr(he, "THRESHOLD", 2)
    x = jax.numpy.asarray(np.linspace(-3, 3, 7 * 5, dtype=np.float32).reshape(7, 5))   # a shape no other test uses
    seen = []
    for _ in range(4):
        before = he.stats()
        out = lax.mul(x, x)
        after = he.stats()
        seen.append("host" if after["host"] > before["host"] else
                    "compiled" if after["compiled"] > before["compiled"] else "cached")
        assert _same(out, _compiled([lax.mul], x, x)[0])
    assert seen == ["host", "host", "compiled", "cached"]


def test_not_routed_programs_compile(host_only):
    x = jax.numpy.asarray(np.linspace(0.1, 2, 9, dtype=np.float32))
    for f in (lambda a: lax.exp(a), lambda a: a * a + a, lambda a: jax.numpy.sum(a), lambda a: lax.rem(a, a),
              lambda a: lax.integer_pow(a.astype(np.float16), 3),
              lambda a: lax.convert_element_type(a.astype(np.float64), ml_dtypes.bfloat16)):
        before = he.stats()
        jax.jit(f)(x)
        assert he.stats()["compiled"] > before["compiled"] and he.stats()["host"] == before["host"]


def test_committed_inputs_compile(host_only):
    x = jax.device_put(np.float32([1.5, 2.5, 9.5]), jax.devices()[0])    # committed to a device
    before = he.stats()
    out = lax.sub(x, x)
    assert he.stats()["host"] == before["host"] and out.committed


def test_switch_off(host_only):
    he.enabled(False)
    try:
        before = he.stats()
        lax.add(jax.numpy.asarray(np.float32([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])), np.float32(1))
        assert he.stats()["host"] == before["host"]
    finally:
        he.enabled(True)
