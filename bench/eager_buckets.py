"""Shape buckets for PyNative programs (``msjax/runtime/_eager_buckets.py``): bits and speed.

``--verify``: for each family of programs (elementwise, broadcast, a reduction over an unpadded
axis, nested ``jit``/``custom_jvp`` calls, sort/cumulative ops off their axis, float32 and
float64) and each shape of a sweep, the program compiled for the shape itself and its bucket
program compiled, run on the zero-padded operands and sliced, are compared bit for bit (both
compiled ahead of time, so neither the host path nor a bucket answers the reference). Operands:
normal values of several scales with NaN, infinities, signed zeros and denormals sprinkled in.
An operand holding a NaN must be refused (it runs its own program); the comparison runs on it with
the NaNs replaced. Prints the differing values per family (the module's rules must keep every count at 0).

Default: a loop over varying shapes (batch sizes 3, 5, 7, ..., 41 of an (n, 16) float32 Tensor)
calling ops whose programs the host path cannot run, in a fresh process per mode (buckets on,
off), each with an empty eager store; prints compiles and CPU ms per new shape per op.

    taskset -c 0 python bench/eager_buckets.py [--verify] [--rounds 2]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOOP_OPS = ["erf", "log1p", "expm1", "atan", "asin", "softplus", "hardswish", "cumsum", "gelu",
            "log_softmax", "logsumexp", "sort"]


def _loop_ops(ops, ms):
    return {"erf": ops.erf, "log1p": lambda x: ops.log1p(ops.abs(x)), "expm1": ops.expm1, "atan": ops.atan,
            "asin": lambda x: ops.asin(ops.tanh(x)), "softplus": ops.softplus, "hardswish": ops.hardswish,
            "cumsum": lambda x: ops.cumsum(x, 1), "gelu": ops.gelu,
            "log_softmax": lambda x: ops.log_softmax(x, -1), "logsumexp": lambda x: ops.logsumexp(x, 1),
            "sort": lambda x: ops.sort(x)[0]}


def child_loop(sizes, feat):
    import numpy as np
    import msjax as ms
    from msjax import ops
    from msjax.runtime import _host_eager as he
    rng = np.random.default_rng(0)
    out = {}
    for name, fn in _loop_ops(ops, ms).items():
        c0, t0 = he.stats()["compiled"], time.process_time()
        for n in sizes:
            fn(ms.Tensor(rng.standard_normal((n, feat)).astype(np.float32))).asnumpy()
        out[name] = [he.stats()["compiled"] - c0, (time.process_time() - t0) * 1e3 / len(sizes)]
    print(json.dumps(out))


def families():
    import jax
    import jax.numpy as jnp
    from jax import lax
    return {
        "elementwise erf/log1p/expm1": lambda x: lax.erf(x) - jnp.log1p(jnp.abs(x)) / jnp.expm1(x),
        "elementwise exact (hardswish)": lambda x: x * jnp.clip(x + 3.0, 0.0, 6.0) / 6.0,
        "elementwise exp/log/tanh/logistic": lambda x: jnp.exp(x) - jnp.log(jnp.abs(x)) + jax.nn.sigmoid(jnp.tanh(x)),
        "refused: atan": jnp.atan,
        "refused: tanh*x+1 (FMA)": lambda x: jnp.tanh(x) * x + 1.0,
        "broadcast row": lambda x: lax.erf(x) / jnp.arange(1.0, x.shape[-1] + 1, dtype=x.dtype),
        "broadcast column": lambda x: jnp.expm1(x) * jnp.max(x, axis=-1, keepdims=True),
        "reduce unpadded axis": lambda x: jnp.sum(jnp.expm1(x), axis=-1),
        "log_softmax": lambda x: jax.nn.log_softmax(x, axis=-1),
        "softplus (custom_jvp)": jax.nn.softplus,
        "nested jit": lambda x: jax.jit(lambda y: jnp.expm1(y) * 2.0)(x) / 3.0,
        "sort/cumsum along axis": lambda x: jnp.cumsum(jnp.sort(jnp.expm1(x), axis=-1), axis=-1),
        "float64 erf": lambda x: lax.erf(x.astype(jnp.float64)),
    }


def _operand(shape, dtype, seed):
    import numpy as np
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * rng.choice([1e-3, 1.0, 10.0, 1e3], size=shape)).astype(dtype)
    flat = x.reshape(-1)
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-40, 88.0, -104.0], dtype)
    idx = rng.choice(flat.size, size=min(flat.size, len(specials)), replace=False)
    flat[idx] = specials[:len(idx)]
    return x


def compare(fn, x, runs=8):
    """Differing values between ``fn`` compiled for ``x``'s shape and its bucket (None: no bucket)."""
    import jax
    import numpy as np
    from jax._src.core import jaxpr_as_fun
    from msjax.runtime import _eager_buckets as eb
    closed = jax.make_jaxpr(fn)(x)
    bucket = eb.plan(closed)
    if bucket is None:
        return None
    ref = jax.jit(jaxpr_as_fun(closed)).lower(x).compile()
    big = jax.jit(jaxpr_as_fun(bucket.jaxpr)).lower(*bucket.in_avals).compile()
    diffs = 0
    for k in range(runs):     # a differing code path shows on some values only: several operands
        xk = x if k == 0 else _operand(x.shape, x.dtype, 1000 + k)
        assert bucket.pad([xk]) is None       # a NaN operand is refused (its own program decides)
        xk = np.where(np.isnan(xk), np.float32(1.5), xk)
        for r, g in zip(ref(xk), bucket.slice(big(*bucket.pad([xk])))):
            r = np.asarray(r)
            diffs += int((r.view(np.uint8).reshape(-1, r.dtype.itemsize)
                          != g.view(np.uint8).reshape(-1, g.dtype.itemsize)).any(axis=-1).sum())
    return diffs


def verify(shapes, only=None):
    import jax
    jax.config.update("jax_enable_x64", True)
    import numpy as np
    from msjax.runtime import _host_eager as he
    he.enabled(False)
    for name, fn in families().items():
        if only and not any(o in name for o in only):
            continue
        diffs, n_bucketed, where = 0, 0, []
        for k, shape in enumerate(shapes):
            try:
                d = compare(fn, _operand(shape, np.float32, k))
            except (ValueError, TypeError):   # a family that needs more axes than the shape has
                continue
            if d is not None:
                n_bucketed += 1
                diffs += d
                where += [f"{shape}: {d}"] if d else []
        print(f"{name:40s} bucketed {n_bucketed:3d}/{len(shapes)} shapes, differing values: {diffs}", flush=True)
        if where:
            print("    " + ", ".join(where), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--verify", action="store_true")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--feat", type=int, default=16)
    ap.add_argument("--child", default=None)
    ap.add_argument("--only", default="", help="--verify: families whose name contains one of these (comma-separated)")
    a = ap.parse_args()
    sizes = list(range(3, 43, 2))
    if a.verify:
        shapes = [(n, m) for n in (1, 3, 5, 6, 7, 9, 13, 17, 33) for m in (3, 8, 13, 16, 40)]
        shapes += [(n,) for n in (3, 5, 7, 11, 13, 15, 33, 100)] + [(3, 5, 7), (2, 9, 40)]
        return verify(shapes, [o for o in a.only.split(",") if o])
    if a.child is not None:
        return child_loop(sizes, a.feat)
    rows = {}
    for _ in range(a.rounds):
        for mode in ("off", "on"):
            with tempfile.TemporaryDirectory() as tmp:
                env = dict(os.environ, PYTHONPATH=ROOT, MSJAX_EAGER_STORE_DIR=os.path.join(tmp, "eager"),
                           MSJAX_CACHE_DIR=os.path.join(tmp, "cache"), MSJAX_EAGER_BUCKETS="1" if mode == "on" else "0")
                out = subprocess.run([sys.executable, __file__, "--child", mode, "--feat", str(a.feat)],
                                     env=env, capture_output=True, text=True, check=True).stdout
            for op, v in json.loads(out.strip().splitlines()[-1]).items():
                rows.setdefault(op, {}).setdefault(mode, []).append(v)
    print(f"batch sizes {sizes[0]}..{sizes[-1]} step 2 of (n, {a.feat}) float32; median of {a.rounds} fresh processes")
    print("| op | compiles, buckets off | ms per new shape, off | compiles, on | ms per new shape, on |")
    print("|---|---:|---:|---:|---:|")
    tot = {"off": [0, 0.0], "on": [0, 0.0]}
    for op, m in rows.items():
        cells = []
        for mode in ("off", "on"):
            c = statistics.median(v[0] for v in m[mode])
            t = statistics.median(v[1] for v in m[mode])
            tot[mode][0] += c
            tot[mode][1] += t / len(rows)
            cells += [f"{c:g}", f"{t:.1f}"]
        print(f"| {op} | " + " | ".join(cells) + " |")
    print(f"| all {len(rows)} ops | {tot['off'][0]:g} | {tot['off'][1]:.1f} | {tot['on'][0]:g} | {tot['on'][1]:.1f} |")


if __name__ == "__main__":
    main()
