"""XLA CPU's float32 exp/log/logistic/tanh replayed with NumPy and sin/cos/pow called in the C library
as XLA calls them (``runtime/_host_math.py``), and the
first PyNative calls that use them: bit equality with the compiled primitive (special values,
ranges around the clamps, random bit patterns, shapes), a first (host), a 4th (compiled) and a
loaded call giving the same bits, and the programs left to XLA (exp or log of a size XLA finishes
with the C library, a fused neighbour, a constant operand, other dtypes, other XLA flags)."""
import weakref

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import msjax as ms
from msjax import ops
from msjax.common import _eager_store
from msjax.ops._impl import conv_lowering, reduction
from msjax.runtime import _host_eager as he
from msjax.runtime import _host_math as hm

pytestmark = pytest.mark.skipif(not hm.available(), reason="another jaxlib or CPU: XLA's arithmetic may differ")

PRIMS = {"exp": jnp.exp, "log": jnp.log, "logistic": jax.nn.sigmoid, "tanh": jnp.tanh}
REFS = dict(PRIMS, sin=jnp.sin, cos=jnp.cos, pow=lambda a: jnp.power(a, np.float32(1.5)))


def _xla_tanh(x):
    """``ops.tanh`` on XLA's ``tanh`` (float32 on the CPU is otherwise nnacl's rational form, several primitives)."""
    with conv_lowering.forced("xla"):
        return ops.tanh(x)


OPS = {"exp": ops.exp, "log": ops.log, "logistic": ops.sigmoid, "tanh": _xla_tanh, "sin": ops.sin, "cos": ops.cos,
       "pow": lambda x: ops.pow(x, 1.5)}


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(he, "_TABLE", weakref.WeakKeyDictionary())
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 0.0)     # the call after THRESHOLD host calls compiles
    monkeypatch.setattr(he, "_ON", True)
    monkeypatch.setattr(he, "STORE", [None])
    jax.clear_caches()
    yield he
    jax.clear_caches()


def _bits(a):
    return np.asarray(a, np.float32).view(np.uint32)


def _compiled(fn, x):
    """XLA's result: compiled ahead of time, so the host path cannot answer it."""
    return _bits(jax.jit(fn).lower(x).compile()(x))


def _values():
    f = np.float32
    special = np.array([0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45, 1e-38, 1.2e-38, 1e-20, -1e-20,
                        4e-4, -4e-4, 3.9999e-4, 7.999, 8.0, -8.0, 20.0, -20.0, 19.999, 88.72, 88.73, 88.8, 89.0,
                        -87.3, -87.34, -87.5, -87.8, -88.0, -103.0, -104.0, 0.5, 1.0, -1.0], f)
    payloads = np.array([0x7FC12345, 0xFFD12345, 0x7F812345, 0xFF800001], np.uint32).view(f)
    ranges = np.concatenate([np.linspace(-90, 90, 4096, dtype=f), np.linspace(-88.5, -86.5, 2048, dtype=f),
                             np.linspace(-1e-3, 1e-3, 1024, dtype=f), np.linspace(7.5, 21, 1024, dtype=f)])
    rs = np.random.RandomState(0)
    rand = rs.randint(0, 2 ** 32, 1 << 14, dtype=np.uint64).astype(np.uint32).view(f)
    typical = np.concatenate([rs.uniform(-90, 90, 1 << 15), rs.standard_normal(1 << 15) * 4,
                              np.exp(rs.uniform(-87, 88, 1 << 14)), rs.uniform(0, 3, 1 << 14)]).astype(f)
    x = np.concatenate([special, payloads, ranges, -ranges, rand, typical])
    return np.resize(x, (x.size + 7) // 8 * 8)


@pytest.mark.parametrize("name", sorted(PRIMS))
def test_bit_equal_to_the_compiled_primitive(name):
    x = _values()
    np.testing.assert_array_equal(_bits(getattr(hm, name)(x)), _compiled(PRIMS[name], x))


@pytest.mark.parametrize("name", ["sin", "cos"])
def test_c_library_calls_bit_equal(name, monkeypatch):
    monkeypatch.setattr(hm, "LIBM_MAX_ELEMENTS", 1 << 20)
    x = _values()[::2]
    np.testing.assert_array_equal(_bits(getattr(hm, name)(x)), _compiled(getattr(jnp, name), x))


def test_pow_bit_equal_with_a_runtime_exponent(monkeypatch):
    monkeypatch.setattr(hm, "LIBM_MAX_ELEMENTS", 1 << 20)
    x = _values()[::2]
    y = np.resize(np.array([1.5, 2.0, 0.5, -1.5, 0.3, 3.0, -0.5, 0.0, np.inf, np.nan, 2.5, -2.0], np.float32), x.shape)
    for base in (np.abs(x), x):
        with pytest.raises(hm.Refused):                   # zeros, denormals, infinities, NaN
            hm.power(base, y)
        e = base.view(np.uint32) & 0x7F800000
        ok = (e != 0) & (e != 0x7F800000) & np.isfinite(y) & (y != 0)
        b, z = base[ok], y[ok]
        want = _bits(jax.jit(jnp.power).lower(b, z).compile()(b, z))
        np.testing.assert_array_equal(_bits(hm.power(b, z)), want)


@pytest.mark.parametrize("name", sorted(PRIMS))
def test_shapes(name):
    rs = np.random.RandomState(1)
    for shape in [(3, 5), (2, 3, 8), (1, 13)]:      # no C-library tail beyond 1-D
        x = (rs.standard_normal(shape) * 6).astype(np.float32)
        np.testing.assert_array_equal(_bits(getattr(hm, name)(x)), _compiled(PRIMS[name], x))


@pytest.mark.parametrize("name", ["exp", "log"])
def test_short_1d_tails_call_the_c_library_as_xla(name):
    """A 1-D program of 3, 5-7, 11, 13-15 elements: XLA's last partial vector is expf/logf."""
    v = _values()
    x = np.concatenate([v[:64], v[64::600]])         # the special values, then a sample of the rest
    for n in (3, 7, 13, 9):
        fn = jax.jit(PRIMS[name]).lower(jax.ShapeDtypeStruct((n,), np.float32)).compile()
        rows = np.resize(x, (x.size + n - 1) // n * n).reshape(-1, n)
        want, got = [], []
        for r in rows:
            try:
                got.append(_bits(getattr(hm, name)(r)))
            except hm.Refused:                   # a denormal (or, exp: an underflowing) tail value
                tail = r[n - n % 8:]
                assert np.any((tail != 0) & (np.abs(tail) < 1.18e-38)) or name == "exp" and np.any(tail < -87.3)
                continue
            want.append(_bits(fn(r)))
        assert len(got) > len(rows) // 2
        np.testing.assert_array_equal(np.stack(got), np.stack(want), err_msg=f"{name} of {n} elements")


@pytest.mark.parametrize("name", ["exp", "tanh", "sin", "pow"])     # one of each family
def test_first_calls_on_the_host_then_compiled_same_bits(fresh, name):
    v = np.random.RandomState(2).standard_normal((8, 16)) * 4
    x = ms.Tensor((np.abs(v) if name in ("log", "pow") else v).astype(np.float32))
    outs, hosted = [], []
    for _ in range(2 * he.THRESHOLD + 2):     # msjax's first call and its cached kernel: two programs
        before = he.stats()["host"]
        outs.append(_bits(OPS[name](x).asnumpy()))
        hosted.append(he.stats()["host"] > before)
    assert hosted[0] and not hosted[-1]
    ref = _compiled(REFS[name], x._data)
    for out in outs:
        np.testing.assert_array_equal(out, ref)


def test_host_compiled_and_loaded_calls_agree(tmp_path, monkeypatch):
    monkeypatch.setenv(_eager_store.DIR_ENV, str(tmp_path / "eager"))
    monkeypatch.delenv(_eager_store.OFF_ENV, raising=False)
    monkeypatch.setattr(he, "_TABLE", weakref.WeakKeyDictionary())
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 0.0)
    monkeypatch.setattr(he, "_ON", True)
    monkeypatch.setattr(_eager_store, "_BYTES", {})
    jax.clear_caches()
    x = ms.Tensor(np.random.RandomState(3).standard_normal((4, 16)).astype(np.float32))
    calls = [_bits(_xla_tanh(x).asnumpy()) for _ in range(he.THRESHOLD + 1)]    # host, host, host, compiled
    assert he.stats()["stored"] and (tmp_path / "eager").exists()
    jax.clear_caches()                                # as a new process
    monkeypatch.setattr(he, "THRESHOLD", 0)
    before = he.stats()["loaded"]
    loaded = _bits(_xla_tanh(x).asnumpy())
    assert he.stats()["loaded"] == before + 1
    for c in calls:
        np.testing.assert_array_equal(c, loaded)
    jax.clear_caches()


def _plan(fn, *args):
    return he._plan(jax.make_jaxpr(fn)(*args).jaxpr, [0])


def test_programs_left_to_xla(fresh):
    f32 = np.ones(16, np.float32)
    assert _plan(jnp.exp, f32) is not None and _plan(jax.jit(jnp.tanh), f32) is not None
    assert _plan(lambda a: jnp.exp(a) * 2, f32) is None            # fused with a neighbour
    assert _plan(lambda a: jnp.exp(a.T), np.ones((2, 8), np.float32)) is None
    assert _plan(lambda: jnp.exp(np.float32(2))) is None           # XLA folds a constant operand
    assert _plan(lambda a: jnp.power(a, np.float32(2.0)), f32) is None     # XLA rewrites x ** 2.0 as x * x
    assert _plan(lambda a: jnp.sin(a) * 2, f32) is None
    assert _plan(lambda a, b: jnp.power(a, b.astype(np.float32)), f32, np.float64(1.5)) is not None
    for dt in (np.float64, np.float16, jnp.bfloat16):
        assert _plan(jnp.exp, np.ones(16, dt)) is None
    for n in (21, 7):                                                # exp of 21 and 7 elements: on the host
        x = ms.Tensor(np.linspace(-3, 3, n, dtype=np.float32))
        before = he.stats()
        out = ops.exp(x).asnumpy()
        assert he.stats()["host"] == before["host"] + 1
        np.testing.assert_array_equal(_bits(out), _compiled(jnp.exp, x._data))


def test_other_xla_flags_or_cpus_turn_it_off(monkeypatch):
    assert hm._check()
    monkeypatch.setenv("XLA_FLAGS", "--xla_cpu_enable_fast_math=true")
    assert not hm._check()
    monkeypatch.delenv("XLA_FLAGS")
    vendor, flags = hm._cpu()
    base = [f for f in flags if not f.startswith("avx512")]
    for cpu, measured in [(("GenuineIntel", base), True), (("AuthenticAMD", base + ["avx512f"]), True),
                          (("GenuineIntel", base + ["avx512f"]), False),
                          ((vendor, [f for f in base if f != "fma"]), False)]:
        monkeypatch.setattr(hm, "_cpu", lambda cpu=cpu: cpu)
        assert hm._check() is measured, cpu[0]
    monkeypatch.undo()
    monkeypatch.setattr(hm, "VERIFIED_JAXLIB", "0.0.0")
    assert not hm._check()


def _sum_values(rs, shape):
    x = (rs.standard_normal(shape) * 10.0 ** rs.randint(-3, 4, shape)).astype(np.float32)
    x.flat[::5] = -0.0
    x.flat[::7] = np.float32(3e-39) * np.sign(x.flat[::7])     # denormal operands and partial sums
    x.flat[::11] = np.float32(1.1e-38)
    return x


@pytest.mark.parametrize("shape,axis,dt", [((8, 16), 1, np.float32), ((16, 8), 0, np.float32), ((5,), 0, np.float32),
                                           ((3, 32), 1, np.float32), ((32, 3), 0, np.float32), ((1, 1), 1, np.float32),
                                           ((32, 5), 0, np.float64), ((4, 17), 1, np.float64)])
def test_float_sums_added_in_order_as_xla(fresh, shape, axis, dt):
    rs = np.random.RandomState(sum(shape))
    x = _sum_values(rs, shape).astype(dt)
    if dt == np.float64:                       # wide exponents and float64 denormals: the order shows
        x = x * 10.0 ** rs.randint(-20, 20, shape) + (x.flat[0] * 1e-300 if x.flat[0] else 1e-310)
    fn = lambda a: jnp.sum(a, axis)            # noqa: E731
    host = he._evaluate(jax.make_jaxpr(fn)(x).jaxpr, _plan(fn, x), [x])[0]
    bits = (lambda a: np.asarray(a).view(np.uint64)) if dt == np.float64 else _bits
    np.testing.assert_array_equal(bits(host), bits(jax.jit(fn).lower(x).compile()(x)))
    neg = np.full(shape, -0.0, dt)             # XLA starts from +0.0
    np.testing.assert_array_equal(bits(he._evaluate(jax.make_jaxpr(fn)(neg).jaxpr, _plan(fn, neg), [neg])[0]),
                                  bits(jax.jit(fn).lower(neg).compile()(neg)))


def test_sum_mean_softmax_first_calls_same_bits(fresh):
    rs = np.random.RandomState(4)
    x = ms.Tensor(_sum_values(rs, (8, 16)))
    # ops.sum and ops.mean are ReduceSum's / ReduceMean's kernels compiled (MindSpore's CPU summation
    # order: reduce_order)
    for op, ref in ((lambda t: ops.sum(t, 1), lambda a: reduction._sum_keep_dtype(a, (1,))),
                    (lambda t: ops.mean(t, 0), lambda a: reduction._mean_keep_dtype(a, (0,)))):
        outs = [_bits(op(x).asnumpy()) for _ in range(2 * he.THRESHOLD + 2)]
        for out in outs:
            np.testing.assert_array_equal(out, _compiled(ref, x._data))
    first = [_bits(ops.softmax(x, -1).asnumpy()) for _ in range(2 * he.THRESHOLD + 2)]
    assert all(np.array_equal(f, first[-1]) for f in first)
    f33 = np.ones((2, 33), np.float32)          # XLA splits longer sums into vector lanes: compiled
    assert _plan(lambda a: jnp.sum(a, 1), f33) is None and _plan(lambda a: jnp.sum(a), np.ones((2, 3), np.float32)) is None
    assert _plan(lambda a: jnp.sum(a, 1), np.ones((2, 33), np.float64)) is None
