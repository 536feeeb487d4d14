"""``ExitByRequest`` (``mindspore.utils.ExitByRequest``): the graceful-exit flag of a training step.

With ``MS_ENABLE_GRACEFUL_EXIT=1`` ``TrainOneStepCell`` owns two Parameters, ``graceful_init``
(set to 1 by ``OnRequestExit`` on a rank that was asked to exit) and ``graceful_exit``. In a
job of several processes every step all-reduces ``graceful_init`` and sets ``graceful_exit``
when all ranks asked, so that every rank stops after the same step; in one process the
callback sets ``graceful_exit`` itself. As MindSpore 2.10 (``mindspore/utils/utils.py``).
The all-reduce runs inside the compiled data-parallel step, so it needs
``parallel_mode`` DATA_PARALLEL (or HYBRID_PARALLEL) as msjax's other in-step collectives.
"""
from __future__ import annotations

from ..._core import dtype as mstype
from ..._core.tensor import Tensor
from ...communication.management import get_group_size
from ...ops import functional as F
from ...ops import operations as P

__all__ = ["ExitByRequest"]


class ExitByRequest:
    """Gracefully exits the training process after get exit request."""

    def __init__(self):
        self.all_reduce = P.AllReduce()
        self.equal = P.Equal()
        self.assign = P.Assign()
        self.reduce_all = P.ReduceAll(keep_dims=False)
        self.group_size = get_group_size()
        self.is_distributed = self.group_size > 1
        if self.is_distributed:
            self.base = Tensor([self.group_size], dtype=mstype.int32)
        self.base1 = Tensor([1], mstype.int32)
        self.true = Tensor(True, mstype.bool_)

    def exit_by_request(self, grad, init_value, exit_value):
        """``grad``, after ``exit_value`` is set to whether every rank's ``init_value`` is 1."""
        if self.is_distributed:
            all_status = self.all_reduce(init_value)
            equal = self.equal(all_status, self.base)
            reduce_all = self.reduce_all(equal)
            grad = F.depend(grad, self.assign(exit_value, reduce_all))
        return grad
