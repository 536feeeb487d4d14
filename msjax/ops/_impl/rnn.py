"""The fused recurrent Primitives of MindSpore's Ascend backend: ``ops.DynamicRNN`` (an LSTM over a
whole sequence) and ``ops.DynamicGRUV2``, as ``mindspore/ops/operations/nn_ops.py`` documents them.

MindSpore runs them on Ascend only (its CPU build has no kernel); here they run anywhere, as one
``jax.lax.scan`` over the time steps. float16 inputs are multiplied with float32 accumulation
(``preferred_element_type``), the gates and the states are computed in float32 and each output is
rounded once to its documented dtype; the hidden state is rounded to the input dtype where it
enters the next step's product. float32 inputs are computed in float32 (on Ascend MindSpore's kernel
selection would cast them to float16). Gradients follow MindSpore's bprops: ``y`` at every step, but
``output_h``/``output_c`` at the last step only, and nothing through the gate outputs.
"""
from __future__ import annotations

import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as np

from ..._checkparam import check_value_type
from ..._core.registry import op
from ._util import wrap
from .activation import check_dtype
from .math import _need_tensor

_F16_32 = (np.dtype(np.float16), np.dtype(np.float32))


def _mm(a, w):
    """``a @ w`` over a's last axis, accumulated (and returned) in float32."""
    return jax.lax.dot_general(a, w, (((a.ndim - 1,), (0,)), ((), ())), preferred_element_type=jnp.float32,
                               precision=jax.lax.Precision.HIGHEST)


def _check_string(name, arg, value, allowed):
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"For '{name}', the '{arg}' must be str and must be in '{list(allowed)}', but got "
                         f"'{value}'.")


def _with_defaults(fn, attrs):
    """The Primitive's constructor arguments, the ones not given at their defaults."""
    params = inspect.signature(fn).parameters
    return {**{k: p.default for k, p in params.items() if p.default is not inspect.Parameter.empty}, **attrs}


def _check_cell_args(name, attrs, floats, ints, bools):
    for k in floats:
        check_value_type(k, attrs[k], [float], name)
    for k in ints:
        check_value_type(k, attrs[k], [int], name)
        if attrs[k] < 0:
            raise ValueError(f"For '{name}', the '{k}' must be a non-negative int, but got {attrs[k]}.")
    for k in bools:
        check_value_type(k, attrs[k], [bool], name)
    if not 0.0 <= attrs["keep_prob"] <= 1.0:
        raise ValueError(f"For '{name}', the 'keep_prob' must be in range [0.0, 1.0], but got {attrs['keep_prob']}.")
    if attrs["time_major"] is not True:
        raise ValueError(f"For '{name}', the 'time_major' must be equal to True, but got {attrs['time_major']}.")
    _check_string(name, "direction", attrs["direction"], ("UNIDIRECTIONAL",))
    _check_string(name, "activation", attrs["activation"], ("tanh",))


def _not_supported(name, attrs, seq_length):
    """Settings MindSpore accepts but whose kernel behaviour it does not document: refused by name."""
    if seq_length is not None:
        raise NotImplementedError(f"For '{name}', msjax supports only seq_length=None (as MindSpore documents).")
    for k, plain in (("keep_prob", 1.0), ("num_proj", 0), ("cell_depth", 1), ("use_peephole", False)):
        if k in attrs and attrs[k] != plain:
            raise NotImplementedError(f"For '{name}', msjax does not support {k}={attrs[k]!r} (only {plain!r}).")


def _tensor(name, arg, x, ndim):
    """float16 (as MindSpore documents) or float32 (an msjax extension)."""
    _need_tensor(name, arg, x)
    a = check_dtype(name, x._data, _F16_32, arg)
    if a.ndim != ndim:
        raise ValueError(f"For '{name}', the dimension of '{arg}' must be {ndim}, but got {a.ndim}.")
    return a


def _shape_is(name, arg, a, shape):
    if tuple(a.shape) != tuple(shape):
        raise ValueError(f"For '{name}', the shape of '{arg}' must be {list(shape)}, but got {list(a.shape)}.")


def _last_step_grad(seq):
    """MindSpore's bprops read the cotangent of a state sequence at its last step only."""
    return jnp.concatenate([jax.lax.stop_gradient(seq[:-1]), seq[-1:]])


# --- DynamicRNN (LSTM) ----------------------------------------------------------------------------
def _dynamic_rnn_check(**attrs):
    name = "DynamicRNN"
    attrs = _with_defaults(prim_dynamic_rnn, attrs)
    _check_cell_args(name, attrs, ("forget_bias", "keep_prob", "cell_clip"), ("cell_depth", "num_proj"),
                     ("use_peephole", "time_major", "is_training"))
    check_value_type("cell_type", attrs["cell_type"], [str], name)
    _check_string(name, "cell_type", attrs["cell_type"], ("LSTM",))


@functools.partial(jax.jit, static_argnames=("forget_bias", "cell_clip", "out_dtype"))
def _lstm_scan(x, w, b, h0, c0, forget_bias, cell_clip, out_dtype):
    n_in = x.shape[2]
    xw = _mm(x, w[:n_in]) + b.astype(jnp.float32)          # the input half of [x, h] @ w, all steps at once
    w_h = w[n_in:]

    def step(carry, xw_t):
        h, c = carry
        i, j, f, o = jnp.split(xw_t + _mm(h, w_h), 4, axis=-1)
        i, j, f, o = jax.nn.sigmoid(i), jnp.tanh(j), jax.nn.sigmoid(f + forget_bias), jax.nn.sigmoid(o)
        c = f * c + i * j
        if cell_clip > 0:
            c = jnp.clip(c, -cell_clip, cell_clip)
        tanhc = jnp.tanh(c)
        h = o * tanhc
        return (h.astype(x.dtype), c), (h, c, i, j, f, o, tanhc)

    _, (h, c, i, j, f, o, tanhc) = jax.lax.scan(step, (h0[0].astype(x.dtype), c0[0].astype(jnp.float32)), xw)
    gates = [jax.lax.stop_gradient(g).astype(out_dtype) for g in (i, j, f, o, tanhc)]
    return (h.astype(out_dtype), _last_step_grad(h).astype(x.dtype), _last_step_grad(c).astype(out_dtype),
            *gates)


@op("prim_dynamic_rnn", primitive="DynamicRNN", family="nn", prim_check=_dynamic_rnn_check,
    prim_args=("cell_type", "direction", "cell_depth", "use_peephole", "keep_prob", "cell_clip", "num_proj",
               "time_major", "activation", "forget_bias", "is_training"))
def prim_dynamic_rnn(x, w, b, seq_length, init_h, init_c, cell_type="LSTM", direction="UNIDIRECTIONAL",
                     cell_depth=1, use_peephole=False, keep_prob=1.0, cell_clip=-1.0, num_proj=0, time_major=True,
                     activation="tanh", forget_bias=0.0, is_training=True):
    """``ops.DynamicRNN(...)(x, w, b, seq_length, init_h, init_c)`` -> ``(y, output_h, output_c, i, j, f, o,
    tanhc)``: an LSTM over x (num_step, batch, input_size) with ``w`` (input_size + hidden, 4 * hidden) applied
    to ``[x_t, h_{t-1}]``, gate order i, j (the candidate), f, o; ``f = sigmoid(. + forget_bias)``,
    ``c_t = f * c_{t-1} + i * j`` (clipped to +-cell_clip when cell_clip > 0), ``h_t = o * tanh(c_t)``.
    ``y``, ``output_c`` and the gates have ``b``'s dtype, ``output_h`` ``x``'s.

    Differences from MindSpore (Ascend only there): runs on any backend; float32 x is accepted and computed
    in float32; w, init_h and init_c are cast to x's dtype (MindSpore's Ascend graph casts the float32
    Parameters of the zoo's CRNN to float16 so); the cell state is carried in float32; ``is_training`` changes
    nothing (the gate outputs are always computed); seq_length, keep_prob < 1, num_proj, cell_depth != 1
    and use_peephole raise NotImplementedError."""
    name = "DynamicRNN"
    _not_supported(name, {"keep_prob": keep_prob, "num_proj": num_proj, "cell_depth": cell_depth,
                          "use_peephole": use_peephole}, seq_length)
    xa, wa = _tensor(name, "x", x, ndim=3), _tensor(name, "w", w, ndim=2)
    ba = _tensor(name, "b", b, ndim=1)
    h0, c0 = _tensor(name, "init_h", init_h, ndim=3), _tensor(name, "init_c", init_c, ndim=3)
    wa, h0, c0 = (a.astype(xa.dtype) for a in (wa, h0, c0))      # Ascend's kernel selection casts them to x's
    hidden = wa.shape[1] // 4
    _shape_is(name, "w", wa, (xa.shape[2] + hidden, 4 * hidden))
    _shape_is(name, "b", ba, (4 * hidden,))
    _shape_is(name, "init_h", h0, (1, xa.shape[1], hidden))
    _shape_is(name, "init_c", c0, (1, xa.shape[1], hidden))
    outs = _lstm_scan(xa, wa, ba, h0, c0, float(forget_bias), float(cell_clip), np.dtype(ba.dtype).name)
    return tuple(wrap(o) for o in outs)


# --- DynamicGRUV2 ---------------------------------------------------------------------------------
def _dynamic_gru_check(**attrs):
    name = "DynamicGRUV2"
    attrs = _with_defaults(prim_dynamic_gru_v2, attrs)
    _check_cell_args(name, attrs, ("keep_prob", "cell_clip"), ("cell_depth", "num_proj"),
                     ("time_major", "reset_after", "is_training"))
    _check_string(name, "gate_order", attrs["gate_order"], ("zrh", "rzh"))


@functools.partial(jax.jit, static_argnames=("zr_first", "reset_after", "out_dtype"))
def _gru_scan(x, w_i, w_h, b_i, b_h, h0, zr_first, reset_after, out_dtype):
    hid = w_h.shape[0]
    r_cols, z_cols = (slice(hid, 2 * hid), slice(0, hid)) if zr_first else (slice(0, hid), slice(hid, 2 * hid))
    xw = _mm(x, w_i) + b_i.astype(jnp.float32)
    b_h = b_h.astype(jnp.float32)

    def step(h, xw_t):
        hw = _mm(h.astype(x.dtype), w_h[:, :2 * hid]) + b_h[:2 * hid]
        r = jax.nn.sigmoid(xw_t[:, r_cols] + hw[:, r_cols])
        z = jax.nn.sigmoid(xw_t[:, z_cols] + hw[:, z_cols])
        h_in = h if reset_after else r * h                        # without reset_after r scales h first
        h_n = _mm(h_in.astype(x.dtype), w_h[:, 2 * hid:]) + b_h[2 * hid:]
        n = jnp.tanh(xw_t[:, 2 * hid:] + (r * h_n if reset_after else h_n))
        h = (1 - z) * n + z * h
        return h, (h, z, r, n, h_n)

    _, (h, z, r, n, h_n) = jax.lax.scan(step, h0.astype(jnp.float32), xw)
    gates_out = [jax.lax.stop_gradient(g).astype(out_dtype) for g in (z, r, n, h_n)]
    return (h.astype(out_dtype), _last_step_grad(h).astype(out_dtype), *gates_out)


@op("prim_dynamic_gru_v2", primitive="DynamicGRUV2", family="nn", prim_check=_dynamic_gru_check,
    prim_args=("direction", "cell_depth", "keep_prob", "cell_clip", "num_proj", "time_major", "activation",
               "gate_order", "reset_after", "is_training"))
def prim_dynamic_gru_v2(x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h,
                        direction="UNIDIRECTIONAL", cell_depth=1, keep_prob=1.0, cell_clip=-1.0, num_proj=0,
                        time_major=True, activation="tanh", gate_order="rzh", reset_after=True, is_training=True):
    """``ops.DynamicGRUV2(...)(x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h)``
    -> ``(y, output_h, update, reset, new, hidden_new)``: a GRU over x (num_step, batch, input_size), weights
    (input_size, 3 * hidden) and (hidden, 3 * hidden) with the gates in ``gate_order`` ('rzh': reset, update,
    new); ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))`` with ``reset_after`` (else ``W_hn (r * h) +
    b_hn``), ``h_t = (1 - z) * n + z * h_{t-1}``. ``hidden_new`` is the hidden side of the new gate,
    ``W_hn h + b_hn`` (``W_hn (r * h) + b_hn`` without reset_after). The outputs have the dtype of
    ``bias_input``, else of ``bias_hidden``, else of ``init_h``; a None bias counts as zeros.

    Differences from MindSpore (Ascend only there): runs on any backend; float32 x is accepted and computed
    in float32; the weights are cast to x's dtype (as on Ascend); the hidden state is carried in float32; ``cell_clip`` and ``is_training`` change
    nothing; seq_length, keep_prob < 1, num_proj and cell_depth != 1 raise NotImplementedError."""
    name = "DynamicGRUV2"
    _not_supported(name, {"keep_prob": keep_prob, "num_proj": num_proj, "cell_depth": cell_depth}, seq_length)
    xa = _tensor(name, "x", x, ndim=3)
    wi = _tensor(name, "weight_input", weight_input, ndim=2)
    wh = _tensor(name, "weight_hidden", weight_hidden, ndim=2)
    h0 = _tensor(name, "init_h", init_h, ndim=2)
    wi, wh = wi.astype(xa.dtype), wh.astype(xa.dtype)                # as Ascend's kernel selection casts them
    hidden = wh.shape[0]
    _shape_is(name, "weight_input", wi, (xa.shape[2], 3 * hidden))
    _shape_is(name, "weight_hidden", wh, (hidden, 3 * hidden))
    _shape_is(name, "init_h", h0, (xa.shape[1], hidden))
    bi = None if bias_input is None else _tensor(name, "bias_input", bias_input, ndim=1)
    bh = None if bias_hidden is None else _tensor(name, "bias_hidden", bias_hidden, ndim=1)
    out_dtype = next(a.dtype for a in (bi, bh, h0) if a is not None)
    zeros = jnp.zeros(3 * hidden, out_dtype)
    bi, bh = zeros if bi is None else bi, zeros if bh is None else bh
    _shape_is(name, "bias_input", bi, (3 * hidden,))
    _shape_is(name, "bias_hidden", bh, (3 * hidden,))
    outs = _gru_scan(xa, wi, wh, bi, bh, h0, gate_order == "zrh", bool(reset_after), np.dtype(out_dtype).name)
    return tuple(wrap(o) for o in outs)
