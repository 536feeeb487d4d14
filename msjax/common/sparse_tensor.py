"""``COOTensor``, ``CSRTensor``, ``RowTensor``: sparse containers.

They hold their index and value Tensors and convert to dense (``to_dense``) and
between formats. Sparse kernels are not emulated: ops on these containers go
through their dense form. They are pytrees, so they pass through JAX transforms.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from .._core import dtype as mstype
from .._core.tensor import Tensor, to_array, wrap
from . import _sparse_math

__all__ = ["COOTensor", "CSRTensor", "RowTensorInner", "RowTensor"]


def _index(t):
    """An index Tensor as the sparse constructors hold it: no gradient flows back through it
    (MindSpore's ``MakeCOOTensor``/``MakeCSRTensor`` bprops give the index inputs zeros)."""
    a = to_array(t)
    return wrap(jax.lax.stop_gradient(a) if isinstance(a, jax.core.Tracer) else a)


def _shape(shape, who):
    if not isinstance(shape, (tuple, list)) or not all(isinstance(d, int) and d > 0 for d in shape):
        raise TypeError(f"For '{who}', the 'shape' must be a tuple of positive ints, but got {shape}.")
    return tuple(shape)


class COOTensor:
    """``COOTensor(indices, values, shape)``: ``indices`` is (N, ndim) Int."""

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        self._indices = _index(indices)
        self._values = wrap(to_array(values))
        self._shape = _shape(shape, "COOTensor")
        if self._indices.ndim != 2 or self._indices.shape[1] != len(self._shape):
            raise ValueError(f"For 'COOTensor', the 'indices' must be 2-D with shape (N, {len(self._shape)}), "
                             f"but got {self._indices.shape}.")
        if self._values.ndim != 1 or self._values.shape[0] != self._indices.shape[0]:
            raise ValueError("For 'COOTensor', the 'values' must be 1-D with as many entries as 'indices' rows.")

    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._values.dtype)
    ndim = property(lambda self: len(self._shape))
    size = property(lambda self: self._values.size)
    itemsize = property(lambda self: self._values.itemsize)

    def to_dense(self):
        idx = tuple(self._indices._data[:, i] for i in range(len(self._shape)))
        dense = jnp.zeros(self._shape, self._values._data.dtype).at[idx].add(self._values._data)
        return wrap(dense)

    def astype(self, dtype):
        return COOTensor(self._indices, self._values.astype(dtype), self._shape)

    def abs(self):
        return COOTensor(self._indices, abs(self._values), self._shape)

    def to_tuple(self):
        return self._indices, self._values, self._shape

    def coalesce(self):
        return _sparse_math.coalesce(self)

    def add(self, other, thresh):
        return _sparse_math.coo_add(self, other, thresh)

    def __neg__(self):
        return COOTensor(self._indices, -self._values, self._shape)

    __add__ = __radd__ = lambda self, other: _sparse_math.coo_binary(self, other, "add")
    __sub__ = lambda self, other: _sparse_math.coo_binary(self, other, "sub")
    __rsub__ = lambda self, other: _sparse_math.coo_binary(self, other, "rsub")
    __mul__ = __rmul__ = lambda self, other: _sparse_math.coo_binary(self, other, "mul")
    __truediv__ = lambda self, other: _sparse_math.coo_binary(self, other, "div")

    def to_csr(self):
        if len(self._shape) != 2:
            raise ValueError("For 'COOTensor.to_csr', only 2-D COOTensors can be converted.")
        if self._indices._data.dtype != jnp.int32:
            raise TypeError(f"The dtype of row_indices only support Int32 for now, but got {self._indices.dtype}.")
        rows = jnp.asarray(self._indices._data[:, 0])
        order = jnp.lexsort((self._indices._data[:, 1], rows))
        counts = jnp.bincount(rows, length=self._shape[0])
        indptr = jnp.concatenate([jnp.zeros(1, rows.dtype), jnp.cumsum(counts).astype(rows.dtype)])
        return CSRTensor(wrap(indptr.astype(self._indices._data.dtype)),
                         wrap(self._indices._data[order, 1]), wrap(self._values._data[order]), self._shape)

    def __repr__(self):
        return f"COOTensor(shape={list(self._shape)}, dtype={self.dtype}, indices={self._indices!r}, " \
               f"values={self._values!r})"


class CSRTensor:
    """``CSRTensor(indptr, indices, values, shape)`` for 2-D data."""

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            indptr, indices, values, shape = csr_tensor.indptr, csr_tensor.indices, csr_tensor.values, \
                csr_tensor.shape
        self._indptr = _index(indptr)
        self._indices = _index(indices)
        self._values = wrap(to_array(values))
        self._shape = _shape(shape, "CSRTensor")
        if len(self._shape) < 2:
            raise ValueError("For 'CSRTensor', the 'shape' must have at least 2 dimensions.")
        if self._indptr.shape[0] != self._shape[0] + 1:
            raise ValueError(f"For 'CSRTensor', 'indptr' must have shape[0] + 1 = {self._shape[0] + 1} entries, "
                             f"but got {self._indptr.shape[0]}.")

    indptr = property(lambda self: self._indptr)
    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._values.dtype)
    ndim = property(lambda self: len(self._shape))
    size = property(lambda self: self._values.size)
    itemsize = property(lambda self: self._values.itemsize)

    def _rows(self):
        counts = jnp.diff(self._indptr._data)
        return jnp.repeat(jnp.arange(self._shape[0], dtype=self._indptr._data.dtype), counts,
                          total_repeat_length=self._indices.shape[0])

    def to_dense(self):
        dense = jnp.zeros(self._shape, self._values._data.dtype)
        return wrap(dense.at[self._rows(), self._indices._data].add(self._values._data))

    def to_coo(self):
        idx = jnp.stack([self._rows(), self._indices._data.astype(self._indptr._data.dtype)], axis=1)
        return COOTensor(wrap(idx), self._values, self._shape)

    def to_tuple(self):
        return self._indptr, self._indices, self._values, self._shape

    def astype(self, dtype):
        return CSRTensor(self._indptr, self._indices, self._values.astype(dtype), self._shape)

    def abs(self):
        return CSRTensor(self._indptr, self._indices, abs(self._values), self._shape)

    def __neg__(self):
        return CSRTensor(self._indptr, self._indices, -self._values, self._shape)

    def __repr__(self):
        return f"CSRTensor(shape={list(self._shape)}, dtype={self.dtype}, indptr={self._indptr!r}, " \
               f"indices={self._indices!r}, values={self._values!r})"


class RowTensorInner:
    """``RowTensorInner(indices, values, dense_shape)``: rows ``indices`` of a dense
    tensor hold ``values``; other rows are zero (MindSpore's base of :class:`RowTensor`,
    "for MindSpore developers only"; as MindSpore's, without ``to_dense``)."""

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        if row_tensor is not None:
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        self._indices = wrap(to_array(indices))
        self._values = wrap(to_array(values))
        self._shape = _shape(shape, "RowTensor")

    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    dense_shape = property(lambda self: self._shape)


class RowTensor(RowTensorInner):
    """``RowTensor(indices, values, dense_shape)``: rows ``indices`` of a dense
    tensor hold ``values``; other rows are zero."""

    def to_dense(self):
        dense = jnp.zeros(self._shape, self._values._data.dtype)
        return wrap(dense.at[self._indices._data].add(self._values._data))


_Tensor = Tensor
for _cls, _fields in ((COOTensor, ("_indices", "_values")), (CSRTensor, ("_indptr", "_indices", "_values")),
                      (RowTensorInner, ("_indices", "_values")), (RowTensor, ("_indices", "_values"))):
    def _flatten(obj, _fields=_fields):     # arrays as children: a tree_map over the leaves sees arrays
        return tuple(getattr(obj, f)._data for f in _fields), obj._shape

    def _unflatten(shape, children, _cls=_cls, _fields=_fields):
        obj = object.__new__(_cls)
        for f, c in zip(_fields, children):
            setattr(obj, f, c if isinstance(c, _Tensor) else wrap(c))
        obj._shape = shape
        return obj

    jax.tree_util.register_pytree_node(_cls, _flatten, _unflatten)
    _cls._pytree_output = True    # a compiled function returns it with its Tensors traced (transforms.to_arrays)

Tensor.to_coo = lambda self: _sparse_math.dense_to_coo(self, COOTensor)   # Tensor.to_coo(), Tensor.to_csr()
Tensor.to_csr = lambda self: _sparse_math.dense_to_csr(self, CSRTensor)

del mstype
