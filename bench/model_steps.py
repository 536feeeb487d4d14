"""``Model.train`` with a step-watching callback: the cost of handing callbacks a finished
step (``Model._finish_step``: the step's loss and updated parameters made ready before
``on_train_step_end``) and what a zoo-style step timer then reports.

Rows (models from ``bench/train_step.py``, Momentum, batch 32, non-sink): LeNet5 and the
CIFAR-10 ResNet18. For each row, two sides train the same model alternately in blocks of
``--steps // 10`` steps (the same dataset, the same callback): *finished* (msjax's loop as it
is) and *dispatch only* (``_finish_step`` replaced by a no-op: the loop before issue 22).
Steps/s is the wall time of whole blocks (the device synchronised at each block's end);
*timer* is the mean of the callback's step_begin -> step_end times, beside the wall time per
step: with finished steps they agree, with dispatch only the timer measures the dispatch.

    python bench/model_steps.py [--steps 200] [--rows lenet,resnet18]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import jax
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import train_step as ts  # noqa: E402  (the models)

import msjax as ms  # noqa: E402
import msjax.dataset as ds  # noqa: E402
from msjax import nn  # noqa: E402
from msjax.train import model as model_mod  # noqa: E402


class StepTimer(ms.Callback):
    """The zoo's step timer: the time between step_begin and step_end."""

    def __init__(self):
        self.times = []

    def on_train_step_begin(self, run_context):
        self.t0 = time.perf_counter()

    def on_train_step_end(self, run_context):
        self.times.append(time.perf_counter() - self.t0)


def _dataset(shape, steps, batch=32):
    rs = np.random.RandomState(0)
    x = rs.standard_normal((batch,) + shape).astype(np.float32)
    y = rs.randint(0, 10, size=(batch,)).astype(np.int32)
    # the same batch repeated: the data pipeline's cost stays small and equal for both sides
    return ds.NumpySlicesDataset({"x": np.repeat(x[None], steps, 0).reshape((-1,) + shape),
                                  "y": np.tile(y, steps)}, shuffle=False).batch(batch)


def _sync(net):
    jax.block_until_ready([p._data for p in net.trainable_params()])


def row(name, make_net, shape, steps, rounds=10):
    ms.set_seed(0)
    ms.set_context(mode=ms.GRAPH_MODE)
    net = make_net()
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), 0.01, 0.9))
    per = max(2, steps // rounds)
    data = _dataset(shape, per)
    real = model_mod.Model._finish_step
    sides = {"finished": real, "dispatch only": lambda self, outputs, network=None: None}
    timers = {k: StepTimer() for k in sides}
    total = dict.fromkeys(sides, 0.0)
    for k, fn in sides.items():                        # warm-up: compile, fill the pipeline
        model_mod.Model._finish_step = fn
        model.train(1, data, callbacks=[StepTimer()], dataset_sink_mode=False)
        _sync(net)
    try:
        for _ in range(rounds):
            for k, fn in sides.items():
                model_mod.Model._finish_step = fn
                t0 = time.perf_counter()
                model.train(1, data, callbacks=[timers[k]], dataset_sink_mode=False)
                _sync(net)
                total[k] += time.perf_counter() - t0
    finally:
        model_mod.Model._finish_step = real
    n = per * rounds
    for k in sides:
        print(f"| {name} | {k} | {n / total[k]:.1f} | {1e3 * total[k] / n:.2f} ms | "
              f"{1e3 * np.mean(timers[k].times):.2f} ms |", flush=True)
    return n / total["finished"] / (n / total["dispatch only"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200, help="timed steps per side (ResNet18: a fifth)")
    ap.add_argument("--rows", default="lenet,resnet18")
    args = ap.parse_args()
    rows = {"lenet": ("LeNet5, batch 32", ts.LeNet5, (1, 32, 32), args.steps),
            "resnet18": ("ResNet18 (CIFAR-10), batch 32", ts.resnet18, (3, 32, 32), max(20, args.steps // 5))}
    print(f"device: {jax.devices()[0].device_kind} ({jax.default_backend()}), jax {jax.__version__}")
    print("| model | step end | steps/s | wall time per step | callback's step timer (mean) |")
    print("|---|---|---|---|---|")
    ratios = {key: row(*rows[key]) for key in args.rows.split(",")}
    print("\nfinished / dispatch only, steps/s: " + ", ".join(f"{k} {v:.3f}" for k, v in ratios.items()))


if __name__ == "__main__":
    main()
