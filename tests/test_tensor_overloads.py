"""Tensor method overloads of MindSpore's ``tests/st/tensor/overload`` that MindSpore 2.10's CPU
build cannot run (no CPU kernel, so no golden output): checked against NumPy here. The others are
golden cases in ``tests/golden/cases_st_tensor.py``."""
import numpy as np
import pytest

import msjax as ms


@pytest.mark.parametrize("values", [np.array([True, True, False]), np.array([1, -3, 0, 2 ** 31 - 1], np.int32),
                                    np.array([0, 1, 250], np.uint8), np.array([-(2 ** 40), 7], np.int64)])
def test_bitwise_not_is_numpys_invert(values):
    """``Tensor.bitwise_not()`` (no BitwiseNot CPU kernel in MindSpore 2.10): ``~x``, logical not of
    Bool, the dtype kept; ``mint.bitwise_not`` agrees."""
    x = ms.Tensor(values)
    out = x.bitwise_not()
    assert out.dtype == x.dtype
    np.testing.assert_array_equal(out.asnumpy(), ~values)
    np.testing.assert_array_equal(ms.mint.bitwise_not(x).asnumpy(), ~values)


def test_bitwise_not_refuses_floats():
    with pytest.raises(TypeError, match="must be an integer Tensor"):
        ms.Tensor(np.array([1.5], np.float32)).bitwise_not()
