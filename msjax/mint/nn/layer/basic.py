"""``mindspore.mint.nn.layer.basic``: ``Flatten``, and the shape layers ``PixelShuffle``, ``Unfold``,
``Fold``, ``Upsample``, ``UpsamplingNearest2d``, ``UpsamplingBilinear2d``."""
from __future__ import annotations

from ....nn.cell import Cell
from .. import functional as F
from ._elementwise import _act


PixelShuffle = _act("PixelShuffle", F.pixel_shuffle, (("upscale_factor", None),))
Flatten = _act("Flatten", F.flatten, (("start_dim", 1), ("end_dim", -1)))
Unfold = _act("UnfoldExt", F.unfold, (("kernel_size", None), ("dilation", 1), ("padding", 0), ("stride", 1)))
Fold = _act("Fold", F.fold, (("output_size", None), ("kernel_size", None), ("dilation", 1), ("padding", 0),
                             ("stride", 1)))
Upsample = _act("UpsampleExt", F.interpolate, (("size", None), ("scale_factor", None), ("mode", "nearest"),
                                            ("align_corners", None), ("recompute_scale_factor", None)))


class UpsamplingNearest2d(Cell):
    """``mint.nn.UpsamplingNearest2d(size=None, scale_factor=None)``: nearest-neighbour interpolation
    of a 4-D input."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__()
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input):
        return F.interpolate(input, self.size, self.scale_factor, "nearest")


class UpsamplingBilinear2d(UpsamplingNearest2d):
    """``mint.nn.UpsamplingBilinear2d(size=None, scale_factor=None)``: bilinear interpolation with
    ``align_corners=True``."""

    def construct(self, input):
        return F.interpolate(input, self.size, self.scale_factor, "bilinear", True)


__all__ = ["Flatten", "Fold", "PixelShuffle", "Unfold", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"]
