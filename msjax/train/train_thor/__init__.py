"""``mindspore.train.train_thor``: the THOR conversion helpers, which import and
raise ``NotImplementedError`` when used (msjax has no THOR optimizer)."""
from .convert_utils import ConvertModelUtils, ConvertNetUtils

__all__ = ["ConvertNetUtils", "ConvertModelUtils"]
