"""PyNative per-op cost: one elementwise op on small Tensors, msjax against JAX
eager (``jax.numpy`` on ``jax.Array``), a hand-jitted JAX function of the same op,
and torch eager when torch is installed, in the same process.

msjax's hot-kernel path (``msjax/_core/eager.py``) compiles an op's signature
after a few calls; the "plain path" column is the same call with it turned off
(``MSJAX_EAGER_JIT=0``). The columns are measured interleaved (round after round,
each column in turn) and the best round is kept, so a loaded machine slows them
alike; pin it to one core for steadier numbers (``taskset -c 0``).

    python bench/eager_ops.py [--n 2000] [--rounds 30]
"""
from __future__ import annotations

import argparse
import os
import sys
import timeit

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import msjax as ms  # noqa: E402
from msjax import ops  # noqa: E402
from msjax._core import eager  # noqa: E402


def per_call_us(fn, n, hot=True):
    eager.enabled(hot)     # the plain-path column runs with the hot kernels off
    try:
        return timeit.timeit(fn, number=n) / n * 1e6
    finally:
        eager.enabled(True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000, help="calls per timing")
    ap.add_argument("--rounds", type=int, default=30, help="interleaved rounds; the best is kept")
    args = ap.parse_args()
    xn = np.random.RandomState(0).standard_normal((4, 4)).astype(np.float32)
    x, y = ms.Tensor(xn), ms.Tensor(xn + 1)
    a, b = x._data, y._data
    jadd, jmul, jexp = jax.jit(jnp.add), jax.jit(jnp.multiply), jax.jit(jnp.exp)
    add, exp = ops.Add(), ops.Exp()
    rows = [   # name, msjax, JAX eager, jax.jit
        ("x + y", lambda: x + y, lambda: a + b, lambda: jadd(a, b)),
        ("ops.add(x, y)", lambda: ops.add(x, y), lambda: jnp.add(a, b), lambda: jadd(a, b)),
        ("ops.exp(x)", lambda: ops.exp(x), lambda: jnp.exp(a), lambda: jexp(a)),
        ("x * 2.0", lambda: x * 2.0, lambda: a * 2.0, lambda: jmul(a, 2.0)),
        ("ops.Add()(x, y)", lambda: add(x, y), lambda: jnp.add(a, b), lambda: jadd(a, b)),
        ("ops.Exp()(x)", lambda: exp(x), lambda: jnp.exp(a), lambda: jexp(a)),
    ]
    try:
        import torch
        tx, ty = torch.from_numpy(xn), torch.from_numpy(xn + 1)
        torch_fns = [lambda: tx + ty, lambda: torch.add(tx, ty), lambda: torch.exp(tx), lambda: tx * 2.0,
                     lambda: torch.add(tx, ty), lambda: torch.exp(tx)]
    except ImportError:
        torch_fns = [None] * len(rows)
    table = [[m, m, j, jj, t] for (_, m, j, jj), t in zip(rows, torch_fns)]
    for fns in table:            # warm up: past the hot-kernel threshold, compiled
        for j, f in enumerate(fns):
            if f is not None:
                per_call_us(f, eager.THRESHOLD + 10, hot=j != 1)
    best = [[float("inf")] * 5 for _ in rows]
    for _ in range(args.rounds):
        for i, fns in enumerate(table):
            for j, f in enumerate(fns):
                if f is not None:
                    best[i][j] = min(best[i][j], per_call_us(f, args.n, hot=j != 1))
    print(f"jax {jax.__version__}, {jax.default_backend()}, 4x4 float32, microseconds per call "
          f"(best of {args.rounds} interleaved rounds of {args.n})")
    print("| op | msjax | msjax plain path | JAX eager | `jax.jit` | msjax / `jax.jit` | torch eager |")
    print("|---|---|---|---|---|---|---|")
    for (name, *_), (hot, pl, je, jj, tt) in zip(rows, best):
        torch_s = "n/a" if tt == float("inf") else f"{tt:.1f}"
        print(f"| `{name}` | {hot:.1f} | {pl:.1f} | {je:.1f} | {jj:.1f} | {hot / jj:.2f} | {torch_s} |", flush=True)


if __name__ == "__main__":
    main()
