"""Sparse Cells: ``SparseToDense`` (a COOTensor to a dense Tensor) and ``SparseTensorDenseMatmul``."""
from __future__ import annotations

import jax.numpy as jnp

from ..._core.tensor import Tensor, wrap
from ..cell import Cell

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]


def _scatter(indices, values, shape):
    idx = indices._data
    return jnp.zeros(tuple(shape), values._data.dtype).at[tuple(idx[:, i] for i in range(idx.shape[1]))].add(
        values._data)


class SparseToDense(Cell):
    """``nn.SparseToDense()``: ``construct(coo_tensor)`` -> the dense Tensor (duplicates are summed)."""

    def construct(self, coo_tensor):
        for n in ("indices", "values"):
            if not isinstance(getattr(coo_tensor, n, None), Tensor):
                raise TypeError(f"For 'SparseToDense', the 'sparse_tensor.{n}' must be a Tensor.")
        shape = coo_tensor.shape
        if not isinstance(shape, tuple):
            raise TypeError("For 'SparseToDense', the 'sparse_tensor.shape' must be a tuple.")
        return wrap(_scatter(coo_tensor.indices, coo_tensor.values, shape))


class SparseTensorDenseMatmul(Cell):
    """``nn.SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)``: ``construct(indices, values,
    sparse_shape, dense)`` multiplies the 2-D sparse matrix by ``dense``."""

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        self.adj_st = adjoint_st
        self.adj_dt = adjoint_dt

    def construct(self, indices, values, sparse_shape, dense):
        a = _scatter(indices, values, tuple(sparse_shape))
        b = dense._data
        if self.adj_st:
            a = a.T
        if self.adj_dt:
            b = b.T
        if a.shape[1] != b.shape[0]:
            raise ValueError(f"For 'SparseTensorDenseMatmul', the inner dimensions must match, but got "
                             f"{tuple(a.shape)} and {tuple(b.shape)}.")
        return wrap(jnp.matmul(a, b))
