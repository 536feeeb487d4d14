"""Training-step benchmark: msjax ``nn.TrainOneStepCell`` in GRAPH_MODE against a
hand-written JAX + optax step of the same model, in the same process.

Rows: LeNet5 (batch 32 and 256, Momentum) and an MLP 784-1024-1024-10 (Adam,
batch 128), softmax cross-entropy (sparse labels, mean). Both sides start from
the same weights and see the same batch. For each side: steps/s (after warm-up,
device synchronised; the two sides are timed in alternating blocks so that load
changes on a shared machine hit both alike), the first step's time (trace +
compile + run), and the
compiled step's memory (XLA's memory analysis: arguments + outputs + temporaries
- aliased/donated bytes; plus the device's peak bytes where the backend reports
them).

    python bench/train_step.py [--steps 200] [--rows lenet32,lenet256,mlp128]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

import msjax as ms  # noqa: E402
from msjax import nn  # noqa: E402
from msjax.common._cell_cache import cell_functions  # noqa: E402


# ---------------------------------------------------------------------------
# models (msjax)
# ---------------------------------------------------------------------------
class LeNet5(nn.Cell):
    """The model-zoo LeNet5 (input 1x32x32)."""

    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(784, 1024)
        self.fc2 = nn.Dense(1024, 1024)
        self.fc3 = nn.Dense(1024, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


# ---------------------------------------------------------------------------
# the same models in plain JAX
# ---------------------------------------------------------------------------
def _conv(x, w, b):
    y = jax.lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return y if b is None else y + b[None, :, None, None]


def _pool(x):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")


def jax_lenet(p, x):
    x = _pool(jax.nn.relu(_conv(x, p["conv1.weight"], p.get("conv1.bias"))))
    x = _pool(jax.nn.relu(_conv(x, p["conv2.weight"], p.get("conv2.bias"))))
    x = x.reshape(x.shape[0], -1)
    x = jax.nn.relu(x @ p["fc1.weight"].T + p["fc1.bias"])
    x = jax.nn.relu(x @ p["fc2.weight"].T + p["fc2.bias"])
    return x @ p["fc3.weight"].T + p["fc3.bias"]


def jax_mlp(p, x):
    x = jax.nn.relu(x @ p["fc1.weight"].T + p["fc1.bias"])
    x = jax.nn.relu(x @ p["fc2.weight"].T + p["fc2.bias"])
    return x @ p["fc3.weight"].T + p["fc3.bias"]


def _xent(logits, labels):
    return jnp.mean(optax.softmax_cross_entropy_with_integer_labels(logits, labels))


def make_jax_step(apply, tx):
    def loss_fn(params, x, y):
        return _xent(apply(params, x), y)

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(step, donate_argnums=(0, 1))


# ---------------------------------------------------------------------------
# measuring
# ---------------------------------------------------------------------------
def _sync(x):
    jax.block_until_ready(x)


def _peak_device_bytes():
    stats = jax.devices()[0].memory_stats() or {}
    return stats.get("peak_bytes_in_use")


def _xla_bytes(lowered):
    try:
        m = lowered.compile().memory_analysis()
        return (m.argument_size_in_bytes + m.output_size_in_bytes + m.temp_size_in_bytes
                - m.alias_size_in_bytes)
    except Exception:  # noqa: BLE001  (backends without memory analysis)
        return None


def setup_msjax(net, opt, x, y):
    """The msjax side: compile (timed), warm up; returns (step, sync, first, memory)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    cell.set_train()
    xt, yt = ms.Tensor(x), ms.Tensor(y)
    t0 = time.perf_counter()
    _sync(cell(xt, yt)._data)
    first = time.perf_counter() - t0
    out = {}

    def step():
        out["loss"] = cell(xt, yt)

    def sync():
        _sync((out["loss"]._data, [p._data for p in net.trainable_params()]))

    for _ in range(3):
        step()
    sync()
    mem = None
    sf = cell_functions(cell).get("train_step")
    entry = next(iter(sf._cache.values())) if sf is not None and sf._cache else None
    if entry is not None and hasattr(entry.call, "lower"):
        state_vals = [p._raw_get() for p in entry.state]
        mem = _xla_bytes(entry.call.lower(state_vals, [xt._data, yt._data], None))
    return step, sync, first, mem, lambda: float(out["loss"].asnumpy())


def setup_jax(apply, params, tx, x, y):
    """The hand-written side: jitted value_and_grad + optax update with donated state."""
    step_fn = make_jax_step(apply, tx)
    st = {"params": jax.tree_util.tree_map(jnp.array, params)}
    st["opt"] = tx.init(st["params"])
    xj, yj = jnp.asarray(x), jnp.asarray(y)

    def step():
        st["params"], st["opt"], st["loss"] = step_fn(st["params"], st["opt"], xj, yj)

    def sync():
        _sync((st["loss"], st["params"]))

    t0 = time.perf_counter()
    step()
    sync()
    first = time.perf_counter() - t0
    for _ in range(3):
        step()
    sync()
    mem = _xla_bytes(step_fn.lower(st["params"], st["opt"], xj, yj))
    return step, sync, first, mem, lambda: float(st["loss"])


def timed(sides, steps, rounds=10):
    """Steps/s of each side, timed in alternating blocks so that load changes on a
    shared machine hit both sides alike."""
    total = [0.0] * len(sides)
    per = max(1, steps // rounds)
    for _ in range(rounds):
        for i, (step, sync) in enumerate(sides):
            t0 = time.perf_counter()
            for _ in range(per):
                step()
            sync()
            total[i] += time.perf_counter() - t0
    return [per * rounds / t for t in total]


def _weights(net):
    return {p.name: np.asarray(p.asnumpy()) for p in net.trainable_params()}


def row(name, make_net, apply, batch, in_shape, make_opt, make_tx, steps):
    ms.set_seed(0)
    rs = np.random.RandomState(0)
    x = rs.standard_normal((batch,) + in_shape).astype(np.float32)
    y = rs.randint(0, 10, size=(batch,)).astype(np.int32)
    net = make_net()
    params = _weights(net)
    opt = make_opt(net.trainable_params())
    m_step, m_sync, m_first, m_mem, m_loss = setup_msjax(net, opt, x, y)
    j_step, j_sync, j_first, j_mem, j_loss = setup_jax(apply, params, make_tx(), x, y)
    m_rate, j_rate = timed([(m_step, m_sync), (j_step, j_sync)], steps)
    return dict(name=name, m_rate=m_rate, j_rate=j_rate, ratio=m_rate / j_rate, m_first=m_first, j_first=j_first,
                m_mem=m_mem, j_mem=j_mem, m_loss=m_loss(), j_loss=j_loss())


def _mb(b):
    return "n/a" if b is None else f"{b / 2**20:.1f} MiB"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--rows", default="lenet32,lenet256,mlp128")
    args = ap.parse_args()
    rows = {
        "lenet32": lambda: row("LeNet5, batch 32, Momentum", LeNet5, jax_lenet, 32, (1, 32, 32),
                               lambda p: nn.Momentum(p, 0.01, 0.9), lambda: optax.sgd(0.01, momentum=0.9),
                               args.steps),
        "lenet256": lambda: row("LeNet5, batch 256, Momentum", LeNet5, jax_lenet, 256, (1, 32, 32),
                                lambda p: nn.Momentum(p, 0.01, 0.9), lambda: optax.sgd(0.01, momentum=0.9),
                                args.steps),
        "mlp128": lambda: row("MLP 784-1024-1024-10, batch 128, Adam", MLP, jax_mlp, 128, (784,),
                              lambda p: nn.Adam(p, 1e-3), lambda: optax.adam(1e-3), args.steps),
    }
    print(f"device: {jax.devices()[0].device_kind} ({jax.default_backend()}), jax {jax.__version__}, "
          f"{args.steps} timed steps")
    print("| model | msjax steps/s | JAX+optax steps/s | ratio | first step msjax / JAX | "
          "step memory msjax / JAX (XLA) |")
    print("|---|---|---|---|---|---|")
    for key in args.rows.split(","):
        r = rows[key]()
        print(f"| {r['name']} | {r['m_rate']:.1f} | {r['j_rate']:.1f} | {r['ratio']:.2f} | "
              f"{r['m_first']:.2f} s / {r['j_first']:.2f} s | {_mb(r['m_mem'])} / {_mb(r['j_mem'])} |", flush=True)
    peak = _peak_device_bytes()
    if peak is not None:
        print(f"device peak bytes in use (whole process): {_mb(peak)}")


if __name__ == "__main__":
    main()
