"""Where float16/bfloat16 sums accumulate, on the backend JAX picks (CPU, GPU or TPU).

    python bench/low_precision_device.py            # one JSON line per check

msjax's low-precision rules (``msjax/ops/_impl/lowp.py``) rest on XLA accumulating float16 and
bfloat16 matrix products and convolutions in float32 on every backend, and on msjax's own
float32 sums for broadcast gradients. Each check below sums N values of one size in the low
type and reports the relative error against the exact sum: a float32 accumulator gives the
type's rounding (~1e-3 for float16, ~8e-3 for bfloat16), a low-precision accumulator stalls
far below it. The last row is issue 22's conv + BatchNorm gradient through msjax at float16
against float32 (MindSpore 2.10: within 6e-4). Not run in CI.
"""
import json
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _rel(got, exact):
    return abs(float(got) - exact) / abs(exact)


def checks(dtype, n=1 << 17, v=1e-3):
    exact = n * float(jnp.asarray(v, dtype))
    x = jnp.full((n,), v, dtype)
    dot = jax.jit(lambda a: jnp.dot(a, jnp.ones_like(a)))(x)
    m = int(np.sqrt(n // 64))
    img = jnp.full((64, 1, m, m), v, dtype)

    def conv(w):
        return lax.conv_general_dilated(img, w, (1, 1), "SAME")

    y, vjp = jax.vjp(conv, jnp.ones((1, 1, 3, 3), dtype))
    wgrad = jax.jit(lambda c: vjp(c)[0])(jnp.ones(y.shape, dtype))[0, 0, 1, 1]
    import msjax  # noqa: F401  (installs the float32 broadcast transpose)
    _, bvjp = jax.vjp(lambda b: jnp.zeros((n, 1), dtype) + b, jnp.zeros((1,), dtype))
    bsum = jax.jit(lambda c: bvjp(c)[0])(jnp.full((n, 1), v, dtype))[0]
    return {"dot": _rel(dot, exact), "conv_weight_grad": _rel(wgrad, 64 * m * m * float(jnp.asarray(v, dtype))),
            "broadcast_grad": _rel(bsum, exact)}


def conv_bn(dtype_name):
    import msjax as ms
    from msjax import nn, ops
    rng = np.random.RandomState(0)
    x = rng.randn(16, 8, 16, 16).astype(np.float32)
    w = (rng.randn(16, 8, 3, 3) * 0.1).astype(np.float32)
    g = (rng.randn(16, 16, 16, 16) * 1e-4).astype(np.float32)

    def grads(dt):
        net = nn.SequentialCell([nn.Conv2d(8, 16, 3, pad_mode="same", weight_init=ms.Tensor(w)), nn.BatchNorm2d(16)])
        net.set_train(True)
        if dt != ms.float32:
            net.to_float(dt)
        grad = ops.GradOperation(get_by_list=True, sens_param=True)(net, ms.ParameterTuple(net.trainable_params()))
        return [t.asnumpy().astype(np.float64) for t in grad(ms.Tensor(x), ms.Tensor(g, dt))]

    ref, low = grads(ms.float32), grads(getattr(ms, dtype_name))
    return {n: float(np.linalg.norm(a - b) / np.linalg.norm(b)) for n, a, b in zip(("w", "gamma", "beta"), low, ref)}


def main():
    backend = jax.default_backend()
    for name in ("float16", "bfloat16"):
        row = {"backend": backend, "device": str(jax.devices()[0].device_kind), "dtype": name}
        row.update(checks(getattr(jnp, name)))
        row["conv_bn_grad_vs_float32"] = conv_bn(name)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
