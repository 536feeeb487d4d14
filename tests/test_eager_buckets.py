"""Shape buckets for PyNative programs (msjax/runtime/_eager_buckets.py).

Per bucketed family (elementwise, broadcast, a reduction over an unpadded axis, nested
``custom_jvp``/``jit`` calls with sort and cumulative sums off their axis): a new shape's first
call runs the bucket's executable (compiled once and stored), a second shape of the same
bucket reuses it, a fresh process (JAX's and the hook's in-memory programs dropped) loads it
from the eager store, and a later call compiles the shape's own program; every one of these
gives the bits of the unbucketed program compiled ahead of time (which neither the host path
nor a bucket can answer). Refused: XLA approximations measured to change with the loop's
shape (``atan``), a product feeding an add (FMA contraction), a rank-1 ``exp`` (the C
library's tail), 16-bit floats, a reduction over the only padded axis, ``dot_general``."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from msjax.common import _cache_auth, _eager_store
from msjax.runtime import _eager_buckets as eb
from msjax.runtime import _host_eager as he


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(_eager_store.DIR_ENV, str(tmp_path / "eager"))
    monkeypatch.delenv(_eager_store.OFF_ENV, raising=False)
    monkeypatch.setattr(he, "_ON", True)
    monkeypatch.setattr(he, "BUCKETS", [True])
    monkeypatch.setattr(he, "THRESHOLD", 1)       # one bucketed call of a program, then its own compile
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 0.0)
    monkeypatch.setattr(he, "_BUCKET_TABLE", {})
    monkeypatch.setattr(_eager_store, "_BYTES", {})
    monkeypatch.setattr(_cache_auth, "_WARNED", set())
    jax.clear_caches()
    yield tmp_path / "eager"
    jax.clear_caches()


def _operand(shape, seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * rng.choice([1e-3, 1.0, 30.0], size=shape)).astype(np.float32)
    x.reshape(-1)[:6] = [0.0, -0.0, 1e-40, -1e-40, 88.5, -104.0]   # NaN and infinities: test_nan_*
    return x


def _aot(fn, *xs):
    """``fn`` compiled for the operands' own shapes ahead of time: the unbucketed program's bits."""
    out = jax.jit(fn).lower(*xs).compile()(*xs)
    return [np.asarray(o).tobytes() for o in jax.tree_util.tree_leaves(out)]


def _call(fn, *xs):
    """An eager call through the hook: its bits, dtypes and what answered it (stats' deltas)."""
    args = [jnp.asarray(x) for x in xs]      # (its own small programs, not counted)
    before = he.stats()
    out = jax.tree_util.tree_leaves(jax.jit(fn)(*args))
    after = he.stats()
    how = {k: after[k] - before[k] for k in ("bucketed", "loaded", "stored", "compiled")}
    return [np.asarray(o).tobytes() for o in out], [(o.dtype, o.weak_type) for o in out], how


FAMILIES = {
    "elementwise": lambda x, b: lax.erf(x) - jnp.log1p(jnp.abs(x)) / (1.0 + jnp.abs(jnp.expm1(x))),
    "broadcast": lambda x, b: jnp.expm1(x) / b * jnp.max(x, axis=1, keepdims=True),   # a row and a column
    "reduction_unpadded": lambda x, b: jax.nn.log_softmax(x + b, axis=-1),
    "nested_sort_cumsum": lambda x, b: jnp.cumsum(jnp.sort(jax.jit(jax.nn.softplus)(x), axis=-1), axis=-1),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_first_other_loaded_later_bits_equal_unbucketed(store, family):
    fn = FAMILIES[family]
    x5, x7, b = _operand((5, 16), 0), _operand((7, 16), 1), _operand((16,), 2)[::-1].copy()
    assert [a.shape for a in eb.plan(jax.make_jaxpr(fn)(x5, b)).in_avals] == [(8, 16), (16,)]
    first, types, how = _call(fn, x5, b)                   # compiles the (8, 16) bucket, stores it
    stored = how["stored"]    # 0 where the store declines the program (measured: the one with a sort)
    assert how["bucketed"] == 1 and (stored == 1 or "sort" in family), how
    other, types7, how = _call(fn, x7, b)                  # the same bucket, kept in memory
    assert how == {"bucketed": 1, "loaded": 0, "stored": 0, "compiled": 0}, how
    he._BUCKET_TABLE.clear()
    jax.clear_caches()                                     # as a new process: loaded from the store
    loaded, _, how = _call(fn, x5, b)
    assert how["bucketed"] == 1 and how["loaded"] == stored, how
    later, _, how = _call(fn, x5, b)                       # past THRESHOLD: the shape's own program
    assert how["bucketed"] == 0 and how["compiled"] >= 1, how
    assert first == loaded == later == _aot(fn, x5, b)
    assert other == _aot(fn, x7, b)
    want = [(np.dtype(a.dtype), a.weak_type) for a in jax.tree_util.tree_leaves(jax.eval_shape(fn, x5, b))]
    assert types == types7 == want


def test_weak_type_and_scalar_operand_kept(store):
    fn = lambda x, s: lax.erf(x) / s           # noqa: E731 - a weak-typed Python scalar operand
    x = _operand((3, 16), 2)
    before = he.stats()["bucketed"]
    out = jax.jit(fn)(jnp.asarray(x), 3.0)
    assert he.stats()["bucketed"] == before + 1
    assert out.dtype == np.float32 and not out.weak_type
    assert np.asarray(out).tobytes() == np.asarray(jax.jit(fn).lower(x, 3.0).compile()(x, 3.0)).tobytes()


@pytest.mark.parametrize("special", [np.nan, np.inf], ids=["nan_operand", "nan_made_inside"])
def test_nan_compiles_its_own_shape(store, special):
    """A NaN's sign and payload follow the loop's code: a call with a NaN operand or result runs the
    shape's own program (``log1p(inf) / (1 + |expm1(inf)|)`` is inf / inf)."""
    fn = FAMILIES["elementwise"]
    x, b = _operand((5, 16), 3), _operand((16,), 4)
    x[1, 2] = special
    bits, _, how = _call(fn, x, b)
    assert how["bucketed"] == 0 and how["compiled"] >= 1, how
    assert np.isnan(np.frombuffer(bits[0], np.float32)).any()
    assert bits == _aot(fn, x, b)


@pytest.mark.parametrize("fn,shape", [
    (jnp.atan, (5, 16)),                                   # XLA's atan changes with the loop's form
    (lambda x: jnp.tanh(x) * x + 1.0, (6, 8)),             # a product feeding an add: FMA or not
    (jnp.exp, (5,)),                                       # rank 1: the last partial vector calls expf
    (lambda x: lax.erf(x.astype(jnp.float16)), (5, 16)),   # 16-bit floats: kept in float32 or not
    (lambda x: jnp.sum(lax.erf(x), axis=0), (5, 16)),      # reduction over the varying axis
    (lambda x: lax.erf(x) @ x.T, (5, 16)),                 # dot_general
    (lax.erf, (8, 16)),                                    # already at its bucket
    (lax.erf, (1025, 1025)),                               # its bucket past MAX_ELEMENTS
], ids=["atan", "fma", "exp_rank1", "float16", "reduce_padded", "dot", "at_bucket", "too_large"])
def test_not_bucketed(fn, shape):
    assert eb.plan(jax.make_jaxpr(fn)(np.zeros(shape, np.float32))) is None


def test_bucket_size():
    assert [eb.bucket_size(n) for n in (0, 1, 2, 3, 5, 8, 9, 33)] == [0, 1, 2, 4, 8, 8, 16, 64]
