"""Record MindSpore 2.10's ``ops.NMSWithMask`` on tied and near-tied scores
(tests/test_nms_ties.py).

    /tmp/ms/bin/python tests/golden/record_nms_ties.py

Runs every case of tests/golden/nms_ties.py in PyNative and in GRAPH_MODE (a Cell), checks the two
agree, and exports the ``MINDIR_CASE`` net to tests/golden/nms_ties.mindir (run back in MindSpore
through ``ms.load`` + ``nn.GraphCell``). Writes tests/golden/nms_ties_mindspore.npz:
``<case>/boxes``, ``<case>/index``, ``<case>/mask``.
"""
import os
import sys

import numpy as np
import mindspore as ms
from mindspore import nn, ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nms_ties import MINDIR_CASE, cases  # noqa: E402


class Nms(nn.Cell):
    def __init__(self, thr):
        super().__init__()
        self.nms = ops.NMSWithMask(thr)

    def construct(self, b):
        return self.nms(b)


def _run(net, b):
    return [o.asnumpy() for o in net(ms.Tensor(b))]


def main():
    out = {}
    every = cases()
    for name, (b, thr) in every.items():
        ms.set_context(mode=ms.PYNATIVE_MODE)
        got = [o.asnumpy() for o in ops.NMSWithMask(thr)(ms.Tensor(b))]
        ms.set_context(mode=ms.GRAPH_MODE)
        graph = _run(Nms(thr), b)
        for a, g in zip(got, graph):
            np.testing.assert_array_equal(a, g)
        for key, v in zip(("boxes", "index", "mask"), got):
            out[f"{name}/{key}"] = v
    b, thr = every[MINDIR_CASE]
    stem = os.path.join(HERE, "nms_ties")
    ms.export(Nms(thr), ms.Tensor(b), file_name=stem, file_format="MINDIR")
    loaded = _run(nn.GraphCell(ms.load(stem + ".mindir")), b)
    for a, g in zip(loaded, (out[f"{MINDIR_CASE}/{k}"] for k in ("boxes", "index", "mask"))):
        np.testing.assert_array_equal(a, g)
    np.savez_compressed(stem + "_mindspore.npz", **out)
    print("wrote", len(every), "cases", file=sys.stderr)


if __name__ == "__main__":
    main()
