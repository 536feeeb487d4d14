"""Convolution ops: ``conv1d/2d/3d``, ``conv_transpose2d``, ``conv3d_transpose``, the ``Conv2D``/
``Conv2DTranspose``/``Conv2DBackpropInput``/``Conv3D``/``Conv3DTranspose`` Primitives,
``deformable_conv2d``, ``bias_add``, ``dense``/``bidense`` and ``embedding``, with the argument
checks and compiled-kernel helpers the other nn ops share (``pooling``, ``normalization``,
``dropout``, ``image``).

Layouts are MindSpore's: NCHW (NC / NCL / NCDHW) activations and convolution
weights ``(out_channels, in_channels // groups, *kernel)``. Convolutions run on
``lax.conv_general_dilated`` or, where XLA:CPU's convolution is slow, patches and a matrix
product (``conv_lowering``); MindSpore's ``pad_mode='same'`` splits the total
padding like TensorFlow (the extra row/column at the end), which is JAX's
``'SAME'``.

Difference from MindSpore: ``deformable_conv2d`` samples with
bilinear interpolation like MindSpore's ``DeformableOffsets`` but is only
checked against its definition, not recorded outputs.
"""
from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import _is_int, arr, wrap
from .conv_lowering import convolve


# ---------------------------------------------------------------------------
# compiled array kernels
# ---------------------------------------------------------------------------
def _freeze(v):
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(i) for i in v)
    return v


def _compiled(*static):
    """``jax.jit`` an array-level kernel with the named arguments static (lists become tuples).

    In PyNative mode every op would otherwise dispatch its primitives one by one (each compiled for its
    shapes); one compiled kernel per op call is much cheaper. Inside an enclosing trace the kernel is
    simply inlined. Kernels must not draw random keys (they would leak tracers into the key state)."""
    def deco(fn):
        sig = inspect.signature(fn)
        jitted = jax.jit(fn, static_argnames=static)

        def call(*args, **kwargs):
            if any(isinstance(a, jax.core.Tracer) for a in jax.tree_util.tree_leaves((args, kwargs))):
                return fn(*args, **kwargs)      # already inside a trace: inline
            bound = sig.bind(*args, **kwargs)
            for name in static:
                if name in bound.arguments:
                    bound.arguments[name] = _freeze(bound.arguments[name])
            return jitted(**bound.arguments)
        call.__name__ = fn.__name__
        call.__doc__ = fn.__doc__
        call.raw = fn
        return call
    return deco


# ---------------------------------------------------------------------------
# argument helpers
# ---------------------------------------------------------------------------
def _tensor_arg(name, x, op_name):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op_name}', the '{name}' must be a Tensor, but got {type(x).__name__}.")
    return x._data


def _float_arg(name, x, op_name, allow_f64=True):
    a = _tensor_arg(name, x, op_name)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For '{op_name}', the type of '{name}' should be float16, float32"
                        f"{', float64' if allow_f64 else ''}, but got {mstype.from_np(a.dtype)}.")
    return a


def _tuple_arg(value, n, name, op_name, allow_len=(), positive=True, allow_zero=False):
    """An int or a sequence -> tuple of ``n`` ints (MindSpore's ``twice`` and friends)."""
    if _is_int(value):
        out = (int(value),) * n
    elif isinstance(value, (tuple, list)) and all(_is_int(v) for v in value):
        value = tuple(int(v) for v in value)
        if len(value) == n:
            out = value
        elif len(value) == 1:
            out = value * n
        elif len(value) in allow_len:
            out = value[-n:]
        else:
            raise ValueError(f"For '{op_name}', the length of '{name}' must be {n}, but got {len(value)}.")
    else:
        raise TypeError(f"For '{op_name}', the '{name}' must be an int or a tuple of int, "
                        f"but got {type(value).__name__}.")
    for v in out:
        if (v < 0) if allow_zero else (v <= 0 if positive else False):
            raise ValueError(f"For '{op_name}', the '{name}' must be positive, but got {value}.")
    return out


def _pad_mode(pad_mode, op_name):
    if not isinstance(pad_mode, str):
        raise TypeError(f"For '{op_name}', the type of 'pad_mode' must be str, but got {type(pad_mode).__name__}.")
    m = pad_mode.lower()
    if m not in ("same", "valid", "pad"):
        raise ValueError(f"For '{op_name}', the 'pad_mode' must be one of ['same', 'valid', 'pad'], "
                         f"but got '{pad_mode}'.")
    return m


def _same_pads(in_sizes, kernel, stride, dilation):
    pads = []
    for n, k, s, d in zip(in_sizes, kernel, stride, dilation):
        out = -(-n // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


@_compiled("stride", "pads", "dilation", "groups", "op_name")
def _conv(x, w, stride, pads, dilation, groups, op_name="Conv2D"):
    """N-d convolution in MindSpore's layout; ``pads`` is a list of (lo, hi)."""
    if x.dtype != w.dtype:
        raise TypeError(f"For primitive[{op_name}], the input type must be same.")   # its infer's text
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"For '{op_name}', the dtype of 'x' must be float16, float32 or float64, "
                        f"but got {mstype.from_np(x.dtype)}.")
    return convolve(x, w, stride, pads, dilation, groups)


def _conv_checked(x, w, stride, pad_mode, pad_pairs, dilation, groups, op_name, kernel_size=None,
                  out_channel=None):
    """Validate shapes as MindSpore's Conv infer does, then convolve."""
    nd = w.ndim - 2
    if x.ndim != nd + 2:
        raise ValueError(f"For primitive[{op_name}], the x shape size must be equal to {nd + 2}, but got {x.ndim}.")
    if w.ndim != nd + 2:
        raise ValueError(f"For '{op_name}', the dimension of 'weight' must be {nd + 2}, but got {w.ndim}.")
    if x.shape[1] != w.shape[1] * groups:
        raise RuntimeError(f"For '{op_name}', 'C_in' of input 'x' shape divide by parameter 'group' must be "
                         f"equal to 'C_in' of input 'weight' shape: {w.shape[1]}, but got 'C_in' of input 'x' "
                         f"shape: {x.shape[1]}, and 'group': {groups}.")
    if w.shape[0] % groups:
        raise ValueError(f"For '{op_name}', the 'out_channel' must be divisible by 'group', "
                         f"but got {w.shape[0]} and {groups}.")
    if out_channel is not None and out_channel != w.shape[0]:
        raise ValueError(f"For '{op_name}', 'out_channel' must be equal to the first dimension of 'weight' "
                         f"{w.shape[0]}, but got {out_channel}.")
    if kernel_size is not None and tuple(kernel_size) != tuple(w.shape[2:]):
        raise ValueError(f"For '{op_name}', 'kernel_size' must be equal to the spatial shape of 'weight' "
                         f"{tuple(w.shape[2:])}, but got {tuple(kernel_size)}.")
    kernel = w.shape[2:]
    if pad_mode == "same":
        pads = _same_pads(x.shape[2:], kernel, stride, dilation)
    elif pad_mode == "valid":
        pads = [(0, 0)] * nd
    else:
        pads = pad_pairs
    for n, k, d, (lo, hi) in zip(x.shape[2:], kernel, dilation, pads):
        if n + lo + hi < (k - 1) * d + 1:
            raise ValueError(f"For '{op_name}', the input size after padding ({n + lo + hi}) must not be "
                             f"smaller than the dilated kernel size ({(k - 1) * d + 1}).")
    return _conv(x, w, stride, pads, dilation, groups, op_name)


def _pad_pairs(pad, nd, op_name):
    """MindSpore's pad: an int or 2*nd values (head, tail per spatial axis)."""
    if _is_int(pad):
        if pad < 0:
            raise ValueError(f"For '{op_name}', the 'pad' must be non-negative, but got {pad}.")
        return [(int(pad), int(pad))] * nd
    if isinstance(pad, (tuple, list)) and all(_is_int(p) for p in pad):
        if len(pad) != 2 * nd:
            raise ValueError(f"For '{op_name}', the length of 'pad' must be {2 * nd}, but got {len(pad)}.")
        if any(p < 0 for p in pad):
            raise ValueError(f"For '{op_name}', the 'pad' must be non-negative, but got {tuple(pad)}.")
        return [(int(pad[2 * i]), int(pad[2 * i + 1])) for i in range(nd)]
    raise TypeError(f"For '{op_name}', the 'pad' must be an int or a tuple of int, but got {type(pad).__name__}.")


def _check_pad_mode_pad(pad_mode, pairs, op_name):
    if pad_mode != "pad" and any(p != (0, 0) for p in pairs):
        raise ValueError(f"For '{op_name}', the 'pad' must be zero when 'pad_mode' is not 'pad', "
                         f"but got 'pad': {tuple(v for p in pairs for v in p)} and 'pad_mode': '{pad_mode}'.")


def _bias_add_array(x, b, channels_last=False, op_name="BiasAdd"):
    if b.ndim != 1:
        raise ValueError(f"For '{op_name}', the dimension of 'bias' must be 1, but got {b.ndim}.")
    if x.ndim < 2 or x.ndim > 5:
        raise ValueError(f"For '{op_name}', the dimension of 'input_x' must be in [2, 5], but got {x.ndim}.")
    axis = x.ndim - 1 if channels_last else 1
    if x.shape[axis] != b.shape[0]:
        raise ValueError(f"For '{op_name}', the length of 'bias' must be equal to the channel dimension of "
                         f"'input_x' {x.shape[axis]}, but got {b.shape[0]}.")
    if x.dtype != b.dtype:
        raise TypeError(f"For '{op_name}', the dtype of 'input_x' and 'bias' must be the same, but got "
                        f"{mstype.from_np(x.dtype)} and {mstype.from_np(b.dtype)}.")
    shape = [1] * x.ndim
    shape[axis] = b.shape[0]
    return x + jnp.reshape(b, shape)


def _bias_arg(bias, out_channel, op_name):
    if bias is None:
        return None
    if not isinstance(bias, Tensor):
        raise TypeError(f"For '{op_name}', the 'bias' must be a Tensor, but got {type(bias)}.")
    b = bias._data
    if b.shape[0] != out_channel:
        raise ValueError(f"For '{op_name}', given weight of size {out_channel} channels, expected bias to be "
                         f"1-dimensional with {out_channel} elements, but got bias of size {b.shape[0]} instead.")
    return b


# ---------------------------------------------------------------------------
# convolution
# ---------------------------------------------------------------------------
def _fn_conv(name, nd, input, weight, bias, stride, pad_mode, padding, dilation, groups):
    x = _tensor_arg("input", input, name)
    w = _tensor_arg("weight", weight, name)
    pm = _pad_mode(pad_mode, name)
    stride = _tuple_arg(stride, nd, "stride", name)
    dilation = _tuple_arg(dilation, nd, "dilation", name)
    if _is_int(padding):
        pairs = [(int(padding), int(padding))] * nd
    elif isinstance(padding, (tuple, list)):
        if len(padding) != nd:
            raise ValueError(f"For '{name}', 'padding' must be a tuple or list of {nd} integers, but got {padding}.")
        pairs = [(int(p), int(p)) for p in padding]
    else:
        raise TypeError(f"For '{name}', 'padding' must be a tuple, list or int, but got {type(padding)}.")
    if not _is_int(groups) or groups <= 0:
        raise TypeError(f"For '{name}', the 'groups' must be a positive int, but got {groups}.")
    if x.ndim >= 2 and w.ndim >= 1 and not (x.shape[1] % groups == 0 and w.shape[0] % groups == 0):
        raise ValueError(f"The argument 'groups' should be divisible by 'in_channel' and 'out_channel', but got "
                         f"group:{groups}, in_channel:{x.shape[1]}, out_channel:{w.shape[0]}.")
    _check_pad_mode_pad(pm, pairs, name)
    out = _conv_checked(x, w, stride, pm, pairs, dilation, groups, name)
    b = _bias_arg(bias, w.shape[0], name)
    if b is not None:
        out = _bias_add_array(out, b, op_name=name)
    return wrap(out)


@op("conv1d", family="nn_conv")
def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """``ops.conv1d(input, weight, bias=None, stride=1, pad_mode='valid', padding=0, dilation=1, groups=1)``:
    input (N, C_in, L), weight (C_out, C_in / groups, K)."""
    if isinstance(input, Tensor) and input.ndim != 3:
        raise ValueError(f"For 'conv1d', the input must be a 3D Tensor, but got input of {input.ndim}D.")
    if isinstance(weight, Tensor) and weight.ndim != 3:
        raise ValueError(f"For 'conv1d', the weight must be a 3D Tensor, but got input of {weight.ndim}D.")
    return _fn_conv("conv1d", 1, input, weight, bias, stride, pad_mode, padding, dilation, groups)


@op("conv2d", family="nn_conv")
def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """``ops.conv2d(input, weight, bias=None, stride=1, pad_mode='valid', padding=0, dilation=1, groups=1)``;
    ``padding`` is an int or (pad_h, pad_w), used with ``pad_mode='pad'``."""
    return _fn_conv("conv2d", 2, input, weight, bias, stride, pad_mode, padding, dilation, groups)


@op("conv3d", family="nn_conv")
def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """``ops.conv3d``: input (N, C, D, H, W), weight (C_out, C_in / groups, kd, kh, kw)."""
    return _fn_conv("conv3d", 3, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def _prim_stride(v, nd, name, op_name):
    """Conv2D's stride/dilation: an int, ``nd`` values or (1, 1, *nd values)."""
    if _is_int(v):
        out = (int(v),) * nd
    elif isinstance(v, (tuple, list)) and all(_is_int(i) for i in v) and len(v) in (nd, nd + 2):
        out = tuple(int(i) for i in v[-nd:])
    else:
        raise ValueError(f"For '{op_name}', the '{name}' must be an int or a tuple of {nd} or {nd + 2} ints, "
                         f"but got {v}.")
    if any(i <= 0 for i in out):
        raise ValueError(f"For '{op_name}', the '{name}' must be positive, but got {v}.")
    return out


@op("prim_conv2d", primitive="Conv2D",
    prim_args=("out_channel", "kernel_size", "mode", "pad_mode", "pad", "stride", "dilation", "group",
               "data_format"), family="nn_conv")
def prim_conv2d(x, weight, out_channel=None, kernel_size=None, mode=1, pad_mode="valid", pad=0, stride=1,
                dilation=1, group=1, data_format="NCHW"):
    """``ops.Conv2D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, dilation=1,
    group=1, data_format='NCHW')(x, weight)``; ``pad`` is an int or (top, bottom, left, right)."""
    xa = _tensor_arg("x", x, "Conv2D")
    wa = _tensor_arg("weight", weight, "Conv2D")
    pm = _pad_mode(pad_mode, "Conv2D")
    pairs = _pad_pairs(pad, 2, "Conv2D")
    _check_pad_mode_pad(pm, pairs, "Conv2D")
    stride = _prim_stride(stride, 2, "stride", "Conv2D")
    dilation = _prim_stride(dilation, 2, "dilation", "Conv2D")
    ks = _tuple_arg(kernel_size, 2, "kernel_size", "Conv2D") if kernel_size is not None else None
    nhwc = data_format == "NHWC"
    if nhwc:
        xa = jnp.moveaxis(xa, -1, 1)
        wa = jnp.moveaxis(wa, -1, 1)
    out = _conv_checked(xa, wa, stride, pm, pairs, dilation, group, "Conv2D", ks, out_channel)
    return wrap(jnp.moveaxis(out, 1, -1) if nhwc else out)


@_compiled("out_shape", "stride", "pad_mode", "pairs", "dilation", "groups", "op_name")
def _conv_transpose_array(dout, w, out_shape, stride, pad_mode, pairs, dilation, groups, op_name):
    """The gradient of the forward convolution with respect to its input: MindSpore's
    Conv2DBackpropInput / Conv2DTranspose, given the forward input shape ``out_shape``."""
    x0 = jnp.zeros(tuple(out_shape), dout.dtype)

    def fwd(x):
        return _conv_checked(x, w, stride, pad_mode, pairs, dilation, groups, op_name)

    y, vjp = jax.vjp(fwd, x0)
    if tuple(y.shape) != tuple(dout.shape):
        raise ValueError(f"For '{op_name}', the shape of 'dout' {tuple(dout.shape)} does not match the output "
                         f"of the convolution of 'input_size' {tuple(out_shape)}: {tuple(y.shape)}.")
    return vjp(dout)[0]


@op("prim_conv2d_transpose", primitive="Conv2DTranspose",
    prim_args=("out_channel", "kernel_size", "pad_mode", "pad", "pad_list", "mode", "stride", "dilation",
               "group", "data_format"), family="nn_conv")
def prim_conv2d_transpose(dout, weight, input_size, out_channel=None, kernel_size=None, pad_mode="valid",
                          pad=0, pad_list=None, mode=1, stride=1, dilation=1, group=1, data_format="NCHW"):
    """``ops.Conv2DTranspose(out_channel, kernel_size, pad_mode='valid', pad=0, ...)(dout, weight,
    input_size)``: the input gradient of ``Conv2D`` (weight (C_dout, C_out / group, kh, kw))."""
    d = _tensor_arg("dout", dout, "Conv2DTranspose")
    w = _tensor_arg("weight", weight, "Conv2DTranspose")
    pm = _pad_mode(pad_mode, "Conv2DTranspose")
    pairs = _pad_pairs(pad if pad_list is None else pad_list, 2, "Conv2DTranspose")
    stride = _prim_stride(stride, 2, "stride", "Conv2DTranspose")
    dilation = _prim_stride(dilation, 2, "dilation", "Conv2DTranspose")
    if isinstance(input_size, Tensor):
        input_size = tuple(int(v) for v in np.asarray(input_size._data))
    return wrap(_conv_transpose_array(d, w, tuple(input_size), stride, pm, pairs, dilation, group,
                                      "Conv2DTranspose"))


@op("prim_conv2d_backprop_input", primitive="Conv2DBackpropInput",
    prim_args=("out_channel", "kernel_size", "pad_mode", "pad", "pad_list", "mode", "stride", "dilation",
               "group", "data_format"), family="nn_conv")
def prim_conv2d_backprop_input(dout, weight, input_size, out_channel=None, kernel_size=None, pad_mode="valid",
                               pad=0, pad_list=None, mode=1, stride=1, dilation=1, group=1, data_format="NCHW"):
    """``ops.Conv2DBackpropInput``: same as ``Conv2DTranspose``."""
    return prim_conv2d_transpose(dout, weight, input_size, out_channel, kernel_size, pad_mode, pad, pad_list,
                                 mode, stride, dilation, group, data_format)


@op("conv_transpose2d", family="nn_conv")
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """``ops.conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
    dilation=1)``: weight (C_in, C_out / groups, kh, kw), PyTorch's output size."""
    x = _tensor_arg("input", input, "conv_transpose2d")
    w = _tensor_arg("weight", weight, "conv_transpose2d")
    unbatched = x.ndim == 3
    if unbatched:
        x = x[None]
    stride = _tuple_arg(stride, 2, "stride", "conv_transpose2d")
    dilation = _tuple_arg(dilation, 2, "dilation", "conv_transpose2d")
    pad = _tuple_arg(padding, 2, "padding", "conv_transpose2d", allow_zero=True)
    opad = _tuple_arg(output_padding, 2, "output_padding", "conv_transpose2d", allow_zero=True)
    n, _, h, wd = x.shape
    sizes = [(s - 1) * st - 2 * p + d * (k - 1) + op_ + 1
             for s, st, p, d, k, op_ in zip((h, wd), stride, pad, dilation, w.shape[2:], opad)]
    out_shape = (n, w.shape[1] * groups, sizes[0], sizes[1])
    # the forward convolution maps out_shape -> x.shape with these paddings; output_padding rows
    # are added at the end and receive contributions where the kernel reaches them
    pairs = [(p, p - o) for p, o in zip(pad, opad)]
    x0 = jnp.zeros(out_shape, x.dtype)

    def fwd(z):
        zz = jnp.pad(z, [(0, 0), (0, 0)] + [(p, max(q, 0)) for p, q in pairs])
        cut = [slice(None), slice(None)] + [slice(0, zz.shape[2 + i] + min(q, 0)) for i, (_, q) in
                                            enumerate(pairs)]
        zz = zz[tuple(cut)]
        return _conv(zz, w, stride, [(0, 0), (0, 0)], dilation, groups, "conv_transpose2d")

    y, vjp = jax.vjp(fwd, x0)
    out = vjp(x.astype(y.dtype) if y.shape == x.shape else x)[0]
    if bias is not None:
        out = _bias_add_array(out, arr(bias), op_name="conv_transpose2d")
    return wrap(out[0] if unbatched else out)


@op("bias_add", primitive="BiasAdd", prim_args=("data_format",), family="nn_conv")
def bias_add(input_x, bias, data_format="NCHW"):
    """``ops.bias_add(input_x, bias)``: ``bias`` added along the channel axis (axis 1, or the last
    axis for ``data_format='NHWC'``)."""
    x = _tensor_arg("input_x", input_x, "BiasAdd")
    b = _tensor_arg("bias", bias, "BiasAdd")
    if data_format not in ("NCHW", "NHWC", "NCDHW"):
        raise ValueError(f"For 'BiasAdd', the 'data_format' must be 'NCHW', 'NHWC' or 'NCDHW', "
                         f"but got {data_format}.")
    return wrap(_bias_add_array(x, b, data_format == "NHWC"))


def _dense_check(x, w, b, name):
    if w.ndim not in (1, 2):
        raise ValueError(f"For '{name}', the dim of 'weight' must be 1 or 2, but got {w.ndim}.")
    if x.shape[-1:] != w.shape[-1:]:
        raise ValueError(f"For '{name}', the last dimension of 'input' and 'weight' must be the same, "
                         f"but got {x.shape} and {w.shape}.")


@op("dense", primitive="Dense", family="nn_conv")
def dense(input, weight, bias=None):
    """``ops.dense(input, weight, bias=None)``: ``input @ weight.T + bias``."""
    x = _tensor_arg("input", input, "Dense")
    w = _tensor_arg("weight", weight, "Dense")
    _dense_check(x, w, bias, "Dense")
    out = jnp.matmul(x, w.T if w.ndim == 2 else w)
    if bias is not None:
        out = out + arr(bias)
    return wrap(out)


@op("bidense", family="nn_conv")
def bidense(input1, input2, weight, bias=None):
    """``ops.bidense(input1, input2, weight, bias=None)``: ``x1^T W x2 + b`` per output."""
    x1, x2, w = arr(input1), arr(input2), arr(weight)
    out = jnp.einsum("...i,oij,...j->...o", x1, w, x2, precision=lax.Precision.HIGHEST)
    if bias is not None:
        out = out + arr(bias)
    return wrap(out)


# ---------------------------------------------------------------------------
# deformable convolution
# ---------------------------------------------------------------------------

@op("deformable_conv2d", family="nn_conv")
def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None, dilations=(1, 1, 1, 1),
                      groups=1, deformable_groups=1, modulated=True):
    """``ops.deformable_conv2d``: a convolution sampling each kernel tap at its offset position
    (bilinear, zero outside); ``offsets`` (N, 3 * dg * kh * kw, Ho, Wo) hold the x offsets, the y offsets
    and the modulation masks, each grouped by deformable group then kernel position."""
    xa = _float_arg("x", x, "deformable_conv2d")
    w = _float_arg("weight", weight, "deformable_conv2d")
    off = _float_arg("offsets", offsets, "deformable_conv2d")
    kh, kw = _tuple_arg(kernel_size, 2, "kernel_size", "deformable_conv2d")
    if not isinstance(strides, (tuple, list)) or len(strides) != 4:
        raise ValueError(f"For 'deformable_conv2d', the 'strides' must be a tuple of 4 int, but got {strides}.")
    if not isinstance(padding, (tuple, list)) or len(padding) != 4:
        raise ValueError(f"For 'deformable_conv2d', the 'padding' must be a tuple of 4 int, but got {padding}.")
    if not modulated:
        raise ValueError("For 'deformable_conv2d', only 'modulated=True' is supported.")
    sh, sw = strides[2], strides[3]
    dh, dw = dilations[2], dilations[3]
    pt, pb, pl, pr = padding
    n, c, h, wd = xa.shape
    oh = (h + pt + pb - (dh * (kh - 1) + 1)) // sh + 1
    ow = (wd + pl + pr - (dw * (kw - 1) + 1)) // sw + 1
    dg = deformable_groups
    if off.shape != (n, 3 * dg * kh * kw, oh, ow):
        raise ValueError(f"For 'deformable_conv2d', the shape of 'offsets' must be "
                         f"{(n, 3 * dg * kh * kw, oh, ow)}, but got {tuple(off.shape)}.")
    off = off.reshape(n, 3, dg, kh, kw, oh, ow)
    ys = (np.arange(oh) * sh - pt)[None, None, :, None] + (np.arange(kh) * dh)[:, None, None, None]
    xs = (np.arange(ow) * sw - pl)[None, None, None, :] + (np.arange(kw) * dw)[None, :, None, None]
    px = jnp.asarray(xs, xa.dtype)[None, None] + off[:, 0]       # n, dg, kh, kw, oh, ow
    py = jnp.asarray(ys, xa.dtype)[None, None] + off[:, 1]
    mask = off[:, 2]
    xg = xa.reshape(n, dg, c // dg, h, wd)

    def sample(yy, xx):
        valid = (yy >= 0) & (yy <= h - 1) & (xx >= 0) & (xx <= wd - 1)
        yc = jnp.clip(yy, 0, h - 1).astype(jnp.int32)
        xc = jnp.clip(xx, 0, wd - 1).astype(jnp.int32)
        bi = jnp.arange(n)[:, None, None, None, None, None]
        gi = jnp.arange(dg)[None, :, None, None, None, None]
        v = xg[bi, gi, :, yc, xc]                                 # n, dg, kh, kw, oh, ow, cg
        return jnp.where(valid[..., None], v, jnp.zeros((), xa.dtype))

    y0, x0 = jnp.floor(py), jnp.floor(px)
    wy1, wx1 = py - y0, px - x0
    val = (sample(y0, x0) * ((1 - wy1) * (1 - wx1))[..., None] + sample(y0, x0 + 1) * ((1 - wy1) * wx1)[..., None]
           + sample(y0 + 1, x0) * (wy1 * (1 - wx1))[..., None] + sample(y0 + 1, x0 + 1) * (wy1 * wx1)[..., None])
    val = val * mask[..., None]                                   # n, dg, kh, kw, oh, ow, cg
    val = jnp.transpose(val, (0, 1, 6, 4, 2, 5, 3))               # n, dg, cg, oh, kh, ow, kw
    fm = val.reshape(n, c, oh * kh, ow * kw)
    out = _conv(fm, w, (kh, kw), [(0, 0), (0, 0)], (1, 1), groups, "deformable_conv2d")
    if bias is not None:
        out = _bias_add_array(out, arr(bias), op_name="deformable_conv2d")
    return wrap(out)


# ---------------------------------------------------------------------------
# embedding
# ---------------------------------------------------------------------------
@op("embedding", family="nn_conv")
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):
    """``ops.embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
    scale_grad_by_freq=False)``: rows of ``weight`` gathered by ``input``. With ``max_norm`` the
    looked-up rows are renormalised (MindSpore also rewrites ``weight`` in place; here only when it is
    a Parameter). ``padding_idx`` rows get no gradient."""
    idx = _tensor_arg("input", input, "embedding")
    w = _tensor_arg("weight", weight, "embedding")
    if jnp.issubdtype(idx.dtype, jnp.floating):
        raise TypeError(f"For 'embedding', the dtype of 'input' must be int32 or int64, "
                        f"but got {mstype.from_np(idx.dtype)}.")
    if w.ndim != 2:
        raise ValueError(f"For 'embedding', the dimension of 'weight' must be 2, but got {w.ndim}.")
    if padding_idx is not None:
        if not -w.shape[0] <= padding_idx < w.shape[0]:
            raise ValueError(f"For 'embedding', the 'padding_idx' must be in range [{-w.shape[0]}, "
                             f"{w.shape[0]}), but got {padding_idx}.")
        pidx = padding_idx % w.shape[0]
        keep = (jnp.arange(w.shape[0]) != pidx)[:, None]
        w = jnp.where(keep, w, lax.stop_gradient(w))
    if max_norm is not None:
        norms = jnp.power(jnp.sum(jnp.power(jnp.abs(w), norm_type), axis=1, keepdims=True), 1.0 / norm_type)
        scale = jnp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(w.dtype)
        used = jnp.zeros((w.shape[0],), jnp.bool_).at[idx.reshape(-1)].set(True)[:, None]
        w = jnp.where(used, w * lax.stop_gradient(scale), w)
        if hasattr(weight, "set_data"):
            weight.set_data(wrap(lax.stop_gradient(w)))
    return wrap(jnp.take(w, idx, axis=0))


# ---------------------------------------------------------------------------
# 3-D convolution Primitives (Conv3D, Conv3DTranspose)
# ---------------------------------------------------------------------------

def _int_tuple(v, name, op_name, n=2):
    if _is_int(v):
        return (int(v),) * n
    if isinstance(v, (tuple, list)) and all(_is_int(i) for i in v) and len(v) in (1, n):
        return tuple(int(i) for i in v) * (n // len(v))
    raise TypeError(f"For '{op_name}', '{name}' must be an int or a tuple of {n} ints, but got {v}.")


def _conv3d_args(pad_mode, pad, stride, dilation, data_format, op_name):
    if data_format != "NCDHW":
        raise ValueError(f"For '{op_name}', the 'data_format' must be 'NCDHW', but got {data_format}.")
    pm = _pad_mode(pad_mode, op_name)
    pairs = _pad_pairs(pad, 3, op_name)
    if pm != "pad" and any(v for pr in pairs for v in pr):
        raise ValueError(f"For '{op_name}', the 'pad' must be zero when 'pad_mode' is not 'pad', but got {pad}.")
    return (pm, pairs, _prim_stride(stride, 3, "stride", op_name), _prim_stride(dilation, 3, "dilation", op_name))


@op("prim_conv3d", primitive="Conv3D",
    prim_args=("out_channel", "kernel_size", "mode", "pad_mode", "pad", "stride", "dilation", "group",
               "data_format"), family="nn_conv")
def prim_conv3d(x, weight, bias=None, out_channel=None, kernel_size=None, mode=1, pad_mode="valid", pad=0,
                stride=1, dilation=1, group=1, data_format="NCDHW"):
    """``ops.Conv3D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, dilation=1,
    group=1, data_format='NCDHW')(x, weight)``; ``pad`` is an int or 6 values."""
    xa = _tensor_arg("x", x, "Conv3D")
    wa = _tensor_arg("weight", weight, "Conv3D")
    pm, pairs, stride, dilation = _conv3d_args(pad_mode, pad, stride, dilation, data_format, "Conv3D")
    ks = _int_tuple(kernel_size, "kernel_size", "Conv3D", 3) if kernel_size is not None else None
    if xa.ndim == 5 and wa.ndim == 5 and xa.shape[1] != wa.shape[1] * group:
        raise ValueError(f"For 'Conv3D', 'C_in' of input 'x' shape divide by parameter 'group' must be equal to "
                         f"'C_in' of input 'weight' shape: {wa.shape[1]}, but got 'C_in' of input 'x' shape: "
                         f"{xa.shape[1]}, and 'group': {group}.")
    out = _conv_checked(xa, wa, stride, pm, pairs, dilation, group, "Conv3D", ks, out_channel)
    if bias is not None:
        out = out + arr(bias).reshape(-1, 1, 1, 1).astype(out.dtype)
    return wrap(out)


@op("prim_conv3d_transpose", primitive="Conv3DTranspose",
    prim_args=("in_channel", "out_channel", "kernel_size", "mode", "pad_mode", "pad", "stride", "dilation",
               "group", "output_padding", "data_format"), family="nn_conv")
def prim_conv3d_transpose(dout, weight, bias=None, in_channel=None, out_channel=None, kernel_size=None, mode=1,
                          pad_mode="valid", pad=0, stride=1, dilation=1, group=1, output_padding=0,
                          data_format="NCDHW"):
    """``ops.Conv3DTranspose(in_channel, out_channel, kernel_size, ...)(dout, weight)``: the input
    gradient of ``Conv3D`` (weight (C_in, C_out / group, kd, kh, kw)); the output size is
    ``(in - 1) * stride - pads + dilation * (k - 1) + output_padding + 1``."""
    d = _tensor_arg("dout", dout, "Conv3DTranspose")
    w = _tensor_arg("weight", weight, "Conv3DTranspose")
    pm, pairs, stride, dilation = _conv3d_args(pad_mode, pad, stride, dilation, data_format, "Conv3DTranspose")
    op_ = _int_tuple(output_padding, "output_padding", "Conv3DTranspose", 3)
    if pm != "pad" and any(op_):
        raise ValueError(f"For 'Conv3DTranspose', the 'output_padding' must be zero or (0, 0, 0) when 'pad_mode' is "
                         f"not \"pad\", but got 'output_padding' is {output_padding} and 'pad_mode' is {pad_mode}.")
    if d.ndim != 5 or w.ndim != 5:
        raise ValueError(f"For 'Conv3DTranspose', 'dout' and 'weight' must be 5-D, but got {d.ndim} and {w.ndim}.")
    kernel = w.shape[2:]
    sp = []
    for i, (n, k, s, dl) in enumerate(zip(d.shape[2:], kernel, stride, dilation)):
        if pm == "same":
            sp.append(n * s)
        elif pm == "valid":
            sp.append((n - 1) * s + dl * (k - 1) + 1)
        else:
            sp.append((n - 1) * s - sum(pairs[i]) + dl * (k - 1) + 1 + op_[i])
    out_shape = (d.shape[0], w.shape[1] * group) + tuple(sp)
    if pm == "same":
        pairs = tuple(tuple(p) for p in _same_pads(sp, kernel, stride, dilation))
        pm = "pad"
    out = _conv_transpose_array(d, w, out_shape, stride, pm, tuple(tuple(p) for p in pairs), dilation, group,
                                "Conv3DTranspose")
    if bias is not None:
        out = out + arr(bias).reshape(-1, 1, 1, 1).astype(out.dtype)
    return wrap(out)


@op("conv3d_transpose", family="nn_conv")
def conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1, output_padding=0):
    """``ops.conv3d_transpose(inputs, weight, pad_mode='valid', padding=0, stride=1, dilation=1, group=1,
    output_padding=0)``: ``ops.Conv3DTranspose`` with the channels read from ``weight``."""
    w = _tensor_arg("weight", weight, "Conv3DTranspose")
    return prim_conv3d_transpose(inputs, weight, None, w.shape[0], w.shape[1] * group, w.shape[2:], 1, pad_mode,
                                 padding, stride, dilation, group, output_padding)


__all__ = [n for n in dir() if not n.startswith("_")]
