"""Ops that MindSpore 2.10's CPU build cannot run (``BatchToSpace``/``SpaceToBatch``, ``MatrixExp``/``matrix_exp``,
``EuclideanNorm``, ``ExtractImagePatches``), checked against NumPy/SciPy-free references of their documented formulas
(listed in ``tests/reference_checks.py``)."""
import numpy as np
import pytest

import msjax as ms
from msjax import ops


def test_batch_to_space_is_batch_to_space_nd():
    x = np.arange(4 * 2 * 2 * 3, dtype=np.float32).reshape(4, 2, 2, 3)
    out = ops.BatchToSpace(2, [[0, 1], [1, 0]])(ms.Tensor(x)).asnumpy()
    assert out.shape == (1, 2, 3, 5)
    full = np.zeros((1, 2, 4, 6), np.float32)
    for bh in range(2):
        for bw in range(2):
            full[0, :, bh::2, bw::2] = x[bh * 2 + bw]
    np.testing.assert_array_equal(out, full[:, :, 0:3, 1:6])
    with pytest.raises(ValueError):
        ops.BatchToSpace(1, [[0, 0], [0, 0]])
    with pytest.raises(TypeError):
        ops.BatchToSpace(2.0, [[0, 0], [0, 0]])


def test_space_to_batch_is_space_to_batch_nd():
    x = np.arange(1 * 2 * 3 * 4, dtype=np.float32).reshape(1, 2, 3, 4)
    out = ops.SpaceToBatch(2, [[1, 0], [0, 0]])(ms.Tensor(x)).asnumpy()
    assert out.shape == (4, 2, 2, 2)
    padded = np.pad(x, [(0, 0), (0, 0), (1, 0), (0, 0)])
    for bh in range(2):
        for bw in range(2):
            np.testing.assert_array_equal(out[bh * 2 + bw], padded[0, :, bh::2, bw::2])
    back = ops.BatchToSpace(2, [[1, 0], [0, 0]])(ms.Tensor(out)).asnumpy()
    np.testing.assert_array_equal(back, x)
    with pytest.raises(ValueError):
        ops.SpaceToBatch(2, [[0, 0]])


def test_extract_image_patches_matches_unfold():
    x = np.arange(2 * 2 * 4 * 5, dtype=np.float32).reshape(2, 2, 4, 5)
    out = ops.ExtractImagePatches([1, 1, 2, 3], [1, 1, 2, 1], [1, 1, 1, 1], "VALID")(ms.Tensor(x)).asnumpy()
    assert out.shape == (2, 12, 2, 3)
    for i in range(2):
        for j in range(3):
            for c in range(2):   # depth ordered (kh, kw, C)
                np.testing.assert_array_equal(out[:, (i * 3 + j) * 2 + c], x[:, c, i:i + 3:2, j:j + 3])
    unfold = ms.nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 1, 1])(ms.Tensor(x)).asnumpy()
    np.testing.assert_array_equal(out, unfold)
    same = ops.ExtractImagePatches(3, 1, (2, 2), "SAME")(ms.Tensor(x)).asnumpy()
    assert same.shape == (2, 18, 4, 5)
    np.testing.assert_array_equal(same[:, 4 * 2:4 * 2 + 2], x)   # the centre tap is the image itself
    with pytest.raises(ValueError):
        ops.ExtractImagePatches(2, 1, 1, "full")(ms.Tensor(x))


def _expm_series(a, terms=40):
    out, term = np.eye(a.shape[-1]), np.eye(a.shape[-1])
    for k in range(1, terms):
        term = term @ a / k
        out = out + term
    return out


def test_matrix_exp():
    a = np.array([[[0.0, 1.0], [-1.0, 0.0]], [[0.5, 0.2], [0.1, -0.3]]])
    out = ops.matrix_exp(ms.Tensor(a, ms.float32))
    assert out.dtype == ms.float32 and out.shape == (2, 2, 2)
    ref = np.stack([_expm_series(m) for m in a])
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ops.MatrixExp()(ms.Tensor(a[0], ms.float64)).asnumpy(),
                               [[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]], rtol=1e-12)
    assert ops.matrix_exp(ms.Tensor(a[1], ms.float16)).dtype == ms.float16
    g = ms.grad(lambda x: ops.matrix_exp(x).sum())(ms.Tensor(np.zeros((2, 2)), ms.float32))
    np.testing.assert_allclose(g.asnumpy(), np.ones((2, 2)), rtol=1e-6)   # d exp(X)/dX at 0 is the identity map
    with pytest.raises(TypeError):
        ops.matrix_exp(ms.Tensor(np.eye(2), ms.int32))
    with pytest.raises(ValueError):
        ops.matrix_exp(ms.Tensor(np.ones((2, 3)), ms.float32))


def test_euclidean_norm():
    x = ms.Tensor(np.array([[3, 5], [4, 12]]), ms.int32)
    out = ops.EuclideanNorm(keep_dims=True)(x, ms.Tensor([0]))
    assert out.dtype == ms.int32 and out.shape == (1, 2)
    np.testing.assert_array_equal(out.asnumpy(), [[5, 13]])   # MindSpore's documented example
    y = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10
    out = ops.EuclideanNorm()(ms.Tensor(y), ms.Tensor(np.array([0, -1]), ms.int64))
    np.testing.assert_allclose(out.asnumpy(), np.sqrt((y ** 2).sum(axis=(0, 2))), rtol=1e-6)
    with pytest.raises(TypeError):
        ops.EuclideanNorm(keep_dims=1)
    with pytest.raises(ValueError):
        ops.EuclideanNorm()(ms.Tensor(y), ms.Tensor([3]))
