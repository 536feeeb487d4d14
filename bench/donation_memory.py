"""Memory and time of a custom GRAPH_MODE train cell with and without buffer donation (issue 36).

    python bench/donation_memory.py [ROWS=200000] [STEPS=12]

The step is DeepFM's shape (official/recommend/DeepFM's ``TrainStepWrap``, an ``nn.Cell`` of its
own, not ``TrainOneStepCell``): an embedding table of ROWS x 80 Float32 read with ``ops.Gather``,
a small dense head, ``nn.Adam`` over everything, the gradient taken with ``GradOperation`` inside
the cell's ``construct``. Each mode runs in its own process: "donated" is msjax as it is (an
outermost GRAPH_MODE Cell call donates the buffers of the Parameters it writes); "fresh" builds the
same compiled call with ``donate=False`` (the behaviour before). Printed per mode: ms per step
(median of steps 3..STEPS), the bytes of live JAX arrays after the steps, and the process's peak
RSS (``ru_maxrss``) above its RSS before the first step. Results: docs/performance.md.
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import time

import numpy as np


def _rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def child(mode, rows, steps):
    import jax
    import msjax as ms
    from msjax import nn, ops
    if mode == "fresh":
        from msjax.nn import cell as cell_module
        real = cell_module.StatefulFunction
        cell_module.StatefulFunction = lambda fn, **kw: real(fn, **dict(kw, donate=False))
    ms.set_context(mode=ms.GRAPH_MODE)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.table = ms.Parameter(ms.Tensor(np.random.default_rng(0).normal(0, 0.01, (rows, 80)), ms.float32),
                                      name="table")
            self.head = nn.Dense(80 * 39, 1)
            self.gather = ops.Gather()

        def construct(self, ids, label):
            x = self.gather(self.table, ids, 0).reshape(ids.shape[0], -1)
            return ops.reduce_mean((self.head(x) - label) ** 2)

    class TrainStepWrap(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.weights = ms.ParameterTuple(net.trainable_params())
            self.optimizer = nn.Adam(self.weights, learning_rate=1e-3, loss_scale=1024.0)
            self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

        def construct(self, ids, label):
            loss = self.net(ids, label)
            grads = self.grad(self.net, self.weights)(ids, label, ops.fill(loss.dtype, loss.shape, 1024.0))
            self.optimizer(grads)
            return loss

    step = TrainStepWrap(Net())
    rng = np.random.default_rng(1)
    ids = ms.Tensor(rng.integers(0, rows, (1000, 39)), ms.int32)
    label = ms.Tensor(rng.normal(size=(1000, 1)), ms.float32)
    before = _rss_mb()
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        step(ids, label).asnumpy()
        times.append(time.perf_counter() - t0)
    live = sum(a.nbytes for a in jax.live_arrays())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"mode": mode, "ms_per_step": round(1000 * statistics.median(times[2:]), 1),
                      "live_mb": round(live / 2**20, 1), "peak_rss_above_start_mb": round(peak - before, 1)}))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    print(f"table {rows} x 80 Float32 ({rows * 80 * 4 / 2**20:.1f} MB), Adam (2 moments), {steps} steps")
    for mode in ("donated", "fresh"):
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", mode, str(rows), str(steps)],
                             capture_output=True, text=True, check=True).stdout
        print(out.strip().splitlines()[-1], flush=True)


if __name__ == "__main__":
    main()
