"""Activation Cells (``nn.ReLU``, ``nn.GELU``, ``nn.PReLU``...) and ``nn.get_activation``.

Each Cell mirrors ``mindspore/nn/layer/activation.py`` of MindSpore 2.10: the same
constructor arguments and checks, and a ``construct`` calling the registered op.
Differences from MindSpore: ``RReLU`` draws from msjax's key (same distribution).
"""
from __future__ import annotations

import numpy as np

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor
from ...ops._impl import activation as F
from ..cell import Cell

__all__ = ["Softmin", "Softmax", "Softmax2d", "LogSoftmax", "LogSoftmaxExt", "ReLU", "ReLU6", "RReLU", "SeLU",
           "SiLU", "Tanh", "Tanhshrink", "Hardtanh", "GELU", "FastGelu", "Sigmoid", "Softsign", "PReLU", "PReLUExt",
           "get_activation", "LeakyReLU", "HSigmoid", "HSwish", "ELU", "LogSigmoid", "SoftShrink", "HShrink", "CELU",
           "Threshold", "Mish", "GLU"]


def _check_type(cls_name, arg, value, types):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        names = [t.__name__ for t in types]
        raise TypeError(f"For '{cls_name}', the type of '{arg}' should be one of '{names}', "
                        f"but got type '{type(value).__name__}'.")
    return value


class _Act(Cell):
    """An activation whose ``construct`` is ``fn(x, **kwargs)``."""

    _fn = None

    def construct(self, x):
        return type(self)._fn(x)


class CELU(Cell):
    """``nn.CELU(alpha=1.0)``."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def construct(self, x):
        return F.celu(x, self.alpha)


class Softmin(Cell):
    """``nn.Softmin(axis=-1)``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return F.softmin(x, self.axis)


class Softmax2d(Cell):
    """``nn.Softmax2d()``: softmax over the channel axis (-3) of a 3-D or 4-D input."""

    def construct(self, x):
        if len(x.shape) not in (3, 4):
            raise ValueError(f"For 'Softmax2d', the in_shape must have 3 or 4 dims, but got {len(x.shape)}.")
        return F.prim_softmax(x, -3)


class Softmax(Cell):
    """``nn.Softmax(axis=-1)``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, input):
        return F.prim_softmax(input, self.axis)


class LogSoftmax(Cell):
    """``nn.LogSoftmax(axis=-1)``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return F.log_softmax(x, self.axis)


class LogSoftmaxExt(Cell):
    """``nn.LogSoftmaxExt(dim=None)``: ``dim=None`` picks 0 for 0-, 1- and 3-D inputs, else 1."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, x):
        return F.log_softmax_ext(x, self.dim)


class ELU(Cell):
    """``nn.ELU(alpha=1.0)`` (MindSpore supports only ``alpha=1.0``)."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def construct(self, x):
        return F.elu(x, self.alpha)


class ReLU(_Act):
    """``nn.ReLU()``."""
    _fn = staticmethod(F.relu)


class ReLU6(_Act):
    """``nn.ReLU6()``."""
    _fn = staticmethod(F.relu6)


class LeakyReLU(Cell):
    """``nn.LeakyReLU(alpha=0.2)``."""

    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = alpha

    def construct(self, x):
        return F.leaky_relu(x, self.alpha)


class RReLU(Cell):
    """``nn.RReLU(lower=1/8, upper=1/3)``: negative inputs scaled by ``U(lower, upper)`` (random always,
    as in MindSpore 2.10, whose RReLU does not look at the training flag)."""

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        _check_type("RReLU", "upper", upper, (float, int))
        _check_type("RReLU", "lower", lower, (float, int))
        if lower > upper:
            raise ValueError(f"For RReLU, the value of 'upper' must be greater than or equal to 'lower', "
                             f"but got upper: {upper}, lower: {lower}. ")
        self.lower = Tensor(lower, dtype=mstype.float32)
        self.upper = Tensor(upper, dtype=mstype.float32)
        self._bounds = (float(np.float32(lower)), float(np.float32(upper)))

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'rrelu', the input must be a Tensor, but got {type(x)}.")
        return F.rrelu(x, *self._bounds)


class SeLU(_Act):
    """``nn.SeLU()``."""
    _fn = staticmethod(F.selu)


class SiLU(_Act):
    """``nn.SiLU()``."""
    _fn = staticmethod(F.silu)


class Tanh(_Act):
    """``nn.Tanh()``."""
    _fn = staticmethod(F.tanh)


class Tanhshrink(_Act):
    """``nn.Tanhshrink()``."""
    _fn = staticmethod(F.tanhshrink)


class Hardtanh(Cell):
    """``nn.Hardtanh(min_val=-1.0, max_val=1.0)``."""

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        if self.min_val >= self.max_val:
            raise ValueError(f"For Hardtanh, min_val should be less than max_val,"
                             f"but got {self.min_val} and {self.max_val}")

    def construct(self, x):
        return F.hardtanh(x, self.min_val, self.max_val)


class GELU(Cell):
    """``nn.GELU(approximate=True)``: the tanh approximation unless ``approximate=False``."""

    def __init__(self, approximate=True):
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', the 'approximate' must be a bool, but got {type(approximate).__name__}.")
        self.approximate = "tanh" if approximate else "none"

    def construct(self, x):
        return F.gelu(x, approximate=self.approximate)


class FastGelu(_Act):
    """``nn.FastGelu()``."""
    _fn = staticmethod(F.fast_gelu)


class Sigmoid(_Act):
    """``nn.Sigmoid()``."""
    _fn = staticmethod(F.sigmoid)


class Softsign(_Act):
    """``nn.Softsign()``."""
    _fn = staticmethod(F.softsign)


class PReLU(Cell):
    """``nn.PReLU(channel=1, w=0.25)``: the slope is the Parameter ``w`` (named ``'a'``, as in MindSpore)."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int) or channel <= 0:
            raise (TypeError if not isinstance(channel, int) or isinstance(channel, bool) else ValueError)(
                f"For 'PReLU', the 'channel' must be positive int, but got {channel}.")
        if isinstance(w, (float, np.float32)):
            w = Tensor(np.full((channel,), w, np.float32), dtype=mstype.float32)
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError(f"For 'PReLU', the length of 'w' must be equal to the 'channel' when "
                                 f"the 'w' is a list, but got the length of 'w': {len(w)}, the 'channel': {channel}.")
            for i in w:
                if not isinstance(i, (float, np.float32)):
                    raise ValueError(f"For 'PReLU', all elements in 'w' must be "
                                     f"float when the 'w' is a list, but got {i}.")
            w = Tensor(w, dtype=mstype.float32)
        elif isinstance(w, Tensor):
            if w.dtype not in (mstype.float16, mstype.float32):
                raise ValueError(f"For 'PReLU', the dtype of 'w' must be float16 or "
                                 f"float32 when the 'w' is a tensor, but got {w.dtype}.")
            if len(w.shape) != 1 or w.shape[0] != channel:
                raise ValueError(f"For 'PReLU', the dimension of 'w' must be 1, and the elements number "
                                 f"should be equal to the 'channel' when the 'w' is a tensor, "
                                 f"but got 'w' shape {w.shape}, the 'channel' {channel}.")
        else:
            raise TypeError(f"For 'PReLU', the 'w' only supported float, list and tensor, "
                            f"but got {type(w).__name__}.")
        self.w = Parameter(w, name="a")

    def construct(self, x):
        return F.prelu(x, self.w.astype(x.dtype))


class PReLUExt(Cell):
    """``nn.PReLUExt(num_parameters=1, init=0.25, dtype=None)``: the slope Parameter is ``weight``."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        tmp = np.full((num_parameters,), init, np.float32)
        self.weight = Parameter(Tensor(tmp, dtype=dtype), name="weight")

    def construct(self, input):
        return F.prelu(input, self.weight)


class HSwish(_Act):
    """``nn.HSwish()``."""
    _fn = staticmethod(F.hardswish)


class HSigmoid(_Act):
    """``nn.HSigmoid()``."""
    _fn = staticmethod(F.hardsigmoid)


class LogSigmoid(Cell):
    """``nn.LogSigmoid()``: ``log(1 / (1 + exp(-x)))``."""

    def construct(self, input_x):
        import jax.numpy as jnp
        x = F.tensor_arg("LogSigmoid", input_x, "input_x")
        if not jnp.issubdtype(x.dtype, jnp.inexact):
            raise TypeError(f"For 'LogSigmoid', the dtype of 'input_x' must be float, but got {F._name(x.dtype)}.")
        return F.wrap(jnp.log(jnp.reciprocal(jnp.exp(x * -1) + 1)))


class SoftShrink(Cell):
    """``nn.SoftShrink(lambd=0.5)``."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return F.softshrink(input, self.lambd)


class HShrink(Cell):
    """``nn.HShrink(lambd=0.5)``."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return F.hardshrink(input, self.lambd)


class Threshold(Cell):
    """``nn.Threshold(threshold, value)``: ``x if x > threshold else value``."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = threshold
        self.value = value

    def construct(self, input_x):
        return F.threshold(input_x, self.threshold, self.value)


class Mish(_Act):
    """``nn.Mish()``."""
    _fn = staticmethod(F.mish)


class GLU(Cell):
    """``nn.GLU(axis=-1)``: ``a * sigmoid(b)`` over the two halves along ``axis``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.dim = axis

    def construct(self, x):
        return F.glu(x, self.dim)


_activation = {
    "softmin": Softmin,
    "softmax": Softmax,
    "softmax2d": Softmax2d,
    "logsoftmax": LogSoftmax,
    "logsoftmaxExt": LogSoftmaxExt,
    "relu": ReLU,
    "relu6": ReLU6,
    "rrelu": RReLU,
    "silu": SiLU,
    "tanh": Tanh,
    "tanhshrink": Tanhshrink,
    "hardtanh": Hardtanh,
    "gelu": GELU,
    "fast_gelu": FastGelu,
    "elu": ELU,
    "sigmoid": Sigmoid,
    "softsign": Softsign,
    "prelu": PReLU,
    "preluExt": PReLUExt,
    "leakyrelu": LeakyReLU,
    "hswish": HSwish,
    "hsigmoid": HSigmoid,
    "logsigmoid": LogSigmoid,
    "softshrink": SoftShrink,
    "hshrink": HShrink,
    "threshold": Threshold,
    "mish": Mish,
}


def get_activation(name, prim_name=None):
    """``nn.get_activation(name, prim_name=None)``: a new activation Cell by MindSpore's string name."""
    msg_prefix = f"For '{prim_name}', the" if prim_name else "The"
    if name is None:
        return None
    if name not in _activation:
        raise KeyError(f"{msg_prefix} 'name' must be in {list(_activation.keys())}, but got {name}.")
    return _activation[name]()
