"""``mindspore.nn.utils``: ``no_init_parameters``."""
from .init import no_init_parameters

__all__ = ["no_init_parameters"]
