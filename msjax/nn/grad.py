"""``nn.Jvp`` and ``nn.Vjp``: MindSpore's deprecated Cells for Jacobian-vector and
vector-Jacobian products (``mindspore/nn/grad/cell_grad.py``), on msjax's transform
core: ``Jvp`` pushes the tangents forward with ``jax.jvp`` (MindSpore differentiates
a gradient twice and gets the same numbers), ``Vjp`` is ``GradOperation`` with
``sens_param=True``.

Both take the inputs followed by one vector ``v`` (a tuple of Tensors when the inputs
or, for ``Vjp``, the outputs are several) and return ``(outputs, product)``."""
from __future__ import annotations

from .._core import nograd
from .._core.grad import GradOperation, JvpFunction
from .._core.tensor import Tensor
from .cell import Cell

__all__ = ["Jvp", "Vjp"]


class Jvp(Cell):
    """``nn.Jvp(fn)``: ``Jvp(fn)(*inputs, v)`` -> ``(fn(*inputs), J @ v)``."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn
        self._jvp = JvpFunction(fn, "Jvp")

    def construct(self, *args):
        _check_structure("Jvp", "inputs", args[:-1], args[-1])
        return self._jvp(args[:-1], args[-1])


class Vjp(Cell):
    """``nn.Vjp(fn)``: ``Vjp(fn)(*inputs, v)`` -> ``(fn(*inputs), v @ J)``: one gradient
    for one input, a tuple of them for several."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn
        self.grad = GradOperation(get_all=True, sens_param=True)
        self.grad_single_value = GradOperation(sens_param=True)

    def construct(self, *args):
        with nograd.suspended():    # MindSpore's Vjp Cell computes its gradients inside _no_grad() too
            front_input = args[:-1]
            output = self.fn(*front_input)
            _check_structure("Vjp", "outputs", output, args[-1])
            grad = self.grad_single_value if len(front_input) == 1 else self.grad
            return output, grad(self.fn)(*args)


def _check_structure(who, what, values, v):
    """MindSpore's Jvp/Vjp Cells compile ``v`` against the inputs (Jvp) or the outputs
    (Vjp): one Tensor for one value, a tuple of as many Tensors for several; anything
    else fails to type-join (``TypeError``), a lone Tensor wrapped in a tuple included."""
    several = isinstance(values, (tuple, list)) and len(values) != 1
    if several:
        ok = isinstance(v, (tuple, list)) and len(v) == len(values)
    else:
        ok = isinstance(v, Tensor)
    if not ok:
        want = f"a tuple of {len(values)} Tensors" if several else "a Tensor"
        got = f"a {type(v).__name__} of length {len(v)}" if isinstance(v, (tuple, list)) else type(v).__name__
        raise TypeError(f"For '{who}', 'v' must have the structure of the {what}: {want}, but got {got}.")
