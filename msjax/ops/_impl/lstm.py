"""``ops.LSTM``: the one-layer fused LSTM Primitive that MindSpore's ``nn.LSTM`` calls on CPU and GPU
(and zoo code calls directly).

Weights come flattened in one Tensor ``w``: ``w_ih`` ``(4H, I)``, ``w_hh`` ``(4H, H)``, then the
bias, gates in the order input, forget, cell, output. The bias is one ``(4H,)`` vector (``b_ih +
b_hh``, the CPU layout ``nn.LSTM`` packs) or two (``b_ih``, ``b_hh``: the GPU layout); the size of
``w`` tells which.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from ..._core.registry import op
from . import lstm_cpu
from ._util import Tensor, wrap


def _check_lstm(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0):
    for name, v in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            raise ValueError(f"For 'LSTM', the '{name}' must be a positive int, but got {v}.")
    if not isinstance(proj_size, int) or isinstance(proj_size, bool) or not 0 <= proj_size < hidden_size:
        raise ValueError(f"For 'LSTM', the 'proj_size' must be in [0, {hidden_size}), but got {proj_size}.")
    for name, v in (("has_bias", has_bias), ("bidirectional", bidirectional)):
        if not isinstance(v, bool):
            raise TypeError(f"For 'LSTM', the type of '{name}' should be 'bool', but got '{type(v).__name__}'.")
    if not isinstance(dropout, float):
        raise TypeError(f"For 'LSTM', the type of 'dropout' should be 'float', but got '{type(dropout).__name__}'.")
    if not 0.0 <= dropout <= 1.0:
        raise ValueError(f"For 'LSTM', the 'dropout' must be in range [0.0, 1.0], but got {dropout}.")


@op("prim_lstm", primitive="LSTM", family="nn",
    prim_args=("input_size", "hidden_size", "num_layers", "has_bias", "bidirectional", "dropout", "proj_size"),
    prim_check=_check_lstm)
def lstm(input, h, c, w, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0):
    """``ops.LSTM(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0)(input, h,
    c, w)`` -> ``(output, h_n, c_n, reserve, state)`` for ``input`` ``(seq_len, batch, input_size)`` and
    ``h``/``c`` ``(1, batch, hidden_size)``. float32 runs on msjax's CPU LSTM kernel where it can
    (``lstm_cpu``: oneDNN's ``lstm_forward`` as MindSpore's CPU kernel calls it, MindSpore's bits; the
    gradient is XLA's formula's); elsewhere, and for float16 (computed in float32 and rounded once),
    XLA's formula.

    Differences from MindSpore: ``reserve`` and ``state`` (its kernels' workspace and random state)
    are zeros of shape ``(1, 1)``; ``num_layers > 1``, ``bidirectional`` and ``proj_size > 0``
    raise ``NotImplementedError`` (MindSpore's CPU kernel documents one layer, one direction);
    with ``has_bias`` MindSpore's CPU kernel reads one bias vector even when ``w`` holds two
    (``b_hh`` ignored), msjax adds both as the GPU kernel does."""
    _check_lstm(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size)
    for feature, on in (("num_layers > 1", num_layers > 1), ("bidirectional", bidirectional),
                        ("proj_size > 0", proj_size > 0)):
        if on:
            raise NotImplementedError(f"msjax's ops.LSTM does not support {feature} (one layer, one direction, "
                                      "as MindSpore's CPU kernel); use nn.LSTM.")
    for name, t in (("input", input), ("h", h), ("c", c), ("w", w)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For 'LSTM', the '{name}' must be a Tensor, but got {type(t).__name__}.")
    x, h0, c0, wa = input._data, h._data, c._data, w._data
    if x.ndim != 3 or x.shape[2] != input_size:
        raise ValueError(f"For 'LSTM', the shape of 'input' must be (seq_len, batch, {input_size}), "
                         f"but got {list(x.shape)}.")
    want = (1, x.shape[1], hidden_size)
    for name, a in (("h", h0), ("c", c0)):
        if tuple(a.shape) != want:
            raise ValueError(f"For 'LSTM', the shape of '{name}' must be {list(want)}, but got {list(a.shape)}.")
    gates = 4 * hidden_size
    n_w = gates * (input_size + hidden_size)
    sizes = (n_w + gates, n_w + 2 * gates) if has_bias else (n_w,)
    if wa.size not in sizes:
        raise ValueError(f"For 'LSTM', the size of 'w' must be {' or '.join(map(str, sizes))}, but got {wa.size}.")
    native = lstm_cpu.usable(x, h0, c0, wa)
    out, hn, cn = _lstm(x, h0[0], c0[0], wa.reshape(-1), input_size, hidden_size, has_bias, native)
    zeros = jnp.zeros((1, 1), x.dtype)
    return wrap(out), wrap(hn[None]), wrap(cn[None]), wrap(zeros), wrap(zeros)


@functools.partial(jax.jit, static_argnums=(4, 5, 6, 7))
def _lstm(x, h0, c0, w, input_size, hidden_size, has_bias, native):
    g = 4 * hidden_size
    n_ih, n_w = g * input_size, g * (input_size + hidden_size)
    w_ih, w_hh = w[:n_ih].reshape(g, input_size), w[n_ih:n_w].reshape(g, hidden_size)
    biases = (w[n_w:n_w + g], w[n_w + g:] if w.shape[0] == n_w + 2 * g else None) if has_bias else (None, None)
    if native:
        return lstm_cpu.lstm(_formula, x, h0, c0, w_ih, w_hh, *biases)
    return _formula(x, h0, c0, w_ih, w_hh, *biases)


def _formula(x, h0, c0, w_ih, w_hh, b_ih, b_hh):
    """The LSTM in XLA (float16 computed in float32); the gradient of the native kernel."""
    dt = x.dtype
    f32 = (lambda a: a.astype(jnp.float32)) if dt in (jnp.float16, jnp.bfloat16) else (lambda a: a)
    x, h0, c0, w_ih, w_hh = f32(x), f32(h0), f32(c0), f32(w_ih), f32(w_hh)
    b = jnp.zeros((w_ih.shape[0],), jnp.float32)
    if b_ih is not None:
        b = f32(b_ih) + (f32(b_hh) if b_hh is not None else 0.0)
    xw = jnp.einsum("sbi,gi->sbg", x, w_ih) + b

    def step(carry, xt):
        hh, cc = carry
        i, f, cand, o = jnp.split(xt + hh @ w_hh.T, 4, axis=-1)
        cc = jax.nn.sigmoid(f) * cc + jax.nn.sigmoid(i) * jnp.tanh(cand)
        hh = jax.nn.sigmoid(o) * jnp.tanh(cc)
        return (hh, cc), hh

    (hn, cn), out = jax.lax.scan(step, (h0, c0), xw)
    return out.astype(dt), hn.astype(dt), cn.astype(dt)
