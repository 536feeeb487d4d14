"""The batch mixers of ``mindspore.dataset.vision``: ``MixUpBatch`` and ``CutMixBatch``, with
MindSpore 2.10's draws and arithmetic.

Both draw from the operation's ``std::mt19937`` (``_opstreams``: one engine per map worker,
seeded ``GetSeed() + worker``; an eager call starts a fresh engine seeded ``GetSeed()``, so
two eager calls under one seed mix alike, as in MindSpore). ``lam`` is Beta(alpha, alpha)
made of two ``std::gamma_distribution<float>`` draws, each from its own distribution object
(``_stdgamma``); the partner images are a ``std::shuffle`` of the batch positions.

* ``MixUpBatch``: two gamma draws, then the shuffle; images become
  ``lam * image + (1 - lam) * partner`` as OpenCV's ``addWeighted`` computes it (uint8:
  float32 ``fma(image, lam, partner * (1 - lam))``; float32: double arithmetic; integer
  results rounded half to even and saturated), labels ``lam * label + (1 - lam) *
  partner_label`` in float32.
* ``CutMixBatch``: the shuffle, then per image two gamma draws (the two gamma objects live
  for the whole batch), a ``uniform_real<double>`` draw compared with ``prob`` and, when
  below it, the box centre ``(uniform_int(0, W), uniform_int(0, H))``; the box side is
  ``int(side * sqrt(1 - lam))``, clamped into the image as MindSpore clamps it, and pasted
  from the partner's original pixels; the labels are mixed by the pasted area.

Differences from MindSpore: none known for uint8 and float32 images (compared bit for bit).
The fused multiply-add of 8- and 16-bit images is computed in numpy's ``longdouble``, exact
where that is x86's 80-bit or a 128-bit type; where ``longdouble`` is a plain double
(Windows) a ``lam`` below about 2**-30 may change a last bit before the rounding to integers.
"""
from __future__ import annotations

import numpy as np

from .. import _opstreams, _stdrandom as _std
from .._stdgamma import GammaFloat
from .transforms import _Transform

__all__ = ["MixUpBatch", "CutMixBatch"]

_f32 = np.float32
_F32_MAX = _f32(np.finfo(np.float32).max)
_F32_EPS = _f32(np.finfo(np.float32).eps)


def _check_batch(images, labels, name):
    images, labels = np.asarray(images), np.asarray(labels)
    if images.ndim != 4:
        raise RuntimeError(f"{name}: image shape is not <N,H,W,C> or <N,C,H,W>, got rank: {images.ndim}")
    if labels.ndim not in (2, 3):
        raise RuntimeError(f"{name}: wrong labels shape. The second column (labels) must have a shape of NC or "
                           f"NLC where N is the batch size, L is the number of labels in each row, and C is the "
                           f"number of classes. labels must be in one-hot format and in a batch, but got rank: "
                           f"{labels.ndim}")
    return images, labels


def _mix_labels(lam, first, second):
    """``lam * first + (1 - lam) * second`` in float32, as MindSpore's loops compute it."""
    lam = _f32(lam)
    return lam * first + (_f32(1) - lam) * second


def _add_weighted(a, alpha, b, beta):
    """OpenCV's ``addWeighted(a, alpha, b, beta, 0)``, back to ``a``'s dtype (half to even,
    saturated): 8- and 16-bit images in float32 as its AVX2 kernel, ``fma(a, alpha, b * beta)``;
    32-bit and float images in double, ``a * alpha + b * beta``."""
    if a.dtype.kind in "iu" and a.dtype.itemsize <= 2:
        prod = (b.astype(np.float32) * _f32(beta)).astype(np.longdouble)
        out = (a.astype(np.longdouble) * np.longdouble(_f32(alpha)) + prod).astype(np.float32)
    else:
        out = a.astype(np.float64) * float(alpha) + b.astype(np.float64) * float(beta)
    if a.dtype.kind in "iu":
        info = np.iinfo(a.dtype)
        out = np.clip(np.rint(out), info.min, info.max)
    return out.astype(a.dtype)


class MixUpBatch(_Transform):
    """``MixUpBatch(alpha=1.0)`` on a batch (images N,H,W,C or N,C,H,W; one-hot labels): each image
    and label mixed with those of a shuffled batch by ``lam ~ Beta(alpha, alpha)``; labels become
    float32, images keep their dtype."""

    def __init__(self, alpha=1.0):
        if alpha <= 0:
            raise ValueError("Input alpha is not within the required interval of (0, 16777216].")
        self.alpha = float(alpha)

    def __call__(self, images, labels):
        images, labels = _check_batch(images, labels, "MixUpBatch")
        g = _opstreams.stream(self)
        x1 = GammaFloat(self.alpha)(g)
        x2 = GammaFloat(self.alpha)(g)
        if not _F32_MAX - x1 > x2:
            raise RuntimeError(f"multiplication out of bounds, with multipliers: {float(x1):f} and {float(x2):f}, "
                               f"which result in the out of bounds product:{float(x1 * x2):f}")
        if not abs(x1 + x2) > _F32_EPS:
            raise RuntimeError("addition of variable(x1 and x2) of Gamma should not be 0.")
        lam = x1 / (x1 + x2)
        perm = _std.shuffle(list(range(len(images))), g)
        lab = labels.astype(np.float32)
        out_labels = _mix_labels(lam, lab, lab[perm])
        return _add_weighted(images, lam, images[perm], _f32(1) - lam), out_labels


def _crop_box(height, width, lam, g):
    """MindSpore's ``CutMixBatchOp::GetCropBox``: (x, y, crop_width, crop_height)."""
    ratio = _f32(np.sqrt(_f32(1) - lam))
    cut_w, cut_h = int(_f32(width) * ratio), int(_f32(height) * ratio)
    cx = _std.uniform_int(g, 0, width)
    cy = _std.uniform_int(g, 0, height)
    x = min(max(cx - cut_w // 2, 0), width - 1)
    y = min(max(cy - cut_h // 2, 0), height - 1)
    x2 = min(max(cx + cut_w // 2, 0), width - 1)
    y2 = min(max(cy + cut_h // 2, 0), height - 1)
    return x, y, min(max(x2 - x, 1), max(width - 1, 1)), min(max(y2 - y, 1), max(height - 1, 1))


class CutMixBatch(_Transform):
    """``CutMixBatch(image_batch_format, alpha=1.0, prob=1.0)``: with probability ``prob`` a box of
    side ``sqrt(1 - lam)`` times the image's (``lam ~ Beta(alpha, alpha)``) is pasted from another
    image of the batch and the labels mixed by the pasted area."""

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        from .transforms import ImageBatchFormat
        if not isinstance(image_batch_format, ImageBatchFormat):
            raise TypeError(f"Argument image_batch_format with value {image_batch_format} is not of type "
                            "[<enum 'ImageBatchFormat'>].")
        if alpha <= 0:
            raise ValueError("Input alpha is not within the required interval of (0, 16777216].")
        if not 0 <= prob <= 1:
            raise ValueError("Input prob is not within the required interval of [0, 1].")
        self.image_batch_format, self.alpha, self.prob = image_batch_format, float(alpha), float(prob)

    def __call__(self, images, labels):
        images, labels = _check_batch(images, labels, "CutMixBatch")
        nhwc = self.image_batch_format.name == "NHWC"
        out = images.copy()
        view = out if nhwc else np.moveaxis(out, 1, -1)
        src = images if nhwc else np.moveaxis(images, 1, -1)
        H, W = view.shape[1:3]
        lab = labels.astype(np.float32)
        out_labels = lab.copy()
        g = _opstreams.stream(self)
        perm = _std.shuffle(list(range(len(images))), g)
        gamma_a, gamma_b = GammaFloat(self.alpha), GammaFloat(self.alpha)
        prob = float(_f32(self.prob))
        for i in range(len(images)):
            x1, x2 = gamma_a(g), gamma_b(g)
            while _F32_MAX - x1 < x2:
                x1, x2 = gamma_a(g), gamma_b(g)
            lam = x1 / (x1 + x2)
            if not _std.uniform_real(g, 0.0, 1.0) < prob:
                continue
            x, y, cw, ch = _crop_box(H, W, lam, g)
            view[i, y:y + ch, x:x + cw] = src[perm[i], y:y + ch, x:x + cw]
            label_lam = _f32(1) - _f32(cw * ch) / _f32(H * W)
            out_labels[i] = _mix_labels(label_lam, lab[i], lab[perm[i]])
        return out, out_labels
