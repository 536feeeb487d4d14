"""Record MindSpore 2.10's CPU tanh-form ``GeLU`` (``ops.GeLU``; ``nn.GELU()`` in GRAPH_MODE) on float32
and float16 inputs: every 8th float16 bit pattern (finite values) and seeded float32 draws (normal, wide
and tiny ranges), with the inputs.

    /tmp/ms/bin/python tests/golden/record_gelu_bits.py     # writes tests/fixtures/gelu_bits_mindspore.npz

Replayed bit for bit by ``tests/test_gelu_bits.py`` (msjax's ``ops/_native/gelu.cc``).
"""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import nn, ops

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "gelu_bits_mindspore.npz")


class Gelu(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gelu = nn.GELU()

    def construct(self, x):
        return self.gelu(x)


def main():
    rng = np.random.default_rng(34)
    half = np.arange(0, 65536, 8, dtype=np.uint16).view(np.float16)
    out = {"x16": half[np.isfinite(half)],
           "x32": np.concatenate([rng.standard_normal(3000) * 3, rng.uniform(-12, 12, 600),
                                  rng.standard_normal(400) * 1e-3]).astype(np.float32)}
    for mode, name in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
        ms.set_context(mode=mode, device_target="CPU")
        for k in ("x16", "x32"):
            fn = ops.GeLU() if name == "pynative" else Gelu()
            out[f"{k}_{name}"] = fn(ms.Tensor(out[k])).asnumpy()
    np.savez_compressed(OUT, **out)
    print("wrote", os.path.relpath(OUT), file=sys.stderr)


if __name__ == "__main__":
    main()
