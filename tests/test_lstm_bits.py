"""MindSpore 2.10's float32 CPU LSTM bit for bit (``nn.LSTM`` eager and under ``jit``, ``ops.LSTM``), recorded by
tests/golden/record_lstm_bits.py: its kernel is oneDNN's ``lstm_forward``, which msjax calls the same way
(``ops/_native/lstm_dnnl.cc``). The bits depend on the instruction set: each record is compared where oneDNN
runs its set (``lstm_bits.oneDNN_isa``), elsewhere to float32 rounding. The gradient is XLA's formula's;
without the native library the formula computes the forward too."""
import os

import jax
import numpy as np
import pytest

import msjax as ms
from msjax.ops._impl import conv_lowering
from tests.golden.lenet_step import RECORDED_ISA, record_path
from tests.golden.lstm_bits import CASES, GRAPH_CASES, OPS_CASES, nn_case, nn_inputs, oneDNN_isa, ops_case

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "lstm_bits_mindspore.npz")
_OWN = record_path(FIXTURE, oneDNN_isa())
REC = np.load(_OWN if os.path.exists(_OWN) else FIXTURE)
BITS = str(REC["meta_isa"]) == oneDNN_isa()


def _check(got, name, prefix=""):
    for k, g in zip(("y", "hn", "cn"), got):
        want = REC[f"{prefix}{name}/{k}"]
        assert g.dtype == want.dtype and g.shape == want.shape
        if BITS:
            assert np.array_equal(g.view(np.uint32), want.view(np.uint32)), \
                f"{k}: {int((g != want).sum())} of {want.size} values differ, largest {np.abs(g - want).max():.3g}"
        else:
            np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if not c[-1]])
def test_nn_lstm_bits(name):
    _check(nn_case(ms, name), name)


@pytest.mark.parametrize("name", GRAPH_CASES)
def test_nn_lstm_jit_bits(name, monkeypatch):
    """MindSpore's GRAPH_MODE gave its PyNative bits (recorded); msjax's ``jit`` gives them too."""
    assert bool(REC["meta_graph_is_pynative"])
    real = ms.nn.LSTM
    monkeypatch.setattr(ms.nn, "LSTM", lambda *a, **k: _Jitted(real(*a, **k)))
    _check(nn_case(ms, name), name)


class _Jitted:
    """An ``nn.LSTM`` called through ``ms.jit``."""

    def __init__(self, net):
        self.net = net
        self.fn = ms.jit(net)

    def get_parameters(self):
        return self.net.get_parameters()

    def __call__(self, *args):
        return self.fn(*args)


@pytest.mark.parametrize("name", OPS_CASES)
def test_ops_lstm_bits(name):
    _check(ops_case(ms, name), name)


def test_seq_length_keeps_the_loop():
    """With ``seq_length`` MindSpore's ``nn.LSTM`` runs its Python loop of MatMuls (not the LSTM kernel) and so
    does msjax (XLA's): MindSpore's values to float32 rounding."""
    got = nn_case(ms, "bi_1layer_seq_length")
    for k, g in zip(("y", "hn", "cn"), got):
        np.testing.assert_allclose(g, REC[f"bi_1layer_seq_length/{k}"], rtol=1e-5, atol=1e-6)


def _grads(name):
    """Gradients of a weighted sum of ``y``, ``h_n`` and ``c_n`` with respect to x, h0, c0 and every weight."""
    t, n, i, h, layers, bi, bias, batch_first, _, _ = CASES[name]
    x, hx, _, params = nn_inputs(name)
    net = ms.nn.LSTM(i, h, num_layers=layers, has_bias=bias, batch_first=batch_first, bidirectional=bi)
    for p in net.get_parameters():
        p.set_data(ms.Tensor(params[p.name.rsplit(".", 1)[-1]]))
    rs = np.random.RandomState(0)

    def loss(x, h0, c0):
        y, (hn, cn) = net(x, (h0, c0))
        return sum((a * ms.Tensor(rs.uniform(-1, 1, a.shape).astype(np.float32))).sum() for a in (y, hn, cn))

    rs_state = rs.get_state()

    def run():
        rs.set_state(rs_state)
        fn = ms.grad(loss, grad_position=(0, 1, 2), weights=net.trainable_params())
        (gx, gh, gc), gw = fn(ms.Tensor(x), ms.Tensor(hx[0]), ms.Tensor(hx[1]))
        return [a.asnumpy() for a in (gx, gh, gc, *gw)]
    return run


@pytest.mark.parametrize("name", ["bi_2layers_bias_hx", "uni_1layer_bias_hx"])
def test_gradient_is_the_formulas(name, monkeypatch):
    """Through the kernel the gradient is XLA's formula's (its tangents), as with the kernels off; a second
    layer's is taken at the first layer's kernel output, which differs from the formula's in the last bits."""
    run = _grads(name)
    native = run()
    monkeypatch.setenv(conv_lowering.KERNELS_ENV, "0")
    formula = run()
    assert len(native) == len(formula) > 3
    for a, b in zip(native, formula):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_gradient_matches_finite_differences():
    """A float64 central difference of the formula in NumPy against the gradient of one input value."""
    name = "uni_1layer_bias_hx"
    t, n, i, h = CASES[name][:4]
    x, (h0, c0), _, p = nn_inputs(name)
    net = ms.nn.LSTM(i, h)
    for q in net.get_parameters():
        q.set_data(ms.Tensor(p[q.name.rsplit(".", 1)[-1]]))
    grad = ms.grad(lambda x: net(x, (ms.Tensor(h0), ms.Tensor(c0)))[0].sum())(ms.Tensor(x)).asnumpy()

    def forward(xs):
        sig = lambda v: 1 / (1 + np.exp(-v))
        hh, cc, total = h0[0].astype(np.float64), c0[0].astype(np.float64), 0.0
        b = p["bias_ih_l0"].astype(np.float64) + p["bias_hh_l0"]
        for xt in xs:
            g = xt @ p["weight_ih_l0"].T.astype(np.float64) + hh @ p["weight_hh_l0"].T.astype(np.float64) + b
            gi, gf, gg, go = np.split(g, 4, axis=1)
            cc = sig(gf) * cc + sig(gi) * np.tanh(gg)
            hh = sig(go) * np.tanh(cc)
            total += hh.sum()
        return total

    x64, eps = x.astype(np.float64), 1e-6
    for idx in [(0, 0, 0), (2, 1, 5), (4, 2, 9)]:
        up, down = x64.copy(), x64.copy()
        up[idx] += eps
        down[idx] -= eps
        np.testing.assert_allclose(grad[idx], (forward(up) - forward(down)) / (2 * eps), rtol=1e-4, atol=1e-5)


def _lowered(name):
    x, hx, _, params = nn_inputs(name)
    t, n, i, h, layers, bi, bias, batch_first = CASES[name][:8]
    net = ms.nn.LSTM(i, h, num_layers=layers, has_bias=bias, batch_first=batch_first, bidirectional=bi)
    fn = ms.jit(net)
    fn(ms.Tensor(x))
    return str(jax.make_jaxpr(lambda a: net(ms.Tensor(a))[0]._data)(x))


def test_kernel_in_the_program_and_fallback(monkeypatch, tmp_path):
    """The custom call is in the traced program; with ``MSJAX_CPU_KERNELS=0`` or without the native library
    (no compiler) the loop is XLA's, MindSpore's values to float32 rounding."""
    from msjax.ops import _native
    from msjax.ops._impl import conv_onednn
    assert "msjax_lstm_forward" in _lowered("bi_1layer_nobias_batch_first")
    monkeypatch.setenv(conv_lowering.KERNELS_ENV, "0")
    assert "msjax_lstm_forward" not in _lowered("bi_1layer_nobias_batch_first")
    monkeypatch.delenv(conv_lowering.KERNELS_ENV)
    _native.library.cache_clear()
    try:
        monkeypatch.setenv("CXX", str(tmp_path / "no-such-compiler"))
        monkeypatch.setenv(_native.CACHE_ENV, str(tmp_path / "cache"))
        monkeypatch.setattr(conv_onednn, "_torch_installed", lambda: False)
        assert _native.library() is None
        assert "msjax_lstm_forward" not in _lowered("bi_1layer_nobias_batch_first")
        for name in ("bi_1layer_nobias_batch_first", "uni_2layers_bias_batch_first_hx"):
            for k, g in zip(("y", "hn", "cn"), nn_case(ms, name)):
                np.testing.assert_allclose(g, REC[f"{name}/{k}"], rtol=1e-5, atol=1e-6)
    finally:
        _native.library.cache_clear()


def test_mindir_reader_lstm_bits():
    """The MindIR reader's ``LSTM`` node is ``ops.LSTM``: the CRNN head MindSpore 2.10 exported (two-layer
    BiLSTM between a convolution and a Dense, ``fixtures/mindir``, recorded on AVX2) gives MindSpore's bits
    where oneDNN runs AVX2, its values to float32 rounding elsewhere."""
    from msjax.train._export.mindir_reader import load_mindir_graph
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "mindir")
    rec = np.load(os.path.join(here, "outputs.npz"))
    cell = ms.nn.GraphCell(load_mindir_graph(os.path.join(here, "crnn_head.mindir")))
    out = cell(ms.Tensor(rec["crnn_head/in0"]))
    assert len(out) == 3
    for i, got in enumerate(out):
        got, want = got.asnumpy(), rec[f"crnn_head/out{i}"]
        if oneDNN_isa() == RECORDED_ISA:
            assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), f"out{i}: {int((got != want).sum())} differ"
        else:
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
