"""``nn.OptTFTWrapper``: MindSpore's training-fault-tolerance wrapper (Ascend,
MindIO TFT); msjax does not provide it."""
from __future__ import annotations

from ..cell import Cell

__all__ = ["OptTFTWrapper"]


class OptTFTWrapper(Cell):
    """Not supported (Ascend fault tolerance): raises RuntimeError."""

    __ms_unsupported__ = True

    def __init__(self, opt, **kwargs):
        super().__init__(auto_prefix=False)
        raise RuntimeError("msjax does not implement 'OptTFTWrapper' (MindIO training fault tolerance is "
                           "Ascend-only). Use the optimizer directly.")
