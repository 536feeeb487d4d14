"""``mindspore.nn.probability.distribution``: the ``Distribution`` base and
``Uniform`` and ``Normal``. MindSpore's other distributions (Bernoulli, ...) are tree
names msjax does not implement yet: they raise msjax's "does not support" error."""
from .distribution import Distribution
from .normal import Normal
from .uniform import Uniform

__all__ = ["Distribution", "Normal", "Uniform"]
