"""PointNet (official/cv/PointNet) numerical bisection, run by both frameworks.

    /tmp/ms/bin/python bench/zoo/pointnet/steps.py --zoo <PointNet folder> --out DIR [--batch 2]
    python -m msjax run bench/zoo/pointnet/steps.py --zoo <PointNet folder> --out DIR [--batch 2]

MindSpore runs first: it saves the initial weights of ``PointNetDenseCls(k=4)`` to
``DIR/init.ckpt``; both sides load them (strict), take the same batch (``--batch`` shapes x
300 points, labels 1..4, NumPy seed 0), and write ``DIR/<ms|msjax>_B<batch>.npz`` with: every
intermediate of the train-mode forward (``f:<stage>``, PyNative, built from the zoo's own
sub-cells), the loss and per-parameter gradients of ``WithLossCell(net, PointnetLoss)``
(``g:<name>``), and the parameters (moving statistics included, ``s<i>:<name>``) after each of
``--steps`` ``TrainOneStepCell(Adam(lr 5e-4, loss_scale=1024), sens=1024)`` steps.
``reference.py`` computes the same forward and gradients in float64 (JAX) and ``compare.py``
prints each framework's distance to it. Not run in CI.
"""
import argparse
import os
import sys

import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, context

ap = argparse.ArgumentParser()
ap.add_argument("--zoo", required=True)
ap.add_argument("--out", required=True)
ap.add_argument("--batch", type=int, default=2)
ap.add_argument("--steps", type=int, default=3)
args = ap.parse_args()
sys.path.insert(0, args.zoo)
from src.network import PointNetDenseCls  # noqa: E402
from src.loss import PointnetLoss  # noqa: E402

FW = "msjax" if "msjax" in ms.__file__ else "ms"
B, NP = args.batch, 300
os.makedirs(args.out, exist_ok=True)
context.set_context(mode=context.PYNATIVE_MODE)
ms.set_seed(1)
net = PointNetDenseCls(k=4)
ck = os.path.join(args.out, "init.ckpt")
if FW == "ms" and not os.path.exists(ck):
    ms.save_checkpoint(net, ck)


def reset():
    """The initial weights and statistics, read from the file each time: in MindSpore the
    Parameters of a loaded dict share memory with the network's after load_param_into_net, so
    the BatchNorms' updates would reach a dict kept for later resets."""
    ms.load_param_into_net(net, ms.load_checkpoint(ck), strict_load=True)


reset()
rng = np.random.RandomState(0)
x = Tensor(rng.randn(B, 3, NP).astype(np.float32))
lab = Tensor(rng.randint(1, 5, size=(B, NP)).astype(np.int32))
net.set_train(True)
rec = {}
ex, sq, relu = ops.ExpandDims(), ops.Squeeze(-1), ops.ReLU()


def cbr(conv, bn, h, name, act=True):
    c = conv(h)
    rec[name + ".conv"] = c
    b = sq(bn(ex(c, -1)))
    rec[name + ".bn"] = b
    return relu(b) if act else b


def forward(h):
    """network.py's forward, written out with its sub-cells to record each stage."""
    s, f = net.feat.stn, net.feat
    t = cbr(s.conv1, s.bn1, h, "stn.1")
    t = cbr(s.conv2, s.bn2, t, "stn.2")
    t = cbr(s.conv3, s.bn3, t, "stn.3")
    t = s.argmaxwithvalue(t)[1]
    rec["stn.max"] = t
    t = s.fc1(t.reshape(-1, 1024))
    rec["stn.fc1"] = t
    t = s.bn4(t)
    rec["stn.bn4"] = t
    t = s.fc2(relu(t))
    rec["stn.fc2"] = t
    t = s.bn5(t)
    rec["stn.bn5"] = t
    t = s.fc3(relu(t))
    rec["stn.fc3"] = t
    t = (t + Tensor(np.eye(3, dtype=np.float32).reshape(1, 9))).reshape(-1, 3, 3)
    rec["trans"] = t
    h = ops.Transpose()(ops.BatchMatMul()(ops.Transpose()(h, (0, 2, 1)), t), (0, 2, 1))
    rec["xt"] = h
    pf = h = cbr(f.conv1, f.bn1, h, "feat.1")
    h = cbr(f.conv2, f.bn2, h, "feat.2")
    h = cbr(f.conv3, f.bn3, h, "feat.3", act=False)
    h = f.argmaxwithvalue(h)[1]
    rec["feat.max"] = h
    h = ops.Concat(axis=1)((ops.Tile()(h.reshape(-1, 1024, 1), (1, 1, NP)), pf))
    h = cbr(net.conv1, net.bn1, h, "head.1")
    h = cbr(net.conv2, net.bn2, h, "head.2")
    h = cbr(net.conv3, net.bn3, h, "head.3")
    h = net.conv4(h)
    rec["head.4"] = h
    rec["logp"] = nn.LogSoftmax(axis=-1)(ops.Transpose()(h, (0, 2, 1)).reshape(-1, 4))


out = {}
forward(x)
out.update({"f:" + k: v.asnumpy() for k, v in rec.items()})
out["net_logp"] = net(x).asnumpy()      # the network's own forward
reset()     # undo the moving-statistics updates
loss_fn = PointnetLoss(num_class=4, feature_transform=False)
params = net.trainable_params()
loss, grads = ms.value_and_grad(nn.WithLossCell(net, loss_fn), None, params)(x, lab)
out["loss"] = loss.asnumpy()
out.update({"g:" + p.name: g.asnumpy() for p, g in zip(params, grads)})
reset()
opt = nn.Adam(net.trainable_params(), learning_rate=0.0005, beta1=0.9, beta2=0.999, loss_scale=1024)
train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt, sens=1024)
train.set_train(True)
for i in range(args.steps):
    out[f"step{i}.loss"] = train(x, lab).asnumpy()
    # a copy: MindSpore's asnumpy() on CPU shares the Parameter's memory, which later steps overwrite
    out.update({f"s{i}:" + p.name: p.asnumpy().copy() for p in net.get_parameters()})
np.savez(os.path.join(args.out, f"{FW}_B{B}.npz"), **out)
print(FW, "losses", [float(out[f"step{i}.loss"]) for i in range(args.steps)])
