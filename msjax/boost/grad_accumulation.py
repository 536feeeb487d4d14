"""``mindspore.boost.GradientAccumulation(max_accumulation_step, optimizer)``.

A Cell called as ``loss = grad_accumulation(loss, grads)`` inside a training
step (after the gradients are computed, in place of ``optimizer(grads)``). Each
call adds ``grads / max_accumulation_step`` to accumulators (Parameters named
``grad_accumulation.<weight name>``, zeros at first) and counts the call in the
Int32 Parameter ``accumulation_step``; the call that brings the count to
``max_accumulation_step`` runs ``optimizer`` on the accumulated mean, and resets
count and accumulators to zero. It returns ``loss`` unchanged.

Everything is Parameters, so the same Cell works in PYNATIVE_MODE (the optimizer
runs only on the N-th call) and inside a compiled training step (GRAPH_MODE, a
``TrainOneStepCell`` subclass): there the optimizer's writes are kept or dropped
with one ``lax.cond`` on the count (``nn.optim.optimizer.step_if``), so the step
stays one compiled function.

``gradient_accumulation_op`` (``(step, accumulator, grad)``: add ``grad / step``)
and ``gradient_clear_op`` (``(accumulator,)``: zero it) are MindSpore's
MultitypeFuncGraphs for ``HyperMap``.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .._core import dtype as mstype
from .._core.parameter import Parameter
from .._core.tensor import Tensor, to_array, wrap
from ..nn.cell import Cell
from ..nn.optim.optimizer import step_if
from ..ops import composite as C
from ..ops import functional as F
from ..ops import operations as P

__all__ = ["GradientAccumulation", "gradient_accumulation_op", "gradient_clear_op"]

gradient_accumulation_op = C.MultitypeFuncGraph("gradient_accumulation_op")
gradient_clear_op = C.MultitypeFuncGraph("gradient_clear_op")


@gradient_accumulation_op.register("Int64", "Tensor", "Tensor")
def _accumulate(accumulation_step, cumulative_grad, grad):
    """``cumulative_grad += grad / accumulation_step`` (in place)."""
    P.AssignAdd()(cumulative_grad, grad / accumulation_step)
    return cumulative_grad


@gradient_clear_op.register("Tensor")
def _clear(cumulative_grad):
    """``cumulative_grad = 0`` (in place)."""
    return F.assign(cumulative_grad, F.zeros_like(cumulative_grad))


class GradientAccumulation(Cell):
    """Accumulate ``max_accumulation_step`` calls' gradients, then step ``optimizer``
    with their mean."""

    def __init__(self, max_accumulation_step, optimizer):
        super().__init__()
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.hyper_map = C.HyperMap()
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(Tensor(np.zeros((), np.int32), mstype.int32), name="accumulation_step")

    def construct(self, loss, grads):
        accumulators = self._grad_accumulation
        loss = F.depend(loss, self.hyper_map(F.partial(gradient_accumulation_op, self._max_accumulation_step),
                                             accumulators, grads))
        count = to_array(self._accumulation_step) + 1
        update = count >= self._max_accumulation_step
        step_if(self.optimizer, wrap(update), accumulators)
        # after an update: count and accumulators back to zero
        F.assign(self._accumulation_step, wrap(jnp.where(update, 0, count).astype(jnp.int32)))
        for acc in accumulators:
            value = to_array(acc)
            F.assign(acc, wrap(jnp.where(update, jnp.zeros_like(value), value)))
        return loss
