"""THOR layers (``DenseThor``, ``EmbeddingThor``, ``EmbeddingLookupThor``, ``Conv2dThor``).

They are the plain layers plus the curvature statistics that MindSpore's THOR
second-order optimizer reads: ``matrix_a`` (from the layer's input, written during
the forward pass, as MindSpore's CPU/GPU code computes it) and ``matrix_g`` (from
the output gradient). Differences from MindSpore:

* ``matrix_g`` keeps its initial value: MindSpore writes it from an
  ``ops.InsertGradientOf`` function during the backward pass; msjax supports such
  functions (they run on the host with concrete gradients and may assign Parameters),
  but these layers do not install one yet.
* ``DenseThor`` divides ``x.T @ x`` by ``in_channels``, not by the batch size: that
  is what MindSpore's CPU/GPU branch does (``normalizer = inputs_shape[0]`` of the
  ``(in, in)`` product), and msjax keeps MindSpore's numbers.
* ``Conv2dThor`` is not provided: its statistics come from the ``ThorIm2Col`` kernel,
  which MindSpore 2.10 has only on GPU/Ascend (on CPU it raises); constructing one
  raises a clear error naming ``nn.Conv2d``.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, wrap
from ..cell import Cell
from ..clip import ClipByNorm
from .basic import Dense
from .embedding import Embedding, EmbeddingLookup

__all__ = ["Conv2dThor", "DenseThor", "EmbeddingThor", "EmbeddingLookupThor"]


def _stat(value, dims, name):
    return Parameter(Tensor(value(dims).astype(np.float32)), name=name, requires_grad=False)


def _counts(ids, vocab_size):
    """How often each id occurs (MindSpore: the sum of the one-hot rows)."""
    flat = jnp.reshape(lax.stop_gradient(ids._data), (-1,))
    return jnp.sum(flat[:, None] == jnp.arange(vocab_size, dtype=flat.dtype)[None, :], axis=0)


class DenseThor(Dense):
    """``nn.DenseThor(in_channels, out_channels, weight_init='normal', bias_init='zeros', has_bias=True,
    activation=None)``: ``nn.Dense`` on 2-D inputs that also stores ``matrix_a = x.T @ x / in_channels``."""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True,
                 activation=None):
        super().__init__(in_channels, out_channels, weight_init, bias_init, has_bias, activation)
        self.thor = True
        self.matrix_a = _stat(np.eye, self.in_channels, "matrix_a")
        self.matrix_g = _stat(np.eye, self.out_channels, "matrix_g")

    def construct(self, x):
        if self.thor:
            xa = lax.stop_gradient(x._data)
            cov = jnp.matmul(xa.T, xa)
            self.matrix_a.set_data(wrap(cov * (1.0 / cov.shape[0])))
        return super().construct(x)

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s


class EmbeddingThor(Embedding):
    """``nn.EmbeddingThor(vocab_size, embedding_size, use_one_hot=False, embedding_table='normal',
    dtype=mstype.float32, padding_idx=None)``: ``nn.Embedding`` that also stores ``matrix_a``, how often
    each id occurs (when ``use_one_hot`` is False)."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.float32, padding_idx=None):
        super().__init__(vocab_size, embedding_size, use_one_hot, embedding_table, dtype, padding_idx)
        self.thor = True
        self.matrix_a = _stat(np.zeros, [vocab_size], "matrix_a")
        self.matrix_g = _stat(np.zeros, [embedding_size, embedding_size], "matrix_g")

    def construct(self, ids):
        if self.thor and not self.use_one_hot:
            self.matrix_a.set_data(wrap(_counts(ids, self.vocab_size).astype(jnp.float32)))
        return super().construct(ids)


class EmbeddingLookupThor(EmbeddingLookup):
    """``nn.EmbeddingLookupThor(vocab_size, embedding_size, param_init='normal', target='CPU',
    slice_mode='batch_slice', manual_shapes=None, max_norm=None, sparse=True)``: ``nn.EmbeddingLookup``
    with a Float16 table; with ``target='DEVICE'`` it also stores ``matrix_a`` (id counts, rounded
    through Float16 like MindSpore). ``max_norm`` clips with ``nn.ClipByNorm`` against a Float16
    ``max_norm``, which gives a Float32 result, as in MindSpore."""

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU", slice_mode="batch_slice",
                 manual_shapes=None, max_norm=None, sparse=True):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, manual_shapes, max_norm, sparse,
                         dtype=mstype.float16)
        self.clip_norm = None if self.max_norm is None else Tensor(self.max_norm, mstype.float16)
        self.max_norm = None   # the lookup of the base class does not clip; construct clips as MindSpore does
        self.thor = True
        self.matrix_a = _stat(np.zeros, [vocab_size], "matrix_a")
        self.matrix_g = _stat(np.zeros, [embedding_size, embedding_size], "matrix_g")

    def construct(self, indices):
        if self.target != "CPU" and self.thor:
            counts = _counts(indices, self.vocab_size).astype(jnp.float16).astype(jnp.float32)
            self.matrix_a.set_data(wrap(counts))
        out = super().construct(indices)
        if self.clip_norm is not None:
            out = ClipByNorm(tuple(range(indices.ndim, out.ndim)))(out, self.clip_norm)
        return out


class Conv2dThor(Cell):
    """``nn.Conv2dThor``: not provided (see the module notes)."""

    __ms_unsupported__ = True

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "nn.Conv2dThor collects the curvature statistics of MindSpore's THOR second-order optimizer with the "
            "ThorIm2Col kernel, which msjax does not provide (MindSpore 2.10 has it only on GPU/Ascend). Use "
            "nn.Conv2d with a first-order optimizer.")
