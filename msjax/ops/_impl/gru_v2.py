"""``mindspore.ops.operations._rl_inner_ops.GRUV2`` and ``_grad_ops.GRUV2Grad``: the stacked GRU Primitive
on one flat weight Tensor, as MindSpore 2.10's CPU kernel (oneDNN's ``gru_forward``) computes it.

The GRU is oneDNN's (not PyTorch's ``nn.GRU``: the reset gate multiplies ``h`` before the recurrent
product of the candidate), gates in the order update ``u``, reset ``r``, candidate ``o``::

    u = sigmoid(x W_u' + h U_u' + b_u)      r = sigmoid(x W_r' + h U_r' + b_r)
    o = tanh(x W_o' + (r * h) U_o' + b_o)   h' = u * h + (1 - u) * o

``w`` (any shape; read flat) holds every layer's and direction's input weights ``(L, D, 3, H, I)``,
then the recurrent ones ``(L, D, 3, H, H)``, then (``has_bias``) one bias ``(L, D, 3, H)``; MindSpore's
callers size ``w`` for two biases (``b_ih``, ``b_hh``) but its kernel reads the first only, and so does
msjax. ``seq_lengths`` is checked, not used (MindSpore's CPU kernel runs every step of every batch
row), and ``dropout`` is not applied (the kernel has none).

Differences from MindSpore: computed by XLA, not oneDNN (values agree to about 1e-7, not bit for bit);
float16 is computed in float32 and rounded once (MindSpore's CPU kernel returns meaningless ones and
zeros for float16); ``reserve`` and ``state`` are zeros ``(1, 1)`` (the
kernel's workspace); a ``w`` smaller than the weights it must hold raises ``ValueError`` (MindSpore's
kernel reads past its end); the gradient of ``w`` through autodiff has ``w``'s size (MindSpore's
``GRUV2Grad`` gives ``dw`` of the weights and one bias only)."""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ... import _checkparam as _v
from ..._core import dtype as mstype
from ..._core.registry import Primitive
from ..._core.tensor import Tensor
from ._util import arr, wrap

__all__ = ["GRUV2", "GRUV2Grad"]


def _check_attrs(name, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout):
    for arg, v in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
        _v.check_positive_int(v, arg, name)
    _v.check_value_type("has_bias", has_bias, (bool,), name)
    _v.check_value_type("bidirectional", bidirectional, (bool,), name)
    _v.check_value_type("dropout", dropout, [float], name)
    _v.check_float_range(dropout, 0, 1, "dropout", name, inc_left=True, inc_right=True)


class _GRUBase(Primitive):
    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout):
        super().__init__()
        _check_attrs(type(self).__name__, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout)
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.has_bias, self.bidirectional, self.dropout = has_bias, bidirectional, dropout
        self.num_directions = 2 if bidirectional else 1
        self._attrs = {}

    def _inputs(self, x, h, w, seq_lengths):
        """The arrays of the forward's inputs after MindSpore's checks."""
        name = "GRUV2"
        for t in (x, h, w, seq_lengths):
            if not isinstance(t, Tensor):
                raise TypeError(f"For primitive[{name}], the inputs must be Tensors, but got {type(t).__name__}.")
        xa, ha, wa, sa = arr(x), arr(h), arr(w), arr(seq_lengths)
        for a in (xa, ha):
            if a.ndim != 3:
                raise ValueError(f"For primitive[{name}], the input dims must be equal to 3, but got {a.ndim}.")
        if xa.shape[2] != self.input_size:
            raise ValueError("For dynamic rnn, the input_shape[2] should equal to input_size.")
        if ha.shape[0] != self.num_layers * self.num_directions:
            raise ValueError("For dynamic rnn, the h_shape[0] should equal to num_directions * num_layers.")
        if sa.ndim != 1 or ha.shape[1] != xa.shape[1] or sa.shape[0] != xa.shape[1]:
            raise ValueError("For dynamic rnn, the batch_size should be the same between input, h, and seq_lengths.")
        if ha.shape[2] != self.hidden_size:
            raise ValueError("For dynamic rnn, the h_shape[2] should equal to hidden_size.")
        if not xa.dtype == ha.dtype == wa.dtype:
            raise TypeError(f"For primitive[{name}], the input type must be same.")
        if xa.dtype not in (jnp.float16, jnp.float32):
            raise TypeError(f"For primitive[{name}], the input argument[x] must be a type of "
                            f"{{Tensor[Float16], Tensor[Float32]}}, but got Tensor[{_ms_name(xa.dtype)}].")
        if sa.dtype != jnp.int32:
            raise TypeError(f"For primitive[{name}], the input argument[seq_lengths] must be a type of "
                            f"{{Tensor[Int32]}}, but got Tensor[{_ms_name(sa.dtype)}].")
        if wa.ndim != 3:
            raise RuntimeError("Gru only support 3-D input!")
        d, hid = self.num_directions, self.hidden_size
        if self.num_layers > 1 and self.input_size != d * hid:
            raise RuntimeError(f"For '{name}', num_layers > 1 needs input_size == num_directions * hidden_size "
                               f"({d * hid}), but got {self.input_size}: MindSpore's CPU kernel (oneDNN) cannot "
                               "create its GRU primitive otherwise.")
        need = _sizes(self.num_layers, d, self.input_size, hid, self.has_bias)[-1]
        if wa.size < need:
            raise ValueError(f"For '{name}', 'w' must hold at least {need} values (weights"
                             f"{' and bias' if self.has_bias else ''}), but got {wa.size}.")
        return xa, ha, wa

    def _run(self, xa, ha, wa):
        return _gru(xa, ha, wa.reshape(-1), self.num_layers, self.num_directions, self.input_size,
                    self.hidden_size, self.has_bias)


def _ms_name(dtype):
    return mstype.from_np(np.dtype(dtype))


def _sizes(layers, d, input_size, hidden, has_bias):
    """End offsets in the flat ``w`` of the input weights, the recurrent weights and the bias."""
    g = 3 * hidden
    n_in = layers * d * g * input_size
    n_h = n_in + layers * d * g * hidden
    return n_in, n_h, n_h + (layers * d * g if has_bias else 0)


@functools.partial(jax.jit, static_argnums=(3, 4, 5, 6, 7))
def _gru(x, h0, w, layers, d, input_size, hidden, has_bias):
    """``(y (T, N, D*H), h_n (L*D, N, H))``: the stacked GRU (module docstring) over time-major ``x``."""
    dt = x.dtype
    x, h0, w = x.astype(jnp.float32), h0.astype(jnp.float32), w.astype(jnp.float32)
    n_in, n_h, n_b = _sizes(layers, d, input_size, hidden, has_bias)
    w_in = w[:n_in].reshape(layers, d, 3, hidden, input_size)
    w_h = w[n_in:n_h].reshape(layers, d, 3, hidden, hidden)
    bias = w[n_h:n_b].reshape(layers, d, 3, hidden) if has_bias else jnp.zeros((layers, d, 3, hidden), jnp.float32)
    hn, seq = [], x
    for layer in range(layers):
        outs = []
        for k in range(d):
            last, ys = _direction(seq, h0[layer * d + k], w_in[layer, k], w_h[layer, k], bias[layer, k], k == 1)
            outs.append(ys)
            hn.append(last)
        seq = outs[0] if d == 1 else jnp.concatenate(outs, axis=-1)
    return seq.astype(dt), jnp.stack(hn).astype(dt)


def _direction(x, h0, w_in, w_h, b, reverse):
    xw = jnp.einsum("tni,ghi->tngh", x, w_in) + b

    def step(h, xt):
        u = jax.nn.sigmoid(xt[:, 0] + h @ w_h[0].T)
        r = jax.nn.sigmoid(xt[:, 1] + h @ w_h[1].T)
        o = jnp.tanh(xt[:, 2] + (r * h) @ w_h[2].T)
        h = u * h + (1.0 - u) * o
        return h, h
    return jax.lax.scan(step, h0, xw, reverse=reverse)


class GRUV2(_GRUBase):
    """``GRUV2(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, is_train=True)(input,
    h, w, seq_lengths)`` -> ``(output (T, N, D*H), h_n (L*D, N, H), reserve (1, 1), state (1, 1))``: the
    stacked GRU of MindSpore's CPU kernel (see the module docstring for the layout and the differences)."""

    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, is_train=True):
        super().__init__(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout)
        self.is_train = _v.check_value_type("is_train", is_train, (bool,), "GRUV2")

    def __call__(self, input, h, w, seq_lengths):
        xa, ha, wa = self._inputs(input, h, w, seq_lengths)
        y, hn = self._run(xa, ha, wa)
        zeros = jnp.zeros((1, 1), xa.dtype)
        return wrap(y), wrap(hn), wrap(zeros), wrap(zeros)


class GRUV2Grad(_GRUBase):
    """``GRUV2Grad(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout)(x, h, w, seq_lengths,
    y, h_n, dy, dh_n, reserve)`` -> ``(dx, dh, dw)``: the gradients of ``GRUV2``'s ``x``, ``h`` and
    weights for the output gradients ``dy``, ``dh_n`` (``y``, ``h_n`` and ``reserve`` are checked for
    nothing: msjax recomputes the forward). As MindSpore's CPU kernel: ``dw`` is ``(n, 1, 1)`` for the
    weights and the one bias the forward reads (not ``w``'s size), and a bidirectional ``dx`` comes back
    as ``(T, D*N, I)`` with the real ``(T, N, I)`` gradient in its first ``T*N*I`` values (row-major) and
    zeros after them."""

    def __call__(self, x, h, w, seq_lengths, y, hy, dy, dhy, reserve):
        xa, ha, wa = self._inputs(x, h, w, seq_lengths)
        n = _sizes(self.num_layers, self.num_directions, self.input_size, self.hidden_size, self.has_bias)[-1]
        flat = wa.reshape(-1)[:n]
        _, back = jax.vjp(lambda a, b, c: self._run(a, b, c), xa, ha, flat)
        dx, dh, dw = back((arr(dy).astype(xa.dtype), arr(dhy).astype(xa.dtype)))
        if self.num_directions == 2:
            t, nb, i = dx.shape
            dx = jnp.concatenate([dx.reshape(-1), jnp.zeros((t * nb * i,), dx.dtype)]).reshape(t, 2 * nb, i)
        return wrap(dx), wrap(dh), wrap(dw.reshape(n, 1, 1))
