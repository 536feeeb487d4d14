"""NumPy on the left of a Tensor: MindSpore's Tensor is read through ``__array__``, so
``ndarray + t``, ``np.float32(2) * t``, ``ndarray == t`` and ``np.abs(t)`` give ndarrays
(tests/st/pynative/jit/test_pynative_jit.py's ``np.all(output.asnumpy() == expect)`` with a Tensor
``expect``); inside a trace they stay Tensors (jax.numpy's function of the same name)."""
import numpy as np

import msjax as ms

T = ms.Tensor(np.array([1.0, 3.0], np.float32))
A = np.array([1.0, 2.0], np.float32)


def test_numpy_operators_and_ufuncs_give_ndarrays():
    for got, want in ((A == T, np.array([True, False])), (A + T, np.array([2.0, 5.0], np.float32)),
                      (np.float32(2) * T, np.array([2.0, 6.0], np.float32)), (np.abs(-T), np.array([1.0, 3.0])),
                      (np.maximum(A, T), np.array([1.0, 3.0])), (np.sqrt(T), np.sqrt(np.array([1.0, 3.0], np.float32)))):
        assert type(got) is np.ndarray
        np.testing.assert_array_equal(got, want)
    assert bool(np.all(A == T)) is False
    assert type(T + A) is ms.Tensor          # the Tensor's own operator on the left


def test_numpy_on_a_traced_tensor_stays_a_tensor():
    def f(x):
        return (np.float32(3) * x + np.exp(x)).sum()
    g = ms.grad(f)(T)
    np.testing.assert_allclose(g.asnumpy(), 3 + np.exp(T.asnumpy()), rtol=1e-6)
    np.testing.assert_allclose(ms.jit(lambda x: np.sqrt(x) * 2)(T).asnumpy(), 2 * np.sqrt(T.asnumpy()), rtol=1e-6)
