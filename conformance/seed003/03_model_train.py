# setup from earlier example
import os
import shutil
import tempfile

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.nn import Accuracy
from mindspore.common.initializer import Normal


class LeNet5(nn.Cell):
    """The model-zoo LeNet5 (stands in for mindvision's lenet, which is not installed)."""
    def __init__(self, num_class=10, num_channel=1):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def lenet(num_classes=10, pretrained=False):
    net = LeNet5(num_classes)
    rs = np.random.RandomState(0)  # fixed weights, so that the run is reproducible
    for p in net.trainable_params():
        p.set_data(ms.Tensor((rs.standard_normal(p.shape) * 0.1).astype(np.float32)))
    return net


class MyDataset():
    def __init__(self, n):
        rs = np.random.RandomState(1)
        self.data = [rs.rand(1, 32, 32).astype(np.float32) for _ in range(n)]
        self.label = [np.int32(i % 10) for i in range(n)]
    def __len__(self):
        return len(self.data)
    def __getitem__(self, idx):
        return self.data[idx], self.label[idx]


def create_dataset(n, batch_size):
    return ds.GeneratorDataset(MyDataset(n), column_names=["data", "label"], shuffle=False).batch(batch_size)
# end of setup

import mindspore as ms

lr = 0.01
momentum = 0.9

# define forward network
network = lenet(num_classes=10, pretrained=False)

# define loss
net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
# define optimizer
net_opt = nn.Momentum(network.trainable_params(), lr, momentum)

# define model
model = ms.Model(network, net_loss, net_opt)

# driver (not from the doc): the flow of the notebook's first cell with this model:
# a dataset, CheckpointConfig/ModelCheckpoint/LossMonitor, train, then evaluate
ds_train = create_dataset(64, 16)
ckpt_dir = tempfile.mkdtemp()
config_ck = ms.CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=2)
ckpoint_cb = ms.ModelCheckpoint(prefix="lenet", directory=ckpt_dir, config=config_ck)
loss_cb = ms.LossMonitor()
model = ms.Model(network, net_loss, net_opt, metrics={"Accuracy": Accuracy()})
model.train(2, ds_train, callbacks=[loss_cb, ckpoint_cb])
print(sorted(f for f in os.listdir(ckpt_dir) if f.endswith(".ckpt")))
print(model.eval(create_dataset(32, 16)))
param_dict = ms.load_checkpoint(os.path.join(ckpt_dir, "lenet-2_4.ckpt"))
print(sorted(param_dict)[:4], len(param_dict))
shutil.rmtree(ckpt_dir)  # driver: leave nothing in the temporary directory
