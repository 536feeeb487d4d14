"""PyNative's eager store (msjax/common/_eager_store.py): a program compiled by one process
is loaded by the next. A new process is stood in for by dropping JAX's in-memory
compiled programs (``jax.clear_caches``): the next call reaches the hook again and
loads the entry from disk. Asserted: the first (compiled), a later (JAX's fast path)
and a loaded call give the same bits, equal to a program compiled with the store off;
a damaged entry and an entry moved under another program's name are refused with a
warning and compiled again; the size bound holds; ``MSJAX_EAGER_STORE=0`` writes
nothing."""
import os
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import msjax as ms
from msjax import ops
from msjax._core import context
from msjax.common import _cache_auth, _eager_store
from msjax.ops._impl import conv_lowering, cpu_kernel_math, softmax_order
from msjax.runtime import _host_eager as he, _stepwise


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(_eager_store.DIR_ENV, str(tmp_path / "eager"))
    monkeypatch.delenv(_eager_store.OFF_ENV, raising=False)
    monkeypatch.setattr(he, "_ON", True)
    monkeypatch.setattr(he, "THRESHOLD", 0)     # every call reaches the store (host calls: test_host_math.py)
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 0.0)
    monkeypatch.setattr(_stepwise, "MAX_EQUATIONS", 0)   # PyNative gradients compiled whole (test_stepwise_grad.py)
    monkeypatch.setattr(_eager_store, "_BYTES", {})
    monkeypatch.setattr(_cache_auth, "_WARNED", set())
    jax.clear_caches()
    yield tmp_path / "eager"
    jax.clear_caches()


def _x(shape=(3, 7), seed=0):
    return ms.Tensor(np.random.RandomState(seed).standard_normal(shape).astype(np.float32))


def _run(fn):
    """``fn()``'s bits and which way the hook answered (stats' deltas)."""
    before = he.stats()
    out = fn().asnumpy()
    after = he.stats()
    return out.tobytes(), {k: after[k] - before[k] for k in ("loaded", "stored")}


def _reference(fn, x):
    """The program compiled plainly, the store and host path off."""
    he.enabled(False)
    try:
        jax.clear_caches()
        return np.asarray(jax.jit(fn)(x._data)).tobytes()
    finally:
        he.enabled(True)
        jax.clear_caches()


def _entries(d):
    return sorted(n for n in os.listdir(d) if n.endswith(_eager_store.SUFFIX)) if d.exists() else []


def _xla(op, x):
    with conv_lowering.forced("xla"):
        return op(x)


@pytest.mark.parametrize("op,ref", [
    (lambda x: ops.exp(x), jnp.exp),
    (lambda x: _xla(ops.tanh, x), jnp.tanh),      # XLA's tanh (the CPU's float32 default is nnacl's form)
    (lambda x: ops.sigmoid(x), cpu_kernel_math.sigmoid),     # nnacl's Sigmoid on the CPU (issue 34)
    (lambda x: ops.sum(x, 1), lambda a: jnp.sum(a, 1)),
    (lambda x: ops.log(ops.abs(x)), lambda a: jnp.log(jnp.abs(a))),
    (lambda x: ops.tanh(x), cpu_kernel_math.tanh),           # nnacl's Tanh and Softmax (one program each)
    (lambda x: ops.softmax(x, -1), softmax_order.softmax_last),
], ids=["exp", "tanh", "sigmoid", "sum", "log", "nnacl_tanh", "softmax"])
def test_first_later_loaded_bits_agree(store, op, ref):
    x = _x()
    first, how = _run(lambda: op(x))
    assert how["stored"] >= 1 and _entries(store)
    later, how = _run(lambda: op(x))
    assert how == {"loaded": 0, "stored": 0}            # JAX's in-memory fast path
    jax.clear_caches()                                   # as a new process
    loaded, how = _run(lambda: op(x))
    assert how["loaded"] >= 1 and how["stored"] == 0
    assert first == later == loaded == _reference(ref, x)


def test_damaged_and_moved_entries_are_refused_and_compiled_again(store):
    x = _x((5, 2), 1)
    exp_bits, _ = _run(lambda: ops.exp(x))
    (exp_entry,) = _entries(store)
    jax.clear_caches()
    tanh_bits, _ = _run(lambda: ops.tanh(x))
    tanh_entry = next(n for n in _entries(store) if n != exp_entry)
    # tanh's executable under exp's name: its tag binds the name, so it is refused
    os.replace(store / tanh_entry, store / exp_entry)
    jax.clear_caches()
    with pytest.warns(_cache_auth.UntrustedCacheWarning, match="tag does not verify"):
        bits, how = _run(lambda: ops.exp(x))
    assert bits == exp_bits and how == {"loaded": 0, "stored": 1}
    # a damaged entry (one byte flipped)
    data = bytearray((store / exp_entry).read_bytes())
    data[-100] ^= 0xFF
    (store / exp_entry).write_bytes(bytes(data))
    _cache_auth._WARNED.clear()                   # one warning per path and process
    jax.clear_caches()
    with pytest.warns(_cache_auth.UntrustedCacheWarning):
        bits, how = _run(lambda: ops.exp(x))
    assert bits == exp_bits and how == {"loaded": 0, "stored": 1}
    jax.clear_caches()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bits, how = _run(lambda: ops.exp(x))      # the rewritten entry is good again
    assert bits == exp_bits and how == {"loaded": 1, "stored": 0}


def test_size_bound_evicts_least_recently_used(store, monkeypatch):
    monkeypatch.setenv(_eager_store.MB_ENV, str(20 / 1024))        # 20 KiB: one or two entries (6-13 KB each)
    limit = _eager_store.max_bytes()
    x = _x((2, 3), 2)
    for fn in (ops.exp, ops.tanh, ops.sin, ops.cos):
        before = set(_entries(store))
        fn(x).asnumpy()
        assert set(_entries(store)) - before             # the newest entry stays; older ones went
        held = sum(os.path.getsize(store / n) for n in _entries(store))
        assert held <= limit
    assert 1 <= len(_entries(store)) < 4


def test_switched_off(store, monkeypatch):
    monkeypatch.setenv(_eager_store.OFF_ENV, "0")
    ops.exp(_x((4, 1), 3)).asnumpy()
    assert _entries(store) == [] and _eager_store.directory() is None
    monkeypatch.delenv(_eager_store.OFF_ENV)
    assert _eager_store.directory() == str(store)
    monkeypatch.setitem(context._ctx, "enable_compile_cache", False)    # MindSpore's switch, set explicitly
    assert _eager_store.directory() is None


def test_programs_not_stored():
    """A host callback prints an address (not the same program in another process)."""
    def f(a):
        return jax.pure_callback(lambda v: v, jax.ShapeDtypeStruct(a.shape, a.dtype), a)
    closed = jax.make_jaxpr(f)(jnp.ones(3))
    assert _eager_store.key(closed, False) is None
    assert _eager_store.key(jax.make_jaxpr(jnp.exp)(jnp.ones(3)), False) is not None
    assert _eager_store.key(jax.make_jaxpr(jnp.exp)(jnp.ones(3)), False) != \
        _eager_store.key(jax.make_jaxpr(jnp.exp)(jnp.ones(4)), False)


def test_nested_constants_are_in_the_key(store):
    """A jitted call closing over an array prints only the array's type: two such programs that
    differ in the array's values have two keys, and each gives its own numbers from the store
    (PointNet2's farthest-point start, drawn by NumPy, shared one entry before)."""
    x = jnp.arange(4, dtype=jnp.float32)

    def program(c):
        inner = jax.jit(lambda v: v + c)
        return lambda v: inner(v) * 2
    a, b = np.ones(4, np.float32), np.full(4, 3.0, np.float32)
    ka = _eager_store.key(jax.make_jaxpr(program(a))(x), False)
    kb = _eager_store.key(jax.make_jaxpr(program(b))(x), False)
    assert ka is not None and kb is not None and ka != kb
    loaded = he.stats()["loaded"]
    for c in (a, b, a, b):          # the last two load the entries the first two stored
        jax.clear_caches()
        assert np.array_equal(np.asarray(jax.jit(program(c))(x)), (np.asarray(x) + c) * 2)
    assert he.stats()["loaded"] - loaded == 2
    big = np.zeros(_eager_store.MAX_CONST_BYTES // 4 + 1, np.float32)
    assert _eager_store.key(jax.make_jaxpr(lambda v: jax.jit(lambda w: w.sum() + big)(v))(x), False) is None


def test_loaded_linear_algebra_runs_in_a_fresh_process(store):
    """A program calling jaxlib's LAPACK kernels (cholesky), stored by this process, loaded and run
    by a new one that never lowered a linear-algebra op (its LAPACK table was empty: a crash)."""
    import subprocess
    import sys
    a = ms.Tensor(np.array([[4., 2.], [2., 3.]], np.float32))
    want = ops.cholesky(a).asnumpy()
    assert len(_entries(store)) == 1
    code = ("import numpy as np, msjax as ms\nfrom msjax import ops\nfrom msjax.runtime import _host_eager as he\n"
            "r = ops.cholesky(ms.Tensor(np.array([[4., 2.], [2., 3.]], np.float32))).asnumpy()\n"
            "print(he.stats()['loaded'], r.tobytes().hex())\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, **{_eager_store.DIR_ENV: str(store)}))
    assert run.returncode == 0, run.stderr[-2000:]
    loaded, bits = run.stdout.split()[-2:]
    assert int(loaded) == 1 and bits == want.tobytes().hex()


def test_gradient_calling_native_kernels_is_stored_and_loaded(store):
    """A small net's gradient program calls msjax's native oneDNN matmul (an FFI target): it is
    stored under a key naming the built kernel library; first, later and loaded calls give the same
    bits; a program calling any other FFI target is not stored."""
    from msjax import nn
    from msjax.ops import _native
    if _native.library() is None:
        pytest.skip("msjax's native kernels cannot be built here")
    rs = np.random.RandomState(4)
    net = nn.SequentialCell([nn.Dense(6, 5), nn.ReLU(), nn.Dense(5, 1)])
    loss = nn.MSELoss()
    g = ms.grad(lambda a, b: loss(net(a), b), grad_position=None, weights=net.trainable_params())
    x = ms.Tensor(rs.standard_normal((4, 6)).astype(np.float32))
    y = ms.Tensor(rs.standard_normal((4, 1)).astype(np.float32))

    def grads():
        before = he.stats()
        out = b"".join(t.asnumpy().tobytes() for t in g(x, y))
        after = he.stats()
        return out, {k: after[k] - before[k] for k in ("loaded", "stored")}
    first, how = grads()
    assert how["stored"] >= 1
    later, how = grads()                                 # the in-memory executable
    assert how == {"loaded": 0, "stored": 0} and later == first
    jax.clear_caches()
    loaded, how = grads()
    assert how["loaded"] >= 1 and how["stored"] == 0 and loaded == first
    closed = jax.make_jaxpr(lambda a: jax.ffi.ffi_call("msjax_matmul", jax.ShapeDtypeStruct((2, 2), jnp.float32))(
        a, a, transpose_a=np.int64(0), transpose_b=np.int64(1)))(jnp.ones((2, 3), jnp.float32))
    name = _eager_store.key(closed, False)
    assert name is not None and os.path.basename(_native.library()._name) in _eager_store._native_kernels(str(closed))
    foreign = jax.make_jaxpr(lambda a: jax.ffi.ffi_call("someone_elses_kernel", jax.ShapeDtypeStruct((2, 3), jnp.float32))(
        a))(jnp.ones((2, 3), jnp.float32))
    assert _eager_store.key(foreign, False) is None
