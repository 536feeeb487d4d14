"""msjax's native kernels run as tasks on XLA's intra-op pool (``msjax/ops/_native/offload.h``, issue 36):
independent passes in one compiled program run at once, and a BatchNorm splits its channels over the
pool's threads. Neither may change a bit: every result here is compared with the same kernel called
alone (one pass per program, or one channel per call), with ``np.array_equal``."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from msjax.ops._impl import batch_norm_native, conv_onednn, matmul_onednn

pytestmark = pytest.mark.skipif(not matmul_onednn.native_usable(), reason="msjax's native CPU kernels not loaded")


def test_batch_norm_channel_split_is_per_channel_bits():
    # 8 x 64 x 16 x 16: four times the kernel's smallest part, so it splits over the pool's threads;
    # one channel alone (2,048 elements) runs whole in one task
    r = np.random.default_rng(0)
    x = jnp.asarray(r.standard_normal((8, 64, 16, 16)) * 3 + 1, jnp.float32)
    gamma = jnp.asarray(r.uniform(0.5, 1.5, 64), jnp.float32)
    beta = jnp.asarray(r.standard_normal(64), jnp.float32)
    ct = jnp.asarray(r.standard_normal(x.shape), jnp.float32)

    def step(x, gamma, beta, ct):
        (y, mean, var), vjp = jax.vjp(lambda *a: batch_norm_native.batch_norm_train(*a, 1e-5), x, gamma, beta)
        zeros = jnp.zeros_like(mean)
        return (y, mean, var) + vjp((ct, zeros, zeros))

    whole = jax.jit(step)(x, gamma, beta, ct)
    # one channel per call: the same kernel on (8, 1, 16, 16), vmapped over the channels (sequentially)
    per_channel = jax.jit(jax.vmap(lambda x, g, b, c: step(x[:, None], g[None], b[None], c[:, None]),
                                   in_axes=(1, 0, 0, 1)))(x, gamma, beta, ct)
    y, mean, var, dx, dgamma, dbeta = (np.asarray(a) for a in whole)
    py, pmean, pvar, pdx, pdgamma, pdbeta = (np.asarray(a) for a in per_channel)
    assert np.array_equal(y, np.moveaxis(py[:, :, 0], 0, 1))
    assert np.array_equal(dx, np.moveaxis(pdx[:, :, 0], 0, 1))
    for a, b in ((mean, pmean), (var, pvar), (dgamma, pdgamma), (dbeta, pdbeta)):
        assert np.array_equal(a, b.reshape(-1))


def test_concurrent_convolution_passes_give_each_pass_alone():
    # three equal convolutions and their gradients in one program (GroupConv's shape of work): the
    # passes run at once, the equal ones on separate plans of one primitive
    forward, grad_input, grad_weight = conv_onednn.ffi_passes((1, 1), ((1, 1), (1, 1)), (1, 1), 1)
    r = np.random.default_rng(1)
    xs = [jnp.asarray(r.standard_normal((4, 8, 20, 20)), jnp.float32) for _ in range(3)]
    ws = [jnp.asarray(r.standard_normal((16, 8, 3, 3)) * 0.2, jnp.float32) for _ in range(3)]
    gs = [jnp.asarray(r.standard_normal((4, 16, 20, 20)), jnp.float32) for _ in range(3)]

    def together(xs, ws, gs):
        return [(forward(x, w), grad_input(g, x, w), grad_weight(g, x, w)) for x, w, g in zip(xs, ws, gs)]

    got = jax.jit(together)(xs, ws, gs)
    one = (jax.jit(forward), jax.jit(lambda g, x, w: grad_input(g, x, w)), jax.jit(lambda g, x, w: grad_weight(g, x, w)))
    for (y, dx, dw), x, w, g in zip(got, xs, ws, gs):
        assert np.array_equal(np.asarray(y), np.asarray(one[0](x, w)))
        assert np.array_equal(np.asarray(dx), np.asarray(one[1](g, x, w)))
        assert np.array_equal(np.asarray(dw), np.asarray(one[2](g, x, w)))
