"""Max unpooling: ``ops.max_unpool1d/2d/3d`` and the ``MaxUnpool2D``/``MaxUnpool3D`` Primitives they call
in MindSpore (``max_unpool1d`` is ``MaxUnpool2D`` on a trailing axis of 1). ``x`` is written into zeros
at ``argmax``, flat offsets into each (n, c) plane of the output; the gradient of ``x`` gathers at them.

As MindSpore's CPU kernel, an offset outside the plane is a RuntimeError when the values are known
(PyNative); inside a compiled graph msjax drops such values instead (MindSpore's graph raises)."""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._checkparam import check_value_type
from ..._core.registry import op
from ._util import arr, wrap
from .activation import _name
from .array import _concrete, _expand
from .conv import _compiled


def _attr_tuple(arg_name, value, prim_name, nd, strict_positive=True):
    """MindSpore's ``_check_positive_int_or_tuple`` (nd = 2) / ``_check_3d_int_or_tuple`` (nd = 3):
    ``value`` as (1, 1, *spatial)."""
    check_value_type(arg_name, value, (int, tuple), prim_name)
    if nd == 2:
        text = (f"For '{prim_name}' attr '{arg_name}' must be an positive int number or a tuple of two "
                f"positive int numbers, but got {{}}")
    else:
        text = (f"For '{prim_name}', the parameter '{arg_name}' must be an positive integer or a tuple of three "
                f"positive integer, but got {{}}")
    if isinstance(value, int):
        ret = (1, 1) + (value,) * nd
    elif len(value) == nd:
        ret = (1, 1) + tuple(value)
    else:
        raise ValueError(text.format(value))
    for item in ret:
        if not (isinstance(item, int) and not isinstance(item, bool) and (item > 0 or (item == 0 and not
                                                                                        strict_positive))):
            raise ValueError(text.format(value if nd == 2 else ret))
    return ret


@_compiled("out_spatial")
def _unpool(x, indices, out_spatial):
    """Scatter ``x`` into zeros of spatial size ``out_spatial`` at flat ``indices`` (per leading index);
    offsets outside the plane are dropped."""
    lead = x.shape[:-len(out_spatial)]
    n = int(np.prod(out_spatial))
    flat_lead = int(np.prod(lead)) if lead else 1
    idx = indices.reshape(flat_lead, -1).astype(jnp.int32)
    idx = jnp.where((idx >= 0) & (idx < n), idx, n)
    out = jnp.zeros((flat_lead, n), x.dtype).at[jnp.arange(flat_lead)[:, None], idx].set(
        x.reshape(flat_lead, -1), mode="drop")
    return out.reshape(lead + tuple(out_spatial))


def _max_unpool_nd(nd, x, argmax, ksize, strides, pads, output_shape, data_format):
    name = f"MaxUnpool{nd}D"
    ksize = _attr_tuple("ksize", ksize, name, nd)
    if strides in (0, (0,) * nd):
        strides = ksize[2:] if isinstance(ksize, tuple) else ksize
    strides = _attr_tuple("strides", strides, name, nd)
    pads = _attr_tuple("pads", pads, name, nd, strict_positive=False)
    fmt = ("NCHW", "NHWC") if nd == 2 else ("NCDHW", "NDHWC")
    if data_format not in fmt:
        raise ValueError(f"For '{name}', the input 'data_format' should be one of {list(fmt)}, "
                         f"but got '{data_format}'.")
    check_value_type("output_shape", output_shape, [tuple], name)
    xa, ia = arr(x), arr(argmax)
    if np.dtype(ia.dtype) not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"For primitive[{name}], the input argument[argmax] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{_name(ia.dtype)}].")
    if xa.ndim != nd + 2:
        raise ValueError(f"For primitive[{name}], the x_rank must be equal to {nd + 2}, but got {xa.ndim}.")
    if xa.shape != ia.shape:
        text = lambda s: "[" + "".join(f"{d}," for d in s) + "]"   # noqa: E731
        raise ValueError(f"For primitive[{name}], the x_shape: {text(xa.shape)} must be equal to "
                         f"{text(ia.shape)}")
    channels_last = data_format in ("NHWC", "NDHWC")
    if channels_last:
        xa, ia = jnp.moveaxis(xa, -1, 1), jnp.moveaxis(ia, -1, 1)
    default = tuple((n - 1) * s - 2 * p + k
                    for n, s, p, k in zip(xa.shape[2:], strides[2:], pads[2:], ksize[2:]))
    if output_shape:
        want = tuple(output_shape[2:])
        lo = [d - s for d, s in zip(default, strides[2:])]
        hi = [d + s for d, s in zip(default, strides[2:])]
        if any(not lo_ < w < hi_ for w, lo_, hi_ in zip(want, lo, hi)):
            dims = ", ".join(str(i) for i in range(2, nd + 2))
            vec = lambda v: "[const vector]{" + ", ".join(str(i) for i in v) + "}"   # noqa: E731
            raise ValueError(f"{name}: The dim {dims} of output_shape : {vec(output_shape)} must be between "
                             f"{vec(list(xa.shape[:2]) + lo)} and {vec(list(xa.shape[:2]) + hi)}.")
        spatial = want
    else:
        spatial = default
    plane = int(np.prod(spatial))
    known = _concrete(ia)
    if known is not None and known.size:
        bad = known[(known < 0) | (known >= plane)]
        if bad.size:
            shown = int(np.asarray(bad[0], np.int64).astype(np.uint64))
            sizes = " * ".join("DHW"[3 - nd:])
            raise RuntimeError(f"{name}: internal error, output_size {sizes} should be bigger than some indicis, "
                               f"now {sizes} is {plane} and value of argmax is {shown}.")
    out = _unpool(xa, ia, spatial)
    return jnp.moveaxis(out, 1, -1) if channels_last else out


@op("prim_max_unpool2d", primitive="MaxUnpool2D", prim_args=("ksize", "strides", "pads", "output_shape", "data_format"),
    family="nn_conv")
def prim_max_unpool2d(x, argmax, ksize, strides=0, pads=0, output_shape=(), data_format="NCHW"):
    """``ops.MaxUnpool2D(ksize, strides=0, pads=0, output_shape=(), data_format='NCHW')(x, argmax)``."""
    return wrap(_max_unpool_nd(2, x, argmax, ksize, strides, pads, output_shape, data_format))


@op("prim_max_unpool3d", primitive="MaxUnpool3D", prim_args=("ksize", "strides", "pads", "output_shape", "data_format"),
    family="nn_conv")
def prim_max_unpool3d(x, argmax, ksize, strides=0, pads=0, output_shape=(), data_format="NCDHW"):
    """``ops.MaxUnpool3D(ksize, strides=0, pads=0, output_shape=(), data_format='NCDHW')(x, argmax)``."""
    return wrap(_max_unpool_nd(3, x, argmax, ksize, strides, pads, output_shape, data_format))


def _output_size(name, output_size, lengths):
    if output_size is None:
        return ()
    if not isinstance(output_size, tuple):
        raise ValueError(f"For {name}, output_size must be tuple, but {'got' if name == 'max_unpool2d' else 'type'} "
                         f"{type(output_size)}.")
    if len(output_size) not in lengths:
        raise ValueError(f"For {name}, length of output_size with tuple must be {', '.join(map(str, lengths))}, "
                         f"but got {'' if name == 'max_unpool2d' else 'type '}{len(output_size)}.")
    return output_size


def _unpool_call(nd, x, indices, lead_dims, kernel_size, stride, padding, output_size):
    """MindSpore's functional wrappers: a missing batch axis is added (and removed) around the Primitive."""
    x, indices = arr(x), arr(indices)
    batched = x.ndim != lead_dims
    if not batched:
        x, indices = arr(_expand(x, 0, "ExpandDims")), arr(_expand(indices, 0, "ExpandDims"))
    out = _max_unpool_nd(nd, x, indices, kernel_size, stride, padding, output_size, "NCHW" if nd == 2 else "NCDHW")
    return out if batched else out[0]


@op("max_unpool1d", family="nn_conv")
def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """``ops.max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None)``: (N, C, L)
    or (C, L); ``output_size``'s last entry is L_out."""
    stride = kernel_size if stride is None else stride
    output_size = _output_size("max_unpool1d", output_size, (0, 1, 2, 3))
    xa, ia = arr(x), arr(indices)
    if output_size:
        output_size = ((1,) + xa.shape[:1] if xa.ndim == 2 else tuple(xa.shape[:2])) + output_size[-1:] + (1,)
    attrs = [v + (1 if i < 2 else 0,) if isinstance(v, tuple) else (v, 1 if i < 2 else 0) if isinstance(v, int)
             else v for i, v in enumerate((kernel_size, stride, padding))]
    squeeze0 = xa.ndim == 2
    if squeeze0:
        xa, ia = arr(_expand(xa, 0, "ExpandDims")), arr(_expand(ia, 0, "ExpandDims"))
    if xa.ndim < 3:     # MindSpore's Tensor.expand_dims(axis=3)
        raise ValueError(f"The 'axis' must be in range of [-{xa.ndim + 1}, {xa.ndim + 1}), but got 3 with type 'int'.")
    xa, ia = arr(_expand(xa, 3, "ExpandDims")), arr(_expand(ia, 3, "ExpandDims"))
    out = _max_unpool_nd(2, xa, ia, *attrs, output_size, "NCHW")[..., 0]
    return wrap(out[0] if squeeze0 else out)


@op("max_unpool2d", family="nn_conv")
def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """``ops.max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None)``: (N, C, H, W)
    or (C, H, W); ``output_size``'s last two entries are (H_out, W_out)."""
    stride = kernel_size if stride is None else stride
    output_size = _output_size("max_unpool2d", output_size, (0, 2, 3, 4))
    shape = arr(x).shape
    if output_size:
        output_size = ((1,) + shape[:1] if len(shape) == 3 else tuple(shape[:2])) + output_size[-2:]
    return wrap(_unpool_call(2, x, indices, 3, kernel_size, stride, padding, output_size))


@op("max_unpool3d", family="nn_conv")
def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """``ops.max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None)``: (N, C, D, H, W)
    or (C, D, H, W); ``output_size``'s last three entries are the output's (D, H, W)."""
    output_size = _output_size("max_unpool3d", output_size, (0, 3, 4, 5))
    shape = arr(x).shape
    if output_size:
        output_size = (tuple(shape[:2]) if len(shape) == 5 else (1,) + shape[:1]) + output_size[-3:]
    stride = 0 if stride is None else stride
    return wrap(_unpool_call(3, x, indices, 4, kernel_size, stride, padding, output_size))
