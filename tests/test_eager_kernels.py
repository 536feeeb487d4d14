"""Hot eager kernels (``_core.eager``): same numbers and errors, compiled once hot."""
import numpy as np
import pytest

import msjax as ms
from msjax import ops
from msjax._core import eager


def test_hot_signature_compiles_once_and_keeps_values():
    calls = []

    def f(x, y):
        calls.append(1)           # runs eagerly, then once more when traced
        return x * 2 + y

    k = eager.hot(f)
    x, y = ms.Tensor(np.arange(4, dtype=np.float32))._data, 1.5
    outs = [np.asarray(k(x, y)) for _ in range(eager.THRESHOLD + 3)]
    assert all(np.array_equal(o, np.arange(4) * 2 + 1.5) for o in outs)
    assert len(calls) == eager.THRESHOLD + 1, "plain calls until hot, then one trace, then compiled calls"


def test_value_dependent_function_stays_plain():
    def f(x):
        if float(x.sum()) > 0:    # needs a concrete value
            return x + 1
        return x - 1

    k = eager.hot(f)
    x = ms.Tensor(np.ones(3, np.float32))._data
    for _ in range(eager.THRESHOLD + 2):
        np.testing.assert_array_equal(np.asarray(k(x)), 2.0)


@pytest.mark.parametrize("fn", [lambda x, y: x + y, lambda x, y: x * 2.0, lambda x, y: ops.add(x, y),
                                lambda x, y: ops.exp(x), lambda x, y: ops.mul(x, y), lambda x, y: x / y])
def test_ops_same_result_eager_and_hot(fn):
    x = ms.Tensor(np.array([[0.5, -1.0], [2.0, 3.0]], np.float32))
    y = ms.Tensor(np.array([[1.0, 2.0], [-3.0, 0.25]], np.float32))
    eager.enabled(False)
    try:
        want = fn(x, y)
    finally:
        eager.enabled(True)
    for _ in range(eager.THRESHOLD + 2):
        got = fn(x, y)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


def test_hot_path_keeps_errors():
    x, y = ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((4,), np.float32))
    for _ in range(eager.THRESHOLD + 2):
        with pytest.raises(ValueError, match="broadcast"):
            ops.add(x, y)
        with pytest.raises(ValueError, match="broadcast"):
            _ = x + y


def test_integer_and_bool_promotion_unchanged_when_hot():
    i = ms.Tensor(np.array([1, 2, 3], np.int32))
    for _ in range(eager.THRESHOLD + 2):
        assert (i + 1.5).dtype == ms.float32
        assert (i + 1).dtype == ms.int32
        assert ops.add(i, ms.Tensor(np.array([1, 1, 1], np.int64))).dtype == ms.int64
