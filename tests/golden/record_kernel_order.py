"""Record MindSpore 2.10's CPU results of the kernels whose rounding msjax follows (issue 34's census):
``BatchNorm`` in inference (oneDNN: ``(x - mean) * (gamma / sqrt(var + eps))`` rounded, then ``+ beta``)
float32 ``ReduceSum``/``ReduceMean`` (float64 sums; nnacl's 8-lane sum of a 2-D input along axis 1;
row by row along axis 0; ``SumExt``, ``ops.sum``, the same kernel), float32 ``Sigmoid`` (nnacl's ``exp``),
``Tanh`` (nnacl's rational form), ``Softmax`` along the last axis (nnacl's lanes) and a ``Mul`` met by an ``Add``/``Sub``
(EcapaTDNN's ``x * s + x``: each kernel rounds its output, no fused multiply-add), in PyNative and
GRAPH_MODE, with their seeded inputs; MindSpore's own ``.mindir`` of the last
(``tests/fixtures/kernel_order_mul_add.mindir``); a float16 ``nn.Dense`` in PyNative and MindSpore's own
``.mindir`` of it run by ``GraphCell`` (``tests/fixtures/kernel_order_dense_f16.mindir``: its runtime adds
the bias to the unrounded product); float32/float16 ``LayerNorm`` (float64 serial sums, ``E[x^2] - mean^2``,
each step of ``y`` rounded) and ``BatchMatMul`` (oneDNN's 2-D matmul per batch, transposed operands by their strides).

    /tmp/ms/bin/python tests/golden/record_kernel_order.py      # writes tests/fixtures/kernel_order_mindspore.npz
                                                                # and tests/fixtures/kernel_order_mul_add.mindir

On an AVX-512 CPU it writes ``kernel_order_mindspore_avx512.npz`` only (``lenet_step.record_path``; its
``.mindir`` files go to a scratch folder: the test loads the recording CPU's files on every CPU).

Replayed bit for bit by ``tests/test_kernel_order.py``.
"""
import os
import sys
import tempfile

import numpy as np

import mindspore as ms
from mindspore import nn, ops

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lenet_step import RECORDED_ISA, machine, record_path  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
OUT = record_path(os.path.join(FIXTURES, "kernel_order_mindspore.npz"))
EXPORTS = FIXTURES if machine()["isa"] == RECORDED_ISA else tempfile.mkdtemp()

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

# name -> (input shape, dtype, begin_norm_axis, begin_params_axis, input offset[, gamma/beta scale])
LAYER_NORM_CASES = {
    "ln_last": ((2, 5, 64), np.float32, -1, -1, 0.5),
    "ln_offset": ((6, 40), np.float32, -1, -1, 300.0),        # E[x^2] - mean^2 in float64, summed in order
    "ln_two_axes": ((3, 4, 6), np.float32, 1, 2, 0.5),        # gamma over the last axis only
    "ln_half": ((2, 5, 64), np.float16, -1, -1, 0.5),
    "ln_half_tiny": ((4, 64), np.float16, -1, -1, 0.5, 1e-4),  # float16 subnormal outputs (BERT's census)
}


def _layer_norm_cases(out, rng):
    for k, (shape, dt, _, bpa, offset, *scale) in LAYER_NORM_CASES.items():
        out[f"{k}_x"] = (rng.standard_normal(shape) * 2 + offset).astype(dt)
        pshape, scale = shape[bpa:], (scale or [1.0])[0]
        out[f"{k}_gamma"] = ((rng.standard_normal(pshape) * 0.5 + 1) * scale).astype(dt)
        out[f"{k}_beta"] = (rng.standard_normal(pshape) * 0.3 * scale).astype(dt)


# name -> (x shape, y shape, dtype, transpose_a, transpose_b)
BATCH_MATMUL_CASES = {
    "bmm_tb": ((12, 50, 64), (12, 50, 64), np.float32, False, True),
    "bmm_4d_ta": ((2, 3, 40, 24), (2, 3, 40, 36), np.float32, True, False),
    "bmm_half": ((4, 20, 48), (4, 48, 20), np.float16, False, False),
}


def _batch_matmul_cases(out, rng):
    for k, (xs, ys, dt, _, _) in BATCH_MATMUL_CASES.items():
        out[f"{k}_x"], out[f"{k}_y"] = (rng.standard_normal(xs).astype(dt), rng.standard_normal(ys).astype(dt))


def _run_batch_matmul(out, name):
    for k, (_, _, _, ta, tb) in BATCH_MATMUL_CASES.items():
        prim = ops.BatchMatMul(transpose_a=ta, transpose_b=tb)
        out[f"{k}_{name}"] = prim(ms.Tensor(out[f"{k}_x"]), ms.Tensor(out[f"{k}_y"])).asnumpy()


def _run_layer_norm(out, name):
    for k, (_, _, bna, bpa, *_) in LAYER_NORM_CASES.items():
        prim = ops.LayerNorm(begin_norm_axis=bna, begin_params_axis=bpa, epsilon=1e-5)
        y, mean, var = prim(*(ms.Tensor(out[f"{k}_{v}"]) for v in ("x", "gamma", "beta")))
        out[f"{k}_{name}"], out[f"{k}_mean_{name}"], out[f"{k}_var_{name}"] = y.asnumpy(), mean.asnumpy(), var.asnumpy()


class MulAdd(nn.Cell):
    """EcapaTDNN's squeeze-excitation residual ``s * x + x``, ``ops.Mul`` then a residual, and ``r - x * s``."""

    def __init__(self):
        super().__init__()
        self.mul = ops.Mul()

    def construct(self, x, s, r):
        return s * x + x, self.mul(x, s) + r, r - x * s


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
    mul_add = {"x": (rng.standard_normal((2, 16, 33)) * 3).astype(np.float32),
               "s": rng.random((2, 16, 1)).astype(np.float32), "r": rng.standard_normal((2, 16, 33)).astype(np.float32)}
    out.update({f"muladd_{k}": v for k, v in mul_add.items()})
    args = [ms.Tensor(mul_add[k]) for k in ("x", "s", "r")]
    tanh_x = (rng.random(1003) * 12 - 6).astype(np.float32)
    tanh_x[:40] = np.linspace(4.99, 5.01, 40)
    out["tanh_x"] = tanh_x
    out["softmax_x"] = (rng.standard_normal((2, 8, 301)) * 4).astype(np.float32)
    out["sumext_x"] = (rng.standard_normal((1, 32, 301)) * 3).astype(np.float32)
    _layer_norm_cases(out, np.random.default_rng(35))
    _batch_matmul_cases(out, np.random.default_rng(36))
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
        out[f"tanh_{name}"] = nn.Tanh()(ms.Tensor(tanh_x)).asnumpy()
        out[f"softmax_{name}"] = nn.Softmax(axis=-1)(ms.Tensor(out["softmax_x"])).asnumpy()
        out[f"sumext_{name}"] = ms.Tensor(out["sumext_x"]).sum(2).asnumpy()
        for i, y in enumerate(MulAdd()(*args)):
            out[f"muladd{i}_{name}"] = y.asnumpy()
        _run_layer_norm(out, name)
        _run_batch_matmul(out, name)
    ms.export(MulAdd(), *args, file_name=os.path.join(EXPORTS, "kernel_order_mul_add"), file_format="MINDIR")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    out["dense_x"] = rng.standard_normal((64, 40)).astype(np.float32)
    dense = nn.Dense(40, 40).to_float(ms.float16)
    dense.weight.set_data(ms.Tensor((rng.standard_normal((40, 40)) * 0.3).astype(np.float32)))
    dense.bias.set_data(ms.Tensor(rng.standard_normal(40).astype(np.float32)))
    out["dense_pynative"] = dense(ms.Tensor(out["dense_x"])).asnumpy()
    stem = os.path.join(EXPORTS, "kernel_order_dense_f16")
    ms.export(dense, ms.Tensor(out["dense_x"]), file_name=stem, file_format="MINDIR")
    out["dense_loaded"] = nn.GraphCell(ms.load(stem + ".mindir"))(ms.Tensor(out["dense_x"])).asnumpy()
    np.savez_compressed(OUT, **out)
    print("wrote", os.path.relpath(OUT), file=sys.stderr)


if __name__ == "__main__":
    main()
