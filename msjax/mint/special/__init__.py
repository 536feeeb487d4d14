"""``mindspore.mint.special``: ``erfc``, ``exp2``, ``expm1``, ``log1p``, ``sinc`` (``msjax.ops``),
``log_softmax`` (``mint.nn.functional``) and ``round`` without ``decimals``."""
from ...ops import erfc, exp2, expm1, log1p, sinc  # noqa: F401
from ...ops import round as _round
from ..nn.functional import log_softmax  # noqa: F401


def round(input):  # noqa: A001
    """``mint.special.round(input)``: half to even."""
    return _round(input)


__all__ = ["erfc", "exp2", "expm1", "log1p", "log_softmax", "round", "sinc"]
