"""Which of the zoo ResNet18's layer passes give MindSpore 2.10's bits on the CPU: each pass
(convolutions of the stem and the blocks, training-mode BatchNorm, max pooling, ReduceMean,
ReLU) forward and backward on seeded inputs, run as is under both frameworks, then compared::

    python bench/op_bits.py /tmp/ms.npz                    # MindSpore 2.10 (/tmp/ms/bin/python)
    python -m msjax run bench/op_bits.py /tmp/msjax.npz    # msjax
    python bench/op_bits.py --compare /tmp/ms.npz /tmp/msjax.npz

The comparison prints, per array, how many values differ and the largest difference relative to
the array's largest value. Not run in CI.
"""
import sys

import numpy as np

if sys.argv[1] == "--compare":
    a, b = np.load(sys.argv[2]), np.load(sys.argv[3])
    for k in a.files:
        x, y = a[k], b[k]
        rel = np.abs(x - y).max() / max(np.abs(x).max(), 1e-30)
        print(f"{k:16s} {str(x.shape):22s} differ {(x != y).sum():8d} / {x.size:<8d} max rel. {rel:.2e}")
    sys.exit(0)

import mindspore as ms  # noqa: E402
from mindspore import nn, ops, Tensor  # noqa: E402
ms.set_context(mode=ms.GRAPH_MODE)
rs = np.random.RandomState(0)
out = {}


def run(name, cell, x, *params):
    x = Tensor(x)
    y = cell(x)
    g = Tensor(rs.randn(*y.shape).astype(np.float32))
    go = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)
    grads = go(cell, cell.trainable_params())(x, g)
    out[name + "/y"] = y.asnumpy()
    out[name + "/dx"] = grads[0][0].asnumpy()
    for p, gp in zip(cell.trainable_params(), grads[1]):
        out[name + "/d" + p.name.split(".")[-1]] = gp.asnumpy()


def wconv(o, i, k):
    return Tensor(rs.randn(o, i, k, k).astype(np.float32) * 0.1)


B = 32
run("conv7s2", nn.Conv2d(3, 64, 7, 2, pad_mode="pad", padding=3, weight_init=wconv(64, 3, 7)), rs.randn(B, 3, 32, 32).astype(np.float32))
run("conv3", nn.Conv2d(64, 64, 3, 1, pad_mode="pad", padding=1, weight_init=wconv(64, 64, 3)), rs.randn(B, 64, 8, 8).astype(np.float32))
run("conv3s2", nn.Conv2d(64, 128, 3, 2, pad_mode="pad", padding=1, weight_init=wconv(128, 64, 3)), rs.randn(B, 64, 8, 8).astype(np.float32))
run("conv1s2", nn.Conv2d(64, 128, 1, 2, pad_mode="same", weight_init=wconv(128, 64, 1)), rs.randn(B, 64, 8, 8).astype(np.float32))
bn = nn.BatchNorm2d(64, eps=1e-4, momentum=0.9); bn.set_train(True)
run("bn", bn, (rs.randn(B, 64, 16, 16) * 2 + 1).astype(np.float32))
run("maxpool", nn.MaxPool2d(3, 2, pad_mode="same"), rs.randn(B, 64, 16, 16).astype(np.float32))


class Mean(nn.Cell):
    def construct(self, x):
        return ops.ReduceMean(keep_dims=True)(x, (2, 3))


run("mean", Mean(), rs.randn(B, 512, 4, 4).astype(np.float32))


class AddRelu(nn.Cell):
    def construct(self, x):
        return ops.relu(x + x * 0.5)


run("relu", AddRelu(), rs.randn(B, 64, 8, 8).astype(np.float32))
np.savez(sys.argv[1], **out)
