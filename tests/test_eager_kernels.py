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


def test_proven_signature_runs_compiled_and_switch_still_turns_it_off():
    calls = []

    def f(x, y):
        calls.append(1)
        return x - y

    k = eager.hot(f)
    x, y = ms.Tensor(np.arange(3, dtype=np.float32))._data, ms.Tensor(np.ones(3, np.float32))._data
    for _ in range(eager.THRESHOLD + 5):
        k(x, y)
    assert len(calls) == eager.THRESHOLD + 1
    eager.enabled(False)
    try:
        np.testing.assert_array_equal(np.asarray(k(x, y)), [-1, 0, 1])
    finally:
        eager.enabled(True)
    assert len(calls) == eager.THRESHOLD + 2, "MSJAX_EAGER_JIT=0 runs fn itself, also for a proven signature"


def test_weak_type_is_part_of_the_signature():
    import jax.numpy as jnp
    k = eager.hot(lambda x, y: x + y)
    x = ms.Tensor(np.ones(2, np.float32))._data
    weak, strong = jnp.asarray(2.0), jnp.asarray(np.float64(2.0))
    assert weak.weak_type and not strong.weak_type
    for _ in range(eager.THRESHOLD + 3):
        assert k(x, weak).dtype == np.float32
        assert k(x, strong).dtype == np.float64
        assert k(x, 2.0).dtype == np.float32


def test_signature_failing_when_compiled_stays_plain():
    import jax
    calls = []

    def f(x):
        calls.append(1)
        if isinstance(x, jax.core.Tracer):
            raise RuntimeError("only the plain path can run this")
        return x + 1

    k = eager.hot(f)
    x = ms.Tensor(np.zeros(2, np.float32))._data
    for _ in range(eager.THRESHOLD + 4):
        np.testing.assert_array_equal(np.asarray(k(x)), [1, 1])
    assert len(calls) == eager.THRESHOLD + 4 + 1, "every call runs plainly, plus one failed trace"


def test_tracers_never_take_the_compiled_path():
    import jax
    calls = []

    def f(x):
        calls.append(type(x))
        return x * x

    k = eager.hot(f)
    x = ms.Tensor(np.array(3.0, np.float32))._data
    for _ in range(eager.THRESHOLD + 2):
        k(x)
    n = len(calls)
    assert float(jax.grad(k)(x)) == 6.0
    assert len(calls) == n + 1 and issubclass(calls[-1], jax.core.Tracer), "inlined into the outer trace"


@pytest.mark.parametrize("fn", [lambda x, y: 2.0 - x, lambda x, y: 3 * x, lambda x, y: ops.Add()(x, y),
                                lambda x, y: ops.Exp()(x), lambda x, y: x.exp(), lambda x, y: y ** 2,
                                lambda x, y: x < y])
def test_more_forms_same_result_eager_and_hot(fn):
    test_ops_same_result_eager_and_hot(fn)


def test_scalar_operand_rules_unchanged_when_hot():
    i = ms.Tensor(np.array([1, 2, 3], np.int32))
    f = ms.Tensor(np.array([1, 2, 3], np.float16))
    b = ms.Tensor(np.array([True, False, True]))
    for _ in range(eager.THRESHOLD + 2):
        assert (i * 2.5).dtype == ms.float32 and (2.5 * i).dtype == ms.float32
        assert (f * 2.5).dtype == ms.float16 and (f + 1).dtype == ms.float16
        assert (b + True).dtype == ms.bool_ and (i + True).dtype == ms.int32
        with pytest.raises(TypeError, match="complex"):
            _ = f + 1j
