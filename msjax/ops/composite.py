"""``mindspore.ops.composite``: higher-order functions."""
from .._core.grad import GradOperation, grad, value_and_grad  # noqa: F401
from ._impl.composite import (HyperMap, Map, MultitypeFuncGraph, add_flags, constexpr, isconstant,  # noqa: F401
                              mixed_precision_cast, partial, vmap)
from ._impl.array import broadcast_to, meshgrid, repeat_elements, sequence_mask, tensor_split  # noqa: F401
from ._impl.creation import arange, full, linspace, ones, zeros  # noqa: F401
from ._impl.clip import clip_by_global_norm  # noqa: F401
from ._impl.linalg import matmul  # noqa: F401
from ._impl.math import clip_by_value  # noqa: F401
from ._impl.random import (bernoulli, multinomial, normal, randn, random_categorical, shuffle,  # noqa: F401
                           standard_normal, uniform)
from .operations import Partial  # noqa: F401,E402
from ._impl.scalar import ones_like, tail, zeros_like  # noqa: F401,E402  (structure-wise, Python numbers too)
