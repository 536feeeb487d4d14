"""CPU time of msjax's native tanh-form GeLU (``msjax/ops/_native/gelu.cc``) per call on a ``(64, 256)`` float32
block (``--shape``), beside XLA's own tanh-form GeLU (``jax.nn.gelu(approximate=True)``, other bits): the
vector ``tanhf`` (``tanhf_vec.h``) against the C library's ``tanhf`` a value at a time (``MSJAX_GELU_LIBM=1``,
the kernel before the vector code). Each round runs both settings in child processes, order alternating
(ABBA); a child times ``--calls`` calls of a jitted program of 10 such GeLUs (each on its own block) (``time.process_time``: this process's CPU, blind to other jobs)
after warming up and reports the median of ``--blocks`` blocks. Prints each round and the medians.

    python bench/gelu_native.py [--rounds 4] [--shape 64,256] [--calls 50] [--blocks 7]

Run it under ``taskset -c 1`` to keep XLA's and the kernel's threads on one core.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def child(shape, calls, blocks):
    import jax
    import jax.numpy as jnp
    import numpy as np

    from msjax.ops import _native
    from msjax.ops._impl import gelu_cpu

    blocks_per_call = 10   # distinct blocks a program, so the per-program dispatch does not hide the kernel
    xs = jnp.asarray(np.random.default_rng(0).standard_normal((blocks_per_call, *shape)).astype(np.float32) * 3)
    out = {"path": _native.library().MsjaxGeluTanhPath()}
    native = jax.jit(lambda v: [gelu_cpu._elementwise(v[i]) for i in range(blocks_per_call)])
    xla = jax.jit(lambda v: [jax.nn.gelu(v[i], approximate=True) for i in range(blocks_per_call)])
    for name, fn in (("native_us", native), ("xla_us", xla)):
        for _ in range(20):
            jax.block_until_ready(fn(xs))
        per = []
        for _ in range(blocks):
            start = time.process_time()
            for _ in range(calls):
                jax.block_until_ready(fn(xs))
            per.append((time.process_time() - start) / calls / blocks_per_call * 1e6)
        out[name] = statistics.median(per)
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--shape", default="64,256")
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--blocks", type=int, default=7)
    ap.add_argument("--child", action="store_true")
    args = ap.parse_args()
    shape = tuple(int(v) for v in args.shape.split(","))
    if args.child:
        child(shape, args.calls, args.blocks)
        return
    rows = {"vector": [], "libm": []}
    for r in range(args.rounds):
        order = ("vector", "libm") if r % 2 == 0 else ("libm", "vector")
        for setting in order:
            env = dict(os.environ, MSJAX_GELU_LIBM="1" if setting == "libm" else "0")
            proc = subprocess.run([sys.executable, __file__, "--child", "--shape", args.shape, "--calls",
                                   str(args.calls), "--blocks", str(args.blocks)], env=env, check=True,
                                  capture_output=True, text=True)
            got = json.loads(proc.stdout.strip().splitlines()[-1])
            rows[setting].append(got)
            print(f"round {r} {setting:6s} path {got['path']}: native {got['native_us']:.1f} us, "
                  f"XLA {got['xla_us']:.1f} us of CPU a call; load {os.getloadavg()[0]:.1f}", flush=True)
    for setting, got in rows.items():
        print(f"{setting}: native {statistics.median(g['native_us'] for g in got):.1f} us, XLA "
              f"{statistics.median(g['xla_us'] for g in got):.1f} us (medians of {len(got)} rounds)")


if __name__ == "__main__":
    main()
