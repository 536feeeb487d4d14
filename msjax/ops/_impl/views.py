"""The layout MindSpore's view ops give their output, for the in-place ops that refuse views.

msjax's view ops (``ops.operations.TransposeView``) return new Tensors; the output keeps the
layout MindSpore's view would have (shape and strides over the input's memory) so that the
in-place ops MindSpore refuses on a view refuse here too:

* PyNative: ``Assign``/``AssignAdd``/``AssignSub`` on any view output raise
  ``RuntimeError: Check view and inplace failed! Not support view input for inplace op Assign.
  Got input with storage_info:TensorStorageInfo(...)`` (MindSpore 2.10);
* compiled (``ms.jit``, GRAPH_MODE): only a non-contiguous view is refused (``Default/Assign-op0
  is an inplace op and does not support view input. ...``); a contiguous one (the identity
  permutation, or one that only moves axes of size 1) is written. MindSpore numbers the op
  among the nodes of its kind made in the process; msjax counts the op's calls traced in compiled
  functions (a function traced again counts again).
"""
from __future__ import annotations

from ..._core import state

_LAYOUT = "_ms_view_layout"    # Tensor attribute: (shape, strides, ori_shape, ori_strides)


def _c_strides(shape):
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(int(d), 1)
    return tuple(reversed(strides))


def _contiguous(shape, strides):
    """MindSpore's (and torch's) contiguity: C order once the axes of size 1 are left out."""
    step = 1
    for d, s in zip(reversed(shape), reversed(strides)):
        if d != 1:
            if s != step:
                return False
            step *= d
    return True


def mark_permuted(out, source, perm):
    """``out`` is ``source`` with its axes permuted by ``perm``, as a view of ``source``'s memory."""
    shape, strides, ori_shape, ori_strides = getattr(source, _LAYOUT, None) or (
        tuple(source.shape), _c_strides(source.shape), tuple(source.shape), _c_strides(source.shape))
    perm = [int(p) % max(len(shape), 1) for p in perm]
    setattr(out, _LAYOUT, (tuple(shape[p] for p in perm), tuple(strides[p] for p in perm), ori_shape, ori_strides))
    return out


def _dims(v):
    return "[" + ", ".join(str(d) for d in v) + "]"


_OP_NUMBERS = {}   # op name -> calls traced in compiled functions so far in this process


def _op_number(op_name):
    """The node number MindSpore gives this op in a graph: its count among the graph nodes of
    that kind made so far in the process."""
    n = _OP_NUMBERS[op_name] = _OP_NUMBERS.get(op_name, -1) + 1
    return n


def check_inplace_input(variable, op_name):
    """MindSpore's error for an in-place op ``op_name`` writing into a view output."""
    layout = getattr(variable, _LAYOUT, None)
    compiled = state.compiled()
    n = _op_number(op_name) if compiled else 0
    if layout is None:
        return
    shape, strides, ori_shape, ori_strides = layout
    contiguous = _contiguous(shape, strides)
    if not compiled:
        raise RuntimeError(f"Check view and inplace failed! Not support view input for inplace op {op_name}. Got "
                           f"input with storage_info:TensorStorageInfo(shape={_dims(shape)}  strides={_dims(strides)}"
                           f"  storage_offset=0  ori_shape={_dims(ori_shape)}  ori_strides={_dims(ori_strides)}  "
                           f"is_contiguous={int(contiguous)})")
    if contiguous and _size(shape) == _size(ori_shape):
        return
    raise RuntimeError(f"Default/{op_name}-op{n} is an inplace op and does not support view input. Please use other "
                       "inplace op that support view input instead, or convert the view input to continuous input in "
                       "advance. The input index is 0")


def _size(shape):
    n = 1
    for d in shape:
        n *= int(d)
    return n
