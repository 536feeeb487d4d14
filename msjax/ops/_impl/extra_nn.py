"""Signal windows (``hann_window``... and the ``HammingWindow``/``BartlettWindow``/``BlackmanWindow``
Primitives), ``BatchToSpaceND``/``SpaceToBatchND``, ``Im2Col``/``Col2Im`` and the Primitive forms of
the 3-D convolution and pooling ops (``Conv3D``, ``Conv3DTranspose``, ``MaxPool3D``, ``AvgPool3D``,
``AdaptiveMaxPool2D``)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import Tensor, arr, wrap
from .array import _need_concrete
from .conv import (_conv_checked, _conv_transpose_array, _is_int, _pad_mode, _pad_pairs, _prim_stride, _same_pads,
                   _tensor_arg)
from .pooling import _avg_pool_array, _max_pool_array, _prim_window, adaptive_max_pool2d

# ---------------------------------------------------------------------------
# windows
# ---------------------------------------------------------------------------


def _hann(n, m):
    return 0.5 - 0.5 * np.cos(2 * np.pi * n / m)


def _blackman(n, m):
    return 0.42 - 0.5 * np.cos(2 * np.pi * n / m) + 0.08 * np.cos(4 * np.pi * n / m)


def _bartlett(n, m):
    return 1 - np.abs(2 * n / m - 1)


def _window(length, periodic, dt, formula):
    """``formula(n, N - 1)`` over ``n = 0..N-1`` (``periodic``: the ``N + 1`` window without its last
    value), computed in float64 and cast to ``dt``."""
    if length <= 1:
        return wrap(jnp.ones((max(length, 0),), dt))
    n = np.arange(length, dtype=np.float64)
    return wrap(jnp.asarray(formula(n, length if periodic else length - 1), dt))


def _fn_window(name, length, periodic, dtype, formula):
    """``hann_window``/``kaiser_window``: a Python int length, Float64 unless ``dtype`` says otherwise."""
    if isinstance(length, bool) or not isinstance(length, (int, np.integer)):
        raise TypeError(f"For '{name}', 'window_length' must be a non-negative integer, but got {type(length)}")
    if length < 0:
        raise ValueError(f"For '{name}', 'window_length' must be a non-negative integer, but got {length}")
    if not isinstance(periodic, bool):
        raise TypeError(f"For '{name}', 'periodic' must be a variable of Boolean type, but got {type(periodic)}")
    dt = mstype.to_np(mstype.float64 if dtype is None else dtype)
    if not jnp.issubdtype(dt, jnp.floating):
        raise TypeError(f"For '{name}', 'dtype' must be floating point dtypes, but got {dtype}.")
    return _window(int(length), periodic, dt, formula)


def _prim_length(name, window_length, ndim):
    """The window Primitives take the length as an Int32/Int64 Tensor of rank ``ndim``."""
    if not isinstance(window_length, Tensor):
        raise TypeError(f"For Primitive[{name}], the type of input argument[window_length] must be Tensor but got "
                        f"{type(window_length).__name__}.")
    a = window_length._data
    if a.dtype not in (jnp.int32, jnp.int64):
        raise TypeError(f"For primitive[{name}], the input argument[window_length] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{mstype.from_np(a.dtype)}].")
    if a.ndim != ndim or a.size != 1:
        raise ValueError(f"For '{name}', the dim of window_length must be {ndim}, but got: {a.ndim}.")
    n = int(_need_concrete(a, name).reshape(()))
    if n < 0:
        raise ValueError(f"For primitive[{name}], the length value must be greater than or equal to 0, but got {n}.")
    return n


def _prim_window_dtype(name, periodic, dtype):
    if not isinstance(periodic, bool):
        raise TypeError(f"For '{name}', the 'periodic' must be bool, but got {type(periodic).__name__}.")
    dt = mstype.to_np(dtype)
    if dt not in (jnp.float16, jnp.float32, jnp.float64):
        raise TypeError(f"For '{name}', the 'dtype' must be float16, float32 or float64, but got {dtype}.")
    return dt


@op("hann_window", family="nn")
def hann_window(window_length, periodic=True, *, dtype=None):
    """``ops.hann_window(window_length, periodic=True, *, dtype=None)``: ``0.5 - 0.5 cos(2 pi n / (N-1))``
    (Float64 by default)."""
    return _fn_window("hann_window", window_length, periodic, dtype, _hann)


@op("kaiser_window", family="nn")
def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """``ops.kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None)``:
    ``I0(beta sqrt(1 - (2n/(N-1) - 1)^2)) / I0(beta)`` (Float64 by default)."""
    if isinstance(beta, bool) or not isinstance(beta, (int, float)):
        raise TypeError(f"For 'kaiser_window', 'beta' must be float, but got {type(beta)}")
    return _fn_window("kaiser_window", window_length, periodic, dtype,
                      lambda n, m: np.i0(beta * np.sqrt(np.clip(1 - (2 * n / m - 1) ** 2, 0, None))) / np.i0(beta))


def _hamming(alpha, beta):
    return lambda n, m: alpha - beta * np.cos(2 * np.pi * n / m)


@op("hamming_window", family="nn")
def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    """``ops.hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None)``:
    ``alpha - beta cos(2 pi n / (N-1))``; a Python int length, Float32 by default."""
    if isinstance(window_length, bool) or not isinstance(window_length, (int, np.integer)):
        raise TypeError(f"For array function 'hamming_window', 'window_length' must be int, but got "
                        f"{type(window_length)}.")
    if window_length < 0:
        raise ValueError(f"For array function 'hamming_window', 'window_length' must be non-negative, but got "
                         f"{window_length}.")
    for k, v in (("alpha", alpha), ("beta", beta)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"For array function 'hamming_window', '{k}' must be float, but got {type(v)}.")
    dt = _prim_window_dtype("hamming_window", periodic, mstype.float32 if dtype is None else dtype)
    return _window(int(window_length), periodic, dt, _hamming(alpha, beta))


@op("blackman_window", primitive="BlackmanWindow", prim_args=("periodic", "dtype"), family="nn")
def blackman_window(window_length, periodic=True, *, dtype=None):
    """``ops.blackman_window(window_length, periodic=True, *, dtype=None)`` and
    ``ops.BlackmanWindow(periodic=True, dtype=float32)(window_length)``: the length is a 0-d
    Int32/Int64 Tensor (also in the functional form)."""
    n = _prim_length("BlackmanWindow", window_length, 0)
    dt = _prim_window_dtype("BlackmanWindow", periodic, mstype.float32 if dtype is None else dtype)
    return _window(n, periodic, dt, _blackman)


@op("bartlett_window", primitive="BartlettWindow", prim_args=("periodic", "dtype"), family="nn")
def bartlett_window(window_length, periodic=True, *, dtype=None):
    """``ops.bartlett_window(window_length, periodic=True, *, dtype=None)`` and
    ``ops.BartlettWindow(periodic=True, dtype=float32)(window_length)``: the triangular window; the
    length is a 0-d Int32/Int64 Tensor."""
    n = _prim_length("BartlettWindow", window_length, 0)
    dt = _prim_window_dtype("BartlettWindow", periodic, mstype.float32 if dtype is None else dtype)
    return _window(n, periodic, dt, _bartlett)


@op("prim_hamming_window", primitive="HammingWindow", prim_args=("periodic", "alpha", "beta", "dtype"),
    family="nn")
def prim_hamming_window(length, periodic=True, alpha=0.54, beta=0.46, dtype=mstype.float32):
    """``ops.HammingWindow(periodic=True, alpha=0.54, beta=0.46, dtype=float32)(length)``; ``length``
    is a 1-element 1-D Int32/Int64 Tensor."""
    n = _prim_length("HammingWindow", length, 1)
    return _window(n, periodic, _prim_window_dtype("HammingWindow", periodic, dtype), _hamming(alpha, beta))


# ---------------------------------------------------------------------------
# batch <-> space
# ---------------------------------------------------------------------------

def _block_args(name, x, block, pairs, what):
    """``block`` (int or M ints >= 1) and ``pairs`` (M (lo, hi) non-negative pairs) for the last M axes."""
    if _is_int(block):
        block = (int(block),) * len(pairs) if isinstance(pairs, (tuple, list)) else (int(block),)
    block = tuple(int(b) for b in block)
    if any(b < 1 for b in block):
        raise ValueError(f"For '{name}', the elements of 'block_shape' must be >= 1, but got {block}.")
    pairs = tuple(tuple(int(v) for v in p) for p in pairs)
    if len(pairs) != len(block) or any(len(p) != 2 for p in pairs):
        raise ValueError(f"For '{name}', the shape of '{what}' must be [{len(block)}, 2], but got "
                         f"{[list(p) for p in pairs]}.")
    if any(v < 0 for p in pairs for v in p):
        raise ValueError(f"For '{name}', the elements of '{what}' must be non-negative, but got {pairs}.")
    a = arr(x)
    if a.ndim < len(block) + 1:
        raise ValueError(f"For '{name}', the rank of 'input_x' must be at least {len(block) + 1}, but got {a.ndim}.")
    return a, block, pairs


@op("batch_to_space_nd", primitive="BatchToSpaceND", prim_args=("block_shape", "crops"), family="array")
def batch_to_space_nd(input_x, block_shape, crops):
    """``ops.batch_to_space_nd(input_x, block_shape, crops)``: the batch split into ``block_shape``
    blocks interleaved into the last M axes, then ``crops`` cut from each."""
    a, block, crops = _block_args("BatchToSpaceND", input_x, block_shape, crops, "crops")
    m, prod = len(block), int(np.prod(block))
    if a.shape[0] % prod:
        raise ValueError(f"For 'BatchToSpaceND', the first dimension of 'input_x' must be divisible by the product "
                         f"of 'block_shape' ({prod}), but got {a.shape[0]}.")
    rest, sp = a.shape[1:a.ndim - m], a.shape[a.ndim - m:]
    for s, b, (lo, hi) in zip(sp, block, crops):
        if lo + hi >= s * b:
            raise ValueError(f"For 'BatchToSpaceND', the crops {(lo, hi)} must be smaller than the output size "
                             f"{s * b}.")
    r = a.reshape(block + (a.shape[0] // prod,) + rest + sp)
    k = len(rest)
    perm = [m] + [m + 1 + i for i in range(k)] + [p for j in range(m) for p in (m + 1 + k + j, j)]
    r = r.transpose(perm).reshape((a.shape[0] // prod,) + rest + tuple(s * b for s, b in zip(sp, block)))
    idx = (slice(None),) * (1 + k) + tuple(slice(lo, s * b - hi) for s, b, (lo, hi) in zip(sp, block, crops))
    return wrap(r[idx])


def _block_size_check(name, block_size, pairs, what):
    if isinstance(block_size, bool) or not isinstance(block_size, int):
        raise TypeError(f"For '{name}', the type of 'block_size' must be int, but got {type(block_size)}.")
    if block_size < 2:
        raise ValueError(f"For '{name}', the 'block_size' must be >= 2, but got {block_size}.")
    if not isinstance(pairs, (list, tuple)) or np.array(pairs).shape != (2, 2):
        raise ValueError(f"For '{name}', the '{what}' must be a 2 x 2 list or tuple, but got {pairs}.")


def _batch_to_space_check(block_size, crops):
    _block_size_check("BatchToSpace", block_size, crops, "crops")


def _space_to_batch_check(block_size, paddings):
    _block_size_check("SpaceToBatch", block_size, paddings, "paddings")


@op("prim_batch_to_space", primitive="BatchToSpace", prim_args=("block_size", "crops"), family="array",
    prim_check=_batch_to_space_check)
def batch_to_space(x, block_size, crops):
    """``ops.BatchToSpace(block_size, crops)(x)``: ``BatchToSpaceND((block_size, block_size), crops)`` of
    an NCHW Tensor (MindSpore 2.10's CPU build has no kernel for it)."""
    if arr(x).ndim != 4:
        raise ValueError(f"For 'BatchToSpace', the rank of 'x' must be 4, but got {arr(x).ndim}.")
    return batch_to_space_nd(x, (block_size, block_size), crops)


@op("space_to_batch_nd", family="array")
def space_to_batch_nd(input_x, block_size, paddings):
    """``ops.space_to_batch_nd(input_x, block_size, paddings)``: the last M axes zero-padded by
    ``paddings`` and cut into ``block_size`` blocks stacked into the batch."""
    a, block, pads = _block_args("SpaceToBatchND", input_x, block_size, paddings, "paddings")
    m = len(block)
    k = a.ndim - 1 - m
    a = jnp.pad(a, [(0, 0)] * (1 + k) + list(pads))
    sp = a.shape[1 + k:]
    for s, b in zip(sp, block):
        if s % b:
            raise RuntimeError(f"For 'SpaceToBatchND', padded shape should be divisible by block_size, but got "
                               f"padded shape: {s}, block_size: {b}")
    r = a.reshape(a.shape[:1 + k] + tuple(v for s, b in zip(sp, block) for v in (s // b, b)))
    perm = [2 + k + 2 * j for j in range(m)] + list(range(1 + k)) + [1 + k + 2 * j for j in range(m)]
    r = r.transpose(perm)
    return wrap(r.reshape((a.shape[0] * int(np.prod(block)),) + a.shape[1:1 + k]
                          + tuple(s // b for s, b in zip(sp, block))))


@op("prim_space_to_batch", primitive="SpaceToBatch", prim_args=("block_size", "paddings"), family="array",
    prim_check=_space_to_batch_check)
def space_to_batch(x, block_size, paddings):
    """``ops.SpaceToBatch(block_size, paddings)(x)``: ``SpaceToBatchND((block_size, block_size), paddings)``
    of an NCHW Tensor (MindSpore 2.10's CPU build has no kernel for it)."""
    if arr(x).ndim != 4:
        raise ValueError(f"For 'SpaceToBatch', the rank of 'x' must be 4, but got {arr(x).ndim}.")
    return space_to_batch_nd(x, (block_size, block_size), paddings)


@op("prim_space_to_batch_nd", primitive="SpaceToBatchND", prim_args=("block_shape", "paddings"), family="array")
def prim_space_to_batch_nd(input_x, block_shape, paddings):
    """``ops.SpaceToBatchND(block_shape, paddings)(input_x)``: ``ops.space_to_batch_nd``."""
    return space_to_batch_nd(input_x, block_shape, paddings)


# ---------------------------------------------------------------------------
# Im2Col / Col2Im
# ---------------------------------------------------------------------------

def _pair(v, name, op_name, n=2):
    if _is_int(v):
        return (int(v),) * n
    if isinstance(v, (tuple, list)) and all(_is_int(i) for i in v) and len(v) in (1, n):
        return tuple(int(i) for i in v) * (n // len(v))
    raise TypeError(f"For '{op_name}', '{name}' must be an int or a tuple of {n} ints, but got {v}.")


def _im2col_pads(pads):
    """Im2Col's pads: 1 value (all sides), 2 (per axis) or 4 (top, bottom, left, right)."""
    if _is_int(pads):
        return ((int(pads),) * 2,) * 2
    p = tuple(int(v) for v in pads)
    if len(p) == 1:
        return ((p[0],) * 2,) * 2
    if len(p) == 2:
        return ((p[0], p[0]), (p[1], p[1]))
    return ((p[0], p[1]), (p[2], p[3]))


@op("prim_im2col", primitive="Im2Col", prim_args=("ksizes", "strides", "dilations", "pads"), family="nn")
def im2col(x, ksizes, strides=1, dilations=1, pads=0):
    """``ops.Im2Col(ksizes, strides=1, dilations=1, pads=0)(x)``: NCHW -> (N, C, kh*kw, L), the
    sliding blocks in row-major order."""
    a = _tensor_arg("x", x, "Im2Col")
    if a.ndim != 4:
        raise ValueError(f"For 'Im2Col', the dimension of 'x' must be 4, but got {a.ndim}.")
    k = _pair(ksizes, "ksizes", "Im2Col")
    s = _pair(strides, "strides", "Im2Col")
    d = _pair(dilations, "dilations", "Im2Col")
    p = _im2col_pads(pads)
    n, c = a.shape[:2]
    patches = lax.conv_general_dilated_patches(a, k, s, p, rhs_dilation=d, precision=lax.Precision.HIGHEST)
    return wrap(patches.reshape(n, c, k[0] * k[1], -1))


@op("prim_col2im", primitive="Col2Im", prim_args=("kernel_size", "dilation", "padding", "stride"), family="nn")
def col2im(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """``ops.Col2Im(kernel_size, dilation=1, padding=0, stride=1)(x, output_size)``: (N, C, kh*kw, L)
    blocks summed back into (N, C, H, W) -- the adjoint of ``Im2Col``."""
    a = _tensor_arg("x", x, "Col2Im")
    if a.ndim != 4:
        raise ValueError(f"For 'Col2Im', the dimension of 'x' must be 4, but got {a.ndim}.")
    size = tuple(int(v) for v in np.ravel(_need_concrete(arr(output_size), "Col2Im")))
    k = _pair(kernel_size, "kernel_size", "Col2Im")
    d = _pair(dilation, "dilation", "Col2Im")
    p = _pair(padding, "padding", "Col2Im")
    s = _pair(stride, "stride", "Col2Im")
    n, c = a.shape[:2]
    if a.shape[2] != k[0] * k[1]:
        raise ValueError(f"For 'Col2Im', the third dimension of 'x' must be kernel_size[0] * kernel_size[1] = "
                         f"{k[0] * k[1]}, but got {a.shape[2]}.")

    def fwd(img):
        return lax.conv_general_dilated_patches(img, k, s, [(v, v) for v in p], rhs_dilation=d,
                                                precision=lax.Precision.HIGHEST).reshape(n, c, k[0] * k[1], -1)

    zero = jnp.zeros((n, c) + size, a.dtype)
    out_shape = jax.eval_shape(fwd, zero).shape
    if out_shape != a.shape:
        raise ValueError(f"For 'Col2Im', the shape of 'x' must be {list(out_shape)} for output_size {list(size)}, "
                         f"but got {list(a.shape)}.")
    return wrap(jax.linear_transpose(fwd, zero)(a)[0])


@op("col2im", family="nn")
def col2im_fn(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """``ops.col2im(input_x, output_size, kernel_size, dilation, padding_value, stride)``: ``ops.Col2Im``."""
    return col2im(input_x, output_size, kernel_size, dilation, padding_value, stride)


def _nchw_window(v, name):
    """ExtractImagePatches' ksizes/strides/rates: an int, (row, col) or [1, 1, row, col]."""
    if _is_int(v):
        v = (int(v),) * 2
    v = tuple(v) if isinstance(v, (tuple, list)) else ()
    if len(v) == 4 and v[:2] == (1, 1):
        v = v[2:]
    if len(v) != 2 or not all(_is_int(i) and i >= 1 for i in v):
        raise ValueError(f"For 'ExtractImagePatches', '{name}' must be an int, (row, col) or [1, 1, row, col] of "
                         f"positive ints, but got {v}.")
    return tuple(int(i) for i in v)


@op("prim_extract_image_patches", primitive="ExtractImagePatches",
    prim_args=("ksizes", "strides", "rates", "padding"), family="nn")
def extract_image_patches(input_x, ksizes, strides, rates, padding="VALID"):
    """``ops.ExtractImagePatches(ksizes, strides, rates, padding='VALID')(input_x)``: (N, C, H, W) ->
    (N, kh * kw * C, out_h, out_w), the depth ordered (kh, kw, C); ``ksizes``/``strides``/``rates`` are
    [1, 1, row, col] (``nn.Unfold``'s layout is [1, row, col, 1]). MindSpore 2.10's CPU build has no
    kernel for it."""
    x = arr(input_x)
    if x.ndim != 4:
        raise ValueError(f"For 'ExtractImagePatches', the dimension of 'input_x' must be 4, but got {x.ndim}.")
    if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
        raise ValueError(f"For 'ExtractImagePatches', the 'padding' must be 'VALID' or 'SAME', but got {padding}.")
    k, s, r = (_nchw_window(v, nm) for v, nm in ((ksizes, "ksizes"), (strides, "strides"), (rates, "rates")))
    n, c, h, w = x.shape
    eff = [(kk - 1) * rr + 1 for kk, rr in zip(k, r)]
    pads = _same_pads((h, w), eff, s, (1, 1)) if padding.upper() == "SAME" else [(0, 0), (0, 0)]
    xp = jnp.pad(x, [(0, 0), (0, 0)] + list(pads))
    oh = (h + sum(pads[0]) - eff[0]) // s[0] + 1
    ow = (w + sum(pads[1]) - eff[1]) // s[1] + 1
    patches = [xp[:, :, i * r[0]: i * r[0] + (oh - 1) * s[0] + 1: s[0], j * r[1]: j * r[1] + (ow - 1) * s[1] + 1: s[1]]
               for i in range(k[0]) for j in range(k[1])]
    out = jnp.stack(patches, axis=1)           # n, kh*kw, c, oh, ow
    return wrap(out.reshape(n, k[0] * k[1] * c, oh, ow))


# ---------------------------------------------------------------------------
# 3-D convolution and pooling Primitives
# ---------------------------------------------------------------------------

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
    ks = _pair(kernel_size, "kernel_size", "Conv3D", 3) if kernel_size is not None else None
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
    op_ = _pair(output_padding, "output_padding", "Conv3DTranspose", 3)
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
