"""A small PyNative ``ms.grad`` program runs equation by equation, as MindSpore's PyNative runs its
ops (``msjax/runtime/_stepwise.py``): the first call (host path), later calls (each op's own program
compiled), the host path off and the eager store's loaded programs give the same bits; a large
program and GRAPH_MODE gradients stay one compiled program."""
import jax
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax._core import context
from msjax.common import _cache_auth, _eager_store
from msjax.runtime import _host_eager as he, _stepwise


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(_eager_store.DIR_ENV, str(tmp_path / "eager"))
    monkeypatch.delenv(_eager_store.OFF_ENV, raising=False)
    monkeypatch.setattr(he, "_ON", True)
    # a program past THRESHOLD host calls compiles once its host calls have taken HOST_BUDGET_MS, which
    # on a loaded machine made a later call compile (and store) an op: the budget is kept out of it
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 1e9)
    monkeypatch.setattr(_eager_store, "_BYTES", {})
    monkeypatch.setattr(_cache_auth, "_WARNED", set())
    jax.clear_caches()
    yield tmp_path / "eager"
    jax.clear_caches()


def _bits(g, *args):
    before = he.stats()
    out = b"".join(np.asarray(t).tobytes() for t in jax.tree_util.tree_leaves(g(*args)))
    after = he.stats()
    return out, {k: after[k] - before[k] for k in ("stepwise", "loaded", "stored")}


def _net_grad(rs):
    net = nn.SequentialCell([nn.Dense(16, 32), nn.ReLU(), nn.Dense(32, 1)])
    for p in net.trainable_params():
        p.set_data(ms.Tensor(rs.standard_normal(p.shape).astype(np.float32)))
    loss = nn.MSELoss()
    return ms.grad(lambda a, b: loss(net(a), b), grad_position=None, weights=net.trainable_params())


def _fma_grad(rs):
    """Products feeding sums (XLA:CPU contracts them into FMAs inside one program, so compiled
    whole its gradients differ: ``test_whole_program_rounds_otherwise``), a division by a literal (one
    IEEE division per element, which the host path runs) and a float sum of 128 values (compiled)."""
    w = ms.Parameter(ms.Tensor(rs.standard_normal((8, 16)).astype(np.float32)), name="w")
    return ms.grad(lambda a, b: ((a * w + b * a) * a / 3.0).sum(), grad_position=(0, 1), weights=[w])


def _inputs(rs, make):
    x = ms.Tensor(rs.standard_normal((8, 16)).astype(np.float32))
    return x, ms.Tensor(rs.standard_normal((8, 1) if make is _net_grad else (8, 16)).astype(np.float32))


@pytest.mark.parametrize("make", [_net_grad, _fma_grad], ids=["dense_relu_mse", "multiply_add"])
def test_first_later_off_loaded_bits_agree(store, make):
    rs = np.random.RandomState(7)
    g = make(rs)
    x, y = _inputs(rs, make)
    first, how = _bits(g, x, y)
    assert how["stepwise"] == 1                     # op by op
    later, how = _bits(g, x, y)                     # JAX's fast path for the ops compiled alone
    assert how == {"stepwise": 1, "loaded": 0, "stored": 0}
    jax.clear_caches()                              # as a new process: those ops' programs loaded
    loaded, how = _bits(g, x, y)
    assert how["stepwise"] == 1 and how["stored"] == 0 and (how["loaded"] >= 1 or make is _net_grad)
    off = first
    if make is _fma_grad:                           # host path off: every op compiled alone
        he.enabled(False)
        try:
            jax.clear_caches()
            off, how = _bits(g, x, y)
            assert how["stepwise"] == 1
        finally:
            he.enabled(True)
    assert first == later == loaded == off


def test_whole_program_rounds_otherwise(store, monkeypatch):
    """The same gradient compiled as one program (too large to run op by op; GRAPH_MODE's are)
    contracts its multiply-adds: the op-by-op numbers are not the whole program's."""
    rs = np.random.RandomState(7)
    g = _fma_grad(rs)
    x, y = _inputs(rs, _fma_grad)
    stepwise, _ = _bits(g, x, y)
    monkeypatch.setattr(_stepwise, "MAX_EQUATIONS", 0)
    jax.clear_caches()
    whole, how = _bits(_fma_grad(np.random.RandomState(7)), x, y)
    assert how["stepwise"] == 0 and whole != stepwise
    monkeypatch.setitem(context._ctx, "mode", context.GRAPH_MODE)
    assert not _fma_grad(rs)._stateful((0, 1))._pynative_grad()


def test_front_end_cache_keeps_no_whole_program_of_a_stepwise_gradient(monkeypatch):
    """``enable_compile_cache=True`` stores a traced gradient whole; one run op by op is not
    stored (a later process would load the fused program's numbers)."""
    from msjax._core import provided
    jitted = jax.jit(lambda a: a * 2.0 + 1.0)
    traced = jitted.trace(np.ones(3, np.float32))
    assert provided.need("stepwise")(traced, jitted)
    monkeypatch.setattr(_stepwise, "MAX_EQUATIONS", 1)
    assert provided.need("stepwise")(traced, jitted) is None


@pytest.mark.parametrize("dtype,shape,axes", [
    (np.float32, (8, 1), (0, 1)), (np.float32, (1, 1), (0, 1)), (np.float32, (2, 1, 5), (1, 2)),
    (np.float64, (1, 32), (0, 1)), (np.float32, (33, 1), (0, 1))])
def test_float_sums_over_extent_one_axes_on_the_host_as_xla(dtype, shape, axes):
    """The MSE loss's gradient sums an (n, 1) array over both axes: XLA drops the extent-1 axes
    and adds in order (at most 32 values), so the host path replays it; compared with XLA live on
    signed zeros, denormals, infinities and NaN."""
    from jax import lax

    def f(x):
        return lax.reduce_sum_p.bind(x, axes=axes, out_sharding=None)
    rule = he._float_sum_rule(jax.make_jaxpr(f)(jax.ShapeDtypeStruct(shape, dtype)).jaxpr.eqns[0])
    if shape == (33, 1):
        assert rule is None      # 33 values: XLA's vector lanes, compiled
        return
    rs = np.random.RandomState(5)
    tiny = np.finfo(dtype).tiny
    for k in range(6):
        x = (rs.standard_normal(shape) * 10.0 ** rs.randint(-40, 38, size=shape)).astype(dtype)
        x.reshape(-1)[k % x.size] = [-0.0, tiny / 4, np.inf, np.nan, -tiny / 8, 1e30][k]
        if k == 5:
            x[...] = -0.0
        he.enabled(False)
        try:
            want = np.asarray(jax.jit(f)(x))
        finally:
            he.enabled(True)
        assert np.asarray(rule[0](x, axes=axes)).tobytes() == want.tobytes()


def test_value_and_grad_scalar_value_keeps_its_shape():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    value, grad = ms.value_and_grad(lambda a: (a * a).mean())(x)
    assert value.shape == () and grad.shape == (2, 3)
    assert value.asnumpy().tobytes() == np.float32(55 / 6).tobytes()


@pytest.mark.parametrize("make", [_net_grad, _fma_grad], ids=["dense_relu_mse", "multiply_add"])
def test_warm_calls_reuse_one_plan_and_give_the_first_calls_bits(make):
    """A program's equations are resolved once (``_stepwise.Program``): later calls run that plan,
    without JAX's jit dispatch, and give the first call's bits; the dead input cotangent is skipped."""
    rs = np.random.RandomState(11)
    g = make(rs)
    x, y = _inputs(rs, make)
    plans = he.stats()["stepwise_plans"]
    first, how = _bits(g, x, y)
    assert how["stepwise"] == 1 and he.stats()["stepwise_plans"] == plans + 1
    for _ in range(5):
        warm, how = _bits(g, x, y)
        assert warm == first and how["stepwise"] == 1
    assert he.stats()["stepwise_plans"] == plans + 1
    programs = [p for p in list(he._STEPWISE_TABLE.values()) if p]
    assert programs and all(len(p._steps) <= len(c.jaxpr.eqns) for c, p in he._STEPWISE_TABLE.items() if p)


def test_the_jit_dispatch_runs_the_same_plan():
    """A call the direct path refuses (here: all, the direct path off) goes through ``jax.jit``,
    whose hook runs the same plan: same bits, no second plan."""
    rs = np.random.RandomState(12)
    g = _fma_grad(rs)
    x, y = _inputs(rs, _fma_grad)
    first, _ = _bits(g, x, y)
    plans, direct = he.stats()["stepwise_plans"], he._DIRECT[0]
    he._DIRECT[0] = lambda leaves, closed: None
    try:
        via_jit, how = _bits(g, x, y)
    finally:
        he._DIRECT[0] = direct
    assert via_jit == first and how["stepwise"] == 1 and he.stats()["stepwise_plans"] == plans


def test_in_order_sum_is_the_flushed_row_by_row_sum():
    """``_in_order_sum`` (NumPy's sequential accumulate, row by row only where a partial sum is a
    denormal) against the plain loop: random magnitudes, denormal partial sums, signed zeros,
    infinities and NaN, float32 and float64."""
    def loop(x):
        acc = np.zeros(x.shape[1:], x.dtype)
        with np.errstate(all="ignore"):
            for row in x:
                acc = he._flush(acc + row)
        return acc
    rs = np.random.RandomState(4)
    special = [-0.0, 0.0, np.inf, -np.inf, np.nan]
    for dt in (np.float32, np.float64):
        tiny = np.finfo(dt).tiny
        for k in range(400):
            shape = (rs.randint(1, 33),) + ((rs.randint(1, 9),) if k % 2 else ())
            if k % 3 == 0:      # partial sums among the denormals
                x = rs.standard_normal(shape) * tiny * rs.choice([0.5, 1.0, 2.0, 4.0])
            else:
                x = rs.standard_normal(shape) * 10.0 ** rs.randint(-40, 38, size=shape)
            x = x.astype(dt)
            for _ in range(rs.randint(0, 4)):
                x.reshape(-1)[rs.randint(x.size)] = special[rs.randint(len(special))]
            x = he._flush(x)
            got, want = np.asarray(he._in_order_sum(x)), loop(x)
            assert got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()
