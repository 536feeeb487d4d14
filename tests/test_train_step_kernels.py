"""Kernels of a training step made faster for issue 36 (ShuffleNetV1 at O0), checked for the same numbers.

BatchNorm's training gradient: msjax's closed form (``_bn_normalise``'s backward, issue 36)
against reverse mode through the statistics' formulas written out in JAX, with cotangents on every
output (the batch mean and variance included), in both layouts, on XLA and on the native kernel
(MindSpore's arithmetic, ``batch_norm_native``: forward to float rounding); and the forward-mode path, which
differentiates the formulas (a custom_vjp cannot serve ops.jvp / jacfwd). The native oneDNN
kernels' OpenMP wait policy."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from msjax._core import state
from msjax.ops._impl import normalization as N


def _reference(x, gamma, beta, eps, channel_axis):
    axes = tuple(i for i in range(x.ndim) if i != channel_axis)
    shape = [1] * x.ndim
    shape[channel_axis] = x.shape[channel_axis]
    mean = jnp.mean(x, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=axes, keepdims=True)
    y = (x - mean) * lax.rsqrt(var + eps) * gamma.reshape(shape) + beta.reshape(shape)
    n = x.size // x.shape[channel_axis]
    return y, mean.reshape(-1), var.reshape(-1), (var * (n / (n - 1))).reshape(-1)


def _data(shape, channel_axis, seed=0):
    r = np.random.default_rng(seed)
    c = shape[channel_axis]
    x = jnp.asarray(r.standard_normal(shape) * 3 + 1, jnp.float32)
    gamma = jnp.asarray(r.uniform(0.5, 1.5, c), jnp.float32)
    beta = jnp.asarray(r.standard_normal(c), jnp.float32)
    cts = tuple(jnp.asarray(r.standard_normal(s), jnp.float32) for s in (shape, (c,), (c,), (c,)))
    return x, gamma, beta, cts


@pytest.mark.parametrize("native", [False, True])
@pytest.mark.parametrize("shape,channel_axis", [((4, 3, 5, 6), 1), ((4, 5, 6, 3), 3), ((7, 4), 1)])
def test_closed_form_gradient_matches_reverse_mode(shape, channel_axis, native, monkeypatch):
    if native and not N.batch_norm_native.usable(jnp.zeros(shape, jnp.float32), channel_axis):
        pytest.skip("the native BatchNorm kernel does not serve this layout here")
    if not native:
        monkeypatch.setenv("MSJAX_CPU_KERNELS", "0")
    x, gamma, beta, cts = _data(shape, channel_axis)
    @jax.jit
    def both(x, gamma, beta, cts):
        ours = jax.vjp(lambda *a: N.batch_norm_train.raw(*a, 1e-5, channel_axis), x, gamma, beta)
        ref = jax.vjp(lambda *a: _reference(*a, 1e-5, channel_axis), x, gamma, beta)
        return ours[0], ref[0], ours[1](cts), ref[1](cts)

    out, out_ref, grads, grads_ref = both(x, gamma, beta, cts)
    for o, r in zip(out, out_ref):           # XLA's forward is the formulas themselves
        if native:
            np.testing.assert_allclose(np.asarray(o), np.asarray(r), rtol=2e-6, atol=2e-6)
        else:
            np.testing.assert_array_equal(np.asarray(o), np.asarray(r))
    for o, r in zip(grads, grads_ref):
        np.testing.assert_allclose(np.asarray(o), np.asarray(r), rtol=2e-5, atol=2e-5)


def test_forward_mode_differentiates_the_formulas():
    x, gamma, beta, cts = _data((3, 2, 4, 4), 1, seed=1)

    def loss(fn):
        return lambda x_: jnp.sum(jnp.sin(fn(x_, gamma, beta, 1e-5, 1)[0]) * cts[0])

    body = state.forward_mode_body(lambda x_, t: jax.jvp(loss(N.batch_norm_train.raw), (x_,), (t,)))
    out = jax.jit(body)(x, cts[0])
    want = jax.jit(lambda x_, t: jax.jvp(loss(_reference), (x_,), (t,)))(x, cts[0])
    np.testing.assert_allclose(np.asarray(out[1]), np.asarray(want[1]), rtol=1e-5, atol=1e-5)


def test_native_kernels_load_with_openmp_waiting_passively(monkeypatch):
    """oneDNN's OpenMP threads must not spin on the cores XLA needs: libgomp is loaded with
    OMP_WAIT_POLICY=PASSIVE (read once, at its load) and the user's environment is left as it was."""
    import ctypes
    import os

    from msjax.ops import _native
    seen = []
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    monkeypatch.setattr(ctypes, "CDLL", lambda path: seen.append(os.environ.get("OMP_WAIT_POLICY")) or path)
    assert _native._load_passive("lib.so") == "lib.so"
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    _native._load_passive("lib.so")
    assert seen == ["PASSIVE", "ACTIVE"] and os.environ["OMP_WAIT_POLICY"] == "ACTIVE"
    monkeypatch.delenv("OMP_WAIT_POLICY")
    _native._load_passive("lib.so")
    assert "OMP_WAIT_POLICY" not in os.environ
