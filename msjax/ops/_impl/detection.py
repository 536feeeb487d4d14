"""Object-detection ops: ``BoundingBoxEncode``, ``BoundingBoxDecode``, ``IOU``
(``ops.iou``) and ``NMSWithMask``, following MindSpore 2.10's CPU kernels.

Conventions of those kernels, kept here: boxes are ``(x1, y1, x2, y2)``; the box
codecs and ``IOU`` measure widths as ``x2 - x1 + 1`` (pixel boxes) while
``NMSWithMask`` uses ``x2 - x1``; ``IOU`` returns ``(M, N)`` for ``N`` anchors and
``M`` ground truths, ``'iof'`` dividing by the ground-truth area; ``NMSWithMask``
sorts by descending score (equal scores: the later box first, as MindSpore's CPU
sort left them in the cases we recorded), returns ``arange(N)`` as the indices of
the sorted boxes, and suppresses a box whose IoU with a kept, higher-scoring box
is strictly greater than the threshold.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.registry import op
from ._util import Tensor, arr, wrap
from .activation import F16_32, check_dtype


def _check_type(name, arg, value, want):
    if not isinstance(value, want) or isinstance(value, bool):
        raise TypeError(f"For '{name}', the type of '{arg}' should be '{want.__name__}', but got type "
                        f"'{type(value).__name__}'.")


def _check_floats(name, arg, values):
    _check_type(name, arg, values, tuple)
    for i, v in enumerate(values):
        _check_type(name, f"{arg}[{i}]", v, float)
    if len(values) != 4:
        raise ValueError(f"For '{name}', the '{arg} len' must be equal to 4, but got {len(values)}.")


def _check_encode(means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    _check_floats("BoundingBoxEncode", "means", means)
    _check_floats("BoundingBoxEncode", "stds", stds)


def _check_decode(max_shape=None, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    _check_floats("BoundingBoxDecode", "means", means)
    _check_floats("BoundingBoxDecode", "stds", stds)
    _check_type("BoundingBoxDecode", "wh_ratio_clip", wh_ratio_clip, float)
    if max_shape is not None:
        _check_type("BoundingBoxDecode", "max_shape", max_shape, tuple)
        if len(max_shape) != 2:
            raise ValueError(f"For 'BoundingBoxDecode', the 'max_shape len' must be equal to 2, but got "
                             f"{len(max_shape)}.")


def _check_iou(mode="iou"):
    if mode not in ("iou", "iof"):
        raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")


def _check_nms(iou_threshold=0.5):
    _check_type("NMSWithMask", "iou_threshold", iou_threshold, float)


def _boxes(name, arg, x, width=4):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got {type(x).__name__}.")
    a = x._data
    if a.ndim != 2 or a.shape[1] != width:
        raise ValueError(f"For '{name}', the shape of '{arg}' must be (n, {width}), but got {list(a.shape)}.")
    return a


def _centre_size(b):
    w = b[:, 2] - b[:, 0] + 1.0
    h = b[:, 3] - b[:, 1] + 1.0
    return (b[:, 0] + b[:, 2]) * 0.5, (b[:, 1] + b[:, 3]) * 0.5, w, h


@op("prim_bounding_box_encode", primitive="BoundingBoxEncode", prim_args=("means", "stds"), family="detection",
    prim_check=_check_encode)
def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    """``ops.BoundingBoxEncode(means, stds)(anchor_box, groundtruth_box)``: the deltas
    ``((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh / ph))``, normalised by
    ``means``/``stds``."""
    _check_encode(means, stds)
    p = _boxes("BoundingBoxEncode", "anchor_box", anchor_box)
    g = _boxes("BoundingBoxEncode", "groundtruth_box", groundtruth_box)
    if p.shape != g.shape:
        raise ValueError("For 'BoundingBoxEncode', 'anchor_box' and 'groundtruth_box' must have the same shape, "
                         f"but got {list(p.shape)} and {list(g.shape)}.")
    px, py, pw, ph = _centre_size(p)
    gx, gy, gw, gh = _centre_size(g)
    d = jnp.stack([(gx - px) / pw, (gy - py) / ph, jnp.log(gw / pw), jnp.log(gh / ph)], axis=1)
    return wrap(((d - jnp.asarray(means, d.dtype)) / jnp.asarray(stds, d.dtype)).astype(p.dtype))


@op("prim_bounding_box_decode", primitive="BoundingBoxDecode", prim_args=("max_shape", "means", "stds",
                                                                          "wh_ratio_clip"), family="detection",
    prim_check=_check_decode)
def bounding_box_decode(anchor_box, deltas, max_shape=None, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip=0.016):
    """``ops.BoundingBoxDecode(max_shape, means, stds, wh_ratio_clip)(anchor_box, deltas)``:
    the inverse of ``BoundingBoxEncode``, the log-size deltas clipped to
    ``|log(wh_ratio_clip)|`` and the coordinates to ``[0, max_shape]`` (height, width)."""
    _check_decode(max_shape, means, stds, wh_ratio_clip)
    p = _boxes("BoundingBoxDecode", "anchor_box", anchor_box)
    d = _boxes("BoundingBoxDecode", "deltas", deltas)
    if p.shape != d.shape:
        raise ValueError("For 'BoundingBoxDecode', 'anchor_box' and 'deltas' must have the same shape, "
                         f"but got {list(p.shape)} and {list(d.shape)}.")
    d = d * jnp.asarray(stds, d.dtype) + jnp.asarray(means, d.dtype)
    ratio = abs(float(np.log(wh_ratio_clip)))
    dw, dh = jnp.clip(d[:, 2], -ratio, ratio), jnp.clip(d[:, 3], -ratio, ratio)
    px, py, pw, ph = _centre_size(p)
    gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
    gw, gh = pw * jnp.exp(dw), ph * jnp.exp(dh)
    x1, y1 = gx - gw * 0.5 + 0.5, gy - gh * 0.5 + 0.5
    x2, y2 = gx + gw * 0.5 - 0.5, gy + gh * 0.5 - 0.5
    if max_shape is not None:
        x1, x2 = (jnp.clip(v, 0, max_shape[1]) for v in (x1, x2))
        y1, y2 = (jnp.clip(v, 0, max_shape[0]) for v in (y1, y2))
    return wrap(jnp.stack([x1, y1, x2, y2], axis=1).astype(p.dtype))


def _overlaps(a, g, plus, mode="iou"):
    """(M, N) intersections of ground truths ``g`` with anchors ``a`` over the union
    (``'iou'``) or the ground-truth area (``'iof'``)."""
    def area(b):
        return (b[:, 2] - b[:, 0] + plus) * (b[:, 3] - b[:, 1] + plus)
    iw = jnp.maximum(jnp.minimum(g[:, None, 2], a[None, :, 2]) - jnp.maximum(g[:, None, 0], a[None, :, 0]) + plus, 0)
    ih = jnp.maximum(jnp.minimum(g[:, None, 3], a[None, :, 3]) - jnp.maximum(g[:, None, 1], a[None, :, 1]) + plus, 0)
    inter = iw * ih
    if mode == "iof":
        return inter / area(g)[:, None]
    return inter / (area(g)[:, None] + area(a)[None, :] - inter)


@op("iou", primitive="IOU", prim_args=("mode",), family="detection", prim_check=_check_iou)
def iou(anchor_boxes, gt_boxes, mode="iou"):
    """``ops.iou(anchor_boxes, gt_boxes, mode='iou')`` / ``ops.IOU(mode)``: ``(M, N)``
    overlaps of the ``M`` ground-truth boxes with the ``N`` anchors."""
    _check_iou(mode)
    a = check_dtype("IOU", _boxes("IOU", "anchor_boxes", anchor_boxes), F16_32, "anchor_boxes")
    g = check_dtype("IOU", _boxes("IOU", "gt_boxes", gt_boxes), F16_32, "gt_boxes")
    return wrap(_overlaps(a.astype(jnp.float32), g.astype(jnp.float32), 1.0, mode).astype(a.dtype))


@op("prim_nms_with_mask", primitive="NMSWithMask", prim_args=("iou_threshold",), family="detection",
    prim_check=_check_nms)
def nms_with_mask(bboxes, iou_threshold=0.5):
    """``ops.NMSWithMask(iou_threshold=0.5)(bboxes)`` -> ``(sorted boxes, indices, mask)``."""
    _check_nms(iou_threshold)
    b = check_dtype("NMSWithMask", _boxes("NMSWithMask", "bboxes", bboxes, 5), F16_32, "bboxes")
    n = b.shape[0]
    if n <= 0:
        raise ValueError(f"For 'NMSWithMask', the 'bboxes.shape[0]' must be positive, but got {n}.")
    order = jnp.argsort(b[:, 4], stable=True)[::-1]
    boxes = b[order]
    over = _overlaps(boxes[:, :4].astype(jnp.float32), boxes[:, :4].astype(jnp.float32), 0.0) > iou_threshold
    later = jnp.arange(n)[None, :] > jnp.arange(n)[:, None]

    def body(i, keep):
        return keep & ~(keep[i] & over[i] & later[i])

    keep = jax.lax.fori_loop(0, n, body, jnp.ones((n,), bool))
    return wrap(boxes), wrap(jnp.arange(n, dtype=jnp.int32)), wrap(keep)
