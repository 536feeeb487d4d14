"""``ops.ScalarSummary``, ``ops.ImageSummary``, ``ops.HistogramSummary`` and
``ops.TensorSummary``: called in a network's ``construct`` as ``op(name, value)``;
the next ``SummaryRecord.record`` (or ``SummaryCollector``) writes the latest value
of each name to TensorBoard. Work in PyNative and compiled (GRAPH_MODE/``ms.jit``).
``TensorSummary`` raises: TensorBoard has no raw-tensor view (use HistogramSummary)."""
from __future__ import annotations

from .. import _summary_cache as summary_cache
from ..._core.registry import Primitive
from ..._core.tensor import Tensor

__all__ = ["ScalarSummary", "ImageSummary", "HistogramSummary", "TensorSummary"]


class _Summary(Primitive):
    _plugin = None

    def __init__(self):
        self._attrs = {}
        self.name = type(self).__name__

    def _check(self, shape):
        return None

    def __call__(self, name, value):
        if not isinstance(name, str) or not name:
            raise ValueError(f"For '{self.name}', the name should be a non-empty str, but got {name!r}.")
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{self.name}', the value should be a Tensor, but got {type(value).__name__}.")
        self._check(tuple(value.shape))
        summary_cache.push(self._plugin, name, value._data)


class ScalarSummary(_Summary):
    """``ScalarSummary()(name, value)``: a scalar (or one-element) Tensor."""
    _plugin = "scalar"

    def _check(self, shape):
        if shape not in ((), (1,)):
            raise ValueError(f"For 'ScalarSummary', the value should be a scalar or a Tensor of shape [1], but got "
                             f"shape {list(shape)}.")


class ImageSummary(_Summary):
    """``ImageSummary()(name, value)``: an NCHW image batch."""
    _plugin = "image"

    def _check(self, shape):
        if len(shape) != 4:
            raise ValueError(f"For 'ImageSummary', the value should be a 4-D NCHW Tensor, but got shape "
                             f"{list(shape)}.")


class HistogramSummary(_Summary):
    """``HistogramSummary()(name, value)``: the values' histogram."""
    _plugin = "histogram"


class TensorSummary(_Summary):
    """Not supported: TensorBoard has no raw-tensor view."""

    def __init__(self):
        raise NotImplementedError("ops.TensorSummary is not supported by msjax (TensorBoard event files have no "
                                  "raw-tensor view); use ops.HistogramSummary.")
