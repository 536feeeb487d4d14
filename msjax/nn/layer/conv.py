"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv3d`` and their transposes.

Weights have MindSpore's shapes, so checkpoints and ``set_data`` from MindSpore code
fit: ``Conv2d`` (out, in / group, kh, kw); ``Conv1d`` (out, in / group, 1, k) (MindSpore
runs 1-D convolutions as 2-D ones); ``Conv3d`` (out, in / group, kd, kh, kw); the
transposed layers (in, out / group, *kernel). Default initialisers: weight
HeUniform(sqrt(5)), bias Uniform(1 / sqrt(fan_in)); ``has_bias`` defaults to False.
``pad_mode`` is 'same' (default), 'valid' or 'pad' (then ``padding`` is used).
"""
from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, wrap
from ...common.initializer import HeUniform, Uniform, _calculate_fan_in_and_fan_out, initializer
from ...ops._impl import conv as F
from ..cell import Cell

__all__ = ["Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose"]


def _positive_int(v, name, cls_name):
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"For '{cls_name}', the type of '{name}' must be int, but got {type(v).__name__}.")
    if v <= 0:
        raise ValueError(f"For '{cls_name}', the '{name}' must be a positive int, but got {v}.")
    return v


def _ntuple(v, n, name, cls_name, greater_zero=True):
    """MindSpore's ``twice`` / ``_check_3d_int_or_tuple``."""
    if isinstance(v, int) and not isinstance(v, bool):
        out = (v,) * n
    elif isinstance(v, tuple) and len(v) == n and all(isinstance(i, int) and not isinstance(i, bool) for i in v):
        out = v
    elif isinstance(v, tuple) and n == 3 and len(v) == 5 and all(isinstance(i, int) for i in v):
        out = v[2:]
    else:
        if isinstance(v, tuple):
            raise ValueError(f"For '{cls_name}', the length of '{name}' must be {n}, but got {len(v)}.")
        raise TypeError(f"For '{cls_name}', the type of '{name}' must be int or tuple(int), "
                        f"but got {type(v).__name__}.")
    for i in out:
        if (i <= 0) if greater_zero else (i < 0):
            raise ValueError(f"For '{cls_name}', the '{name}' must be {'positive' if greater_zero else 'non-negative'}"
                             f", but got {v}.")
    return out


def _check_pad_mode(pad_mode, cls_name):
    if not isinstance(pad_mode, str):
        raise TypeError(f"For '{cls_name}', the type of 'pad_mode' must be str, but got {type(pad_mode).__name__}.")
    if pad_mode not in ("valid", "same", "pad"):
        raise ValueError(f"For '{cls_name}', the 'pad_mode' must be one of ['valid', 'same', 'pad'], "
                         f"but got '{pad_mode}'.")
    return pad_mode


class _Conv(Cell):
    """Shared construction of the convolution Cells (weight/bias, checks, repr)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                 weight_init, bias_init, data_format="NCHW", transposed=False, dtype=mstype.float32):
        super().__init__()
        cls_name = type(self).__name__
        self.in_channels = _positive_int(in_channels, "in_channels", cls_name)
        self.out_channels = _positive_int(out_channels, "out_channels", cls_name)
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad_mode = pad_mode
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"For '{cls_name}', the 'format' must be str and the value of 'format' should be in "
                             f"['NCHW', 'NHWC', 'NCDHW'], but got {data_format}.")
        if data_format == "NHWC":
            raise ValueError(f"For '{cls_name}', the \"NHWC\" format only support in GPU target, but got the "
                             f"'format' is {data_format} and the platform is CPU.")
        self.data_format = data_format
        if isinstance(padding, int) and not isinstance(padding, bool):
            if padding < 0:
                raise ValueError(f"For '{cls_name}', the 'padding' must be a non-negative int, but got {padding}.")
        elif isinstance(padding, tuple):
            for p in padding:
                if not isinstance(p, int) or p < 0:
                    raise ValueError(f"For '{cls_name}', the 'padding item' must be a non-negative int, "
                                     f"but got {padding}.")
        else:
            raise TypeError(f"For '{cls_name}', the type of 'padding' must be int or tuple(int), "
                            f"but got {type(padding).__name__}.")
        self.padding = padding
        self.dilation = dilation
        self.group = _positive_int(group, "group", cls_name)
        if not isinstance(has_bias, bool):
            raise TypeError(f"For '{cls_name}', the type of 'has_bias' must be bool, but got {type(has_bias).__name__}.")
        self.has_bias = has_bias
        if in_channels % group != 0:
            raise ValueError(f"For '{cls_name}', the attr 'in_channels' must be divisible by attr 'group', but got "
                             f"'in_channels': {in_channels} and 'group': {group}.")
        if out_channels % group != 0:
            raise ValueError(f"For '{cls_name}', the 'out_channels' must be divisible by attr 'group', but got "
                             f"'out_channels': {out_channels} and 'group': {group}.")
        if transposed:
            shape = [in_channels, out_channels // group, *kernel_size]
        else:
            shape = [out_channels, in_channels // group, *kernel_size]
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight_init = weight_init
        self.weight = Parameter(initializer(weight_init, shape, dtype=dtype), name="weight")
        self.bias_init = bias_init
        if has_bias:
            if bias_init is None:
                fan_in, _ = _calculate_fan_in_and_fan_out(shape)
                bias_init = Uniform(1 / math.sqrt(fan_in)) if fan_in != 0 else "zeros"
                self.bias_init = bias_init
            self.bias = Parameter(initializer(self.bias_init, [out_channels], dtype=dtype), name="bias")
        else:
            self.bias = None

    def construct(self, *inputs):
        raise NotImplementedError

    def extend_repr(self):
        return ("input_channels={}, output_channels={}, kernel_size={}, stride={}, pad_mode={}, padding={}, "
                "dilation={}, group={}, has_bias={}, weight_init={}, bias_init={}, format={}").format(
                    self.in_channels, self.out_channels, self.kernel_size, self.stride, self.pad_mode, self.padding,
                    self.dilation, self.group, self.has_bias, self.weight_init, self.bias_init, self.data_format)

    def _pairs(self, nd):
        if isinstance(self.padding, int):
            return [(self.padding, self.padding)] * nd
        p = self.padding
        return [(p[2 * i], p[2 * i + 1]) for i in range(nd)]

    def _forward(self, x, nd, pairs=None):
        xa = F._tensor_arg("x", x, type(self).__name__)
        pm = "pad" if self.pad_mode == "pad" else self.pad_mode
        out = F._conv_checked(xa, self.weight._data.reshape(self._conv_weight_shape()), self.stride[-nd:],
                              pm, pairs if pairs is not None else self._pairs(nd), self.dilation[-nd:], self.group,
                              "Conv2D" if nd == 2 else "Conv3D")
        if self.has_bias:
            out = F._bias_add_array(out, self.bias._data)
        return out

    def _conv_weight_shape(self):
        return self.weight.shape


class Conv2d(_Conv):
    """``nn.Conv2d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None, data_format='NCHW',
    dtype=mstype.float32)``; ``padding`` an int or (top, bottom, left, right)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCHW", dtype=mstype.float32):
        cls_name = type(self).__name__
        kernel_size = _ntuple(kernel_size, 2, "kernel_size", cls_name)
        stride = _ntuple(stride, 2, "stride", cls_name)
        self._dilation = dilation
        dilation = _ntuple(dilation, 2, "dilation", cls_name)
        _positive_int(group, "group", cls_name)
        if not (in_channels % group == 0 and out_channels % group == 0):
            raise ValueError(f"The argument 'group' should be divisible by 'in_channels' and 'out_channels', but got "
                             f"group:{group}, in_channels:{in_channels}, out_channels:{out_channels}.")
        _check_pad_mode(pad_mode, cls_name)
        if isinstance(padding, tuple) and len(padding) != 4:
            raise ValueError(f"For '{cls_name}', the length of 'padding' must be 4, but got {len(padding)}.")
        if pad_mode != "pad" and padding != 0 and padding != (0, 0, 0, 0):
            raise ValueError(f"For '{cls_name}', the 'padding' must be zero when 'pad_mode' is not 'pad', "
                             f"but got 'padding': {padding} and 'pad_mode': '{pad_mode}'.")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype=dtype)

    def construct(self, x):
        return wrap(self._forward(x, 2))


class Conv1d(_Conv):
    """``nn.Conv1d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32)`` on
    (N, C, L); the weight is (out, in / group, 1, kernel_size) as in MindSpore."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        cls_name = type(self).__name__
        for n, v in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding),
                     ("dilation", dilation)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be int, but got {type(v).__name__}.")
        for n, v in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)):
            if v < 1:
                raise ValueError(f"For '{cls_name}', the '{n}' must be greater than or equal to 1, but got {v}.")
        if padding < 0:
            raise ValueError(f"For '{cls_name}', the 'padding' must be a non-negative int, but got {padding}.")
        _positive_int(group, "group", cls_name)
        if not (in_channels % group == 0 and out_channels % group == 0):
            raise ValueError(f"The argument 'group' should be divisible by 'in_channels' and 'out_channels', but got "
                             f"group:{group}, in_channels:{in_channels}, out_channels:{out_channels}.")
        if isinstance(weight_init, Tensor):
            if weight_init.ndim != 3:
                raise ValueError(f"For '{cls_name}', the 'weight_init_shape' must be 3, but got {weight_init.ndim}.")
            weight_init = Tensor(np.expand_dims(weight_init.asnumpy(), 2), weight_init.dtype)
        _check_pad_mode(pad_mode, cls_name)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode, padding, (1, dilation),
                         group, has_bias, weight_init, bias_init, dtype=dtype)
        self.padding = (0, 0, padding, padding)

    def construct(self, x):
        xa = F._tensor_arg("x", x, "Conv1d")
        if xa.ndim != 3:
            raise ValueError(f"For primitive[Conv2D], the x shape size must be equal to 4, but got {xa.ndim + 1}.")
        out = self._forward(wrap(xa[:, :, None, :]), 2)
        return wrap(out[:, :, 0, :] if out.shape[2] == 1 else out)


class Conv3d(_Conv):
    """``nn.Conv3d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None, data_format='NCDHW',
    dtype=mstype.float32)``; ``padding`` an int or 6 values (head, tail, top, bottom, left, right)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW", dtype=mstype.float32):
        cls_name = type(self).__name__
        if not (in_channels % group == 0 and out_channels % group == 0):
            raise ValueError("The argument 'group' should be divisible by 'in_channels' and 'out_channels'")
        kernel_size = _ntuple(kernel_size, 3, "kernel_size", cls_name)
        stride = _ntuple(stride, 3, "stride", cls_name)
        dilation = _ntuple(dilation, 3, "dilation", cls_name)
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
            raise TypeError(f"For '{cls_name}', the type of 'padding' must be int or tuple, "
                            f"but got {type(padding).__name__}.")
        if isinstance(padding, tuple) and len(padding) != 6:
            raise ValueError(f"For '{cls_name}', the 'padding size' must be 6, but got {len(padding)}.")
        _check_pad_mode(pad_mode, cls_name)
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype=dtype)

    def construct(self, x):
        return wrap(self._forward(x, 3))


def _deconv_output_length(is_valid, is_same, is_pad, input_length, filter_size, stride_size, dilation_size, padding):
    length = 0
    filter_size = filter_size + (filter_size - 1) * (dilation_size - 1)
    if is_valid:
        length = input_length * stride_size + filter_size - stride_size if filter_size - stride_size > 0 \
            else input_length * stride_size
    elif is_same:
        length = input_length * stride_size
    elif is_pad:
        length = input_length * stride_size - padding + filter_size - stride_size
    return length


class Conv2dTranspose(_Conv):
    """``nn.Conv2dTranspose(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    output_padding=0, dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
    dtype=mstype.float32)``: weight (in, out / group, kh, kw). As in MindSpore, ``output_padding`` adds
    zero rows/columns after the bias (only with ``pad_mode='pad'``)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0,
                 output_padding=0, dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
                 dtype=mstype.float32):
        cls_name = type(self).__name__
        kernel_size = _ntuple(kernel_size, 2, "kernel_size", cls_name)
        stride = _ntuple(stride, 2, "stride", cls_name)
        dilation = _ntuple(dilation, 2, "dilation", cls_name)
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
            raise TypeError(f"For '{cls_name}', the type of 'padding' must be int or tuple, "
                            f"but got {type(padding).__name__}.")
        if isinstance(padding, tuple) and len(padding) != 4:
            raise ValueError(f"For '{cls_name}', the 'padding size' must be 4, but got {len(padding)}.")
        if isinstance(output_padding, bool) or not isinstance(output_padding, (int, tuple)):
            raise TypeError(f"For '{cls_name}', the type of 'output_padding' must be int or tuple, "
                            f"but got {type(output_padding).__name__}.")
        if isinstance(output_padding, tuple) and len(output_padding) != 2:
            raise ValueError(f"For '{cls_name}', the 'output_padding size' must be 2, but got {len(output_padding)}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, transposed=True, dtype=dtype)
        _check_pad_mode(pad_mode, cls_name)
        self.is_valid = self.pad_mode == "valid"
        self.is_same = self.pad_mode == "same"
        self.is_pad = self.pad_mode == "pad"
        self.output_padding = output_padding
        if isinstance(self.padding, int):
            self.padding_top, self.padding_bottom, self.padding_left, self.padding_right = (self.padding,) * 4
        else:
            self.padding_top, self.padding_bottom, self.padding_left, self.padding_right = self.padding

    def construct(self, x):
        xa = F._tensor_arg("x", x, type(self).__name__)
        if xa.ndim != 4:
            raise ValueError(f"For 'Conv2DBackpropInput', the dimension of 'dout' must be 4, but got {xa.ndim}.")
        n, _, h, w = xa.shape
        h_out = _deconv_output_length(self.is_valid, self.is_same, self.is_pad, h, self.kernel_size[0],
                                      self.stride[0], self.dilation[0], self.padding_top + self.padding_bottom)
        w_out = _deconv_output_length(self.is_valid, self.is_same, self.is_pad, w, self.kernel_size[1],
                                      self.stride[1], self.dilation[1], self.padding_left + self.padding_right)
        pairs = [(self.padding_top, self.padding_bottom), (self.padding_left, self.padding_right)]
        out = F._conv_transpose_array(xa, self.weight._data, (n, self.out_channels, h_out, w_out), self.stride,
                                      self.pad_mode, pairs, self.dilation, self.group, "Conv2DBackpropInput")
        if self.has_bias:
            out = F._bias_add_array(out, self.bias._data)
        op = self.output_padding
        if isinstance(op, tuple):
            for i, name in ((0, "h"), (1, "w")):
                if op[i] < 0 or op[i] >= max(self.dilation[i], self.stride[i]):
                    raise ValueError(f"output_padding[{i}] must be in range of [0, max(stride_{name}, dilation_{name})).")
            if not self.is_pad and (op[0] > 0 or op[1] > 0):
                raise ValueError("when output_padding is not zero, pad_mode must be 'pad'")
            return wrap(jnp.pad(out, [(0, 0), (0, 0), (0, op[0]), (0, op[1])]))
        if op == 0:
            return wrap(out)
        if op < 0 or op >= max(self.dilation[0], self.stride[0]):
            raise ValueError("output_padding must be in range of [0, max(stride_h, dilation_h)).")
        if op < 0 or op >= max(self.dilation[1], self.stride[1]):
            raise ValueError("output_padding must be in range of [0, max(stride_w, dilation_w)).")
        if not self.is_pad and op > 0:
            raise ValueError("when output_padding is not zero, pad_mode must be 'pad'")
        return wrap(jnp.pad(out, [(0, 0), (0, 0), (0, op), (0, op)]))


class Conv1dTranspose(_Conv):
    """``nn.Conv1dTranspose(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32)`` on
    (N, C, L); weight (in, out / group, 1, kernel_size)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        cls_name = type(self).__name__
        for n, v in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding),
                     ("dilation", dilation)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be int, but got {type(v).__name__}.")
        for n, v in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)):
            if v < 1:
                raise ValueError(f"For '{cls_name}', the '{n}' must be greater than or equal to 1, but got {v}.")
        if padding < 0:
            raise ValueError(f"For '{cls_name}', the 'padding' must be a non-negative int, but got {padding}.")
        if isinstance(weight_init, Tensor):
            if weight_init.ndim != 3:
                raise ValueError(f"For '{cls_name}', the 'weight_init_shape' must be 3, but got {weight_init.ndim}.")
            weight_init = Tensor(np.expand_dims(weight_init.asnumpy(), 2), weight_init.dtype)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode, padding, (1, dilation),
                         group, has_bias, weight_init, bias_init, transposed=True, dtype=dtype)
        self.padding = (0, 0, padding, padding)
        _check_pad_mode(pad_mode, cls_name)
        self.is_valid = self.pad_mode == "valid"
        self.is_same = self.pad_mode == "same"
        self.is_pad = self.pad_mode == "pad"

    def construct(self, x):
        xa = F._tensor_arg("x", x, type(self).__name__)
        if xa.ndim != 3:
            raise ValueError(f"For '{type(self).__name__}', the dimension of input must be 3d, but got {xa.ndim}.")
        xa = xa[:, :, None, :]
        n, _, h, w = xa.shape
        h_out = _deconv_output_length(self.is_valid, self.is_same, self.is_pad, h, self.kernel_size[0],
                                      self.stride[0], self.dilation[0], self.padding[0] + self.padding[1])
        w_out = _deconv_output_length(self.is_valid, self.is_same, self.is_pad, w, self.kernel_size[1],
                                      self.stride[1], self.dilation[1], self.padding[2] + self.padding[3])
        pairs = [(self.padding[0], self.padding[1]), (self.padding[2], self.padding[3])]
        out = F._conv_transpose_array(xa, self.weight._data, (n, self.out_channels, h_out, w_out), self.stride,
                                      self.pad_mode, pairs, self.dilation, self.group, "Conv2DBackpropInput")
        if self.has_bias:
            out = F._bias_add_array(out, self.bias._data)
        return wrap(out[:, :, 0, :] if out.shape[2] == 1 else out)


class Conv3dTranspose(_Conv):
    """``nn.Conv3dTranspose(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, output_padding=0, has_bias=False, weight_init=None, bias_init=None,
    data_format='NCDHW', dtype=mstype.float32)``: weight (in, out / group, kd, kh, kw); output size
    ``(in - 1) * stride - pads + dilation * (k - 1) + output_padding + 1`` ('pad'), ``in * stride``
    ('same'), ``(in - 1) * stride + dilation * (k - 1) + 1`` ('valid')."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, output_padding=0, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        cls_name = type(self).__name__
        if not (in_channels % group == 0 and out_channels % group == 0):
            raise ValueError("The argument 'group' should be divisible by 'in_channels' and 'out_channels'")
        kernel_size = _ntuple(kernel_size, 3, "kernel_size", cls_name)
        stride = _ntuple(stride, 3, "stride", cls_name)
        dilation = _ntuple(dilation, 3, "dilation", cls_name)
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
            raise TypeError(f"For '{cls_name}', the type of 'padding' must be int or tuple, "
                            f"but got {type(padding).__name__}.")
        if isinstance(padding, tuple) and len(padding) != 6:
            raise ValueError(f"For '{cls_name}', the 'padding size' must be 6, but got {len(padding)}.")
        self.output_padding = _ntuple(output_padding, 3, "output_padding", cls_name, greater_zero=False)
        _check_pad_mode(pad_mode, cls_name)
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, transposed=True, dtype=dtype)

    def construct(self, x):
        xa = F._tensor_arg("x", x, type(self).__name__)
        if xa.ndim != 5:
            raise ValueError(f"For 'Conv3DTranspose', the dimension of 'dout' must be 5, but got {xa.ndim}.")
        pairs = self._pairs(3)
        sizes = []
        for i, n in enumerate(xa.shape[2:]):
            k, s, d, op = self.kernel_size[i], self.stride[i], self.dilation[i], self.output_padding[i]
            if self.pad_mode == "same":
                sizes.append(n * s)
            elif self.pad_mode == "valid":
                sizes.append((n - 1) * s + d * (k - 1) + 1)
            else:
                sizes.append((n - 1) * s - sum(pairs[i]) + d * (k - 1) + op + 1)
        out_shape = (xa.shape[0], self.out_channels) + tuple(sizes)
        if self.pad_mode == "pad":
            # output_padding extends the tail; the forward convolution sees it as extra bottom padding
            fpairs = [(a, b - op) for (a, b), op in zip(pairs, self.output_padding)]
        else:
            fpairs = pairs
        out = _conv3d_transpose(xa, self.weight._data, out_shape, self.stride, self.pad_mode, fpairs,
                                self.dilation, self.group)
        if self.has_bias:
            out = F._bias_add_array(out, self.bias._data)
        return wrap(out)


def _conv3d_transpose(dout, w, out_shape, stride, pad_mode, pairs, dilation, groups):
    import jax
    x0 = jnp.zeros(out_shape, dout.dtype)

    def fwd(z):
        if pad_mode == "pad":
            pos = [(0, 0), (0, 0)] + [(a, max(b, 0)) for a, b in pairs]
            zz = jnp.pad(z, pos)
            cut = (slice(None), slice(None)) + tuple(slice(0, zz.shape[2 + i] + min(b, 0))
                                                     for i, (_, b) in enumerate(pairs))
            zz = zz[cut]
            return F._conv(zz, w, stride, [(0, 0)] * 3, dilation, groups, "Conv3DTranspose")
        return F._conv_checked(z, w, stride, pad_mode, pairs, dilation, groups, "Conv3DTranspose")

    y, vjp = jax.vjp(fwd, x0)
    if y.shape != dout.shape:
        raise ValueError(f"For 'Conv3DTranspose', the shape of the output {tuple(out_shape)} does not match the "
                         f"input {tuple(dout.shape)}.")
    return vjp(dout)[0]


def _check_input_3d(input_shape, op_name):
    """MindSpore's check that a 1-D convolution's input is 3-D."""
    if len(input_shape) != 3:
        raise ValueError(f"For '{op_name}', the dimension of input must be 3d, but got {len(input_shape)}.")
