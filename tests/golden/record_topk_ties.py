"""Record MindSpore 2.10's ``ops.TopK(sorted=True)`` and ``ops.topk`` on rows with many equal values
(tests/test_topk_ties.py).

    /tmp/ms/bin/python tests/golden/record_topk_ties.py

Runs every case of tests/golden/topk_ties.py with the ``TopK`` primitive in PyNative and in
GRAPH_MODE (checked equal) and with ``ops.topk(x, k)`` and ``ops.topk(x, k, largest=False)``;
writes tests/golden/topk_ties_mindspore.npz: ``<case>/values``, ``<case>/indices``,
``<case>/topk``, ``<case>/smallest`` (the indices of the last two).
"""
import os
import sys

import numpy as np
import mindspore as ms
from mindspore import nn, ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from topk_ties import cases  # noqa: E402


class TopK(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.topk = ops.TopK(sorted=True)

    def construct(self, x):
        return self.topk(x, self.k)


def main():
    out = {}
    for name, (x, k) in cases().items():
        ms.set_context(mode=ms.PYNATIVE_MODE)
        v, i = ops.TopK(sorted=True)(ms.Tensor(x), k)
        out[f"{name}/topk"] = ops.topk(ms.Tensor(x), k)[1].asnumpy()
        out[f"{name}/smallest"] = ops.topk(ms.Tensor(x), k, largest=False)[1].asnumpy()
        ms.set_context(mode=ms.GRAPH_MODE)
        gv, gi = TopK(k)(ms.Tensor(x))
        np.testing.assert_array_equal(i.asnumpy(), gi.asnumpy())
        out[f"{name}/values"], out[f"{name}/indices"] = v.asnumpy(), i.asnumpy()
    np.savez_compressed(os.path.join(HERE, "topk_ties_mindspore.npz"), **out)
    print("wrote", len(out) // 4, "cases", file=sys.stderr)


if __name__ == "__main__":
    main()
