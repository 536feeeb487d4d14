"""``SparseApplyAdagradV2``'s index check (MindSpore's kernel throws it from a worker thread and the
process aborts, so the golden suite cannot record it; the message is the one MindSpore 2.10 printed):
PyNative and GRAPH_MODE. The values are in ``tests/golden/cases_st_ops.py: case_sparse_apply_adagrad``."""
import numpy as np
import pytest

import msjax as ms
from msjax import Parameter, Tensor, context, nn, ops


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = ops.operations.SparseApplyAdagradV2(lr=0.1, epsilon=1e-6)
        self.var = Parameter(Tensor(np.ones((4, 2), np.float32)), name="var")
        self.accum = Parameter(Tensor(np.ones((4, 2), np.float32)), name="accum")

    def construct(self, grad, indices):
        return self.op(self.var, self.accum, grad, indices)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize("bad", [4, -1])
def test_v2_index_out_of_range(mode, bad):
    context.set_context(mode=mode)
    try:
        net = _Net()
        with pytest.raises(RuntimeError, match=rf"For 'SparseApplyAdagradV2', each element in 'indices' must be in "
                                               rf"range \[0, 4\), but got {bad}"):
            net(Tensor(np.ones((2, 2), np.float32)), Tensor(np.array([0, bad], np.int32)))
            ms.ops.functional.depend(net.var, net.var).asnumpy()
        good = net(Tensor(np.ones((1, 2), np.float32)), Tensor(np.array([3], np.int32)))
        np.testing.assert_allclose(good[1].asnumpy()[3], [2.0, 2.0])
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
