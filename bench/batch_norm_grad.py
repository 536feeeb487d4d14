"""CPU time of BatchNorm (training) + ReLU forward and backward, msjax's kernel (the closed-form
gradient of ``normalization._bn_normalise``) against reverse mode through the statistics' formulas
(msjax before issue 36), on ShuffleNetV1 2.0x's activation shapes at batch 8:

    python bench/batch_norm_grad.py [--repeat 3]

Prints, per shape, the best of ``--repeat`` rounds of 5 calls (process CPU seconds, all threads, so
a loaded machine moves it less than the wall clock) and the largest difference of the gradients.
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import msjax  # noqa: F401 -- installs msjax's lowerings
from msjax.ops._impl import normalization as N

SHAPES = [(8, 480, 28, 28), (8, 120, 56, 56), (8, 48, 112, 112), (8, 240, 14, 14)]


def formulas(x, gamma, beta, eps=1e-5):
    """The forward msjax computes, differentiated by JAX (the gradient before issue 36)."""
    mean = jnp.mean(x, axis=(0, 2, 3), keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=(0, 2, 3), keepdims=True)
    shape = (1, x.shape[1], 1, 1)
    return (x - mean) * lax.rsqrt(var + eps) * gamma.reshape(shape) + beta.reshape(shape)


def kernel(x, gamma, beta):
    return N.batch_norm_train.raw(x, gamma, beta, 1e-5)[0]


def step(bn):
    def loss(x, gamma, beta, w):
        y = bn(x, gamma, beta)
        return jnp.sum(jnp.where(y > 0, y, 0.0) * w)
    return jax.jit(jax.grad(loss, argnums=(0, 1, 2)))


def cpu_ms(fn, args, repeat):
    jax.block_until_ready(fn(*args))
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(5):
            jax.block_until_ready(fn(*args))
        best = min(best, (time.process_time() - t) / 5)
    return best * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for shape in SHAPES:
        r = np.random.default_rng(0)
        x, w = (jnp.asarray(r.standard_normal(shape), jnp.float32) for _ in range(2))
        gamma = jnp.asarray(r.uniform(0.5, 1.5, shape[1]), jnp.float32)
        beta = jnp.zeros(shape[1], jnp.float32)
        data = (x, gamma, beta, w)
        old, new = step(formulas), step(kernel)
        diff = max(float(jnp.max(jnp.abs(a - b))) for a, b in zip(old(*data), new(*data)))
        print(f"{shape}: formulas {cpu_ms(old, data, args.repeat):.1f} ms, msjax {cpu_ms(new, data, args.repeat):.1f} ms"
              f" CPU; largest gradient difference {diff:.2e}", flush=True)


if __name__ == "__main__":
    main()
