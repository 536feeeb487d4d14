"""What the run-time index checks of compiled programs cost (``_core.runtime_checks``): a GRAPH_MODE
``TrainOneStepCell`` whose forward gathers embedding rows (``ops.gather``) and scatters into a
buffer (``ops.tensor_scatter_add``), timed with the checks and with them switched off in the same
process (alternating blocks, so load on a shared machine hits both alike):

    python bench/runtime_checks.py [--steps 200] [--rounds 5] [--batch 32] [--vocab 1000] [--read]

``--read`` reads the loss on the host after every step (as ``LossMonitor`` does); without it the
steps are dispatched back to back and only the last is waited for. Prints steps per second of each
and the ratio (medians and best rounds), and each variant's first step (after a warm-up on
other shapes).
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import msjax as ms  # noqa: E402
from msjax import nn, ops  # noqa: E402
from msjax._core import runtime_checks  # noqa: E402


class Net(nn.Cell):
    def __init__(self, vocab, width):
        super().__init__()
        self.table = ms.Parameter(ms.Tensor(np.random.default_rng(0).normal(size=(vocab, width)).astype(np.float32)),
                                  name="table")
        self.fc = nn.Dense(width, 10)
        self.buf = ms.Tensor(np.zeros((vocab, width), np.float32))

    def construct(self, ids, pos):
        h = ops.gather(self.table, ids, 0).mean(axis=1)
        s = ops.tensor_scatter_add(self.buf, pos, h)
        return self.fc(h + ops.gather_nd(s, pos))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--vocab", type=int, default=1000)
    ap.add_argument("--width", type=int, default=64)
    ap.add_argument("--read", action="store_true")
    args = ap.parse_args()
    ms.set_context(mode=ms.GRAPH_MODE)
    rng = np.random.default_rng(1)
    ids = ms.Tensor(rng.integers(0, args.vocab, (args.batch, 16)).astype(np.int32))
    pos = ms.Tensor(rng.permutation(args.vocab)[:args.batch, None].astype(np.int32))
    labels = ms.Tensor(rng.integers(0, 10, args.batch).astype(np.int32))
    nets = {}
    for checks in (True, False):   # warm msjax's one-time work (first traces, compiles) on other shapes
        with_checks(checks, lambda: make_step(args.vocab, args.width)(ids[:-1], pos[:-1], labels[:-1]).asnumpy())
    for checks in (False, True):
        net = nets[checks] = make_step(args.vocab, args.width)
        t0 = time.perf_counter()
        with_checks(checks, lambda: net(ids, pos, labels).asnumpy())
        print(f"checks={checks}: first step (trace and compile) {time.perf_counter() - t0:.2f} s")
    rates = {True: [], False: []}
    for _ in range(args.rounds):
        for checks in (True, False):
            net = nets[checks]
            t0 = time.perf_counter()
            for _ in range(args.steps):
                loss = net(ids, pos, labels)
                if args.read:
                    loss.asnumpy()
            loss.asnumpy()
            rates[checks].append(args.steps / (time.perf_counter() - t0))
    on, off = statistics.median(rates[True]), statistics.median(rates[False])
    print(f"steps/s with checks {on:.1f}, without {off:.1f}: {on / off:.3f}x (medians); best rounds "
          f"{max(rates[True]):.1f} / {max(rates[False]):.1f}: {max(rates[True]) / max(rates[False]):.3f}x "
          f"(each round: {', '.join(f'{a / b:.3f}' for a, b in zip(rates[True], rates[False]))})")


def with_checks(checks, fn):
    """``fn()``, any program it traces without the checks when ``checks`` is False."""
    add = runtime_checks.add
    if not checks:
        runtime_checks.add = lambda *a: False
    try:
        return fn()
    finally:
        runtime_checks.add = add


class WithLoss(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net, self.loss = net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, ids, pos, labels):
        return self.loss(self.net(ids, pos), labels)


def make_step(vocab, width):
    net = Net(vocab, width)
    return nn.TrainOneStepCell(WithLoss(net), nn.Momentum(net.trainable_params(), 0.01, 0.9))


if __name__ == "__main__":
    main()
