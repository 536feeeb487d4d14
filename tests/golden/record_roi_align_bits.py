"""Record MindSpore 2.10's CPU ``ROIAlign`` (float32) on seeded features and boxes, in PyNative and
GRAPH_MODE: FasterRCNN's configuration (7x7 bins, ``sample_num=2``, ``roi_end_mode=1``, the FPN
scales) and a 3x3 grid (a sample count that is not a power of two) with ``roi_end_mode=0``; boxes
past the image edges and smaller than a bin included. The census's FasterRCNN forwards parted on this
kernel's rounding (issue 34).

    /tmp/ms/bin/python tests/golden/record_roi_align_bits.py    # writes tests/fixtures/roi_align_bits_mindspore.npz

The kernel is scalar C++ (no fused multiply-add): its bits do not depend on AVX2 or AVX-512.
Replayed bit for bit by ``tests/test_roi_align_bits.py``.
"""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import ops

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "roi_align_bits_mindspore.npz")

# name -> (features shape, spatial_scale, sample_num, roi_end_mode)
CASES = {
    "fpn_stride4": ((2, 4, 24, 40), 0.25, 2, 1),
    "fpn_stride32": ((2, 4, 8, 12), 0.03125, 2, 1),
    "grid3_mode0": ((1, 3, 20, 30), 0.125, 3, 0),
}


def rois(rng, n, shape, scale):
    """``(image, x1, y1, x2, y2)`` in input pixels: most inside, some past the edges, some tiny."""
    h, w = shape[2] / scale, shape[3] / scale
    xy = np.stack([rng.uniform(-0.1 * w, w, n), rng.uniform(-0.1 * h, h, n)], 1)
    wh = np.stack([rng.uniform(0.5, 0.6 * w, n), rng.uniform(0.5, 0.6 * h, n)], 1)
    wh[: n // 6] = rng.uniform(0.1, 2.0, (n // 6, 2))
    image = rng.integers(0, shape[0], (n, 1))
    return np.concatenate([image, xy, xy + wh], 1).astype(np.float32)


def main():
    rng = np.random.default_rng(34)
    out = {}
    for k, (shape, scale, sample, mode) in CASES.items():
        out[f"{k}_x"] = rng.standard_normal(shape).astype(np.float32)
        out[f"{k}_rois"] = rois(rng, 60, shape, scale)
        out[f"{k}_attrs"] = np.array([scale, sample, mode], np.float64)
    for mode, name in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
        ms.set_context(mode=mode, device_target="CPU")
        for k, (_, scale, sample, end_mode) in CASES.items():
            prim = ops.ROIAlign(7, 7, scale, sample, end_mode)
            out[f"{k}_{name}"] = prim(ms.Tensor(out[f"{k}_x"]), ms.Tensor(out[f"{k}_rois"])).asnumpy()
    np.savez_compressed(OUT, **out)
    print("wrote", os.path.relpath(OUT), file=sys.stderr)


if __name__ == "__main__":
    main()
