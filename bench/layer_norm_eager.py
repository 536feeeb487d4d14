"""PyNative LayerNorm on MindSpore's CPU arithmetic: what a new shape and a warm call cost (issue 35).

float32/float16 LayerNorm reproduces MindSpore 2.10's CPU kernel bit for bit (float64 serial sums,
``msjax/ops/_impl/layer_norm_cpu.py``). Each round starts a fresh process (empty eager store and
compile cache in a temporary directory) that times, with a sync after every call:

* ``nn.LayerNorm((64,))`` on 5 shapes, each new to the process (the first one also pays the op's
  first trace), then a warm call (median of 20) on the last shape; the same for ``(768,)`` at
  (8, 128, 768) (BERT-base) and for float16;
* ``ops.LayerNorm(1, 1)`` (the Primitive) on a new 3-D shape;
* ``ms.grad`` of ``(layer(x) * dy).sum()`` (one grad function) on two new shapes, then a warm call (the
  gradient is XLA's formula, compiled per shape);
* a ViT/BERT-style encoder block (LayerNorm, Dense q/k/v, BatchMatMul, Softmax, Dense, GELU,
  two residuals) in PyNative on 3 new sequence lengths, then a warm call.

The medians over the rounds are printed in milliseconds of the process's CPU time (all its threads;
steady while other jobs share the machine; ``--clock wall`` for elapsed time). Pin to one core
(``taskset -c 0 python bench/layer_norm_eager.py``) and note the load.
``--scan`` forces the float64 ``lax.scan`` statistics (the implementation before the native kernel,
``MSJAX_LAYER_NORM_NATIVE=0``) for a before/after in the same run. ``--bits N`` instead compares the
native kernel with the ``lax.scan`` form bit for bit (y, mean, var; both compiled, and the kernel's host
twin) on ``N`` random configurations: shapes up to 3072 values a block, both axes' settings, float32 with
magnitudes over 20 binades and float16, NaN/infinity/denormal/signed-zero values, gamma/beta left out.

    python bench/layer_norm_eager.py [--rounds 3] [--scan] [--clock cpu|wall] [--bits N]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


CLOCK = [time.process_time]


def _timed(fn):
    t = CLOCK[0]()
    out = fn()
    for o in out if isinstance(out, (tuple, list)) else (out,):
        o.asnumpy()
    return (CLOCK[0]() - t) * 1e3


def _warm(fn, n=20):
    """The median of ``n`` calls after 30 unmeasured ones (a PyNative op stays on the host for its first
    calls while they take under ``HOST_BUDGET_MS`` in all, then compiles: runtime/_host_eager.py)."""
    for _ in range(30):
        _timed(fn)
    return statistics.median(_timed(fn) for _ in range(n))


def child():
    import numpy as np
    import msjax as ms
    from msjax import nn, ops
    rng = np.random.default_rng(0)
    res = {}

    def tensor(shape, dt=np.float32):
        return ms.Tensor(rng.standard_normal(shape).astype(dt))

    ln = nn.LayerNorm((64,), epsilon=1e-5)
    shapes = [(2, 8, 64), (4, 16, 64), (3, 64), (1, 50, 64), (8, 32, 64)]
    firsts = []
    for shape in shapes:
        x = tensor(shape)
        firsts.append(_timed(lambda: ln(x)))
    res["nn.LayerNorm(64) first call of the process"] = firsts[0]
    res["nn.LayerNorm(64) new shape (mean of 4)"] = statistics.mean(firsts[1:])
    res["nn.LayerNorm(64) warm"] = _warm(lambda: ln(x))
    big = nn.LayerNorm((768,), epsilon=1e-12)
    xb = tensor((8, 128, 768))
    res["nn.LayerNorm(768) (8, 128, 768) new shape"] = _timed(lambda: big(xb))
    res["nn.LayerNorm(768) (8, 128, 768) warm"] = _warm(lambda: big(xb))
    xh = tensor((4, 16, 64), np.float16)
    lnh = ops.LayerNorm(-1, -1, 1e-5)
    gh, bh = ms.Tensor(np.ones(64, np.float16)), ms.Tensor(np.zeros(64, np.float16))
    res["float16 ops.LayerNorm new shape"] = _timed(lambda: lnh(xh, gh, bh))
    res["float16 ops.LayerNorm warm"] = _warm(lambda: lnh(xh, gh, bh))
    prim = ops.LayerNorm(1, 1, 1e-7)
    xp = tensor((4, 6, 10))
    g, b = tensor((6, 10)), tensor((6, 10))
    res["ops.LayerNorm(1, 1) new shape"] = _timed(lambda: prim(xp, g, b))
    res["ops.LayerNorm(1, 1) warm"] = _warm(lambda: prim(xp, g, b))

    def loss(t, dy):
        return (ln(t) * dy).sum()
    grad_fn = ms.grad(loss)
    grads = []
    for shape in [(3, 7, 64), (5, 64)]:
        x, dy = tensor(shape), tensor(shape)
        grads.append(_timed(lambda: grad_fn(x, dy)))
    res["ms.grad(LayerNorm) new shape (mean of 2)"] = statistics.mean(grads)
    res["ms.grad(LayerNorm) warm"] = _warm(lambda: grad_fn(x, dy))

    class Block(nn.Cell):
        def __init__(self, d=64, heads=4):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm((d,), epsilon=1e-6), nn.LayerNorm((d,), epsilon=1e-6)
            self.q, self.k, self.v, self.o = (nn.Dense(d, d) for _ in range(4))
            self.fc1, self.fc2 = nn.Dense(d, 4 * d), nn.Dense(4 * d, d)
            self.gelu, self.softmax = nn.GELU(), nn.Softmax(-1)
            self.heads, self.dh = heads, d // heads

        def split(self, t, b, s):
            return ops.transpose(t.reshape(b * s, self.heads, self.dh).reshape(b, s, self.heads, self.dh),
                                 (0, 2, 1, 3)).reshape(b * self.heads, s, self.dh)

        def construct(self, x):
            b, s, d = x.shape
            h = self.ln1(x).reshape(b * s, d)
            q, k, v = (self.split(f(h), b, s) for f in (self.q, self.k, self.v))
            a = self.softmax(ops.BatchMatMul(False, True)(q, k) / float(self.dh ** 0.5))
            ctx = ops.transpose(ops.BatchMatMul()(a, v).reshape(b, self.heads, s, self.dh), (0, 2, 1, 3))
            x = x + self.o(ctx.reshape(b * s, d)).reshape(b, s, d)
            h = self.fc2(self.gelu(self.fc1(self.ln2(x).reshape(b * s, d))))
            return x + h.reshape(b, s, d)
    block = Block()
    blocks = []
    for s in (17, 33, 50):
        x = tensor((2, s, 64))
        blocks.append(_timed(lambda: block(x)))
    res["encoder block (2, s, 64) new shape (mean of 3)"] = statistics.mean(blocks)
    res["encoder block (2, s, 64) warm"] = _warm(lambda: block(x), 10)
    print("RESULT " + json.dumps(res))


def bits(trials):
    """``--bits``: the native kernel (compiled and its host twin) against the ``lax.scan`` form."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    import msjax  # noqa: F401
    from msjax.ops import _native
    from msjax.ops._impl import layer_norm_cpu as lnc
    from msjax.runtime import _host_eager as he

    def scan(x, g, b, bna, bpa, eps):
        y, m, v = lnc._forward(x, g, b, bna, bpa, eps)
        dt = jnp.float16 if x.dtype == jnp.float16 else jnp.float32
        return y, m.astype(dt), v.astype(dt)

    def native(x, g, b, bna, bpa, eps):
        y, m, v = lnc._native_forward(x, g, b, bna, eps)
        dt = jnp.float16 if x.dtype == jnp.float16 else jnp.float32
        return y, m.astype(dt), v.astype(dt)
    assert _native.library() is not None, "msjax's native kernels are not built here"
    rs = np.random.RandomState(0)
    bad = 0
    for trial in range(trials):
        nd = rs.randint(1, 4)
        shape = tuple(int(rs.choice([1, 2, 3, 5, 7, 16, 33, 64, 100, 257])) for _ in range(nd))
        if rs.rand() < 0.2:
            shape = tuple(int(v) for v in rs.choice([1, 2, 4, 8], nd - 1)) + (int(rs.choice([768, 1024, 3072])),)
        bna, bpa = rs.randint(0, nd), rs.randint(0, nd)
        dt = np.float16 if rs.rand() < 0.3 else np.float32
        spread = np.exp(rs.standard_normal(shape) * (4 if dt == np.float32 else 1)) if rs.rand() < 0.5 else 1.0
        x = ((rs.standard_normal(shape) + rs.standard_normal() * 10) * spread).astype(dt)
        if rs.rand() < 0.2:
            x.reshape(-1)[rs.randint(0, x.size, 2)] = rs.choice([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, 7e4])
        g = None if rs.rand() < 0.2 else rs.standard_normal(shape[bpa:]).astype(dt)
        b = None if rs.rand() < 0.2 else rs.standard_normal(shape[bpa:]).astype(dt)
        eps = float(rs.choice([1e-5, 1e-7, 1e-12]))
        want = jax.jit(scan, static_argnums=(3, 4, 5))(x, g, b, bna, bpa, eps)
        got = jax.jit(native, static_argnums=(3, 4, 5))(x, g, b, bna, bpa, eps)
        closed = jax.make_jaxpr(native, static_argnums=(3, 4, 5))(x, g, b, bna, bpa, eps)
        plan = he._plan(closed.jaxpr, [0])
        assert plan is not None, "the native program is not evaluated on the host"
        host = he._evaluate(closed.jaxpr, plan, [a for a in (x, g, b) if a is not None])
        for w, *others in zip(want, got, host):
            w = np.asarray(w)
            if any(np.asarray(o).tobytes() != w.tobytes() or np.asarray(o).shape != w.shape for o in others):
                bad += 1
                print(f"differs: {shape} {dt.__name__} bna={bna} bpa={bpa} gamma={g is not None} "
                      f"beta={b is not None} eps={eps}")
                break
    print(f"{trials} configurations, {bad} differ (native compiled and host twin against the lax.scan form)")
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scan", action="store_true", help="the float64 lax.scan statistics (before)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--bits", type=int, default=0, help="compare with the lax.scan form on N configurations")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clock == "wall":
        CLOCK[0] = time.perf_counter
    if args.child:
        return child()
    if args.bits:
        sys.exit(1 if bits(args.bits) else 0)
    tmp = tempfile.mkdtemp(prefix="ln_eager_")
    rounds = []
    try:
        for n in range(args.rounds):
            env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
                       MSJAX_CACHE_DIR=os.path.join(tmp, f"cache{n}"),
                       MSJAX_EAGER_STORE_DIR=os.path.join(tmp, f"store{n}"))
            if args.scan:
                env["MSJAX_LAYER_NORM_NATIVE"] = "0"
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "--clock", args.clock], env=env,
                                 capture_output=True, text=True, check=True).stdout
            rounds.append(json.loads(out.split("RESULT ", 1)[1]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"load {os.getloadavg()[0]:.1f}; {'scan (before)' if args.scan else 'default'}; "
          f"median of {len(rounds)} fresh processes, {args.clock} ms")
    for k in rounds[0]:
        print(f"  {k:48s} {statistics.median(r[k] for r in rounds):9.2f}")


if __name__ == "__main__":
    main()
