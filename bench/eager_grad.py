"""PyNative gradient calls/s: msjax vs a direct call of hand-written jax.jit.

Times the seed's ``value_and_grad(net, grad_position=(0, 1),
weights=net.trainable_params(), has_aux=True)(x, y)`` in PYNATIVE_MODE against
the equivalent hand-written ``jax.jit(jax.value_and_grad(...))`` called
directly, in the same process. A benchmark, not a test:

    python bench/eager_grad.py [--seconds 2]
"""
from __future__ import annotations

import argparse
import time

import jax
import jax.numpy as jnp

import msjax as ms
from msjax import nn


class Net(nn.Cell):
    def __init__(self, in_channel, out_channel):
        super().__init__()
        self.fc = nn.Dense(in_channel, out_channel, has_bias=False)
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        logits = self.fc(x).squeeze()
        loss = self.loss(logits, y)
        return loss, logits


def rate(fn, seconds):
    out = fn()
    jax.block_until_ready(jax.tree_util.tree_map(lambda t: getattr(t, "_data", t), out))
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            out = fn()
        n += 100
    jax.block_until_ready(jax.tree_util.tree_map(lambda t: getattr(t, "_data", t), out))
    return n / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    ms.set_context(mode=ms.PYNATIVE_MODE)

    net = Net(3, 1)
    net.fc.weight.set_data(ms.Tensor([[2, 3, 4]], ms.float32))
    x = ms.Tensor([[1, 2, 3]], ms.float32)
    y = ms.Tensor(19, ms.float32)
    grad_fn = ms.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params(), has_aux=True)

    def loss_fn(w, xa, ya):
        logits = jnp.squeeze(xa @ w.T)
        return jnp.mean((logits - ya) ** 2), logits

    direct = jax.jit(jax.value_and_grad(loss_fn, argnums=(0, 1, 2), has_aux=True))
    w, xa, ya = net.fc.weight._data, x._data, y._data

    ms_rate = rate(lambda: grad_fn(x, y), args.seconds)
    jax_rate = rate(lambda: direct(w, xa, ya), args.seconds)
    print(f"{'':28s}{'calls/s':>12s}")
    print(f"{'msjax value_and_grad':28s}{ms_rate:12.0f}")
    print(f"{'hand-written jax.jit':28s}{jax_rate:12.0f}")
    print(f"ratio msjax / jax.jit: {ms_rate / jax_rate:.2f}x")


if __name__ == "__main__":
    main()
