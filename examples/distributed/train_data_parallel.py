"""A MindSpore-style DATA_PARALLEL training script (unmodified MindSpore code).

    python -m msjax launch --worker_num=2 --local_worker_num=2 --join=True train_data_parallel.py
    python -m msjax run train_data_parallel.py --single          # one process, the global batch
    XLA_FLAGS=--xla_force_host_platform_device_count=4 python -m msjax run train_data_parallel.py --devices
    msrun --worker_num=2 --local_worker_num=2 --join=True train_data_parallel.py   # MindSpore 2.10

Trains a small MLP twice on the same data: with ``Model.train`` (Momentum,
``gradients_mean=True``, a ``NumpySlicesDataset`` sharded by rank), and with the
custom ``TrainOneStepCell`` of MindSpore's training guide (``value_and_grad`` +
``nn.DistributedGradReducer``). Prints the final weights of each as one JSON line
(``WEIGHTS <run> {...}``); every setting above ends with the same weights.
"""
import json
import sys

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops
from mindspore.communication import get_group_size, get_rank, init
from mindspore.parallel._utils import _get_device_num, _get_gradients_mean, _get_parallel_mode

GLOBAL_BATCH = 8
single = "--single" in sys.argv          # one process, the global batch, no parallel context
devices = "--devices" in sys.argv        # one process, DATA_PARALLEL over its local devices
ms.set_context(mode=ms.PYNATIVE_MODE if "--pynative" in sys.argv else ms.GRAPH_MODE)

if single or devices:
    rank, size = 0, 1
else:
    init()
    rank, size = get_rank(), get_group_size()
if not single:
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)

rs = np.random.RandomState(0)
X = rs.randn(64, 6).astype(np.float32)
Y = (X @ rs.randn(6, 3) + 0.1 * rs.randn(64, 3)).astype(np.float32)
W1, B1 = (0.3 * rs.randn(4, 6)).astype(np.float32), np.zeros(4, np.float32)
W2, B2 = (0.3 * rs.randn(3, 4)).astype(np.float32), np.zeros(3, np.float32)


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 4)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(4, 3)
        for p, v in zip((self.fc1.weight, self.fc1.bias, self.fc2.weight, self.fc2.bias), (W1, B1, W2, B2)):
            p.set_data(ms.Tensor(v))

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def dataset():
    if size > 1:
        data = ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False, num_shards=size, shard_id=rank)
    else:
        data = ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False)
    return data.batch(GLOBAL_BATCH // size)


def weights(net):
    return {p.name: np.round(p.asnumpy().astype(np.float64), 7).tolist() for p in net.trainable_params()}


# 1. Model.train
net = MLP()
model = ms.Model(net, loss_fn=nn.MSELoss(), optimizer=nn.Momentum(net.trainable_params(), 0.1, 0.9))
model.train(2, dataset(), dataset_sink_mode=False)
print("WEIGHTS model " + json.dumps(weights(net)), flush=True)


# 2. the training guide's custom TrainOneStepCell
class TrainOneStepCell(nn.Cell):
    def __init__(self, network, optimizer):
        super(TrainOneStepCell, self).__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.reducer_flag = False
        self.grad_reducer = ops.identity
        self.parallel_mode = _get_parallel_mode()
        self.reducer_flag = self.parallel_mode in (ms.ParallelMode.DATA_PARALLEL, ms.ParallelMode.HYBRID_PARALLEL)
        if self.reducer_flag:
            self.mean = _get_gradients_mean()
            self.degree = _get_device_num()
            self.grad_reducer = nn.DistributedGradReducer(self.weights, self.mean, self.degree)

    def construct(self, *inputs):
        loss, grads = ms.value_and_grad(self.network, grad_position=None, weights=self.weights)(*inputs)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        return loss


net = MLP()
step = TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
step.set_train()
for _ in range(2):
    for x, y in dataset().create_tuple_iterator():
        step(x, y)
print("WEIGHTS custom " + json.dumps(weights(net)), flush=True)
