"""``mindspore.Symbol`` (``mindspore.graph.symbol``): the symbolic information of one dimension of
a dynamic-shape input (``Tensor(shape=[Symbol(divisor=8), 1, 28, 28], dtype=...)`` with
``Cell.set_inputs``).

As MindSpore 2.10's: arguments checked with its errors, ``to_dict()``/``str`` as its. MindSpore uses
the information to optimise the graph and does not check the inputs against it (its CPU build runs
``Symbol(divisor=8, remainder=1)`` dimensions of 1); msjax compiles each concrete shape, so a Symbol
dimension is an unknown (-1) dimension."""
from __future__ import annotations

__all__ = ["Symbol"]


class Symbol:
    """``Symbol(max=0, min=1, divisor=1, remainder=0, unique=False)``: a dimension ``divisor * N +
    remainder`` in ``[min, max]``; ``unique`` dimensions share one length."""

    def __init__(self, max=0, min=1, divisor=1, remainder=0, unique=False, **kwargs):  # noqa: A002 (MindSpore's names)
        for arg, v in (("max", max), ("min", min), ("divisor", divisor), ("remainder", remainder)):
            if not isinstance(v, int):
                raise TypeError(f"For 'Symbol', the argument '{arg}' must be int, but got {type(v)}")
        if not isinstance(unique, bool):
            raise TypeError(f"For 'Symbol', the argument 'unique' must be bool, but got {type(unique)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range '[0, {divisor})', "
                             f"but got {remainder}")
        self.max, self.min, self.divisor, self.remainder, self.unique = max, min, divisor, remainder, unique
        self.id = id(self)

    def __str__(self):
        return str(self.to_dict())

    def to_dict(self):
        """The symbolic information MindSpore passes to its compiler."""
        res = {}
        if self.max > self.min:
            res["max"] = self.max
        if self.min > self.divisor + self.remainder:   # the symbol is d * N + r with N >= 1
            res["min"] = self.min
        if self.divisor != 1:
            res["divisor"] = self.divisor
        if self.remainder != 0:
            res["remainder"] = self.remainder
        if self.unique:
            res["id"] = self.id
        return res
