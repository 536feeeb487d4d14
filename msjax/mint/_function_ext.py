"""MindSpore's private ``ops.function`` names that are ``mint`` functions (its own tests import
them): ``array_func.one_hot_ext``/``split_ext``, ``math_func.norm_ext``,
``nn_func.interpolate_ext``.
They live here, above ``ops``, because each calls the ``mint`` function of that meaning; the MindSpore
module paths re-export them (``msjax/_tree.py``)."""
from __future__ import annotations

from .._core.tensor import Tensor


def one_hot_ext(tensor, num_classes):
    """``array_func.one_hot_ext(tensor, num_classes)``: ``mint.nn.functional.one_hot`` (differs from
    MindSpore's CPU build, which has no OneHotExt kernel in PyNative and raises ``RuntimeError``)."""
    from .nn import functional
    return functional.one_hot(tensor, num_classes)


def norm_ext(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """``math_func.norm_ext``: ``mint.norm`` (differs from MindSpore's CPU build, which has no
    LinalgVectorNorm kernel in PyNative and raises ``RuntimeError``)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For `norm_ext`, the `input` must be Tensor!, but get {type(input)}.")
    from . import norm
    return norm(input, p, dim, keepdim, dtype=dtype)


def split_ext(tensor, split_size, dim=0):
    """``array_func.split_ext(tensor, split_size, dim=0)``: ``mint.split`` (an int: chunks of that
    size; a list/tuple: those sizes)."""
    if not isinstance(split_size, (int, list, tuple)) or isinstance(split_size, bool):
        raise TypeError(f"Type of Argument `split_size` should be integer, tuple(int) or list(int), "
                        f"but got {type(split_size)}")
    from . import split
    return split(tensor, split_size, dim)


def interpolate_ext(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                    recompute_scale_factor=None):
    """``nn_func.interpolate_ext``: ``mint.nn.functional.interpolate`` (MindSpore's same function)."""
    from .nn import functional
    return functional.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)
