"""PyNative LayerNorm on MindSpore's CPU arithmetic: what a new shape and a warm call cost (issue 35).

float32/float16 LayerNorm reproduces MindSpore 2.10's CPU kernel bit for bit (float64 serial sums,
``msjax/ops/_impl/layer_norm_cpu.py``). Each round starts a fresh process (empty eager store and
compile cache in a temporary directory) that times, with a sync after every call:

* ``nn.LayerNorm((64,))`` on 5 shapes, each new to the process (the first one also pays the op's
  first trace), then a warm call (median of 20) on the last shape; the same for ``(768,)`` at
  (8, 128, 768) (BERT-base) and for float16;
* ``ops.LayerNorm(1, 1)`` (the Primitive) on a new 3-D shape;
* ``ms.grad`` of ``(layer(x) * dy).sum()`` on two new shapes (first calls), then a warm call;
* a ViT/BERT-style encoder block (LayerNorm, Dense q/k/v, BatchMatMul, Softmax, Dense, GELU,
  two residuals) in PyNative on 3 new sequence lengths, then a warm call.

The medians over the rounds are printed in milliseconds of the process's CPU time (all its threads;
steady while other jobs share the machine; ``--clock wall`` for elapsed time). Pin to one core
(``taskset -c 0 python bench/layer_norm_eager.py``) and note the load.
``--scan`` forces the float64 ``lax.scan`` statistics (the implementation before the native kernel,
``MSJAX_LAYER_NORM_NATIVE=0``) for a before/after in the same run.

    python bench/layer_norm_eager.py [--rounds 3] [--scan] [--clock cpu|wall]
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
    grads = []
    for shape in [(3, 7, 64), (5, 64)]:
        x, dy = tensor(shape), tensor(shape)
        grads.append(_timed(lambda: ms.grad(loss)(x, dy)))
    res["ms.grad(LayerNorm) new shape (mean of 2)"] = statistics.mean(grads)
    res["ms.grad(LayerNorm) warm"] = _warm(lambda: ms.grad(loss)(x, dy))

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scan", action="store_true", help="the float64 lax.scan statistics (before)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clock == "wall":
        CLOCK[0] = time.perf_counter
    if args.child:
        return child()
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
