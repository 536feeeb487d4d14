"""Pooling ops: max/average/Lp pooling in 1-3 dimensions (``max_pool2d``/``max_pool3d``,
``avg_pool1d/2d/3d``, ``lp_pool1d/2d``, the ``MaxPool``/``AvgPool``/``MaxPool3D``/``AvgPool3D``
Primitives) and adaptive pooling (``adaptive_avg_pool1d/2d/3d``, ``adaptive_max_pool1d/2d/3d``, the
``AdaptiveMaxPool2D``/``AdaptiveMaxPool3D`` Primitives).

Layouts are MindSpore's: NCHW (NCL / NCDHW) activations; window sizes, strides and padding are
checked with the convolutions' argument helpers (``conv``)."""
from __future__ import annotations

import functools
import itertools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import _is_int, arr, wrap
from .array import _need_concrete
from . import conv_lowering
from .activation import relu_array
from .math import sign_array
from .conv import _compiled, _float_arg, _pad_pairs, _same_pads, _tensor_arg, _tuple_arg


# ---------------------------------------------------------------------------
# pooling
# ---------------------------------------------------------------------------
def _neg_inf(dtype):
    # numpy scalars (not jax arrays) so that lax.reduce_window recognises max/add windows and
    # picks its differentiable reduce_window_max/sum rules inside traces too
    return np.array(-np.inf, dtype) if jnp.issubdtype(dtype, jnp.floating) else np.array(
        np.iinfo(dtype).min, dtype)


def _pool_out_size(n, k, s, lo, hi, d, ceil_mode):
    eff = (k - 1) * d + 1
    num = n + lo + hi - eff
    if ceil_mode:
        out = -(-num // s) + 1
        if (out - 1) * s >= n + lo:   # the last window must start inside the input (PyTorch)
            out -= 1
    else:
        out = num // s + 1
    return out


def _window_pads(x_shape, kernel, stride, pads, dilation, ceil_mode):
    """Per-axis (lo, hi) padding including the extra tail that ceil_mode needs."""
    out_pads, out_sizes = [], []
    for n, k, s, (lo, hi), d in zip(x_shape, kernel, stride, pads, dilation):
        o = _pool_out_size(n, k, s, lo, hi, d, ceil_mode)
        need = (o - 1) * s + (k - 1) * d + 1
        out_pads.append((lo, max(need - n - lo, hi if not ceil_mode else 0)))
        out_sizes.append(o)
    return out_pads, out_sizes


# MindSpore's CPU max-pooling kernels treat NaN each in its own way (recorded from MindSpore
# 2.10: tests/golden/cases_nn_act.py, ``nan_*pool*``). ``rule`` names the kernel:
#   "onednn"  MaxPool, MaxPool3D (nn.MaxPool1d/2d/3d without 'pad' padding): the window's value is
#             ``m = m > x ? m : x`` over its taps in row-major order from float32's lowest finite
#             value, so a NaN is dropped by the next tap (a window ending in NaN gives NaN, an
#             all -inf float32 window -3.4e38); the gradient goes to the first maximum, a NaN
#             counting only as the first tap.
#   "ieee"    MaxPool3DWithArgmax (nn.MaxPool1d/2d with 'pad', ops.max_pool3d): NaN propagates;
#             its gradient and index go to the last NaN.
#   "ignore"  MaxPoolWithArgmaxV2 (ops.max_pool2d): NaN is skipped; the value starts from the
#             dtype's lowest finite value.
#   "first"   AdaptiveMaxPool2D/3D, MaxPoolWithArgmax: the first tap, replaced by each larger one
#             (NaN only as the first tap).
# Padding taps are skipped, as the kernels skip them.
def _tap_valid(spatial, kernel, stride, full_pads, sizes, dilation):
    """Per kernel offset (row-major), the (*sizes) mask of windows whose tap lies inside the input
    (None where every window's does)."""
    out = []
    for offset in itertools.product(*(range(k) for k in kernel)):
        axes = []
        for n, o, st, (lo, _), m, d in zip(spatial, offset, stride, full_pads, sizes, dilation):
            pos = np.arange(m) * st + o * d - lo
            axes.append((pos >= 0) & (pos < n))
        mask = functools.reduce(np.logical_and.outer, axes) if len(axes) > 1 else axes[0]
        out.append(None if mask.all() else mask)
    return out


def _lowest(dtype, rule):
    if not jnp.issubdtype(dtype, jnp.floating):
        return np.array(np.iinfo(dtype).min, dtype)
    if rule == "ignore" or np.dtype(dtype) == np.float32:
        return np.array(jnp.finfo(dtype).min, dtype)
    return np.array(-np.inf, dtype)


def _fold_max(views, valid, rule):
    """``(value, tap)``: each window's value and the tap its gradient goes to, under ``rule``."""
    dt = views[0].dtype
    flt = jnp.issubdtype(dt, jnp.floating)
    shape = views[0].shape
    best = jnp.full(shape, _lowest(dt, rule), dt)
    tap = jnp.zeros(shape, jnp.int32)
    started = jnp.zeros(shape, jnp.bool_)
    value = best
    for i, (t, ok) in enumerate(zip(views, valid)):
        ok = None if ok is None else jnp.asarray(ok)
        if rule == "onednn":     # the value: m = m > x ? m : x
            take = ~(value > t)
            value = jnp.where(take if ok is None else take & ok, t, value)
        first = ~started if ok is None else ~started & ok
        upd = t > best
        if rule in ("ieee", "first"):
            upd = upd | first
        if rule == "ieee" and flt:
            upd = upd | jnp.isnan(t)
        if ok is not None:
            upd = upd & ok
        best = jnp.where(upd, t, best)
        # onednn/ignore: the gradient's tap starts at the window's first and moves to each larger
        # one (MaxPoolGrad skips NaN)
        tap = jnp.where(upd | first, jnp.int32(i), tap)
        started = started | (True if ok is None else ok)
    return (value if rule == "onednn" else best), tap


@jax.custom_jvp
def _grad_at(value, views, tap):
    """``value``, whose derivative is the tangent of ``views[tap]``."""
    return value


@_grad_at.defjvp
def _grad_at_jvp(primals, tangents):
    value, views, tap = primals
    dviews = tangents[1]
    out = jnp.zeros_like(dviews[0])
    for i, dv in enumerate(dviews):
        out = jnp.where(tap == i, dv, out)
    return value, out


def _pool_views(x, kernel, stride, full_pads, sizes, dilation):
    nd = len(kernel)
    xp = jnp.pad(x, [(0, 0)] * (x.ndim - nd) + list(full_pads))
    views = conv_lowering.window_views(xp, kernel, stride, dilation, sizes)
    return views, _tap_valid(x.shape[-nd:], kernel, stride, full_pads, sizes, dilation)


@_compiled("kernel", "stride", "pads", "dilation", "ceil_mode", "rule")
def _max_pool_array(x, kernel, stride, pads, dilation=None, ceil_mode=False, rule="onednn"):
    nd = len(kernel)
    dilation = tuple(dilation or (1,) * nd)
    full_pads, sizes = _window_pads(x.shape[-nd:], kernel, stride, pads, dilation, ceil_mode)
    if pool_by_taps() or dilation != (1,) * nd or rule != "onednn":
        # JAX has no gradient for dilated max windows; the NaN rules need the taps
        views, valid = _pool_views(x, kernel, stride, full_pads, sizes, dilation)
        value, tap = _fold_max(views, valid, rule)
        return _grad_at(value, tuple(views), tap)
    lead = x.ndim - nd
    out = lax.reduce_window(x, _neg_inf(x.dtype), lax.max, (1,) * lead + tuple(kernel),
                            (1,) * lead + tuple(stride), [(0, 0)] * lead + full_pads,
                            window_dilation=(1,) * lead + tuple(dilation))
    return out[(Ellipsis,) + tuple(slice(0, o) for o in sizes)]


def pool_by_taps():
    """Max pooling as a fold over the window's taps rather than ``lax.reduce_window``: on the CPU
    (MindSpore's CPU kernels' NaN rules, and XLA's select-and-scatter gradient is 2-5x slower there,
    ``bench/conv_lowering.py``) unless ``MSJAX_CONV_LOWERING=xla``; ``im2col`` forces it on every
    backend. ``reduce_window`` propagates NaN."""
    forced = conv_lowering.setting()
    return forced == "im2col" or (forced == "auto" and jax.default_backend() == "cpu")


@_compiled("kernel", "stride", "pads", "dilation", "ceil_mode", "rule")
def _max_pool_with_indices(x, kernel, stride, pads, dilation, ceil_mode, rule="ieee"):
    """Max pooling over the last ``nd`` axes returning flat indices into those axes (Int64)."""
    nd = len(kernel)
    spatial = x.shape[-nd:]
    full_pads, sizes = _window_pads(spatial, kernel, stride, pads, dilation, ceil_mode)
    views, valid = _pool_views(x, kernel, stride, full_pads, sizes, dilation)
    value, tap = _fold_max(views, valid, rule)
    idx = np.pad(np.arange(int(np.prod(spatial))).reshape(spatial), list(full_pads), constant_values=-1)
    flat = np.stack([idx[tuple(slice(o * d, o * d + (m - 1) * st + 1, st)
                               for o, d, m, st in zip(offset, dilation, sizes, stride))]
                     for offset in itertools.product(*(range(k) for k in kernel))], -1)
    ind = jnp.take_along_axis(jnp.broadcast_to(jnp.asarray(flat, jnp.int64), tap.shape + flat.shape[-1:]),
                              tap[..., None], -1)[..., 0]
    return _grad_at(value, tuple(views), tap), ind


@_compiled("kernel", "stride", "pads", "ceil_mode", "count_include_pad", "divisor_override")
def _avg_pool_array(x, kernel, stride, pads, ceil_mode=False, count_include_pad=True, divisor_override=0):
    nd = len(kernel)
    spatial = x.shape[-nd:]
    full_pads, sizes = _window_pads(spatial, kernel, stride, pads, (1,) * nd, ceil_mode)
    lead = x.ndim - nd
    acc = x if jnp.issubdtype(x.dtype, jnp.floating) else x.astype(jnp.float32)
    s = lax.reduce_window(acc, np.array(0, acc.dtype), lax.add, (1,) * lead + tuple(kernel),
                          (1,) * lead + tuple(stride), [(0, 0)] * lead + full_pads)
    s = s[(Ellipsis,) + tuple(slice(0, o) for o in sizes)]
    if divisor_override:
        return (s / divisor_override).astype(x.dtype)
    # counts per output position, computed statically with numpy
    counts = np.ones((), np.float64)
    for ax, (n, k, st, (lo, hi), o) in enumerate(zip(spatial, kernel, stride, pads, sizes)):
        start = np.arange(o) * st - lo
        end = np.minimum(start + k, n + hi) if count_include_pad else np.minimum(start + k, n)
        st_c = start if count_include_pad else np.maximum(start, 0)
        c = (end - st_c).astype(np.float64)
        counts = np.multiply.outer(counts, c) if counts.ndim else c
    return (s / jnp.asarray(counts, acc.dtype)).astype(x.dtype)


def _prim_window(v, name, op_name, nd=2):
    """MaxPool/AvgPool's kernel_size/strides: int, nd values or (1, 1, *nd values)."""
    if _is_int(v):
        out = (int(v),) * nd
    elif isinstance(v, (tuple, list)) and all(_is_int(i) for i in v) and len(v) in (nd, nd + 2):
        out = tuple(int(i) for i in v[-nd:])
    else:
        raise ValueError(f"For '{op_name}', the '{name}' must be an int or a tuple of {nd} or {nd + 2} "
                         f"positive int, but got {v}.")
    if any(i <= 0 for i in out):
        raise ValueError(f"For '{op_name}', the '{name}' must be positive, but got {v}.")
    return out


def _prim_pool(x, kernel_size, strides, pad_mode, data_format, op_name, kind):
    xa = _tensor_arg("x", x, op_name)
    k = _prim_window(kernel_size, "kernel_size", op_name)
    s = _prim_window(strides, "strides", op_name)
    if not isinstance(pad_mode, str) or pad_mode.upper() not in ("SAME", "VALID"):
        raise ValueError(f"For '{op_name}', the 'pad_mode' must be one of ['same', 'valid'], but got {pad_mode}.")
    if xa.ndim != 4:
        raise ValueError(f"For '{op_name}', the dimension of 'x' must be 4, but got {xa.ndim}.")
    nhwc = data_format == "NHWC"
    if nhwc:
        xa = jnp.moveaxis(xa, -1, 1)
    if pad_mode.upper() == "SAME":
        pads = _same_pads(xa.shape[2:], k, s, (1, 1))
        if kind == "max":
            out = _max_pool_array(xa, k, s, pads)
        else:
            out = _avg_pool_array(xa, k, s, pads, count_include_pad=False)
    else:
        for n, kk in zip(xa.shape[2:], k):
            if n < kk:
                raise ValueError(f"For '{op_name}', the spatial size of 'x' ({n}) must not be smaller than "
                                 f"'kernel_size' ({kk}) when 'pad_mode' is 'valid'.")
        pads = [(0, 0), (0, 0)]
        out = _max_pool_array(xa, k, s, pads) if kind == "max" else _avg_pool_array(xa, k, s, pads)
    return wrap(jnp.moveaxis(out, 1, -1) if nhwc else out)


@op("prim_max_pool", primitive="MaxPool", prim_args=("kernel_size", "strides", "pad_mode", "data_format"),
    family="nn_conv")
def prim_max_pool(x, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
    """``ops.MaxPool(kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW')(x)``."""
    return _prim_pool(x, kernel_size, strides, pad_mode, data_format, "MaxPool", "max")


@op("prim_avg_pool", primitive="AvgPool", prim_args=("kernel_size", "strides", "pad_mode", "data_format"),
    family="nn_conv")
def prim_avg_pool(x, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
    """``ops.AvgPool(kernel_size=1, strides=1, pad_mode='VALID', data_format='NCHW')(x)``; with 'same'
    the padded positions are not counted."""
    return _prim_pool(x, kernel_size, strides, pad_mode, data_format, "AvgPool", "avg")


def _pool_padding(padding, nd, name):
    if _is_int(padding):
        p = (int(padding),) * nd
    elif isinstance(padding, (tuple, list)) and all(_is_int(v) for v in padding) and len(padding) in (1, nd):
        p = tuple(int(v) for v in padding) * (nd if len(padding) == 1 else 1)
    else:
        raise ValueError(f"For '{name}', the 'padding' must be an int or a tuple of {nd} int, but got {padding}.")
    if any(v < 0 for v in p):
        raise ValueError(f"For '{name}', the 'padding' must be non-negative, but got {padding}.")
    return p


@op("max_pool2d", family="nn_conv")
def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
    """``ops.max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
    ceil_mode=False)``; indices are Int64 offsets into H*W."""
    xa = _tensor_arg("x", x, "max_pool2d")
    if xa.ndim not in (3, 4):
        raise ValueError(f"For 'MaxPoolWithArgmaxV2', the dimension of 'x' must be 4, but got {xa.ndim}.")
    k = _tuple_arg(kernel_size, 2, "kernel_size", "MaxPoolWithArgmaxV2")
    s = _tuple_arg(stride if stride is not None else kernel_size, 2, "strides", "MaxPoolWithArgmaxV2")
    p = _pool_padding(padding, 2, "MaxPoolWithArgmaxV2")
    d = _tuple_arg(dilation, 2, "dilation", "MaxPoolWithArgmaxV2")
    for kk, pp in zip(k, p):
        if pp > kk // 2:
            raise ValueError(f"For 'MaxPoolWithArgmaxV2', the 'padding' must be no greater than half of "
                             f"'kernel_size', but got padding {p} and kernel_size {k}.")
    pads = [(v, v) for v in p]
    if return_indices:
        out, ind = _max_pool_with_indices(xa, k, s, pads, d, ceil_mode, "ignore")
        return wrap(out), wrap(ind)
    return wrap(_max_pool_array(xa, k, s, pads, d, ceil_mode, "ignore"))


def _check_argmax_v2(kernel_size=None, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                     argmax_type=mstype.int64):
    if not isinstance(ceil_mode, bool):
        raise TypeError(f"For 'MaxPoolWithArgmaxV2', the type of 'ceil_mode' should be 'bool', but got type "
                        f"'{type(ceil_mode).__name__}'.")
    if argmax_type not in (mstype.int32, mstype.int64):
        raise TypeError(f"For 'MaxPoolWithArgmaxV2', the valid type of 'argmax_type' must be in "
                        f"(Int32, Int64), but got {argmax_type}.")


@op("prim_max_pool_with_argmax_v2", primitive="MaxPoolWithArgmaxV2",
    prim_args=("kernel_size", "strides", "pads", "dilation", "ceil_mode", "argmax_type"), family="nn_conv",
    prim_check=_check_argmax_v2)
def _max_pool_with_argmax_v2(x, kernel_size=None, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                             argmax_type=mstype.int64):
    """``ops.MaxPoolWithArgmaxV2(kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
    argmax_type=mindspore.int64)(x)``: ``max_pool2d``'s ``(output, argmax)`` on a 4-D input, the
    indices (offsets into H*W) in ``argmax_type``."""
    _check_argmax_v2(kernel_size, strides, pads, dilation, ceil_mode, argmax_type)
    xa = _tensor_arg("x", x, "MaxPoolWithArgmaxV2")
    if xa.ndim != 4:
        raise ValueError(f"For 'MaxPoolWithArgmaxV2', the dimension of 'x' must be 4, but got {xa.ndim}.")
    out, ind = max_pool2d(x, kernel_size, strides, pads, dilation, True, ceil_mode)
    return out, wrap(arr(ind).astype(mstype.to_np(argmax_type)))


@op("max_pool3d", family="nn_conv")
def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """``ops.max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
    return_indices=False)``; indices are Int64 offsets into D*H*W."""
    xa = _tensor_arg("x", x, "max_pool3d")
    k = _tuple_arg(kernel_size, 3, "kernel_size", "max_pool3d")
    s = _tuple_arg(stride if stride is not None else kernel_size, 3, "stride", "max_pool3d")
    p = _pool_padding(padding, 3, "max_pool3d")
    d = _tuple_arg(dilation, 3, "dilation", "max_pool3d")
    pads = [(v, v) for v in p]
    if return_indices:
        out, ind = _max_pool_with_indices(xa, k, s, pads, d, ceil_mode, "ieee")
        return wrap(out), wrap(ind)
    return wrap(_max_pool_array(xa, k, s, pads, d, ceil_mode, "ieee"))


def _avg_pool_checks(name, ceil_mode, count_include_pad, divisor_override=0):
    if not isinstance(ceil_mode, bool):
        raise TypeError(f"For '{name}', the 'ceil_mode' must be bool, but got {type(ceil_mode).__name__}.")
    if not isinstance(count_include_pad, bool):
        raise TypeError(f"For '{name}', the 'count_include_pad' must be bool, "
                        f"but got {type(count_include_pad).__name__}.")
    if divisor_override is not None and not _is_int(divisor_override):
        raise TypeError(f"For '{name}', the 'divisor_override' must be int, "
                        f"but got {type(divisor_override).__name__}.")


@op("avg_pool1d", family="nn_conv")
def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True):
    """``ops.avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
    count_include_pad=True)`` on (N, C, L)."""
    if not isinstance(input_x, Tensor):
        raise TypeError("For avg_pool1d, the input input_x must be tensor")
    if not _is_int(kernel_size) or not (_is_int(stride) or isinstance(stride, tuple)):
        raise TypeError("For avg_pool1d, kernel_size and stride should be int.")
    _avg_pool_checks("avg_pool1d", ceil_mode, count_include_pad)
    p = _pool_padding(padding, 1, "avg_pool1d")
    s = stride[0] if isinstance(stride, tuple) else stride
    out = _avg_pool_array(input_x._data, (kernel_size,), (s,), [(p[0], p[0])], ceil_mode, count_include_pad)
    return wrap(out)


@op("avg_pool2d", family="nn_conv")
def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
    """``ops.avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
    count_include_pad=True, divisor_override=0)`` on (N, C, H, W)."""
    if not isinstance(input_x, Tensor):
        raise TypeError("For avg_pool2d, the input input_x must be tensor")
    k = _tuple_arg(kernel_size, 2, "kernel_size", "avg_pool2d")
    s = _tuple_arg(stride, 2, "stride", "avg_pool2d")
    p = _pool_padding(padding, 2, "avg_pool2d") if not (isinstance(padding, tuple) and len(padding) == 4) else \
        padding
    _avg_pool_checks("avg_pool2d", ceil_mode, count_include_pad, divisor_override)
    pads = [(p[0], p[0]), (p[1], p[1])] if len(p) == 2 else [(p[0], p[1]), (p[2], p[3])]
    return wrap(_avg_pool_array(input_x._data, k, s, pads, ceil_mode, count_include_pad, divisor_override or 0))


@op("avg_pool3d", family="nn_conv")
def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
    """``ops.avg_pool3d`` on (N, C, D, H, W)."""
    if not isinstance(input_x, Tensor):
        raise TypeError("For avg_pool3d, the input input_x must be tensor")
    k = _tuple_arg(kernel_size, 3, "kernel_size", "avg_pool3d")
    s = _tuple_arg(stride, 3, "stride", "avg_pool3d")
    if isinstance(padding, tuple) and len(padding) == 6:
        pads = [(padding[0], padding[1]), (padding[2], padding[3]), (padding[4], padding[5])]
    else:
        pads = [(v, v) for v in _pool_padding(padding, 3, "avg_pool3d")]
    _avg_pool_checks("avg_pool3d", ceil_mode, count_include_pad, divisor_override)
    return wrap(_avg_pool_array(input_x._data, k, s, pads, ceil_mode, count_include_pad, divisor_override or 0))


def _lp_pool(name, x, norm_type, kernel, stride, ceil_mode):
    if isinstance(norm_type, bool) or not isinstance(norm_type, (float, int)):
        raise TypeError(f"For {name}, the type of 'norm_type' must be float or int, but got {type(norm_type)}")
    norm_type = float(norm_type)
    if norm_type == 0:
        raise ValueError(f"For {name}, the value of 'norm_type' can not be 0.")
    xa = _tensor_arg("x", x, name)
    if not jnp.issubdtype(xa.dtype, jnp.floating):
        xa = xa.astype(jnp.float32)     # MindSpore's ``x.pow(float)``: an integer Tensor and a float give Float32
    nd = len(kernel)
    squeeze = name == "lp_pool1d" and xa.ndim == 2
    if squeeze:
        xa = xa[None]
    p = jnp.power(xa, jnp.asarray(norm_type, xa.dtype))
    out = _avg_pool_array(p, kernel, stride, [(0, 0)] * nd, ceil_mode, True)
    if squeeze:
        out = out[0]
    out = sign_array(out) * relu_array(jnp.abs(out)) * float(np.prod(kernel))
    return wrap(jnp.power(out, jnp.asarray(1.0 / norm_type, out.dtype)))


@op("lp_pool1d", family="nn_conv")
def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``ops.lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False)``."""
    return _lp_pool("lp_pool1d", x, norm_type, (kernel_size,), (stride if stride is not None else kernel_size,),
                    ceil_mode)


@op("lp_pool2d", family="nn_conv")
def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``ops.lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False)``."""
    k = kernel_size if isinstance(kernel_size, tuple) else (kernel_size, kernel_size)
    s = k if stride is None else (stride if isinstance(stride, tuple) else (stride, stride))
    return _lp_pool("lp_pool2d", x, norm_type, k, s, ceil_mode)


def _adaptive_bounds(n, o):
    starts = [(i * n) // o for i in range(o)]
    ends = [-(-((i + 1) * n) // o) for i in range(o)]
    return starts, ends


def _window_sums(x, axis, o):
    """Sums over the ``o`` adaptive windows of ``axis`` (each window's own elements only, so a NaN
    or inf stays in its windows) and the windows' sizes."""
    n = x.shape[axis]
    starts, ends = (np.asarray(b) for b in _adaptive_bounds(n, o))
    if n % o == 0:          # equal, disjoint windows (global pooling among them)
        s = x.reshape(x.shape[:axis] + (o, n // o) + x.shape[axis + 1:]).sum(axis + 1)
        return s, ends - starts
    length = int((ends - starts).max())
    idx = np.minimum(starts[:, None] + np.arange(length), n - 1)
    inside = np.arange(length) < (ends - starts)[:, None]
    g = jnp.take(x, jnp.asarray(idx.reshape(-1)), axis=axis).reshape(x.shape[:axis] + (o, length) + x.shape[axis + 1:])
    mask = inside.reshape((o, length) + (1,) * (x.ndim - axis - 1))
    return jnp.where(mask, g, jnp.zeros((), g.dtype)).sum(axis + 1), ends - starts


@_compiled("sizes")
def _adaptive_avg(x, sizes):
    nd = len(sizes)
    integer = not jnp.issubdtype(x.dtype, jnp.floating)
    acc = x.astype(jnp.float64 if integer else jnp.float32) if integer or x.dtype in (jnp.float16, jnp.bfloat16) else x
    count = np.ones((), np.float64)
    for ax, o in enumerate(sizes):
        acc, c = _window_sums(acc, x.ndim - nd + ax, o)
        count = np.multiply.outer(count, c) if count.ndim else c.astype(np.float64)
    mean = acc / jnp.asarray(count, acc.dtype)
    return (jnp.trunc(mean) if integer else mean).astype(x.dtype)    # an integer mean truncates (C's cast)


@_compiled("sizes", "with_indices")
def _adaptive_max(x, sizes, with_indices=False):
    """Adaptive max pooling over the last ``len(sizes)`` axes: every window's taps (row-major, as
    MindSpore's kernel scans them) gathered at once into a padded ``(windows, taps)`` block, the
    padding -inf and after the real taps, so the first maximum is the window's own. One gather
    and one reduction however many windows there are (a slice per window made a program that
    took about a second to compile for a 3-D pool)."""
    nd = len(sizes)
    spatial = x.shape[-nd:]
    bounds = [_adaptive_bounds(n, o) for n, o in zip(spatial, sizes)]
    flat_idx = np.arange(int(np.prod(spatial))).reshape(spatial)
    wins = [flat_idx[tuple(slice(b[0][i], b[1][i]) for b, i in zip(bounds, pos))].reshape(-1)
            for pos in np.ndindex(*sizes)]
    taps = max(w.size for w in wins)
    table = np.zeros((len(wins), taps), np.int64)
    real = np.zeros((len(wins), taps), bool)
    for k, w in enumerate(wins):
        table[k, :w.size], real[k, :w.size] = w, True
    flat = x.reshape(x.shape[:-nd] + (flat_idx.size,))
    win = jnp.take(flat, jnp.asarray(table.reshape(-1)), axis=-1).reshape(x.shape[:-nd] + table.shape)
    if not real.all():
        pad = -jnp.inf if jnp.issubdtype(win.dtype, jnp.floating) else jnp.iinfo(win.dtype).min
        win = jnp.where(jnp.asarray(real), win, jnp.asarray(pad, win.dtype))
    am = first_max_index(win)
    # the value at the first maximum: ties send the whole gradient there (MindSpore)
    out = jnp.take_along_axis(win, am[..., None], -1)[..., 0].reshape(x.shape[:-nd] + tuple(sizes))
    if with_indices:
        ind = jnp.asarray(table)[np.arange(len(wins)), am]      # window k's tap am[..., k]
        return out, ind.reshape(x.shape[:-nd] + tuple(sizes))
    return out


def first_max_index(win):
    """The index along the last axis of the first tap replaced by each larger one (MindSpore's
    AdaptiveMaxPool2D and MaxPoolWithArgmax): a NaN counts only as the first tap."""
    if not jnp.issubdtype(win.dtype, jnp.floating):
        return jnp.argmax(win, axis=-1)
    am = jnp.argmax(jnp.where(jnp.isnan(win), -jnp.inf, win), axis=-1)
    return jnp.where(jnp.isnan(win[..., 0]), 0, am)


def _adaptive_size(output_size, x, nd, name):
    if _is_int(output_size):
        sizes = (int(output_size),) * nd
    elif isinstance(output_size, (tuple, list)) and len(output_size) == nd:
        sizes = tuple(x.shape[-nd + i] if v is None else int(v) for i, v in enumerate(output_size))
    else:
        raise ValueError(f"For '{name}', the 'output_size' must be an int or a tuple of {nd} int/None, "
                         f"but got {output_size}.")
    if any(v <= 0 for v in sizes):
        raise ValueError(f"For '{name}', the 'output_size' must be positive, but got {output_size}.")
    return sizes


def _adaptive_1d_checks(name, input, output_size):
    if not isinstance(input, Tensor):
        raise TypeError(f"For {name}, the input input must be tensor")
    if not _is_int(output_size) or output_size <= 0:
        raise TypeError(f"For {name}, the output_size must be a positive int, but got {output_size}.")
    shape = input.shape
    if len(shape) != 3:
        raise ValueError(f"For {name} input must have 3 dim, but got {len(shape)}.")
    if shape[2] < output_size:
        raise ValueError(f"For {name} input's last dimension must be greater or equal to output size "
                         f"{output_size}, but got {shape[2]}.")
    if shape[2] % output_size != 0:
        raise ValueError(f"For {name} input's last dimension must be divisible by output size {output_size}, "
                         f"but got {shape[2]}.")
    if input.dtype not in (mstype.float16, mstype.float32):
        raise TypeError(f"For {name}, the input dtype must be float16 or float32, but got {input.dtype}.")


@op("adaptive_avg_pool1d", family="nn_conv")
def adaptive_avg_pool1d(input, output_size):
    """``ops.adaptive_avg_pool1d(input, output_size)``: (N, C, L), L divisible by output_size."""
    _adaptive_1d_checks("adaptive_avg_pool1d", input, output_size)
    return wrap(_adaptive_avg(input._data, (output_size,)))


@op("adaptive_max_pool1d", family="nn_conv")
def adaptive_max_pool1d(input, output_size):
    """``ops.adaptive_max_pool1d(input, output_size)``: (N, C, L), L divisible by output_size."""
    _adaptive_1d_checks("adaptive_max_pool1d", input, output_size)
    k = input.shape[-1] // output_size       # MindSpore pools it with MaxPool (its NaN rule)
    return wrap(_max_pool_array(input._data, (k,), (k,), ((0, 0),)))


@op("adaptive_avg_pool2d", primitive="AdaptiveAvgPool2D", prim_args=("output_size",), family="nn_conv")
def adaptive_avg_pool2d(input, output_size):
    """``ops.adaptive_avg_pool2d(input, output_size)``: (N, C, H, W) or (C, H, W); None keeps a size."""
    x = _float_arg("input", input, "AdaptiveAvgPool2D")
    if x.ndim not in (3, 4):
        raise ValueError(f"For 'AdaptiveAvgPool2D', the dimension of 'input' must be 3 or 4, but got {x.ndim}.")
    return wrap(_adaptive_avg(x, _adaptive_size(output_size, x, 2, "AdaptiveAvgPool2D")))


_POOL3D_TYPES = {   # MindSpore 2.10's CPU kernels' input types
    "AdaptiveAvgPool3D": ("Float16", "Float32", "Float64", "Int16", "Int32", "Int64", "Int8", "UInt8"),
    "AdaptiveMaxPool3D": ("Float16", "Float32", "Float64", "Int16", "Int32", "Int64", "Int8", "UInt16", "UInt32",
                          "UInt64", "UInt8"),
}


def _pool3d_input(input, name):
    """MindSpore's AdaptiveAvgPool3D/AdaptiveMaxPool3D inputs: integers too (unlike the 1-D/2-D ops),
    rank 4 or 5."""
    x = _tensor_arg("input", input, name)
    allowed = _POOL3D_TYPES[name]
    if str(mstype.from_np(x.dtype)) not in allowed:
        raise TypeError(f"For primitive[{name}], the input argument[x] must be a type of "
                        f"{{{', '.join(f'Tensor[{t}]' for t in allowed)}}}, but got Tensor[{mstype.from_np(x.dtype)}].")
    if x.ndim not in (4, 5):
        raise ValueError(f"For primitive[{name}], the rank of x must be in [4,5], but got {x.ndim}.")
    return x


@op("adaptive_avg_pool3d", primitive="AdaptiveAvgPool3D", prim_args=("output_size",), family="nn_conv")
def adaptive_avg_pool3d(input, output_size):
    """``ops.adaptive_avg_pool3d(input, output_size)``: (N, C, D, H, W) or (C, D, H, W); an integer
    input's means truncate toward zero (MindSpore's CPU kernel)."""
    x = _pool3d_input(input, "AdaptiveAvgPool3D")
    if not x.size:
        raise ValueError(f"For 'AdaptiveAvgPool3D', the input must not be empty, but got shape {x.shape}.")
    return wrap(_adaptive_avg(x, _adaptive_size(output_size, x, 3, "AdaptiveAvgPool3D")))


@op("adaptive_max_pool2d", family="nn_conv")
def adaptive_max_pool2d(input, output_size, return_indices=False):
    """``ops.adaptive_max_pool2d(input, output_size, return_indices=False)``; indices Int64 into H*W."""
    if not isinstance(return_indices, bool):
        raise TypeError(f"For 'adaptive_max_pool2d', the type of 'return_indices' must be bool, "
                        f"but got {type(return_indices).__name__}.")
    x = _float_arg("input", input, "AdaptiveMaxPool2D")
    if x.ndim not in (3, 4):
        raise ValueError(f"For 'AdaptiveMaxPool2D', the dimension of 'input' must be 3 or 4, but got {x.ndim}.")
    sizes = _adaptive_size(output_size, x, 2, "AdaptiveMaxPool2D")
    if 0 in x.shape[-2:]:
        raise ValueError(f"For 'AdaptiveMaxPool2D', the height and width of 'input' must be positive, "
                         f"but got shape {x.shape}.")
    if return_indices:
        out, ind = _adaptive_max(x, sizes, True)
        return wrap(out), wrap(ind)
    return wrap(_adaptive_max(x, sizes))


@op("adaptive_max_pool3d", family="nn_conv")
def adaptive_max_pool3d(input, output_size, return_indices=False):
    """``ops.adaptive_max_pool3d(input, output_size, return_indices=False)``; indices Int32 into D*H*W
    (MindSpore's AdaptiveMaxPool3D; the 1-D/2-D ops give Int64)."""
    x = _pool3d_input(input, "AdaptiveMaxPool3D")
    sizes = _adaptive_size(output_size, x, 3, "AdaptiveMaxPool3D")
    if not x.size:     # MindSpore's kernel fails to resize for a zero dimension
        raise RuntimeError(f"For 'AdaptiveMaxPool3D', the input must not be empty, but got shape {x.shape}.")
    if return_indices:
        out, ind = _adaptive_max(x, sizes, True)
        return wrap(out), wrap(ind.astype(jnp.int32))
    return wrap(_adaptive_max(x, sizes))


# ---------------------------------------------------------------------------
# Primitive forms: MaxPool3D, AvgPool3D, AdaptiveMaxPool2D/3D
# ---------------------------------------------------------------------------

def _pool3d(op_name, x, kernel_size, strides, pad_mode, pad, ceil_mode, data_format):
    xa = _tensor_arg("x", x, op_name)
    if data_format != "NCDHW":
        raise ValueError(f"For '{op_name}', the 'data_format' must be 'NCDHW', but got {data_format}.")
    if xa.ndim != 5:
        raise ValueError(f"For '{op_name}', the dimension of 'x' must be 5, but got {xa.ndim}.")
    k = _prim_window(kernel_size, "kernel_size", op_name, 3)
    s = _prim_window(strides, "strides", op_name, 3)
    pm = pad_mode.upper() if isinstance(pad_mode, str) else pad_mode
    if pm not in ("SAME", "VALID", "PAD"):
        raise ValueError(f"For '{op_name}', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but got "
                         f"{pad_mode}.")
    pairs = [tuple(p) for p in _pad_pairs(pad, 3, op_name)]
    if pm != "PAD" and any(v for p in pairs for v in p):
        raise ValueError(f"For '{op_name}', the 'pad' must be zero when 'pad_mode' is not 'pad', but got {pad}.")
    if pm == "SAME":
        pairs = _same_pads(xa.shape[2:], k, s, (1, 1, 1))
    return xa, k, s, pm, pairs, bool(ceil_mode)


@op("prim_max_pool3d", primitive="MaxPool3D",
    prim_args=("kernel_size", "strides", "pad_mode", "pad_list", "ceil_mode", "data_format"), family="nn_conv")
def prim_max_pool3d(x, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None,
                    data_format="NCDHW"):
    """``ops.MaxPool3D(kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None,
    data_format='NCDHW')(x)``."""
    xa, k, s, _, pairs, ceil = _pool3d("MaxPool3D", x, kernel_size, strides, pad_mode, pad_list, ceil_mode,
                                       data_format)
    return wrap(_max_pool_array(xa, k, s, pairs, None, ceil))


@op("prim_avg_pool3d", primitive="AvgPool3D",
    prim_args=("kernel_size", "strides", "pad_mode", "pad", "ceil_mode", "count_include_pad", "divisor_override",
               "data_format"), family="nn_conv")
def prim_avg_pool3d(x, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False, count_include_pad=True,
                    divisor_override=0, data_format="NCDHW"):
    """``ops.AvgPool3D(kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False,
    count_include_pad=True, divisor_override=0, data_format='NCDHW')(x)``; the padding of 'same' counts
    as padding too (unlike ``AvgPool``'s)."""
    xa, k, s, _, pairs, ceil = _pool3d("AvgPool3D", x, kernel_size, strides, pad_mode, pad, ceil_mode,
                                        data_format)
    return wrap(_avg_pool_array(xa, k, s, pairs, ceil, bool(count_include_pad), int(divisor_override)))


@op("prim_adaptive_max_pool2d", primitive="AdaptiveMaxPool2D", prim_args=("output_size",), family="nn_conv")
def prim_adaptive_max_pool2d(input_x, output_size):
    """``ops.AdaptiveMaxPool2D(output_size)(input_x)``: ``(output, argmax)`` (Int64 indices into H*W);
    ``output_size`` is a tuple or list (``None`` keeps that size)."""
    if not isinstance(output_size, (tuple, list)):
        raise TypeError(f"For 'AdaptiveMaxPool2D', the type of 'output_size' should be one of '[list of int, tuple "
                        f"of int]', but got {type(output_size)}.")
    return adaptive_max_pool2d(input_x, output_size, True)


@op("prim_adaptive_max_pool3d", primitive="AdaptiveMaxPool3D", family="nn_conv")
def prim_adaptive_max_pool3d(x, output_size):
    """``ops.AdaptiveMaxPool3D()(x, output_size)``: ``(output, argmax)``; ``output_size`` a 1-D Int32
    Tensor of 3 values."""
    sizes = tuple(int(v) for v in _need_concrete(arr(output_size), "AdaptiveMaxPool3D").reshape(-1))
    return adaptive_max_pool3d(x, sizes, True)


def _check_max_pool_argmax(kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
    if not isinstance(pad_mode, str) or pad_mode.upper() not in ("SAME", "VALID"):
        raise ValueError(f"For 'MaxPoolWithArgmax', the 'pad_mode' must be one of ['SAME', 'VALID'], but got "
                         f"{pad_mode}.")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"For 'MaxPoolWithArgmax', the 'format' must be one of ['NCHW', 'NHWC'], but got "
                         f"{data_format}.")
    if data_format == "NHWC":
        raise ValueError("For 'MaxPoolWithArgmax', the 'NHWC' format is only supported in GPU target, but got "
                         "the 'data_format' is NHWC and the platform is CPU.")
    for name, v in (("kernel_size", kernel_size), ("strides", strides)):
        _prim_window(v, name, "MaxPoolWithArgmax")


@op("prim_max_pool_with_argmax", primitive="MaxPoolWithArgmax",
    prim_args=("kernel_size", "strides", "pad_mode", "data_format"), family="nn_conv",
    prim_check=_check_max_pool_argmax)
def max_pool_with_argmax(x, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
    """``ops.MaxPoolWithArgmax(kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW')(x)`` ->
    ``(output, mask)``: max pooling and, as Int32, the position of each maximum in its sample's
    ``C*H*W`` plane (``c*H*W + h*W + w``; the first maximum in row-major window order). The
    gradient goes to those positions.

    As MindSpore 2.10's CPU kernel, 'same' pads ``max(kernel - stride, 0) // 2`` rows/columns before
    the input (its kernel computes the padding before it knows the input size); MindSpore's
    GPU/Ascend kernels pad TensorFlow-style, which differs when the size is not a multiple of the
    stride. MindSpore deprecates this Primitive for ``MaxPoolWithArgmaxV2``."""
    _check_max_pool_argmax(kernel_size, strides, pad_mode, data_format)
    xa = _tensor_arg("x", x, "MaxPoolWithArgmax")
    if np.dtype(xa.dtype) not in (np.dtype(np.float16), np.dtype(np.float32)):
        raise TypeError(f"For 'MaxPoolWithArgmax', the 'x' must be float16 or float32, but got {xa.dtype}.")
    if xa.ndim != 4:
        raise ValueError("For 'MaxPoolWithArgmax', the input 'x' must be 4-dimensional.")
    k = _prim_window(kernel_size, "kernel_size", "MaxPoolWithArgmax")
    s = _prim_window(strides, "strides", "MaxPoolWithArgmax")
    out, mask = _max_pool_argmax(xa, tuple(k), tuple(s), pad_mode.upper() == "SAME")
    return wrap(out), wrap(mask)


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def _max_pool_argmax(x, k, s, same):
    n, c, h, w = x.shape
    axes = []
    for size, kk, ss in ((h, k[0], s[0]), (w, k[1], s[1])):
        if same:
            out, lo = -(-size // ss), max(kk - ss, 0) // 2
        else:
            out, lo = (size - kk) // ss + 1, 0
        if out <= 0:
            raise ValueError(f"For 'MaxPoolWithArgmax', the spatial size of 'x' ({size}) must not be smaller "
                             f"than 'kernel_size' ({kk}).")
        pos = np.arange(out)[:, None] * ss - lo + np.arange(kk)[None, :]        # (out, k)
        axes.append((pos, (pos >= 0) & (pos < size)))
    (hp, hv), (wp, wv) = axes
    hi, wi = np.clip(hp, 0, h - 1), np.clip(wp, 0, w - 1)
    win = x[:, :, hi[:, None, :, None], wi[None, :, None, :]]                    # (N, C, OH, OW, KH, KW)
    valid = hv[:, None, :, None] & wv[None, :, None, :]
    win = jnp.where(valid, win, _neg_inf(x.dtype)).reshape(win.shape[:4] + (-1,))
    best = first_max_index(win)
    flat = (hi[:, None, :, None] * w + wi[None, :, None, :]).reshape(hi.shape[0], wi.shape[0], -1)
    plane = jnp.take_along_axis(jnp.broadcast_to(flat, win.shape), best[..., None], -1)[..., 0]
    mask = (jnp.arange(c)[:, None, None] * (h * w) + plane).astype(jnp.int32)
    return jnp.take_along_axis(win, best[..., None], -1)[..., 0], mask


def _fractional_starts(sample, size, out, k):
    """Window starts of fractional max pooling along one axis (PyTorch's and MindSpore's sequence)."""
    alpha = (size - k) / (out - 1) if out > 1 else 0.0
    return [int((i + sample) * alpha) - int(sample * alpha) for i in range(out - 1)] + [size - k]


@op("prim_fractional_max_pool_with_fixed_ksize", primitive="FractionalMaxPoolWithFixedKsize",
    prim_args=("ksize", "output_shape", "data_format"), family="nn_pool")
def fractional_max_pool_with_fixed_ksize(input_x, random_samples, ksize, output_shape, data_format="NCHW"):
    """``nn_ops.FractionalMaxPoolWithFixedKsize(ksize, output_shape, data_format="NCHW")(x, random_samples)``:
    max pooling of (N, C, H, W) with ``ksize`` windows whose starts follow the pseudo-random sequence of
    ``random_samples`` (N, C, 2: width's sample, then height's); returns the maxima and their flat
    ``h * W + w`` positions (Int64). The samples fix the windows, so their values must be known. The
    gradient of ``x`` adds each sensitivity at its maximum's position (MindSpore 2.10's PyNative gradient
    of a Float32 input fails: its backward kernel has no Int64-argmax variant)."""
    x = arr(input_x)
    kh, kw = (ksize, ksize) if _is_int(ksize) else tuple(ksize)
    oh, ow = (output_shape, output_shape) if _is_int(output_shape) else tuple(output_shape)
    n, c, h, w = x.shape
    for name, k, o, size in (("height", kh, oh, h), ("width", kw, ow, w)):
        if k + o - 1 > size:
            axis = name[0]
            raise ValueError(f"For FractionalMaxPoolWithFixedKsize, ksize {name} [{k}] + output_shape_{axis} [{o}] too "
                             f"large relative to input {name} [{size}], conflict with the rule: ksize_{axis} + "
                             f"output_shape_{axis} - 1 <= input_{axis}")
    samples = np.asarray(_need_concrete(arr(random_samples), "FractionalMaxPoolWithFixedKsize"), np.float64)
    idx = np.zeros((n, c, oh, ow, kh * kw), np.int64)
    dh, dw = np.divmod(np.arange(kh * kw), kw)
    for b in range(n):
        for ch in range(c):
            hs = np.asarray(_fractional_starts(samples[b, ch, 1], h, oh, kh))
            ws = np.asarray(_fractional_starts(samples[b, ch, 0], w, ow, kw))
            idx[b, ch] = (hs[:, None, None] + dh) * w + ws[None, :, None] + dw
    flat = jnp.take_along_axis(x.reshape(n, c, 1, 1, h * w), jnp.asarray(idx), axis=-1)
    best = jnp.argmax(flat, axis=-1)
    y = jnp.take_along_axis(flat, best[..., None], axis=-1)[..., 0]
    return wrap(y), wrap(jnp.take_along_axis(jnp.asarray(idx), best[..., None], axis=-1)[..., 0])
