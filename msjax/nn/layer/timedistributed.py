"""``TimeDistributed``: apply a layer to every time step of a sequence."""
from __future__ import annotations

import jax.numpy as jnp

from ..._core.registry import Primitive
from ..._core.tensor import Tensor, wrap
from ..cell import Cell

__all__ = ["TimeDistributed"]


def _check_data(flag, cls_name):
    if not flag:
        raise TypeError(f"For '{cls_name}', the inputs and outputs must be a Tensor.")


class TimeDistributed(Cell):
    """``nn.TimeDistributed(layer, time_axis, reshape_with_axis=None)``: with ``reshape_with_axis`` the time
    axis is merged into that axis and the layer runs once; otherwise the layer runs per time step and the
    outputs are stacked on ``time_axis``."""

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        if not isinstance(layer, (Cell, Primitive)):
            raise TypeError(f"For 'TimeDistributed', the 'layer' must be Cell or Primitive instance, but got type: "
                            f"{type(layer).__name__}.")
        super().__init__()
        for n, v in (("time_axis", time_axis), ("reshape_with_axis", reshape_with_axis)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise TypeError(f"For 'TimeDistributed', the type of '{n}' must be int, but got {type(v).__name__}.")
        self.layer = layer
        self.time_axis = time_axis
        self.reshape_with_axis = reshape_with_axis

    def construct(self, inputs):
        cls_name = type(self).__name__
        _check_data(isinstance(inputs, Tensor), cls_name)
        x = inputs._data
        if x.ndim < 3:
            raise ValueError(f"For '{cls_name}', the inputs shape must be at least 3D, but got {x.ndim}.")
        time_axis = self.time_axis % x.ndim
        if self.reshape_with_axis is not None:
            rwa = self.reshape_with_axis % x.ndim
            shape = x.shape
            if rwa == len(shape) - 1:
                t_new = len(shape) - 2
            else:
                t_new = rwa + 1 if time_axis > rwa else rwa - 1
            pos = t_new if t_new < rwa else rwa
            a, b = sorted((t_new, time_axis))
            perm = tuple(range(len(shape)))
            perm = perm[:a] + (perm[b],) + perm[a:b] + perm[b + 1:]
            x = jnp.transpose(x, perm)
            sh = x.shape
            x = jnp.reshape(x, sh[:pos] + (-1,) + sh[pos + 2:])
            out = self.layer(wrap(x))
            _check_data(isinstance(out, Tensor), cls_name)
            if pos >= out.ndim or x.shape[pos] != out.shape[pos]:
                raise ValueError(f"For '{cls_name}', the 'reshape_with_axis' is invalid in the input and output.")
            new = out.shape[:pos] + sh[pos:pos + 2]
            if pos + 1 < out.ndim:
                new += out.shape[pos + 1:]
            return wrap(jnp.reshape(out._data, (-1,) + new[1:]))
        outs = []
        for i in range(x.shape[time_axis]):
            o = self.layer(wrap(jnp.take(x, i, axis=time_axis)))
            _check_data(isinstance(o, Tensor), cls_name)
            if time_axis > o.ndim:
                raise ValueError(f"For '{cls_name}', the value of 'time_axis' must be in range of "
                                 f"[{-o.ndim - 1}, {o.ndim}], but got {time_axis}.")
            outs.append(o._data)
        return wrap(jnp.stack(outs, axis=time_axis))
