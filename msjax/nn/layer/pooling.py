"""Pooling layers: max/average pooling (1-3 D), adaptive pooling and LP pooling.

``pad_mode`` 'valid' and 'same' follow ``ops.MaxPool``/``ops.AvgPool`` (with 'same' the
padded positions count as -inf for max and are left out of averages); ``pad_mode='pad'``
uses explicit ``padding`` with ``ceil_mode``/``count_include_pad``/``divisor_override``
and, for max pooling, ``dilation``/``return_indices`` (indices are Int64 offsets into the
pooled spatial axes). A missing batch axis is added and removed again, as in MindSpore.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.tensor import Tensor, wrap
from ...ops._impl import pooling as F
from ...ops._impl import conv as _conv
from ...ops._impl import max_unpool as _unpool
from ...ops._impl.fractional_pool import ext_tuple as _ext_tuple, fractional_max_pool_nd as _fractional_max_pool_nd
from ..cell import Cell

__all__ = ["MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
           "LPPool1d", "LPPool2d", "AvgPool1dExt", "AvgPool2dExt", "AvgPool3dExt", "MaxPool2dExt", "MaxUnpool1d",
           "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d", "FractionalMaxPool3d"]


class _PoolNd(Cell):
    def __init__(self, kernel_size, stride, pad_mode, data_format="NCHW"):
        super().__init__()
        cls_name = type(self).__name__
        if not isinstance(pad_mode, str):
            raise TypeError(f"For '{cls_name}', the type of 'pad_mode' must be str, but got {type(pad_mode).__name__}.")
        if pad_mode.upper() not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{cls_name}', the 'pad_mode' must be str and the value of 'pad_mode' should be in "
                             f"['VALID', 'SAME', 'PAD'], but got {pad_mode.upper()}.")
        self.pad_mode = pad_mode.upper()
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For '{cls_name}', the 'format' must be str and the value of 'format' should be in "
                             f"['NCHW', 'NHWC'], but got {data_format}.")
        if data_format == "NHWC":
            raise ValueError(f"For '{cls_name}, the 'NHWC' format only support in GPU target, but got device target "
                             f"CPU.")
        self.format = data_format

        def _check_int_or_tuple(arg_name, arg_value):
            if isinstance(arg_value, bool) or not isinstance(arg_value, (int, tuple)):
                raise TypeError(f"For '{cls_name}', the type of '{arg_name}' must be int or tuple, "
                                f"but got {type(arg_value).__name__}.")
            msg = f"For '{cls_name}', the '{arg_name}' must be an positive int number or a tuple, but got {arg_value}"
            if isinstance(arg_value, int):
                if arg_value <= 0:
                    raise ValueError(msg)
            else:
                for item in arg_value:
                    if not (isinstance(item, int) and item > 0):
                        raise ValueError(msg)
                if len(arg_value) == 1:
                    return arg_value[0]
            return arg_value

        self.kernel_size = _check_int_or_tuple("kernel_size", kernel_size)
        self.stride = _check_int_or_tuple("stride", stride)

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"

    def _batched(self, x, rank, message):
        """``x``'s array with a batch axis added when it has none (MindSpore accepts
        unbatched input) and whether one was added; ``message`` (with ``{cls}`` and
        ``{ndim}``) is the error for any other rank."""
        xa = x._data
        expand = xa.ndim == rank - 1
        if expand:
            xa = xa[None]
        if xa.ndim != rank:
            raise ValueError(message.format(cls=type(self).__name__, ndim=xa.ndim))
        return xa, expand


def _tuple_n(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


def _check_len(value, name, n, cls_name):
    if isinstance(value, tuple) and len(value) != n:
        raise ValueError(f"For {cls_name}, the length of {name} must be equal to {n}, but got {len(value)}.")


def _maxpool_padding(padding, nd, cls_name):
    if isinstance(padding, bool) or not isinstance(padding, (int, tuple, list)):
        raise TypeError(f"For '{cls_name}', the type of 'padding' must be int, tuple or list, "
                        f"but got {type(padding).__name__}.")
    if isinstance(padding, int):
        return (padding,) * nd
    if any(not isinstance(p, int) or p < 0 for p in padding):
        raise ValueError(f"For '{cls_name}', the 'padding' must be a sequence of non-negative int, but got {padding}.")
    if len(padding) == 1:
        return tuple(padding) * nd
    if len(padding) != nd:
        raise ValueError(f"For {cls_name}, the length of padding must equal to {nd}, but got {len(padding)}.")
    return tuple(padding)


def _dilation(dilation, nd, cls_name):
    if isinstance(dilation, int) and not isinstance(dilation, bool):
        return (dilation,) * nd
    if isinstance(dilation, tuple):
        if len(dilation) == 1:
            return dilation * nd
        if len(dilation) == nd:
            return dilation
        if nd == 1:
            raise ValueError(f"For {cls_name}, the length of 'dilation' must be 1, but got {len(dilation)}.")
        raise ValueError(f"For {cls_name}, the length of 'dilation' must be 1 or {nd}, but got {len(dilation)}.")
    raise ValueError(f"For {cls_name}, the 'dilation' must be int or tuple, but got {type(dilation)}.")


def _squeeze_batch(out, expand):
    if not expand:
        return out
    if isinstance(out, tuple):
        return tuple(o[0] for o in out)
    return out[0]


class _MaxPoolNd(_PoolNd):
    _nd = 2

    def __init__(self, kernel_size, stride, pad_mode, padding, dilation, return_indices, ceil_mode, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        nd = self._nd
        cls_name = type(self).__name__
        self.return_indices = return_indices
        # MindSpore's MaxPool3DWithArgmax (its own NaN rule): 1-D/2-D 'pad', 3-D with dilation or indices
        self.use_pad = (dilation != 1 or return_indices) if nd == 3 else self.pad_mode == "PAD"
        if nd == 3 and (dilation != 1 or return_indices) and pad_mode.upper() != "PAD":
            raise ValueError(f"For {cls_name}, the pad_mode must be 'pad' when dilation is not 1 or return_indices "
                             f"is True, but got pad_mode:{pad_mode}.")
        if self.pad_mode == "PAD" or self.use_pad:
            _check_len(self.kernel_size, "kernel_size", nd, cls_name)
            _check_len(self.stride, "stride", nd, cls_name)
            self.padding = _maxpool_padding(padding, nd, cls_name)
            self._dil = _dilation(dilation, nd, cls_name)
            self.ceil_mode = ceil_mode
        else:
            if nd != 3 and (padding != 0 or dilation != 1 or return_indices or ceil_mode):
                raise ValueError(f"For {cls_name}, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' "
                                 f"can not be set to non-default value when pad_mode is not 'pad', but got "
                                 f"pad_mode:{pad_mode}.")
            self.padding = _maxpool_padding(padding, nd, cls_name) if nd == 3 else 0
            self._dil = (1,) * nd
            self.ceil_mode = ceil_mode

    def _pool(self, xa, k, s):
        nd = self._nd
        if self.use_pad:
            pads = [(p, p) for p in self.padding]
            out, ind = F._max_pool_with_indices(xa, k, s, pads, self._dil, bool(self.ceil_mode))
            return (wrap(out), wrap(ind)) if self.return_indices else wrap(out)
        if self.pad_mode == "SAME":
            pads = _conv._same_pads(xa.shape[-nd:], k, s, (1,) * nd)
        else:
            pads = [(p, p) for p in self.padding] if nd == 3 else [(0, 0)] * nd
            for n, kk, (lo, hi) in zip(xa.shape[-nd:], k, pads):
                if n + lo + hi < kk:
                    raise ValueError(f"For 'MaxPool', the spatial size of 'x' ({n}) must not be smaller than "
                                     f"'kernel_size' ({kk}) when 'pad_mode' is 'valid'.")
        return wrap(F._max_pool_array(xa, k, s, pads, None, bool(self.ceil_mode)))


class MaxPool2d(_MaxPoolNd):
    """``nn.MaxPool2d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1, return_indices=False,
    ceil_mode=False, data_format='NCHW')`` on (N, C, H, W) or (C, H, W)."""
    _nd = 2

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices, ceil_mode, data_format)

    def construct(self, x):
        xa, expand = self._batched(x, 4, "For 'MaxPool', the dimension of 'x' must be 4, but got {ndim}.")
        return _squeeze_batch(self._pool(xa, _tuple_n(self.kernel_size, 2), _tuple_n(self.stride, 2)), expand)


class MaxPool1d(_MaxPoolNd):
    """``nn.MaxPool1d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1, return_indices=False,
    ceil_mode=False)`` on (N, C, L) or (C, L)."""
    _nd = 1

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        cls_name = type(self).__name__
        for n, v in (("kernel_size", kernel_size), ("stride", stride)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be int, but got {type(v).__name__}.")
            if v < 1:
                raise ValueError(f"For '{cls_name}', the '{n}' must be greater than or equal to 1, but got {v}.")
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices, ceil_mode)
        self.kernel_size = (1, kernel_size)
        self.stride = (1, stride)
        self._k1, self._s1 = kernel_size, stride

    def construct(self, x):
        xa, expand = self._batched(x, 3, "For '{cls}', the input must has 3 dim, but got {ndim}")
        return _squeeze_batch(self._pool(xa, (self._k1,), (self._s1,)), expand)


class MaxPool3d(_MaxPoolNd):
    """``nn.MaxPool3d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1, return_indices=False,
    ceil_mode=False)`` on (N, C, D, H, W) or (C, D, H, W)."""
    _nd = 3

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices, ceil_mode)

    def construct(self, x):
        xa, expand = self._batched(x, 5, "For 'MaxPool3D', the dimension of 'x' must be 5, but got {ndim}.")
        return _squeeze_batch(self._pool(xa, _tuple_n(self.kernel_size, 3), _tuple_n(self.stride, 3)), expand)


def _avg_padding(padding, nd, cls_name):
    if isinstance(padding, bool) or not isinstance(padding, (int, tuple, list)):
        raise TypeError(f"For '{cls_name}', the type of 'padding' must be int, tuple or list, "
                        f"but got {type(padding).__name__}.")
    if isinstance(padding, int):
        return (padding,) * nd
    if any(not isinstance(p, int) or p < 0 for p in padding):
        raise ValueError(f"For '{cls_name}', the 'padding' must be a sequence of non-negative int, but got {padding}.")
    if len(padding) == nd:
        return tuple(padding)
    if len(padding) == 1:
        return tuple(padding) * nd
    if nd == 1:
        raise ValueError(f"For {cls_name}, the padding must be a int or tuple/list contains one int, but got "
                         f"tuple/list with length:{len(padding)}.")
    raise ValueError(f"For {cls_name}, the padding must be a int or tuple/list contains 1 or {nd} int, but got "
                     f"tuple/list with length:{len(padding)}.")


class _AvgPoolNd(_PoolNd):
    _nd = 2

    def _setup(self, pad_mode, padding, ceil_mode, count_include_pad, divisor_override):
        cls_name = type(self).__name__
        nd = self._nd
        self.is_expand = (self.pad_mode == "PAD" or padding != 0 or ceil_mode or not count_include_pad or
                          divisor_override is not None)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For '{cls_name}', the 'divisor_override' must be > 0, but got {divisor_override}.")
        if self.is_expand:
            if nd > 1:
                _check_len(self.kernel_size, "kernel_size", nd, cls_name)
                _check_len(self.stride, "stride", nd, cls_name)
            self._padding = _avg_padding(padding, nd, cls_name)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = 0 if divisor_override is None else divisor_override

    def _pool(self, xa, k, s):
        nd = self._nd
        if self.is_expand:
            pads = [(p, p) for p in self._padding]
            if self.pad_mode == "SAME":
                pads = _conv._same_pads(xa.shape[-nd:], k, s, (1,) * nd)
            return F._avg_pool_array(xa, k, s, pads, bool(self.ceil_mode), bool(self.count_include_pad),
                                     self.divisor_override)
        if self.pad_mode == "SAME":
            pads = _conv._same_pads(xa.shape[-nd:], k, s, (1,) * nd)
            return F._avg_pool_array(xa, k, s, pads, count_include_pad=False)
        for n, kk in zip(xa.shape[-nd:], k):
            if n < kk:
                raise ValueError(f"For 'AvgPool', the spatial size of 'x' ({n}) must not be smaller than "
                                 f"'kernel_size' ({kk}) when 'pad_mode' is 'valid'.")
        return F._avg_pool_array(xa, k, s, [(0, 0)] * nd)


class AvgPool2d(_AvgPoolNd):
    """``nn.AvgPool2d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
    count_include_pad=True, divisor_override=None, data_format='NCHW')`` on (N, C, H, W) or (C, H, W)."""
    _nd = 2

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        self._setup(pad_mode, padding, ceil_mode, count_include_pad, divisor_override)

    def construct(self, x):
        xa, expand = self._batched(x, 4, "For 'AvgPool', the dimension of 'x' must be 4, but got {ndim}.")
        out = self._pool(xa, _tuple_n(self.kernel_size, 2), _tuple_n(self.stride, 2))
        return wrap(out[0] if expand else out)


class AvgPool3d(_AvgPoolNd):
    """``nn.AvgPool3d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
    count_include_pad=True, divisor_override=None)`` on (N, C, D, H, W) or (C, D, H, W)."""
    _nd = 3

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode)
        self._setup(pad_mode, padding, ceil_mode, count_include_pad, divisor_override)
        self.is_expand = True
        if not hasattr(self, "_padding"):
            self._padding = _avg_padding(padding, 3, type(self).__name__)

    def construct(self, x):
        xa, expand = self._batched(x, 5, "For 'AvgPool3D', the dimension of 'x' must be 5, but got {ndim}.")
        out = self._pool(xa, _tuple_n(self.kernel_size, 3), _tuple_n(self.stride, 3))
        return wrap(out[0] if expand else out)


class AvgPool1d(_AvgPoolNd):
    """``nn.AvgPool1d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
    count_include_pad=True)`` on (N, C, L) or (C, L)."""
    _nd = 1

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(kernel_size, stride, pad_mode)
        cls_name = type(self).__name__
        for n, v in (("kernel_size", self.kernel_size), ("stride", self.stride)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be int, but got {type(v).__name__}.")
            if v < 1:
                raise ValueError(f"For '{cls_name}', the '{n}' must be greater than or equal to 1, but got {v}.")
        self._setup(pad_mode, padding, ceil_mode, count_include_pad, None)
        self._k1, self._s1 = self.kernel_size, self.stride
        if not self.is_expand:
            self.kernel_size = (1, self.kernel_size)
            self.stride = (1, self.stride)

    def construct(self, x):
        xa, expand = self._batched(x, 3, "For '{cls}', the input must has 3 dim, but got {ndim}")
        k, s = self._k1, self._s1
        if not self.is_expand and self.pad_mode == "VALID":
            width = xa.shape[2]
            if width == k or width - k < s:
                out = xa[:, :, :k].mean(axis=2, keepdims=True)
                return wrap(out[0] if expand else out)
        out = self._pool(xa, (k,), (s,))
        return wrap(out[0] if expand else out)


class AdaptiveAvgPool1d(Cell):
    """``nn.AdaptiveAvgPool1d(output_size)`` on (N, C, L); L must be divisible by ``output_size``."""

    def __init__(self, output_size):
        super().__init__()
        _check_output_size_1d(output_size, type(self).__name__)
        self.output_size = output_size

    def construct(self, input):
        _adaptive_1d_check(input, self.output_size, type(self).__name__)
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveMaxPool1d(Cell):
    """``nn.AdaptiveMaxPool1d(output_size)`` on (N, C, L); L must be divisible by ``output_size``."""

    def __init__(self, output_size):
        super().__init__()
        _check_output_size_1d(output_size, type(self).__name__)
        self.output_size = output_size

    def construct(self, x):
        _adaptive_1d_check(x, self.output_size, type(self).__name__)
        return F.adaptive_max_pool1d(x, self.output_size)


def _check_output_size_1d(output_size, cls_name):
    if not isinstance(output_size, int) or isinstance(output_size, bool):
        raise TypeError(f"For '{cls_name}', the type of 'output_size' must be int, "
                        f"but got {type(output_size).__name__}.")
    if output_size < 1:
        raise ValueError(f"For '{cls_name}', the 'output_size' must be greater than or equal to 1, "
                         f"but got {output_size}.")


def _adaptive_1d_check(x, output_size, cls_name):
    shape = x.shape
    msg_prefix = f"For {cls_name}, the"
    if len(shape) != 3:
        raise ValueError(f"{msg_prefix} input must has 3 dim, but got {len(shape)}.")
    if shape[2] < output_size:
        raise ValueError(f"{msg_prefix} input's last dimension must be greater or equal to output size "
                         f"{output_size}, but got {shape[2]}.")
    if shape[2] % output_size != 0:
        raise ValueError(f"{msg_prefix} input's last dimension must be divisible by output size {output_size}, "
                         f"but got {shape[2]}.")
    if x.dtype not in (mstype.float16, mstype.float32):
        raise TypeError(f"For {cls_name}, the x_dtype must be float16 or float32, but got {x.dtype}.")


class AdaptiveAvgPool2d(Cell):
    """``nn.AdaptiveAvgPool2d(output_size)``: an int or (H, W), None keeps that size."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(Cell):
    """``nn.AdaptiveAvgPool3d(output_size)``: an int or (D, H, W), None keeps that size."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool2d(Cell):
    """``nn.AdaptiveMaxPool2d(output_size, return_indices=False)``."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def construct(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(Cell):
    """``nn.AdaptiveMaxPool3d(output_size, return_indices=False)``."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        if isinstance(output_size, int):
            output_size = (output_size,) * 3
        self.output_size = output_size
        self.return_indices = return_indices

    def construct(self, input):
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class LPPool1d(Cell):
    """``nn.LPPool1d(norm_type, kernel_size, stride=None, ceil_mode=False)``."""

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def construct(self, x):
        return F.lp_pool1d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(Cell):
    """``nn.LPPool2d(norm_type, kernel_size, stride=None, ceil_mode=False)``."""

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def construct(self, x):
        return F.lp_pool2d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)



# ---------------------------------------------------------------------------
# PyTorch-style "Ext" pooling, unpooling, fractional max pooling
# ---------------------------------------------------------------------------
class _AvgPoolExt(Cell):
    _nd = 2

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def construct(self, input):
        nd, name = self._nd, type(self).__name__
        x = input._data
        if x.ndim not in (nd + 1, nd + 2):
            raise ValueError(f"For '{name}', the dimension of 'input' must be {nd + 1} or {nd + 2}, but got {x.ndim}.")
        k = _ext_tuple(self.kernel_size, nd, "kernel_size", name)
        s = k if self.stride is None else _ext_tuple(self.stride, nd, "stride", name)
        p = _ext_tuple(self.padding, nd, "padding", name)
        if any(pp > kk // 2 for pp, kk in zip(p, k)):
            raise ValueError(f"For '{name}', the 'padding' should be at most half of 'kernel_size', but got {p} "
                             f"and {k}.")
        return wrap(F._avg_pool_array(x, k, s, [(v, v) for v in p], bool(self.ceil_mode),
                                      bool(self.count_include_pad), self.divisor_override or 0))


class AvgPool1dExt(_AvgPoolExt):
    """``nn.AvgPool1dExt(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True)``."""
    _nd = 1

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)


class AvgPool2dExt(_AvgPoolExt):
    """``nn.AvgPool2dExt(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
    divisor_override=None)``."""
    _nd = 2


class AvgPool3dExt(_AvgPoolExt):
    """``nn.AvgPool3dExt(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
    divisor_override=None)``."""
    _nd = 3


class MaxPool2dExt(Cell):
    """``nn.MaxPool2dExt(kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False,
    ceil_mode=False)``: ``ops.max_pool2d`` semantics on (N, C, H, W) or (C, H, W)."""

    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def construct(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.return_indices,
                            self.ceil_mode)


class _MaxUnpoolNd(Cell):
    _nd = 2

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        if stride is None:
            stride = kernel_size
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def construct(self, x, indices, output_size=None):
        nd, name = self._nd, type(self).__name__
        if output_size is not None:
            if not isinstance(output_size, tuple):
                raise ValueError(f"For {name}, output_size must be tuple, but type {type(output_size)}.")
            if not output_size:
                raise ValueError(f"For {name}, the length of output_size must be positive, but got 0.")
        fn = (_unpool.max_unpool1d, _unpool.max_unpool2d, _unpool.max_unpool3d)[nd - 1]
        return fn(x, indices, self.kernel_size, stride=self.stride, padding=self.padding, output_size=output_size)


class MaxUnpool1d(_MaxUnpoolNd):
    """``nn.MaxUnpool1d(kernel_size, stride=None, padding=0)``: ``construct(x, indices, output_size=None)``
    places ``x`` at ``indices`` (offsets into L_out) of a zero Tensor."""
    _nd = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """``nn.MaxUnpool2d(kernel_size, stride=None, padding=0)``: the inverse of max pooling with indices."""
    _nd = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """``nn.MaxUnpool3d(kernel_size, stride=None, padding=0)``."""
    _nd = 3


class _FractionalMaxPoolNd(Cell):
    _nd = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.output_size = output_size
        self.output_ratio = output_ratio
        self.return_indices = return_indices
        self._random_samples = _random_samples

    def construct(self, input):
        return _fractional_max_pool_nd(self._nd, type(self).__name__, input, self.kernel_size, self.output_size,
                                       self.output_ratio, self.return_indices, self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """``nn.FractionalMaxPool2d(kernel_size, output_size=None, output_ratio=None, return_indices=False,
    _random_samples=None)``: pooling windows at pseudo-random starts drawn from ``_random_samples``
    ((N, C, 2) in [0, 1); from the global key when None)."""
    _nd = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """``nn.FractionalMaxPool3d(kernel_size, output_size=None, output_ratio=None, return_indices=False,
    _random_samples=None)``: as ``FractionalMaxPool2d`` on (N, C, D, H, W); samples (N, C, 3)."""
    _nd = 3
