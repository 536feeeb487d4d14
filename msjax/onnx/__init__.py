"""``mindspore.onnx``: MindSpore 2.10's ONNX export function (``mindspore.onnx.export``)."""
from .onnx_export import export

__all__ = ["export"]
