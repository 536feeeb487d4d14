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
from ...parallel._context import get_gradients_mean
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, to_array, wrap
from ..cell import Cell

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
    """``nn.PipelineGradReducer(parameters, scale_sense=1.0, opt_shard=None)``.

    MindSpore's pipeline backend accumulates the micro-batch gradients into
    ``accu_grads`` Parameters, and this cell returns ``accu_grads / scale_sense`` and
    clears them. msjax has no pipeline stages, so (as in a stand-alone MindSpore run)
    nothing fills ``accu_grads``: the result is zeros. Use the gradients directly
    on one device."""

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        super().__init__(auto_prefix=False)
        from ..optim.optimizer import _OptParameterTuple
        self.accu_grads = _OptParameterTuple(parameters).clone(prefix="accu_grads", init="zeros")
        self.degree = Tensor(1, mstype.float32)
        self.scale_sense = Parameter(scale_sense if isinstance(scale_sense, Tensor)
                                     else Tensor(scale_sense, mstype.float32), name="scale_sense")
        self.opt_shard = bool(opt_shard)

    def construct(self, grads):
        s = self.scale_sense._data * self.degree._data
        out = []
        for acc in self.accu_grads:
            a = acc._data
            out.append(wrap(a * (1 / s).astype(a.dtype)))
            acc._data = jnp.zeros_like(a)
        return tuple(out)
