"""Data-parallel scaling: steps/s of a DATA_PARALLEL training step on 1 and 2 (or more)
workers started by ``python -m msjax launch``, with the same batch per worker (weak
scaling), for the zoo-style ResNet18 (``examples/zoo/resnet``) and a Transformer
encoder classifier (``nn.TransformerEncoder``).

    python bench/data_parallel.py [--workers 1,2] [--models resnet18,transformer] [--steps 20]

Per row: steps/s per worker, throughput speedup (``workers x steps/s`` over the
single worker's), scaling efficiency (speedup / workers), and the communication time
it measured: one all-reduce of a buffer as large as all gradients together, timed
eagerly between processes (the compiled step fuses its all-reduce, so this is the
cost of the same bytes outside it), per step. On the shared 2-core CPU machine
two workers share two cores with XLA's own threads, so efficiency there says little
about a machine with a device per worker.

Results on the shared 2-core machine (2026-11-25, CPU, gloo, batch 32 per worker,
10 timed steps, other engineers' jobs running):

    model        workers  steps/s  speedup  effic.  comm ms/step  first step s
    resnet18           1     1.36     1.00    1.00          0.00          20.9
    resnet18           2     0.96     1.42    0.71          6.20          26.4
    transformer        1     3.81     1.00    1.00          0.00           7.8
    transformer        2     1.93     1.02    0.51          8.36          13.7

(ResNet18 at base width 16: 0.70 M gradient floats; the Transformer: 0.39 M.)
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker(model_name, steps, batch):
    import numpy as np
    import jax
    import jax.numpy as jnp
    import msjax as ms
    from msjax import nn
    from msjax.communication import get_group_size, init
    from msjax.communication import _runtime as distributed

    init()
    n = get_group_size()
    ms.set_context(mode=ms.GRAPH_MODE)
    if n > 1:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    ms.set_seed(1)
    rs = np.random.RandomState(0)
    if model_name == "resnet18":
        sys.path.insert(0, os.path.join(ROOT, "examples", "zoo", "resnet"))
        from src.resnet import resnet18
        net = resnet18(10, 16)
        x = ms.Tensor(rs.randn(batch, 3, 32, 32).astype(np.float32))
        y = ms.Tensor(rs.randint(0, 10, batch).astype(np.int32))
    else:
        class Classifier(nn.Cell):
            def __init__(self):
                super().__init__()
                self.embed = nn.Embedding(1000, 128)
                layer = nn.TransformerEncoderLayer(128, 4, 256, dropout=0.0, batch_first=True)
                self.encoder = nn.TransformerEncoder(layer, 2)
                self.head = nn.Dense(128, 10)

            def construct(self, ids):
                return self.head(self.encoder(self.embed(ids)).mean(1))

        net = Classifier()
        x = ms.Tensor(rs.randint(0, 1000, (batch, 64)).astype(np.int32))
        y = ms.Tensor(rs.randint(0, 10, batch).astype(np.int32))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    t0 = time.perf_counter()
    step(x, y).asnumpy()
    first = time.perf_counter() - t0
    step(x, y).asnumpy()
    t0 = time.perf_counter()
    for _ in range(steps):
        out = step(x, y)
    out.asnumpy()
    per_step = (time.perf_counter() - t0) / steps
    n_grad = sum(int(np.prod(p.shape)) for p in net.trainable_params())
    buf = jnp.ones((n_grad,), jnp.float32)
    distributed.all_reduce(buf).block_until_ready()
    t0 = time.perf_counter()
    for _ in range(5):
        distributed.all_reduce(buf).block_until_ready()
    comm = (time.perf_counter() - t0) / 5 if n > 1 else 0.0
    print("RESULT " + json.dumps({"model": model_name, "workers": n, "steps_per_s": 1 / per_step,
                                  "first_step_s": first, "comm_s": comm, "grad_floats": n_grad,
                                  "device": str(jax.devices()[0].platform)}), flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workers", default="1,2")
    p.add_argument("--models", default="resnet18,transformer")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--batch", type=int, default=32, help="batch per worker")
    p.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.worker:
        return worker(a.worker, a.steps, a.batch)
    rows = []
    for model in a.models.split(","):
        for n in (int(w) for w in a.workers.split(",")):
            with tempfile.TemporaryDirectory() as tmp:
                cmd = [sys.executable, "-m", "msjax", "launch", f"--worker_num={n}", f"--local_worker_num={n}",
                       "--join=True", f"--master_port={_port()}", f"--log_dir={tmp}", "--tail_worker_log=-2",
                       os.path.abspath(__file__), f"--worker={model}", f"--steps={a.steps}", f"--batch={a.batch}"]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode:
                    sys.exit(f"{model} on {n} workers failed:\n{r.stderr[-3000:]}")
                with open(os.path.join(tmp, "worker_0.log")) as f:
                    res = [json.loads(line[7:]) for line in f if line.startswith("RESULT ")][0]
            rows.append(res)
    print(f"{'model':12} {'workers':>7} {'steps/s':>8} {'speedup':>8} {'effic.':>7} {'comm ms/step':>13} "
          f"{'first step s':>13}")
    for r in rows:
        base = next(b for b in rows if b["model"] == r["model"] and b["workers"] == 1)
        speedup = r["workers"] * r["steps_per_s"] / base["steps_per_s"]
        print(f"{r['model']:12} {r['workers']:7d} {r['steps_per_s']:8.2f} {speedup:8.2f} "
              f"{speedup / r['workers']:7.2f} {1000 * r['comm_s']:13.2f} {r['first_step_s']:13.1f}")


if __name__ == "__main__":
    main()
