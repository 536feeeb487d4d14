"""``TensorCopySlices`` (``ops.operations._inner_ops``): ``x`` with the slice ``begin:end:strides``
replaced by ``value``, as MindSpore's CPU kernel.

MindSpore's kernel copies the slice's element count from ``value``'s buffer in row-major order
(``value`` of another shape with as many or more elements fills the slice from its first
elements) and accepts unit strides only. Difference: a ``value`` with fewer elements than the
slice makes MindSpore read past its buffer (undefined values); here it is broadcast to the slice
when it can be. The gradient of ``value`` has ``value``'s shape (MindSpore's has the slice's).
"""
from __future__ import annotations

import numpy as np
import jax.numpy as jnp

from ..._core.registry import op
from ._util import arr, wrap
from .math import _dn, _need_tensor


def _ints(name, v):
    if not isinstance(v, (tuple, list)) or not all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in v):
        raise TypeError(f"For 'TensorCopySlices', the '{name}' must be a tuple of int, but got {v!r}.")
    return [int(i) for i in v]


@op("tensor_copy_slices", primitive="TensorCopySlices", family="array")
def tensor_copy_slices(x, value, begin, end, strides):
    """``TensorCopySlices()(x, value, begin, end, strides)``: a copy of ``x`` whose slice
    ``x[begin:end:strides]`` holds ``value`` (the leading axes ``begin`` names; the rest whole)."""
    _need_tensor("TensorCopySlices", "x", x)
    _need_tensor("TensorCopySlices", "value", value)
    a, v = arr(x), arr(value)
    if a.dtype != v.dtype:
        raise TypeError(f"Select CPU operator[TensorCopySlices] fail! Unsupported data type! The inputs are "
                        f"x: Tensor[{_dn(a)}] and value: Tensor[{_dn(v)}]; they must have one dtype.")
    begin, end, strides = _ints("begin", begin), _ints("end", end), _ints("strides", strides)
    slices = []
    for b, e, s, dim in zip(begin, end, strides, a.shape):
        b, e = (b + dim if b < 0 else b), (e + dim if e < 0 else e)
        if not 0 <= b < e <= dim:
            raise RuntimeError(f"Invalid slice: ({b}, {e} ,{s})")
        slices.append(slice(b, e, s))
    if any(s != 1 for s in strides):
        raise RuntimeError(f"The element in step only support 1, but got:[const vector]{{{', '.join(map(str, strides))}}}")
    region = tuple(sl.stop - sl.start for sl in slices) + a.shape[len(slices):]
    count = int(np.prod(region))
    if v.size >= count:
        v = jnp.ravel(v)[:count].reshape(region)
    else:
        v = jnp.broadcast_to(v, region)
    return wrap(a.at[tuple(slices)].set(v))
