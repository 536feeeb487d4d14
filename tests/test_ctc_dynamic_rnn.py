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
CASES = sorted({k.split("/")[0] for k in CTC.files if "/" in k and not k.startswith("greedy")})


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


@pytest.mark.parametrize("case", sorted({k.split("/")[0] for k in CTC.files if k.startswith("greedy")}))
def test_ctc_greedy_decoder_matches_mindspore(case):
    g = {k.split("/")[1]: CTC[k] for k in CTC.files if k.startswith(case + "/")}
    prim = ops.CTCGreedyDecoder(merge_repeated=bool(g["merge"]))
    for res in (prim(Tensor(g["x"]), Tensor(g["seq"])),
                ops.ctc_greedy_decoder(Tensor(g["x"]), Tensor(g["seq"]), bool(g["merge"]))):
        for got, name in zip(res, ("indices", "values", "shape", "logp")):
            assert got.asnumpy().dtype == g[name].dtype, name
            np.testing.assert_allclose(got.asnumpy(), g[name], rtol=1e-6, err_msg=name)
    with pytest.raises(RuntimeError, match=r"sequence_length\[0\] 9 should be less than 8"):
        ops.ctc_greedy_decoder(Tensor(g["x"]), Tensor(g["seq"] + 1))


# --- DynamicRNN / DynamicGRUV2 against NumPy ----------------------------------------------------------
def _sig(v):
    return 1 / (1 + np.exp(-v))


def _np_lstm(x, w, b, h0, c0, forget_bias=0.0, cell_clip=-1.0):
    """DynamicRNN's documented LSTM in float64 (the hidden state rounded to x's dtype between steps)."""
    h, c, outs = h0[0].astype(x.dtype), c0[0].astype(np.float64), []
    for t in range(x.shape[0]):
        g = np.concatenate([x[t], h], 1).astype(np.float64) @ w.astype(np.float64) + b.astype(np.float64)
        i, j, f, o = np.split(g, 4, axis=1)
        i, j, f, o = _sig(i), np.tanh(j), _sig(f + forget_bias), _sig(o)
        c = f * c + i * j
        c = np.clip(c, -cell_clip, cell_clip) if cell_clip > 0 else c
        h64 = o * np.tanh(c)
        outs.append((h64, c, i, j, f, o, np.tanh(c)))
        h = h64.astype(x.dtype)
    return [np.stack(v) for v in zip(*outs)]


def _np_gru(x, wi, wh, bi, bh, h0, gate_order="rzh", reset_after=True):
    hid = wh.shape[0]
    r_c, z_c = (slice(hid, 2 * hid), slice(0, hid)) if gate_order == "zrh" else (slice(0, hid), slice(hid, 2 * hid))
    h, outs = h0.astype(np.float64), []
    for t in range(x.shape[0]):
        xw = x[t].astype(np.float64) @ wi + bi
        hw = h @ wh + bh
        r, z = _sig(xw[:, r_c] + hw[:, r_c]), _sig(xw[:, z_c] + hw[:, z_c])
        h_n = hw[:, 2 * hid:] if reset_after else (r * h) @ wh[:, 2 * hid:] + bh[2 * hid:]
        n = np.tanh(xw[:, 2 * hid:] + (r * h_n if reset_after else h_n))
        h = (1 - z) * n + z * h
        outs.append((h, z, r, n, h_n))
    return [np.stack(v) for v in zip(*outs)]


def _fd(f, args, k, eps=1e-6):
    """Central differences of the scalar f(*args) in args[k] (float64)."""
    a = [np.asarray(v, np.float64) for v in args]
    g = np.zeros_like(a[k])
    for i in np.ndindex(a[k].shape):
        for s in (1, -1):
            b = [v.copy() for v in a]
            b[k][i] += s * eps
            g[i] += s * f(*b) / (2 * eps)
    return g


RNG = np.random.default_rng(3)
T_, N_, I_, H_ = 4, 2, 3, 2


def test_dynamic_rnn_matches_numpy_lstm_float16():
    x = RNG.standard_normal((T_, N_, I_)).astype(np.float16)
    w = (RNG.standard_normal((I_ + H_, 4 * H_)) * 0.5).astype(np.float16)
    b = RNG.standard_normal(4 * H_).astype(np.float32)
    h0 = RNG.standard_normal((1, N_, H_)).astype(np.float16)
    c0 = RNG.standard_normal((1, N_, H_)).astype(np.float16)
    # float32 init_c, as the zoo's CRNN (V1) passes its states: cast to x's float16 as on Ascend
    out = ops.DynamicRNN(forget_bias=1.0, cell_clip=0.8)(Tensor(x), Tensor(w), Tensor(b), None, Tensor(h0),
                                                         Tensor(c0.astype(np.float32)))
    h, c, i, j, f, o, tc = _np_lstm(x, w, b, h0, c0, forget_bias=1.0, cell_clip=0.8)
    # y, output_c and the gates have b's dtype (float32 here), output_h x's (float16)
    assert [t.dtype for t in out] == [ms.float32, ms.float16] + [ms.float32] * 6
    for got, ref in zip(out, (h, h, c, i, j, f, o, tc)):
        np.testing.assert_allclose(got.asnumpy().astype(np.float64), ref, rtol=2e-3, atol=2e-3)
    assert np.abs(out[2].asnumpy()).max() <= 0.8 + 1e-6


def test_dynamic_rnn_gradients_follow_mindspore_bprop():
    """dy at every step, output_h/output_c at the last step only, nothing through the gates:
    compared with finite differences of the NumPy LSTM."""
    x = RNG.standard_normal((T_, N_, I_)).astype(np.float32)
    w = (RNG.standard_normal((I_ + H_, 4 * H_)) * 0.5).astype(np.float32)
    b, h0, c0 = (RNG.standard_normal(s).astype(np.float32) for s in (4 * H_, (1, N_, H_), (1, N_, H_)))
    wy, wh, wc = (RNG.standard_normal((T_, N_, H_)) for _ in range(3))
    prim = ops.DynamicRNN(forget_bias=0.5)

    def loss(*a):
        y, h, c, i, j, f, o, tc = prim(a[0], a[1], a[2], None, a[3], a[4])
        return (y * Tensor(wy, ms.float32)).sum() + (h * Tensor(wh, ms.float32)).sum() + \
            (c * Tensor(wc, ms.float32)).sum() + (i + j + f + o + tc).sum()

    def ref(*a):
        h, c = _np_lstm(*a, forget_bias=0.5)[:2]
        return (h * wy).sum() + (h[-1] * wh[-1]).sum() + (c[-1] * wc[-1]).sum()

    args = (x, w, b, h0, c0)
    grads = ms.grad(loss, grad_position=(0, 1, 2, 3, 4))(*[Tensor(a) for a in args])
    for k, g in enumerate(grads):
        np.testing.assert_allclose(g.asnumpy(), _fd(ref, args, k), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("gate_order, reset_after", [("rzh", True), ("zrh", False)])
def test_dynamic_gru_v2_matches_numpy_and_finite_differences(gate_order, reset_after):
    x = RNG.standard_normal((T_, N_, I_)).astype(np.float32)
    wi = (RNG.standard_normal((I_, 3 * H_)) * 0.5).astype(np.float32)
    wh = (RNG.standard_normal((H_, 3 * H_)) * 0.5).astype(np.float32)
    bi, bh = RNG.standard_normal(3 * H_).astype(np.float32), RNG.standard_normal(3 * H_).astype(np.float32)
    h0 = RNG.standard_normal((N_, H_)).astype(np.float32)
    args = (x, wi, wh, bi, bh, h0)
    prim = ops.DynamicGRUV2(gate_order=gate_order, reset_after=reset_after)
    out = prim(*[Tensor(a) for a in args[:5]], None, Tensor(h0))
    ref = _np_gru(*args, gate_order=gate_order, reset_after=reset_after)
    for got, r in zip(out, (ref[0],) + tuple(ref)):
        np.testing.assert_allclose(got.asnumpy(), r, rtol=1e-5, atol=1e-6)
    wy, whh = RNG.standard_normal((T_, N_, H_)), RNG.standard_normal((T_, N_, H_))

    def loss(*a):
        y, h, z, r, n, hn = prim(*a[:5], None, a[5])
        return (y * Tensor(wy, ms.float32)).sum() + (h * Tensor(whh, ms.float32)).sum() + (z + r + n + hn).sum()

    def np_loss(*a):
        h = _np_gru(*a, gate_order=gate_order, reset_after=reset_after)[0]
        return (h * wy).sum() + (h[-1] * whh[-1]).sum()

    grads = ms.grad(loss, grad_position=(0, 1, 2, 3, 4, 5))(*[Tensor(a) for a in args])
    for k, g in enumerate(grads):
        np.testing.assert_allclose(g.asnumpy(), _fd(np_loss, args, k), rtol=1e-4, atol=1e-5)


def test_dynamic_gru_v2_float16_and_missing_biases():
    x = RNG.standard_normal((T_, N_, I_)).astype(np.float16)
    wi, wh = (RNG.standard_normal(s).astype(np.float16) for s in ((I_, 3 * H_), (H_, 3 * H_)))
    h0 = RNG.standard_normal((N_, H_)).astype(np.float32)
    out = ops.DynamicGRUV2()(Tensor(x), Tensor(wi), Tensor(wh), None, None, None, Tensor(h0))
    assert all(o.dtype == ms.float32 for o in out)                 # no bias: init_h's dtype
    zero = np.zeros(3 * H_)
    np.testing.assert_allclose(out[0].asnumpy(), _np_gru(x, wi.astype(np.float64), wh.astype(np.float64), zero,
                                                         zero, h0)[0], rtol=3e-3, atol=3e-3)


def test_dynamic_rnn_errors():
    x = Tensor(np.zeros((2, 3, 4), np.float16))
    w, b = Tensor(np.zeros((6, 8), np.float16)), Tensor(np.zeros(8, np.float16))
    h = Tensor(np.zeros((1, 3, 2), np.float16))
    with pytest.raises(TypeError, match="'forget_bias' should be 'float'"):
        ops.DynamicRNN(forget_bias=1)
    with pytest.raises(ValueError, match="'direction' must be str"):
        ops.DynamicRNN(direction="BIDIRECTIONAL")
    with pytest.raises(ValueError, match="'gate_order' must be str"):
        ops.DynamicGRUV2(gate_order="hzr")
    with pytest.raises(NotImplementedError, match="keep_prob"):
        ops.DynamicRNN(keep_prob=0.5)(x, w, b, None, h, h)
    with pytest.raises(NotImplementedError, match="seq_length"):
        ops.DynamicRNN()(x, w, b, Tensor(np.ones(3, np.int32)), h, h)
    with pytest.raises(TypeError, match=r"argument\[x\] must be a type of \{Tensor\[Float16\], Tensor\[Float32\]\}"):
        ops.DynamicRNN()(x.astype(ms.int32), w, b, None, h, h)
    with pytest.raises(ValueError, match=r"shape of 'w' must be \[6, 8\]"):
        ops.DynamicRNN()(x, Tensor(np.zeros((5, 8), np.float16)), b, None, h, h)
