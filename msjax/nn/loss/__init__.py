"""``mindspore.nn.loss``: the loss Cells (``from mindspore.nn.loss import SoftmaxCrossEntropyWithLogits``)."""
from .loss import *  # noqa: F401,F403
from .loss import __all__  # noqa: F401
