"""Kernels written as one MindSpore node, as MindSpore's exporter writes the layer: ``LayerNorm``
(``nn.LayerNorm``, ``ops.LayerNorm``, ``ops.layer_norm``), ``Softmax`` (``nn.Softmax``,
``ops.softmax``, the Transformer layers' attention), ``BatchNorm`` in inference (``nn.BatchNorm*d``
on the moving statistics, ``ops.batch_norm``, ``ops.BatchNorm``), ``ReLU``, ``ReLU6``, ``HSwish``,
``HSigmoid`` and ``GeLU`` (the tanh form: ``nn.GELU()``, ``ops.gelu(x, 'tanh')``, ``ops.GeLU``); ``NMSWithMask`` (``ops.NMSWithMask``: its sort and suppression loop have no other form) and
``ROIAlign`` (``ops.ROIAlign`` with ``sample_num > 0``: its gathers of bilinear samples neither);
``BoundingBoxDecode`` (MindSpore's kernel calls the C library's ``expf``, its ``Exp`` node nnacl's).

Why one node rather than the arithmetic: MindSpore's CPU runtime keeps every node's output of a
loaded graph, so a BatchNorm written as ``Sub``/``Mul``/``Mul``/``Add`` and a ReLU as
``Greater``/``Cast``/``Select`` held six full-size activations where MindSpore's own file holds two
(EfficientNet-B0 at the zoo's batch of 128 ran out of memory in MindSpore).

msjax's kernels trace as named calls while the MINDIR writer traces (``ops._impl.export_names``);
each rule here writes the node, or returns None to have the call written as its arithmetic: a
LayerNorm without ``gamma``/``beta``, operands of different dtypes, dtypes other than
float16/float32.
"""
from __future__ import annotations

import numpy as np

from ...ops._impl import export_names
from ._mindir_ops import _out, rule

__all__ = []

_F16_32 = (np.dtype(np.float16), np.dtype(np.float32))


@rule("named:LayerNorm")
def _layer_norm(em, eqn, ins, begin_norm_axis, begin_params_axis, eps):
    avals = [v.aval for v in eqn.invars]
    if len(ins) != 3 or avals[0].dtype not in _F16_32 \
            or any(a.dtype != avals[0].dtype for a in avals[1:]) or _out(eqn).dtype != avals[0].dtype:
        return None
    x, gamma, beta = (em.tensor(v, a) for v, a in zip(ins, avals))
    node = em.op("LayerNorm", [x, gamma, beta, int(begin_norm_axis), int(begin_params_axis), float(eps)], None)
    # MindSpore 2.10's CPU kernel gives (y, mean, variance), as msjax's kernel does
    y, mean, var = (em.op("TupleGetItem", [node, i], _out(eqn, i), function=False) for i in range(3))
    return y, mean, var


@rule("named:Softmax")
def _softmax(em, eqn, ins, axis):
    if eqn.invars[0].aval.dtype not in _F16_32:
        return None
    return (em.op("Softmax", [em.tensor(ins[0]), (int(axis),)], _out(eqn)),)


@rule("named:BatchNorm")
def _batch_norm(em, eqn, ins, eps, channel_axis):
    avals = [v.aval for v in eqn.invars]
    if len(ins) != 5 or channel_axis != 1 or len(avals[0].shape) not in (2, 4) \
            or any(a.dtype != np.float32 for a in (*avals, _out(eqn))):
        return None
    x, scale, bias, mean, var = (em.tensor(v, a) for v, a in zip(ins, avals))
    # MindSpore's inference form: BatchNorm(x, scale, bias, mean, variance, is_training, epsilon,
    # momentum, data_format NCHW), its first output
    node = em.op("BatchNorm", [x, scale, bias, mean, var, False, float(eps), 0.1, 0], None)
    return (em.op("TupleGetItem", [node, 0], _out(eqn), function=False),)


@rule("named:ReLU", "named:ReLU6", "named:HSwish", "named:HSigmoid", "named:GeLU")
def _activation(em, eqn, ins):
    if eqn.invars[0].aval.dtype not in _F16_32:
        return None
    kind, _ = export_names.parse(eqn.params["name"])
    return (em.op(kind, [em.tensor(ins[0])], _out(eqn)),)


@rule("named:NMSWithMask")
def _nms_with_mask(em, eqn, ins, iou_threshold):
    """MindSpore's ``NMSWithMask`` (attribute ``iou_threshold``) and its three outputs."""
    attrs = {"output_names": ["selected_boxes", "selected_idx", "selected_mask"],
             "iou_threshold": float(iou_threshold), "input_names": ["bboxes"]}
    node = em.op("NMSWithMask", [em.tensor(ins[0])], None, attrs=attrs)
    return tuple(em.op("TupleGetItem", [node, i], _out(eqn, i), function=False) for i in range(3))


@rule("named:ROIAlign")
def _roi_align(em, eqn, ins, **attrs):
    """MindSpore's ``ROIAlign(features, rois)`` with its five attributes."""
    return (em.op("ROIAlign", [em.tensor(ins[0]), em.tensor(ins[1])], _out(eqn), attrs=attrs),)


@rule("named:BoundingBoxDecode")
def _bounding_box_decode(em, eqn, ins, max_shape, means, stds, wh_ratio_clip):
    """MindSpore's ``BoundingBoxDecode(anchor_box, deltas)`` with its attributes (as MindSpore 2.10
    writes it: ``tests/fixtures/mindir/box_decode.mindir``)."""
    if any(v.aval.dtype != np.float32 for v in eqn.invars):
        return None
    attrs = {"means": tuple(means), "stds": tuple(stds), "wh_ratio_clip": float(wh_ratio_clip),
             "input_names": ["anchor_box", "deltas"], "output_names": ["bboxes"]}
    if max_shape is not None:
        attrs["max_shape"] = tuple(int(v) for v in max_shape)
    return (em.op("BoundingBoxDecode", [em.tensor(ins[0]), em.tensor(ins[1])], _out(eqn), attrs=attrs),)
