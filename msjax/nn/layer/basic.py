"""``nn.Dense`` and other basic layers."""
from __future__ import annotations

import math

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import wrap
from ...common.initializer import HeUniform, Uniform, initializer
from ..cell import Cell
from .activation import get_activation

__all__ = ["Dense", "Flatten", "Identity"]


class Dense(Cell):
    """``nn.Dense(in_channels, out_channels, weight_init=None, bias_init=None,
    has_bias=True, activation=None, dtype=mstype.float32)``.

    The weight has MindSpore's layout ``(out_channels, in_channels)`` and the
    output is ``x @ weight.T + bias``. Default initialisers as in MindSpore 2.x:
    HeUniform(sqrt(5)) for the weight, Uniform(1/sqrt(in_channels)) for the bias.
    """

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 activation=None, dtype=mstype.float32):
        super().__init__()
        for n, v in (("in_channels", in_channels), ("out_channels", out_channels)):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"For 'Dense', the '{n}' must be a positive int, but got {v}.")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.has_bias = has_bias
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype), name="weight")
        self.bias = None
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype), name="bias")
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        self.activation_flag = self.activation is not None

    def construct(self, x):
        xa = x._data
        shape = xa.shape
        if xa.ndim != 2:
            xa = jnp.reshape(xa, (-1, shape[-1]))
        out = jnp.matmul(xa, self.weight._data.T)
        if self.has_bias:
            out = out + self.bias._data
        if len(shape) != 2:
            out = jnp.reshape(out, shape[:-1] + (out.shape[-1],))
        out = wrap(out)
        if self.activation_flag:
            out = self.activation(out)
        return out

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += ", has_bias=True"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """``nn.Flatten(start_dim=1, end_dim=-1)``."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, x):
        from ...ops import flatten
        return flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class Identity(Cell):
    def construct(self, x):
        return x
