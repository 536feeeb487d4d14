"""The Upsample kernels behind ``mint.nn.functional.interpolate`` (MindSpore's
``nn_func.interpolate_ext``): each mode and rank names its kernel (``UpsampleNearest1D/2D/3D``,
``UpsampleLinear1D``, ``UpsampleBilinear2D``, ``UpsampleTrilinear3D``, ``UpsampleBicubic2D``), which
checks its ``scales`` (floats), the length of ``output_size``/``scales`` and the input dtype with
MindSpore's exceptions; the linear kernels sample with ``1 / scale`` when given a scale factor (as
MindSpore's trilinear CPU kernel and torch do), not with ``in / out``; the nearest kernels sample with
``in / out`` even when given scales (as MindSpore 2.10's CPU kernels do; torch and MindSpore's GPU
tests use ``1 / scale``); and the Primitives ``UpsampleNearest3DGrad`` and
``UpsampleTrilinear3DGrad`` (the forward's vector-Jacobian product).

Differs from MindSpore: ``UpsampleBicubic2D`` samples from the sizes even when given scales;
``UpsampleLinear1D``/``UpsampleBilinear2D`` have no PyNative kernel in MindSpore's CPU build (they
sample as trilinear does)."""
from __future__ import annotations

import math as _math

import jax
import jax.numpy as jnp

from ..._core.registry import op
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
        return wrap(_resize_nearest(x, size))      # MindSpore's CPU kernels: in / out, whatever the scales
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


def _grad(name, forward, dy, input_size, output_size, scales):
    """The gradient of ``forward`` (an array kernel) at an input of ``input_size`` for ``dy``."""
    if not isinstance(dy, Tensor):
        raise TypeError(f"For '{name}', 'dy' must be a Tensor, but got {type(dy).__name__}.")
    input_size = tuple(int(v) for v in input_size)
    n = len(input_size) - 2
    if output_size is None and scales is None:
        raise ValueError(f"For '{name}', either output_size or scales should be defined.")
    if output_size is not None and scales is not None:
        raise ValueError(f"For '{name}', only one of output_size or scales should be defined.")
    if scales is not None:
        scales = tuple(float(s) for s in scales)
        output_size = tuple(int(_math.floor(input_size[i + 2] * scales[i])) for i in range(n))
    output_size = tuple(int(v) for v in output_size)
    g = dy._data
    if tuple(g.shape) != input_size[:2] + output_size:
        raise ValueError(f"For '{name}', The shape of grad, which should the same as that of output, is "
                         f"{list(g.shape)}, but the shape of output is {list(input_size[:2] + output_size)}.")
    _, vjp = jax.vjp(lambda x: forward(x, output_size, scales), jnp.zeros(input_size, g.dtype))
    return wrap(vjp(g)[0])


@op("prim_upsample_nearest3d_grad", primitive="UpsampleNearest3DGrad", family="nn_conv")
def upsample_nearest3d_grad(dy, input_size, output_size=None, scales=None):
    """``ops.auto_generate.UpsampleNearest3DGrad()(dy, input_size, output_size=None, scales=None)``:
    UpsampleNearest3D's backward (each input cell sums the ``dy`` of the outputs it fills)."""
    return _grad("UpsampleNearest3DGrad", lambda x, o, s: _resize_nearest(x, o),
                 dy, input_size, output_size, scales)


@op("prim_upsample_trilinear3d_grad", primitive="UpsampleTrilinear3DGrad", prim_args=("align_corners",),
    family="nn_conv")
def upsample_trilinear3d_grad(dy, input_size, output_size=None, scales=None, align_corners=False):
    """``ops.auto_generate.UpsampleTrilinear3DGrad(align_corners=False)(dy, input_size, output_size=None,
    scales=None)``: UpsampleTrilinear3D's backward (its weights spread ``dy`` back to the input)."""
    return _grad("UpsampleTrilinear3DGrad",
                 lambda x, o, s: _resize_linear(x, o, bool(align_corners), None if align_corners else s),
                 dy, input_size, output_size, scales)
