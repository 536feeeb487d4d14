"""A compiled training step with Dropout (GRAPH_MODE ``TrainOneStepCell``): steps per CPU second.
msjax's masks are MindSpore's CPU kernel stream (a jump-ahead minstd_rand0 per layer); run it
on two checkouts to compare with the JAX-key masks it replaced:

    python bench/dropout_step.py [--steps 200] [--rounds 3] [--batch 256] [--hidden 1024] [--compare]

It also prints the first step's time (tracing and compiling the step). ``--compare`` times, in one
process and in alternating blocks (load changes on a shared machine hit them alike), msjax's step
on its native oneDNN kernels (Dense's matmul, the sparse cross-entropy), the same step on XLA's
kernels (``MSJAX_CPU_KERNELS=0`` while it traces) and a hand-written JAX step (``jax.random``
masks, optax SGD with momentum).
"""
import argparse
import functools
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


def _msjax_step(args, x, y):
    ms.set_seed(1)
    net = MLP(args.hidden)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train(True)
    step(x, y).asnumpy()              # traces now (the kernels' setting is read while tracing)
    return lambda: step(x, y), lambda out: out.asnumpy()


def _jax_step(args, x, y):
    import jax
    import jax.numpy as jnp
    import optax
    sizes = [(784, args.hidden), (args.hidden, args.hidden), (args.hidden, 10)]
    rs = np.random.RandomState(0)
    params = [(jnp.asarray(rs.uniform(-0.05, 0.05, (o, i)).astype(np.float32)), jnp.zeros((o,), jnp.float32))
              for i, o in sizes]
    tx = optax.sgd(0.01, momentum=0.9)

    def loss_fn(p, key, xb, yb):
        k1, k2 = jax.random.split(key)
        h = jax.nn.relu(xb @ p[0][0].T + p[0][1])
        h = jnp.where(jax.random.bernoulli(k1, 0.5, h.shape), h / 0.5, 0.0)
        h = jax.nn.relu(h @ p[1][0].T + p[1][1])
        h = jnp.where(jax.random.bernoulli(k2, 0.8, h.shape), h / 0.8, 0.0)
        logits = h @ p[2][0].T + p[2][1]
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), yb[:, None], 1))

    @functools.partial(jax.jit, donate_argnums=(0, 1))
    def step(p, opt, key, xb, yb):
        key, sub = jax.random.split(key)
        loss, g = jax.value_and_grad(loss_fn)(p, sub, xb, yb)
        upd, opt = tx.update(g, opt, p)
        return optax.apply_updates(p, upd), opt, key, loss

    st = [params, tx.init(params), jax.random.PRNGKey(0)]
    xj, yj = jnp.asarray(x.asnumpy()), jnp.asarray(y.asnumpy())

    def run():
        st[0], st[1], st[2], loss = step(st[0], st[1], st[2], xj, yj)
        return loss
    jax.block_until_ready(run())
    return run, jax.block_until_ready


def compare(args, x, y):
    """Steps per CPU second of the three steps, timed in alternating blocks."""
    sides = {"msjax (oneDNN kernels)": _msjax_step(args, x, y)}
    os.environ["MSJAX_CPU_KERNELS"] = "0"
    try:
        sides["msjax (XLA kernels)"] = _msjax_step(args, x, y)
    finally:
        del os.environ["MSJAX_CPU_KERNELS"]
    sides["hand-written JAX"] = _jax_step(args, x, y)
    cpu = dict.fromkeys(sides, 0.0)
    per = max(1, args.steps // 10)
    for _ in range(10 * args.rounds):
        for name, (run, sync) in sides.items():
            t = time.process_time()
            for _ in range(per):
                out = run()
            sync(out)
            cpu[name] += time.process_time() - t
    total = 10 * args.rounds * per
    ref = total / cpu["hand-written JAX"]
    for name, t in cpu.items():
        print(f"batch {args.batch}, hidden {args.hidden}: {name}: {total / t:.1f} steps per CPU second "
              f"({total / t / ref:.2f}x hand-written JAX)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=1024)
    ap.add_argument("--compare", action="store_true", help="msjax on oneDNN / on XLA / hand-written JAX")
    args = ap.parse_args()
    ms.set_context(mode=ms.GRAPH_MODE)
    if args.compare:
        rs = np.random.RandomState(0)
        compare(args, ms.Tensor(rs.randn(args.batch, 784).astype(np.float32)),
                ms.Tensor(rs.randint(0, 10, (args.batch,)).astype(np.int32)))
        return
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
