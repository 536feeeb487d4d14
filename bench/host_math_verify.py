"""``runtime/_host_math.py`` against this machine's XLA, on many values and shapes.

``_host_math`` replays the arithmetic XLA:CPU compiles for float32 ``exp``, ``log``,
``logistic``, ``tanh`` (its own polynomials, FMA-contracted) and calls the C library as XLA
does for ``sin``/``cos``/``pow``; ``available()`` turns it on only for the CPUs and jaxlib it
was measured on. This script is that measurement, for the CPU it runs on: each function on
``--values`` random bit patterns and as many typical values (ranges around the clamps, normal
and log-uniform magnitudes), every 1-D size up to ``--max-size`` (the C-library tails of short
programs included) and a set of 2-D/3-D shapes, each against the primitive compiled ahead of
time (so the host path cannot answer it). It prints the differing values per function; exit
status 1 if any differ. ``_host_math`` is forced on for the run (``available()`` is what is
being decided).

    python bench/host_math_verify.py [--values 4194304] [--max-size 300] [--funcs exp,log,...]

Not run in CI (minutes of CPU); ``tests/test_host_math.py`` keeps a smaller sample of it.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from msjax.runtime import _host_math as hm  # noqa: E402

F32 = np.float32
REFS = {"exp": jnp.exp, "log": jnp.log, "logistic": jax.nn.sigmoid, "tanh": jnp.tanh,
        "sin": jnp.sin, "cos": jnp.cos}
SHAPES = [(2, 3), (3, 5), (4, 7), (5, 16), (7, 9), (8, 8), (9, 33), (16, 3), (31, 17), (2, 3, 8), (3, 1, 13),
          (1, 13), (13, 1), (2, 2, 2, 3)]


def _bits(a):
    return np.asarray(a, F32).view(np.uint32)


def _compiled(name, shape):
    fn = REFS[name] if name != "pow" else (lambda a, b: jnp.power(a, b))
    args = [jax.ShapeDtypeStruct(shape, F32)] * (2 if name == "pow" else 1)
    return jax.jit(fn).lower(*args).compile()


def _host(name, *xs):
    return (hm.power if name == "pow" else getattr(hm, name))(*xs)


def _value_sets(n, seed):
    rs = np.random.RandomState(seed)
    np.seterr(over="ignore")                     # log-uniform magnitudes past float32's range become inf
    rand = rs.randint(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32).view(F32)
    typical = np.concatenate([rs.uniform(-100, 100, n // 4), rs.standard_normal(n // 4) * 8,
                              np.exp(rs.uniform(-103, 89, n // 4)) * rs.choice([-1, 1], n // 4),
                              rs.uniform(-1e-3, 1e-3, n // 8), rs.uniform(-88.5, -86.5, n // 8)]).astype(F32)
    return rand, typical


def _pow_operands(x, rs):
    e = x.view(np.uint32) & 0x7F800000
    b = np.abs(x[(e != 0) & (e != 0x7F800000)])
    y = rs.choice(np.array([1.5, 2.0, 0.5, -1.5, 0.3, 3.0, -0.5, 2.5, -2.0, 0.1], F32), b.size)
    return b, y


def flat_values(name, n, chunk, seed):
    """Differing values among ``2n`` operands, compared in flat chunks of ``chunk`` (a multiple of 8)."""
    fn, bad, total = _compiled(name, (chunk,)), 0, 0
    rs = np.random.RandomState(seed + 7)
    for xs in _value_sets(n, seed):
        if name == "log":
            xs = np.concatenate([xs, np.abs(xs)])
        for i in range(0, xs.size - chunk + 1, chunk):
            x = xs[i:i + chunk]
            if name == "pow":
                b, y = _pow_operands(x, rs)
                b, y = np.resize(b, chunk), np.resize(y, chunk)
                bad += int(np.sum(_bits(_host(name, b, y)) != _bits(fn(b, y))))
            else:
                bad += int(np.sum(_bits(_host(name, x)) != _bits(fn(x))))
            total += chunk
    return bad, total


def shapes(name, max_size, seed):
    """Differing values over every 1-D size 1..max_size and ``SHAPES``; calls refused by the host path
    (a denormal C-library tail) are counted apart."""
    rs = np.random.RandomState(seed)
    bad = total = refused = 0
    for shape in [(n,) for n in range(1, max_size + 1)] + SHAPES:
        fn = _compiled(name, shape)
        for _ in range(4):
            x = (rs.standard_normal(shape) * rs.choice([1, 8, 40])).astype(F32)
            x.flat[rs.randint(0, x.size)] = rs.choice(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 88.8, -87.5], F32))
            if name in ("log",):
                x = np.abs(x)
            args = (x,)
            if name == "pow":
                x = np.abs(x) + F32(0.5)
                x[~np.isfinite(x)] = F32(2.0)
                args = (x, np.full(shape, F32(1.5)))
            try:
                got = _bits(_host(name, *args))
            except hm.Refused:
                refused += 1
                continue
            bad += int(np.sum(got != _bits(fn(*args))))
            total += x.size
    return bad, total, refused


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--values", type=int, default=1 << 22, help="random bit patterns (and as many typical values)")
    ap.add_argument("--max-size", type=int, default=300)
    ap.add_argument("--chunk", type=int, default=1 << 16)
    ap.add_argument("--funcs", default="exp,log,logistic,tanh,sin,cos,pow")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    with open("/proc/cpuinfo") as f:
        info = f.read()
    model = next((ln.split(":", 1)[1].strip() for ln in info.splitlines() if ln.startswith("model name")), "?")
    vendor = next((ln.split(":", 1)[1].strip() for ln in info.splitlines() if ln.startswith("vendor_id")), "?")
    import jaxlib
    print(f"CPU {vendor} {model} ({platform.machine()}; avx512f: {' avx512f' in info}), jaxlib {jaxlib.__version__}, "
          f"XLA_FLAGS={os.environ.get('XLA_FLAGS', '')!r}, available() without forcing: {hm._check()}")
    hm._STATE[:] = [True]
    hm.LIBM_MAX_ELEMENTS = max(hm.LIBM_MAX_ELEMENTS, args.chunk)
    failed = False
    for name in args.funcs.split(","):
        t0 = time.process_time()
        bad, total = flat_values(name, args.values, args.chunk, args.seed)
        sbad, stotal, refused = shapes(name, args.max_size, args.seed + 1)
        failed |= bool(bad or sbad)
        print(f"{name:9s} values: {bad} of {total} differ; shapes 1..{args.max_size} and {len(SHAPES)} others: "
              f"{sbad} of {stotal} differ ({refused} calls refused); {time.process_time() - t0:.0f} s CPU", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
