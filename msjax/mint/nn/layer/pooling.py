"""``mindspore.mint.nn.layer.pooling``: the adaptive pools over ``mint.nn.functional``; ``MaxUnpool2d``
is ``nn.MaxUnpool2d``."""
from __future__ import annotations

from ....nn import MaxUnpool2d  # noqa: F401
from .. import functional as F
from ._elementwise import _act


AdaptiveAvgPool1d = _act("AdaptiveAvgPool1d", F.adaptive_avg_pool1d, (("output_size", None),),
                         shown=("output_size",))
AdaptiveAvgPool2d = _act("AdaptiveAvgPool2d", F.adaptive_avg_pool2d, (("output_size", None),),
                         shown=("output_size",))
AdaptiveAvgPool3d = _act("AdaptiveAvgPool3d", F.adaptive_avg_pool3d, (("output_size", None),))
AdaptiveMaxPool1d = _act("AdaptiveMaxPool1d", F.adaptive_max_pool1d, (("output_size", None),
                                                                       ("return_indices", False)),
                         shown=("output_size", "return_indices"))


__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "MaxUnpool2d"]
