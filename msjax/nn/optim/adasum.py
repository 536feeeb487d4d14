"""``nn.AdaSumByGradWrapCell`` / ``nn.AdaSumByDeltaWeightWrapCell``: MindSpore's
AdaSum combines gradients across a power-of-two number (>= 16) of devices with
hierarchical all-reduce; msjax runs on one device and does not provide it."""
from __future__ import annotations

from ..cell import Cell

__all__ = ["AdaSumByGradWrapCell", "AdaSumByDeltaWeightWrapCell"]


class _AdaSumUnsupported(Cell):

    __ms_unsupported__ = True
    def __init__(self, optimizer):
        super().__init__(auto_prefix=False)
        raise RuntimeError(
            f"msjax does not implement '{type(self).__name__}': AdaSum needs distributed training on a "
            "power-of-two number of devices (MindSpore requires at least 16); msjax runs on one device. "
            "Use the optimizer directly.")


class AdaSumByGradWrapCell(_AdaSumUnsupported):
    """Not supported (distributed AdaSum): raises RuntimeError."""


class AdaSumByDeltaWeightWrapCell(_AdaSumUnsupported):
    """Not supported (distributed AdaSum): raises RuntimeError."""
