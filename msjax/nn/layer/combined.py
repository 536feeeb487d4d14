"""``Conv2dBnAct`` and ``DenseBnAct``: a convolution / dense layer followed by optional BatchNorm and
activation (children ``conv``/``dense``, ``batchnorm``, ``activation`` as in MindSpore)."""
from __future__ import annotations

from ..._core.registry import Primitive
from ..cell import Cell
from .basic import Dense
from .conv import Conv2d
from .normalization import BatchNorm1d, BatchNorm2d

__all__ = ["Conv2dBnAct", "DenseBnAct"]


def _activation(cls_name, activation, alpha):
    from . import activation as act
    if activation == "leakyrelu":
        return act.LeakyReLU(alpha)
    out = act.get_activation(activation) if isinstance(activation, str) else activation
    if activation is not None and not isinstance(out, (Cell, Primitive)):
        raise TypeError(f"For '{cls_name}', the 'activation' must be str or Cell or Primitive, "
                        f"but got {type(activation).__name__}.")
    return out


def _check_bool(v, name, cls_name):
    if not isinstance(v, bool):
        raise TypeError(f"For '{cls_name}', the type of '{name}' must be bool, but got {type(v).__name__}.")
    return v


class Conv2dBnAct(Cell):
    """``nn.Conv2dBnAct(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, weight_init='normal', bias_init='zeros', has_bn=False,
    momentum=0.997, eps=1e-5, activation=None, alpha=0.2, after_fake=True)``."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init="normal", bias_init="zeros", has_bn=False, momentum=0.997,
                 eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        cls_name = type(self).__name__
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, pad_mode=pad_mode,
                           padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                           weight_init=weight_init, bias_init=bias_init)
        self.has_bn = _check_bool(has_bn, "has_bn", cls_name)
        self.has_act = activation is not None
        self.after_fake = _check_bool(after_fake, "after_fake", cls_name)
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation(cls_name, activation, alpha)

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class DenseBnAct(Cell):
    """``nn.DenseBnAct(in_channels, out_channels, weight_init='normal', bias_init='zeros', has_bias=True,
    has_bn=False, momentum=0.9, eps=1e-5, activation=None, alpha=0.2, after_fake=True)``."""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True,
                 has_bn=False, momentum=0.9, eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        cls_name = type(self).__name__
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = _check_bool(has_bn, "has_bn", cls_name)
        self.has_act = activation is not None
        self.after_fake = _check_bool(after_fake, "after_fake", cls_name)
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation(cls_name, activation, alpha)

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
