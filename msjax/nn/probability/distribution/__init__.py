"""``mindspore.nn.probability.distribution``: the ``Distribution`` base and
``Uniform``. MindSpore's other distributions (Normal, Bernoulli, ...) are tree
names msjax does not implement yet: they raise msjax's "does not support" error."""
from .distribution import Distribution
from .uniform import Uniform

__all__ = ["Distribution", "Uniform"]
