"""MindSpore 2.10's CPU rounding of inference BatchNorm, float32 ReduceSum/ReduceMean/SumExt, Sigmoid,
Tanh and last-axis Softmax, and of a Mul met by an Add (each kernel rounds: no fused multiply-add), bit for bit (recorded by
tests/golden/record_kernel_order.py): the census's EcapaTDNN and Arcface forwards parted from
MindSpore's in these kernels (issue 34)."""
import os

import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax.train._mind_ir_pb import ModelProto

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
REC = np.load(os.path.join(FIXTURES, "kernel_order_mindspore.npz"))
REDUCE = {
    "mean_last": ("ReduceMean", (2,), True), "mean_hw": ("ReduceMean", (2, 3), False),
    "mean_2d_axis1_tail": ("ReduceMean", (1,), False), "mean_2d_axis1_even": ("ReduceMean", (1,), True),
    "mean_2d_axis0": ("ReduceMean", (0,), False), "mean_all": ("ReduceMean", (), False),
    "sum_2d_axis1": ("ReduceSum", (1,), False), "sum_axis0": ("ReduceSum", (0,), True),
    "sum_axis0_unit": ("ReduceSum", (0, 1), False), "sum_middle": ("ReduceSum", (1,), False),
    "sum_vector": ("ReduceSum", (), False),
}


def _bits_equal(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), \
        f"{int((got != want).sum())} of {want.size} values differ, largest {np.abs(got - want).max():.3g}"


@pytest.mark.parametrize("jit", [False, True])
def test_batch_norm_inference_bits(jit):
    t = {k: ms.Tensor(REC[f"bn_{k}"]) for k in ("x", "gamma", "beta", "mean", "var")}
    prim = ops.BatchNorm(is_training=False, epsilon=1e-5)
    layer = nn.BatchNorm2d(16, eps=1e-4)
    for p, k in ((layer.gamma, "gamma"), (layer.beta, "beta"), (layer.moving_mean, "mean"),
                 (layer.moving_variance, "var")):
        p.set_data(t[k])
    layer.set_train(False)

    def run(x):
        return prim(x, t["gamma"], t["beta"], t["mean"], t["var"])[0], layer(x)
    run = ms.jit(run) if jit else run
    y_prim, y_layer = run(t["x"])
    _bits_equal(y_prim.asnumpy(), REC["bn_prim_pynative"])
    _bits_equal(y_layer.asnumpy(), REC["bn_layer_graph"])
    _bits_equal(REC["bn_layer_pynative"], REC["bn_layer_graph"])     # MindSpore's two modes agree


@pytest.mark.parametrize("jit", [False, True])
def test_reduce_sum_mean_bits(jit):
    names = list(REDUCE) if jit else ["mean_last", "mean_2d_axis1_tail", "sum_axis0"]

    def run(*xs):
        return tuple(getattr(ops, REDUCE[n][0])(keep_dims=REDUCE[n][2])(x, REDUCE[n][1]) for n, x in zip(names, xs))
    outs = (ms.jit(run) if jit else run)(*(ms.Tensor(REC[f"{n}_x"]) for n in names))
    for name, got in zip(names, outs):
        for mode in ("pynative", "graph"):
            try:
                _bits_equal(got.asnumpy(), REC[f"{name}_{mode}"])
            except AssertionError as e:
                raise AssertionError(f"{name} ({mode}): {e}") from None


@pytest.mark.parametrize("jit", [False, True])
def test_sum_ext_bits(jit):
    """``ops.sum`` (MindSpore's ``SumExt``) and ``Tensor.sum`` of float32 give MindSpore's bits (its
    ``ReduceSum`` order) in both modes."""
    names = [n for n in REDUCE if REDUCE[n][0] == "ReduceSum"]

    def run(*xs):
        out = []
        for n, x in zip(names, xs):
            dim, keep = REDUCE[n][1] or None, REDUCE[n][2]
            out += [ops.sum(x, dim, keep), x.sum(dim, keepdims=keep)]
        return tuple(out)
    outs = (ms.jit(run) if jit else run)(*(ms.Tensor(REC[f"{n}_x"]) for n in names))
    for i, name in enumerate(names):
        for kind, got in zip(("sumext", "tensorsum"), outs[2 * i:2 * i + 2]):
            try:
                _bits_equal(got.asnumpy(), REC[f"{kind}_{name}_{'graph' if jit else 'pynative'}"])
            except AssertionError as e:
                raise AssertionError(f"{kind} {name}: {e}") from None


def test_reduce_mean_gradient_unchanged():
    x = ms.Tensor(REC["mean_2d_axis1_tail_x"])
    g = ms.grad(lambda t: ops.ReduceMean()(t * t, 1).sum())(x).asnumpy()
    np.testing.assert_allclose(g, 2 * REC["mean_2d_axis1_tail_x"] / 37, rtol=1e-6)


@pytest.mark.parametrize("jit", [False, True])
def test_sigmoid_bits(jit):
    x = ms.Tensor(REC["sigmoid_x"])
    run = ms.jit(lambda t: nn.Sigmoid()(t)) if jit else ops.Sigmoid()
    _bits_equal(run(x).asnumpy(), REC["sigmoid_graph" if jit else "sigmoid_pynative"])
    y = REC["sigmoid_pynative"]
    np.testing.assert_allclose(ms.grad(lambda t: ops.sigmoid(t).sum())(x).asnumpy(), y * (1 - y), rtol=1e-6)


class _MulAdd(nn.Cell):
    """tests/golden/record_kernel_order.py's ``MulAdd``: EcapaTDNN's ``s * x + x`` and two more."""

    def __init__(self):
        super().__init__()
        self.mul = ops.Mul()

    def construct(self, x, s, r):
        return s * x + x, self.mul(x, s) + r, r - x * s


def _mul_add_args():
    return [ms.Tensor(REC[f"muladd_{k}"]) for k in ("x", "s", "r")]


@pytest.mark.parametrize("jit", [False, True])
def test_mul_then_add_rounds_the_product(jit):
    net = _MulAdd()
    outs = (ms.jit(net.construct) if jit else net)(*_mul_add_args())
    for i, got in enumerate(outs):
        _bits_equal(got.asnumpy(), REC[f"muladd{i}_{'graph' if jit else 'pynative'}"])


def test_mul_then_add_mindir_both_ways(tmp_path):
    """MindSpore's own file of the net runs in msjax to its bits; msjax's file holds only the
    ``Mul``/``Add``/``Sub`` nodes (no trace of the rounding barrier) and runs to the same bits."""
    args = _mul_add_args()
    mine = str(tmp_path / "mul_add")
    ms.export(_MulAdd(), *args, file_name=mine, file_format="MINDIR")
    model = ModelProto()
    with open(mine + ".mindir", "rb") as f:
        model.ParseFromString(f.read())
    kinds = sorted(n.op_type.split(":")[2] for n in model.graph.node if n.op_type.startswith("REF::"))
    assert kinds == ["Add", "Add", "MakeTuple", "Mul", "Mul", "Mul", "Sub"], kinds
    for path in (os.path.join(FIXTURES, "kernel_order_mul_add.mindir"), mine + ".mindir"):
        outs = nn.GraphCell(ms.load(path))(*args)
        for i, got in enumerate(outs):
            _bits_equal(got.asnumpy(), REC[f"muladd{i}_graph"])


@pytest.mark.parametrize("jit", [False, True])
def test_tanh_softmax_sum_ext_bits(jit):
    """nnacl's rational Tanh (above 1 just below |x| = 5), its last-axis Softmax lanes and SumExt (ReduceSum's kernel)."""
    def run(t, s, u):
        return nn.Tanh()(t), ops.softmax(s, axis=-1), u.sum(2)
    outs = (ms.jit(run) if jit else run)(*(ms.Tensor(REC[f"{k}_x"]) for k in ("tanh", "softmax", "sumext")))
    for k, got in zip(("tanh", "softmax", "sumext"), outs):
        _bits_equal(got.asnumpy(), REC[f"{k}_{'graph' if jit else 'pynative'}"])


def test_tanh_softmax_gradients():
    x = REC["tanh_x"][40:48]
    y = REC["tanh_pynative"][40:48]
    g = ms.grad(lambda t: ops.tanh(t).sum())(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(g, 1 - y.astype(np.float64) ** 2, rtol=1e-5, atol=1e-7)   # TanhGrad: dy * (1 - y * y)
    s = REC["softmax_x"][0, :2]
    w = np.arange(s.shape[-1], dtype=np.float32) / s.shape[-1]
    g = ms.grad(lambda t: (ops.softmax(t, axis=-1) * ms.Tensor(w)).sum())(ms.Tensor(s)).asnumpy()
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    np.testing.assert_allclose(g, p * (w - (w * p).sum(-1, keepdims=True)), rtol=1e-4, atol=1e-7)


def test_float16_dense_pynative_and_loaded_file():
    """MindSpore's PyNative rounds a float16 Dense's product before the bias (msjax's nn.Dense); its runtime
    runs its own file's MatMul + BiasAdd as one kernel (the float32 product plus the bias, rounded once),
    and msjax's reader of that file does too."""
    x = ms.Tensor(REC["dense_x"])
    cell = nn.GraphCell(ms.load(os.path.join(FIXTURES, "kernel_order_dense_f16.mindir")))
    got = cell(x).asnumpy()
    assert got.dtype == np.float16 and np.array_equal(got.view(np.uint16), REC["dense_loaded"].view(np.uint16))
    params = {p.name.split(".")[-1]: p for p in cell.get_parameters()}
    dense = nn.Dense(40, 40).to_float(ms.float16)
    dense.weight.set_data(params["weight"])
    dense.bias.set_data(params["bias"])
    assert np.array_equal(dense(x).asnumpy(), REC["dense_pynative"])
