"""ResNet18 for 32x32 CIFAR-10 images: a 3x3 stem (no max-pool), four stages of two
basic blocks, global average pooling and a dense classifier."""
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore.common.initializer import HeNormal, TruncatedNormal


def _conv3x3(in_channel, out_channel, stride=1):
    return nn.Conv2d(in_channel, out_channel, 3, stride=stride, pad_mode="pad", padding=1, has_bias=False,
                     weight_init=HeNormal(mode="fan_out", nonlinearity="relu"))


def _conv1x1(in_channel, out_channel, stride=1):
    return nn.Conv2d(in_channel, out_channel, 1, stride=stride, pad_mode="same", has_bias=False,
                     weight_init=HeNormal(mode="fan_out", nonlinearity="relu"))


class BasicBlock(nn.Cell):
    """conv3x3-BN-ReLU-conv3x3-BN plus the (projected) input, then ReLU."""
    expansion = 1

    def __init__(self, in_channel, out_channel, stride=1):
        super().__init__()
        self.conv1 = _conv3x3(in_channel, out_channel, stride)
        self.bn1 = nn.BatchNorm2d(out_channel)
        self.conv2 = _conv3x3(out_channel, out_channel)
        self.bn2 = nn.BatchNorm2d(out_channel, gamma_init="zeros")   # each block starts as the identity
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([_conv1x1(in_channel, out_channel, stride),
                                                        nn.BatchNorm2d(out_channel)])

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.down_sample:
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class ResNet(nn.Cell):
    def __init__(self, layer_nums, channels, num_classes=10):
        super().__init__()
        self.conv1 = _conv3x3(3, channels[0])
        self.bn1 = nn.BatchNorm2d(channels[0])
        self.relu = nn.ReLU()
        stages, in_channel = [], channels[0]
        for i, (num, out_channel) in enumerate(zip(layer_nums, channels)):
            blocks = []
            for j in range(num):
                blocks.append(BasicBlock(in_channel, out_channel, stride=2 if (i > 0 and j == 0) else 1))
                in_channel = out_channel
            stages.append(nn.SequentialCell(blocks))
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.mean = ops.ReduceMean(keep_dims=False)
        self.end_point = nn.Dense(in_channel, num_classes, weight_init=TruncatedNormal(0.01))

    def construct(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = self.mean(x, (2, 3))
        return self.end_point(x)


def resnet18(class_num=10, base_channels=64):
    """ResNet18; ``base_channels`` scales every stage (64 is the paper's width)."""
    return ResNet([2, 2, 2, 2], [base_channels * m for m in (1, 2, 4, 8)], class_num)
