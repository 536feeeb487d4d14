"""Gradient reducers for data parallelism (``nn.DistributedGradReducer``,
``nn.PipelineGradReducer``).

``DistributedGradReducer`` all-reduces (sums) every gradient in Float32 over the
processes of the job and casts back, then multiplies by ``1/degree`` when ``mean`` is
set, as MindSpore does (``degree`` defaults to the group size). Inside a compiled
step under DATA_PARALLEL the sum is a ``lax.psum`` over the device mesh (the step then
runs as a data-parallel step, see ``msjax.communication._runtime``); called eagerly it is a
cross-process all-reduce; on one process it is the identity."""
from __future__ import annotations

import jax.numpy as jnp

from ...communication import _runtime as distributed
from ..._core import dtype as mstype
from ...parallel._context import get_auto_parallel_context, get_gradients_mean
from ..._core.parameter import Parameter, ParameterTuple
from ..._core.tensor import Tensor, to_array, wrap
from ..cell import Cell
from ..layer.basic import Identity
from ...parallel._pipeline import pipeline_stages

__all__ = ["DistributedGradReducer", "PipelineGradReducer"]


def _arr(x):
    return x._data if isinstance(x, Tensor) else to_array(x)


class DistributedGradReducer(Cell):
    """``nn.DistributedGradReducer(parameters, mean=None, degree=None, fusion_type=1, group=...)``."""

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group="hccl_world_group"):
        super().__init__(auto_prefix=False)
        self.mean = get_gradients_mean() if mean is None else mean
        if degree is None:
            w = distributed.world()
            degree = w["size"] if w["inited"] else distributed.process_count()
        elif isinstance(degree, bool) or not isinstance(degree, int) or degree <= 0:
            raise ValueError("For 'DistributedGradReducer', parameter 'degree' in DistributedGradReducer "
                             f"should large than 0 and be int, degree: {degree}.")
        self._scale = 1.0 / degree
        self.degree = Tensor(self._scale, mstype.float32)  # MindSpore keeps 1/degree as a Float32 Tensor
        self.group = group
        self.fusion_type = fusion_type

    def construct(self, grads):
        single = isinstance(grads, Tensor)
        seq = (grads,) if single else grads
        out = []
        for g in seq:
            a = _arr(g)
            # MindSpore all-reduces in Float32 and casts back
            r = distributed.all_reduce(a.astype(jnp.float32), "sum")
            if self.mean:
                r = r * jnp.float32(self._scale)
            out.append(wrap(r.astype(a.dtype)))
        return out[0] if single else tuple(out)


class PipelineGradReducer(Cell):
    """``nn.PipelineGradReducer(parameters, scale_sense=1.0, opt_shard=None)``: the
    gradients for the optimizer in pipeline training (``opt_shard`` defaults to the
    context's ``enable_parallel_optimizer``).

    MindSpore 2.10: ``accu_grads`` (zero clones of ``parameters``) times
    ``1/(scale_sense * degree)``, and ``accu_grads`` zeroed; with ``opt_shard``, the
    ``grads`` passed in instead. Under pipeline parallelism (``pipeline_stages > 1`` in
    SEMI_AUTO/AUTO_PARALLEL) MindSpore's backend adds every micro-batch's gradient into
    ``accu_grads`` before this runs; msjax adds the gradient of the ``PipelineCell``'s
    summed loss, which is that same micro-batch sum, so both give the accumulated
    gradient over ``scale_sense``. Stand-alone nothing fills ``accu_grads``: zeros, as in
    MindSpore."""

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        super().__init__(auto_prefix=False)
        self.accu_grads = ParameterTuple(parameters).clone(prefix="accu_grads", init="zeros")
        self.grad_reducer = Identity()
        self.degree = Tensor(1, mstype.float32)
        self.scale_sense = Parameter(scale_sense if isinstance(scale_sense, Tensor)
                                     else Tensor(scale_sense, mstype.float32), name="scale_sense")
        self.opt_shard = get_auto_parallel_context("enable_parallel_optimizer") if opt_shard is None else opt_shard

    def construct(self, grads):
        if len(grads) != len(self.accu_grads):
            raise RuntimeError("The tuples in HyperMap should have the same length. \nThe length of the first "
                               f"element in HyperMap is {len(self.accu_grads)}, but the length of the second "
                               f"element in HyperMap is {len(grads)}.")
        inv = 1 / (self.scale_sense._data * self.degree._data)
        pipelined = pipeline_stages() > 1
        if self.opt_shard:
            grads = self.grad_reducer(grads)
        out = []
        for grad, acc in zip(grads, self.accu_grads):
            a = acc._data
            if self.opt_shard:
                new = _arr(grad)
            elif pipelined:
                new = a + _arr(grad).astype(a.dtype)   # the backend's AssignAdd of the micro-batch gradients
            else:
                new = a
            out.append(wrap(new * inv.astype(new.dtype)))
            acc._data = jnp.zeros_like(a)
        return tuple(out)
