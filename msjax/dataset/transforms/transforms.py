"""General data transforms (``mindspore.dataset.transforms``): type casts, one-hot
labels, composition and random selection of transforms. Plain callables on numpy
arrays, usable in ``dataset.map`` or eagerly."""
from __future__ import annotations

import numbers
import random
import threading

import numpy as np

from .. import _opstreams, _stdrandom as _std
from .validators import check_random_transform_ops

__all__ = ["Compose", "TypeCast", "OneHot", "Duplicate", "Fill", "PadEnd", "Concatenate", "Slice", "Mask",
           "RandomApply", "RandomChoice", "RandomOrder", "Unique", "Relational", "PyTensorOperation",
           "TensorOperation"]


def _np_dtype(data_type):
    """A numpy dtype from a MindSpore dtype, numpy dtype/type or string."""
    if isinstance(data_type, np.dtype):
        return data_type
    if isinstance(data_type, str):
        return np.dtype(data_type)
    if isinstance(data_type, type) and issubclass(data_type, np.generic):
        return np.dtype(data_type)
    from ..._core import dtype as mstype
    try:
        return np.dtype(mstype.to_np(data_type))
    except Exception:  # noqa: BLE001
        raise TypeError(f"Argument data_type with value {data_type} is not of type [<class "
                        "'mindspore._c_expression.typing.Type'>, <class 'numpy.dtype'>].") from None


def _arr(x):
    if hasattr(x, "asnumpy") and hasattr(x, "dtype"):
        return x.asnumpy()
    return np.asarray(x)


class TensorOperation:
    """Base of the transforms (a callable on numpy arrays)."""

    def __call__(self, *args):
        if len(args) == 1:
            return self._apply(args[0])
        return tuple(self._apply(a) for a in args)

    def _apply(self, x):
        raise NotImplementedError


PyTensorOperation = TensorOperation


class TypeCast(TensorOperation):
    """``TypeCast(data_type)``: cast to a MindSpore or numpy dtype."""

    def __init__(self, data_type):
        self.data_type = _np_dtype(data_type)

    def _apply(self, x):
        return _arr(x).astype(self.data_type)


class OneHot(TensorOperation):
    """``OneHot(num_classes, smoothing_rate=0.0)``: labels to one-hot vectors (the
    label's dtype; float64 with smoothing)."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        if not isinstance(num_classes, int) or isinstance(num_classes, bool):
            raise TypeError(f"Argument num_classes with value {num_classes} is not of type [<class 'int'>].")
        if num_classes <= 0:
            raise ValueError("Input num_classes is not within the required interval of [1, 2147483647].")
        if not isinstance(smoothing_rate, numbers.Real) or not 0 <= smoothing_rate <= 1:
            raise ValueError("Input smoothing_rate is not within the required interval of [0.0, 1.0].")
        self.num_classes = num_classes
        self.smoothing_rate = smoothing_rate

    def _apply(self, x):
        x = _arr(x)
        if not np.issubdtype(x.dtype, np.integer):
            raise RuntimeError(f"OneHot: the input should be integer labels, but got {x.dtype}.")
        if x.size and (x.min() < 0 or x.max() >= self.num_classes):
            raise RuntimeError(f"OneHot: the label {int(x.max())} is out of range [0, {self.num_classes}).")
        eye = np.eye(self.num_classes, dtype=x.dtype)[x]
        if self.smoothing_rate:
            s = self.smoothing_rate
            return eye.astype(np.float64) * (1 - s) + s / self.num_classes
        return eye


class Compose(TensorOperation):
    """``Compose(transforms)``: apply transforms in order."""

    @check_random_transform_ops
    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, *args):
        for t in self.transforms:
            out = t(*args)
            args = out if isinstance(out, tuple) else (out,)
        return args[0] if len(args) == 1 else args

    @staticmethod
    def reduce(operations):
        return operations


class Duplicate(TensorOperation):
    """``Duplicate()``: the input and a copy of it (two columns)."""

    def __call__(self, x):
        x = _arr(x)
        return x, x.copy()


class Fill(TensorOperation):
    """``Fill(fill_value)``: an array of the input's shape and dtype filled with the value."""

    def __init__(self, fill_value):
        self.fill_value = fill_value

    def _apply(self, x):
        x = _arr(x)
        return np.full(x.shape, self.fill_value, dtype=x.dtype)


class PadEnd(TensorOperation):
    """``PadEnd(pad_shape, pad_value=None)``: pad at the end of each axis up to ``pad_shape``."""

    def __init__(self, pad_shape, pad_value=None):
        self.pad_shape = list(pad_shape)
        self.pad_value = pad_value

    def _apply(self, x):
        x = _arr(x)
        if len(self.pad_shape) != x.ndim:
            raise RuntimeError(f"PadEnd: pad_shape {self.pad_shape} does not match the input rank {x.ndim}.")
        widths = []
        for d, target in enumerate(self.pad_shape):
            if target is None or target < x.shape[d]:
                target = x.shape[d]
            widths.append((0, target - x.shape[d]))
        sl = tuple(slice(0, t if t is not None else s) for t, s in zip(self.pad_shape, x.shape))
        value = 0 if self.pad_value is None else self.pad_value
        if x.dtype.kind in "US" and self.pad_value is None:
            value = ""
        return np.pad(x, widths, constant_values=value)[sl]


class Concatenate(TensorOperation):
    """``Concatenate(axis=0, prepend=None, append=None)`` of a 1-D input."""

    def __init__(self, axis=0, prepend=None, append=None):
        self.axis, self.prepend, self.append = axis, prepend, append

    def _apply(self, x):
        parts = []
        if self.prepend is not None:
            parts.append(_arr(self.prepend))
        parts.append(_arr(x))
        if self.append is not None:
            parts.append(_arr(self.append))
        return np.concatenate(parts, axis=self.axis)


class Slice(TensorOperation):
    """``Slice(*slices)``: index the input with the given slices/indices."""

    def __init__(self, *slices):
        self.slices = slices

    def _apply(self, x):
        idx = tuple(s if not isinstance(s, list) else np.asarray(s) for s in self.slices)
        return _arr(x)[idx if idx else Ellipsis]


class Relational:
    EQ = "eq"
    NE = "ne"
    GT = "gt"
    GE = "ge"
    LT = "lt"
    LE = "le"


class Mask(TensorOperation):
    """``Mask(operator, constant, dtype=bool)``: elementwise comparison with a constant."""

    def __init__(self, operator, constant, dtype=np.bool_):
        self.operator, self.constant, self.dtype = operator, constant, _np_dtype(dtype)

    def _apply(self, x):
        x = _arr(x)
        op = {"eq": np.equal, "ne": np.not_equal, "gt": np.greater, "ge": np.greater_equal,
              "lt": np.less, "le": np.less_equal}[getattr(self.operator, "value", self.operator)]
        return op(x, self.constant).astype(self.dtype)


class Unique(TensorOperation):
    """``Unique()``: unique values, the index of each input element, and counts."""

    def __call__(self, x):
        x = _arr(x)
        vals, first, inv, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
        order = np.argsort(first)
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return vals[order], rank[inv].astype(np.int32), counts[order].astype(np.int32)


_random_lock = threading.Lock()


class RandomApply(TensorOperation):
    """``RandomApply(transforms, prob=0.5)``: apply all transforms, with probability ``prob``."""

    _holds_operations = True      # the held operations keep their own seeding (_opstreams)

    @check_random_transform_ops
    def __init__(self, transforms, prob=0.5):
        self.compose = Compose(transforms)
        self.prob = prob

    def __call__(self, *args):
        # MindSpore: a uniform_real_distribution<double>(0, 1) draw, applied when <= prob
        if _std.canonical(_opstreams.stream(self)) <= self.prob:
            return self.compose(*args)
        return args[0] if len(args) == 1 else args


class RandomChoice(TensorOperation):
    """``RandomChoice(transforms)``: apply one transform chosen at random."""

    _holds_operations = True      # the held operations keep their own seeding (_opstreams)

    @check_random_transform_ops
    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, *args):
        pick = _std.uniform_int(_opstreams.stream(self), 0, len(self.transforms) - 1)
        return self.transforms[pick](*args)


class RandomOrder(TensorOperation):
    """``RandomOrder(transforms)``: apply all transforms in a random order. As MindSpore's (a
    Python operation): ``random.shuffle`` of the list itself with Python's ``random`` (seeded by
    ``set_seed``), the order kept for the next call, and each held operation called as an eager
    call (its engine restarts from the seed every row). With several map workers MindSpore's
    workers share Python's ``random``, so the orders depend on its thread scheduling."""

    @check_random_transform_ops
    def __init__(self, transforms):
        self.transforms = transforms if isinstance(transforms, list) else list(transforms)

    def __call__(self, *args):
        with _random_lock:
            random.shuffle(self.transforms)
            order = list(self.transforms)
        with _opstreams.eager():
            return Compose(order)(*args)
