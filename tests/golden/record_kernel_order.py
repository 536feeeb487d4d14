"""Record MindSpore 2.10's CPU results of the kernels whose rounding msjax follows (issue 34's census):
``BatchNorm`` in inference (oneDNN: ``(x - mean) * (gamma / sqrt(var + eps))`` rounded, then ``+ beta``)
float32 ``ReduceSum``/``ReduceMean`` and ``ops.sum`` (``SumExt``) / ``Tensor.sum`` (float64 sums; nnacl's 8-lane sum of a 2-D input along axis 1;
row by row along axis 0) and float32 ``Sigmoid`` (nnacl's ``exp``), in PyNative and GRAPH_MODE, with
their seeded inputs.

    /tmp/ms/bin/python tests/golden/record_kernel_order.py      # writes tests/fixtures/kernel_order_mindspore.npz

Replayed bit for bit by ``tests/test_kernel_order.py``.
"""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import nn, ops

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "kernel_order_mindspore.npz")

# name -> (op, input shape, axis, keep_dims)
REDUCE_CASES = {
    "mean_last": ("ReduceMean", (2, 16, 33), (2,), True),
    "mean_hw": ("ReduceMean", (2, 8, 3, 3), (2, 3), False),
    "mean_2d_axis1_tail": ("ReduceMean", (6, 37), (1,), False),
    "mean_2d_axis1_even": ("ReduceMean", (4, 16), (1,), True),
    "mean_2d_axis0": ("ReduceMean", (37, 12), (0,), False),
    "mean_all": ("ReduceMean", (3, 4, 5), (), False),
    "sum_2d_axis1": ("ReduceSum", (6, 37), (1,), False),
    "sum_axis0": ("ReduceSum", (37, 12), (0,), True),
    "sum_axis0_unit": ("ReduceSum", (19, 1, 9), (0, 1), False),
    "sum_middle": ("ReduceSum", (3, 41, 4), (1,), False),
    "sum_vector": ("ReduceSum", (500,), (), False),
}


def main():
    rng = np.random.default_rng(34)
    out = {}
    c = 16
    bn = {"x": rng.standard_normal((2, c, 5, 7)).astype(np.float32) * 3,
          "gamma": rng.standard_normal(c).astype(np.float32), "beta": rng.standard_normal(c).astype(np.float32),
          "mean": rng.standard_normal(c).astype(np.float32) * 0.5,
          "var": rng.random(c).astype(np.float32) * 2 + 0.05}
    out.update({f"bn_{k}": v for k, v in bn.items()})
    for k, (_, shape, _, _) in REDUCE_CASES.items():
        out[f"{k}_x"] = (rng.standard_normal(shape) * 3 + 0.5).astype(np.float32)
    out["sigmoid_x"] = (rng.standard_normal(1027) * 5).astype(np.float32)
    for mode, name in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
        ms.set_context(mode=mode, device_target="CPU")
        prim = ops.BatchNorm(is_training=False, epsilon=1e-5)
        t = {k: ms.Tensor(v) for k, v in bn.items()}
        out[f"bn_prim_{name}"] = prim(t["x"], t["gamma"], t["beta"], t["mean"], t["var"])[0].asnumpy()
        layer = nn.BatchNorm2d(c, eps=1e-4)
        layer.gamma.set_data(t["gamma"])
        layer.beta.set_data(t["beta"])
        layer.moving_mean.set_data(t["mean"])
        layer.moving_variance.set_data(t["var"])
        layer.set_train(False)
        out[f"bn_layer_{name}"] = layer(t["x"]).asnumpy()
        out[f"sigmoid_{name}"] = nn.Sigmoid()(ms.Tensor(out["sigmoid_x"])).asnumpy()
        for k, (op, _, axis, keep) in REDUCE_CASES.items():
            out[f"{k}_{name}"] = getattr(ops, op)(keep_dims=keep)(ms.Tensor(out[f"{k}_x"]), axis).asnumpy()
            if op == "ReduceSum":     # SumExt (ops.sum) and Tensor.sum on the same inputs
                dim = axis if axis else None
                out[f"sumext_{k}_{name}"] = ops.sum(ms.Tensor(out[f"{k}_x"]), dim, keep).asnumpy()
                out[f"tensorsum_{k}_{name}"] = ms.Tensor(out[f"{k}_x"]).sum(dim, keepdims=keep).asnumpy()
    np.savez_compressed(OUT, **out)
    print("wrote", os.path.relpath(OUT), file=sys.stderr)


if __name__ == "__main__":
    main()
