"""The Upsample kernels behind ``mint.nn.functional.interpolate`` (MindSpore's
``nn_func.interpolate_ext``): each mode and rank names its kernel (``UpsampleNearest1D/2D/3D``,
``UpsampleLinear1D``, ``UpsampleBilinear2D``, ``UpsampleTrilinear3D``, ``UpsampleBicubic2D``), which
checks its ``scales`` (floats), the length of ``output_size``/``scales`` and the input dtype with
MindSpore's exceptions, and samples with ``1 / scale`` when given a scale factor (as MindSpore and
torch do), not with ``in / out``.

Differs from MindSpore: ``UpsampleBicubic2D`` samples from the sizes even when given scales."""
from __future__ import annotations

import math as _math

from ..._core.tensor import Tensor
from ._util import wrap
from .image import _resize_cubic, _resize_linear, _resize_nearest

_FLOATS = ("Float16", "Float32", "Float64")
# mode -> (kernel name per spatial rank, dtypes the CPU kernel takes)
_KERNELS = {"nearest": ({1: "UpsampleNearest1D", 2: "UpsampleNearest2D", 3: "UpsampleNearest3D"},
                        ("UInt8",) + _FLOATS),
            "linear": ({1: "UpsampleLinear1D"}, _FLOATS),
            "bilinear": ({2: "UpsampleBilinear2D"}, _FLOATS),
            "trilinear": ({3: "UpsampleTrilinear3D"}, _FLOATS),
            "bicubic": ({2: "UpsampleBicubic2D"}, _FLOATS)}


def _call_text(name, mode, size, scales):
    """The "Failed calling ..." text MindSpore's argument parser raises for non-float scales."""
    def show(v):
        if v is None:
            return "None"
        kind = "List" if isinstance(v, list) else "Tuple"
        return f"{kind}<{', '.join(type(e).__name__ for e in v)}>"
    attr = "align_corners=bool" if mode != "nearest" else ""
    valid_attr = "align_corners=<bool>" if mode != "nearest" else ""
    return (f'Failed calling {name} with "{name}({attr})(x=Tensor, output_size={show(size)}, '
            f'scales={show(scales)})".\nThe valid calling should be: \n"{name}({valid_attr})(x=<Tensor>, '
            f'output_size=<list of int, tuple of int>, scales=<list of float, tuple of float>)".')


def _as_seq(v, n):
    """``_interploate_ext_make_tuple``: a scalar repeated for each spatial dimension."""
    if v is None or isinstance(v, (list, tuple)):
        return v
    return (v,) * n


def upsample(input, size, scale_factor, mode, align_corners):
    """Run the Upsample kernel of ``mode`` for ``input``'s rank on ``size`` or ``scale_factor``
    (exactly one is given, already checked by ``interpolate``)."""
    n = input.ndim - 2
    names, dtypes = _KERNELS[mode]
    name = names.get(n)
    if name is None:
        # the kernel MindSpore would pick for the mode is fixed; its rank check names it
        kernel = next(iter(names.values()))
        raise ValueError(f"For primitive[{kernel}], the image rank must be equal to {next(iter(names)) + 2}, "
                         f"but got {input.ndim}.")
    size = _as_seq(size, n)
    scales = _as_seq(scale_factor, n)
    if scales is not None and not all(isinstance(s, float) for s in scales):
        raise TypeError(_call_text(name, mode, size, scales))
    if size is not None and len(size) != n:
        raise ValueError(f"For primitive[{name}], the number of size must be equal to {n}, but got {len(size)}.")
    if scales is not None and len(scales) != n:
        raise ValueError(f"For primitive[{name}], the number of scales must be equal to {n}, "
                         f"but got {len(scales)}.")
    if str(input.dtype) not in dtypes:
        raise TypeError(f"Select CPU operator[{name}] fail! Unsupported data type!\nThe supported data types "
                        f"are input[{' '.join(dtypes)}], but get input[{input.dtype}].")
    x = input._data
    if size is None:
        size = tuple(int(_math.floor(x.shape[i + 2] * scales[i])) for i in range(n))
        scales = tuple(float(s) for s in scales)
    size = tuple(int(s) for s in size)
    if mode == "nearest":
        return wrap(_resize_nearest(x, size, scales=scales))
    if mode == "bicubic":
        return wrap(_resize_cubic(x, size, bool(align_corners)))
    return wrap(_resize_linear(x, size, bool(align_corners), None if align_corners else scales))


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """MindSpore's ``interpolate_ext``: its argument rules, then the mode's Upsample kernel."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'interpolate', 'input' must be a tensor, but got {type(input)}")
    if mode not in _KERNELS:
        raise ValueError(f"For 'interpolate', 'mode' must be in '{list(_KERNELS)}', but got {mode}")
    if mode == "nearest":
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    if size is not None and scale_factor is not None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set simultaneously")
    if size is None and scale_factor is None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both empty")
    if recompute_scale_factor:
        if size is not None:
            raise ValueError("For 'interpolate', it is incorrect to set 'recompute_scale_factor' to True"
                             " after specifying an explicit 'size'.")
        scales = _as_seq(scale_factor, input.ndim - 2)
        size = tuple(int(_math.floor(input.shape[i + 2] * scales[i]))
                     for i in range(min(input.ndim - 2, len(scales))))
        scale_factor = None
    return upsample(input, size, scale_factor, mode, align_corners)
