"""The memory layout MindSpore's PyNative view ops give their outputs.

MindSpore's view ops (``transpose``, ``permute``, ``T``, ``swapaxes``, ``moveaxis``,
``broadcast_to``...) return a Tensor sharing its input's memory: its shape, strides and storage
offset (in elements) over that memory. ``Tensor.is_contiguous()``, ``stride()`` and
``storage_offset()`` report them, ``contiguous()`` makes a dense copy, and ``Assign`` refuses a view
(``ops/_impl/views.py``). msjax's arrays are always dense; a view op's output keeps only the layout
MindSpore would report, as a Tensor attribute. The layout is computed by applying the same view to a
NumPy array over no memory (NumPy's views follow the same stride rules). Only concrete (PyNative)
outputs are marked: in a compiled function MindSpore's ``is_contiguous()`` is True. Marked so far: the
ops that permute axes (``ops/_impl/array.py``, ``Tensor.T``/``mT``); slicing, ``narrow``,
``broadcast_to``, ``split`` and ``diagonal`` outputs are dense here (MindSpore: views). ``Tensor(view)``
and ``Parameter.set_data(view)`` give dense Tensors (MindSpore keeps the view: ``Assign`` then refuses
the Tensor or Parameter).
"""
from __future__ import annotations

import numpy as np

from ..._core import provided, state

ATTR = "_ms_view_layout"    # Tensor attribute: (shape, strides, offset, ori_shape, ori_strides)


def c_strides(shape):
    """Row-major strides in elements (MindSpore's: a dimension of size 0 counts as 1)."""
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(int(d), 1)
    return tuple(reversed(strides))


def layout(t):
    """``(shape, strides, offset, ori_shape, ori_strides)`` of a Tensor: its view layout, or dense."""
    got = t.__dict__.get(ATTR)
    if got is not None:
        return got
    shape = tuple(int(d) for d in t.shape)
    return shape, c_strides(shape), 0, shape, c_strides(shape)


def is_contiguous(shape, strides):
    """MindSpore's (and torch's) contiguity: C order once the axes of size 1 are left out."""
    step = 1
    for d, s in zip(reversed(shape), reversed(strides)):
        if d != 1:
            if s != step:
                return False
            step *= d
    return True


class _NoMemory:
    """An array interface over an address that is never read: NumPy computes views' strides."""

    _ADDRESS = 1 << 40

    def __init__(self, shape, strides, offset):
        self.__array_interface__ = {"shape": tuple(shape), "typestr": "|u1", "version": 3,
                                    "data": (self._ADDRESS + int(offset), True), "strides": tuple(strides)}


def mark(out, source, view, always=False):
    """``out`` is ``view(source)`` (``view`` a NumPy view function, e.g. ``lambda a: a.T``) as a view
    of ``source``'s memory: keep the layout MindSpore gives it. ``always`` marks traced outputs too
    (``TransposeView``, whose graph refuses in-place writes into it)."""
    if not hasattr(source, "_data") or not hasattr(out, "_data"):
        return out
    if not always and state.is_tracer(out._data):
        return out
    shape, strides, offset, ori_shape, ori_strides = layout(source)
    if 0 in shape:
        return out
    got = view(np.asarray(_NoMemory(shape, strides, offset)))
    out.__dict__[ATTR] = (tuple(got.shape), tuple(int(s) for s in got.strides),
                          got.__array_interface__["data"][0] - _NoMemory._ADDRESS, ori_shape, ori_strides)
    return out


provided.provide("view_layout", mark)     # Tensor.T and Tensor.mT
