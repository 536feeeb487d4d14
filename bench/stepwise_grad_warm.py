"""Warm calls of a stepwise PyNative ``ms.grad`` (``runtime/_stepwise.py``): a 2-layer Dense net's
gradient (Dense(16, 32)-ReLU-Dense(32, 1), MSE loss, batch 8, as ``bench/eager_first.py``'s) called
``--calls`` times after two unmeasured calls; prints the median and best per-call time of
``--rounds`` rounds (ms, each call synced; ``--clock cpu``: the process's CPU time). ``--whole`` compiles the gradient as one program
(``_stepwise.MAX_EQUATIONS = 0``: the path before op-by-op evaluation) for comparison in the same
process; ``--profile`` prints a cProfile of one round instead.

    python bench/stepwise_grad_warm.py [--calls 200] [--rounds 5] [--whole] [--profile]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import msjax as ms  # noqa: E402
from msjax import nn  # noqa: E402
from msjax.runtime import _host_eager, _stepwise  # noqa: E402


def make_grad():
    rs = np.random.RandomState(0)
    net = nn.SequentialCell([nn.Dense(16, 32), nn.ReLU(), nn.Dense(32, 1)])
    for p in net.trainable_params():
        p.set_data(ms.Tensor(rs.standard_normal(p.shape).astype(np.float32)))
    loss = nn.MSELoss()
    g = ms.grad(lambda a, b: loss(net(a), b), grad_position=None, weights=net.trainable_params())
    x = ms.Tensor(rs.standard_normal((8, 16)).astype(np.float32))
    y = ms.Tensor(rs.standard_normal((8, 1)).astype(np.float32))
    return g, x, y


def bits(out):
    return b"".join(np.asarray(t).tobytes() for t in out)


def one_round(g, x, y, calls, clock=time.perf_counter):
    t0 = clock()
    for _ in range(calls):
        out = g(x, y)
        out[-1]._data.block_until_ready()
    return (clock() - t0) * 1e3 / calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--whole", action="store_true")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="elapsed time, or the process's CPU time (all threads: steadier on a shared machine)")
    args = ap.parse_args()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    if args.whole:
        _stepwise.MAX_EQUATIONS = 0
    g, x, y = make_grad()
    before = _host_eager.stats()["stepwise"]
    first = bits(g(x, y))
    second = bits(g(x, y))
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        one_round(g, x, y, args.calls)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        return
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    times = [one_round(g, x, y, args.calls, clock) for _ in range(args.rounds)]
    stepwise = _host_eager.stats()["stepwise"] - before
    print(f"{'whole program' if args.whole else 'stepwise'}: warm call ({args.clock}) median {statistics.median(times):.3f} ms, "
          f"best {min(times):.3f} ms ({args.rounds} rounds of {args.calls}); stepwise calls {stepwise}; "
          f"first == second == last bits: {first == second == bits(g(x, y))}")


if __name__ == "__main__":
    main()
