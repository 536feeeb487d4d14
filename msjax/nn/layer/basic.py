"""Basic layers: ``Dense``, ``Linear``, ``BiDense``, ``Flatten``, ``Unflatten``, ``Identity``,
dropout Cells, ``Upsample``, ``Pad`` and the small deprecated math Cells (``Tril``, ``Triu``,
``Roll``, ``Norm``, ``OneHot``, ``MatMul``, ``Range``).

Weights have MindSpore's layouts and default initialisers (``Dense``/``Linear``:
weight ``(out, in)`` with HeUniform(sqrt(5)), bias Uniform(1/sqrt(in)); ``BiDense``:
weight ``(out, in1, in2)``). Dropout Cells are the identity unless the Cell is in
training mode (``set_train()``); their masks come from the global JAX key.
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from ... import log as logger
from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.registry import Primitive
from ..._core.tensor import Tensor, wrap


def _arr(v):
    return v._data if isinstance(v, Tensor) else v
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.seed import _get_graph_seed
from ...ops import operations as _ops
from ...ops._impl import conv as F
from ...parallel import _apply
from ...ops._impl import dropout as _drop
from ...ops._impl import dropout_stream as _drop_stream
from ...ops._impl import image as _image
from ...ops._impl import matmul_onednn as _mm
from ...ops._impl.image import extract_image_patches as _extract_image_patches
from ..cell import Cell

__all__ = ["Dense", "Linear", "BiDense", "Flatten", "Unflatten", "Identity", "Dropout", "Dropout1d", "Dropout2d",
           "Dropout3d", "Upsample", "Pad", "Tril", "Triu", "Roll", "Norm", "OneHot", "MatMul", "Range", "DropoutExt",
           "Dropout2dExt", "Unfold"]


def _check_positive_int(value, name, cls_name):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{cls_name}', the type of '{name}' must be int, but got {type(value).__name__}.")
    if value <= 0:
        raise ValueError(f"For '{cls_name}', the '{name}' must be a positive int, but got {value}.")
    return value


def _check_bool(value, name, cls_name):
    if not isinstance(value, bool):
        raise TypeError(f"For '{cls_name}', the type of '{name}' must be bool, but got {type(value).__name__}.")
    return value


def _linear_array(x, w, b, cls_name):
    """``x @ w.T + b`` with MindSpore's MatMul checks (2-D after flattening leading axes); on the CPU
    the product and its gradients run on oneDNN as MindSpore's MatMul kernel does (bit for bit,
    :mod:`msjax.ops._impl.matmul_onednn`), outside semi-auto/auto-parallel steps."""
    if x.dtype != w.dtype:
        raise TypeError(f"For 'MatMul', the type of 'x2' should be same as 'x1', but got 'x1' with type "
                        f"Tensor[{mstype.from_np(x.dtype)}] and 'x2' with type Tensor[{mstype.from_np(w.dtype)}].")
    if x.shape[-1] != w.shape[1]:
        raise ValueError(f"For 'MatMul' the input dimensions must be equal, but got 'x1_col': {x.shape[-1]} "
                         f"and 'x2_row': {w.shape[1]}.")
    if _apply.active() is None and _mm.usable(x, w):
        out = _mm.matmul(x, w, False, True)
    else:
        out = jnp.matmul(x, w.T)
    if b is not None:
        out = out + b
    return out


class Dense(Cell):
    """``nn.Dense(in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
    activation=None, dtype=mstype.float32)``: ``activation(x @ weight.T + bias)`` over the last axis;
    weight ``(out_channels, in_channels)``."""

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 activation=None, dtype=mstype.float32):
        super().__init__()
        from .activation import get_activation
        cls_name = type(self).__name__
        self.in_channels = _check_positive_int(in_channels, "in_channels", cls_name)
        self.out_channels = _check_positive_int(out_channels, "out_channels", cls_name)
        self.has_bias = _check_bool(has_bias, "has_bias", cls_name)
        if isinstance(weight_init, Tensor):
            if weight_init.ndim != 2 or weight_init.shape[0] != out_channels or weight_init.shape[1] != in_channels:
                raise ValueError(f"For '{cls_name}', weight init shape error. The ndim of 'weight_init' must be equal "
                                 f"to 2, and the first dim must be equal to 'out_channels', and the second dim must "
                                 f"be equal to 'in_channels'. But got 'weight_init': {weight_init}, 'out_channels': "
                                 f"{out_channels}, 'in_channels': {in_channels}.")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype=dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor):
                if bias_init.ndim != 1 or bias_init.shape[0] != out_channels:
                    raise ValueError(f"For '{cls_name}', bias init shape error. The ndim of 'bias_init' must be "
                                     f"equal to 1, and the first dim must be equal to 'out_channels'. But got "
                                     f"'bias_init': {bias_init}, 'out_channels': {out_channels}.")
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if activation is not None and not isinstance(self.activation, (Cell, Primitive)):
            raise TypeError(f"For '{cls_name}', the 'activation' must be str or Cell or Primitive, but got "
                            f"{type(activation).__name__}.")
        self.activation_flag = self.activation is not None
        # MindSpore's Dense computes with these: scripts shard them (dense.matmul.shard(...))
        self.matmul = _ops.MatMul(transpose_b=True)
        self.bias_add = _ops.BiasAdd()

    def construct(self, x):
        xa = x._data
        shape = xa.shape
        if xa.ndim != 2:
            xa = jnp.reshape(xa, (-1, shape[-1]))
        w, b = self.weight._data, self.bias._data if self.has_bias else None
        if _apply.active() is not None:     # a semi-auto/auto-parallel step: the Primitives' strategies
            xa, w = (_arr(v) for v in _apply.constrain_prim(self.matmul, [xa, self.weight]))
            if b is not None and self.bias_add._in_strategy is not None:
                out = _linear_array(xa, w, None, "Dense")
                out, b = (_arr(v) for v in _apply.constrain_prim(self.bias_add, [out, self.bias]))
                xa, w = out, None
        out = (xa + b if w is None else _linear_array(xa, w, b, "Dense"))
        out = wrap(out)
        if self.activation_flag:
            out = self.activation(out)
        if len(shape) != 2:
            out = wrap(jnp.reshape(out._data, shape[:-1] + (out.shape[-1],)))
        return out

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Linear(Cell):
    """``nn.Linear(in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None)``."""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None):
        super().__init__()
        cls_name = type(self).__name__
        self.in_features = _check_positive_int(in_features, "in_features", cls_name)
        self.out_features = _check_positive_int(out_features, "out_features", cls_name)
        self.has_bias = _check_bool(bias, "has_bias", cls_name)
        dtype = mstype.float32 if dtype is None else dtype
        if isinstance(weight_init, Tensor):
            if weight_init.ndim != 2 or weight_init.shape[0] != out_features or weight_init.shape[1] != in_features:
                raise ValueError(f"For '{cls_name}', weight init shape error. The ndim of 'weight_init' must be equal "
                                 f"to 2, and the first dim must be equal to 'out_features', and the second dim must "
                                 f"be equal to 'in_features'. But got 'weight_init': {weight_init}, 'out_features': "
                                 f"{out_features}, 'in_features': {in_features}.")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_features, in_features], dtype=dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor):
                if bias_init.ndim != 1 or bias_init.shape[0] != out_features:
                    raise ValueError(f"For '{cls_name}', bias init shape error. The ndim of 'bias_init' must be "
                                     f"equal to 1, and the first dim must be equal to 'out_features'. But got "
                                     f"'bias_init': {bias_init}, 'out_features': {out_features}.")
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_features))
            self.bias = Parameter(initializer(bias_init, [out_features], dtype=dtype), name="bias")

    def construct(self, x):
        return F.dense(x, self.weight, self.bias)

    def extend_repr(self):
        s = f"input_features={self.in_features}, output_features={self.out_features}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s


class BiDense(Cell):
    """``nn.BiDense(in1_channels, in2_channels, out_channels, weight_init=None, bias_init=None,
    has_bias=True, dtype=mstype.float32)``: ``y_k = x1^T W_k x2 + b_k``; weight (out, in1, in2)."""

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 dtype=mstype.float32):
        super().__init__()
        cls_name = type(self).__name__
        _check_positive_int(in1_channels, "in1_channels", cls_name)
        _check_positive_int(in2_channels, "in2_channels", cls_name)
        _check_positive_int(out_channels, "out_channels", cls_name)
        self.has_bias = _check_bool(has_bias, "has_bias", cls_name)
        self.in_channels = in2_channels
        self.in1_channels = in1_channels
        self.in2_channels = in2_channels
        self.out_channels = out_channels
        bound = 1 / math.sqrt(in1_channels)
        if weight_init is None:
            weight_init = Uniform(bound)
        if isinstance(weight_init, Tensor):
            if weight_init.ndim != 3 or weight_init.shape[0] != out_channels or \
                    weight_init.shape[1] != in1_channels or weight_init.shape[2] != in2_channels:
                raise ValueError(f"For '{cls_name}', weight init shape error. The ndim of 'weight_init' must be equal "
                                 f"to 3, the first dim must be equal to 'out_channels', the second dim must be equal "
                                 f"to 'in1_channels', and the third dim must be equal to 'in2_channels'. But got "
                                 f"'weight_init': {weight_init}, 'out_channels': {out_channels}, 'in_channels': "
                                 f"{in1_channels}, 'in2_channels': {in2_channels}")
        self.weight = Parameter(initializer(weight_init, (out_channels, in1_channels, in2_channels), dtype=dtype),
                                "weight")
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(bound)
            if isinstance(bias_init, Tensor):
                if bias_init.ndim != 1 or bias_init.shape[0] != out_channels:
                    raise ValueError(f"For '{cls_name}', bias init shape error. The ndim of 'bias_init' should be "
                                     f"equal to 1, and the first dim must be equal to 'out_channels'. But got "
                                     f"'bias_init': {bias_init}, 'out_channels': {out_channels}.")
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")

    def construct(self, input1, input2):
        cls_name = type(self).__name__
        for n, v in (("input1", input1), ("input2", input2)):
            if not isinstance(v, Tensor):
                raise TypeError(f"For '{cls_name}', the '{n}' must be 'Tensor', but got '{type(v).__name__}'")
        s1, s2 = input1.shape, input2.shape
        if s1[-1] != self.in1_channels:
            raise ValueError(f"For '{cls_name}', the last dimension of 'input1' must be same as 'in1_channels', but "
                             f"got {s1[-1]} of 'input1' and {self.in1_channels} of 'in1_channels'")
        if s2[-1] != self.in2_channels:
            raise ValueError(f"For '{cls_name}', the last dimension of 'input2' must be same as 'in2_channels', but "
                             f"got {s2[-1]} of 'input2' and {self.in2_channels} of 'in2_channels'")
        if s1[:-1] != s2[:-1]:
            raise ValueError(f"For '{cls_name}', the dimensions except the last of 'input1' must be same as 'input2', "
                             f"but got {s1} of 'input1' and {s2} of 'input2'")
        return F.bidense(input1, input2, self.weight, self.bias if self.has_bias else None)

    def extend_repr(self):
        s = f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s


class Flatten(Cell):
    """``nn.Flatten(start_dim=1, end_dim=-1)``."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    @staticmethod
    def check_axis_valid(axis, ndim):
        if axis < -ndim or axis >= ndim:
            raise ValueError("'start_dim' or 'end_dim' out of range.")

    def construct(self, x):
        ndim = x.ndim if x.ndim != 0 else 1
        self.check_axis_valid(self.start_dim, ndim)
        self.check_axis_valid(self.end_dim, ndim)
        xa = x._data
        if xa.ndim == 0:
            return wrap(jnp.reshape(xa, (1,)))
        s, e = self.start_dim % ndim, self.end_dim % ndim
        if s > e:
            raise ValueError(f"For 'flatten', 'start_dim' cannot come after 'end_dim'.")
        shape = xa.shape[:s] + (int(np.prod(xa.shape[s:e + 1])),) + xa.shape[e + 1:]
        return wrap(jnp.reshape(xa, shape))


class Unflatten(Cell):
    """``nn.Unflatten(axis, unflattened_size)``."""

    def __init__(self, axis, unflattened_size):
        super().__init__()
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"For 'Unflatten', the 'axis' must be int, but got {type(axis).__name__}.")
        if not isinstance(unflattened_size, (list, tuple)):
            raise TypeError(f"For 'Unflatten', the type of 'unflattended_size' must be list or tuple, "
                            f"but got {type(unflattened_size).__name__}.")
        self.axis = axis
        self.unflattened_size = tuple(unflattened_size)

    def construct(self, input_x):
        shape = input_x.shape
        new = shape[:self.axis] + self.unflattened_size
        if self.axis != -1:
            new += shape[self.axis + 1:]
        from ...ops import reshape
        return reshape(input_x, new)


class Identity(Cell):
    """``nn.Identity(*args, **kwargs)``: returns its input."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, input):
        return input


class Dropout(Cell):
    """``nn.Dropout(keep_prob=0.5, p=None, dtype=mstype.float32)``: in training, zero elements with
    probability ``p`` (or ``1 - keep_prob``) and scale the rest; the identity in eval mode. The
    masks are MindSpore's CPU kernel's (``ops/_impl/dropout_stream.py``): under ``set_seed`` the
    same as MindSpore 2.10's, call after call, in PyNative and compiled."""

    def __init__(self, keep_prob=0.5, p=None, dtype=mstype.float32):
        super().__init__()
        cls_name = type(self).__name__
        if dtype != mstype.float32:
            logger.warning("This parameter `dtype` will be deleted or invisible in the future. Please don't use it.")
        if p is None:
            logger.warning("For Dropout, this parameter `keep_prob` will be deprecated, please use `p` instead.")
            if not isinstance(keep_prob, float):
                raise TypeError(f"For '{cls_name}', the type of 'keep_prob' must be float, "
                                f"but got {type(keep_prob).__name__}.")
            if keep_prob <= 0 or keep_prob > 1:
                raise ValueError(f"For '{cls_name}', the 'keep_prob' must be a number in range (0, 1], "
                                 f"but got {keep_prob}.")
            self._keep = keep_prob
        else:
            if isinstance(p, bool) or not isinstance(p, (float, int)):
                raise TypeError(f"For '{cls_name}', the type of 'p' must be float or int, but got {type(p).__name__}.")
            if p < 0 or p >= 1:
                raise ValueError(f"For '{cls_name}', the 'p' must be a number in range [0, 1), but got {p}.")
            self._keep = 1.0 - p
        self.p = p
        self.keep_prob = keep_prob
        seeds = _get_graph_seed(0, "dropout")
        # MindSpore's ops.Dropout(keep, seed0, seed1) of this layer, as its attribute ``dropout``
        # (scripts shard it: ``layer.dropout.dropout.shard(...)``); the masks come from its kernel's
        # random engines, kept here
        self.dropout = _ops.Dropout(self._keep, *seeds)
        object.__setattr__(self, "_streams", _drop_stream.Streams(*seeds))
        object.__setattr__(self, "_ms_hidden", (self._streams.state,))

    def construct(self, x):
        if not self.training or self.keep_prob == 1 or self.p == 0:
            return x
        if _apply.active() is not None:     # a semi-auto/auto-parallel step: the Primitive's strategy
            x = _apply.constrain_prim(self.dropout, [x])[0]
        return wrap(_drop_stream.dropout(F._float_arg("x", x, "Dropout"), self._keep, self._streams)[0])

    def extend_repr(self):
        if self.p is None:
            return f"keep_prob={self.keep_prob}"
        return f"p={self.p}"


def _check_channel_p(p, cls_name):
    if not isinstance(p, float):
        raise TypeError(f"For '{cls_name}', the type of 'p' must be float, but got {type(p).__name__}.")
    if p < 0 or p > 1:
        raise ValueError(f"For '{cls_name}', the 'p' must be a number in range [0, 1], but got {p}.")


class Dropout1d(Cell):
    """``nn.Dropout1d(p=0.5)``: drops whole channels of (N, C, L) / (C, L) in training."""

    def __init__(self, p=0.5):
        super().__init__()
        _check_channel_p(p, type(self).__name__)
        self.prob = p

    def construct(self, x):
        if not self.training or self.prob == 0:
            return x
        return _drop.dropout1d(x, self.prob)


class Dropout2d(Cell):
    """``nn.Dropout2d(p=0.5)``: drops whole channels of (N, C, H, W) in training. (Its repr shows the
    keep probability as ``p``, as MindSpore's does.)"""

    def __init__(self, p=0.5):
        super().__init__()
        _check_channel_p(p, type(self).__name__)
        self.keep_prob = 1.0 - p

    def construct(self, x):
        if not self.training or self.keep_prob == 1:
            return x
        return _drop.prim_dropout2d(x, self.keep_prob)[0]

    def extend_repr(self):
        return f"p={self.keep_prob}"


class Dropout3d(Cell):
    """``nn.Dropout3d(p=0.5)``: drops whole channels of (N, C, D, H, W) in training."""

    def __init__(self, p=0.5):
        super().__init__()
        _check_channel_p(p, type(self).__name__)
        self.keep_prob = 1.0 - p

    def construct(self, x):
        if not self.training or self.keep_prob == 1:
            return x
        return _drop.prim_dropout3d(x, self.keep_prob)[0]

    def extend_repr(self):
        return f"p={self.keep_prob}"


class Upsample(Cell):
    """``nn.Upsample(size=None, scale_factor=None, mode='nearest', align_corners=None,
    recompute_scale_factor=None)``: ``ops.interpolate``."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x):
        return _image.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                                  self.recompute_scale_factor)


class Pad(Cell):
    """``nn.Pad(paddings, mode='CONSTANT')``: ``paddings`` ((before, after), ...) from the first axis;
    modes 'CONSTANT', 'REFLECT', 'SYMMETRIC'."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        cls_name = type(self).__name__
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"For '{cls_name}', the 'mode' must be in ['CONSTANT', 'REFLECT', 'SYMMETRIC'], "
                             f"but got {mode}.")
        if not isinstance(paddings, tuple):
            raise TypeError(f"For '{cls_name}', the type of 'paddings' must be tuple, "
                            f"but got {type(paddings).__name__}.")
        for item in paddings:
            if len(item) != 2:
                raise ValueError(f"For '{cls_name}', the dimension of 'paddings' must be (n, 2), but got {paddings}.")
        if len(paddings) > 4:
            raise ValueError(f"For '{cls_name}', only 'paddings' up to 4 dims is supported, but got {len(paddings)}.")
        self.mode = mode
        self.paddings = paddings

    def construct(self, x):
        if self.mode == "CONSTANT":
            return _image.prim_pad(x, self.paddings)
        return _image.prim_mirror_pad(x, np.array(self.paddings), self.mode)


def _tri_mask(shape, k, lower):
    n, m = shape[-2:] if len(shape) >= 2 else (shape[-1], shape[-1])
    mask = np.tril(np.ones((n, m), np.bool_), k) if lower else np.triu(np.ones((n, m), np.bool_), k)
    return mask


class Tril(Cell):
    """``nn.Tril()``: ``construct(x, k=0)`` keeps the lower triangle (deprecated in MindSpore)."""

    def construct(self, x, k=0):
        xa = x._data
        if xa.ndim < 1:
            raise ValueError(f"For 'tril', the dimension of 'x' must be at least 1, but got {xa.ndim}.")
        if xa.ndim == 1:
            return wrap(xa)
        mask = _tri_mask(xa.shape, k, True)
        return wrap(jnp.where(jnp.asarray(mask), xa, jnp.zeros((), xa.dtype)))


class Triu(Cell):
    """``nn.Triu()``: ``construct(x, k=0)`` keeps the upper triangle (deprecated in MindSpore)."""

    def construct(self, x, k=0):
        xa = x._data
        if xa.ndim < 1:
            raise ValueError(f"For 'triu', the dimension of 'x' must be at least 1, but got {xa.ndim}.")
        if xa.ndim == 1:
            return wrap(xa)
        mask = _tri_mask(xa.shape, k, False)
        return wrap(jnp.where(jnp.asarray(mask), xa, jnp.zeros((), xa.dtype)))


class Roll(Cell):
    """``nn.Roll(shift, axis)`` (deprecated in MindSpore)."""

    def __init__(self, shift, axis):
        super().__init__()
        for n, v in (("shift", shift), ("axis", axis)):
            if isinstance(v, bool) or not isinstance(v, (int, tuple, list)):
                raise TypeError(f"For 'Roll', the type of '{n}' must be int, tuple or list, "
                                f"but got {type(v).__name__}.")
        self.shift = list(shift) if isinstance(shift, (list, tuple)) else [shift]
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        if len(self.shift) != len(self.axis):
            raise ValueError(f"For 'Roll', the shape of 'shift' and the shape of 'axis' must be the same, but got "
                             f"the length of 'shift' {len(self.shift)} and the length of 'axis' {len(self.axis)}.")

    def construct(self, input_x):
        xa = input_x._data
        for a in self.axis:
            if not -xa.ndim <= a < xa.ndim:
                raise ValueError(f"For 'Roll', the 'axis' must be in range [{-xa.ndim}, {xa.ndim}), but got {a}.")
        return wrap(jnp.roll(xa, tuple(self.shift), tuple(self.axis)))


class Norm(Cell):
    """``nn.Norm(axis=(), keep_dims=False)``: the Euclidean norm (deprecated in MindSpore)."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'Norm', the type of 'keep_dims' must be bool, but got {type(keep_dims).__name__}.")
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x):
        xa = x._data
        axis = None if self.axis == () else self.axis
        out = jnp.sqrt(jnp.sum(jnp.square(xa), axis=axis, keepdims=True))
        if not self.keep_dims:
            sq = tuple(range(xa.ndim)) if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
            out = jnp.squeeze(out, tuple(a % max(xa.ndim, 1) for a in sq)) if xa.ndim else out
        return wrap(out)

    def extend_repr(self):
        return f"axis={self.axis}, keep_dims={self.keep_dims}"


class OneHot(Cell):
    """``nn.OneHot(axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32)``."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32):
        super().__init__()
        self.axis = axis
        self.depth = depth
        self.dtype = dtype
        self.on_value = on_value
        self.off_value = off_value

    def construct(self, indices):
        idx = indices._data
        if jnp.issubdtype(idx.dtype, jnp.floating):
            raise TypeError(f"For 'OneHot', the type of 'indices' must be int32 or int64, "
                            f"but got {mstype.from_np(idx.dtype)}.")
        npd = mstype.to_np(self.dtype)
        hot = jax.nn.one_hot(idx, self.depth, axis=self.axis, dtype=jnp.bool_)
        return wrap(jnp.where(hot, jnp.asarray(self.on_value, npd), jnp.asarray(self.off_value, npd)))


class MatMul(Cell):
    """``nn.MatMul(transpose_x1=False, transpose_x2=False)``: broadcasting matmul (deprecated)."""

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        _check_bool(transpose_x1, "transpose_x1", "MatMul")
        _check_bool(transpose_x2, "transpose_x2", "MatMul")
        self.transpose_x1 = transpose_x1
        self.transpose_x2 = transpose_x2

    def construct(self, x1, x2):
        a, b = x1._data, x2._data
        if self.transpose_x1 and a.ndim > 1:
            a = jnp.swapaxes(a, -1, -2)
        if self.transpose_x2 and b.ndim > 1:
            b = jnp.swapaxes(b, -1, -2)
        ka = a.shape[-1]
        kb = b.shape[-2] if b.ndim > 1 else b.shape[0]
        if ka != kb:
            raise ValueError(f"For 'MatMul', the column of matrix dimensions of 'x1' must be equal to the row of "
                             f"matrix dimensions of 'x2', but got 'x1_col' {ka} and 'x2_row' {kb}.")
        return wrap(jnp.matmul(a, b))


class Range(Cell):
    """``nn.Range(start, limit=None, delta=1)``: ``construct()`` returns the range (Float32 if any bound is
    a float, else Int32)."""

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if delta == 0:
            raise ValueError("For 'Range', the 'delta' can not be zero.")
        data = np.arange(start, limit, delta)
        dt = mstype.float32 if data.dtype == np.float64 else mstype.int32
        object.__setattr__(self, "_result", data.astype(mstype.to_np(dt)))
        self.ms_dtype = dt

    @property
    def result_tensor(self):
        return Tensor(self._result)

    def construct(self):
        return Tensor(self._result)



class DropoutExt(Cell):
    """``nn.DropoutExt(p=0.5, inplace=False)``: element dropout with probability ``p`` in training."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p = p
        self.inplace = inplace

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        return _drop.dropout(input, p=self.p)


class Dropout2dExt(Cell):
    """``nn.Dropout2dExt(p=0.5, inplace=False)``: channel dropout with probability ``p`` in training."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p = p
        self.inplace = inplace

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        return wrap(_drop._channel_dropout(F._tensor_arg("input", input, "Dropout2dExt"), 1.0 - self.p, 2,
                                           "Dropout2dExt")[0])


class Unfold(Cell):
    """``nn.Unfold(ksizes, strides, rates, padding='valid')``: image patches (MindSpore's
    ExtractImagePatches) of (N, C, H, W) -> (N, kh * kw * C, out_h, out_w), depth ordered (kh, kw, C)."""

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()

        def _check(arg_name, arg_val):
            if not isinstance(arg_val, (tuple, list)):
                raise TypeError(f"For 'Unfold', the type of '{arg_name}s' must be tuple or list, "
                                f"but got {type(arg_val).__name__}.")
            if len(arg_val) != 4 or arg_val[0] != 1 or arg_val[3] != 1:
                raise ValueError(f"For 'Unfold' the format of '{arg_name}s' must be [1, {arg_name}_row, "
                                 f"{arg_name}_col, 1], but got {arg_val}.")
            if not (isinstance(arg_val[1], int) and isinstance(arg_val[2], int)) or arg_val[1] < 1 or arg_val[2] < 1:
                raise ValueError(f"For 'Unfold' the {arg_name}_row and {arg_name}_col in '{arg_name}s' must be an "
                                 f"positive integer number, but got {arg_name}_row is {arg_val[1]}, {arg_name}_col "
                                 f"is {arg_val[2]}")
        _check("ksize", ksizes)
        _check("stride", strides)
        _check("rate", rates)
        if not isinstance(padding, str) or padding.lower() not in ("valid", "same"):
            raise ValueError(f"For 'Unfold', the 'padding' must be 'valid' or 'same', but got {padding}.")
        self.ksizes = tuple(ksizes)
        self.strides = tuple(strides)
        self.rates = tuple(rates)
        self.padding = padding.lower()

    def construct(self, input_x):
        nchw = [(1, 1) + tuple(v[1:3]) for v in (self.ksizes, self.strides, self.rates)]
        return _extract_image_patches(input_x, *nchw, self.padding)
