"""``mindspore.onnx.export(net, *inputs, file_name, input_names=None, output_names=None,
export_params=True, keep_initializers_as_inputs=False, dynamic_axes=None)``: MindSpore 2.10's
newer ONNX function, its checks and messages, on msjax's ONNX writer
(``msjax.train._export.onnx``, opset 11).

As in MindSpore: the name must match MindSpore's file-name pattern, ``'.onnx'`` is appended unless
present, missing directories are created, the file is left writable (``ms.export`` leaves its
files read-only; this function does not), the network is traced in inference mode and its mode
restored. ``input_names``/``output_names`` rename the first inputs/outputs; ``export_params=False``
lists the Parameters as graph inputs instead of initializers, ``keep_initializers_as_inputs``
lists them as inputs as well; ``dynamic_axes`` (``{input name: {axis: name}}``) makes those
input axes symbolic dimensions of that name.

Differences from MindSpore 2.10:

* Outputs depending on a dynamic axis have that symbolic dimension too (MindSpore writes the
  traced size there); MindSpore names unnamed outputs after its graph nodes, msjax ``output_<i>``.
* A network whose weights exceed protobuf's 2 GB raises ``NotImplementedError`` (MindSpore
  writes the weights to external data files).
* Nothing partial: a failing export leaves no file and removes the directories it created.
"""
from __future__ import annotations

import os

import numpy as np

from .. import _checkparam as Validator
from .. import log as logger
from ..nn.cell import Cell
from ..train._export import _is_dataset
from ..train._export._output import output_dirs, replace_file
from ..train._export.onnx import _build, _onnx

__all__ = ["export"]

PROTO_LIMIT_SIZE = 1024 * 1024 * 2      # KB, as MindSpore's


def export(net, *inputs, file_name, input_names=None, output_names=None, export_params=True,
           keep_initializers_as_inputs=False, dynamic_axes=None):
    """Export ``net`` called on ``inputs`` to the ONNX file ``file_name`` (see the module's docstring)."""
    Validator.check_file_name_by_regular(file_name)
    logger.info("exporting model file:%s format:%s.", file_name, "ONNX")
    Validator.check_isinstance("net", net, Cell)
    input_names = input_names or []
    Validator.check_isinstance("input_names", input_names, list)
    output_names = output_names or []
    Validator.check_isinstance("output_names", output_names, list)
    dynamic_axes = dynamic_axes or {}
    Validator.check_isinstance("dynamic_axes", dynamic_axes, dict)
    if any(_is_dataset(x) for x in inputs):
        raise ValueError("Can not support dataset as inputs to export ONNX model.")
    total = sum(np.asarray(p.asnumpy()).nbytes for p in net.get_parameters()) / 1024
    if total > PROTO_LIMIT_SIZE:
        raise NotImplementedError(f"Network size is: {total / 1024 / 1024}G; exporting its weights to external data "
                                  "files (above protobuf's 2G limit) is not supported by msjax.")
    onnx = _onnx()
    path = os.path.abspath(file_name)
    if not path.endswith(".onnx"):
        path += ".onnx"
    cell_mode = net.training
    net.set_train(mode=False)
    try:
        model = _build(onnx, net, inputs, input_names=input_names, output_names=output_names,
                       export_params=export_params, keep_initializers_as_inputs=keep_initializers_as_inputs,
                       dynamic_axes=dynamic_axes)
        with output_dirs(path):
            replace_file(path, model.SerializeToString())
    finally:
        net.set_train(mode=cell_mode)
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(path, 0o666 & ~mask)      # MindSpore writes this file with open(): writable
