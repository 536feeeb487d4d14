"""``mindspore.ops.composite``: higher-order functions."""
from .._core.grad import GradOperation, grad, value_and_grad  # noqa: F401
from ._impl.composite import (HyperMap, Map, MultitypeFuncGraph, add_flags, constexpr, isconstant,  # noqa: F401
                              mixed_precision_cast, partial, vmap)
from ._impl.array import (arange, broadcast_to, full, linspace, meshgrid, ones, repeat_elements,  # noqa: F401
                          sequence_mask, tensor_split, zeros)
from ._impl.random import (bernoulli, multinomial, normal, randn, random_categorical, shuffle,  # noqa: F401
                           standard_normal, uniform)
from .operations import Partial  # noqa: F401,E402
