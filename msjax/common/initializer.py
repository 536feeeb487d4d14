"""``mindspore.common.initializer``: parameter initializers.

Random values are MindSpore 2.10's, bit for bit: each draw takes a 64-bit seed from
NumPy's global generator (``np.random.randint(1, 2**63)``, which ``ms.set_seed``
seeds) and fills the array with MindSpore's Philox streams (``_philox.py``);
``Sparse`` also permutes with ``np.random``. So NumPy code run after building a
network sees the numbers it sees under MindSpore, and unseeded runs stay random.
Random initializers sample in Float32 and cast to the requested dtype, as
MindSpore does. Difference: ``initializer(...)`` draws when called, MindSpore when
the Tensor's data is first needed (``init_data``, e.g. when a Parameter is made of
it); the values differ only if such Tensors are initialised out of creation order. String names follow MindSpore's registry: the lower-cased class
name plus the aliases 'zeros', 'ones', 'xavier_uniform', 'xavier_normal',
'he_uniform', 'he_normal' (``Constant`` has no name).

Kept from MindSpore on purpose: ``VarianceScaling(distribution='truncated_normal')``
draws from the uniform branch (MindSpore compares against 'truncated_norm', a
value its own argument check rejects), so the default gives
``U(-sqrt(3 * scale), sqrt(3 * scale))``.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .._core import dtype as mstype
from .._core import provided, rng
from . import _philox
from .._core.tensor import Tensor, to_array, wrap

__all__ = ["Initializer", "initializer", "TruncatedNormal", "Normal", "Uniform", "HeUniform", "HeNormal",
           "XavierUniform", "XavierNormal", "One", "Zero", "Constant", "Identity", "Sparse", "Dirac",
           "Orthogonal", "VarianceScaling"]

_INITIALIZER_ALIAS = {}


def _register(*aliases):
    def alias_reg(cls):
        name = cls.__name__.lower()
        _INITIALIZER_ALIAS.setdefault(name, cls)
        for alias in aliases:
            _INITIALIZER_ALIAS.setdefault(alias, cls)
        return cls
    return alias_reg


def _calculate_fan_in_and_fan_out(shape):
    dimensions = len(shape)
    if dimensions < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 dimensions, "
                         "but got dimensions {}.".format(dimensions))
    if dimensions == 2:
        return shape[1], shape[0]
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


_fans = _calculate_fan_in_and_fan_out   # older name used inside msjax


def _calculate_correct_fan(shape, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError("'mode' {} not supported, please use one of {}".format(mode, valid_modes))
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == "fan_in" else fan_out


def _calculate_gain(nonlinearity, param=None):
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError("For 'HeUniform', 'negative_slope' {} is not a valid number.When 'nonlinearity' has "
                             "been set to 'leaky_relu', 'negative_slope' should be int or float type, but got "
                             "{}.".format(param, type(param)))
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    raise ValueError("For 'HeUniform', the argument 'nonlinearity' should be one of ['sigmoid', 'tanh', 'relu' "
                     "or 'leaky_relu'], but got {}.".format(nonlinearity))


_gain = _calculate_gain


def _numpy_seed():
    """MindSpore's seed for one initializer draw, taken from NumPy's global generator."""
    return np.random.randint(low=1, high=(1 << 63), dtype=np.int64)


def _normal(mean, sigma, shape):
    if sigma < 0:
        raise ValueError("sigma < 0")
    return _philox.normal(_numpy_seed(), shape, mean, sigma)


def _uniform(a, b, shape):
    return _philox.uniform(_numpy_seed(), shape, a, b)


def _truncated_normal(a, b, mean, sigma, shape):
    if sigma < 0:
        raise ValueError("sigma < 0")
    return _philox.truncated_normal(_numpy_seed(), shape, a, b, mean, sigma)


class Initializer:
    """Base class of initializers: ``self._sample(shape)`` returns a numpy array (Float32 for the
    random ones); calling an initializer on a numpy array fills it in place."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._seed = None
        self.shape = None
        self.dtype = None

    @property
    def seed(self):
        if self._seed is None:
            s = rng.get_seed()
            return (0 if s is None else s, 0)
        return self._seed + 1, 0

    @seed.setter
    def seed(self, value):
        self._seed = value

    def _sample(self, shape, np_dtype=None):
        raise NotImplementedError("Must be overridden!")

    def _initialize(self, arr):
        data = np.asarray(self._sample(tuple(arr.shape), arr.dtype))
        if arr.shape == ():
            arr[...] = data
        else:
            arr[:] = data
        return arr

    def _init_array(self, shape=None, dtype=None):
        shape = tuple(shape if shape is not None else self.shape)
        npd = mstype.to_np(dtype if dtype is not None else (self.dtype or mstype.float32))
        if type(self)._sample is Initializer._sample:
            # a user subclass that fills the array in ``_initialize(arr)`` (MindSpore's protocol, as
            # the zoo's own initializers do)
            arr = np.zeros(shape, npd)
            self._initialize(arr)
            return to_array(arr)
        return to_array(np.asarray(self._sample(shape, npd)).astype(npd))

    def __call__(self, arr):
        return self._initialize(arr)


@_register("zeros")
class Zero(Initializer):
    """Fills with 0."""

    def _sample(self, shape, npd=None):
        return np.zeros(shape)


@_register("ones")
class One(Initializer):
    """Fills with 1."""

    def _sample(self, shape, npd=None):
        return np.ones(shape)


class Constant(Initializer):
    """``Constant(value)``: fills with ``value``."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _sample(self, shape, npd=None):
        return np.full(shape, self.value)


@_register("xavier_normal")
class XavierNormal(Initializer):
    """``XavierNormal(gain=1)``: N(0, gain * sqrt(2 / (fan_in + fan_out)))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape, npd=None):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        return _normal(0, self.gain * math.sqrt(2.0 / float(fan_in + fan_out)), shape)


@_register("xavier_uniform")
class XavierUniform(Initializer):
    """``XavierUniform(gain=1)``: U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape, npd=None):
        n_in, n_out = _calculate_fan_in_and_fan_out(shape)
        b = self.gain * math.sqrt(6.0 / (n_in + n_out))
        return _uniform(-b, b, shape)


class _HeBase(Initializer):
    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _std(self, shape):
        fan = _calculate_correct_fan(shape, self.mode)
        return _calculate_gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)


@_register("he_uniform")
class HeUniform(_HeBase):
    """``HeUniform(negative_slope=0, mode='fan_in', nonlinearity='leaky_relu')``: U(-b, b),
    b = sqrt(3) * gain / sqrt(fan)."""

    def _sample(self, shape, npd=None):
        b = math.sqrt(3.0) * self._std(shape)
        return _uniform(-b, b, shape)


@_register("he_normal")
class HeNormal(_HeBase):
    """``HeNormal(negative_slope=0, mode='fan_in', nonlinearity='leaky_relu')``: N(0, gain / sqrt(fan))."""

    def _sample(self, shape, npd=None):
        return _normal(0, self._std(shape), shape)


@_register()
class Identity(Initializer):
    """The 2-D identity matrix (``np.eye``)."""

    def _sample(self, shape, npd=None):
        if len(shape) != 2:
            raise ValueError("For Identity initializer, the dimension of the initialized tensor should be 2, "
                             "but got {}.".format(len(shape)))
        return np.eye(shape[0], shape[1])


@_register()
class Sparse(Initializer):
    """``Sparse(sparsity, sigma=0.01)``: N(0, sigma) with ``ceil(sparsity * rows)`` zeros per column."""

    def __init__(self, sparsity, sigma=0.01):
        super().__init__()
        self.sparsity = sparsity
        self.sigma = sigma

    def _sample(self, shape, npd=None):
        if len(shape) != 2:
            raise ValueError("For Sparse initializer, the dimension of the initialized tensor should be 2, "
                             "but got {}.".format(len(shape)))
        rows, cols = shape
        zero_num = int(np.ceil(self.sparsity * rows))
        data = _normal(0, self.sigma, shape)
        for col in range(cols):
            data[np.random.permutation(list(range(rows)))[:zero_num], col] = 0.0
        return data


@_register()
class Dirac(Initializer):
    """``Dirac(groups=1)``: identity convolution kernels (3-, 4- or 5-D weights)."""

    def __init__(self, groups=1):
        super().__init__()
        self.groups = groups

    def _sample(self, shape, npd=None):
        dimension = len(shape)
        if dimension not in (3, 4, 5):
            raise ValueError("For Dirac initializer, only support to initialize tensor with dimension of 3, 4 or 5, "
                             "but got {}.".format(dimension))
        if shape[0] % self.groups != 0:
            raise ValueError("For Dirac initializer, the first dimension ofthe initialized tensor must be divisible "
                             "by groups, but got first dimension{}, groups{}.".format(shape[0], self.groups))
        data = np.zeros(shape)
        per = shape[0] // self.groups
        for g in range(self.groups):
            for d in range(min(per, shape[1])):
                data[(g * per + d, d) + tuple(s // 2 for s in shape[2:])] = 1
        return data


@_register()
class Orthogonal(Initializer):
    """``Orthogonal(gain=1.)``: a (semi-)orthogonal matrix from the QR decomposition of N(0, 1) samples."""

    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape, npd=None):
        if len(shape) < 2:
            raise ValueError("For Orthogonal initializer, the dimension of the initialized tensor should be no less "
                             "than 2, but got {}.".format(len(shape)))
        rows = shape[0]
        cols = int(np.prod(shape)) // rows
        data = _normal(0, 1, (rows, cols))
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (q * self.gain).reshape(shape)


@_register()
class VarianceScaling(Initializer):
    """``VarianceScaling(scale=1.0, mode='fan_in', distribution='truncated_normal')``."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal"):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0.0:
            raise ValueError("For VarianceScaling initializer, the argument 'scale' must be greater than 0, "
                             "but got {}.".format(scale))
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError("For VarianceScaling initializer, the argument 'mode' must be fan_in, fan_out or "
                             "fan_avg, but got {}.".format(mode))
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError("For VarianceScaling initializer, the argument 'distribution' must be uniform, "
                             "truncated_norm or untruncated_norm, but got {}.".format(distribution))
        self.scale = scale
        self.mode = mode
        self.distribution = distribution

    def _sample(self, shape, npd=None):
        scale = self.scale
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        if self.mode == "fan_in":
            scale /= max(1.0, fan_in)
        elif self.mode == "fan_out":
            scale /= max(1.0, fan_out)
        else:
            scale /= max(1.0, (fan_in + fan_out) / 2.0)
        if self.distribution == "truncated_norm":      # never true: MindSpore's own quirk, kept
            std = np.sqrt(scale) / .87962566103423978
            return _truncated_normal(-2, 2, 0, std, shape)
        if self.distribution == "untruncated_normal":
            return _normal(0, np.sqrt(scale), shape)
        limit = np.sqrt(3.0 * scale)
        return _uniform(-limit, limit, shape)


@_register()
class Uniform(Initializer):
    """``Uniform(scale=0.07)``: U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _sample(self, shape, npd=None):
        return _uniform(-self.scale, self.scale, shape)


@_register()
class Normal(Initializer):
    """``Normal(sigma=0.01, mean=0.0)``: N(mean, sigma)."""

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = sigma
        self.mean = mean

    def _sample(self, shape, npd=None):
        return _normal(self.mean, self.sigma, shape)


@_register()
class TruncatedNormal(Initializer):
    """``TruncatedNormal(sigma=0.01, mean=0.0, a=-2.0, b=2.0)``: N(mean, sigma) restricted to [a, b]."""

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma = sigma
        self.mean = mean
        self.a = a
        self.b = b

    def _sample(self, shape, npd=None):
        return _truncated_normal(self.a, self.b, self.mean, self.sigma, shape)


def initializer(init, shape=None, dtype=mstype.float32):
    """``initializer(init, shape=None, dtype=mstype.float32)``: a Tensor of ``shape`` and ``dtype``
    initialised by ``init`` (an Initializer, its registered name or a number); a Tensor ``init`` is
    returned as it is (its shape must match)."""
    if not isinstance(init, (Tensor, numbers.Number, str, Initializer)):
        raise TypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', 'number', 'string' "
                        "or 'initializer', but got {}.".format(type(init)))
    if isinstance(init, Tensor):
        init_shape = init.shape
        shape = shape if isinstance(shape, (tuple, list)) else [shape]
        if shape is not None and init_shape != tuple(shape):
            raise ValueError("For 'initializer', the shape of the 'init' argument should be same as the argument "
                             "'shape', but got the 'init' shape {} and the 'shape' {}.".format(list(init.shape),
                                                                                              shape))
        return init
    if isinstance(shape, list):
        shape = tuple(shape)
    elif isinstance(shape, numbers.Number):
        shape = (shape,)
    for value in shape if shape is not None else ():
        if not isinstance(value, int) or value <= 0:
            raise ValueError(f"For 'initializer', the argument 'shape' is invalid, the value of 'shape' must be "
                             f"positive integer, but got {shape}")
    if isinstance(init, str):
        cls = _INITIALIZER_ALIAS.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not found.")
        init = cls()
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    shape = shape if shape is not None else init.shape
    if shape is None:
        raise ValueError("For 'initializer', the argument 'shape' must be set when 'init' has no shape.")
    out = wrap(init._init_array(shape, dtype))
    out.init = init  # cleared by the one ``init_data()`` MindSpore allows
    return out


def _assignment(arr, num):
    """MindSpore's ``initializer._assignment``: fill the numpy array ``arr`` with
    ``num`` (a scalar or an array of its shape) in place; returns it."""
    if arr.shape == ():
        arr = arr.reshape(1)
        arr[:] = num
        return arr.reshape(())
    arr[:] = num[:] if isinstance(num, np.ndarray) else num
    return arr


provided.provide("initializer", initializer)   # Tensor(init=...), Parameter.clone(init) in msjax/_core
