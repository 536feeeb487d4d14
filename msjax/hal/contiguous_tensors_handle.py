"""``mindspore.hal.contiguous_tensors_handle``: one flat, contiguous view of a list of Tensors
(``combine_tensor_list_contiguous``, ``ContiguousTensorsHandle``), as MindSpore 2.10's CPU build lays it
out (no alignment padding between the Tensors, element type the first Tensor's).

Difference: MindSpore moves the Tensors into one memory block and its slices are views of it; msjax
reads the Tensors' current values when a slice is taken, so a slice is a new Tensor (writing to it does
not change the Tensors)."""
from __future__ import annotations

import jax.numpy as jnp

from .._core.tensor import Tensor, wrap

__all__ = ["combine_tensor_list_contiguous", "ContiguousTensorsHandle"]


def combine_tensor_list_contiguous(tensor_list, enable_mem_align=True):
    """``combine_tensor_list_contiguous(tensor_list, enable_mem_align=True)``: a ContiguousTensorsHandle."""
    return ContiguousTensorsHandle(tensor_list, enable_mem_align)


class ContiguousTensorsHandle:
    """``ContiguousTensorsHandle(tensor_list, enable_mem_align=True)``: ``handle[i]``/``handle[a:b]`` slice the
    Tensors' elements laid end to end; ``slice_by_tensor_index(start, end)`` gives Tensors ``start..end-1``."""

    def __init__(self, tensor_list, enable_mem_align=True):
        if not isinstance(tensor_list, (list, tuple)) or not all(isinstance(t, Tensor) for t in tensor_list):
            raise TypeError("input list must be [Tensor, ...].")
        if not isinstance(enable_mem_align, bool):
            raise TypeError("enable_mem_align must be bool.")
        self.tensor_list = tuple(tensor_list)
        self.before_padding_sizes = [t.size * t.itemsize for t in self.tensor_list]
        self.after_padding_sizes = list(self.before_padding_sizes)
        self.total_padding_size = sum(self.after_padding_sizes)
        self.handle_shape = self.total_padding_size / self.tensor_list[0].itemsize
        self.enable_mem_align = enable_mem_align

    def _flat(self, tensors):
        dtype = self.tensor_list[0]._data.dtype
        return jnp.concatenate([jnp.ravel(t._data).astype(dtype) for t in tensors])

    def __getitem__(self, item):
        start, end = 0, int(self.handle_shape)
        if isinstance(item, slice):
            start = start if item.start is None else item.start
            end = end if item.stop is None else item.stop
            if not isinstance(start, int) or not isinstance(end, int):
                raise TypeError("slice input error.")
            if start < 0 or end > self.handle_shape or start >= end:
                raise ValueError("slice input error.")
            return wrap(self._flat(self.tensor_list)[start:end])
        if not isinstance(item, int):
            raise TypeError("slice input must be 1.index -> int.2.[start: end: step] -> [int: int: int].")
        if item < 0 or item > self.handle_shape:
            raise ValueError("slice input is out of tensor_list size.")
        return wrap(self._flat(self.tensor_list)[item:item + 1])

    def __str__(self):
        lines = [f"Handle total size: {self.total_padding_size}"]
        lines += [f"Tensor[{i}]: {t.asnumpy()}" for i, t in enumerate(self.tensor_list)]
        return "\n".join(lines) + "\n"

    def slice_by_tensor_index(self, start=None, end=None):
        """Tensors ``start`` to ``end - 1`` laid end to end (``start`` alone: that one Tensor)."""
        index_start, index_end = 0, len(self.tensor_list)
        if start is not None:
            index_start = start
            if end is None:
                index_end = index_start + 1
        if end is not None:
            index_end = end
        if not isinstance(index_start, int) or not isinstance(index_end, int):
            raise TypeError("slice input error.")
        if index_start < 0 or index_end > len(self.tensor_list) or index_start >= index_end:
            raise ValueError("slice input error.")
        return wrap(self._flat(self.tensor_list[index_start:index_end]))
