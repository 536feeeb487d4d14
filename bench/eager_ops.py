"""PyNative per-op cost: one elementwise op on small Tensors, msjax against JAX
eager (``jax.numpy`` on ``jax.Array``), a hand-jitted JAX function, and torch
eager when torch is installed, in the same process.

msjax's hot-kernel path (``msjax/_core/eager.py``) compiles an op's signature
after a few calls; ``MSJAX_EAGER_JIT=0`` shows the plain path for comparison.

    python bench/eager_ops.py [--n 20000]
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


def per_call_us(fn, n):
    for _ in range(10):
        fn()
    return min(timeit.repeat(fn, number=n, repeat=5)) / n * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20000)
    args = ap.parse_args()
    xn = np.random.RandomState(0).standard_normal((4, 4)).astype(np.float32)
    x, y = ms.Tensor(xn), ms.Tensor(xn + 1)
    a, b = x._data, y._data
    jadd, jexp = jax.jit(jnp.add), jax.jit(jnp.exp)
    rows = [
        ("x + y", lambda: x + y, lambda: a + b, lambda: jadd(a, b)),
        ("ops.add(x, y)", lambda: ops.add(x, y), lambda: jnp.add(a, b), lambda: jadd(a, b)),
        ("ops.exp(x)", lambda: ops.exp(x), lambda: jnp.exp(a), lambda: jexp(a)),
        ("x * 2.0", lambda: x * 2.0, lambda: a * 2.0, lambda: jadd(a, a)),
    ]
    try:
        import torch
        tx, ty = torch.from_numpy(xn), torch.from_numpy(xn + 1)
        torch_fns = [lambda: tx + ty, lambda: torch.add(tx, ty), lambda: torch.exp(tx), lambda: tx * 2.0]
    except ImportError:
        torch_fns = [None] * len(rows)
    print(f"jax {jax.__version__}, {jax.default_backend()}, 4x4 float32, microseconds per call (min of 5)")
    print("| op | msjax | msjax, plain path | JAX eager | jax.jit | torch eager |")
    print("|---|---|---|---|---|---|")
    for (name, m, j, jj), t in zip(rows, torch_fns):
        hot = per_call_us(m, args.n)
        eager.enabled(False)
        plain = per_call_us(m, args.n)
        eager.enabled(True)
        tt = f"{per_call_us(t, args.n):.1f}" if t else "n/a"
        print(f"| {name} | {hot:.1f} | {plain:.1f} | {per_call_us(j, args.n):.1f} | "
              f"{per_call_us(jj, args.n):.1f} | {tt} |", flush=True)


if __name__ == "__main__":
    main()
