"""VGG16 (configuration "D") with batch normalisation for 32x32 inputs; every
channel count is divided by ``width_div`` (1 is VGG16's width)."""
import mindspore.nn as nn
from mindspore.common.initializer import XavierUniform

CFG_D = [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"]


def _make_layers(cfg, width_div, batch_norm=True):
    layers, in_channels = [], 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
            continue
        out_channels = max(1, v // width_div)
        layers.append(nn.Conv2d(in_channels, out_channels, 3, pad_mode="same", has_bias=not batch_norm,
                                weight_init=XavierUniform()))
        if batch_norm:
            layers.append(nn.BatchNorm2d(out_channels))
        layers.append(nn.ReLU())
        in_channels = out_channels
    return nn.SequentialCell(layers), in_channels


class Vgg(nn.Cell):
    def __init__(self, cfg, num_classes=10, width_div=1, hidden=512, dropout=0.5, batch_norm=True):
        super().__init__()
        self.layers, channels = _make_layers(cfg, width_div, batch_norm)
        self.flatten = nn.Flatten()
        self.classifier = nn.SequentialCell([
            nn.Dense(channels, hidden), nn.ReLU(), nn.Dropout(p=dropout),
            nn.Dense(hidden, hidden), nn.ReLU(), nn.Dropout(p=dropout),
            nn.Dense(hidden, num_classes)])

    def construct(self, x):
        return self.classifier(self.flatten(self.layers(x)))


def vgg16(num_classes=10, width_div=1, hidden=512, dropout=0.5):
    return Vgg(CFG_D, num_classes, width_div, hidden, dropout)
