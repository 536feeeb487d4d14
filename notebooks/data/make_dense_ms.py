"""Write ``dense_ms.ckpt`` and ``dense_ms.safetensors`` (used by
``checkpoints_with_mindspore.ipynb``) with real MindSpore 2.10, by hand:

    /tmp/ms/bin/python notebooks/data/make_dense_ms.py
"""
import os

import numpy as np
import mindspore as ms
from mindspore import nn, Parameter, Tensor

HERE = os.path.dirname(os.path.abspath(__file__))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)
        self.scale = Parameter(Tensor(np.array([1.5, -0.5], np.float32)), name="scale")

    def construct(self, x):
        return self.fc(x) * self.scale


net = Net()
rs = np.random.RandomState(3)
net.fc.weight.set_data(Tensor(rs.randn(2, 3).astype(np.float32)))
net.fc.bias.set_data(Tensor(rs.randn(2).astype(np.float32)))
ms.save_checkpoint(net, os.path.join(HERE, "dense_ms.ckpt"), append_dict={"epoch_num": 7})
ms.save_checkpoint(net, os.path.join(HERE, "dense_ms.safetensors"), format="safetensors")
for f in ("dense_ms.ckpt", "dense_ms.safetensors"):
    os.chmod(os.path.join(HERE, f), 0o644)
print(ms.load_checkpoint(os.path.join(HERE, "dense_ms.ckpt")))
