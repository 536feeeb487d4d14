"""``mindspore.ops.operations._sequence_ops``: MindSpore's Primitives on tuples and lists
(``SequenceSlice``, ``SequenceAdd``, ``SequenceMul``, ``TupleToTensor``...).

In MindSpore they are the kernels of dynamic-length sequences (``mutable(seq, True)``) in compiled
graphs. msjax traces Python with every sequence known (``mutable`` returns its input), so each is
the Python operation itself, on Python numbers as on Tensors; a gradient with respect to a Python
number is 0, as for any other Python number msjax traces."""
from __future__ import annotations

from ..._checkparam import check_value_type
from ..._core import dtype as mstype
from ..._core.registry import Primitive, op
from ..._core.tensor import Tensor
from .array import concat as _concat, stack as _stack, unstack as _unstack
from .math import addn as _addn
from .scalar import zeros_like as _zeros_like
from .tensor_to_tuple import TensorToTuple

__all__ = ["SequenceSlice", "SequenceSliceSetItem", "InSequence", "SequenceAdd", "SequenceAddOffset",
           "SequenceCount", "SequenceIndex", "SequenceMul", "SequenceZerosLike", "SequenceMax", "SequenceMin",
           "SequenceAddN", "SequenceStack", "SequenceUnstack", "TupleToTensor", "ListToTensor", "TensorToTuple",
           "TensorToList", "TensorToScalar", "ListAppend", "ListInsert", "make_range", "sequence_len", "shape_mul",
           "tuple_equal", "list_equal", "tuple_greater_than", "tuple_greater_equal", "list_greater_than",
           "list_greater_equal", "tuple_lt", "list_lt", "tuple_le", "list_le"]


def _seq(prim, x, name="sequence", kinds=(tuple, list)):
    if not isinstance(x, kinds):
        what = " or ".join(k.__name__ for k in kinds)
        raise TypeError(f"For '{prim}', the input '{name}' must be {what}, but got {type(x).__name__}.")
    return x


class _Python(Primitive):
    """A Primitive without constructor arguments whose call is a Python operation."""

    def __init__(self):
        super().__init__()
        self._attrs = {}


class SequenceSlice(_Python):
    """``SequenceSlice()(seq, start, stop, step)``: ``seq[start:stop:step]``."""

    def __call__(self, sequence, start, stop, step):
        return _seq(self.name, sequence, "seq")[start:stop:step]


class SequenceSliceSetItem(_Python):
    """``SequenceSliceSetItem()(seq, target, start, stop, step)``: a copy of ``seq`` whose slice
    ``[start:stop:step]`` is ``target`` (Python's rules: an extended slice takes as many items as it has)."""

    def __call__(self, sequence, target, start, stop, step):
        out = list(_seq(self.name, sequence, "seq"))
        out[start:stop:step] = list(_seq(self.name, target, "target"))
        return type(sequence)(out)


class InSequence(_Python):
    """``InSequence()(element, seq)``: ``element in seq``."""

    def __call__(self, target, sequence):
        return target in _seq(self.name, sequence, "input_data")


class SequenceAdd(_Python):
    """``SequenceAdd()(x, y)``: ``x + y``, both tuples or both lists."""

    def __call__(self, x, y):
        _seq(self.name, x, "input_1")
        kinds = [next((k.__name__ for k in (tuple, list) if isinstance(v, k)), type(v).__name__) for v in (x, y)]
        if kinds[0] != kinds[1]:    # a mutable() tuple is a tuple
            raise TypeError(f"For '{self.name}', the inputs 'input_1' and 'input_2' must be both tuple or both list, "
                            f"but got {kinds[0]} and {kinds[1]}.")
        return x + y


class SequenceAddOffset(_Python):
    """``SequenceAddOffset()(x, y)``: where ``x`` and ``y`` start in ``x + y``: ``(0, len(x))``."""

    def __call__(self, x, y):
        _seq(self.name, y, "input_1")
        return (0, len(_seq(self.name, x, "input_0")))


class SequenceCount(_Python):
    """``SequenceCount()(seq, target)``: ``seq.count(target)``."""

    def __call__(self, sequence, target):
        return _seq(self.name, sequence).count(target)


class SequenceIndex(_Python):
    """``SequenceIndex()(seq, target, start=None, end=None)``: ``seq.index(target, start, end)``
    (``ValueError`` when absent)."""

    def __call__(self, sequence, target, start=None, end=None):
        _seq(self.name, sequence)
        start = 0 if start is None else start
        end = len(sequence) if end is None else end
        return sequence.index(target, start, end)


class SequenceMul(_Python):
    """``SequenceMul()(seq, n)``: ``seq * n``."""

    def __call__(self, sequence, scalar):
        return _seq(self.name, sequence) * scalar


class SequenceZerosLike(_Python):
    """``SequenceZerosLike()(seq)``: zeros in the structure and types of ``seq``."""

    def __call__(self, sequence):
        return _zeros_like(_seq(self.name, sequence))


class SequenceMax(_Python):
    """``SequenceMax()(seq)``: ``max(seq)``."""

    def __call__(self, sequence):
        return max(_seq(self.name, sequence))


class SequenceMin(_Python):
    """``SequenceMin()(seq)``: ``min(seq)``."""

    def __call__(self, sequence):
        return min(_seq(self.name, sequence))


class SequenceAddN(_Python):
    """``SequenceAddN()(seq)``: the sum of the items: ``ops.addn`` for Tensors, ``sum`` for numbers."""

    def __call__(self, sequence):
        _seq(self.name, sequence, "inputs")
        if sequence and all(isinstance(v, Tensor) for v in sequence):
            return _addn(tuple(sequence))
        return sum(sequence)


class SequenceStack(Primitive):
    """``SequenceStack(axis=0)(seq)``: ``ops.stack(seq, axis)``."""

    def __init__(self, axis=0):
        check_value_type("axis", axis, [int], "SequenceStack")
        super().__init__()
        self.axis, self._attrs = axis, {}

    def __call__(self, sequence):
        return _stack(tuple(_seq(self.name, sequence, "x")), self.axis)


class SequenceUnstack(Primitive):
    """``SequenceUnstack(axis=0, num=None)(x)``: ``ops.unstack(x, axis)``, a tuple of Tensors."""

    def __init__(self, axis=0, num=None):
        check_value_type("axis", axis, [int], "SequenceUnstack")
        if num is not None:
            check_value_type("num", num, [int], "SequenceUnstack")
        super().__init__()
        self.axis, self.num, self._attrs = axis, num, {}

    def __call__(self, x):
        return tuple(_unstack(x, self.axis))


class TupleToTensor(_Python):
    """``TupleToTensor()(x, dtype)``: ``Tensor(x, dtype)`` for a tuple (or range) of numbers."""

    def __call__(self, x, dtype=mstype.float32):
        if isinstance(x, range):
            x = tuple(x)
        if isinstance(x, tuple) and None not in x:
            return Tensor(x, dtype=dtype)
        return None


class ListToTensor(_Python):
    """``ListToTensor()(x, dtype)``: ``Tensor(x, dtype)`` for a list of numbers."""

    def __call__(self, x, dtype=mstype.float32):
        if isinstance(x, list) and None not in x:
            return Tensor(x, dtype=dtype)
        raise RuntimeError(f"input must be list, but got {x}")


class TensorToList(TensorToTuple):
    """``TensorToList()(x)``: the values of a 0-D or 1-D Tensor as a list (``None`` for other inputs)."""

    def __call__(self, x):
        out = super().__call__(x)
        return None if out is None else list(out)


class TensorToScalar(_Python):
    """``TensorToScalar()(x)``: the Python number of a Tensor of shape ``()`` or ``(1,)``
    (``None`` for other inputs)."""

    def __call__(self, x):
        if isinstance(x, Tensor) and x.shape in ((), (1,)):
            return x.item()
        return None


class ListAppend(_Python):
    """``ListAppend()(lst, target)``: a new list, ``lst`` (a list or tuple) with ``target`` at the end."""

    def __call__(self, input_data, target):
        return list(_seq(self.name, input_data, "input_data")) + [target]


class ListInsert(_Python):
    """``ListInsert()(lst, index, target)``: a new list, ``lst`` (a list or tuple) with ``target`` inserted
    at ``index``."""

    def __call__(self, input_data, index, target):
        out = list(_seq(self.name, input_data, "input_data"))
        out.insert(index, target)
        return out


class make_range(_Python):  # noqa: N801  (MindSpore's name)
    """``make_range()(start, limit, delta)``: ``range(start, limit, delta)``."""

    def __call__(self, start, limit, delta):
        return range(start, limit, delta)


class sequence_len(_Python):  # noqa: N801
    """``sequence_len()(seq)``: ``len(seq)``."""

    def __call__(self, x):
        return len(_seq(self.name, x))


class shape_mul(_Python):  # noqa: N801
    """``shape_mul()(shape)``: the product of a tuple's items (``ValueError`` for anything else,
    as MindSpore's Primitive)."""

    def __call__(self, input_data):
        if not isinstance(input_data, tuple):
            raise ValueError("For primitive [shape_mul], input must be tuple")
        out = 1
        for x in input_data:
            out *= x
        return out


def _comparison(name, fn, kind, doc):
    def __call__(self, x, y):
        return fn(x, y)
    return type(name, (_Python,), {"__call__": __call__, "__module__": __name__,
                                   "__doc__": f"``{name}()(x, y)``: ``x {doc} y`` on {kind}s."})


tuple_equal = _comparison("tuple_equal", lambda x, y: x == y, "tuple", "==")
list_equal = _comparison("list_equal", lambda x, y: x == y, "list", "==")
tuple_greater_than = _comparison("tuple_greater_than", lambda x, y: x > y, "tuple", ">")
tuple_greater_equal = _comparison("tuple_greater_equal", lambda x, y: x >= y, "tuple", ">=")
list_greater_than = _comparison("list_greater_than", lambda x, y: x > y, "list", ">")
list_greater_equal = _comparison("list_greater_equal", lambda x, y: x >= y, "list", ">=")
tuple_lt = _comparison("tuple_lt", lambda x, y: x < y, "tuple", "<")
list_lt = _comparison("list_lt", lambda x, y: x < y, "list", "<")
tuple_le = _comparison("tuple_le", lambda x, y: x <= y, "tuple", "<=")
list_le = _comparison("list_le", lambda x, y: x <= y, "list", "<=")


def _abstract_sequence(x):
    """MindSpore's name of a sequence's abstract in its messages (``List[Int64*3]``)."""
    kind = "Tuple" if isinstance(x, tuple) else "List" if isinstance(x, list) else type(x).__name__
    names = {type(v) for v in x} if isinstance(x, (tuple, list)) else set()
    item = {bool: "Bool", int: "Int64", float: "Float32"}.get(next(iter(names))) if len(names) == 1 else None
    return f"{kind}[{item}*{len(x)}]" if item else kind


def _setitem(prim, kind, sequence, index, value):
    if not isinstance(sequence, kind):
        raise TypeError(f"For '{prim}', input[0] should be {kind.__name__.capitalize()}, "
                        f"but got {_abstract_sequence(sequence)}.")
    if not isinstance(index, int) or isinstance(index, bool):
        got = {float: "a Float32 number", bool: "a Bool number"}.get(type(index), type(index).__name__)
        raise TypeError(f"{prim} evaluator index should be an int64 number, but got {got}.")
    n = len(sequence)
    if not -n <= index < n:
        raise IndexError(f"{prim} evaluator the index: {index} to set out of range: [{-n},{n - 1}].")
    out = list(sequence)
    out[index] = value
    return kind(out)


def tuple_setitem(sequence, index, value):
    """``F.tuple_setitem(t, i, v)``: a new tuple, ``t`` with item ``i`` set to ``v`` (MindSpore's
    ``TypeError``/``IndexError`` for a non-tuple, a non-int index or one out of range)."""
    return _setitem("tuple_setitem", tuple, sequence, index, value)


def list_setitem(sequence, index, value):
    """``F.list_setitem(l, i, v)``: a new list, ``l`` with item ``i`` set to ``v`` (``l`` is not changed)."""
    return _setitem("list_setitem", list, sequence, index, value)


@op("sequence_concat", primitive="SequenceConcat", prim_args=("axis",), family="array")
def sequence_concat(x, axis=0):
    """``gen_ops_def.sequence_concat(x, axis=0)`` / ``SequenceConcat(axis)(x)``: ``ops.concat`` of a tuple
    or list of Tensors (MindSpore's kernel for dynamic-length sequences)."""
    return _concat(tuple(_seq("SequenceConcat", x, "x")), axis)
