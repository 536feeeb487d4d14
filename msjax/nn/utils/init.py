"""``nn.utils.no_init_parameters``: MindSpore's context manager for skipping the
initialisation of Parameters that a checkpoint will overwrite.

Like MindSpore it sets the class attribute ``Parameter.init_param`` to ``False``
inside the block and back to ``True`` after it. Difference: msjax has no lazy
Parameter initialisation, so the Parameters created inside are initialised as
usual (the memory MindSpore saves is not saved); loading a checkpoint or
``set_data`` then replaces the values, and ``Cell.init_parameters_data()`` has
nothing left to do."""
from __future__ import annotations

from contextlib import contextmanager

from ..._core.parameter import Parameter

__all__ = ["no_init_parameters"]


@contextmanager
def no_init_parameters():
    Parameter.init_param = False
    try:
        yield
    finally:
        Parameter.init_param = True
