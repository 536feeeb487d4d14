"""``mindspore.ops.composite``: higher-order functions."""
from .._core.grad import GradOperation, grad, value_and_grad  # noqa: F401
