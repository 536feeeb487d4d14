"""First PyNative calls of exact primitives run on the host (msjax/runtime/_host_eager.py):
bit equality with XLA CPU's compiled programs for every routed primitive and dtype
(recorded digests of XLA's results, tests/golden/host_eager_xla.json, and a sample
compiled live), results as jax Arrays of the same dtype, weak type and placement; the
N-th call of a program compiles it and later calls take JAX's fast path; what is not
routed compiles."""
import json
import os
import sys
import weakref

import jax
import ml_dtypes
import numpy as np
import pytest
from jax import lax

import msjax as ms  # noqa: F401  (installs the host path)
from msjax.runtime import _host_eager as he

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import host_eager_cases as C  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "host_eager_xla.json")) as _f:
    XLA = json.load(_f)["digests"]


@pytest.fixture
def host_only(monkeypatch):
    """Every routed call stays on the host (no compile) while the test runs."""
    monkeypatch.setattr(he, "THRESHOLD", 10 ** 9)
    monkeypatch.setattr(he, "_TABLE", weakref.WeakKeyDictionary())   # earlier tests' programs forgotten,
    jax.clear_caches()   # and their compiled ones: a call JAX's C++ cache answers never reaches the host path
    monkeypatch.setattr(he, "_ON", True)
    return he


def _host(fn, *args):
    before = he.stats()
    out = fn(*args)
    after = he.stats()
    assert after["host"] > before["host"] and after["compiled"] == before["compiled"], \
        f"not run on the host ({after['last_refusal']})"
    return out


def _compiled(fn, *args):
    he.enabled(False)
    try:
        return jax.jit(fn)(*args)
    finally:
        he.enabled(True)


def _difference(out, fn, args):
    """Where the host result differs from XLA's (compiled now: only on a failure)."""
    ref = _compiled(fn, *args)
    a, b = np.asarray(out), np.asarray(ref)
    i = next((i for i in range(a.size) if C.canonical(a.ravel()[i:i + 1]) != C.canonical(b.ravel()[i:i + 1])), 0)
    xs = [np.asarray(v).ravel()[i] if np.ndim(v) else v for v in args]
    return f"at {xs}: host {a.ravel()[i]!r}, XLA {b.ravel()[i]!r} ({out.dtype}/{ref.dtype}, weak {out.weak_type})"


@pytest.mark.parametrize("dt", C.DTYPES, ids=str)
def test_elementwise_and_conversions_bit_equal_to_xla(dt, host_only):
    x, y = (jax.numpy.asarray(v) for v in C.pairs(dt))
    wrong = []
    for name, f, nargs in C.elementwise(dt):
        args = (x,) if nargs == 1 else (x, y)
        out = _host(f, *args)
        if C.digest(out) != XLA[f"{dt}:{name}"]:
            wrong.append(f"{name}: {_difference(out, f, args)}")
    t = jax.numpy.asarray(C.table(dt))
    for name, f in C.reductions(dt):
        out = _host(f, t)
        if C.digest(out) != XLA[f"{dt}:{name}"]:
            wrong.append(f"{name}: {_difference(out, f, (t,))}")
    p = jax.numpy.asarray(C.pool(dt))
    for t in C.convert_targets(dt):
        f = (lambda t: lambda a: lax.convert_element_type(a, t))(t)
        out = _host(f, p)
        if C.digest(out) != XLA[f"{dt}->{t}"]:
            wrong.append(f"->{t}: {_difference(out, f, (p,))}")
    assert not wrong, "\n".join(wrong)


def test_layout_bit_equal_to_xla(host_only):
    x, k = C.layout_inputs()
    for name, f, single in C.layout():
        out = _host(f if single else jax.jit(f), x, k)   # a primitive's dispatch, or a jit's cache miss
        assert C.digest(out) == XLA[f"layout:{name}"], f"{name}: {_difference(out, f, (x, k))}"
        for o in out if isinstance(out, list) else [out]:
            assert o.committed is False and o.sharding == x.sharding


def test_a_sample_against_the_installed_xla(host_only):
    """The recorded digests hold for this JAX: flushed denormals, -0.0 in max/min,
    saturating casts, integer division by zero, shifts past the width, on the live compiler."""
    cases = [(np.float32, lambda a, b: (a * b, lax.max(a, b), lax.min(b, a), a / b, lax.sign(a), a > b)),
             (ml_dtypes.bfloat16, lambda a, b: (a + b, lax.max(a, b), lax.convert_element_type(a, np.float64))),
             (np.float64, lambda a, b: (lax.convert_element_type(a, np.int32), lax.convert_element_type(a, np.uint8),
                                        lax.convert_element_type(a, np.float32))),
             (np.int32, lambda a, b: (lax.div(a, b), lax.rem(a, b), lax.shift_right_arithmetic(a, b)))]
    for dt, f in cases:
        x, y = (jax.numpy.asarray(v) for v in C.pairs(np.dtype(dt)))
        for out, ref in zip(_host(f, x, y), _compiled(f, x, y)):
            assert C.digest(out) == C.digest(ref)


def _paths(fn, x, n):
    seen, outs = [], []
    for _ in range(n):
        before = he.stats()
        outs.append(fn(x))
        after = he.stats()
        seen.append("host" if after["host"] > before["host"] else
                    "compiled" if after["compiled"] > before["compiled"] else "fast path")
    assert len({C.digest(o) for o in outs}) == 1
    return seen


def test_nth_call_compiles_then_the_fast_path(monkeypatch):
    monkeypatch.setattr(he, "THRESHOLD", 2)
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 0.0)
    x = jax.numpy.asarray(np.linspace(-3, 3, 7 * 5, dtype=np.float32).reshape(7, 5))   # a shape no other test uses
    assert _paths(lambda a: lax.mul(a, a), x, 4) == ["host", "host", "compiled", "fast path"]


def test_a_cheap_program_stays_on_the_host_within_its_time_budget(monkeypatch):
    """Past ``THRESHOLD`` calls a program compiles once its host calls have taken ``HOST_BUDGET_MS``."""
    monkeypatch.setattr(he, "THRESHOLD", 2)
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 10 ** 6)
    x = jax.numpy.asarray(np.linspace(-3, 3, 7 * 3, dtype=np.float32).reshape(7, 3))   # a shape no other test uses
    assert _paths(lambda a: lax.sub(a, a), x, 6) == ["host"] * 6
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 0.0)          # the budget spent: the next call compiles
    assert _paths(lambda a: lax.sub(a, a), x, 2) == ["compiled", "fast path"]


def test_not_routed_programs_compile(host_only):
    x = jax.numpy.asarray(np.linspace(0.1, 2, 9, dtype=np.float32))
    for f in (lambda a: lax.atan(a), lambda a: a * a + a, lambda a: jax.numpy.sum(jax.numpy.tile(a, 4)),   # a float sum of over 32 elements
              lambda a: lax.rem(a, a),
              lambda a: jax.numpy.max(jax.numpy.concatenate([a * 0, -(a * 0)])),   # a tie of signed zeros
              lambda a: jax.random.split(jax.random.key(1)),
              lambda a: lax.integer_pow(a.astype(np.float16), 3),
              lambda a: lax.convert_element_type(a.astype(np.float64), ml_dtypes.bfloat16)):
        before = he.stats()
        jax.jit(f)(x)
        assert he.stats()["compiled"] > before["compiled"] and he.stats()["host"] == before["host"]


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16])
def test_division_by_a_broadcast_divisor_as_xla(host_only, dt):
    """XLA CPU multiplies by the reciprocal of a broadcast divisor (last-bit differences
    from IEEE division: SampledSoftmaxLoss's first calls differed from its later ones): the
    host path gives its bits or compiles."""
    rs = np.random.RandomState(0)
    a = jax.numpy.asarray((rs.rand(6, 11) + 0.1).astype(dt))
    col = jax.numpy.asarray((rs.rand(6, 1) + 0.1).astype(dt))
    for f, args in ((lambda x, y: x / y, (a, col)), (lambda x, y: x / y, (a, col[0, 0])),
                    (lambda x: x / 0.7, (a,))):
        before = he.stats()
        out = jax.jit(f)(*args)
        if dt in (np.float16, ml_dtypes.bfloat16) or len(args) == 1:   # XLA's 16-bit reciprocal, a literal
            assert he.stats()["compiled"] > before["compiled"] and he.stats()["host"] == before["host"]
        assert C.digest(out) == C.digest(_compiled(f, *args))
    b = a + 1
    assert C.digest(_host(jax.jit(lambda x, y: x / y), a, b)) == C.digest(_compiled(lambda x, y: x / y, a, b))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_division_by_a_broadcast_program_input_is_its_reciprocal(host_only, dt):
    """``div`` of a program whose divisor is a broadcast input (softmax's division by its row sums)
    runs on the host as XLA computes it: ``x * (1 / y)``, each rounded, denormals flushed."""
    rs = np.random.RandomState(5)
    tiny = np.finfo(dt).tiny
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, tiny / 4, -tiny / 4, tiny, 1 / tiny, 2 / tiny,
                        3.0, 7.0, 1e-30, 1e30, -2.5], dt)
    for shape, dshape in (((5, 15), (5, 1)), ((4, 16), (1, 16)), ((3, 5, 2), (3, 1, 2))):
        x = (rs.standard_normal(shape) * 10.0 ** rs.randint(-4, 5, shape)).astype(dt)
        y = (rs.standard_normal(dshape) * 10.0 ** rs.randint(-4, 5, dshape)).astype(dt)
        x.flat[:special.size] = np.resize(special, min(special.size, x.size))
        y.flat[::2] = np.resize(special[::-1], y.flat[::2].size)
        a, b = jax.numpy.asarray(x), jax.numpy.asarray(y)
        out = _host(lax.div, a, b)
        assert C.digest(out) == C.digest(_compiled(lax.div, a, b)), _difference(out, lax.div, (a, b))


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


@pytest.mark.parametrize("dt", C.FLOATS, ids=str)
def test_float_max_min_reductions_bit_equal_or_refused_on_signed_zero_ties(dt, host_only):
    """Each slice of the pool table alone (NaN, infinities, denormals, signed zeros): on the host
    bit for bit XLA's compiled reduction, except a slice whose extreme is a tie of +0.0 and -0.0
    (XLA's pick depends on the program around it), which is compiled."""
    t = C.table(dt)
    for red, axis in ((lax.reduce_max, 1), (lax.reduce_min, 1), (lax.reduce_max, 0)):
        compiled = jax.jit(lambda a: red(a, (1,)))
        ran, refused = 0, []
        tiny = float(ml_dtypes.finfo(dt).tiny)
        flushed = np.array([[-1.0, tiny / 2, -3.0], [-tiny / 4, -2.0, -1.0], [1.0, tiny / 2, 3.0]], np.float64)
        slices = [t[i][None] for i in range(12)] + list(flushed.astype(dt)[:, None]) if axis == 1 else \
            [t[:, i][None] for i in (2, 3)]          # rows 0, 1: ties; column 2: -0.0 only
        for i, s in enumerate(map(jax.numpy.asarray, slices)):
            he.enabled(False)
            ref = compiled(s)
            he.enabled(True)
            before = he.stats()
            out = jax.jit(lambda a: red(a, (1,)))(s)    # a new function: a refused slice's compile
            if he.stats()["host"] > before["host"]:      # leaves no fast path for the next one
                ran += 1
                assert C.digest(out) == C.digest(ref), f"{red.__name__} slice {i}: {out} vs {ref}"
            else:
                refused.append(i)
        assert ran >= (8 if axis == 1 else 1) and (axis == 0 or {0, 1} <= set(refused)), (ran, refused)


def test_bitcasts_of_one_width_bit_equal(host_only):
    bits = np.array([0, 0x80000000, 1, 0x807FFFFF, 0x7F800000, 0x7FC12345, 0xFF812345, 0x3F800000], np.uint32)
    for src, dst in ((np.uint32, np.float32), (np.int32, np.float32), (np.float32, np.int32)):
        x = jax.numpy.asarray(bits.view(src))
        f = lambda a, dst=dst: lax.bitcast_convert_type(a, dst)     # noqa: E731
        assert C.digest(_host(f, x)) == C.digest(_compiled(f, x))
    x = jax.numpy.asarray(bits[:4])
    before = he.stats()
    lax.bitcast_convert_type(x, np.uint16)       # another width: compiled
    assert he.stats()["host"] == before["host"]


@pytest.mark.parametrize("op", [
    lambda x: ms.ops.tanh(x), lambda x: ms.ops.sigmoid(x), lambda x: ms.ops.softmax(x, -1),
    lambda x: ms.ops.sum(x, 1), lambda x: ms.ops.mean(x, 0), lambda x: ms.ops.sum(x, 0),
], ids=["tanh", "sigmoid", "softmax", "sum1", "mean0", "sum0"])
def test_compositions_on_the_host_bit_equal_to_compiled(host_only, op):
    """MindSpore's CPU kernels' float32 arithmetic (``he.COMPOSITIONS``: one jitted program each) runs
    its first calls on the host, with the compiled program's bits (test_kernel_order.py: MindSpore's,
    PyNative and GRAPH_MODE). 29 columns: nnacl's 8-lane blocks, a 4-lane block and a last value."""
    rs = np.random.RandomState(3)
    x = ms.Tensor(np.concatenate([rs.standard_normal(3 * 29 - 2) * 4, [5.5, -90.0]]).reshape(3, 29).astype(np.float32))
    host = _host(lambda: op(x)).asnumpy()
    he.enabled(False)
    try:
        compiled = np.asarray(jax.jit(lambda a: op(ms.Tensor(a))._data)(x._data))
    finally:
        he.enabled(True)
    assert host.tobytes() == compiled.tobytes()


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_small_operand_flush_is_the_masked_rewrite(dt):
    """``_flush``'s Python scan of a small operand (at most ``SMALL_FLUSH`` elements) gives the
    masked rewrite's bits (denormals to signed zeros; zeros, infinities, NaN payloads kept) and a new
    array, for arrays, 0-d arrays and scalars."""
    def masked(x):
        u, sign, expo = he._MASKS[np.dtype(dt)]
        b = np.asarray(x).view(u)
        return np.where(b & expo == 0, b & sign, b).view(dt)
    fi = np.finfo(dt)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, fi.tiny, -fi.tiny, fi.tiny / 2, -fi.smallest_subnormal,
               fi.tiny * (1 - fi.eps), fi.max]
    rs = np.random.RandomState(2)
    for k in range(3000):
        size = rs.randint(0, he.SMALL_FLUSH + 3)
        with np.errstate(all="ignore"):
            x = np.asarray(rs.standard_normal(size) * 10.0 ** rs.randint(-330, 300, size=size)).astype(dt)
        for _ in range(rs.randint(0, 3)):
            if size:
                x[rs.randint(size)] = special[rs.randint(len(special))]
        first = x[0] if size else dt(-0.0)
        for v in (x, x.reshape(1, -1), np.asarray(first).reshape(()), dt(first)):
            got = he._flush(v)
            assert type(got) is np.ndarray and got is not v
            assert got.dtype == np.dtype(dt) and got.tobytes() == masked(v).tobytes()
    payloads = (np.array([0x7FF0000000000001, 0xFFF8000000000123, 1, 0x8000000000000001], np.uint64).view(dt)
                if dt is np.float64 else np.array([0x7F800001, 0xFFC00123, 1, 0x80000001], np.uint32).view(dt))
    assert he._flush(payloads).tobytes() == masked(payloads).tobytes()


def _refused_dtypes(eqn):
    """The dtype check ``_routable_eqn`` made per equation before its memo: PRNG keys and other
    extended types, complex, void (bfloat16 excepted) and dtype-less avals are refused."""
    avals = [v.aval for v in eqn.invars] + [v.aval for v in eqn.outvars]
    if any(jax.dtypes.issubdtype(getattr(a, "dtype", None), jax.dtypes.extended) for a in avals):
        return True
    dts = [np.dtype(a.dtype) for a in avals if hasattr(a, "dtype")]
    return len(dts) != len(avals) or any(d.kind == "c" or d.kind == "V" and d != he._BF16 for d in dts)


def test_memoized_dtype_and_size_checks_decide_as_computed(monkeypatch):
    """``_routable_eqn``'s per-dtype memo and ``_plan``'s element count (``math.prod`` of the shape)
    refuse the same equations as the checks computed per equation: extended, complex and float0
    types, and operands or results of more than ``MAX_ELEMENTS`` elements."""
    monkeypatch.setattr(he, "_HOST_DTYPES", {})
    programs = [jax.make_jaxpr(f)(*a) for f, a in [
        (lambda x: jax.random.split(jax.random.key(1)), (0,)),
        (lambda x: (x * 2j).real, (np.ones(4, np.float32),)),
        (lambda x: jax.jvp(lambda i: (i * 2, x), (np.int32(3),), (np.zeros((), jax.dtypes.float0),)), (np.float32(1),)),
        (lambda x: lax.convert_element_type(x, ml_dtypes.bfloat16) + 1, (np.ones(4, np.float32),)),
        (lambda x: (x.astype(np.float16) * 2, x.astype(np.int8) + 1, x > 0, x.astype(np.uint64)), (np.ones(4, np.float32),)),
    ]]
    eqns = [e for p in programs for e in p.jaxpr.eqns]
    for _ in range(2):                           # the memo filled, then read
        for eqn in eqns:
            if _refused_dtypes(eqn):
                assert he._routable_eqn(eqn) is None, eqn
            elif eqn.primitive.name in ("mul", "add", "convert_element_type", "gt"):
                assert he._routable_eqn(eqn) is not None, eqn
    refused = {d for e in eqns if _refused_dtypes(e) for v in e.invars + e.outvars for d in [v.aval.dtype]}
    assert any(d.kind == "c" for d in refused if isinstance(d, np.dtype))
    assert any(jax.dtypes.issubdtype(d, jax.dtypes.extended) for d in refused)
    x = np.ones((3, 5), np.float32)
    jaxpr = jax.make_jaxpr(lambda a: a * a)(x).jaxpr
    monkeypatch.setattr(he, "MAX_ELEMENTS", 15)
    assert he._plan(jaxpr, [0]) is not None
    monkeypatch.setattr(he, "MAX_ELEMENTS", 14)
    assert he._plan(jaxpr, [0]) is None


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16], ids=str)
def test_relu_one_program_bit_equal_to_its_three(host_only, dt):
    """``ops.relu`` of a float is one program (``activation._relu_float``: greater, convert, select):
    on the host and compiled it gives the bits of its three jnp programs run one by one, compiled
    (NaN, signed zeros, infinities, denormals)."""
    from msjax.ops._impl import activation
    fi = ml_dtypes.finfo(dt)
    vals = np.array([np.nan, -np.nan, 0.0, -0.0, np.inf, -np.inf, 1.5, -2.5, float(fi.tiny), -float(fi.tiny),
                     float(fi.smallest_subnormal), -float(fi.smallest_subnormal), float(fi.max), float(fi.min)])
    x = ms.Tensor(np.concatenate([vals, np.random.RandomState(4).standard_normal(50)]).astype(dt))
    host = _host(lambda: ms.ops.relu(x)).asnumpy()
    he.enabled(False)
    try:
        a = x._data
        positive = jax.numpy.greater(a, 0)
        three = np.asarray(jax.numpy.where(positive, a, positive.astype(a.dtype)))
        one = np.asarray(jax.jit(activation._relu_float.__wrapped__)(a))
    finally:
        he.enabled(True)
    assert host.dtype == three.dtype == np.dtype(dt)
    assert host.tobytes() == three.tobytes() == one.tobytes()
