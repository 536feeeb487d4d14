"""``Cell.set_inputs``: declared input signatures, dynamic dimensions included
(``Tensor(shape=[None, 3], dtype=...)``), checked against each call's inputs with
MindSpore 2.10's GRAPH_MODE errors. JAX compiles each concrete shape once anyway
(msjax's cache is per shape), so the declaration only validates.

Differences from MindSpore: MindSpore's PyNative does not check the inputs against
the declaration; msjax checks them in both modes, as its GRAPH_MODE does."""
from __future__ import annotations

import inspect

from .._core.tensor import Tensor

__all__ = ["declare", "check"]


def _positional_names(construct):
    try:
        params = inspect.signature(construct).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def declare(cell, inputs, kwargs):
    """The declared inputs: a tuple (full mode), or a dict position -> Tensor
    (incremental mode, from keyword arguments)."""
    if kwargs and inputs:
        raise ValueError(f"For Cell, set_inputs should only set inputs or kwargs(inputs: {inputs}, "
                         f"kwargs: {kwargs})!")
    if not kwargs:
        return tuple(inputs)
    names = _positional_names(cell.construct)
    for k in kwargs:
        if k not in names:
            raise ValueError(f"For dict mode, valid key is {names}, but got {k}!")
    return {names.index(k): v for k, v in kwargs.items()}


def _check_one(i, expected, actual):
    if not isinstance(expected, Tensor):
        return
    if not isinstance(actual, Tensor):
        raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {i}th type should be Tensor, "
                        f"but got {type(actual).__name__}!")
    if expected.dtype != actual.dtype:
        raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {i}th type should be "
                        f"Tensor[{expected.dtype}], but got Tensor[{actual.dtype}]!")
    shape, got = tuple(expected.shape), tuple(actual.shape)
    if shape == (-2,):
        return
    if len(shape) != len(got):
        raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the dims of {i}th input must be the same "
                         f"as expected, but got expected: {len(shape)}, and input: {len(got)}!")
    for e, a in zip(shape, got):
        if e != -1 and e != a:
            raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the shape of {i}th input must be the "
                             f"same as expected, but got expected: {e}, and input: {a}!")


def check(declared, args, kwargs):
    """Raise MindSpore's error when the call's inputs do not fit the declaration."""
    if isinstance(declared, dict):
        for pos, expected in declared.items():
            if pos < len(args):
                _check_one(pos + 1, expected, args[pos])
        return
    n = len(args) + len(kwargs)
    if n != len(declared):
        raise ValueError(f"For set_inputs, the length of input must be equal to expected one, but got expected: "
                         f"{len(declared)} and input: {n}!")
    for i, (expected, actual) in enumerate(zip(declared, list(args) + list(kwargs.values()))):
        _check_one(i + 1, expected, actual)


