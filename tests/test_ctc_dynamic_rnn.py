"""CRNN's ops: the sparse-label ``ops.CTCLoss`` Primitive against MindSpore 2.10's CPU kernel
(``fixtures/ctc_mindspore.npz``, recorded by ``fixtures/record_ctc.py``), and the Ascend-only
``DynamicRNN`` (LSTM) and ``DynamicGRUV2`` against NumPy references of their documented
formulas and finite differences."""
import os

import numpy as np
import pytest

import msjax as ms
from msjax import Tensor, ops

HERE = os.path.dirname(os.path.abspath(__file__))
CTC = np.load(os.path.join(HERE, "fixtures", "ctc_mindspore.npz"))
CASES = sorted({k.split("/")[0] for k in CTC.files if "/" in k})


def _ctc_args(case):
    g = {k.split("/")[1]: CTC[k] for k in CTC.files if k.startswith(case + "/")}
    return g, (Tensor(g["idx"]), Tensor(g["vals"]), Tensor(g["seq"]))


def _joined(cases):
    """The recorded cases side by side in one batch (ignore_longer_outputs_than_inputs only decides
    whether MindSpore raises; the values of the cases without a too-long sample are the same)."""
    gs = [_ctc_args(c)[0] for c in cases]
    idx = np.concatenate([g["idx"] + [k * g["seq"].size, 0] for k, g in enumerate(gs)])
    cat = {name: np.concatenate([g[name] for g in gs], axis=1 if name in ("x", "grad", "dx") else 0)
           for name in ("x", "w", "vals", "seq", "loss", "grad", "dx")}
    return cat, (Tensor(idx), Tensor(cat["vals"]), Tensor(cat["seq"]))


@pytest.mark.parametrize("collapse, merge, dtype, with_grad", [
    (False, True, "float32", True), (False, False, "float32", False), (True, True, "float32", False),
    (True, False, "float32", False), (False, True, "float16", False)])
def test_ctc_loss_primitive_matches_mindspore(collapse, merge, dtype, with_grad):
    cases = [c for c in CASES if c.split("_")[-2][:2] == f"{int(collapse)}{int(merge)}" and c.endswith(dtype)]
    g, args = _joined(cases)
    prim = ops.operations.CTCLoss(collapse, merge, True)
    loss, grad = prim(Tensor(g["x"]), *args)
    tol = dict(rtol=2e-2, atol=2e-2) if dtype == "float16" else dict(rtol=1e-4, atol=1e-5)
    assert loss.dtype == getattr(ms, dtype) and grad.dtype == getattr(ms, dtype)
    np.testing.assert_allclose(loss.asnumpy().astype(np.float32), g["loss"].astype(np.float32), **tol)
    alive = (np.arange(g["x"].shape[0])[:, None] < g["seq"][None, :])[..., None]
    got = grad.asnumpy().astype(np.float32)
    np.testing.assert_allclose(np.where(alive, got, 0), np.where(alive, g["grad"], 0).astype(np.float32), **tol)
    assert not np.any(np.where(alive, 0, got))               # MindSpore leaves those frames unwritten
    if with_grad:
        dx = ms.grad(lambda x: (prim(x, *args)[0] * Tensor(g["w"])).sum())(Tensor(g["x"]))
        np.testing.assert_allclose(np.where(alive, dx.asnumpy().astype(np.float32), 0),
                                   np.where(alive, g["dx"], 0).astype(np.float32), **tol)


def test_ctc_loss_primitive_in_a_compiled_step():
    """The zoo's CRNN loss (``src/loss.py``): labels_indices/sequence_length held in Parameters,
    the label matrix padded with the blank, inside ``ms.jit`` and ``value_and_grad``."""
    g, _ = _ctc_args("repeats_011_float32")
    n = g["seq"].size
    idx = ms.Parameter(Tensor(g["idx"]), name="labels_indices")
    seq = ms.Parameter(Tensor(g["seq"]), name="sequence_length")
    labels = Tensor(g["vals"].reshape(n, -1))
    prim = ops.CTCLoss(ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=True)

    @ms.jit
    def step(x):
        return ms.value_and_grad(lambda x_: prim(x_, idx, labels.reshape(-1), seq)[0].mean())(x)

    loss, dx = step(Tensor(g["x"]))
    alive = (np.arange(g["x"].shape[0])[:, None] < g["seq"][None, :])[..., None]
    np.testing.assert_allclose(loss.asnumpy(), g["loss"].mean(), rtol=1e-5)
    np.testing.assert_allclose(dx.asnumpy(), np.where(alive, g["grad"], 0) / n, rtol=1e-4, atol=1e-6)


def test_ctc_loss_primitive_errors():
    x = Tensor(np.zeros((4, 2, 5), np.float32))
    idx = Tensor(np.array([[0, 0], [0, 1], [1, 0]], np.int64))
    vals, seq = Tensor(np.array([1, 2, 3], np.int32)), Tensor(np.array([4, 4], np.int32))
    with pytest.raises(TypeError, match="ctc_merge_repeated"):
        ops.CTCLoss(ctc_merge_repeated=1)
    with pytest.raises(TypeError, match=r"labels_indices\] must be a type of \{Tensor\[Int64\]\}"):
        ops.CTCLoss()(x, Tensor(np.array([[0, 0], [0, 1], [1, 0]], np.int32)), vals, seq)
    with pytest.raises(TypeError, match=r"argument\[inputs\]"):
        ops.CTCLoss()(x.astype(ms.int32), idx, vals, seq)
    with pytest.raises(ValueError, match="rank must be equal to 3"):
        ops.CTCLoss()(x[0], idx, vals, seq)
    with pytest.raises(RuntimeError, match="'sequence_length': 5"):
        ops.CTCLoss()(x, idx, vals, Tensor(np.array([5, 4], np.int32)))
    with pytest.raises(RuntimeError, match=r"labels_values\[2\] must be in the range"):   # a label after a blank
        ops.CTCLoss()(x, Tensor(np.array([[0, 0], [0, 1], [0, 2]], np.int64)), Tensor(np.array([1, 4, 2], np.int32)),
                      seq)
    with pytest.raises(RuntimeError, match="sequence length: 1 and label length: 2"):
        ops.CTCLoss()(x, idx, vals, Tensor(np.array([1, 4], np.int32)))
