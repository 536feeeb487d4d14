"""Whether a whole training step of the zoo's ResNet-18 (``official/cv/ResNet``, ``resnet18(10)``)
gives MindSpore 2.10's bits: under ``set_seed(1)`` and GRAPH_MODE, the logits, the loss of
``nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')`` and every parameter's gradient on a
seeded CIFAR-sized batch of 32, run as is under both frameworks, then compared (issue 33)::

    ZOO=/path/to/models/official/cv/ResNet OUT=/tmp/ms.npz /tmp/ms/bin/python bench/resnet18_step_bits.py
    ZOO=... OUT=/tmp/msjax.npz python -m msjax run bench/resnet18_step_bits.py
    python bench/op_bits.py --compare /tmp/ms.npz /tmp/msjax.npz

(the zoo's config parser reads ``sys.argv``, so the paths come from the environment). Not run in CI.
"""
import os
import sys

import numpy as np

sys.argv = sys.argv[:1]
sys.path.insert(0, os.environ["ZOO"])

import mindspore as ms  # noqa: E402
from mindspore import nn, ops, Tensor  # noqa: E402
from src.resnet import resnet18  # noqa: E402

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_seed(1)
net = resnet18(10)
net.set_train(True)
rs = np.random.RandomState(0)
x = Tensor(rs.randn(32, 3, 32, 32).astype(np.float32))
y = Tensor(rs.randint(0, 10, 32).astype(np.int32))
with_loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
params = with_loss.trainable_params()
out = {"p/" + p.name: p.asnumpy() for p in params}
grads = ops.GradOperation(get_by_list=True)(with_loss, params)(x, y)
out.update({"g/" + p.name: g.asnumpy() for p, g in zip(params, grads)})
out["loss"] = with_loss(x, y).asnumpy()
out["logits"] = net(x).asnumpy()
np.savez(os.environ["OUT"], **out)
