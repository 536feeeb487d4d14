"""Record MindSpore 2.10's run of its own file of float16 products feeding each other
(tests/test_mindir_float32_edges.py).

    /tmp/ms/bin/python tests/golden/record_float32_edges.py

MindSpore's CPU runtime runs a float16 ``MatMul``, ``BatchMatMul``, ``BiasAdd`` or ``Tanh`` as a
float32 kernel between inserted ``Cast`` nodes and drops the pair float32 -> float16 -> float32
between two of them: GCN's ``adj @ (x @ w.T)`` and LPCNet's
``tanh(x @ w.T + b)`` round once, and so does a ``MatMul`` of a ``Tanh``. The net holds each pattern, a product with three users, a
``ReLU`` and a ``Reshape`` (float16 kernels, which round). Writes tests/fixtures/float32_edges.mindir and
tests/fixtures/float32_edges.npz (inputs ``x0``, ``x1``, MindSpore's outputs ``y0``..., the
``BatchMatMul`` operand ``c``) and prints, per
output, how many values differ from rounding every node (numpy, float64 sums).
"""
import os
import sys

import numpy as np
import mindspore as ms
from mindspore import nn, ops

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures")


def weights():
    """The net's float16 weights and inputs (shared with the test's numpy reference)."""
    rng = np.random.default_rng(0)
    f = lambda *s: rng.standard_normal(s).astype(np.float16)      # noqa: E731
    return {"w1": f(16, 24), "w2": f(8, 16), "w3": f(16, 16), "b3": f(16), "w4": f(8, 4), "w5": f(16, 4), "c": f(2, 8, 8),
            "adj": f(32, 32), "x": f(32, 24)}


class Net(nn.Cell):
    def __init__(self, w):
        super().__init__()
        t = ms.Tensor
        self.fc1 = nn.Dense(24, 16, weight_init=t(w["w1"]), has_bias=False).to_float(ms.float16)
        self.fc2 = nn.Dense(16, 8, weight_init=t(w["w2"]), has_bias=False).to_float(ms.float16)
        self.fc3 = nn.Dense(16, 16, weight_init=t(w["w3"]), bias_init=t(w["b3"]),
                            activation="tanh").to_float(ms.float16)
        self.w4, self.w5, self.c = t(w["w4"]), t(w["w5"]), t(w["c"])
        self.mm, self.bmm = ops.MatMul(), ops.BatchMatMul()

    def construct(self, adj, x):
        h = self.fc1(x)
        g = ops.relu(self.mm(adj, h))               # MatMul -> MatMul (GCN's first layer), then ReLU
        y = self.mm(adj, self.fc2(g))               # GCN's second layer
        r = self.mm(h.reshape(64, 8), self.w4)      # a Reshape rounds
        t = self.fc3(g)                             # MatMul + BiasAdd -> Tanh (LPCNet's Dense layers)
        b = self.bmm(self.bmm(self.c, self.c), self.c)
        return y, r, t, b, h, self.mm(t, self.w5)   # Tanh -> MatMul


def rounded_everywhere(w):
    """Every output with each node's value rounded to float16 (MindSpore's PyNative)."""
    r = lambda v: v.astype(np.float16).astype(np.float64)         # noqa: E731
    adj, x = w["adj"].astype(np.float64), w["x"].astype(np.float64)
    h = r(x @ w["w1"].T.astype(np.float64))
    g = np.maximum(r(adj @ h), 0)
    y = r(adj @ r(g @ w["w2"].T.astype(np.float64)))
    rr = r(h.reshape(64, 8) @ w["w4"].astype(np.float64))
    t = r(np.tanh(r(r(g @ w["w3"].T.astype(np.float64)) + w["b3"])))
    c = w["c"].astype(np.float64)
    b = r(r(c @ c) @ c)
    return y, rr, t, b, h, r(t @ w["w5"].astype(np.float64))


def main():
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    w = weights()
    net = Net(w)
    stem = os.path.join(FIXTURES, "float32_edges")
    xs = (ms.Tensor(w["adj"]), ms.Tensor(w["x"]))
    ms.export(net, *xs, file_name=stem, file_format="MINDIR")
    ys = [o.asnumpy() for o in nn.GraphCell(ms.load(stem + ".mindir"))(*xs)]
    np.savez_compressed(stem + ".npz", x0=w["adj"], x1=w["x"], c=w["c"], **{f"y{i}": y for i, y in enumerate(ys)})
    for i, (y, ref) in enumerate(zip(ys, rounded_everywhere(w))):
        print(f"y{i} {y.shape}: {int((y != ref).sum())} of {y.size} values differ from rounding every node")
    print("wrote", os.path.relpath(stem), file=sys.stderr)


if __name__ == "__main__":
    main()
