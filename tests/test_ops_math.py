"""Checks of the math/linalg ops beyond the golden fixtures: tracing, dtypes that must not stay
weak, Tensor-method overload dispatch and the data-dependent ``bincount``."""
import jax
import numpy as np
import pytest

import msjax as ms
from msjax import ops


def _f(*v):
    return ms.Tensor(np.array(v, np.float32))


def test_results_are_not_weakly_typed():
    r = ops.add(ms.Tensor(np.array([True, False])), 2)
    assert r.dtype == ms.int64
    assert (r + ms.Tensor(np.array([1, 1], np.int32))).dtype == ms.int64
    assert ops.mul(ms.Tensor(np.array([1, 2], np.int32)), 2.5).dtype == ms.float32


def test_ops_trace_under_jit_and_grad():
    @ms.jit
    def f(x):
        v, i = ops.max(x, 1)
        s, j = ops.sort(x, 0, True)
        t, k = ops.topk(x, 2)
        return ops.cumprod(x, 1).sum() + v.sum() + s[0, 0] + t.mean() + ops.norm(x, 1) + ops.logsumexp(x, 0).sum(), \
            i, j, k, ops.cummax(x, 1)[1], ops.histc(x, 4)

    x = ms.Tensor(np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], np.float32))
    out = f(x)
    assert out[1].dtype == ms.int64 and out[2].dtype == ms.int32 and out[3].dtype == ms.int32
    assert out[4].dtype == ms.int64 and out[5].shape == (4,)
    g = ms.grad(lambda a: f(a)[0])(x)
    assert g.shape == (2, 3) and np.all(np.isfinite(g.asnumpy()))


def test_bincount_needs_concrete_input():
    x = ms.Tensor(np.array([0, 1, 1, 3], np.int32))
    np.testing.assert_array_equal(ops.bincount(x).asnumpy(), [1.0, 2.0, 0.0, 1.0])
    with pytest.raises(jax.errors.ConcretizationTypeError, match="bincount"):
        jax.jit(lambda a: ops.bincount(ms.Tensor(a))._data)(np.array([0, 1], np.int32))


def test_bincount_in_a_compiled_call_runs_uncompiled():
    # MindSpore's tests/st/ops/test_func_bincount.py: a GRAPH_MODE Cell and ms.jit give PyNative's counts
    x = ms.Tensor(np.array([2, 4, 1, 0, 0], np.int64))
    w = ms.Tensor(np.array([0., 0.25, 0.5, 0.75, 1.], np.float32))
    want = ops.bincount(x, w, 7).asnumpy()
    np.testing.assert_array_equal(want, [1.75, 0.5, 0., 0., 0.25, 0., 0.])
    got = ms.jit(lambda a, b: ops.bincount(a, b, 7) * 2)(x, w)
    assert got.dtype == ms.float32
    np.testing.assert_array_equal(got.asnumpy(), want * 2)


def test_tensor_method_overloads():
    x = ms.Tensor(np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], np.float32))
    assert isinstance(x.max(0), tuple) and not isinstance(x.max(axis=0), tuple)
    assert x.max(0, keepdims=True).shape == (1, 3)
    assert x.sum(1, True).shape == (2, 1)
    assert x.sum(1, ms.float64).dtype == ms.float64
    with pytest.raises(TypeError, match="Failed calling sum"):
        x.sum(1, 2, 3, 4, 5)
    with pytest.raises(TypeError, match="axis"):
        x.prod(axis=0)


def test_aliases_and_primitives():
    x, y = _f(1.0, -2.0, 3.0), _f(2.0, 2.0, -1.0)
    for a, b in [(ops.absolute, ops.abs), (ops.arccos, ops.acos), (ops.tensor_add, ops.add),
                 (ops.tensor_pow, ops.pow), (ops.clip, ops.clamp)]:
        assert a is not b and a.__name__ != b.__name__
    np.testing.assert_allclose(ops.tensor_add(x, y).asnumpy(), ops.add(x, y).asnumpy())
    np.testing.assert_allclose(ops.operations.Sub()(x, y).asnumpy(), [-1.0, -4.0, 4.0])
    assert ops.ReduceSum(keep_dims=True)(x).shape == (1,)
    assert repr(ops.MatMul(transpose_b=True)) == "Prim[MatMul]"


def test_integer_pow_and_division():
    i = ms.Tensor(np.array([7, -7, 3], np.int32))
    assert ops.div(i, 2).dtype == ms.float32
    np.testing.assert_array_equal(ops.floor_divide(i, 2).asnumpy(), [3, -4, 1])
    np.testing.assert_array_equal(ops.div(i, 2, rounding_mode="trunc").asnumpy(), [3, -3, 1])
    np.testing.assert_array_equal(ops.pow(i, ms.Tensor(np.array([-1, 2, 0], np.int32))).asnumpy(), [0, 49, 1])
