"""``mindspore.mint.nn.layer.conv``: ``Conv1d``/``Conv2d``/``Conv3d`` (``padding`` int, tuple, ``'same'`` or
``'valid'``; ``padding_mode`` zeros/reflect/replicate/circular) and ``ConvTranspose2d``, with MindSpore's
(torch's) ``weight``/``bias`` Parameters and initialisers."""
from __future__ import annotations

import math

import numpy as np

from ...._core import dtype as mstype
from ...._core.parameter import Parameter
from ....common.initializer import HeUniform, Uniform, initializer
from ....nn.cell import Cell
from .. import functional as F
from ._elementwise import _tuple


class _ConvNd(Cell):
    _nd = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None, output_padding=0):
        super().__init__()
        name, nd = type(self).__name__, self._nd
        for arg, v in (("in_channels", in_channels), ("out_channels", out_channels), ("groups", groups)):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"For '{name}', '{arg}' must be a positive int, but got {v}.")
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"For '{name}', 'in_channels' and 'out_channels' must be divisible by 'groups'.")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"The value of 'padding_mode' must be one of '{{'zeros', 'reflect', 'replicate', "
                             f"'circular'}}', but got {padding_mode}.")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size = _tuple("kernel_size", kernel_size, nd, name)
        self.stride = _tuple("stride", stride, nd, name)
        self.dilation = _tuple("dilation", dilation, nd, name)
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"For '{name}', 'padding' must be 'same' or 'valid', but got {padding!r}.")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError(f"For '{name}', padding='same' is not supported for strided convolutions.")
            self.padding = padding
        else:
            self.padding = _tuple("padding", padding, nd, name)
        self.output_padding = _tuple("output_padding", output_padding, nd, name)
        self.padding_mode = padding_mode
        dtype = mstype.float32 if dtype is None else dtype
        shape = ([in_channels, out_channels // groups] if self._transposed else
                 [out_channels, in_channels // groups]) + list(self.kernel_size)
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype=dtype), name="weight")
        self.bias = None
        if bias:
            fan_in = shape[1] * int(np.prod(self.kernel_size))
            self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)) if fan_in else "zeros",
                                              [out_channels], dtype=dtype), name="bias")

    def _reversed_padding(self):
        if self.padding == "valid":
            return (0, 0) * self._nd
        if self.padding == "same":
            out = []
            for d, k in zip(reversed(self.dilation), reversed(self.kernel_size)):
                total = d * (k - 1)
                out += [total // 2, total - total // 2]
            return tuple(out)
        return tuple(p for p in reversed(self.padding) for _ in range(2))

    def construct(self, input):
        fn = (F.conv1d, F.conv2d, F.conv3d)[self._nd - 1]
        if self.padding_mode != "zeros":
            input = F.pad(input, self._reversed_padding(), self.padding_mode)
            return fn(input, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)
        return fn(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, groups={self.groups}, bias={self.bias is not None}")


class Conv1d(_ConvNd):
    """``mint.nn.Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
    bias=True, padding_mode='zeros', dtype=None)``."""
    _nd = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)


class Conv2d(Conv1d):
    """``mint.nn.Conv2d(...)``: as ``Conv1d`` in two dimensions."""
    _nd = 2


class Conv3d(Conv1d):
    """``mint.nn.Conv3d(...)``: as ``Conv1d`` in three dimensions."""
    _nd = 3


class ConvTranspose2d(_ConvNd):
    """``mint.nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=1, padding=0,
    output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros', dtype=None)``; only
    ``padding_mode='zeros'``, as in MindSpore; ``construct(input, output_size=None)`` picks the
    ``output_padding`` that gives ``output_size``."""
    _nd = 2
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f"Only 'zeros' padding mode is supported for {type(self).__name__}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype, output_padding)

    def _output_padding(self, input, output_size):
        """MindSpore's (PyTorch's) ``output_padding`` for a requested ``output_size``: the last two
        entries (H_out, W_out), each between the smallest size and that plus ``stride - 1``."""
        nd = self._nd
        if output_size is None:
            return tuple(self.output_padding)
        batched = input.ndim == nd + 2
        lead = 2 if batched else 1
        if len(output_size) not in (nd, lead + nd):
            raise ValueError(f"ConvTranspose{nd}D: for {input.ndim}D input, ", f"output_size must have {nd} ",
                             f"or {lead + nd} elements (got {len(output_size)})")
        output_size = output_size[-nd:]
        min_sizes = [(input.shape[d + lead] - 1) * self.stride[d] - 2 * self.padding[d]
                     + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(nd)]
        max_sizes = [m + s - 1 for m, s in zip(min_sizes, self.stride)]
        for size, lo, hi in zip(output_size, min_sizes, max_sizes):
            if size < lo or size > hi:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range "
                                 f"from {min_sizes} to {max_sizes} (for an input of {input.shape})")
        return [size - lo for size, lo in zip(output_size, min_sizes)]

    def construct(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size)
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)


__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d"]
