"""First PyNative calls of msjax's native oneDNN matmul run its host twin (``MsjaxMatmulHost``,
lent to ``runtime._host_eager.KERNELS`` by ``ops._native``) instead of compiling a program: bit
equality with the compiled FFI call (transposes, denormals, shapes oneDNN splits over threads),
``nn.Dense``'s first calls on the host and its 4th compiled call giving the same bits, and FFI
calls without a twin (or with a side effect) compiled."""
import weakref

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import msjax as ms
from msjax import nn
from msjax.ops import _native
from msjax.ops._impl import matmul_onednn
from msjax.runtime import _host_eager as he

pytestmark = pytest.mark.skipif(_native.library() is None, reason="msjax's native kernels cannot be built here")


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(he, "_TABLE", weakref.WeakKeyDictionary())
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 0.0)     # the call after THRESHOLD host calls compiles
    monkeypatch.setattr(he, "_ON", True)
    monkeypatch.setattr(he, "STORE", [None])      # compiled calls are compiled here, not loaded
    jax.clear_caches()
    return he


def _bits(a):
    return np.asarray(a).view(np.uint32)


def _operands(rs, m, k, n, ta, tb):
    a = rs.standard_normal((k, m) if ta else (m, k)).astype(np.float32)
    b = rs.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
    a.flat[::7] *= np.float32(1e-38)       # products and sums that fall into denormals
    b.flat[::5] = np.float32(1e-42)        # denormal operands: XLA runs the kernel with DAZ/FTZ
    return a, b


# the last reads b from padded rows (conv_dnnl.cc's PadWeightRows) where tb is False
@pytest.mark.parametrize("m,k,n", [(3, 4, 5), (6, 16, 32), (1, 7, 1), (130, 96, 70), (64, 8, 512)])
def test_twin_bit_equal_to_the_compiled_ffi_call(fresh, m, k, n):
    rs = np.random.RandomState(m)
    for ta in (False, True):
        for tb in (False, True):
            a, b = _operands(rs, m, k, n, ta, tb)
            before = he.stats()
            host = matmul_onednn._call(jax.device_put(a), jax.device_put(b), ta, tb)
            assert he.stats()["host"] == before["host"] + 1 and he.stats()["compiled"] == before["compiled"]
            he.enabled(False)
            try:
                compiled = jax.jit(lambda x, y: matmul_onednn._call(x, y, ta, tb))(a, b)
            finally:
                he.enabled(True)
            assert host.dtype == compiled.dtype and host.shape == compiled.shape
            np.testing.assert_array_equal(_bits(host), _bits(compiled))


def test_dense_first_calls_on_the_host_then_compiled_same_bits(fresh):
    rs = np.random.RandomState(0)
    net = nn.SequentialCell([nn.Dense(16, 24), nn.ReLU(), nn.Dense(24, 3)])
    x = ms.Tensor(rs.standard_normal((5, 16)).astype(np.float32))
    before = he.stats()
    first = net(x).asnumpy()
    after = he.stats()
    assert after["compiled"] == before["compiled"] and after["host"] > before["host"]
    outs = [net(x).asnumpy() for _ in range(he.THRESHOLD + 1)]      # the 4th call compiles
    assert he.stats()["compiled"] > after["compiled"]
    for o in outs:
        np.testing.assert_array_equal(_bits(o), _bits(first))


def test_ffi_calls_without_a_twin_or_with_effects_compile(fresh, monkeypatch):
    a = jnp.ones((2, 3), jnp.float32)
    closed = jax.make_jaxpr(lambda x: matmul_onednn._call(x, x, False, True))(a)
    assert he._plan(closed.jaxpr, [0]) is not None
    monkeypatch.delitem(he.KERNELS, "msjax_matmul")
    assert he._plan(closed.jaxpr, [0]) is None
    monkeypatch.setitem(he.KERNELS, "msjax_matmul", len)        # any twin: the call's own parameters refuse
    eqn = closed.jaxpr.eqns[0]
    assert he._kernel_rule(eqn.replace(params=dict(eqn.params, has_side_effect=True))) is None
    assert he._kernel_rule(eqn.replace(params=dict(eqn.params, input_layouts=((0, 1), (1, 0))))) is None


@pytest.mark.parametrize("b,c", [(1, 3), (5, 10), (33, 17)])
def test_sparse_softmax_xent_twin_bit_equal_to_the_compiled_ffi_call(fresh, b, c):
    """The loss and its gradient (MindSpore's exp polynomial, 8-lane blocks and a scalar tail) on
    logits with extremes and denormals, labels out of range included."""
    from msjax.ops._impl import xent_native
    rs = np.random.RandomState(b)
    x = (rs.standard_normal((b, c)) * 30).astype(np.float32)
    x.flat[::4] = np.float32(1e-39)
    x.flat[1::9] = np.float32(-100.0)
    t = rs.randint(-1, c + 1, b).astype(np.int32)
    for is_grad in (False, True):
        before = he.stats()
        host = xent_native._call(jax.device_put(x), jax.device_put(t), is_grad)
        assert he.stats()["host"] == before["host"] + 1 and he.stats()["compiled"] == before["compiled"]
        he.enabled(False)
        try:
            compiled = jax.jit(lambda a, s: xent_native._call(a, s, is_grad))(x, t)
        finally:
            he.enabled(True)
        assert host.shape == compiled.shape
        np.testing.assert_array_equal(_bits(host), _bits(compiled))


@pytest.mark.parametrize("x_shape,w_shape,stride,pads,dilation,groups", [
    ((2, 3, 9, 8), (4, 3, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 1),
    ((1, 4, 11, 10), (6, 2, 3, 2), (2, 1), ((0, 2), (1, 0)), (2, 1), 2),
    ((2, 2, 7), (3, 2, 3), (2,), ((1, 1),), (1,), 1),
])
def test_convolution_twins_bit_equal_to_the_compiled_ffi_calls(fresh, x_shape, w_shape, stride, pads, dilation,
                                                               groups):
    """Each pass (forward, backward data, backward weights) on the host against its compiled FFI call."""
    from msjax.ops._impl import conv_onednn
    rs = np.random.RandomState(len(x_shape))
    x = rs.standard_normal(x_shape).astype(np.float32)
    w = rs.standard_normal(w_shape).astype(np.float32)
    x.flat[::6] = np.float32(2e-39)
    x[0] *= np.float32(1e-39)      # a sample of denormals: XLA's DAZ/FTZ make its outputs zeros
    forward = conv_onednn.ffi_passes(stride, pads, dilation, groups)[0]
    y_shape = jax.eval_shape(forward, x, w).shape
    g = rs.standard_normal(y_shape).astype(np.float32)
    attrs = dict(stride=np.asarray(stride, np.int64), pad_lo=np.asarray([p[0] for p in pads], np.int64),
                 pad_hi=np.asarray([p[1] for p in pads], np.int64), dilation=np.asarray(dilation, np.int64),
                 groups=np.int64(groups))
    for target, a, b, shape in (("msjax_conv_forward", x, w, y_shape), ("msjax_conv_backward_data", g, w, x_shape),
                                ("msjax_conv_backward_weights", x, g, w_shape)):
        def call(p, q, target=target, shape=shape):
            return jax.ffi.ffi_call(target, jax.ShapeDtypeStruct(shape, jnp.float32))(p, q, **attrs)
        before = he.stats()
        host = call(jax.device_put(a), jax.device_put(b))
        assert he.stats()["host"] == before["host"] + 1 and he.stats()["compiled"] == before["compiled"], target
        he.enabled(False)
        try:
            compiled = jax.jit(call)(a, b)
        finally:
            he.enabled(True)
        np.testing.assert_array_equal(_bits(host), _bits(compiled), err_msg=target)
