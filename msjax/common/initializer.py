"""``mindspore.common.initializer``: parameter initializers.

Values are drawn on the host with numpy from the generator that ``ms.set_seed``
seeds, so initialisation is reproducible; the bit stream differs from MindSpore's.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .._core import dtype as mstype
from .._core import rng
from .._core.tensor import Tensor, wrap

__all__ = ["Initializer", "initializer", "Normal", "Uniform", "HeUniform", "HeNormal", "XavierUniform",
           "XavierNormal", "TruncatedNormal", "Constant", "One", "Zero"]


def _fans(shape):
    if len(shape) < 2:
        raise ValueError(f"'fan_in' and 'fan_out' can not be computed for a tensor with fewer than "
                         f"2 dimensions, but got {len(shape)}.")
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity, param=None):
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"The argument 'nonlinearity' {nonlinearity} is not supported.")


class Initializer:
    """Base class: ``self._sample(shape, np_dtype)`` returns a numpy array."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self.shape = None
        self.dtype = None

    def _sample(self, shape, np_dtype):
        raise TypeError(f"{type(self).__name__} does not define a sampling rule.")

    def _init_array(self, shape=None, dtype=None):
        import jax.numpy as jnp
        shape = tuple(shape if shape is not None else self.shape)
        npd = mstype.to_np(dtype if dtype is not None else (self.dtype or mstype.float32))
        return jnp.asarray(np.asarray(self._sample(shape, npd)).astype(npd))

    def __call__(self, arr):
        arr[...] = self._sample(arr.shape, arr.dtype)
        return arr


class Zero(Initializer):
    def _sample(self, shape, npd):
        return np.zeros(shape)


class One(Initializer):
    def _sample(self, shape, npd):
        return np.ones(shape)


class Constant(Initializer):
    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _sample(self, shape, npd):
        return np.full(shape, self.value)


class Normal(Initializer):
    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _sample(self, shape, npd):
        return rng.generator().normal(self.mean, self.sigma, shape)


class Uniform(Initializer):
    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _sample(self, shape, npd):
        return rng.generator().uniform(-self.scale, self.scale, shape)


class TruncatedNormal(Initializer):
    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _sample(self, shape, npd):
        g = rng.generator()
        out = g.normal(self.mean, self.sigma, shape)
        bad = (out < self.a) | (out > self.b)
        while np.any(bad):
            out[bad] = g.normal(self.mean, self.sigma, int(bad.sum()))
            bad = (out < self.a) | (out > self.b)
        return out


class _HeBase(Initializer):
    """Kaiming initialisers: the gain of ``nonlinearity`` over sqrt(fan)."""

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _std(self, shape):
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        return _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)


class HeUniform(_HeBase):
    def _sample(self, shape, npd):
        bound = math.sqrt(3.0) * self._std(shape)
        return rng.generator().uniform(-bound, bound, shape)


class HeNormal(_HeBase):
    def _sample(self, shape, npd):
        return rng.generator().normal(0.0, self._std(shape), shape)


class XavierUniform(Initializer):
    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape, npd):
        fan_in, fan_out = _fans(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return rng.generator().uniform(-bound, bound, shape)


class XavierNormal(Initializer):
    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape, npd):
        fan_in, fan_out = _fans(shape)
        std = self.gain * math.sqrt(2.0 / (fan_in + fan_out))
        return rng.generator().normal(0.0, std, shape)


_NAMES = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One, "normal": Normal, "uniform": Uniform,
    "truncatednormal": TruncatedNormal, "heuniform": HeUniform, "he_uniform": HeUniform,
    "henormal": HeNormal, "he_normal": HeNormal, "xavieruniform": XavierUniform,
    "xavier_uniform": XavierUniform, "xaviernormal": XavierNormal, "xavier_normal": XavierNormal,
}


def initializer(init, shape=None, dtype=mstype.float32):
    """A Tensor of ``shape`` initialised by ``init`` (an Initializer, its name,
    a number, a numpy array or a Tensor)."""
    if isinstance(shape, numbers.Integral):
        shape = (int(shape),)
    if isinstance(init, Tensor):
        if shape is not None and tuple(shape) != init.shape:
            raise ValueError(f"The shape of init {init.shape} is not equal to the shape {tuple(shape)}.")
        return wrap(init._data.astype(mstype.to_np(dtype)))
    if isinstance(init, np.ndarray):
        return Tensor(init, dtype)
    if isinstance(init, str):
        key = init.lower()
        if key not in _NAMES:
            raise ValueError(f"The class corresponding to '{init}' was not found.")
        init = _NAMES[key]()
    elif isinstance(init, numbers.Number) and not isinstance(init, bool):
        init = Constant(init)
    if not isinstance(init, Initializer):
        raise TypeError(f"For 'initializer', the type of the 'init' argument should be 'Tensor', 'number', "
                        f"'string' or 'Initializer', but got {type(init)}.")
    if shape is None:
        raise ValueError("For 'initializer', 'shape' must be set.")
    return wrap(init._init_array(shape, dtype))
