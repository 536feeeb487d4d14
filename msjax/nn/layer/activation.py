"""Activation Cells and ``get_activation``."""
from __future__ import annotations

from ..cell import Cell

__all__ = ["ReLU", "Sigmoid", "Tanh", "get_activation"]


class ReLU(Cell):
    def construct(self, x):
        from ...ops import relu
        return relu(x)


class Sigmoid(Cell):
    def construct(self, x):
        from ...ops import sigmoid
        return sigmoid(x)


class Tanh(Cell):
    def construct(self, x):
        from ...ops import tanh
        return tanh(x)


_ACTIVATIONS = {"relu": ReLU, "sigmoid": Sigmoid, "tanh": Tanh}


def get_activation(name, prim_name=None):
    if name is None:
        return None
    if name not in _ACTIVATIONS:
        raise KeyError(f"Unknown activation type '{name}'")
    return _ACTIVATIONS[name]()
