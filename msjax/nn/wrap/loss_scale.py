"""Loss scaling for training (``mindspore.nn.wrap.loss_scale``):
``TrainOneStepWithLossScaleCell`` and the scale update cells.

The overflow check is a plain all-finite test of the (unscaled, reduced)
gradients on every backend (MindSpore's CPU build cannot run its NPU float-status
ops). A step whose gradients are not all finite is skipped: parameters and
optimizer state keep their exact values. In a compiled step the optimizer runs
and every Parameter it writes is selected back to its old value when the step
overflowed (one ``lax.cond`` over all of them, bit-identical); in PYNATIVE_MODE the optimizer is
simply not called. Unlike optax's ``apply_if_finite`` this never gives up and
applies a non-finite update.

``DynamicLossScaleUpdateCell`` follows MindSpore's rule exactly: on overflow the
scale becomes ``max(scale / factor, 1)`` and ``last_overflow_iter = cur_iter``;
when ``cur_iter - last_overflow_iter >= scale_window`` (and no overflow) the scale
is multiplied by ``factor`` and ``last_overflow_iter = cur_iter``; ``cur_iter``
counts every call (it starts at 1).
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import context, state
from ...communication import _runtime as distributed
from ..._core.transforms import StatefulFunction, to_tensors
from ...common._cell_cache import cell_function
from ..._core import dtype as mstype
from ...parallel._context import ParallelMode
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, to_array, wrap
from ..cell import Cell
from ..optim.optimizer import step_if
from .cell_wrapper import TrainOneStepCell

__all__ = ["TrainOneStepWithLossScaleCell", "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell"]


def _arr(x):
    return x._data if isinstance(x, Tensor) else to_array(x)


def _all_finite(grads):
    ok = jnp.array(True)
    for g in jax.tree_util.tree_leaves(grads):
        ok = jnp.logical_and(ok, jnp.all(jnp.isfinite(g)))
    return ok


class DynamicLossScaleUpdateCell(Cell):
    """``nn.DynamicLossScaleUpdateCell(loss_scale_value, scale_factor, scale_window)``.

    ``construct(loss_scale, overflow)`` updates the ``loss_scale`` Parameter in place and returns ``overflow``.
    """

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        self.scale_window = Tensor(scale_window, dtype=mstype.int32)
        self.scale_factor = Tensor(scale_factor, dtype=mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, dtype=mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, dtype=mstype.int32), name="last_overflow_iterator_step")
        self.minimum_loss_scale = Tensor(1.0, dtype=mstype.float32)

    def get_loss_scale(self):
        return self.loss_scale_value

    def __call__(self, loss_scale, overflow):
        # A top-level GRAPH_MODE call: the loss-scale Parameter is an argument, which
        # msjax's compiled functions receive by value; bind it so that it is threaded
        # through the compiled function as state and written back.
        if context.is_graph_mode() and not state.frames and isinstance(loss_scale, Parameter):
            fn = cell_function(self, f"update_{id(loss_scale)}",
                               lambda: StatefulFunction(functools.partial(self.construct, loss_scale)))
            return to_tensors(fn(overflow))
        return super().__call__(loss_scale, overflow)

    def construct(self, loss_scale, overflow):
        overflow_cond = _arr(overflow).astype(jnp.bool_)
        scale = loss_scale._data
        factor = self.scale_factor._data.astype(scale.dtype)
        on_overflow = jnp.where(overflow_cond, jnp.maximum(scale * (1 / factor),
                                                           self.minimum_loss_scale._data.astype(scale.dtype)), scale)
        cur = self.cur_iter._data
        last = self.last_overflow_iter._data
        should_inc = self.scale_window._data <= cur - last
        last_iter_cond = jnp.logical_or(overflow_cond, should_inc)
        self.last_overflow_iter._data = jnp.where(last_iter_cond, cur, last).astype(last.dtype)
        update_scale_cond = jnp.logical_and(should_inc, jnp.logical_not(overflow_cond))
        new_scale = jnp.where(update_scale_cond, on_overflow * factor, on_overflow)
        loss_scale._data = new_scale.astype(scale.dtype).reshape(scale.shape)
        self.cur_iter._data = cur + 1
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """``nn.FixedLossScaleUpdateCell(loss_scale_value)``: the scale never changes."""

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """``nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense)``: returns
    ``(loss, overflow, loss_scale)``; ``scale_sense`` is a Tensor of shape () or (1,)
    or an update cell (``DynamicLossScaleUpdateCell``/``FixedLossScaleUpdateCell``)."""

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.hyper_map = _hyper_map()
        self.base = Tensor(1, mstype.float32)
        self.base0 = Tensor(0, mstype.int32)
        self.is_distributed = self.parallel_mode != ParallelMode.STAND_ALONE
        self.gpu_target = context.get_context("device_target") == "GPU"
        self.loss_scaling_manager = None
        self.enable_allfinite = True
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=mstype.float32),
                                         name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape in ((1,), ()):
                self.scale_sense = Parameter(scale_sense, name="scale_sense")
            else:
                raise ValueError("For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or "
                                 f"(), but got {scale_sense.shape}.")
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor, but "
                            f"got 'scale_sense' type: {type(scale_sense)}.")
        self.enable_tuple_broaden = True

    def construct(self, *inputs):
        scaling_sens = self.scale_sense
        status = Tensor(np.zeros((8,), np.int32))
        loss, grads = self._loss_and_grads(scaling_sens, *inputs)
        s = _arr(scaling_sens)
        grads = tuple(wrap(_arr(g) * (1.0 / s).astype(_arr(g).dtype)) for g in grads)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        self._update_unless_overflow(overflow, grads)
        return loss, cond, scaling_sens

    def _update_unless_overflow(self, overflow, grads):
        """``if not overflow: self.optimizer(grads)``, also inside a compiled step
        (one ``lax.cond`` keeps or drops everything the optimizer wrote)."""
        step_if(self.optimizer, jnp.logical_not(jnp.all(_arr(overflow))), grads)

    def set_sense_scale(self, sens):
        if self.scale_sense is not None and isinstance(sens, Tensor):
            self.scale_sense.set_data(sens)
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be Tensor, "
                            f"but got {type(sens)}")

    def start_overflow_check(self, pre_cond, compute_input):
        """Start the overflow check: returns ``(status, compute_input)`` (``status`` is
        a placeholder; msjax checks the gradients themselves for inf/NaN)."""
        return Tensor(np.zeros((8,), np.int32)), compute_input

    def get_overflow_status(self, status, compute_output):
        """True (a Bool scalar Tensor) when any gradient element is inf or NaN."""
        leaves = [_arr(t) for t in jax.tree_util.tree_leaves(
            compute_output, is_leaf=lambda x: isinstance(x, Tensor))]
        flag = jnp.logical_not(_all_finite(leaves))
        if self.is_distributed:
            # as MindSpore: the overflow flags of all ranks are all-reduced, so every rank
            # takes the same decision
            flag = distributed.all_reduce(flag.astype(jnp.float32), "max") >= 1
        return wrap(flag)

    def process_loss_scale(self, overflow):
        """Update the loss scale with the update cell, if any; returns the overflow flag."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow


def _hyper_map():
    try:
        from ... import ops
        return ops.HyperMap()
    except (ImportError, AttributeError):
        from ..optim.optimizer import _Map
        return _Map(hyper=True)


def _pipeline_grad_scales():
    """MindSpore's ``grad_scale``/``shard_grad_scale`` (pipeline training): the gradient
    accumulated in ``accu_grad`` (``grad`` for the shard variant) over ``scale``, and
    ``accu_grad`` zeroed."""
    from ... import ops
    from ...ops._impl.composite import MultitypeFuncGraph
    scale_fg, shard_fg = MultitypeFuncGraph("grad_scale"), MultitypeFuncGraph("shard_grad_scale")

    @scale_fg.register("Tensor", "Tensor", "Tensor")
    def tensor_grad_scale_pipeline(scale, grad, accu_grad):
        new_grad = accu_grad * ops.reciprocal(scale)
        ops.assign(accu_grad, ops.zeros_like(accu_grad))
        return new_grad

    @shard_fg.register("Tensor", "Tensor", "Tensor")
    def tensor_shard_grad_scale_pipeline(scale, grad, accu_grad):
        new_grad = grad * ops.reciprocal(scale)
        ops.assign(accu_grad, ops.zeros_like(accu_grad))
        return new_grad

    return scale_fg, shard_fg


grad_scale, shard_grad_scale = _pipeline_grad_scales()
