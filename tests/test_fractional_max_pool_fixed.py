"""``FractionalMaxPoolWithFixedKsize``'s gradient (values are golden: cases_st_ops.py): each sensitivity added
at its maximum's position, checked against a NumPy scatter of the argmax the op returns (MindSpore 2.10's
PyNative gradient of a Float32 input fails, so there is nothing to record)."""
import numpy as np

import msjax as ms
from msjax.ops.operations import FractionalMaxPoolWithFixedKsize

T = ms.Tensor


def test_fractional_max_pool_gradient_scatters_to_argmax():
    x = np.random.RandomState(0).rand(2, 2, 7, 9).astype(np.float32)
    rs = np.array([[[0.3, 0.7], [0.9, 0.1]], [[0.0, 0.5], [0.99, 0.25]]], np.float32)
    sens = np.random.RandomState(1).randn(2, 2, 4, 5).astype(np.float32)
    op = FractionalMaxPoolWithFixedKsize((2, 2), (4, 5))
    _, argmax = op(T(x), T(rs))
    got = ms.grad(lambda a: (op(a, T(rs))[0] * T(sens)).sum())(T(x)).asnumpy()
    want = np.zeros((2, 2, 7 * 9), np.float32)
    am = argmax.asnumpy().reshape(2, 2, -1)
    for b in range(2):
        for c in range(2):
            np.add.at(want[b, c], am[b, c], sens[b, c].ravel())
    assert np.allclose(got, want.reshape(x.shape))
    assert np.count_nonzero(got) > 0
