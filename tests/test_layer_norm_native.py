"""float32/float16 LayerNorm on msjax's native kernel (``msjax/ops/_native/layer_norm.cc``, issue 35): MindSpore
2.10's CPU arithmetic (float64 serial sums) without compiling a float64 ``lax.scan`` per shape. Asserted bit
for bit: the kernel against a NumPy twin of that order and against the ``lax.scan`` form it replaces
(``MSJAX_LAYER_NORM_NATIVE=0``); a PyNative first call (the host twin), a later compiled call, ``ms.jit`` and a
call loaded from the eager store; the recorded MindSpore 2.10 PyNative outputs; the gradient stays the XLA
formula's. Many more shapes and values: ``bench/layer_norm_eager.py --bits``."""
import os
import weakref

import jax
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax.common import _cache_auth, _eager_store
from msjax.ops import _native
from msjax.ops._impl import layer_norm_cpu, normalization
from msjax.runtime import _host_eager as he

pytestmark = pytest.mark.skipif(_native.library() is None, reason="msjax's native kernels cannot be built here")
REC = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "kernel_order_mindspore.npz"))


def _half(v):
    """float16 and back (ties to even, float16's subnormals kept, as MindSpore's float16 steps)."""
    return v.astype(np.float16).astype(np.float32)


def _twin(x, gamma, beta, bna, eps):
    """(y, mean, var) in the documented order: float64 sums one value after another, then float32 steps
    (each rounded to float16 for a float16 ``x``). No denormals in the tests' values (NumPy keeps them)."""
    step = _half if x.dtype == np.float16 else (lambda v: v)
    blocks = int(np.prod(x.shape[:bna], dtype=np.int64))
    cols = x.astype(np.float64).reshape(blocks, -1)
    s, q = np.zeros(blocks), np.zeros(blocks)
    for j in range(cols.shape[1]):
        s, q = s + cols[:, j], q + cols[:, j] * cols[:, j]
    mean64 = s / cols.shape[1]
    mean, var = mean64.astype(np.float32), (q / cols.shape[1] - mean64 * mean64).astype(np.float32)
    den = step(np.sqrt(var + np.float32(eps)))[:, None]
    y = step(step(x.astype(np.float32).reshape(blocks, -1) - step(mean)[:, None]) / den).reshape(-1)
    p = gamma.size if gamma is not None else (beta.size if beta is not None else 1)
    if gamma is not None:
        y = step(y * np.tile(gamma.astype(np.float32).reshape(-1), y.size // p))
    if beta is not None:
        y = step(y + np.tile(beta.astype(np.float32).reshape(-1), y.size // p))
    stat = x.shape[:bna] + (1,) * (x.ndim - bna)
    return y.reshape(x.shape).astype(x.dtype), mean.reshape(stat).astype(x.dtype), var.reshape(stat).astype(x.dtype)


# shape, dtype, begin_norm_axis, begin_params_axis, gamma, beta, offset
CASES = [((2, 5, 64), np.float32, -1, -1, True, True, 0.5), ((6, 40), np.float32, -1, -1, True, True, 300.0),
         ((3, 4, 6), np.float32, 1, 2, True, True, 0.5), ((7, 33), np.float32, 1, 0, True, False, -2.0),
         ((5, 9), np.float32, 0, 1, False, True, 1e4), ((4, 3, 17), np.float32, 2, 2, False, False, 0.0),
         ((2, 5, 64), np.float16, -1, -1, True, True, 0.5), ((3, 1, 7), np.float16, 1, 1, True, False, 30.0),
         ((3, 1), np.float32, 1, 1, True, False, 0.0)]     # blocks of one value, -0.0 among them


def _operands(case, seed):
    shape, dt, bna, bpa, has_g, has_b, offset = case
    rs = np.random.RandomState(seed)
    x = (rs.standard_normal(shape) * np.exp(rs.standard_normal(shape) * (3 if dt == np.float32 else 0.5))
         + offset).astype(dt)
    x.flat[0] = -0.0          # sums start from +0.0: a block of one -0.0 has mean +0.0 (MindSpore's too)
    bpa %= len(shape)
    g = (rs.standard_normal(shape[bpa:]) * 0.5 + 1).astype(dt) if has_g else None
    b = (rs.standard_normal(shape[bpa:]) * 0.3).astype(dt) if has_b else None
    return x, g, b, bna % len(shape), bpa


def _bits(a):
    a = np.asarray(a)
    return a.dtype, a.shape, a.view(f"u{a.itemsize}").tobytes()


def _same(got, want):
    for g, w in zip(got, want):
        assert _bits(g) == _bits(w), f"{int((np.asarray(g) != np.asarray(w)).sum())} values differ"


@pytest.fixture
def host(monkeypatch):
    monkeypatch.setattr(he, "_TABLE", weakref.WeakKeyDictionary())
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 0.0)     # the call after THRESHOLD host calls compiles
    monkeypatch.setattr(he, "_ON", True)
    monkeypatch.setattr(he, "STORE", [None])
    jax.clear_caches()
    return he


def _array_call(x, g, b, bna, bpa, eps=1e-5):
    return normalization._layer_norm_array.raw(x, g, b, begin_norm_axis=bna, begin_params_axis=bpa, eps=eps)


def test_kernel_on_the_host_and_compiled_equals_the_serial_twin(host):
    """Each case's first call runs the host twin (no compile); one compiled program of all cases gives the
    same bits; both equal the NumPy twin."""
    ops_in = [_operands(c, i) for i, c in enumerate(CASES)]
    for x, g, b, bna, bpa in ops_in:
        before = he.stats()
        args = [None if a is None else jax.numpy.asarray(a) for a in (x, g, b)]
        got = [np.asarray(o) for o in normalization._layer_norm_array(*args, bna, bpa, 1e-5)]
        after = he.stats()
        assert after["host"] > before["host"] and after["compiled"] == before["compiled"]
        _same(got, _twin(x, g, b, bna, 1e-5))
    compiled = jax.jit(lambda *a: [_array_call(*a[3 * i:3 * i + 3], o[3], o[4]) for i, o in enumerate(ops_in)])(
        *(v for o in ops_in for v in o[:3]))
    for got, (x, g, b, bna, _) in zip(compiled, ops_in):
        _same(got, _twin(x, g, b, bna, 1e-5))


def test_kernel_equals_the_lax_scan_form_and_keeps_the_gradient(monkeypatch):
    """The native kernel gives the float64 ``lax.scan`` form's bits (NaN, infinity, blocks of one -0.0;
    float16 and many more cases: ``bench/layer_norm_eager.py --bits``); its gradient is the XLA formula's,
    bit for bit."""
    x, g, b, bna, bpa = _operands(CASES[2], 7)
    x.flat[[3, 40]] = (np.nan, np.inf)
    x1, g1, _, bn1, bp1 = _operands(CASES[8], 9)

    def run():
        def both(x, g, b, x1, g1):      # a new function each time: a program of its own
            return _array_call(x, g, b, bna, bpa), _array_call(x1, g1, None, bn1, bp1)
        args = (x, g, b, x1, g1)
        lowered = jax.jit(both).lower(*args)
        return lowered.as_text().count("msjax_layer_norm"), lowered.compile()(*args)
    calls, native = run()
    assert calls == 2
    monkeypatch.setenv(layer_norm_cpu.NATIVE_ENV, "0")
    calls, scan = run()
    assert calls == 0
    for n, s in zip(native, scan):
        _same(n, s)
    monkeypatch.delenv(layer_norm_cpu.NATIVE_ENV)
    x, g, b, bna, bpa = _operands(CASES[0], 9)
    dy = np.random.RandomState(1).standard_normal(x.shape).astype(np.float32)

    def grads(x, g, b):
        loss = lambda fn: lambda *a: (fn(*a, begin_norm_axis=bna, begin_params_axis=bpa, eps=1e-5)[0] * dy).sum()
        argnums = (0, 1)
        return (jax.grad(loss(normalization._layer_norm_array.raw), argnums)(x, g, b),
                jax.grad(loss(normalization._layer_norm_xla), argnums)(x, g, b))
    kernel, formula = jax.jit(grads)(x, g, b)
    _same(kernel, formula)


def test_first_later_jit_and_loaded_calls_agree(tmp_path, monkeypatch):
    """``nn.LayerNorm`` in PyNative: the first call (host twin), a later compiled and stored call, a call
    loaded from the eager store (as a new process) and ``ms.jit`` give one set of bits."""
    monkeypatch.setenv(_eager_store.DIR_ENV, str(tmp_path / "eager"))
    monkeypatch.delenv(_eager_store.OFF_ENV, raising=False)
    monkeypatch.setattr(he, "_TABLE", weakref.WeakKeyDictionary())
    monkeypatch.setattr(he, "_ON", True)
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 0.0)
    monkeypatch.setattr(_eager_store, "_BYTES", {})
    monkeypatch.setattr(_cache_auth, "_WARNED", set())
    jax.clear_caches()
    layer = nn.LayerNorm((33,), epsilon=1e-6)
    rs = np.random.RandomState(3)
    layer.gamma.set_data(ms.Tensor(rs.standard_normal(33).astype(np.float32)))
    layer.beta.set_data(ms.Tensor(rs.standard_normal(33).astype(np.float32)))
    x = ms.Tensor((rs.standard_normal((3, 5, 33)) * 4 + 2).astype(np.float32))

    def call():
        before = he.stats()
        out = layer(x).asnumpy()
        after = he.stats()
        return out, {k: after[k] - before[k] for k in ("host", "loaded", "stored")}
    try:
        first, how = call()
        assert how["host"] == 1
        monkeypatch.setattr(he, "THRESHOLD", 0)        # the next calls compile (or load)
        later, how = call()
        assert how["stored"] == 1
        jax.clear_caches()
        loaded, how = call()
        assert how["loaded"] == 1
        graph = ms.jit(lambda t: layer(t))(x).asnumpy()
    finally:
        jax.clear_caches()
    _same([first, later, loaded], [graph] * 3)
    _same([first], [_twin(x.asnumpy(), layer.gamma.asnumpy(), layer.beta.asnumpy(), 2, 1e-6)[0]])


@pytest.mark.parametrize("key,axes", [("ln_last", (-1, -1)), ("ln_offset", (-1, -1)), ("ln_two_axes", (1, 2)),
                                      ("ln_half", (-1, -1))])
def test_pynative_first_call_is_mindspore(host, key, axes):
    """MindSpore 2.10's PyNative ``LayerNorm`` outputs (tests/golden/record_kernel_order.py), by the host twin."""
    y, mean, var = ops.LayerNorm(*axes, 1e-5)(*(ms.Tensor(REC[f"{key}_{v}"]) for v in ("x", "gamma", "beta")))
    _same([y.asnumpy()], [REC[f"{key}_pynative"]])
    # msjax keeps a float16 input's statistics in float16 (MindSpore's CPU kernel: float32)
    for got, k in ((mean, "mean"), (var, "var")):
        got = got.asnumpy()
        _same([got], [REC[f"{key}_{k}_pynative"].astype(got.dtype)])
