"""Transformer layers: ``MultiheadAttention``, ``TransformerEncoderLayer``, ``TransformerEncoder``,
``TransformerDecoderLayer``, ``TransformerDecoder`` and ``Transformer``, following MindSpore's
definitions (sequence-first by default, ``batch_first`` optional; parameter names
``self_attn.in_proj_weight``, ``dense1.weight``, ``norm1.gamma``...; attention scores scaled by
dividing both query and key by ``head_dim ** 0.25``).

As in MindSpore, ``TransformerEncoder``/``TransformerDecoder`` build their layers as copies of one
freshly initialised layer (all layers start with the same weights), and ``Transformer`` re-draws
every weight with more than one dimension from XavierUniform.
"""
from __future__ import annotations

import copy
import math

import jax
import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, wrap
from ...common.initializer import HeUniform, Uniform, XavierNormal, XavierUniform, initializer
from ...ops._impl import conv as F
from ...ops._impl import dropout as _drop
from ...ops._impl.activation import relu_array, softmax32
from ..cell import Cell
from .basic import Dense, Dropout
from .container import CellList
from .normalization import LayerNorm

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerDecoder", "Transformer"]

_HI = jax.lax.Precision.HIGHEST


def _linear(x, w, b):
    out = jnp.matmul(x, jnp.swapaxes(w, -1, -2), precision=_HI)
    return out if b is None else out + b


def _is_float_or_bool(t):
    return t.dtype == jnp.bool_ or jnp.issubdtype(t.dtype, jnp.floating)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, attn_mask=None, use_separate_proj_weight=False,
                                 q_proj_weight=None, k_proj_weight=None, v_proj_weight=None, average_attn_weights=True):
    """MindSpore's ``multi_head_attention_forward`` on arrays (query (L, N, E) or (L, E)); compiled as one
    kernel unless attention dropout is active (dropout draws from the global key)."""
    args = (query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v,
            add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training, key_padding_mask, attn_mask,
            use_separate_proj_weight, q_proj_weight, k_proj_weight, v_proj_weight, average_attn_weights)
    if 0.0 < dropout_p <= 1.0 and training:
        return _mha(*args)
    return _mha_compiled(*args)


def _mha(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v,
         add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training, key_padding_mask, attn_mask,
         use_separate_proj_weight, q_proj_weight, k_proj_weight, v_proj_weight, average_attn_weights):
    is_batched = query.ndim == 3
    if query.ndim == 3:
        if key.ndim != 3 or value.ndim != 3:
            raise ValueError(f"For batched `query`, the `key` and `value` must be 3D tensor, but got `key` with "
                             f"{key.ndim}D and `value` with {value.ndim}D.")
    elif query.ndim == 2:
        if key.ndim != 2 or value.ndim != 2:
            raise ValueError(f"For unbatched `query`, the `key` and `value` must be 2D tensor, but got `key` with "
                             f"{key.ndim}D and `value` with {value.ndim}D.")
    else:
        raise ValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got `query` with "
                         f"{query.ndim}D.")
    if not is_batched:
        query, key, value = query[:, None], key[:, None], value[:, None]
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask[None]
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if key_padding_mask is not None and not _is_float_or_bool(key_padding_mask):
        raise ValueError("The `key_padding_mask` only supports bool and floating dtypes.")
    if embed_dim != embed_dim_to_check:
        raise ValueError(f"The `embed_dim` should be {embed_dim_to_check}, but got {embed_dim}.")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(f"The `embed_dim` {embed_dim} can not be divisible by `num_heads` {num_heads}.")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise ValueError(f"The sequence length and batch dims of `key`: {key.shape[:2]} do not match `value`: "
                             f"{value.shape[:2]}.")
    elif key.shape != value.shape:
        raise ValueError(f"The shape of `key` {key.shape} does not match `value` {value.shape}.")
    if not use_separate_proj_weight:
        w_q, w_k, w_v = jnp.split(in_proj_weight, 3)
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else jnp.split(in_proj_bias, 3)
    else:
        w_q, w_k, w_v = q_proj_weight, k_proj_weight, v_proj_weight
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else jnp.split(in_proj_bias, 3)
    q, k, v = _linear(query, w_q, b_q), _linear(key, w_k, b_k), _linear(value, w_v, b_v)
    if attn_mask is not None:
        if attn_mask.dtype == jnp.uint8:
            attn_mask = attn_mask.astype(jnp.bool_)
        elif not _is_float_or_bool(attn_mask):
            raise ValueError(f"`attn_mask` only support float, byte, and bool types, but got not "
                             f"{mstype.from_np(attn_mask.dtype)}.")
        if attn_mask.ndim == 2:
            if attn_mask.shape != (tgt_len, src_len):
                raise ValueError(f"The shape of the `attn_mask` should be {(tgt_len, src_len)}, but got "
                                 f"{attn_mask.shape}.")
            attn_mask = attn_mask[None]
        elif attn_mask.ndim == 3:
            if attn_mask.shape != (bsz * num_heads, tgt_len, src_len):
                raise ValueError(f"The shape of the `attn_mask` should be {(bsz * num_heads, tgt_len, src_len)}, but "
                                 f"got {attn_mask.shape}.")
        else:
            raise ValueError(f"The ndim of `attn_mask` only support 2 or 3, but got {attn_mask.ndim}.")

    def pad_last(m):
        return jnp.pad(m, [(0, 0)] * (m.ndim - 1) + [(0, 1)])

    if bias_k is not None and bias_v is not None:
        k = jnp.concatenate([k, jnp.tile(bias_k, (1, bsz, 1))])
        v = jnp.concatenate([v, jnp.tile(bias_v, (1, bsz, 1))])
        if attn_mask is not None:
            attn_mask = pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = pad_last(key_padding_mask)
    elif bias_k is not None or bias_v is not None:
        raise ValueError("The bias_k and bias_v should be ``None``at the same time.")
    q = jnp.swapaxes(q.reshape(tgt_len, bsz * num_heads, head_dim), 0, 1)
    k = jnp.swapaxes(k.reshape(k.shape[0], bsz * num_heads, head_dim), 0, 1)
    v = jnp.swapaxes(v.reshape(v.shape[0], bsz * num_heads, head_dim), 0, 1)
    if add_zero_attn:
        z = jnp.zeros((bsz * num_heads, 1, head_dim), k.dtype)
        k = jnp.concatenate([k, z], axis=1)
        v = jnp.concatenate([v, z], axis=1)
        if attn_mask is not None:
            attn_mask = pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = pad_last(key_padding_mask)
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if key_padding_mask.shape != (bsz, src_len):
            raise ValueError(f"The shape of `key_padding_mask` should be {(bsz, src_len)}, but got "
                             f"{key_padding_mask.shape}.")
        kpm = jnp.tile(key_padding_mask.reshape(bsz, 1, 1, src_len), (1, num_heads, 1, 1)).reshape(
            bsz * num_heads, 1, src_len)
        if attn_mask is None:
            attn_mask = kpm
        elif attn_mask.dtype == jnp.bool_:
            attn_mask = jnp.logical_or(attn_mask, kpm)
        else:
            attn_mask = attn_mask + kpm
    if attn_mask is not None and attn_mask.dtype == jnp.bool_:
        attn_mask = jnp.where(attn_mask, jnp.asarray(-jnp.inf, q.dtype), jnp.zeros((), q.dtype))
    if attn_mask is not None:
        attn_mask = attn_mask[None] if attn_mask.shape[0] == 1 else attn_mask.reshape(bsz, num_heads, -1, src_len)
    q = q.reshape(bsz, num_heads, tgt_len, head_dim)
    k = k.reshape(bsz, num_heads, src_len, head_dim)
    v = v.reshape(bsz, num_heads, src_len, head_dim)
    scale = jnp.sqrt(jnp.sqrt(jnp.asarray(head_dim, q.dtype)))
    attn = jnp.matmul(q / scale, jnp.swapaxes(k, -2, -1) / scale, precision=_HI)
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = softmax32(attn, axis=-1)
    if 0.0 < dropout_p <= 1.0 and training:
        attn = _drop._dropout_array(attn, 1.0 - dropout_p)[0]
    out = jnp.matmul(attn, v, precision=_HI)
    out = jnp.transpose(out, (2, 0, 1, 3)).reshape(bsz * tgt_len, embed_dim)
    out = _linear(out, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, -1)
    weights = attn.reshape(bsz, num_heads, tgt_len, src_len)
    if average_attn_weights:
        weights = weights.sum(axis=1) / num_heads
    if not is_batched:
        out = out[:, 0]
        weights = weights[0]
    return out, weights


_mha_compiled = F._compiled("embed_dim_to_check", "num_heads", "add_zero_attn", "dropout_p", "training",
                            "use_separate_proj_weight", "average_attn_weights")(_mha)


def _arr(t):
    return None if t is None else t._data


class MultiheadAttention(Cell):
    """``nn.MultiheadAttention(embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False,
    add_zero_attn=False, kdim=None, vdim=None, batch_first=False, dtype=mstype.float32)``:
    ``construct(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True)`` -> (output, weights) or (output,)."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, dtype=mstype.float32):
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        if dtype is None:
            dtype = mstype.float32
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, embed_dim), dtype), "q_proj_weight")
            self.k_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.kdim), dtype), "k_proj_weight")
            self.v_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.vdim), dtype), "v_proj_weight")
            self.in_proj_weight = None
        else:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype),
                                            "in_proj_weight")
            self.q_proj_weight = None
            self.k_proj_weight = None
            self.v_proj_weight = None
        if has_bias:
            self.in_proj_bias = Parameter(initializer("zeros", 3 * embed_dim, dtype), "in_proj_bias")
        else:
            self.in_proj_bias = None
        bound = 1 / math.sqrt(embed_dim)
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(bound), dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_v")
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self.k_is_v = False
        self.q_is_k = False
        self.dtype = dtype

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                  average_attn_weights=True):
        q, k, v = query._data, key._data, value._data
        is_batched = q.ndim == 3
        kpm = _arr(key_padding_mask)
        if kpm is not None and not _is_float_or_bool(kpm):
            raise ValueError("only bool and floating types of key_padding_mask are supported")
        if self.batch_first and is_batched:
            q, k, v = (jnp.swapaxes(t, 0, 1) for t in (q, k, v))
        out, weights = multi_head_attention_forward(
            q, k, v, self.embed_dim, self.num_heads, _arr(self.in_proj_weight), _arr(self.in_proj_bias),
            _arr(self.bias_k), _arr(self.bias_v), self.add_zero_attn, self.dropout, self.out_proj.weight._data,
            _arr(self.out_proj.bias), training=self.training, key_padding_mask=kpm, attn_mask=_arr(attn_mask),
            use_separate_proj_weight=not self._qkv_same_embed_dim, q_proj_weight=_arr(self.q_proj_weight),
            k_proj_weight=_arr(self.k_proj_weight), v_proj_weight=_arr(self.v_proj_weight),
            average_attn_weights=average_attn_weights)
        if self.batch_first and is_batched:
            out = jnp.swapaxes(out, 1, 0)
        if need_weights:
            return wrap(out), wrap(weights)
        return (wrap(out),)


def _relu(x):
    return wrap(relu_array(x._data))


def _gelu(x):
    return wrap(jax.nn.gelu(x._data, approximate=False))


def _get_activation_fn(activation):
    from ... import ops
    if activation == "relu":
        return getattr(ops, "relu", _relu)
    if activation == "gelu":
        return getattr(ops, "gelu", _gelu)
    raise ValueError(f"The activation must be relu/gelu, but get {activation}")


def _check_activation(activation):
    from ... import ops
    from . import activation as _act
    ReLU = _act.ReLU
    gelu_cls = getattr(_act, "GELU", None)
    if not isinstance(activation, str) and not isinstance(activation, Cell) and not callable(activation):
        raise ValueError(f"The argument 'activation' must be str, callable or Cell instance, but get {activation}.")
    if isinstance(activation, Cell) and not isinstance(activation, ReLU) and \
            not (gelu_cls is not None and isinstance(activation, gelu_cls)):
        raise ValueError(f"The argument 'activation' must be nn.ReLU or nn.GELU instance, but get {activation}.")
    if callable(activation) and activation is not getattr(ops, "relu", None) and \
            activation is not getattr(ops, "gelu", None):
        raise ValueError(f"The argument 'activation' must be ops.relu or ops.gelu instance, but get {activation}.")


class TransformerEncoderLayer(Cell):
    """``nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1, activation='relu',
    layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=mstype.float32)``:
    ``construct(src, src_mask=None, src_key_padding_mask=None)``."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.dense1 = Dense(d_model, dim_feedforward, weight_init=HeUniform(math.sqrt(5)),
                            bias_init=Uniform(1 / math.sqrt(d_model)), dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, weight_init=HeUniform(math.sqrt(5)),
                            bias_init=Uniform(1 / math.sqrt(dim_feedforward)), dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        self.activation1 = activation
        _check_activation(activation)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        self.activation = activation
        self.d_model = d_model
        self.nhead = nhead
        self.dim_feedforward = dim_feedforward
        self.dropout_num = dropout
        self.layernorm_eps = layer_norm_eps
        self.batch_first = batch_first
        self.dtype = dtype

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        if src_key_padding_mask is not None and not _is_float_or_bool(src_key_padding_mask._data):
            raise AssertionError("only bool and floating types of key_padding_mask are supported")
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.dense2(self.dropout(self.activation(self.dense1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Cell):
    """``nn.TransformerDecoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1, activation='relu',
    layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=mstype.float32)``:
    ``construct(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None)``."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 dtype=dtype)
        self.dense1 = Dense(d_model, dim_feedforward, weight_init=HeUniform(math.sqrt(5)),
                            bias_init=Uniform(1 / math.sqrt(d_model)), dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, weight_init=HeUniform(math.sqrt(5)),
                            bias_init=Uniform(1 / math.sqrt(dim_feedforward)), dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm3 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        self.dropout3 = Dropout(p=dropout)
        self.activation1 = activation
        _check_activation(activation)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        self.activation = activation
        self.d_model = d_model
        self.nhead = nhead
        self.dim_feedforward = dim_feedforward
        self.dropout_num = dropout
        self.layernorm_eps = layer_norm_eps
        self.batch_first = batch_first
        self.dtype = dtype

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.dense2(self.dropout(self.activation(self.dense1(x))))
        return self.dropout3(x)


def _copies(template, num_layers):
    """``num_layers`` deep copies of ``template`` (MindSpore's: the copies draw nothing)."""
    return [copy.deepcopy(template) for _ in range(num_layers)]


class TransformerEncoder(Cell):
    """``nn.TransformerEncoder(encoder_layer, num_layers, norm=None)``: ``num_layers`` copies of
    ``encoder_layer``'s configuration (same initial weights), then ``norm``."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        template = TransformerEncoderLayer(encoder_layer.d_model, encoder_layer.nhead, encoder_layer.dim_feedforward,
                                           encoder_layer.dropout_num, encoder_layer.activation1,
                                           encoder_layer.layernorm_eps, encoder_layer.batch_first,
                                           encoder_layer.norm_first, dtype=encoder_layer.dtype)
        self.layers = CellList(_copies(template, num_layers))
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        if src_key_padding_mask is not None and not _is_float_or_bool(src_key_padding_mask._data):
            raise AssertionError("only bool and floating types of key_padding_mask are supported")
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Cell):
    """``nn.TransformerDecoder(decoder_layer, num_layers, norm=None)``."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        template = TransformerDecoderLayer(decoder_layer.d_model, decoder_layer.nhead, decoder_layer.dim_feedforward,
                                           decoder_layer.dropout_num, decoder_layer.activation1,
                                           decoder_layer.layernorm_eps, decoder_layer.batch_first,
                                           decoder_layer.norm_first, dtype=decoder_layer.dtype)
        self.layers = CellList(_copies(template, num_layers))
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Cell):
    """``nn.Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
    dropout=0.1, activation='relu', custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
    batch_first=False, norm_first=False, dtype=mstype.float32)``: ``construct(src, tgt, src_mask=None,
    tgt_mask=None, memory_mask=None, src_key_padding_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None)``."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer("xavier_uniform", p.shape, p.dtype))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        is_batched = src.ndim == 3
        src_bs = src.shape[0] if self.batch_first else src.shape[1]
        tgt_bs = src_bs   # MindSpore compares src with itself here
        if src_bs != tgt_bs and is_batched:
            raise ValueError("The number of batch size for 'src' and 'tgt' must be equal.")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError("The number of features for 'src' and 'tgt' must be equal to `d_model`.")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)


del Tensor
