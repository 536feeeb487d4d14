"""``mindspore.mint.nn.layer``: the mint layers MindSpore defines in its own modules (activation, basic,
conv, normalization, padding, pooling)."""
from .activation import *  # noqa: F401,F403
from .basic import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from .padding import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from . import activation, basic, conv, normalization, padding, pooling


__all__ = activation.__all__ + basic.__all__ + conv.__all__ + normalization.__all__ + padding.__all__ + pooling.__all__
