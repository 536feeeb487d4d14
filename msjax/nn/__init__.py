"""``mindspore.nn``: Cells, layers and losses."""
from .cell import Cell
from .layer.activation import ReLU, Sigmoid, Tanh, get_activation
from .layer.basic import Dense, Flatten, Identity
from .layer.container import CellList, SequentialCell
from .loss.loss import LossBase, MSELoss

__all__ = ["Cell", "Dense", "Flatten", "Identity", "SequentialCell", "CellList", "ReLU", "Sigmoid", "Tanh",
           "get_activation", "LossBase", "MSELoss"]
