"""``mindspore.boost``: MindSpore's training accelerations. msjax has
``GradientAccumulation``; the other boost names (``AutoBoost``, ``LessBN``,
``GradientFreeze``, ``AdaSum``, ``DimReduce``...) raise msjax's "does not
support" error."""
from .grad_accumulation import GradientAccumulation

__all__ = ["GradientAccumulation"]
