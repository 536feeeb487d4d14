"""Recurrent layers: ``RNN``, ``GRU``, ``LSTM`` and the single-step ``RNNCell``, ``GRUCell``,
``LSTMCell``, in MindSpore's layouts.

Parameters are named and ordered as in MindSpore (``weight_ih_l0``, ``weight_ih_l0_reverse``,
..., all ``weight_ih`` first, then ``weight_hh``, ``bias_ih``, ``bias_hh``); gate order is
(i, f, g, o) for LSTM and (r, z, n) for GRU. The time loop is a ``jax.lax.scan``, so long
sequences compile to one loop. ``seq_length`` (per-batch valid lengths) freezes the state and
zeroes the outputs past each length, and the reverse direction reverses only the valid part,
as MindSpore's ``ReverseSequence`` does. Initial weights are U(-1/sqrt(hidden), 1/sqrt(hidden))
drawn as MindSpore draws them (so the same under ``ms.set_seed``): the multi-step layers with
``np.random.uniform``, the cells with ``np.random.randn`` then the ``Uniform`` initializer.
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.parameter import Parameter, ParameterTuple
from ..._core.tensor import Tensor, wrap
from ...common.initializer import Uniform, initializer
from ..cell import Cell
from ...ops._impl import export_names, lstm_cpu
from ...ops._impl.activation import relu_array
from .basic import Dropout

__all__ = ["RNN", "GRU", "LSTM", "RNNCell", "GRUCell", "LSTMCell"]


class _Transposed:
    """A weight already transposed (``w.T``), as the time loop passes it to ``_mm``."""
    __slots__ = ("t",)

    def __init__(self, t):
        self.t = t


def _mm(x, w):
    wt = w.t if isinstance(w, _Transposed) else w.T
    return jnp.matmul(x, wt, precision=jax.lax.Precision.HIGHEST)


def _rnn_tanh_step(x, h, w_ih, w_hh, b_ih, b_hh):
    i = _mm(x, w_ih) + (b_ih if b_ih is not None else 0)
    g = _mm(h, w_hh) + (b_hh if b_hh is not None else 0)
    return jnp.tanh(i + g)


def _rnn_relu_step(x, h, w_ih, w_hh, b_ih, b_hh):
    i = _mm(x, w_ih) + (b_ih if b_ih is not None else 0)
    g = _mm(h, w_hh) + (b_hh if b_hh is not None else 0)
    return relu_array(i + g)


def _lstm_step(x, hc, w_ih, w_hh, b_ih, b_hh):
    hx, cx = hc
    gates = _mm(x, w_ih) + _mm(hx, w_hh)
    if b_ih is not None:
        gates = gates + b_ih + b_hh
    i, f, g, o = jnp.split(gates, 4, axis=1)
    i, f, g, o = jax.nn.sigmoid(i), jax.nn.sigmoid(f), jnp.tanh(g), jax.nn.sigmoid(o)
    cy = f * cx + i * g
    hy = o * jnp.tanh(cy)
    return hy, cy


def _gru_step(x, h, w_ih, w_hh, b_ih, b_hh):
    gi = _mm(x, w_ih) + (b_ih if b_ih is not None else 0)
    gh = _mm(h, w_hh) + (b_hh if b_hh is not None else 0)
    i_r, i_i, i_n = jnp.split(gi, 3, axis=1)
    h_r, h_i, h_n = jnp.split(gh, 3, axis=1)
    r = jax.nn.sigmoid(i_r + h_r)
    z = jax.nn.sigmoid(i_i + h_i)
    n = jnp.tanh(i_n + r * h_n)
    return n + z * (h - n)


_STEPS = {"RNN_TANH": _rnn_tanh_step, "RNN_RELU": _rnn_relu_step, "LSTM": _lstm_step, "GRU": _gru_step}


def _check_float(name, t, cls_name):
    if not isinstance(t, Tensor):
        raise TypeError(f"For '{cls_name}', the '{name}' must be 'Tensor', but got '{type(t).__name__}'")
    if t.dtype not in (mstype.float32, mstype.float16):
        raise TypeError(f"For '{cls_name}', the type of '{name}' should be one of '[Float32, Float16]', "
                        f"but got '{t.dtype}'.")


class _RNNCellBase(Cell):
    def __init__(self, input_size, hidden_size, has_bias, num_chunks, dtype=mstype.float32):
        super().__init__()
        cls_name = type(self).__name__
        if not isinstance(has_bias, bool):
            raise TypeError(f"For '{cls_name}', the type of 'has_bias' must be bool, but got {type(has_bias).__name__}.")
        for n, v in (("hidden_size", hidden_size), ("input_size", input_size)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be int, but got {type(v).__name__}.")
            if v <= 0:
                raise ValueError(f"For '{cls_name}', the '{n}' must be a positive int, but got {v}.")
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.has_bias = has_bias
        # MindSpore first fills the weights with np.random.randn (which advances NumPy's global
        # generator), then redraws each with Uniform(stdv) in reset_parameters: both are kept
        shapes = [(num_chunks * hidden_size, input_size), (num_chunks * hidden_size, hidden_size)]
        shapes += [(num_chunks * hidden_size,)] * (2 if has_bias else 0)
        for shape in shapes:
            np.random.randn(*shape)
        stdv = 1 / math.sqrt(hidden_size)
        init = Uniform(stdv)
        self.weight_ih = Parameter(initializer(init, shapes[0], dtype))
        self.weight_hh = Parameter(initializer(init, shapes[1], dtype))
        if has_bias:
            self.bias_ih = Parameter(initializer(init, shapes[2], dtype))
            self.bias_hh = Parameter(initializer(init, shapes[3], dtype))
        else:
            self.bias_ih = None
            self.bias_hh = None

    def _w(self):
        return (self.weight_ih._data, self.weight_hh._data,
                self.bias_ih._data if self.has_bias else None, self.bias_hh._data if self.has_bias else None)


class RNNCell(_RNNCellBase):
    """``nn.RNNCell(input_size, hidden_size, has_bias=True, nonlinearity='tanh', dtype=mstype.float32)``:
    ``construct(x, hx)`` -> h'."""

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh", dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=1, dtype=dtype)
        if not isinstance(nonlinearity, str):
            raise TypeError(f"For 'RNNCell', the type of 'nonlinearity' must be str, "
                            f"but got {type(nonlinearity).__name__}.")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNNCell', the 'nonlinearity' must be str and the value of 'nonlinearity' should "
                             f"be in ['tanh', 'relu'], but got {nonlinearity}.")
        self.nonlinearity = nonlinearity

    def construct(self, x, hx):
        _check_float("x", x, "RNNCell")
        _check_float("hx", hx, "RNNCell")
        step = _rnn_tanh_step if self.nonlinearity == "tanh" else _rnn_relu_step
        return wrap(step(x._data, hx._data, *self._w()))


class LSTMCell(_RNNCellBase):
    """``nn.LSTMCell(input_size, hidden_size, has_bias=True, dtype=mstype.float32)``:
    ``construct(x, (hx, cx))`` -> (h', c')."""

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=4, dtype=dtype)
        self.support_non_tensor_inputs = True

    def construct(self, x, hx):
        _check_float("x", x, "LSTMCell")
        if not isinstance(hx, tuple):
            raise TypeError(f"For 'LSTMCell', the 'hx' must be 'Tuple', but got '{type(hx).__name__}'")
        if len(hx) != 2:
            raise TypeError(f"For 'LSTMCell', the length of 'hx' must be '2', but got '{len(hx)}'")
        _check_float("hx[0]", hx[0], "LSTMCell")
        _check_float("hx[1]", hx[1], "LSTMCell")
        h, c = _lstm_step(x._data, (hx[0]._data, hx[1]._data), *self._w())
        return wrap(h), wrap(c)


class GRUCell(_RNNCellBase):
    """``nn.GRUCell(input_size, hidden_size, has_bias=True, dtype=mstype.float32)``: ``construct(x, hx)``."""

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=3, dtype=dtype)

    def construct(self, x, hx):
        _check_float("x", x, "GRUCell")
        _check_float("hx", hx, "GRUCell")
        return wrap(_gru_step(x._data, hx._data, *self._w()))


def _scan(mode, x, h0, w_ih, w_hh, b_ih, b_hh, lengths=None, native=False):
    """Run one direction over time-major ``x`` (T, N, I); returns (outputs (T, N, H), final state).

    Each mode is one ``jax.jit`` named ``msjax_rnn_<mode>``: compiled once per shape when called
    eagerly, and a named call inside a trace (XLA inlines it), which the MINDIR and ONNX writers
    write as MindSpore's ``LSTM`` node / ONNX's ``LSTM`` operator. ``native`` (LSTM without
    ``lengths``, float32, ``lstm_cpu.usable``): the loop is msjax's CPU LSTM kernel, MindSpore's
    values bit for bit (its ``nn.LSTM`` calls its ``LSTM`` kernel there), the gradient the loop's."""
    return _DIRECTIONS[mode](x, h0, w_ih, w_hh, b_ih, b_hh, lengths, native, export_names.active())


def _native_lstm(x, h0, w_ih, w_hh, b_ih, b_hh):
    def reference(x, h, c, w_ih, w_hh, b_ih, b_hh):
        outs, (hn, cn) = _direction("LSTM", x, (h, c), w_ih, w_hh, b_ih, b_hh, None)
        return outs, hn, cn
    outs, hn, cn = lstm_cpu.lstm(reference, x, h0[0], h0[1], w_ih, w_hh, b_ih, b_hh)
    return outs, (hn, cn)


def _direction(mode, x, h0, w_ih, w_hh, b_ih, b_hh, lengths):
    step = _STEPS[mode]
    is_lstm = mode == "LSTM"
    t_idx = jnp.arange(x.shape[0])
    # LSTM's weights transposed once, outside the loop: ``w.T`` inside it made XLA:CPU copy the transposed
    # weight at every step (a 1,024-unit bidirectional LSTM layer: 90 ms a step); ``_mm`` takes them back.
    # (The writers write an LSTM as one node; GRU/RNN loops are written unrolled, as traced.)
    wt_ih, wt_hh = (_Transposed(w_ih.T), _Transposed(w_hh.T)) if is_lstm else (w_ih, w_hh)

    def body(state, inp):
        xt, t = inp
        new = step(xt, state, wt_ih, wt_hh, b_ih, b_hh)
        if lengths is None:
            out = new[0] if is_lstm else new
            return new, out
        valid = (t < lengths)[:, None]
        if is_lstm:
            new = (jnp.where(valid, new[0], state[0]), jnp.where(valid, new[1], state[1]))
            out = jnp.where(valid, new[0], jnp.zeros((), x.dtype))
        else:
            new = jnp.where(valid, new, state)
            out = jnp.where(valid, new, jnp.zeros((), x.dtype))
        return new, out

    final, outs = jax.lax.scan(body, h0, (x, t_idx))
    return outs, final


def _named_direction(mode):
    def fn(x, h0, w_ih, w_hh, b_ih, b_hh, lengths, native, naming):   # naming: a cache key only
        if native:
            return _native_lstm(x, h0, w_ih, w_hh, b_ih, b_hh)
        return _direction(mode, x, h0, w_ih, w_hh, b_ih, b_hh, lengths)
    fn.__name__ = fn.__qualname__ = f"msjax_rnn_{mode}"
    return jax.jit(fn, static_argnums=(7, 8))


_DIRECTIONS = {mode: _named_direction(mode) for mode in _STEPS}


def _reverse_sequence(x, lengths):
    """Reverse the first ``lengths[b]`` steps of each batch column of time-major ``x``."""
    if lengths is None:
        return x[::-1]
    t = x.shape[0]
    ar = jnp.arange(t)[:, None]
    src = jnp.where(ar < lengths[None, :], lengths[None, :] - 1 - ar, ar)
    return jnp.take_along_axis(x, src[..., None].astype(jnp.int32), axis=0)


class _DynamicLSTMCPUGPU(Cell):
    """Placeholder child shown in MindSpore's repr (``(rnn): _DynamicLSTMCPUGPU()``); the loop is ``_scan``."""


class _DynamicGRUCPUGPU(Cell):
    """Placeholder child shown in MindSpore's repr."""


class _DynamicRNNTanh(Cell):
    """Placeholder child shown in MindSpore's repr."""


class _DynamicRNNRelu(Cell):
    """Placeholder child shown in MindSpore's repr."""


_RUNNERS = {"LSTM": _DynamicLSTMCPUGPU, "GRU": _DynamicGRUCPUGPU, "RNN_TANH": _DynamicRNNTanh,
            "RNN_RELU": _DynamicRNNRelu}


class _RNNBase(Cell):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, dtype=mstype.float32):
        super().__init__()
        cls_name = type(self).__name__
        for n, v in (("hidden_size", hidden_size), ("input_size", input_size), ("num_layers", num_layers)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be int, but got {type(v).__name__}.")
            if v <= 0:
                raise ValueError(f"For '{cls_name}', the '{n}' must be a positive int, but got {v}.")
        if not isinstance(dropout, float):
            raise TypeError(f"For '{cls_name}', the type of 'dropout' must be float, but got {type(dropout).__name__}.")
        for n, v in (("has_bias", has_bias), ("batch_first", batch_first), ("bidirectional", bidirectional)):
            if not isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be bool, but got {type(v).__name__}.")
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{cls_name}', the 'dropout' must be a number in range [0, 1) representing the "
                             f"probability of an element being zeroed, but got {dropout}.")
        if mode not in _STEPS:
            raise ValueError(f"For '{cls_name}', the 'mode' must be in ['RNN_RELU', 'RNN_TANH', 'LSTM', 'GRU'], "
                             f"but got {mode}.")
        gate_size = {"LSTM": 4, "GRU": 3}.get(mode, 1) * hidden_size
        self.rnn = _RUNNERS[mode]()
        self.mode = mode
        self.hidden_size = hidden_size
        self.batch_first = batch_first
        self.num_layers = num_layers
        self.dropout = dropout
        self.dropout_op = Dropout(p=float(dropout))
        self.bidirectional = bidirectional
        self.has_bias = has_bias
        num_directions = 2 if bidirectional else 1
        self.is_lstm = mode == "LSTM"
        stdv = 1 / math.sqrt(hidden_size)
        lists = {"w_ih_list": [], "w_hh_list": [], "b_ih_list": [], "b_hh_list": []}
        for layer in range(num_layers):
            for direction in range(num_directions):
                in_size = input_size if layer == 0 else hidden_size * num_directions
                suffix = "_reverse" if direction == 1 else ""

                def mk(shape, name):
                    return Parameter(Tensor(np.random.uniform(-stdv, stdv, shape).astype(np.float32), dtype=dtype), name=name)
                lists["w_ih_list"].append(mk((gate_size, in_size), f"weight_ih_l{layer}{suffix}"))
                lists["w_hh_list"].append(mk((gate_size, hidden_size), f"weight_hh_l{layer}{suffix}"))
                if has_bias:
                    lists["b_ih_list"].append(mk((gate_size,), f"bias_ih_l{layer}{suffix}"))
                    lists["b_hh_list"].append(mk((gate_size,), f"bias_hh_l{layer}{suffix}"))
        for k, v in lists.items():
            object.__setattr__(self, k, ParameterTuple(v))
        object.__setattr__(self, "_local_names", tuple(p.name for v in lists.values() for p in v))

    def _own_params(self):
        """The ParameterTuples' members, named as when created (MindSpore's order)."""
        params = [p for k in ("w_ih_list", "w_hh_list", "b_ih_list", "b_hh_list") for p in getattr(self, k)]
        return list(zip(self._local_names, params))

    def _weights(self, idx):
        w_ih = self.w_ih_list[idx]._data
        w_hh = self.w_hh_list[idx]._data
        if self.has_bias:
            return w_ih, w_hh, self.b_ih_list[idx]._data, self.b_hh_list[idx]._data
        return w_ih, w_hh, None, None

    def construct(self, x, hx=None, seq_length=None):
        cls_name = type(self).__name__
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{cls_name}', the 'x' must be 'Tensor', but got '{type(x).__name__}'")
        xa = x._data
        max_batch = xa.shape[0] if self.batch_first else xa.shape[1]
        nd = 2 if self.bidirectional else 1
        dt = xa.dtype
        if hx is not None:
            if not self.is_lstm:
                _check_float("h", hx, cls_name)
                if hx.dtype != x.dtype or x.dtype not in (mstype.float32, mstype.float16):
                    raise TypeError(f"For '{cls_name}', the type of 'hx' should be same as 'x' and one of "
                                    f"[Float32, Float16], but got {hx.dtype} and {x.dtype}.")
                h = hx._data
            else:
                if not isinstance(hx, tuple):
                    raise TypeError(f"For '{cls_name}', the 'hx' must be 'Tuple', but got '{type(hx).__name__}'")
                if len(hx) != 2:
                    raise TypeError(f"For '{cls_name}', the length of 'hx' must be '2', but got '{len(hx)}'")
                for i in range(2):
                    _check_float(f"hx[{i}]", hx[i], cls_name)
                h = (hx[0]._data, hx[1]._data)
        else:
            z = jnp.zeros((self.num_layers * nd, max_batch, self.hidden_size), dt)
            h = (z, z) if self.is_lstm else z
        lengths = None
        if seq_length is not None:
            if seq_length.dtype not in (mstype.int32, mstype.int64):
                raise TypeError(f"For '{cls_name}', the type of 'seq_length' should be one of '[Int32, Int64]', "
                                f"but got '{seq_length.dtype}'.")
            if seq_length.shape[0] != max_batch:
                raise ValueError(f"For '{cls_name}' batch size of x and seq_length must be equal, but got {max_batch} "
                                 f"of x and {seq_length.shape[0]} of seq_length.")
            lengths = seq_length._data
        if self.batch_first:
            xa = jnp.transpose(xa, (1, 0, 2))
        pre = xa
        h_n, c_n = [], []
        for layer in range(self.num_layers):
            outs = []
            for d in range(nd):
                idx = layer * nd + d
                w = tuple(None if a is None else a.astype(dt) for a in self._weights(idx))
                h0 = (h[0][idx], h[1][idx]) if self.is_lstm else h[idx]
                inp = pre if d == 0 else _reverse_sequence(pre, lengths)
                native = (self.is_lstm and lengths is None
                          and lstm_cpu.usable(inp, *h0, *(a for a in w if a is not None)))
                o, fin = _scan(self.mode, inp, h0, *w, lengths=lengths, native=native)
                if d == 1:
                    o = _reverse_sequence(o, lengths)
                outs.append(o)
                if self.is_lstm:
                    h_n.append(fin[0])
                    c_n.append(fin[1])
                else:
                    h_n.append(fin)
            out = outs[0] if nd == 1 else jnp.concatenate(outs, axis=2)
            if self.dropout != 0 and layer < self.num_layers - 1:
                out = self.dropout_op(wrap(out))._data
            pre = out
        if self.batch_first:
            pre = jnp.transpose(pre, (1, 0, 2))
        if self.is_lstm:
            return wrap(pre.astype(dt)), (wrap(jnp.stack(h_n).astype(dt)), wrap(jnp.stack(c_n).astype(dt)))
        return wrap(pre.astype(dt)), wrap(jnp.stack(h_n).astype(dt))


class RNN(_RNNBase):
    """``nn.RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', has_bias=True, batch_first=False,
    dropout=0.0, bidirectional=False, dtype=mstype.float32)``: ``construct(x, hx=None, seq_length=None)``
    -> (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "nonlinearity" in kwargs:
            nl = kwargs.pop("nonlinearity")
            if nl == "tanh":
                mode = "RNN_TANH"
            elif nl == "relu":
                mode = "RNN_RELU"
            else:
                raise ValueError(f"For 'RNN', the 'nonlinearity' must be in ['tanh', 'relu'], but got {nl}.")
        else:
            mode = "RNN_TANH"
        super().__init__(mode, *args, **kwargs)


class GRU(_RNNBase):
    """``nn.GRU(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, dtype=mstype.float32)``."""

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)


class LSTM(_RNNBase):
    """``nn.LSTM(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, dtype=mstype.float32)``: ``construct(x, hx=None, seq_length=None)`` ->
    (output, (h_n, c_n)).

    float32 without ``seq_length`` on the CPU: each direction of each layer is msjax's CPU LSTM
    kernel (``ops/_impl/lstm_cpu.py``), MindSpore 2.10's values bit for bit (its ``nn.LSTM`` calls
    its oneDNN ``LSTM`` kernel so); the gradient is XLA's formula's, not MindSpore's ``LSTMGrad``.
    With ``seq_length`` MindSpore runs its Python loop of MatMuls, msjax XLA's loop: the values agree
    to float32 rounding, as do float16 and the other backends."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)
