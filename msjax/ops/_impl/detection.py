"""Object-detection ops: ``BoundingBoxEncode``, ``BoundingBoxDecode``, ``IOU``
(``ops.iou``), ``NMSWithMask``, ``CheckValid`` and the RoI ops ``ROIAlign`` and
``CropAndResize``, following MindSpore 2.10's CPU kernels.

Conventions of those kernels, kept here: boxes are ``(x1, y1, x2, y2)``; the box
codecs and ``IOU`` measure widths as ``x2 - x1 + 1`` (pixel boxes) while
``NMSWithMask`` uses ``x2 - x1``; ``IOU`` returns ``(M, N)`` for ``N`` anchors and
``M`` ground truths, ``'iof'`` dividing by the ground-truth area; ``NMSWithMask``
sorts by descending score with the kernel's bitonic network (``bitonic.nms_order``:
equal and NaN scores in its order, not a stable sort's), returns ``arange(N)`` as the
indices of the sorted boxes, and suppresses a box whose IoU (in the boxes' dtype, the
threshold rounded to it) with a kept, higher-scoring box is strictly greater than the
threshold.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.registry import op
from ..._core.tensor import rounded
from . import cpu_kernel_math, libm_expf
from ._util import Tensor, arr, wrap
from .activation import F16_32, check_dtype
from .bitonic import nms_order
from .export_names import exported


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
    ``|log(wh_ratio_clip)|`` and the coordinates to ``[0, max_shape]`` (height, width).

    float32 on the CPU computes as MindSpore 2.10's CPU kernel, bit for bit: each step rounded to
    float32 (no fused multiply-add) and the C library's ``expf`` (``libm_expf``), where XLA's ``exp``
    differs in the last bit (2% of FasterRCNN's boxes); the MINDIR writer writes MindSpore's
    ``BoundingBoxDecode`` node."""
    _check_decode(max_shape, means, stds, wh_ratio_clip)
    p = _boxes("BoundingBoxDecode", "anchor_box", anchor_box)
    d = _boxes("BoundingBoxDecode", "deltas", deltas)
    if p.shape != d.shape:
        raise ValueError("For 'BoundingBoxDecode', 'anchor_box' and 'deltas' must have the same shape, "
                         f"but got {list(p.shape)} and {list(d.shape)}.")
    # one named kernel: the MINDIR writer writes it as MindSpore's BoundingBoxDecode node
    return wrap(exported("BoundingBoxDecode", _decode, p, d, max_shape=None if max_shape is None else
                         tuple(int(v) for v in max_shape), means=tuple(float(v) for v in means),
                         stds=tuple(float(v) for v in stds), wh_ratio_clip=float(wh_ratio_clip)))


def _decode(p, d, max_shape, means, stds, wh_ratio_clip):
    """MindSpore's kernel, step by step: ``expf`` where MindSpore's CPU kernel calls it, and the
    products that meet an add rounded on their own (``_mul32``)."""
    kernel = cpu_kernel_math.applies(d)
    exp = libm_expf.expf if kernel else jnp.exp

    def mul(a, b):
        return _mul32(a, b) if kernel else a * b
    d = mul(d, jnp.asarray(stds, d.dtype)) + jnp.asarray(means, d.dtype)
    ratio = abs(float(np.log(wh_ratio_clip)))
    dw, dh = jnp.clip(d[:, 2], -ratio, ratio), jnp.clip(d[:, 3], -ratio, ratio)
    px, py, pw, ph = _centre_size(p)
    gx, gy = px + mul(pw, d[:, 0]), py + mul(ph, d[:, 1])
    gw, gh = pw * exp(dw), ph * exp(dh)
    x1, y1 = gx - gw * 0.5 + 0.5, gy - gh * 0.5 + 0.5
    x2, y2 = gx + gw * 0.5 - 0.5, gy + gh * 0.5 - 0.5
    if max_shape is not None:
        x1, x2 = (jnp.clip(v, 0, max_shape[1]) for v in (x1, x2))
        y1, y2 = (jnp.clip(v, 0, max_shape[0]) for v in (y1, y2))
    return jnp.stack([x1, y1, x2, y2], axis=1).astype(p.dtype)


def _overlaps(a, g, plus, mode="iou", xp=jnp):
    """(M, N) intersections of ground truths ``g`` with anchors ``a`` over the union
    (``'iou'``) or the ground-truth area (``'iof'``), in ``xp`` (``jax.numpy`` or NumPy)."""
    def area(b):
        return (b[:, 2] - b[:, 0] + plus) * (b[:, 3] - b[:, 1] + plus)
    iw = xp.maximum(xp.minimum(g[:, None, 2], a[None, :, 2]) - xp.maximum(g[:, None, 0], a[None, :, 0]) + plus, 0)
    ih = xp.maximum(xp.minimum(g[:, None, 3], a[None, :, 3]) - xp.maximum(g[:, None, 1], a[None, :, 1]) + plus, 0)
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
    # one named kernel: the MINDIR writer writes it as MindSpore's NMSWithMask node
    return tuple(wrap(a) for a in exported("NMSWithMask", _nms, b, iou_threshold=float(iou_threshold)))


def _nms(b, iou_threshold):
    """The kernel's sort, IoU (in the boxes' dtype) and suppression; concrete boxes (PyNative) on
    the host in NumPy, traced ones (graphs, the MINDIR writer) in JAX."""
    n = b.shape[0]
    host = not isinstance(b, jax.core.Tracer)
    xp = np if host else jnp
    if host:
        b = np.asarray(b)
    boxes = b[nms_order(b[:, 4])]
    with np.errstate(all="ignore"):
        over = _overlaps(boxes[:, :4], boxes[:, :4], 0.0, xp=xp) > np.asarray(iou_threshold, b.dtype)
    later = xp.arange(n)[None, :] > xp.arange(n)[:, None]
    keep = xp.ones((n,), bool)
    if host:
        for i in range(n):
            if keep[i]:
                keep &= ~(over[i] & later[i])
        return jnp.asarray(boxes), jnp.arange(n, dtype=jnp.int32), jnp.asarray(keep)

    def body(i, keep):
        return keep & ~(keep[i] & over[i] & later[i])

    keep = jax.lax.fori_loop(0, n, body, keep)
    return boxes, jnp.arange(n, dtype=jnp.int32), keep


_CHECK_VALID_TYPES = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int16), np.dtype(np.uint8))


@op("prim_check_valid", primitive="CheckValid", family="detection")
def check_valid(bboxes, img_metas):
    """``ops.CheckValid()(bboxes, img_metas)``: ``(N,)`` bool, True where box ``(x1, y1, x2, y2)``
    has ``x1, y1 >= 0``, ``x2 <= width * ratio - 1`` and ``y2 <= height * ratio - 1`` for
    ``img_metas = (height, width, ratio)`` (MindSpore's CPU kernel; the bound is computed in
    float64). MindSpore 2.10 marks the Primitive deprecated; msjax does not print its warning."""
    b = _boxes("CheckValid", "bboxes", bboxes)
    m = arr(img_metas)
    for arg, a in (("bboxes", b), ("img_metas", m)):
        check_dtype("CheckValid", a, _CHECK_VALID_TYPES, arg)
    if m.ndim != 1 or m.shape[0] < 3:
        raise ValueError(f"For 'CheckValid', the shape of 'img_metas' must be (3,), but got {list(m.shape)}.")
    hi = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32
    m = m.astype(hi)
    width, height = m[1] * m[2] - 1.0, m[0] * m[2] - 1.0
    ok = (b[:, 0] >= 0) & (b[:, 1] >= 0) & (b[:, 2].astype(hi) <= width) & (b[:, 3].astype(hi) <= height)
    return wrap(ok)


def _check_roi_align(pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1):
    for arg, v in (("pooled_height", pooled_height), ("pooled_width", pooled_width), ("sample_num", sample_num),
                   ("roi_end_mode", roi_end_mode)):
        _check_type("ROIAlign", arg, v, int)
    _check_type("ROIAlign", "spatial_scale", spatial_scale, float)
    if roi_end_mode not in (0, 1):
        raise ValueError(f"For 'ROIAlign', the 'roi_end_mode' must be in range of [0, 1], but got {roi_end_mode}.")


def _roi_grid(start, bin_size, pooled, grid):
    """Sample coordinates ``(R, pooled, grid)`` of the bins along one axis, as the kernel rounds them:
    ``(start + p * bin) + ((g + 0.5) * bin) / grid``, each product and quotient rounded."""
    p = jnp.arange(pooled, dtype=start.dtype)[None, :, None]
    g = jnp.arange(grid, dtype=start.dtype)[None, None, :]
    size = bin_size[:, None, None]
    return start[:, None, None] + _mul32(p, size) + _div32(_mul32(g + 0.5, size), grid)


def _mul32(a, b):
    """``a * b`` in float32, rounded before any addition: XLA's CPU compiler contracts ``a * b + c``
    into one fused multiply-add (also through a float64 product rounded to float32, which LLVM folds
    back into the float32 product) where MindSpore's kernels round the product (``rounded``)."""
    return rounded(jnp.asarray(a, jnp.float32) * jnp.asarray(b, jnp.float32))


def _div32(a, b):
    """``a / b`` in float32, one IEEE division per element: XLA multiplies by the reciprocal of a
    constant or broadcast divisor."""
    a = jnp.asarray(a, jnp.float32)
    return a / jax.lax.optimization_barrier(jnp.broadcast_to(jnp.asarray(b, jnp.float32), a.shape))


def _bilinear_axis(c, size):
    """MindSpore's ``bilinear_interpolate`` along one axis: low/high indices, their weights,
    and whether the sample lies inside ``[-1, size]``."""
    inside = (c >= -1.0) & (c <= size)
    c = jnp.maximum(c, 0.0)
    low = jnp.floor(c).astype(jnp.int32)
    top = low >= size - 1
    low = jnp.where(top, size - 1, low)
    high = jnp.where(top, size - 1, low + 1)
    c = jnp.where(top, low.astype(c.dtype), c)
    frac = c - low.astype(c.dtype)
    return low, high, 1.0 - frac, frac, inside


@op("prim_roi_align", primitive="ROIAlign", family="detection",
    prim_args=("pooled_height", "pooled_width", "spatial_scale", "sample_num", "roi_end_mode"),
    prim_check=_check_roi_align)
def roi_align(features, rois, pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1):
    """``ops.ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1)(features, rois)``
    -> ``(R, C, pooled_height, pooled_width)``, MindSpore's CPU kernel: each bin averages
    ``sample_num x sample_num`` bilinear samples (samples outside ``[-1, size]`` count as 0),
    ``roi_end_mode=1`` shifts the box end by one pixel, ``roi_end_mode=0`` forces boxes to at
    least 1x1; ``rois`` rows are ``(image_index, x1, y1, x2, y2)`` (or ``(x1, y1, x2, y2)``
    for image 0). A row whose ``x1`` and ``x2`` are both within 0.001 of 0 is skipped by
    MindSpore's kernel, which leaves that output memory unwritten (stale values); msjax gives zeros.
    float16 is computed in float32 and rounded once. The gradient flows to ``features`` only
    (``rois`` gets zeros, as MindSpore's bprop); as MindSpore's ``ROIAlignGrad`` kernel, it is the
    gradient of the ``roi_end_mode=1`` geometry whatever ``roi_end_mode`` is.

    Difference from MindSpore: ``sample_num <= 0`` (a grid size that depends on each box) is
    only supported outside a compiled graph, where the box sizes are known."""
    _check_roi_align(pooled_height, pooled_width, spatial_scale, sample_num, roi_end_mode)
    if not isinstance(features, Tensor) or not isinstance(rois, Tensor):
        raise TypeError("For 'ROIAlign', 'features' and 'rois' must be Tensors.")
    x = check_dtype("ROIAlign", features._data, F16_32, "features")
    r = check_dtype("ROIAlign", rois._data, F16_32, "rois")
    if x.ndim != 4:
        raise ValueError(f"For 'ROIAlign', the dimension of 'features' must be 4, but got {x.ndim}.")
    if r.ndim != 2 or r.shape[1] not in (4, 5):
        raise ValueError(f"For 'ROIAlign', the shape of 'rois' must be (rois_n, 5), but got {list(r.shape)}.")
    n = x.shape[0]
    if r.shape[1] == 5 and not isinstance(r, jax.core.Tracer):
        idx = np.asarray(r[:, 0], np.float32)
        bad = (idx < 0) | (idx > n - 1)
        if bad.any():
            raise RuntimeError(f"image_index {float(idx[bad][0])} must be a number in [0,{n - 1}]")
    if sample_num > 0:      # one named kernel: the MINDIR writer writes it as MindSpore's ROIAlign node
        return wrap(exported("ROIAlign", _roi_align_node, x, r, pooled_height=int(pooled_height),
                             pooled_width=int(pooled_width), spatial_scale=float(spatial_scale),
                             sample_num=int(sample_num), roi_end_mode=int(roi_end_mode)))
    # a grid per box needs the box values
    return wrap(_roi_align.__wrapped__(x, r, (pooled_height, pooled_width), float(spatial_scale), sample_num,
                                       roi_end_mode))


def _roi_align_node(x, r, pooled_height, pooled_width, spatial_scale, sample_num, roi_end_mode):
    return _roi_align(x, r, (pooled_height, pooled_width), spatial_scale, sample_num, roi_end_mode)


@functools.partial(jax.jit, static_argnums=(2, 3, 4, 5))
def _roi_align(x, r, pooled, spatial_scale, sample_num, roi_end_mode):
    r = jax.lax.stop_gradient(r).astype(jnp.float32)
    if r.shape[1] == 5:
        box, batch = r[:, 1:], jnp.rint(r[:, 0] + 7e-5).astype(jnp.int32)
    else:
        box, batch = r, jnp.zeros((r.shape[0],), jnp.int32)
    out = _roi_align_nhwc(x, box, batch, pooled, spatial_scale, sample_num, roi_end_mode)
    if roi_end_mode == 0:   # MindSpore's ROIAlignGrad always uses roi_end_mode=1's geometry
        grad_path = _roi_align_nhwc(x, box, batch, pooled, spatial_scale, sample_num, 1)
        out = jax.lax.stop_gradient(out) + (grad_path - jax.lax.stop_gradient(grad_path))   # out's bits
    skip = (jnp.abs(box[:, 0]) < 1e-3) & (jnp.abs(box[:, 2]) < 1e-3)
    out = jnp.where(skip[:, None, None, None], 0.0, out)
    return jnp.moveaxis(out, -1, 1).astype(x.dtype)


def _roi_align_nhwc(x, box, batch, pooled, spatial_scale, sample_num, roi_end_mode):
    """``(R, PH, PW, C)`` float32 ROIAlign of the boxes ``(x1, y1, x2, y2)``."""
    scale = np.float32(spatial_scale)
    start_w, start_h = _mul32(box[:, 0], scale), _mul32(box[:, 1], scale)
    roi_w = _mul32(box[:, 2] + roi_end_mode, scale) - start_w
    roi_h = _mul32(box[:, 3] + roi_end_mode, scale) - start_h
    if roi_end_mode == 0:
        roi_w, roi_h = jnp.maximum(roi_w, 1.0), jnp.maximum(roi_h, 1.0)
    bin_h, bin_w = _div32(roi_h, pooled[0]), _div32(roi_w, pooled[1])
    if sample_num > 0:
        return _roi_align_rows(x, batch, start_h, start_w, bin_h, bin_w, pooled, sample_num, sample_num)
    if isinstance(bin_h, jax.core.Tracer):
        raise NotImplementedError("ROIAlign with sample_num <= 0 (a sampling grid per box) is not supported "
                                  "inside a compiled graph by msjax; pass sample_num > 0.")
    # each box's grid is floor(bin size); an empty grid divides 0 by 0 (NaN), as MindSpore
    gh, gw = np.floor(np.asarray(bin_h)).astype(int), np.floor(np.asarray(bin_w)).astype(int)
    rows = [_roi_align_rows(x, batch[i:i + 1], start_h[i:i + 1], start_w[i:i + 1], bin_h[i:i + 1],
                            bin_w[i:i + 1], pooled, int(gh[i]), int(gw[i])) for i in range(box.shape[0])]
    return jnp.concatenate(rows) if rows else jnp.zeros((0, *pooled, x.shape[1]), jnp.float32)


@functools.partial(jax.jit, static_argnums=(6, 7, 8))
def _roi_align_rows(x, batch, start_h, start_w, bin_h, bin_w, pooled, grid_h, grid_w):
    """``(R, PH, PW, C)`` float32: the mean of each bin's ``grid_h x grid_w`` bilinear samples, in
    MindSpore's CPU kernel's order: per sample ``((w1 v1 + w2 v2) + w3 v3) + w4 v4`` with the weights
    ``w1 = hy hx, w2 = hy lx, w3 = ly hx, w4 = ly lx`` and every product rounded, added to the bin's
    running sum from 0 row by row of the grid, the sum divided by the sample count."""
    _, _, h, w = x.shape
    ys = _roi_grid(start_h, bin_h, pooled[0], max(grid_h, 1))          # (R, PH, GH)
    xs = _roi_grid(start_w, bin_w, pooled[1], max(grid_w, 1))          # (R, PW, GW)
    y0, y1, hy, ly, in_y = _bilinear_axis(ys, h)
    x0, x1, hx, lx, in_x = _bilinear_axis(xs, w)
    img = jnp.moveaxis(x.astype(jnp.float32), 1, -1)                   # (N, H, W, C)
    b = batch[:, None, None]
    total = jnp.zeros((batch.shape[0], *pooled, x.shape[1]), jnp.float32)
    for iy in range(max(grid_h, 1)):
        for ix in range(max(grid_w, 1)):
            def at(yi, xi):   # (R, PH, PW, C)
                return img[b, yi[:, :, iy, None], xi[:, None, :, ix]]

            def weight(wy, wx):   # (R, PH, PW, 1)
                return _mul32(wy[:, :, iy, None], wx[:, None, :, ix])[..., None]
            val = _mul32(weight(hy, hx), at(y0, x0)) + _mul32(weight(hy, lx), at(y0, x1))
            val = val + _mul32(weight(ly, hx), at(y1, x0))
            val = val + _mul32(weight(ly, lx), at(y1, x1))
            inside = (in_y[:, :, iy, None] & in_x[:, None, :, ix])[..., None]
            total = jnp.where(inside, total + val, total)
    if grid_h <= 0 or grid_w <= 0:
        return jnp.full_like(total, jnp.nan)
    return _div32(total, np.float32(grid_h) * np.float32(grid_w))


def _check_crop_and_resize(method="bilinear", extrapolation_value=0.0):
    _check_type("CropAndResize", "method", method, str)
    if method not in ("bilinear", "nearest", "bilinear_v2"):
        raise ValueError(f"For 'CropAndResize', the 'method' must be str and must be in "
                         f"['bilinear', 'nearest', 'bilinear_v2'], but got: {method}.")
    _check_type("CropAndResize", "extrapolation_value", extrapolation_value, float)


@op("prim_crop_and_resize", primitive="CropAndResize", prim_args=("method", "extrapolation_value"),
    family="detection", prim_check=_check_crop_and_resize)
def crop_and_resize(x, boxes, box_index, crop_size, method="bilinear", extrapolation_value=0.0):
    """``ops.CropAndResize(method, extrapolation_value)(x, boxes, box_index, crop_size)``: crops of the
    NHWC image ``x`` at the normalised boxes ``(y1, x1, y2, x2)``, resized to ``crop_size`` ->
    float32 ``(num_boxes, crop_h, crop_w, depth)``. As MindSpore's CPU kernel: ``'bilinear'`` and
    ``'nearest'`` sample ``y1 * (H - 1) + i * (y2 - y1) * (H - 1) / (crop_h - 1)`` and write
    ``extrapolation_value`` outside the image; ``'bilinear_v2'`` resizes the integer box
    ``trunc(y1 * H) ... trunc(y2 * H)`` with half-pixel centres. Gradients: ``'bilinear'`` to the
    image and the boxes; the other methods give zeros (as MindSpore).

    Difference from MindSpore: where ``'bilinear_v2'`` reads past the image's last row or column
    (a box beyond 1.0) MindSpore reads out-of-bounds memory; msjax clamps to the edge."""
    _check_crop_and_resize(method, extrapolation_value)
    for arg, t in (("x", x), ("boxes", boxes), ("box_index", box_index)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For 'CropAndResize', the '{arg}' must be a Tensor, but got {type(t).__name__}.")
    img, bx, bi = x._data, boxes._data, box_index._data
    if img.ndim != 4:
        raise ValueError(f"For 'CropAndResize', the dimension of 'x' must be 4, but got {img.ndim}.")
    if bx.ndim != 2 or bx.shape[1] != 4:
        raise ValueError(f"For 'CropAndResize', the shape of 'boxes' must be (num_boxes, 4), but got {list(bx.shape)}.")
    if bi.ndim != 1 or bi.shape[0] != bx.shape[0]:
        raise ValueError("For 'CropAndResize', the shape of 'box_index' must be (num_boxes,), but got "
                         f"{list(bi.shape)}.")
    if not jnp.issubdtype(bx.dtype, jnp.floating) or not jnp.issubdtype(bi.dtype, jnp.integer):
        raise TypeError("For 'CropAndResize', 'boxes' must be a float Tensor and 'box_index' an int Tensor.")
    if not isinstance(crop_size, tuple) or len(crop_size) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in crop_size):
        raise TypeError(f"For 'CropAndResize', the 'crop_size' must be a tuple of two ints, but got {crop_size}.")
    ch, cw = crop_size
    if ch <= 0 or cw <= 0:
        raise ValueError(f"For 'CropAndResize', the value of 'crop_size' must be positive, but got {crop_size}.")
    batch = img.shape[0]
    if not isinstance(bi, jax.core.Tracer):
        bad = np.asarray((bi < 0) | (bi >= batch))
        if bad.any():
            raise ValueError(f"For 'CropAndResize', the value of box_index must be in [0, {batch}), but got "
                             f"[{int(np.asarray(bi)[bad][0])}].")
    return wrap(_crop_and_resize(img, bx, bi, crop_size, method, float(extrapolation_value)))


@functools.partial(jax.jit, static_argnums=(3, 4, 5))
def _crop_and_resize(img, bx, bi, crop_size, method, extrapolation_value):
    ch, cw = crop_size
    _, h, w, _ = img.shape
    im = img.astype(jnp.float32)
    bx = bx.astype(jnp.float32)
    if method != "bilinear":
        im, bx = jax.lax.stop_gradient(im), jax.lax.stop_gradient(bx)
    y1, x1, y2, x2 = (bx[:, k] for k in range(4))
    b = bi.astype(jnp.int32)[:, None, None]
    if method == "bilinear_v2":
        def axis(lo_, hi_, size, out):
            lo_i, hi_i = (jnp.trunc(v * size).astype(jnp.int32) for v in (lo_, hi_))
            n = jnp.maximum(hi_i - lo_i + 1, 1)
            p = (jnp.arange(out, dtype=jnp.float32)[None, :] + 0.5) * (n[:, None] / out) - 0.5
            top = jnp.clip(jnp.floor(p).astype(jnp.int32), 0, n[:, None] - 1)
            bot = jnp.clip(jnp.ceil(p).astype(jnp.int32), 0, n[:, None] - 1)
            frac = p - top
            lo_i = lo_i[:, None]
            return (jnp.clip(lo_i + top, 0, size - 1), jnp.clip(lo_i + bot, 0, size - 1), frac)
        yt, yb, fy = axis(y1, y2, h, ch)
        xl, xr, fx = axis(x1, x2, w, cw)
        fy, fx = fy[:, :, None, None], fx[:, None, :, None]
        yt, yb, xl, xr = yt[:, :, None], yb[:, :, None], xl[:, None, :], xr[:, None, :]
        out = (im[b, yt, xl] * (1 - fy) * (1 - fx) + im[b, yb, xr] * fy * fx
               + im[b, yt, xr] * (1 - fy) * fx + im[b, yb, xl] * fy * (1 - fx))
        return out

    def target(lo_, hi_, size, out):
        if out > 1:
            return lo_[:, None] * (size - 1) + jnp.arange(out, dtype=jnp.float32)[None, :] * (
                (hi_ - lo_) * (size - 1) / (out - 1))[:, None]
        return (0.5 * (lo_ + hi_) + (size - 1))[:, None]   # MindSpore's kernel adds (size - 1) here
    ty, tx = target(y1, y2, h, ch), target(x1, x2, w, cw)
    outside = ((ty < 0) | (ty > h - 1))[:, :, None] | ((tx < 0) | (tx > w - 1))[:, None, :]
    tyc, txc = jnp.clip(ty, 0, h - 1), jnp.clip(tx, 0, w - 1)
    if method == "nearest":
        yi, xi = jnp.round(tyc).astype(jnp.int32), jnp.round(txc).astype(jnp.int32)
        out = im[b, yi[:, :, None], xi[:, None, :]]
    else:
        top, left = jnp.floor(tyc), jnp.floor(txc)
        ti, bi_, li, ri = (v.astype(jnp.int32) for v in (top, jnp.ceil(tyc), left, jnp.ceil(txc)))
        fy, fx = (tyc - top)[:, :, None, None], (txc - left)[:, None, :, None]
        ti, bi_, li, ri = ti[:, :, None], bi_[:, :, None], li[:, None, :], ri[:, None, :]
        tl, tr, bl, br = im[b, ti, li], im[b, ti, ri], im[b, bi_, li], im[b, bi_, ri]
        t_, bo = tl + (tr - tl) * fx, bl + (br - bl) * fx
        out = t_ + (bo - t_) * fy
    return jnp.where(outside[..., None], jnp.float32(extrapolation_value), out)
