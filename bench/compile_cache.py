"""Compile-cache benchmark: the first training step of a new process, without and
with ``set_context(enable_compile_cache=True)`` (JAX's persistent cache).

Each row runs a fresh Python process three times on one cache directory:
``off`` (cache disabled), ``cold`` (cache on, empty directory: compiles and
writes), ``warm`` (cache on, filled by ``cold``: loads). The time is the first
``TrainOneStepCell`` call (trace + compile or load + run) in GRAPH_MODE, the
model built from ``bench/train_step.py``'s definitions. The same is measured for
the hand-written JAX + optax step of ``bench/train_step.py`` (same weights, its
cache turned on with ``jax.config``), so the ratio shows what JAX itself allows:
a cached process still traces and lowers the step in Python and runs it for the
first time.

The ``resnet18zoo`` row (the model zoo's ResNet18 of ``bench/train_step.py``, batch 32) has the
msjax side only. On the CPU both LeNet5 and ResNet18 run their convolutions as msjax's oneDNN
custom calls (``msjax/ops/_native``), which the cache stores like any other operation.

    python bench/compile_cache.py [--rows lenet32,mlp128,resnet18zoo] [--repeat 3] [--sides msjax,jax]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r"""
import os, sys, time
sys.path.insert(0, {here!r})
import numpy as np
import msjax as ms
from msjax import nn
import train_step as tsb
row, cache = sys.argv[1], sys.argv[2]
ms.set_context(mode=ms.GRAPH_MODE)
if cache != "off":
    ms.set_context(enable_compile_cache=True, compile_cache_path=cache)
ms.set_seed(0)
batch, shape, net, make_opt = {{"lenet32": (32, (1, 32, 32), tsb.LeNet5, lambda p: nn.Momentum(p, 0.01, 0.9)),
                               "mlp128": (128, (784,), tsb.MLP, lambda p: nn.Adam(p, 1e-3)),
                               "resnet18zoo": (32, (3, 32, 32), tsb.resnet18_zoo,
                                               lambda p: nn.Momentum(p, 0.01, 0.9))}}[row]
net = net()
rs = np.random.RandomState(0)
x = rs.standard_normal((batch,) + shape).astype(np.float32)
y = rs.randint(0, 10, size=(batch,)).astype(np.int32)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
                           make_opt(net.trainable_params()))
t = time.perf_counter()
loss = step(ms.Tensor(x), ms.Tensor(y))
loss.asnumpy()
print("FIRST", time.perf_counter() - t)
"""

# The hand-written side: bench/train_step.py's plain-JAX model and step, optax optimizer.
CHILD_JAX = r"""
import os, sys, time
sys.path.insert(0, {here!r})
import numpy as np
import jax
import optax
import train_step as tsb
row, cache = sys.argv[1], sys.argv[2]
if cache != "off":
    jax.config.update("jax_compilation_cache_dir", cache)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
batch, shape, net, apply, tx = {{"lenet32": (32, (1, 32, 32), tsb.LeNet5, tsb.jax_lenet, optax.sgd(0.01, momentum=0.9)),
                                "mlp128": (128, (784,), tsb.MLP, tsb.jax_mlp, optax.adam(1e-3))}}[row]
params = {{k: jax.device_put(np.asarray(v.asnumpy(), np.float32)) for k, v in net().parameters_and_names()}}
rs = np.random.RandomState(0)
x = jax.device_put(rs.standard_normal((batch,) + shape).astype(np.float32))
y = jax.device_put(rs.randint(0, 10, size=(batch,)).astype(np.int32))
step = tsb.make_jax_step(tsb._stateless(apply), tx)
opt_state = tx.init(params)
t = time.perf_counter()
out = step(params, {{}}, opt_state, x, y)
jax.block_until_ready(out)
print("FIRST", time.perf_counter() - t)
assert out[-1].dtype == np.float32, out[-1].dtype   # msjax enables x64; the model must stay float32
"""


JAX_ROWS = ("lenet32", "mlp128")


def first_step(row, cache, side="msjax"):
    code = (CHILD if side == "msjax" else CHILD_JAX).format(here=HERE)
    out = subprocess.run([sys.executable, "-c", code, row, cache], capture_output=True, text=True, check=True)
    return float([ln for ln in out.stdout.splitlines() if ln.startswith("FIRST")][-1].split()[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", default="lenet32,mlp128")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sides", default="msjax,jax", help="msjax and/or jax (hand-written JAX + optax)")
    args = ap.parse_args()
    print(f"{'row':<12} {'side':<6} {'off (s)':>8} {'cold (s)':>9} {'warm (s)':>9} {'off/warm':>9}")
    for row in args.rows.split(","):
        sides = [side for side in args.sides.split(",") if side == "msjax" or row in JAX_ROWS]
        times = {side: ([], [], []) for side in sides}
        for _ in range(args.repeat):   # the sides alternate, so load changes hit both
            for side in sides:
                off, cold, warm = times[side]
                with tempfile.TemporaryDirectory() as d:
                    off.append(first_step(row, "off", side))
                    cold.append(first_step(row, d, side))
                    warm.append(first_step(row, d, side))
        m = statistics.median
        for side in sides:
            off, cold, warm = times[side]
            print(f"{row:<12} {side:<6} {m(off):8.3f} {m(cold):9.3f} {m(warm):9.3f} {m(off) / m(warm):8.1f}x")


if __name__ == "__main__":
    main()
