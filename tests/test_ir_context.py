"""Small eager programs are lowered in one kept MLIR context per thread
(msjax/runtime/_ir_context.py): the module XLA compiles is the one a fresh context
gives, so a first call's numbers are the compiled program's bit for bit; the context
is replaced after REUSES programs; large programs and other threads get their own."""
import contextlib
import threading

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

import msjax as ms
from msjax import ops
from msjax.runtime import _ir_context as irc

DTYPES = (np.float16, ml_dtypes.bfloat16, np.float32)
FUNCS = (jnp.exp, jnp.tanh, lambda a: jnp.sum(a, -1), lambda a: jax.nn.softmax(a, -1))


def _closed(f, x):
    return jax.make_jaxpr(f)(x)


def _with_big_constant(a):
    return a + jnp.sum(jnp.asarray(np.ones(irc.MAX_CONST_BYTES // 4 + 1, np.float32)))


def _texts(f, x):
    def program(a):          # a new function each time: traced and lowered anew, not cached
        return f(a)
    lowered = jax.jit(program).trace(x).lower()
    return lowered.as_text(), lowered.as_text(debug_info=True)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_kept_context_prints_the_fresh_module(dtype):
    x = np.random.RandomState(0).standard_normal((3, 5)).astype(dtype)
    for f in FUNCS:
        before, closed, texts = irc.stats()["reused"], _closed(f, x), []
        for i in range(3):     # fresh, then twice in the kept context (from one line: same locations)
            with irc.reusing(closed) if i else contextlib.nullcontext():
                texts.append(_texts(f, x))
        assert irc.stats()["reused"] > before
        assert texts[1] == texts[0] and texts[2] == texts[0]


def test_first_call_bits_match_a_fresh_compile(monkeypatch):
    """A first PyNative call (lowered in the kept context) against the same program
    compiled ahead of time in a fresh context, on random values and edge cases."""
    monkeypatch.setenv("MSJAX_EAGER_STORE", "0")      # compiled here, not loaded
    from msjax.runtime import _host_eager
    monkeypatch.setattr(_host_eager, "_ON", False)     # nor run on the host (float32 exp there)
    rs = np.random.RandomState(1)
    for dtype in DTYPES:
        v = np.concatenate([rs.standard_normal(37) * 4, [0.0, -0.0, np.inf, -np.inf, np.nan, 88.5, -104.0]])
        x = v.astype(dtype).reshape(1, -1)
        before = irc.stats()
        got = ops.exp(ms.Tensor(x)).asnumpy()
        assert irc.stats()["reused"] + irc.stats()["made"] > before["reused"] + before["made"]
        want = np.asarray(jax.jit(jnp.exp).trace(x).lower().compile()(x))
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_context_is_replaced_after_reuses(monkeypatch):
    monkeypatch.setattr(irc, "REUSES", 2)
    monkeypatch.setattr(irc, "_LOCAL", threading.local())
    x = np.ones((2, 7), np.float32)
    with irc.reusing(_closed(jnp.exp, x)):
        from jax._src.interpreters import mlir
        contexts = [mlir.make_ir_context() for _ in range(5)]
    assert contexts[0] is contexts[1] and contexts[2] is contexts[3] and contexts[4] is not contexts[3]
    assert contexts[1] is not contexts[2]
    assert mlir.make_ir_context() is not contexts[4]        # outside: a fresh one, as JAX makes


def test_a_large_program_inside_a_small_ones_lowering_gets_a_fresh_context(monkeypatch):
    monkeypatch.setattr(irc, "_LOCAL", threading.local())
    from jax._src.interpreters import mlir
    x = np.ones((2, 7), np.float32)
    with irc.reusing(_closed(jnp.exp, x)):
        kept = mlir.make_ir_context()
        with irc.reusing(_closed(_with_big_constant, x)):
            assert mlir.make_ir_context() is not kept            # a large program inside: fresh
        assert mlir.make_ir_context() is kept


def test_what_is_not_small():
    x = np.ones((4,), np.float32)
    assert irc.small(_closed(jnp.exp, x))

    def long(a):
        for _ in range(irc.MAX_EQUATIONS + 1):
            a = a + 1.0
        return a
    assert not irc.small(_closed(long, x))
    assert not irc.small(_closed(jax.jit(long), x))          # nested programs count
    assert not irc.small(_closed(_with_big_constant, x))


def test_each_thread_has_its_own_context(monkeypatch):
    monkeypatch.setattr(irc, "_LOCAL", threading.local())
    from jax._src.interpreters import mlir
    closed = _closed(jnp.exp, np.ones((2,), np.float32))
    seen = []

    def grab():
        with irc.reusing(closed):
            seen.append((mlir.make_ir_context(), mlir.make_ir_context()))
    grab()
    t = threading.Thread(target=grab)
    t.start()
    t.join()
    assert seen[0][0] is seen[0][1] and seen[1][0] is seen[1][1] and seen[0][0] is not seen[1][0]
