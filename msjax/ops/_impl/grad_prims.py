"""``mindspore.ops.operations._grad_ops``: the backward Primitives MindSpore's own tests call directly
(``LogSoftmaxGrad``, ``StridedSliceGrad``, ``ResizeNearestNeighborV2Grad``,
``Conv2DBackpropFilter``, ``ResizeBilinearGrad``; ``GRUV2Grad`` lives with its forward in ``gru_v2``).
Each is written from its forward op: the same values MindSpore's backward kernels give; their own
gradients are those of these formulas."""
from __future__ import annotations

import jax
import jax.numpy as jnp

from ..._core.registry import Primitive
from ._util import arr, wrap
from .array import _strided_slice
from .conv import prim_conv2d
from .gru_v2 import GRUV2Grad  # noqa: F401  (``_grad_ops.GRUV2Grad``, next to its forward)
from .image import _resize_nearest, _v2_size, prim_resize_bilinear_v2

__all__ = ["LogSoftmaxGrad", "StridedSliceGrad", "ResizeNearestNeighborV2Grad", "Conv2DBackpropFilter",
           "ResizeBilinearGrad", "GRUV2Grad"]


class LogSoftmaxGrad(Primitive):
    """``LogSoftmaxGrad(axis=-1)(out, dout)``: LogSoftmax's input gradient from its output ``out``:
    ``dout - exp(out) * sum(dout, axis)``. Differs from MindSpore: it has a gradient (MindSpore's raises
    ``RuntimeError: Illegal primitive LogSoftmaxGrad's bprop not defined``)."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis, self._attrs = axis, {}

    def __call__(self, out, dout):
        y, dy = arr(out), arr(dout)
        if not -y.ndim <= self.axis < y.ndim:
            raise ValueError(f"For primitive[LogSoftmaxGrad], the axis must be in [{-y.ndim},{y.ndim}), "
                             f"but got {self.axis}.")
        return wrap(dy - jnp.exp(y) * jnp.sum(dy, axis=self.axis, keepdims=True))


class StridedSliceGrad(Primitive):
    """``StridedSliceGrad(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0)
    (dy, shapex, begin, end, strides)``: zeros of shape ``shapex`` with ``dy`` written where
    ``StridedSlice`` with the same arguments reads (its input gradient). Differs from MindSpore: a negative
    stride writes ``dy`` where the slice reads (MindSpore 2.10's CPU kernel returns zeros)."""

    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
        super().__init__()
        self._masks = (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)
        self.begin_mask, self.end_mask, self.ellipsis_mask, self.new_axis_mask, self.shrink_axis_mask = self._masks
        self._attrs = {}

    def __call__(self, dy, shapex, begin, end, strides):
        g = arr(dy)
        zeros = jnp.zeros(tuple(int(d) for d in shapex), g.dtype)
        _, back = jax.vjp(lambda x: arr(_strided_slice(x, begin, end, strides, *self._masks)), zeros)
        return wrap(back(g)[0])


class ResizeNearestNeighborV2Grad(Primitive):
    """``ResizeNearestNeighborV2Grad(align_corners=False, half_pixel_centers=False)(grads, size)``: the input
    gradient of ``ResizeNearestNeighborV2`` for an (N, C, *size) image: each output gradient added into
    the pixel it was read from."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        super().__init__()
        self.align_corners, self.half_pixel_centers, self._attrs = align_corners, half_pixel_centers, {}

    def __call__(self, grads, size):
        g = arr(grads)
        mode = "half_pixel" if self.half_pixel_centers else "asymmetric"
        zeros = jnp.zeros(g.shape[:2] + _v2_size(size), g.dtype)
        _, back = jax.vjp(lambda x: _resize_nearest(x, g.shape[2:], mode, self.align_corners), zeros)
        return wrap(back(g)[0])


class Conv2DBackpropFilter(Primitive):
    """``Conv2DBackpropFilter(out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=(0, 0, 0, 0), mode=1,
    stride=(1, 1), dilation=(1, 1, 1, 1), group=1, data_format="NCHW")(dout, x, filter_shape)``: the weight
    gradient of ``Conv2D`` with those arguments (the vjp of msjax's Conv2D; ``pad_list`` is derived from
    ``pad_mode``/``pad``). Differs from MindSpore: with ``pad_mode="pad"`` and the default ``pad_list``
    MindSpore 2.10's CPU kernel raises a oneDNN RuntimeError; msjax computes the gradient."""

    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=(0, 0, 0, 0), mode=1,
                 stride=(1, 1), dilation=(1, 1, 1, 1), group=1, data_format="NCHW"):
        super().__init__()
        self._conv = dict(out_channel=out_channel, kernel_size=kernel_size, mode=mode, pad_mode=pad_mode, pad=pad,
                          stride=stride, dilation=dilation, group=group, data_format=data_format)
        for k, v in self._conv.items():
            setattr(self, k, v)
        self.pad_list, self._attrs = pad_list, {}

    def __call__(self, dout, x, filter_shape):
        g, xa = arr(dout), arr(x)
        w0 = jnp.zeros(tuple(int(d) for d in filter_shape), xa.dtype)
        _, back = jax.vjp(lambda w: arr(prim_conv2d(wrap(xa), wrap(w), **self._conv)), w0)
        return wrap(back(g.astype(xa.dtype))[0])


class ResizeBilinearGrad(Primitive):
    """``ResizeBilinearGrad(align_corners=False, half_pixel_centers=False)(grads, original_image)``: the input
    gradient of a bilinear resize of ``original_image`` to ``grads``' size (the vjp of msjax's
    ``ResizeBilinearV2`` with the same flags), in ``original_image``'s shape and dtype."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        super().__init__()
        self.align_corners, self.half_pixel_centers, self._attrs = align_corners, half_pixel_centers, {}

    def __call__(self, grads, original_image):
        g, img = arr(grads), arr(original_image)
        _, back = jax.vjp(lambda x: arr(prim_resize_bilinear_v2(wrap(x), g.shape[2:], self.align_corners,
                                                                self.half_pixel_centers)), jnp.zeros_like(img))
        return wrap(back(g.astype(img.dtype))[0])
