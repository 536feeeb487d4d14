"""Segmentation surface-distance metrics (HausdorffDistance, MeanSurfaceDistance,
RootMeanSquareDistance) and OcclusionSensitivity. The morphology (binary erosion
with the cross-shaped element, distance transforms) is done here in numpy, with
the results scipy.ndimage gives MindSpore."""
from __future__ import annotations

import numpy as np

from ..._core.tensor import Tensor
from .metric import Metric, check_string, check_value_type, rearrange_inputs

__all__ = ["HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance", "OcclusionSensitivity"]

_METRICS = ["euclidean", "chessboard", "taxicab"]


def binary_erosion(mask):
    """Erosion by the connectivity-1 cross; outside the array counts as False."""
    mask = np.asarray(mask, bool)
    padded = np.pad(mask, 1, constant_values=False)
    out = mask.copy()
    for ax in range(mask.ndim):
        for shift in (-1, 1):
            sl = [slice(1, -1)] * mask.ndim
            sl[ax] = slice(1 + shift, padded.shape[ax] - 1 + shift)
            out &= padded[tuple(sl)]
    return out


def _surface_distance(pred_edges, edges, metric):
    """Distance from every True pixel of ``pred_edges`` to the nearest True pixel of ``edges``."""
    if not np.any(pred_edges):
        return np.array([])
    q = np.argwhere(pred_edges)
    if not np.any(edges):
        return np.full(len(q), np.inf)
    t = np.argwhere(edges)
    out = np.empty(len(q))
    for s in range(0, len(q), 1024):
        d = np.abs(q[s:s + 1024, None, :] - t[None, :, :]).astype(np.float64)
        if metric == "euclidean":
            dist = np.sqrt((d ** 2).sum(-1))
        elif metric == "chessboard":
            dist = d.max(-1)
        else:
            dist = d.sum(-1)
        out[s:s + 1024] = dist.min(1)
    if metric != "euclidean":
        out = out.astype(np.int32)
    return out


def _label_masks(name, inputs, convert):
    if len(inputs) != 3:
        raise ValueError(f"For '{name}.update', it needs 3 inputs (predicted value, true value, label index), but got "
                         f"{len(inputs)}.")
    y_pred = convert(inputs[0])
    y = convert(inputs[1])
    label_idx = inputs[2]
    if not isinstance(label_idx, (int, float)):
        err = TypeError if name == "RootMeanSquareDistance" else ValueError
        raise err(f"For '{name}.update', the label index (input[2]) must be int or float, but got "
                  f"{type(label_idx)}.")
    if label_idx not in y_pred and label_idx not in y:
        raise ValueError(f"For '{name}.update', the label index (input[2]) must be in predicted value (input[0]) or "
                         f"true value (input[1]), but {label_idx} is not.")
    if y_pred.size == 0 or y_pred.shape != y.shape:
        raise ValueError(f"For '{name}.update', the size of predicted value (input[0]) and true value (input[1]) must "
                         "be greater than 0, in addition to that, predicted value and true value should have the "
                         f"same shape, but got predicted value size: {y_pred.size}, shape: {y_pred.shape}, true value "
                         f"size: {y.size}, shape: {y.shape}.")
    return y_pred == label_idx, y == label_idx


class HausdorffDistance(Metric):
    """(Percentile) Hausdorff distance between the surfaces of two label masks."""

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False, crop=True):
        super().__init__()
        self.distance_metric = check_string(check_value_type("distance_metric", distance_metric, [str]), _METRICS,
                                            "distance_metric")
        self.percentile = percentile if percentile is None else check_value_type("percentile", percentile, [float])
        self.directed = directed if directed is None else check_value_type("directed", directed, [bool])
        self.crop = crop if crop is None else check_value_type("crop", crop, [bool])
        self.clear()

    def clear(self):
        self.y_pred_edges = 0
        self.y_edges = 0
        self._is_update = False

    def _edges(self, y_pred, y):
        if self.crop:
            both = y_pred | y
            if not np.any(both):
                return np.zeros_like(y_pred), np.zeros_like(y)
            nz = np.nonzero(both)
            sl = tuple(slice(int(i.min()), int(i.max()) + 1) for i in nz)
            y_pred, y = np.squeeze(y_pred[sl]), np.squeeze(y[sl])
        return binary_erosion(y_pred) ^ y_pred, binary_erosion(y) ^ y

    def _hd(self, a, b):
        d = _surface_distance(a, b, self.distance_metric)
        if d.shape == (0,):
            return np.inf
        if not self.percentile:
            return d.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(d, self.percentile)
        raise ValueError("For 'HausdorffDistance', the value of the argument 'percentile' must be [0, 100], but got "
                         f"{self.percentile}.")

    @rearrange_inputs
    def update(self, *inputs):
        self._is_update = True
        y_pred, y = _label_masks("HausdorffDistance", inputs, self._convert_data)
        self.y_pred_edges, self.y_edges = self._edges(y_pred, y)

    def eval(self):
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        hd = self._hd(self.y_pred_edges, self.y_edges)
        if self.directed:
            return hd
        return max(hd, self._hd(self.y_edges, self.y_pred_edges))


class _SurfaceMetric(Metric):
    _name = ""

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        super().__init__()
        self.distance_metric_list = list(_METRICS)
        self.distance_metric = check_string(check_value_type("distance_metric", distance_metric, [str]), _METRICS,
                                            "distance_metric")
        self.symmetric = check_value_type("symmetric", symmetric, [bool])
        self.clear()

    def clear(self):
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = _label_masks(self._name, inputs, self._convert_data)
        self._y_pred_edges = binary_erosion(y_pred) ^ y_pred
        self._y_edges = binary_erosion(y) ^ y
        self._is_update = True

    def _check(self):
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")


class MeanSurfaceDistance(_SurfaceMetric):
    """Mean distance from the predicted surface to the true one (``symmetric``: averaged both ways)."""

    _name = "MeanSurfaceDistance"

    def eval(self):
        self._check()
        d = _surface_distance(self._y_pred_edges, self._y_edges, self.distance_metric)
        if d.shape == (0,):
            return np.inf
        avg = d.mean()
        if not self.symmetric:
            return avg
        d2 = _surface_distance(self._y_edges, self._y_pred_edges, self.distance_metric)
        if d2.shape == (0,):
            return np.inf
        return np.mean((avg, d2.mean()))


class RootMeanSquareDistance(_SurfaceMetric):
    """Mean squared surface distance (``symmetric``: root of the mean of both directions)."""

    _name = "RootMeanSquareDistance"

    def eval(self):
        self._check()
        d = _surface_distance(self._y_pred_edges, self._y_edges, self.distance_metric)
        if d.shape == (0,):
            return np.inf
        rms = (d ** 2).mean()
        if not self.symmetric:
            return rms
        d2 = _surface_distance(self._y_edges, self._y_pred_edges, self.distance_metric)
        if d2.shape == (0,):
            return np.inf
        return np.sqrt(np.mean((rms, (d2 ** 2).mean())))


class OcclusionSensitivity(Metric):
    """How much the model's score for ``label`` drops when each region of the input is occluded."""

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        super().__init__()
        self.pad_val = check_value_type("pad_val", pad_val, [float])
        self.margin = check_value_type("margin", margin, [int, list])
        self.n_batch = check_value_type("n_batch", n_batch, [int])
        self.b_box = b_box if b_box is None else check_value_type("b_box", b_box, [list])
        self.clear()

    def clear(self):
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 3:
            raise ValueError("For 'OcclusionSensitivity.update', it needs 3 inputs (classification model, predicted "
                             f"value, label), but got {len(inputs)}.")
        model = inputs[0]
        y_pred = self._convert_data(inputs[1])
        label = self._convert_data(inputs[2])
        if not getattr(type(model), "_ms_is_cell", False):
            raise TypeError(f"The type of 'model' should be Cell, but got {type(model).__name__}.")
        if y_pred.shape[0] > 1:
            raise RuntimeError("For 'OcclusionSensitivity.update', the shape at index 0 of the predicted value "
                               f"(input[1]) must be 1, but got {y_pred.shape[0]}.")
        if np.prod(label.shape) != y_pred.shape[0]:
            raise RuntimeError("For 'OcclusionSensitivity.update', the number of the label (input[2]) must be same as "
                               f"the batches, but got the label number {np.prod(label.shape)}, and batches "
                               f"{y_pred.shape[0]}.")
        shape = np.array(y_pred.shape[1:])
        bmin, bmax = _check_bounding_box(self.b_box, shape)
        self._baseline = model(Tensor(y_pred)).asnumpy()[0, label].item()
        images, ids = [], []
        sens = np.empty(0, dtype=float)
        out_shape = shape if self.b_box is None else bmax - bmin + 1
        total = int(np.prod(out_shape))
        for i in range(total):
            idx = np.unravel_index(i, out_shape)
            if bmin is not None:
                idx += bmin
            lo = [max(0, k - self.margin) for k in idx]
            hi = [min(j, k + self.margin) for k, j in zip(idx, shape)]
            im = y_pred.copy()
            im[(...,) + tuple(slice(a, b) for a, b in zip(lo, hi))] = self.pad_val
            images.append(im)
            ids.append(label)
            if len(images) == self.n_batch or i == total - 1:
                batch = np.vstack(images)
                bid = np.expand_dims(ids, 1)
                scores = model(Tensor(batch)).asnumpy()[np.arange(bid.shape[0])[:, None], bid]
                sens = np.vstack(scores) if sens.size == 0 else np.vstack((sens, scores))
                images, ids = [], []
        self._sensitivity_im = sens.reshape(out_shape)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)


def _check_bounding_box(b_box, im_shape):
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(im_shape):
        raise ValueError("For 'OcclusionSensitivity', the bounding box must contain upper and lower for all dimensions "
                         "(except batch number), and the length of 'b_box' must be twice as long as predicted value's "
                         f"(except batch number), but got 'b_box' length {len(b_box)}, predicted value length (except "
                         f"batch number) {len(im_shape)}.")
    bmin = np.array(b_box[::2])
    bmax = np.array(b_box[1::2])
    bmin[bmin < 0] = 0
    bmax[bmax < 0] = im_shape[bmax < 0] - 1
    if np.any(bmax >= im_shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than image size for all "
                         "values.")
    if np.any(bmin > bmax):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum bounding box "
                         "for all values.")
    return bmin, bmax
