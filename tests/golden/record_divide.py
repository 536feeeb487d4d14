"""Record MindSpore 2.10's CPU float division by a broadcast divisor (``RealDiv``: one IEEE division per
element), in PyNative and GRAPH_MODE: FasterRCNN's boxes over a (1,) scale (issue 34's census), a
Python float, a 0-d Tensor, a column (64, 1) and a row, float32 and float16, a dividend broadcast
against a full divisor and a divisor of the dividend's shape.

    /tmp/ms/bin/python tests/golden/record_divide.py     # writes tests/fixtures/divide_mindspore.npz

Elementwise scalar arithmetic: the bits do not depend on AVX2 or AVX-512. Replayed bit for bit by
``tests/test_divide_bits.py``.
"""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import nn

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "divide_mindspore.npz")

# name -> (dividend shape, divisor shape or None for the Python float 1.7132, dtype)
CASES = {
    "boxes_scale": ((1000, 4), (1,), np.float32),
    "python_float": ((300, 7), None, np.float32),
    "zero_d": ((300, 7), (), np.float32),
    "column": ((64, 33), (64, 1), np.float32),
    "row": ((40, 50), (50,), np.float32),
    "half_column": ((64, 33), (64, 1), np.float16),
    "dividend_broadcast": ((1,), (200, 3), np.float32),
    "same_shape": ((300, 7), (300, 7), np.float32),     # a constant divisor in a graph (FasterRCNN's finest_scale)
}


class Div(nn.Cell):
    def construct(self, x, y):
        return x / y


class DivFloat(nn.Cell):
    def construct(self, x):
        return x / 1.7132


def main():
    rng = np.random.default_rng(34)
    out = {}
    for k, (xs, ys, dt) in CASES.items():
        out[f"{k}_x"] = rng.uniform(0.1, 1280, xs).astype(dt)
        if ys is not None:
            out[f"{k}_y"] = rng.uniform(0.3, 3, ys).astype(dt)
    for mode, name in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
        ms.set_context(mode=mode, device_target="CPU")
        for k, (_, ys, _) in CASES.items():
            x = ms.Tensor(out[f"{k}_x"])
            y = DivFloat()(x) if ys is None else Div()(x, ms.Tensor(out[f"{k}_y"]))
            out[f"{k}_{name}"] = y.asnumpy()
    np.savez_compressed(OUT, **out)
    print("wrote", os.path.relpath(OUT), file=sys.stderr)


if __name__ == "__main__":
    main()
