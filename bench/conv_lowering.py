"""Convolution lowerings on this machine, pass by pass: the measurements behind
``msjax/ops/_impl/conv_lowering.py``'s CPU plan.

For each convolution of LeNet5 (batch 32 and 256) and of the model zoo's ResNet18 on 32x32
images (batch 32), and of the zoo's PointNet (``pointnet``: pointwise convolutions over 2,500
points), times the forward pass, the input gradient and the weight gradient (each
jitted alone, best of ``--repeat``) with XLA's convolution, patches + dot_general (im2col) and,
when PyTorch is installed (the ``cpu-kernels`` extra), oneDNN through a callback; then prints
what msjax's plan picks and which was fastest. Also times max pooling's forward and gradient
with ``lax.reduce_window`` against the window-taps form msjax uses on the CPU.

    taskset -c 0 python bench/conv_lowering.py [--repeat 9] [--nets lenet32,lenet256,resnet18zoo,pointnet]
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

from msjax.ops._impl import conv_lowering as cl, conv_onednn, pooling  # noqa: E402

# (N, C_in, H, C_out, kernel, stride, pad), how many times the net has it
NETS = {
    "lenet32": [((32, 1, 32, 6, 5, 1, 0), 1), ((32, 6, 14, 16, 5, 1, 0), 1)],
    "lenet256": [((256, 1, 32, 6, 5, 1, 0), 1), ((256, 6, 14, 16, 5, 1, 0), 1)],
    "resnet18zoo": [((32, 3, 32, 64, 7, 2, 3), 1), ((32, 64, 8, 64, 3, 1, 1), 4), ((32, 64, 8, 128, 3, 2, 1), 1),
                    ((32, 128, 4, 128, 3, 1, 1), 3), ((32, 64, 8, 128, 1, 2, 0), 1),
                    ((32, 128, 4, 256, 3, 2, 1), 1), ((32, 256, 2, 256, 3, 1, 1), 3),
                    ((32, 128, 4, 256, 1, 2, 0), 1), ((32, 256, 2, 512, 3, 2, 1), 1),
                    ((32, 512, 1, 512, 3, 1, 1), 3), ((32, 256, 2, 512, 1, 2, 0), 1)],
    # official/cv/PointNet's pointwise Conv1d stack (STN3d, PointNetfeat, segmentation head) over
    # 2,500 points, batch 2: H is (1, 2500)
    "pointnet": [((2, 3, (1, 2500), 64, 1, 1, 0), 2), ((2, 64, (1, 2500), 128, 1, 1, 0), 2),
                 ((2, 128, (1, 2500), 1024, 1, 1, 0), 2), ((2, 1088, (1, 2500), 512, 1, 1, 0), 1),
                 ((2, 512, (1, 2500), 256, 1, 1, 0), 1), ((2, 256, (1, 2500), 128, 1, 1, 0), 1),
                 ((2, 128, (1, 2500), 4, 1, 1, 0), 1)],
}
POOLS = {"lenet32": [((32, 6, 28, 28), 2, 2, 0), ((32, 16, 10, 10), 2, 2, 0)],
         "lenet256": [((256, 6, 28, 28), 2, 2, 0), ((256, 16, 10, 10), 2, 2, 0)],
         "resnet18zoo": [((32, 64, 16, 16), 3, 2, 1)]}
PASSES = ("forward", "input grad", "weight grad")


def best_ms(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


def pass_functions(conv):
    fwd = jax.jit(conv)
    bx = jax.jit(lambda x, w, g: jax.vjp(lambda x: conv(x, w), x)[1](g)[0])
    bw = jax.jit(lambda x, w, g: jax.vjp(lambda w: conv(x, w), w)[1](g)[0])
    return (lambda x, w, g: fwd(x, w)), bx, bw


def lowerings(stride, pads):
    out = {"xla": lambda x, w: cl.xla_conv(x, w, stride, pads, (1, 1), 1),
           "im2col": lambda x, w: cl.im2col_conv(x, w, stride, pads, (1, 1), 1)}
    if conv_onednn.available():
        out["onednn"] = conv_onednn.conv_function(stride, pads, (1, 1), 1)
    return out


def conv_rows(net, repeat):
    totals = {}
    rng = np.random.default_rng(0)
    print(f"\n{net}: ms per pass (forward / input grad / weight grad), x times in the net")
    for (n, c, h, o, k, s, p), count in NETS[net]:
        stride, pads = (s, s), ((p, p), (p, p))
        x = jnp.asarray(rng.standard_normal((n, c) + (h if isinstance(h, tuple) else (h, h))), jnp.float32)
        w = jnp.asarray(rng.standard_normal((o, c, k, k)) * 0.1, jnp.float32)
        g = jnp.ones(jax.eval_shape(lambda x, w: cl.xla_conv(x, w, stride, pads, (1, 1), 1), x, w).shape, jnp.float32)
        times = {}
        for name, conv in lowerings(stride, pads).items():
            times[name] = [best_ms(lambda f=f: jax.block_until_ready(f(x, w, g)), repeat)
                           for f in pass_functions(conv)]
            totals[name] = [a + count * b for a, b in zip(totals.get(name, [0, 0, 0]), times[name])]
        planned = cl.plan(x.shape, w.shape, stride, pads, (1, 1), 1, "cpu")
        fastest = [min(times, key=lambda m: times[m][i]) for i in range(3)]
        cells = " | ".join(f"{m} " + "/".join(f"{t:.2f}" for t in ts) for m, ts in times.items())
        print(f"  {(n, c, h, o, k, s, p)} x{count}: {cells} | plan {'/'.join(planned)} | "
              f"fastest {'/'.join(fastest)}")
    print("  total: " + " | ".join(f"{m} " + "/".join(f"{t:.1f}" for t in ts) for m, ts in totals.items()))


def pool_rows(net, repeat, monkey_env):
    rng = np.random.default_rng(1)
    print(f"{net} max pooling: ms forward / gradient")
    for shape, k, s, p in POOLS.get(net, ()):
        x = jnp.maximum(jnp.asarray(rng.standard_normal(shape), jnp.float32), 0)
        pads = tuple(((0, p),) * 2)
        cells = []
        for setting in ("xla", "im2col"):
            monkey_env(setting)
            fwd = jax.jit(lambda x: pooling._max_pool_array.raw(x, (k, k), (s, s), pads))
            grad = jax.jit(jax.grad(lambda x: jnp.sum(pooling._max_pool_array.raw(x, (k, k), (s, s), pads))))
            name = "reduce_window" if setting == "xla" else "taps"
            cells.append(f"{name} {best_ms(lambda: fwd(x).block_until_ready(), repeat):.2f}/"
                         f"{best_ms(lambda: grad(x).block_until_ready(), repeat):.2f}")
        print(f"  {shape} {k}x{k}/{s}: " + " | ".join(cells))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--nets", default="lenet32,lenet256,resnet18zoo")
    args = ap.parse_args()
    print(f"jax {jax.__version__} on {jax.default_backend()}; oneDNN (cpu-kernels extra): "
          f"{'installed' if conv_onednn.available() else 'not installed'}; "
          f"CPUs in use: {len(os.sched_getaffinity(0))}")
    before = os.environ.get(cl.ENV)

    def monkey_env(value):
        os.environ[cl.ENV] = value
    try:
        for net in args.nets.split(","):
            os.environ.pop(cl.ENV, None)
            conv_rows(net, args.repeat)
            pool_rows(net, args.repeat, monkey_env)
    finally:
        if before is None:
            os.environ.pop(cl.ENV, None)
        else:
            os.environ[cl.ENV] = before


if __name__ == "__main__":
    main()
