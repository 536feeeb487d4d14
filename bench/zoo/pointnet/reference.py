"""float64 reference (JAX, x64) of PointNetDenseCls(k=4)'s train-mode forward, loss and
gradients from ``DIR/init.ckpt`` and steps.py's batch: ``DIR/ref64_B<batch>.npz``.

    python bench/zoo/pointnet/reference.py --out DIR [--batch 2]
"""
import argparse
import os

import numpy as np
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import msjax as ms  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--batch", type=int, default=2)
args = ap.parse_args()
B, NP = args.batch, 300
P = {k: np.asarray(v.asnumpy(), np.float64) for k, v in ms.load_checkpoint(os.path.join(args.out, "init.ckpt")).items()}
rng = np.random.RandomState(0)
x = rng.randn(B, 3, NP).astype(np.float32).astype(np.float64)
lab = rng.randint(1, 5, size=(B, NP)) - 1
rec = {}


def conv(p, pre, h):        # Conv1d, kernel 1
    w = p[pre + ".weight"]
    return jnp.einsum("oi,bil->bol", w.reshape(w.shape[0], w.shape[1]), h) + p[pre + ".bias"][None, :, None]


def bn(p, pre, h, axes):    # training mode: batch statistics, biased variance
    sh = [1] * h.ndim
    sh[1] = -1
    h = (h - h.mean(axes, keepdims=True)) / jnp.sqrt(h.var(axes, keepdims=True) + 1e-5)
    return h * p[pre + ".gamma"].reshape(sh) + p[pre + ".beta"].reshape(sh)


def dense(p, pre, h):
    return h @ p[pre + ".weight"].T + p[pre + ".bias"]


def cbr(p, c, b, h, name, act=True):
    h = conv(p, c, h)
    rec[name + ".conv"] = h
    h = bn(p, b, h, (0, 2))
    rec[name + ".bn"] = h
    return jax.nn.relu(h) if act else h


def forward(p, x):
    s = "feat.stn."
    h = cbr(p, s + "conv1", s + "bn1", x, "stn.1")
    h = cbr(p, s + "conv2", s + "bn2", h, "stn.2")
    h = cbr(p, s + "conv3", s + "bn3", h, "stn.3")
    h = h.max(2)
    rec["stn.max"] = h[..., None]
    h = dense(p, s + "fc1", h)
    rec["stn.fc1"] = h
    h = bn(p, s + "bn4", h, (0,))
    rec["stn.bn4"] = h
    h = dense(p, s + "fc2", jax.nn.relu(h))
    rec["stn.fc2"] = h
    h = bn(p, s + "bn5", h, (0,))
    rec["stn.bn5"] = h
    h = dense(p, s + "fc3", jax.nn.relu(h))
    rec["stn.fc3"] = h
    t = (h + jnp.eye(3).reshape(1, 9)).reshape(-1, 3, 3)
    rec["trans"] = t
    h = jnp.einsum("bli,bij->blj", x.transpose(0, 2, 1), t).transpose(0, 2, 1)
    rec["xt"] = h
    pf = h = cbr(p, "feat.conv1", "feat.bn1", h, "feat.1")
    h = cbr(p, "feat.conv2", "feat.bn2", h, "feat.2")
    h = cbr(p, "feat.conv3", "feat.bn3", h, "feat.3", act=False)
    h = h.max(2, keepdims=True)
    rec["feat.max"] = h
    h = jnp.concatenate([jnp.tile(h, (1, 1, NP)), pf], 1)
    h = cbr(p, "conv1", "bn1", h, "head.1")
    h = cbr(p, "conv2", "bn2", h, "head.2")
    h = cbr(p, "conv3", "bn3", h, "head.3")
    h = conv(p, "conv4", h)
    rec["head.4"] = h
    lp = jax.nn.log_softmax(h.transpose(0, 2, 1).reshape(-1, 4), -1)
    rec["logp"] = lp
    return lp


def loss(p, x):
    return -jnp.take_along_axis(forward(p, x), lab.reshape(-1, 1), 1).mean()


trainable = {k: v for k, v in P.items() if "moving" not in k}
value, grads = jax.value_and_grad(loss)(trainable, x)
forward(P, x)
out = {"f:" + k: np.asarray(v) for k, v in rec.items()}
out["loss"] = np.asarray(value)
out.update({"g:" + k: np.asarray(v).reshape(P[k].shape) for k, v in grads.items()})
np.savez(os.path.join(args.out, f"ref64_B{B}.npz"), **out)
print("float64 loss", float(value))
