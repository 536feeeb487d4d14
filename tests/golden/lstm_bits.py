"""Float32 ``nn.LSTM`` and ``ops.LSTM`` cases run the same way under MindSpore 2.10
(``record_lstm_bits.py``) and msjax (``tests/test_lstm_bits.py``): one and two layers, one and two
directions, ``batch_first`` both ways, with and without bias, with and without initial states, one
case with ``seq_length`` and one of CTPN's BiLSTM's width (whose bits depend on the instruction set:
MindSpore's CPU LSTM kernel is oneDNN's ``lstm_forward``). Inputs and weights are seeded NumPy draws.
Only numpy here (``ms`` is ``mindspore`` or ``msjax``)."""
import os

import numpy as np

# name: (seq_len, batch, input_size, hidden, num_layers, bidirectional, has_bias, batch_first, with hx, seq_length)
CASES = {
    "uni_1layer_bias_hx": (5, 3, 10, 16, 1, False, True, False, True, False),
    "bi_1layer_nobias_batch_first": (6, 2, 7, 12, 1, True, False, True, False, False),
    "uni_2layers_bias_batch_first_hx": (4, 3, 9, 8, 2, False, True, True, True, False),
    "bi_2layers_bias_hx": (7, 4, 12, 20, 2, True, True, False, True, False),
    "bi_ctpn_width": (12, 10, 256, 128, 1, True, True, False, False, False),
    "bi_1layer_seq_length": (6, 3, 5, 8, 1, True, True, False, True, True),
}
GRAPH_CASES = ("bi_2layers_bias_hx", "bi_ctpn_width")
# ops.LSTM (one layer, one direction): name -> (seq_len, batch, input_size, hidden, has_bias)
OPS_CASES = {"ops_bias": (9, 5, 24, 32, True), "ops_nobias": (3, 2, 6, 10, False)}


def oneDNN_isa():
    """The instruction set oneDNN's kernels use here: ``avx2`` where ``ONEDNN_MAX_CPU_ISA`` holds them to
    AVX2 (the CI CPU emulated), else this CPU's (``lenet_step.machine``)."""
    try:
        from .lenet_step import machine
    except ImportError:
        from lenet_step import machine
    if os.environ.get("ONEDNN_MAX_CPU_ISA", "").upper() == "AVX2":
        return "avx2"
    return machine()["isa"]


def _draws(name, shapes):
    rs = np.random.RandomState(sum(map(ord, name)))
    return [rs.uniform(-1.0, 1.0, s).astype(np.float32) for s in shapes]


def nn_inputs(name):
    """``(x, hx or None, seq_length or None, {parameter name: value})`` of an ``nn.LSTM`` case."""
    t, n, i, h, layers, bi, bias, batch_first, with_hx, with_len = CASES[name]
    nd = 2 if bi else 1
    x, h0, c0 = _draws(name, [(n, t, i) if batch_first else (t, n, i), (layers * nd, n, h), (layers * nd, n, h)])
    params = {}
    rs = np.random.RandomState(len(name))
    for kind in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
        if kind.startswith("bias") and not bias:
            continue
        for layer in range(layers):
            for d in range(nd):
                cols = {"weight_ih": i if layer == 0 else h * nd, "weight_hh": h}.get(kind)
                shape = (4 * h,) if cols is None else (4 * h, cols)
                params[f"{kind}_l{layer}{'_reverse' if d else ''}"] = (
                    rs.uniform(-1.0, 1.0, shape) / np.sqrt(h)).astype(np.float32)
    lengths = np.array([t, t - 2, 1][:n], np.int32) if with_len else None
    return x, ((h0, c0) if with_hx else None), lengths, params


def nn_case(ms, name):
    """``(y, h_n, c_n)`` of ``nn.LSTM`` case ``name`` as NumPy arrays."""
    t, n, i, h, layers, bi, bias, batch_first, _, _ = CASES[name]
    x, hx, lengths, params = nn_inputs(name)
    net = ms.nn.LSTM(i, h, num_layers=layers, has_bias=bias, batch_first=batch_first, bidirectional=bi)
    for p in net.get_parameters():
        p.set_data(ms.Tensor(params[p.name.rsplit(".", 1)[-1]]))
    args = [ms.Tensor(x), None if hx is None else tuple(ms.Tensor(a) for a in hx)]
    if lengths is not None:
        args.append(ms.Tensor(lengths))
    y, (hn, cn) = net(*args)
    return y.asnumpy(), hn.asnumpy(), cn.asnumpy()


def ops_inputs(name):
    """``(x, h, c, w)`` of an ``ops.LSTM`` case: ``w`` as ``nn.LSTM`` packs it on CPU (biases summed)."""
    t, n, i, h, bias = OPS_CASES[name]
    x, h0, c0, w_ih, w_hh, b_ih, b_hh = _draws(name, [(t, n, i), (1, n, h), (1, n, h), (4 * h, i), (4 * h, h),
                                                      (4 * h,), (4 * h,)])
    parts = [w_ih, w_hh] + ([b_ih + b_hh] if bias else [])
    return x, h0, c0, np.concatenate([p.ravel() for p in parts]).reshape(-1, 1, 1)


def ops_case(ms, name):
    t, n, i, h, bias = OPS_CASES[name]
    x, h0, c0, w = ops_inputs(name)
    y, hn, cn, _, _ = ms.ops.LSTM(i, h, 1, bias, False, 0.0)(*(ms.Tensor(a) for a in (x, h0, c0, w)))
    return y.asnumpy(), hn.asnumpy(), cn.asnumpy()
