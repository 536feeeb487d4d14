"""``Tensor.eigvals()``: MindSpore 2.10's method calls its registry entry without the input and raises
``TypeError: eigvals() missing 1 required positional argument: 'A'``; msjax's gives ``ops.eigvals``
(whose values the golden suites compare with MindSpore's; docs/differences.md)."""
import numpy as np

import msjax as ms


def test_eigvals_method_is_the_function():
    a = np.random.RandomState(6).randn(3, 3).astype(np.float32) + 3 * np.eye(3, dtype=np.float32)
    for dtype in (np.float32, np.float64):
        x = ms.Tensor(a.astype(dtype))
        got, want = x.eigvals(), ms.ops.eigvals(x)
        assert got.dtype == want.dtype == (ms.complex64 if dtype == np.float32 else ms.complex128)
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
        # the eigenvalues themselves, against NumPy's
        np.testing.assert_allclose(np.sort_complex(got.asnumpy()), np.sort_complex(np.linalg.eigvals(a)),
                                   rtol=1e-5, atol=1e-5)
