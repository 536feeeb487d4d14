"""Padding layers: ``ConstantPad1d/2d/3d``, ``ZeroPad2d``, ``ReflectionPad1d/2d/3d`` and
``ReplicationPad1d/2d/3d``. ``padding`` is an int or a tuple in PyTorch order (last axis
first: left, right, top, bottom, front, back); constant padding may be negative (crops)."""
from __future__ import annotations

from ..._core.tensor import wrap
from ...ops._impl import image as F
from ..cell import Cell

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d",
           "ReflectionPad3d", "ZeroPad2d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d"]


class _ConstantPadNd(Cell):
    def __init__(self, padding, value, name="ConstantPadNd"):
        super().__init__()
        if isinstance(padding, int) and not isinstance(padding, bool):
            n = {"ConstantPad1d": 2, "ConstantPad2d": 4, "ZeroPad2d": 4, "ConstantPad3d": 6}.get(name, 2)
            padding = (padding,) * n
        elif isinstance(padding, tuple):
            if len(padding) % 2 != 0:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must be a multiple "
                                 f"of 2, but got {len(padding)}")
            if name == "ConstantPad1d" and len(padding) != 2:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must equal to 2."
                                 f"but got {len(padding)}")
            if name in ("ConstantPad2d", "ZeroPad2d") and len(padding) > 4:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must no more than "
                                 f"4.but got {len(padding)}")
            if name == "ConstantPad3d" and len(padding) > 6:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must no more than "
                                 f"6.but got {len(padding)}")
        else:
            raise TypeError(f"For '{name}', the type of parameter 'padding' must be in [int, tuple], "
                            f"but got {type(padding)}")
        if not isinstance(value, (int, float)):
            raise TypeError(f"For '{name}', the type of parameter 'value' must be in [int, float], "
                            f"but got {type(value)}")
        self.value = value
        self.padding = padding

    def construct(self, x):
        return F.pad(x, padding=self.padding, mode="constant", value=self.value)


class ConstantPad1d(_ConstantPadNd):
    """``nn.ConstantPad1d(padding, value)``: pads the last axis."""

    def __init__(self, padding, value):
        super().__init__(padding, value, name="ConstantPad1d")


class ConstantPad2d(_ConstantPadNd):
    """``nn.ConstantPad2d(padding, value)``: pads the last two axes."""

    def __init__(self, padding, value):
        super().__init__(padding, value, name="ConstantPad2d")


class ConstantPad3d(_ConstantPadNd):
    """``nn.ConstantPad3d(padding, value)``: pads the last three axes."""

    def __init__(self, padding, value):
        super().__init__(padding, value, name="ConstantPad3d")


class ZeroPad2d(_ConstantPadNd):
    """``nn.ZeroPad2d(padding)``: zero padding of the last two axes."""

    def __init__(self, padding):
        super().__init__(padding, 0, name="ZeroPad2d")


def _check_tuple_padding(padding, name, non_negative):
    if not isinstance(padding, tuple):
        raise TypeError(f"For '{name}' the input 'padding' must be an integer or tuple, "
                        f"but got {type(padding).__name__}")
    if len(padding) % 2 != 0:
        raise ValueError(f"For '{name}' the length of input 'padding' must be divisible by 2, but got padding of "
                         f"length {len(padding)}. ")
    if not all(isinstance(i, int) for i in padding):
        raise TypeError(f"For '{name}' every element in 'padding' must be integer, but got {padding}. ")
    if non_negative and not all(i >= 0 for i in padding):
        raise ValueError(f"For '{name}' every element in 'padding' must be >= 0. but got {padding}. ")


class _ReflectionPadNd(Cell):
    def __init__(self, padding, name="ReflectionPadNd"):
        super().__init__()
        _check_tuple_padding(padding, name, True)
        self.name = name
        self.padding = padding

    def construct(self, x):
        xa = x._data
        k = len(self.padding) // 2
        if xa.ndim < k:
            raise ValueError(f"For padding with length {len(self.padding)}, the dimension of the tensor should be at "
                             f"least {k}, but got {xa.ndim}")
        pairs = [(0, 0)] * (xa.ndim - k) + [(self.padding[2 * i], self.padding[2 * i + 1])
                                            for i in reversed(range(k))]
        for (a, b), n in zip(pairs, xa.shape):
            if a >= n or b >= n:
                raise ValueError(f"For 'MirrorPad', the padding of REFLECT mode must be less than the input "
                                 f"dimension size {n}, but got paddings {self.padding}.")
        return wrap(F._pad_array(xa, pairs, "reflect"))


class ReflectionPad1d(_ReflectionPadNd):
    """``nn.ReflectionPad1d(padding)``: reflection padding of the last axis."""

    def __init__(self, padding):
        if isinstance(padding, int):
            padding = (padding, padding)
        super().__init__(padding, "ReflectionPad1d")


class ReflectionPad2d(_ReflectionPadNd):
    """``nn.ReflectionPad2d(padding)``: reflection padding of the last two axes."""

    def __init__(self, padding):
        if isinstance(padding, int):
            padding = (padding,) * 4
        super().__init__(padding, "ReflectionPad2d")


class ReflectionPad3d(_ReflectionPadNd):
    """``nn.ReflectionPad3d(padding)``: reflection padding of the last three axes."""

    def __init__(self, padding):
        if isinstance(padding, int):
            padding = (padding,) * 6
        super().__init__(padding, "ReflectionPad3d")


class _ReplicationPadNd(Cell):
    _batched_rank = 3

    def __init__(self, padding, name="ReplicationPadNd"):
        super().__init__()
        _check_tuple_padding(padding, name, False)
        self.name = name
        self.padding = padding

    def construct(self, x):
        xa = x._data
        expand = xa.ndim == self._batched_rank - 1
        if expand:
            xa = xa[None]
        k = len(self.padding) // 2
        pairs = [(0, 0)] * (xa.ndim - k) + [(self.padding[2 * i], self.padding[2 * i + 1])
                                            for i in reversed(range(k))]
        pos = [(max(a, 0), max(b, 0)) for a, b in pairs]
        out = F._pad_array(xa, pos, "replicate")
        out = F._pad_array(out, [(min(a, 0), min(b, 0)) for a, b in pairs], "constant")
        return wrap(out[0] if expand else out)


class ReplicationPad1d(_ReplicationPadNd):
    """``nn.ReplicationPad1d(padding)`` on (N, C, W) or (C, W)."""
    _batched_rank = 3

    def __init__(self, padding):
        if isinstance(padding, int):
            padding = (padding, padding)
        super().__init__(padding, name="ReplicationPad1d")


class ReplicationPad2d(_ReplicationPadNd):
    """``nn.ReplicationPad2d(padding)`` on (N, C, H, W) or (C, H, W)."""
    _batched_rank = 4

    def __init__(self, padding):
        if isinstance(padding, int):
            padding = (padding,) * 4
        super().__init__(padding, name="ReplicationPad2d")


class ReplicationPad3d(_ReplicationPadNd):
    """``nn.ReplicationPad3d(padding)`` on (N, C, D, H, W) or (C, D, H, W)."""
    _batched_rank = 5

    def __init__(self, padding):
        if isinstance(padding, int):
            padding = (padding,) * 6
        super().__init__(padding, name="ReplicationPad3d")
