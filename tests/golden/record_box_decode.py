"""Record MindSpore 2.10's CPU ``BoundingBoxDecode`` (float32) on seeded boxes, in PyNative and
GRAPH_MODE, and MindSpore's run of its own ``.mindir`` of it: the kernel's scalar float32 steps and
the C library's ``expf``, which the census's FasterRCNN forwards parted on (issue 34). Cases: the
FasterRCNN heads' configurations (RCNN ``stds=(0.1, 0.1, 0.2, 0.2)``, RPN unit ``stds``, at
``max_shape=(768, 1280)``) and one with nonzero ``means``, another ``wh_ratio_clip`` and a small
``max_shape``; deltas past the ratio clip and boxes whose ``y1`` nearly cancels to zero included.

    /tmp/ms/bin/python tests/golden/record_box_decode.py     # writes tests/fixtures/box_decode_mindspore.npz

The kernel is scalar C++ and glibc's ``expf`` (its FMA build on every CPU with FMA): its bits do not
depend on AVX2 or AVX-512 (recorded on an AVX-512 CPU, equal with oneDNN held to AVX2). Replayed bit
for bit by ``tests/test_box_decode_bits.py``.
"""
import os
import sys
import tempfile

import numpy as np

import mindspore as ms
from mindspore import nn, ops

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
OUT = os.path.join(FIXTURES, "box_decode_mindspore.npz")

# name -> (max_shape, means, stds, wh_ratio_clip)
CASES = {
    "rcnn": ((768, 1280), (0.0, 0.0, 0.0, 0.0), (0.1, 0.1, 0.2, 0.2), 0.016),
    "rpn": ((768, 1280), (0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 1.0, 1.0), 0.016),
    "means": ((64, 48), (0.1, -0.2, 0.05, -0.1), (0.5, 0.25, 1.5, 0.75), 0.1),
}


def inputs(rng, n=600):
    """Anchors (x1, y1, x2, y2) and deltas; a quarter of the boxes sit at the top edge with deltas
    that bring ``gy - gh / 2`` near ``-0.5`` (``y1`` a few ulps from zero after ``+ 0.5``)."""
    xy = rng.uniform(0, 700, (n, 2)).astype(np.float32)
    wh = rng.uniform(1, 300, (n, 2)).astype(np.float32)
    anchors = np.concatenate([xy, xy + wh], 1).astype(np.float32)
    deltas = (rng.standard_normal((n, 4)) * 1.5).astype(np.float32)
    q = n // 4
    anchors[:q, 1] = 0
    anchors[:q, 3] = wh[:q, 1]
    deltas[:q, 1] = 0
    deltas[:q, 3] = (rng.standard_normal(q) * 1e-3).astype(np.float32)
    return anchors, deltas


class Decode(nn.Cell):
    def __init__(self, case):
        super().__init__()
        max_shape, means, stds, clip = CASES[case]
        self.decode = ops.BoundingBoxDecode(max_shape=max_shape, means=means, stds=stds, wh_ratio_clip=clip)

    def construct(self, anchors, deltas):
        return self.decode(anchors, deltas)


def main():
    rng = np.random.default_rng(73)
    out = {}
    for case, (max_shape, means, stds, clip) in CASES.items():
        out[f"{case}_anchors"], out[f"{case}_deltas"] = inputs(rng)
        out[f"{case}_max_shape"], out[f"{case}_means"] = np.array(max_shape), np.array(means)
        out[f"{case}_stds"], out[f"{case}_clip"] = np.array(stds), np.array(clip)
    for mode, name in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
        ms.set_context(mode=mode, device_target="CPU")
        for case in CASES:
            args = (ms.Tensor(out[f"{case}_anchors"]), ms.Tensor(out[f"{case}_deltas"]))
            out[f"{case}_{name}"] = Decode(case)(*args).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            args = (ms.Tensor(out[f"{case}_anchors"]), ms.Tensor(out[f"{case}_deltas"]))
            stem = os.path.join(tmp, case)
            ms.export(Decode(case), *args, file_name=stem, file_format="MINDIR")
            out[f"{case}_loaded"] = nn.GraphCell(ms.load(stem + ".mindir"))(*args).asnumpy()
    np.savez_compressed(OUT, **out)
    print("wrote", os.path.relpath(OUT), file=sys.stderr)


if __name__ == "__main__":
    main()
