"""MobileNetV2 (inverted residual blocks with linear bottlenecks), with a width
multiplier; the stem stride adapts to small inputs."""
import mindspore.nn as nn
import mindspore.ops as ops


def _make_divisible(value, divisor=8):
    new = max(divisor, int(value + divisor / 2) // divisor * divisor)
    return new + divisor if new < 0.9 * value else new


class ConvBNReLU(nn.Cell):
    """Conv2d (grouped for depthwise) - BatchNorm - ReLU6."""

    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1):
        super().__init__()
        self.features = nn.SequentialCell([
            nn.Conv2d(in_planes, out_planes, kernel_size, stride, pad_mode="pad", padding=(kernel_size - 1) // 2,
                      group=groups, has_bias=False),
            nn.BatchNorm2d(out_planes),
            nn.ReLU6()])

    def construct(self, x):
        return self.features(x)


class InvertedResidual(nn.Cell):
    """1x1 expansion, 3x3 depthwise, 1x1 linear projection; residual when shapes match."""

    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden = int(round(inp * expand_ratio))
        self.use_res = stride == 1 and inp == oup
        layers = [ConvBNReLU(inp, hidden, kernel_size=1)] if expand_ratio != 1 else []
        layers += [ConvBNReLU(hidden, hidden, stride=stride, groups=hidden),
                   nn.Conv2d(hidden, oup, 1, 1, has_bias=False),
                   nn.BatchNorm2d(oup)]
        self.conv = nn.SequentialCell(layers)

    def construct(self, x):
        out = self.conv(x)
        return x + out if self.use_res else out


class MobileNetV2(nn.Cell):
    # expand ratio, channels, repeats, first stride
    SETTINGS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                (6, 320, 1, 1)]

    def __init__(self, num_classes=1000, width_mult=1.0, stem_stride=2, dropout=0.2, last_channel=1280):
        super().__init__()
        in_channel = _make_divisible(32 * width_mult)
        self.out_channels = _make_divisible(last_channel * max(1.0, width_mult))
        features = [ConvBNReLU(3, in_channel, stride=stem_stride)]
        for t, c, n, s in self.SETTINGS:
            out_channel = _make_divisible(c * width_mult)
            for i in range(n):
                features.append(InvertedResidual(in_channel, out_channel, s if i == 0 else 1, t))
                in_channel = out_channel
        features.append(ConvBNReLU(in_channel, self.out_channels, kernel_size=1))
        self.features = nn.SequentialCell(features)
        self.mean = ops.ReduceMean(keep_dims=False)
        self.dropout = nn.Dropout(p=dropout)
        self.head = nn.Dense(self.out_channels, num_classes)

    def construct(self, x):
        x = self.mean(self.features(x), (2, 3))
        return self.head(self.dropout(x))
