"""THOR layers (``Conv2dThor``, ``DenseThor``, ``EmbeddingThor``, ``EmbeddingLookupThor``).

They exist for MindSpore's THOR second-order optimizer, which targets Ascend clusters (listed as
hardware-specific in msjax's API notes). The names import; constructing one raises a clear error that
names the plain layer to use instead."""
from __future__ import annotations

from ..cell import Cell

__all__ = ["Conv2dThor", "DenseThor", "EmbeddingThor", "EmbeddingLookupThor"]


def _unsupported(name, alternative):
    class _Thor(Cell):
        def __init__(self, *args, **kwargs):
            raise NotImplementedError(
                f"nn.{name} collects the curvature statistics of MindSpore's THOR second-order optimizer, which "
                f"msjax does not provide (THOR targets Ascend). Use nn.{alternative} with a first-order optimizer.")
    _Thor.__name__ = _Thor.__qualname__ = name
    return _Thor


Conv2dThor = _unsupported("Conv2dThor", "Conv2d")
DenseThor = _unsupported("DenseThor", "Dense")
EmbeddingThor = _unsupported("EmbeddingThor", "Embedding")
EmbeddingLookupThor = _unsupported("EmbeddingLookupThor", "EmbeddingLookup")
