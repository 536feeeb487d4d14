"""Gradient accumulation on ``optax.MultiSteps`` (an msjax extension).

``nn.GradAccumulationOptimizer(optimizer, every_k)`` wraps an msjax optimizer:
each call accumulates the gradients (``optax.MultiSteps`` keeps their running
mean), and every ``every_k``-th call runs the wrapped optimizer once with that
mean and resets it. ``every_k`` micro-batches of size B therefore give the update
of one batch of size ``k * B`` for a loss that is a mean over the batch.

The MultiSteps state (``mini_step``, ``gradient_step``, ``acc_grads``) lives in
Parameters like every optimizer state, and the wrapped optimizer's writes are
selected with ``jnp.where`` on the "k-th call" flag, so a training step with this
optimizer stays one compiled function.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import optax

from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, wrap
from ..optim.optimizer import Optimizer, _arr, compiled

__all__ = ["GradAccumulationOptimizer"]


class GradAccumulationOptimizer(Optimizer):
    """Accumulate gradients over ``every_k`` calls, then step ``optimizer`` with their mean."""

    def __init__(self, optimizer, every_k):
        if not isinstance(optimizer, Optimizer):
            raise TypeError("For 'GradAccumulationOptimizer', 'optimizer' must be an nn.Optimizer, "
                            f"but got {type(optimizer).__name__}.")
        if isinstance(every_k, bool) or not isinstance(every_k, int) or every_k < 1:
            raise ValueError(f"For 'GradAccumulationOptimizer', 'every_k' must be a positive int, but got {every_k}.")
        super().__init__(0.0, list(optimizer.parameters))
        self.optimizer = optimizer
        self.every_k = every_k
        self.mini_step = Parameter(Tensor(np.zeros((), np.int32)), name="mini_step")
        self.gradient_step = Parameter(Tensor(np.zeros((), np.int32)), name="gradient_step")
        self.acc_grads = self._parameters.clone(prefix="acc_grads", init="zeros")
        self._multi = optax.MultiSteps(optax.identity(), every_k_schedule=every_k)
        self._bind_state(self._multi)

    @compiled
    def construct(self, gradients):
        params = tuple(p._data for p in self._parameters)
        old = self._read_state()
        mean_grads, new = self._multi.update(tuple(_arr(g) for g in gradients), old, params)
        emit = old.mini_step == self.every_k - 1
        before = [(p, p._data) for p in self.optimizer.get_parameters()]
        self.optimizer(tuple(wrap(g) for g in mean_grads))
        for p, value in before:
            updated = p._data
            if updated is not value:
                p._data = jnp.where(emit, updated, value)
        self._write_state(old, new)
        return wrap(jnp.asarray(True))
