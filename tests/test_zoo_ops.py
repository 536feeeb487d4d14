"""The ops.operations Primitives added for the model zoo (``bench/zoo/rank_ops.py``), compared with
MindSpore 2.10 CPU outputs recorded by ``tests/fixtures/record_zoo_ops.py`` (the same case
functions run on msjax here)."""
from __future__ import annotations

import importlib.util
import os
import types

import numpy as np
import pytest

import msjax as ms
from msjax import Parameter, Tensor, ops
from msjax.ops import operations as P

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("record_zoo_ops", os.path.join(HERE, "fixtures", "record_zoo_ops.py"))
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)
GOLDEN = np.load(os.path.join(HERE, "fixtures", "zoo_ops_golden.npz"))


def _namespace():
    from msjax import _compat
    _compat.install()
    import mindspore.ops.operations._inner_ops as inner   # the zoo's spelling
    return types.SimpleNamespace(ms=ms, ops=ops, P=P, inner=inner, T=Tensor, Param=Parameter)


@pytest.mark.parametrize("name", sorted(rec.CASES))
def test_matches_mindspore(name):
    got = rec.flatten(rec.CASES[name](_namespace(), np.random.default_rng(0)))
    keys = sorted((k for k in GOLDEN.files if k.split("/")[0] == name), key=lambda k: int(k.split("/")[1]))
    assert len(got) == len(keys), f"{name}: {len(got)} outputs, MindSpore recorded {len(keys)}"
    rtol, atol = rec.TOL.get(name, (1e-5, 1e-6))
    for k, g in zip(keys, got):
        want = GOLDEN[k]
        assert g.shape == want.shape, f"{k}: shape {g.shape} != {want.shape}"
        assert g.dtype == want.dtype, f"{k}: dtype {g.dtype} != {want.dtype}"
        np.testing.assert_allclose(g.astype(np.float64) if g.dtype != bool else g, want, rtol=rtol, atol=atol,
                                   err_msg=k, equal_nan=True)


def test_rint_has_no_gradient_as_in_mindspore():
    x = Tensor(np.array([0.4, 1.6], np.float32))
    np.testing.assert_array_equal(ops.Rint()(x).asnumpy(), [0.0, 2.0])
    with pytest.raises(RuntimeError, match="Rint's bprop not defined"):
        ms.grad(lambda a: ops.Rint()(a).sum())(x)


def test_argument_errors_as_in_mindspore():
    with pytest.raises(ValueError, match="supported type is in the list"):
        ops.ScalarCast()(1.5, ms.int32)
    with pytest.raises(ValueError, match="NHWC' format is only supported in GPU"):
        P.MaxPoolWithArgmax(2, 2, "valid", "NHWC")
    with pytest.raises(ValueError, match="roi_end_mode"):
        P.ROIAlign(2, 2, 1.0, 2, 2)
    with pytest.raises(ValueError, match="method"):
        P.CropAndResize("bicubic")
    with pytest.raises(RuntimeError, match="image_index"):
        P.ROIAlign(2, 2, 1.0)(Tensor(np.ones((1, 1, 4, 4), np.float32)),
                              Tensor(np.array([[1, 0, 0, 2, 2]], np.float32)))


def test_scalar_to_array_and_float32_scalar_cast():
    """MindSpore's PyNative mode cannot run ScalarToArray (no infer function) and refuses
    ScalarCast to float32 outside graph mode, so they have no golden case."""
    t = P.ScalarToArray()(3)
    assert isinstance(t, Tensor) and t.dtype == ms.int64 and t.shape == () and int(t) == 3
    assert ops.ScalarCast()(3.7, ms.float32) == float(np.float32(3.7))


def test_adam_primitives_return_the_updated_parameters():
    """Difference from MindSpore's CPU kernels, whose returned Tensors are left unwritten: msjax returns
    the updated ``(var, m, v)`` (what the GPU/Ascend Primitives return)."""
    var, m, v = (Parameter(Tensor(np.full((2,), f, np.float32)), name=n)
                 for f, n in ((1.0, "w"), (0.0, "m"), (0.0, "v")))
    out = P.AdamWeightDecay()(var, m, v, 0.1, 0.9, 0.999, 1e-8, 0.0, Tensor(np.array([1.0, -1.0], np.float32)))
    for o, p in zip(out, (var, m, v)):
        np.testing.assert_array_equal(o.asnumpy(), p.asnumpy())
    np.testing.assert_allclose(var.asnumpy(), [1 - 0.1 * 0.1 / (np.sqrt(0.001) + 1e-8),
                                               1 + 0.1 * 0.1 / (np.sqrt(0.001) + 1e-8)], rtol=1e-5)


def test_randperm_is_a_padded_permutation():
    out = P.Randperm(max_length=12, pad=-7)(Tensor(np.array([9], np.int32)))
    a = out.asnumpy()
    assert out.dtype == ms.int32 and a.shape == (12,)
    assert sorted(a[:9].tolist()) == list(range(9)) and a[9:].tolist() == [-7] * 3
    a, b = (P.Randperm(max_length=40)(Tensor(np.array([40], np.int64))).asnumpy() for _ in range(2))
    assert sorted(a.tolist()) == list(range(40)) and a.tolist() != b.tolist()   # equal with p = 1/40!


def test_random_categorical_frequencies():
    logits = np.log(np.array([[0.2, 0.5, 0.3], [0.9, 0.05, 0.05]], np.float32))
    out = P.RandomCategorical(ms.int32)(Tensor(logits), 4000, 0)
    a = out.asnumpy()
    assert out.dtype == ms.int32 and a.shape == (2, 4000)
    freq = np.stack([np.bincount(r, minlength=3) / 4000 for r in a])
    np.testing.assert_allclose(freq, np.exp(logits), atol=0.03)   # > 4 standard deviations


def test_dropout_gen_and_do_mask():
    """MindSpore runs the pair on Ascend only; reference: its documented contract (a 128-bit aligned
    UInt8 bit mask; kept elements scaled by 1 / keep_prob) and msjax's documented bit order."""
    mask = P.DropoutGenMask()((20, 30), Tensor(0.7, ms.float32))
    assert mask.dtype == ms.uint8 and mask.shape == (-(-600 // 128) * 16,)
    bits = np.unpackbits(mask.asnumpy(), bitorder="little")
    assert not bits[600:].any() and abs(bits[:600].mean() - 0.7) < 0.08
    x = np.arange(1, 601, dtype=np.float32).reshape(20, 30)
    out = P.DropoutDoMask()(Tensor(x), mask, Tensor(0.7, ms.float32)).asnumpy()
    np.testing.assert_allclose(out, np.where(bits[:600].reshape(20, 30), x / np.float32(0.7), 0), rtol=1e-6)
    hand = Tensor(np.array([0b00000101, 0b10000000], np.uint8))
    g = ms.grad(lambda a: P.DropoutDoMask()(a, hand, 0.5).sum())(Tensor(np.ones((2, 8), np.float32)))
    np.testing.assert_array_equal(g.asnumpy(), [[2, 0, 2, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 2]])


def _numpy_lstm(x, h, c, w_ih, w_hh, b):
    def sig(z):
        return 1 / (1 + np.exp(-z))
    outs = []
    for xt in x:
        i, f, g, o = np.split(xt @ w_ih.T + h @ w_hh.T + b, 4, axis=-1)
        c = sig(f) * c + sig(i) * np.tanh(g)
        h = sig(o) * np.tanh(c)
        outs.append(h)
    return np.stack(outs), h, c


def test_lstm_gpu_bias_layout_and_unsupported_features():
    """The GPU layout (``b_ih`` and ``b_hh``) against a NumPy LSTM (MindSpore's CPU kernel ignores
    ``b_hh``, so no golden output); float16 rounds once."""
    rng = np.random.default_rng(1)
    x, h0, c0 = (rng.uniform(-1, 1, s).astype(np.float32) for s in ((4, 3, 2), (1, 3, 5), (1, 3, 5)))
    parts = [rng.uniform(-0.5, 0.5, n).astype(np.float32) for n in (20 * 2, 20 * 5, 20, 20)]
    out, hn, cn, _, _ = P.LSTM(2, 5, 1, True, False, 0.0)(Tensor(x), Tensor(h0), Tensor(c0),
                                                        Tensor(np.concatenate(parts)[:, None, None]))
    want = _numpy_lstm(x, h0[0], c0[0], parts[0].reshape(20, 2), parts[1].reshape(20, 5), parts[2] + parts[3])
    for got, ref in zip((out, hn[0], cn[0]), want):
        np.testing.assert_allclose(got.asnumpy(), ref, rtol=1e-5, atol=1e-6)
    w16 = Tensor(np.concatenate(parts)[:, None, None].astype(np.float16))
    out16 = P.LSTM(2, 5, 1, True, False, 0.0)(*(Tensor(a.astype(np.float16)) for a in (x, h0, c0)), w16)[0]
    assert out16.dtype == ms.float16
    np.testing.assert_allclose(out16.asnumpy().astype(np.float32), want[0], atol=3e-3)
    with pytest.raises(NotImplementedError, match="bidirectional"):
        P.LSTM(2, 5, 1, False, True, 0.0)(Tensor(x), Tensor(np.zeros((2, 3, 5), np.float32)),
                                          Tensor(np.zeros((2, 3, 5), np.float32)), Tensor(np.zeros((280, 1, 1))))
