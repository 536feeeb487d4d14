"""``mindspore.mint.nn.layer.activation``: ``ELU``, ``GELU``, ``GLU``, ``Hardtanh``, ``LogSigmoid``, ``Mish``,
``ReLU6``, ``SELU``, ``SiLU``, ``Sigmoid``, ``Softmax``, ``Tanh``, ``Threshold`` over ``mint.nn.functional``."""
from __future__ import annotations

from .. import functional as F
from ._elementwise import _act


ELU = _act("ELU", F.elu, (("alpha", 1.0), ("inplace", False)))
GELU = _act("GELU", F.gelu, (("approximate", "none"),))
GLU = _act("GLU", F.glu, (("dim", -1),))
Hardtanh = _act("Hardtanh", F.hardtanh, (("min_val", -1.0), ("max_val", 1.0), ("inplace", False)))
LogSigmoid = _act("LogSigmoid", F.logsigmoid)
Mish = _act("Mish", F.mish)
ReLU6 = _act("ReLU6", F.relu6, (("inplace", False),))
SELU = _act("SELU", F.selu)
SiLU = _act("SiLU", F.silu, (("inplace", False),))
Sigmoid = _act("Sigmoid", F.sigmoid)
Softmax = _act("SoftmaxExt", F.softmax, (("dim", None),),
               "``mint.nn.Softmax(dim=None)`` (class ``SoftmaxExt``, as MindSpore's): ``mint.nn.functional.softmax``.")
Tanh = _act("Tanh", F.tanh)
Threshold = _act("Threshold", F.threshold, (("threshold", None), ("value", None), ("inplace", False)))


__all__ = ["ELU", "GELU", "GLU", "Hardtanh", "LogSigmoid", "Mish", "ReLU6", "SELU", "SiLU", "Sigmoid", "Softmax",
           "Tanh", "Threshold"]
