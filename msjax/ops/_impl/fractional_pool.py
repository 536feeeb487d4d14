"""Fractional max pooling's kernel (``nn.FractionalMaxPool2d``/``3d``) and the
``FractionalMaxPool3DWithFixedKsize`` Primitive (``ops.operations.nn_ops``) over it: pooling windows
at pseudo-random starts drawn from ``random_samples`` (PyTorch's and MindSpore's sequence)."""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype

from ..._core.registry import op
from ._util import arr, wrap
from .conv import _compiled, _float_arg
from .math import _dn, _need_tensor
from .random import rand


def _fractional_sequence(samples, n_in, n_out, k):
    """PyTorch's/MindSpore's pseudo-random pooling starts, one row per sample (array of shape (B, n_out))."""
    if n_out == 1:
        return jnp.full(samples.shape + (1,), n_in - k, jnp.int32)
    alpha = (n_in - k) / (n_out - 1)
    i = jnp.arange(n_out - 1, dtype=samples.dtype)
    starts = (jnp.floor((i + samples[..., None]) * alpha) - jnp.floor(samples[..., None] * alpha)).astype(jnp.int32)
    return jnp.concatenate([starts, jnp.full(samples.shape + (1,), n_in - k, jnp.int32)], axis=-1)


@_compiled("kernel", "out_sizes")
def fractional_max_pool(x, kernel, out_sizes, samples):
    """x (N, C, *S); samples (N, C, nd) in [0, 1) (PyTorch's/MindSpore's assignment to axes)."""
    nd = len(kernel)
    spatial = x.shape[2:]
    # 2-D: sample 0 drives the width, 1 the height; 3-D: samples 0, 1, 2 drive depth, height, width
    order = [nd - 1 - a for a in range(nd)] if nd == 2 else list(range(nd))
    starts = [_fractional_sequence(samples[..., order[a]], spatial[a], out_sizes[a], kernel[a]) for a in range(nd)]
    flat_idx = jnp.arange(int(np.prod(spatial)), dtype=jnp.int64).reshape(spatial)
    vals, inds = [], []
    for offs in np.ndindex(*kernel):
        pos = []
        for a in range(nd):
            shape = [x.shape[0], x.shape[1]] + [1] * nd
            shape[2 + a] = out_sizes[a]
            pos.append((starts[a] + offs[a]).reshape(shape))
        bi = jnp.arange(x.shape[0]).reshape([-1] + [1] * (nd + 1))
        ci = jnp.arange(x.shape[1]).reshape([1, -1] + [1] * nd)
        vals.append(x[(bi, ci) + tuple(pos)])
        inds.append(flat_idx[tuple(pos)])
    v = jnp.stack(vals, -1)
    am = jnp.argmax(v, axis=-1)
    out = jnp.max(v, axis=-1)
    ind = jnp.take_along_axis(jnp.stack(jnp.broadcast_arrays(*inds), -1), am[..., None], -1)[..., 0]
    return out, ind


def ext_tuple(v, n, name, cls_name):
    """``v`` (an int or a tuple of 1 or ``n`` ints) as ``n`` ints; the pooling layers' ValueError else."""
    if isinstance(v, int) and not isinstance(v, bool):
        return (v,) * n
    if isinstance(v, (tuple, list)) and all(isinstance(i, int) for i in v) and len(v) in (1, n):
        return tuple(v) * (n if len(v) == 1 else 1)
    raise ValueError(f"For '{cls_name}', the '{name}' must be an int or a tuple of {n} int, but got {v}.")


def fractional_max_pool_nd(nd, name, input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                           random_samples=None):
    """``nn.FractionalMaxPool2d``/``3d`` and ``ops.fractional_max_pool2d``/``3d`` (``nd`` spatial axes; ``name``
    in the errors): windows at pseudo-random starts from ``random_samples`` ((N, C, nd) in [0, 1); drawn
    with MindSpore's ``ops.rand`` when None)."""
    fname = f"fractional_max_pool{nd}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"For {fname}, 'output_size' and 'output_ratio' can not be None at the same time.")
    if not isinstance(return_indices, bool):
        raise TypeError(f"For '{fname}', the type of 'return_indices' must be bool, "
                        f"but got {type(return_indices).__name__}.")
    x = _float_arg("input", input, name)
    squeeze = x.ndim == nd + 1
    if squeeze:
        x = x[None]
    if x.ndim != nd + 2:
        raise ValueError(f"For '{fname}', the dimension of 'input' must be {nd + 1} or {nd + 2}, "
                         f"but got {x.ndim}.")
    k = ext_tuple(kernel_size, nd, "kernel_size", name)
    if output_size is not None:
        out_sizes = ext_tuple(output_size, nd, "output_size", name)
    else:
        ratio = output_ratio
        ratio = (ratio,) * nd if isinstance(ratio, (int, float)) else tuple(ratio)
        for i, r in enumerate(ratio):
            if not 0.0 < r < 1.0:
                raise ValueError(f"For {fname}, the 'output_ratio[{i}]' must be in range (0.0, 1.0), "
                                 f"but got {r}.")
        out_sizes = tuple(int(n * r) for n, r in zip(x.shape[2:], ratio))
    for n, kk, o in zip(x.shape[2:], k, out_sizes):
        if o + kk - 1 > n:
            raise ValueError(f"For '{name}', 'output_size' + 'kernel_size' - 1 must be no greater than the "
                             f"input size, but got output_size {out_sizes}, kernel_size {k} and input shape "
                             f"{tuple(x.shape)}.")
    if random_samples is None:
        # MindSpore's ops.rand(N, C, nd, dtype) (its UniformReal kernel and seeds); an unbatched input
        # draws (1, C, nd) here, where MindSpore draws a shape of its own
        samples = rand(x.shape[0], x.shape[1], nd, dtype=mstype.from_np(x.dtype))._data
    else:
        samples = random_samples._data.astype(x.dtype)
    out, ind = fractional_max_pool(x, k, out_sizes, samples)
    if squeeze:
        out, ind = out[0], ind[0]
    return (wrap(out), wrap(ind)) if return_indices else wrap(out)


@op("fractional_max_pool2d", family="nn")
def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """``ops.fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
    return_indices=False, _random_samples=None)``: as ``nn.FractionalMaxPool2d``."""
    return fractional_max_pool_nd(2, "FractionalMaxPool2d", input, kernel_size, output_size, output_ratio,
                                  return_indices, _random_samples)


@op("fractional_max_pool3d", family="nn")
def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """``ops.fractional_max_pool3d(...)``: as ``nn.FractionalMaxPool3d``."""
    return fractional_max_pool_nd(3, "FractionalMaxPool3d", input, kernel_size, output_size, output_ratio,
                                  return_indices, _random_samples)


_NAME = "FractionalMaxPool3DWithFixedKsize"


def _triple(name, v):
    v = (v,) * 3 if isinstance(v, int) and not isinstance(v, bool) else tuple(v)
    if len(v) == 1:
        v = v * 3
    if len(v) != 3 or any(not isinstance(i, int) or isinstance(i, bool) or i <= 0 for i in v):
        raise ValueError(f"For '{_NAME}', attr '{name}' must be an positive int number or a tuple of three positive "
                         f"int numbers, but got {len(v)} numbers.")
    return v


def _check_fmp3d(ksize, output_shape, data_format="NCDHW"):
    _triple("ksize", ksize)
    _triple("output_shape", output_shape)
    if data_format not in ("NCDHW", "NDHWC"):
        raise ValueError(f"For '{_NAME}', the 'data_format' must be 'NCDHW' or 'NDHWC', but got {data_format}.")


@op("fractional_max_pool3d_with_fixed_ksize", primitive=_NAME, prim_args=("ksize", "output_shape", "data_format"),
    family="nn", prim_check=_check_fmp3d)
def fractional_max_pool3d_with_fixed_ksize(x, random_samples, ksize=1, output_shape=1, data_format="NCDHW"):
    """``FractionalMaxPool3DWithFixedKsize(ksize, output_shape, data_format='NCDHW')(x, random_samples)``:
    ``(y, argmax)`` of a 4-D (C, D, H, W) or 5-D input; ``random_samples`` (N, C, 3) in [0, 1) drive
    depth, height and width; ``argmax`` holds Int64 offsets into each (D, H, W) volume."""
    _need_tensor(_NAME, "x", x)
    _need_tensor(_NAME, "random_samples", random_samples)
    a, s = arr(x), arr(random_samples)
    k, out_sizes = _triple("ksize", ksize), _triple("output_shape", output_shape)
    if a.ndim not in (4, 5):
        raise ValueError(f"For '{_NAME}', the dimension of 'x' must be 4 or 5, but got {a.ndim}.")
    if _dn(s) not in ("Float16", "Float32", "Float64"):
        raise TypeError(f"For primitive[{_NAME}], the input argument[random_samples] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got Tensor[{_dn(s)}].")
    squeeze = a.ndim == 4
    a = a[None] if squeeze else a
    if s.ndim != 3 or s.shape[-1] != 3:
        raise ValueError(f"For '{_NAME}', the shape of 'random_samples' must be (N, C, 3), but got {s.shape}.")
    if s.shape[1] != a.shape[1]:   # axis 1 of x, also in NDHWC (as MindSpore's check)
        raise ValueError(f"For '{_NAME}', if 'x' is 5 dimensional, the second dimension size of 'x' and "
                         f"'random_samples' must be equal.")
    if data_format == "NDHWC":
        a = jnp.moveaxis(a, -1, 1)
    for axis, n, kk, o in zip(("depth", "height", "width"), a.shape[2:], k, out_sizes):
        if o + kk > n:   # MindSpore's condition (nn.FractionalMaxPool3d allows o + kk - 1 == n)
            raise ValueError(f"For '{_NAME}', out(): pool {axis} ,{kk}too large relative to input {axis}{n}.")
    y, ind = fractional_max_pool(a, k, out_sizes, s.astype(jnp.float32 if a.dtype != jnp.float64 else a.dtype))
    if data_format == "NDHWC":
        y, ind = jnp.moveaxis(y, 1, -1), jnp.moveaxis(ind, 1, -1)
    if squeeze:
        y, ind = y[0], ind[0]
    return wrap(y), wrap(ind.astype(jnp.int64))
