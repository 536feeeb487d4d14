"""Record MindSpore 2.10's CPU run of its own MindIR of a float16 ``GeLU`` feeding a ``MatMul`` (K = 512),
alone and with a ``BiasAdd``:
its runtime hands the ``GeLU``'s float32 values to the ``MatMul`` unrounded (the census's float16 BERT).

    /tmp/ms/bin/python tests/golden/record_mindir_f32_chain.py
    # writes tests/fixtures/mindir_f32_chain.mindir and tests/fixtures/mindir_f32_chain.npz

Replayed bit for bit by ``tests/test_mindir_f32_chain.py``.
"""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import nn, ops

STEM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "mindir_f32_chain")


class Chain(nn.Cell):
    def __init__(self, w):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(w), name="w")
        self.gelu = ops.GeLU()
        self.matmul = ops.MatMul(transpose_b=True)
        self.cast = ops.Cast()
        self.bias_add = ops.BiasAdd()
        self.b = ms.Parameter(ms.Tensor(np.linspace(-1, 1, w.shape[0], dtype=np.float32)), name="b")

    def construct(self, x):
        y = self.gelu(x)
        w = self.cast(self.w, ms.float16)
        return self.matmul(y, w), y, self.bias_add(self.matmul(y, w), self.cast(self.b, ms.float16))


def main():
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    rng = np.random.default_rng(34)
    x = (rng.standard_normal((16, 512)) * 2).astype(np.float16)
    w = (rng.standard_normal((12, 512)) * 0.05).astype(np.float32)
    ms.export(Chain(w), ms.Tensor(x), file_name=STEM, file_format="MINDIR")
    y, g, z = nn.GraphCell(ms.load(STEM + ".mindir"))(ms.Tensor(x))
    np.savez_compressed(STEM + ".npz", x=x, y=y.asnumpy(), gelu=g.asnumpy(), biased=z.asnumpy())
    print("wrote", os.path.relpath(STEM + ".mindir"), file=sys.stderr)


if __name__ == "__main__":
    main()
