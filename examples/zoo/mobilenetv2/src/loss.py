"""Cross entropy with label smoothing on sparse labels."""
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.nn.loss.loss import LossBase


class CrossEntropySmooth(LossBase):
    """Softmax cross entropy against one-hot labels smoothed by ``smooth_factor``."""

    def __init__(self, num_classes, smooth_factor=0.1, reduction="mean"):
        super().__init__()
        self.num_classes = num_classes
        self.onehot = ops.OneHot()
        self.on_value = Tensor(1.0 - smooth_factor, mstype.float32)
        self.off_value = Tensor(smooth_factor / (num_classes - 1), mstype.float32)
        self.ce = nn.SoftmaxCrossEntropyWithLogits(reduction=reduction)

    def construct(self, logit, label):
        label = self.onehot(label, self.num_classes, self.on_value, self.off_value)
        return self.ce(logit, label)
