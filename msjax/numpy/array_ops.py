"""``mindspore.numpy.array_ops``: shape, joining, splitting and indexing functions on
``jax.numpy``; Tensors in and out, Python numbers and lists as 32-bit Tensors.

Differs from MindSpore: ``unique``/``argwhere``/``intersect1d`` (results whose shape depends
on the values) cannot run inside ``ms.jit``/``ms.grad`` (RuntimeError); ``apply_along_axis``,
``apply_over_axes`` and ``piecewise`` call the Python function given, as MindSpore does.
"""
from __future__ import absolute_import

import numbers

import jax.numpy as jnp
import numpy as _np

from .._core.tensor import Tensor
from . import _util
from ._util import arr, check_axis, need_tensor, out


def transpose(a, axes=None):
    a = arr(a)
    if axes is not None:
        axes = check_axis(axes, a.ndim)
        if len(axes) != a.ndim:
            raise ValueError(f"The length of axes {len(axes)} must match the rank of the input {a.ndim}.")
    return out(jnp.transpose(a, axes))


def expand_dims(a, axis):
    a = arr(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    check_axis(axes, a.ndim + len(axes))
    return out(jnp.expand_dims(a, tuple(axes)))


def squeeze(a, axis=None):
    a = arr(a)
    if axis is not None:
        axes = check_axis(axis, a.ndim)
        for ax in axes:
            if a.shape[ax] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
        return out(jnp.squeeze(a, axes))
    return out(jnp.squeeze(a))


def rollaxis(x, axis, start=0):
    need_tensor("rollaxis", x)
    for v, nm in ((axis, "axis"), (start, "start")):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"integer argument expected, but got {type(v).__name__} for '{nm}'.")
    n = x.ndim
    if not -n <= axis < n:
        raise ValueError(f"'axis' {axis} is out of bounds for array of dimension {n}")
    if not -n <= start <= n:
        raise ValueError(f"'start' {start} is out of bounds for array of dimension {n}")
    return out(jnp.rollaxis(x._data, axis, start))


def swapaxes(x, axis1, axis2):
    need_tensor("swapaxes", x)
    a1, a2 = check_axis((axis1,), x.ndim)[0], check_axis((axis2,), x.ndim)[0]
    return out(jnp.swapaxes(x._data, a1, a2))


def moveaxis(a, source, destination):
    a = arr(a)
    src, dst = check_axis(source, a.ndim), check_axis(destination, a.ndim)
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    return out(jnp.moveaxis(a, src, dst))


def reshape(x, new_shape):
    need_tensor("reshape", x)
    shape = (new_shape,) if isinstance(new_shape, numbers.Integral) else tuple(new_shape)
    size = x._data.size
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if shape.count(-1) > 1 or (-1 not in shape and known != size) or (-1 in shape and (known == 0 or
                                                                                        size % known)):
        raise ValueError(f"proposed_shape {list(shape)} is invalid for input of size {size}")
    return out(jnp.reshape(x._data, shape))


def ravel(x):
    need_tensor("ravel", x)
    return out(jnp.ravel(x._data))


def _tensors(name, tup):
    if isinstance(tup, Tensor):
        return [tup._data[i] for i in range(tup.shape[0])]
    if not isinstance(tup, (list, tuple)):
        raise TypeError(f"For '{name}', the input must be a list or tuple of Tensors, but got "
                        f"{type(tup).__name__}.")
    return [arr(t) for t in tup]


def _concat_dtype(arrays):
    return jnp.result_type(*arrays) if arrays else jnp.float32


def concatenate(arrays, axis=0):
    if isinstance(arrays, Tensor):
        a = arrays._data
        if axis is None:
            return out(a.ravel())
        check_axis(axis, a.ndim)   # MindSpore checks the axis against the whole Tensor's rank
        # the Tensor is the tuple of its rows: ``axis`` counts the rows' dimensions, as NumPy
        return out(jnp.concatenate(list(a), axis=axis) if a.ndim > 1 else a)
    arrs = _tensors("concatenate", arrays)
    if axis is None:
        return out(jnp.concatenate([a.ravel() for a in arrs]))
    check_axis(axis, arrs[0].ndim)
    if len({a.ndim for a in arrs}) > 1:
        raise ValueError(f"For 'concatenate', the inputs must have the same rank, but got shapes "
                         f"{[list(a.shape) for a in arrs]}.")
    return _joined("concatenate", lambda xs: jnp.concatenate(xs, axis=axis), arrs)


def stack(arrays, axis=0):
    arrs = _tensors("stack", arrays)
    shapes = {a.shape for a in arrs}
    if len(shapes) > 1:
        raise ValueError("all input Tensors must have the same shape")
    check_axis(axis, arrs[0].ndim + 1)
    return out(jnp.stack(arrs, axis=axis))


def _joined(name, fn, arrays):
    try:
        return out(fn(arrays))
    except (TypeError, ValueError):
        raise ValueError(f"For '{name}', the input shapes {[list(a.shape) for a in arrays]} cannot be joined: "
                         "all dimensions but the joined one must match.") from None


def hstack(tup):
    return _joined("hstack", jnp.hstack, _tensors("hstack", tup))


def vstack(tup):
    return _joined("vstack", jnp.vstack, _tensors("vstack", tup))


def dstack(tup):
    return _joined("dstack", jnp.dstack, _tensors("dstack", tup))


def column_stack(tup):
    return _joined("column_stack", jnp.column_stack, _tensors("column_stack", tup))


def _atleast(fn, arys):
    res = [out(fn(arr(a))) for a in arys]
    return res[0] if len(res) == 1 else res


def atleast_1d(*arys):
    return _atleast(jnp.atleast_1d, arys)


def atleast_2d(*arys):
    return _atleast(jnp.atleast_2d, arys)


def atleast_3d(*arys):
    return _atleast(jnp.atleast_3d, arys)


def where(condition, x=None, y=None):
    """``x`` where ``condition`` else ``y`` (promoted); with only ``condition``, MindSpore's
    TypeError (it needs ``x`` and ``y``)."""
    c, xa, ya = arr(condition), arr(x), arr(y)
    dt = jnp.promote_types(xa.dtype, ya.dtype)
    try:
        shape = jnp.broadcast_shapes(c.shape, xa.shape, ya.shape)
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with shapes {c.shape} {xa.shape} "
                         f"{ya.shape}") from None
    return out(jnp.where(jnp.broadcast_to(c.astype(bool), shape), xa.astype(dt), ya.astype(dt)))


def unique(x, return_inverse=False):
    """Unique values in order of first appearance (MindSpore's CPU kernel; NumPy sorts)."""
    need_tensor("unique", x)
    a = _util.concrete(x._data, "unique").ravel()
    _, first, inverse = _np.unique(a, return_index=True, return_inverse=True)
    order = _np.argsort(first, kind="stable")
    rank = _np.empty_like(order)
    rank[order] = _np.arange(order.size)
    vals = out(jnp.asarray(a[_np.sort(first)]))
    if not return_inverse:
        return vals
    return vals, out(jnp.asarray(rank[inverse.ravel()].astype(_np.int32)))


def tile(a, reps):
    a = arr(a)
    if isinstance(reps, numbers.Integral):
        reps = (reps,)
    if not isinstance(reps, (tuple, list)) or not all(isinstance(r, numbers.Integral) for r in reps):
        raise ValueError(f"For 'tile', 'reps' must be an int or a tuple of ints, but got {reps!r}.")
    return out(jnp.tile(a, tuple(reps)))


def broadcast_to(array, shape):
    a = arr(array)
    shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    try:
        return out(jnp.broadcast_to(a, shape))
    except ValueError:
        raise ValueError(f"cannot broadcast with shape {a.shape} to {shape}") from None


def broadcast_arrays(*args):
    arrs = [arr(a) for a in args]
    shape = jnp.broadcast_shapes(*[a.shape for a in arrs])
    return [out(jnp.broadcast_to(a, shape)) for a in arrs]


def roll(a, shift, axis=None):
    a = arr(a)
    return out(jnp.roll(a, shift, axis))


def append(arr_, values, axis=None):
    a, v = arr(arr_), arr(values)
    if axis is None:
        return out(jnp.append(a.ravel(), v.ravel()))
    check_axis(axis, a.ndim)
    return _joined("append", lambda xs: jnp.append(xs[0], xs[1], axis), [a, v])


def _split_points(name, n, indices_or_sections):
    if isinstance(indices_or_sections, numbers.Integral) and not isinstance(indices_or_sections, bool):
        if indices_or_sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        if name != "array_split" and n % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
        k, m = divmod(n, indices_or_sections)
        sizes = [k + 1] * m + [k] * (indices_or_sections - m)
        return list(_np.cumsum(sizes)[:-1])
    if isinstance(indices_or_sections, (list, tuple)):
        return list(indices_or_sections)
    raise TypeError(f"For '{name}', 'indices_or_sections' must be int, list or tuple, but got "
                    f"{type(indices_or_sections).__name__}.")


def _split(name, x, indices_or_sections, axis):
    need_tensor(name, x)
    a = x._data
    ax = check_axis(axis, a.ndim)[0]
    pts = _split_points(name, a.shape[ax], indices_or_sections)
    parts = [out(p) for p in jnp.split(a, pts, axis=ax)]
    # MindSpore: a tuple for a number of sections, a list for split points
    return parts if isinstance(indices_or_sections, (list, tuple)) else tuple(parts)


def split(x, indices_or_sections, axis=0):
    return _split("split", x, indices_or_sections, axis)


def array_split(x, indices_or_sections, axis=0):
    return _split("array_split", x, indices_or_sections, axis)


def vsplit(x, indices_or_sections):
    return _split("vsplit", x, indices_or_sections, 0)


def hsplit(x, indices_or_sections):
    need_tensor("hsplit", x)
    return _split("hsplit", x, indices_or_sections, 1 if x.ndim > 1 else 0)


def dsplit(x, indices_or_sections):
    need_tensor("dsplit", x)
    if x.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _split("dsplit", x, indices_or_sections, 2)


def flip(m, axis=None):
    a = arr(m)
    return out(jnp.flip(a, None if axis is None else check_axis(axis, a.ndim)))


def flipud(m):
    return flip(m, 0)


def fliplr(m):
    return flip(m, 1)


def take_along_axis(arr_, indices, axis):
    need_tensor("take_along_axis", arr_, indices)
    a, i = arr_._data, indices._data
    if axis is None:
        a, axis = a.ravel(), 0
    if i.ndim != a.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    return out(jnp.take_along_axis(a, i, axis, mode="clip"))


def take(a, indices, axis=None, mode="clip"):
    need_tensor("take", a, indices)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"raise should be one of 'raise', 'wrap' or 'clip', but got {mode}")
    if axis is not None:
        axis = check_axis(axis, a.ndim)[0]
    return a.take(indices, axis, mode)   # 'raise' clips as well: it cannot raise on traced values


def repeat(a, repeats, axis=None):
    a = arr(a)
    if axis is None:
        a, axis = a.ravel(), 0
    else:
        axis = check_axis(axis, a.ndim)[0]
    if isinstance(repeats, (list, tuple)) and len(repeats) == 1:
        repeats = repeats[0]
    if isinstance(repeats, Tensor):
        repeats = _util.concrete(repeats._data, "repeat").tolist()
    return out(jnp.repeat(a, jnp.asarray(repeats) if isinstance(repeats, list) else repeats, axis,
                          total_repeat_length=None))


def rot90(a, k=1, axes=(0, 1)):
    need_tensor("rot90", a)
    if a.ndim < 2:
        raise ValueError("For 'rot90', the rank of input must be at least 2.")
    if len(axes) != 2 or check_axis(axes[0], a.ndim) == check_axis(axes[1], a.ndim):
        raise ValueError("len(axes) must be 2 and axes must be different.")
    return out(jnp.rot90(a._data, k, tuple(axes)))


def select(condlist, choicelist, default=0):
    conds = _tensors("select", condlist)
    choices = _tensors("select", choicelist)
    if len(conds) != len(choices):
        raise ValueError("list of cases must be same length as list of conditions")
    return out(jnp.select([c.astype(bool) for c in conds], choices, arr(default)))


def choose(a, choices, mode="clip"):
    idx = arr(a)
    ch = _tensors("choose", choices)
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(f"mode must be 'clip', 'wrap' or 'raise', but got {mode}")
    return out(jnp.choose(idx, ch, mode="clip" if mode == "raise" else mode))


def size(a, axis=None):
    a = arr(a)
    if axis is None:
        return int(a.size)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError("axis argument should be integer.")
    return int(a.shape[check_axis(axis, a.ndim)[0]])


def array_str(a):
    if not isinstance(a, Tensor):
        raise TypeError("Expect input to be tensor.")
    return a.__str__()


def apply_along_axis(func1d, axis, arr_, *args, **kwargs):
    need_tensor("apply_along_axis", arr_)
    ndim = arr_.ndim
    axis = check_axis(axis, ndim)[0]
    moved = jnp.moveaxis(arr_._data, axis, -1)
    lead = moved.shape[:-1]
    flat = moved.reshape((-1, moved.shape[-1]))
    res = [arr(func1d(out(flat[i]), *args, **kwargs)) for i in range(flat.shape[0])]
    stacked = jnp.stack(res).reshape(lead + res[0].shape)
    if res[0].ndim == 0:
        return out(stacked)
    return out(jnp.moveaxis(stacked.reshape(lead + res[0].shape), tuple(range(len(lead), stacked.ndim)),
                            tuple(range(axis, axis + res[0].ndim))))


def apply_over_axes(func, a, axes):
    a = arr(a)
    axes = (axes,) if isinstance(axes, int) else axes
    res = out(a)
    for ax in axes:
        r = func(res, ax)
        if isinstance(r, Tensor) and r.ndim == res.ndim - 1:
            r = out(jnp.expand_dims(r._data, ax))
        if not isinstance(r, Tensor) or r.ndim != res.ndim:
            raise ValueError("function is not returning a tensor of the correct shape")
        res = r
    return res


def piecewise(x, condlist, funclist, *args, **kw):
    """``select`` over the conditions with the values (or the results of the functions) in
    ``funclist``; one extra entry is the default. The result has the values' dtype."""
    xt = out(arr(x))
    if isinstance(condlist, bool) or isinstance(condlist, Tensor) and condlist.ndim == xt.ndim:
        condlist = [condlist]   # one condition (a Python bool for a scalar ``x``, as NumPy)
    choices = list(funclist)
    if choices and callable(choices[0]):
        choices = [f(xt, *args, **kw) for f in choices]
    n1, n2 = len(condlist), len(choices)
    default = 0
    if n1 + 1 == n2:
        default = choices.pop()
    elif n1 != n2:
        raise ValueError(f"the number of choices should be either equal to conditions or {n1 + 1}")
    return select(list(condlist), choices, default)


def unravel_index(indices, shape, order="C"):
    idx = arr(indices)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if order == "F":
        res = jnp.unravel_index(idx, shape[::-1])[::-1]
    else:
        res = jnp.unravel_index(idx, shape)
    return tuple(out(r) for r in res)


def argwhere(a):
    a = _util.concrete(arr(a), "argwhere")
    return out(jnp.asarray(_np.argwhere(a).astype(_np.int64)))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    if not isinstance(assume_unique, bool) or not isinstance(return_indices, bool):
        raise TypeError("assume_unique or return_indices is not bool type.")
    a = _util.concrete(arr(ar1), "intersect1d")
    b = _util.concrete(arr(ar2), "intersect1d")
    res = _np.intersect1d(a, b, assume_unique=assume_unique, return_indices=return_indices)
    if return_indices:
        return out(jnp.asarray(res[0])), out(jnp.asarray(res[1].astype(_np.int32))), \
            out(jnp.asarray(res[2].astype(_np.int32)))
    return out(jnp.asarray(res))
