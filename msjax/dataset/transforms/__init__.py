"""``mindspore.dataset.transforms``: general transforms (TypeCast, OneHot, Compose, ...)."""
from . import transforms, validators
from .transforms import (Compose, Concatenate, Duplicate, Fill, Mask, OneHot, PadEnd, PyTensorOperation,
                         RandomApply, RandomChoice, RandomOrder, Relational, Slice, TensorOperation, TypeCast,
                         Unique)

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd", "RandomApply",
           "RandomChoice", "RandomOrder", "Relational", "Slice", "TypeCast", "Unique"]
