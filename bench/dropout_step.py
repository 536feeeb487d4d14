"""A compiled training step with Dropout (GRAPH_MODE ``TrainOneStepCell``): steps per CPU second.
msjax's masks are MindSpore's CPU kernel stream (a jump-ahead minstd_rand0 per layer); run it
on two checkouts to compare with the JAX-key masks it replaced:

    python bench/dropout_step.py [--steps 200] [--rounds 3] [--batch 256] [--hidden 1024]

It also prints the first step's time (tracing and compiling the step).
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import msjax as ms  # noqa: E402
from msjax import nn  # noqa: E402


class MLP(nn.Cell):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = nn.Dense(784, hidden)
        self.drop1 = nn.Dropout(p=0.5)
        self.fc2 = nn.Dense(hidden, hidden)
        self.drop2 = nn.Dropout(p=0.2)
        self.fc3 = nn.Dense(hidden, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.drop2(self.relu(self.fc2(self.drop1(self.relu(self.fc1(x)))))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=1024)
    args = ap.parse_args()
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = MLP(args.hidden)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train(True)
    x = ms.Tensor(np.random.randn(args.batch, 784).astype(np.float32))
    y = ms.Tensor(np.random.randint(0, 10, (args.batch,)).astype(np.int32))
    t0, c0 = time.perf_counter(), time.process_time()
    step(x, y).asnumpy()              # the first step traces and compiles
    first = (time.perf_counter() - t0, time.process_time() - c0)
    best = 0.0
    for _ in range(args.rounds):
        t = time.process_time()
        for _ in range(args.steps):
            out = step(x, y)
        out.asnumpy()
        best = max(best, args.steps / (time.process_time() - t))
    print(f"batch {args.batch}, hidden {args.hidden}: first step (trace + compile) {first[0]:.2f} s wall, "
          f"{first[1]:.2f} s CPU; {best:.1f} steps per CPU second (best of {args.rounds})")


if __name__ == "__main__":
    main()
