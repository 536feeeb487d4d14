"""The convolution lowering (msjax/ops/_impl/conv_lowering.py): patches + matrix product gives
XLA's convolution's values and gradients (reverse and forward mode) for strides, paddings,
dilations, groups and 1-3 spatial dims; the CPU plan picks it where XLA's convolution is the slow
loop nest; ``MSJAX_CONV_LOWERING`` forces a lowering; the nn layers go through it."""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import msjax as ms
from msjax import nn, ops
from msjax.ops._impl import conv_lowering as cl

CASES = [
    # x shape, w shape, stride, pads, dilation, groups
    ((2, 3, 9, 9), (4, 3, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 1),
    ((2, 3, 9, 8), (4, 3, 3, 2), (2, 3), ((0, 1), (2, 0)), (1, 1), 1),
    ((2, 4, 10, 10), (6, 2, 3, 3), (1, 1), ((2, 2), (2, 2)), (2, 2), 2),
    ((2, 4, 2, 2), (5, 4, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 1),      # kernel over a 2x2 map
    ((2, 4, 1, 1), (5, 4, 3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1), 1),      # and a 1x1 map, strided
    ((3, 2, 7), (4, 2, 3), (2,), ((1, 2),), (1,), 1),                          # Conv1d
    ((1, 2, 4, 5, 5), (3, 2, 2, 3, 3), (1, 2, 1), ((0, 0), (1, 1), (1, 1)), (1, 1, 1), 1),  # Conv3d
]


def _args(case, dtype=np.float64):
    xs, ws, stride, pads, dil, groups = case
    rng = np.random.default_rng(0)
    return (jnp.asarray(rng.standard_normal(xs), dtype), jnp.asarray(rng.standard_normal(ws), dtype),
            stride, pads, dil, groups)


@pytest.fixture
def x64():
    prev = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", prev)


@pytest.mark.parametrize("case", CASES)
def test_im2col_matches_xla_values_and_gradients(case, x64):
    x, w, stride, pads, dil, groups = _args(case)
    # jitted: one program per pass instead of one eager compile per primitive (same tolerances)
    ref = jax.jit(lambda x, w: cl.xla_conv(x, w, stride, pads, dil, groups))
    got = jax.jit(lambda x, w: cl.im2col_conv(x, w, stride, pads, dil, groups))
    y, vjp_ref = jax.vjp(ref, x, w)
    y2, vjp_got = jax.vjp(got, x, w)
    np.testing.assert_allclose(y2, y, rtol=1e-12, atol=1e-12)
    g = jnp.asarray(np.random.default_rng(1).standard_normal(y.shape))
    for a, b in zip(vjp_got(g), vjp_ref(g)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("lowerings", [("xla", "im2col", "xla"), ("im2col", "xla", "im2col"),
                                       ("im2col", "im2col", "xla")])
@pytest.mark.parametrize("case", CASES[:4])
def test_mixed_passes_give_the_same_derivatives(case, lowerings, x64):
    x, w, stride, pads, dil, groups = _args(case)
    ref = cl._planned(("xla",) * 3, stride, pads, dil, groups)
    mixed = cl._planned(lowerings, stride, pads, dil, groups)
    rng = np.random.default_rng(2)
    g = jnp.asarray(rng.standard_normal(ref(x, w).shape))
    for a, b in zip(jax.vjp(mixed, x, w)[1](g), jax.vjp(ref, x, w)[1](g)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    dx, dw = jnp.asarray(rng.standard_normal(x.shape)), jnp.asarray(rng.standard_normal(w.shape))
    np.testing.assert_allclose(jax.jvp(mixed, (x, w), (dx, dw))[1], jax.jvp(ref, (x, w), (dx, dw))[1],
                               rtol=1e-12, atol=1e-12)
    # only the weight differentiated: the input-gradient pass is not computed at all
    gw = jax.grad(lambda w: jnp.sum(mixed(x, w) ** 2))(w)
    np.testing.assert_allclose(gw, jax.grad(lambda w: jnp.sum(ref(x, w) ** 2))(w), rtol=1e-12)
    # second order through the rule
    hx = jax.grad(lambda x: jnp.sum(jax.grad(lambda x: jnp.sum(mixed(x, w) ** 2))(x)))(x)
    hr = jax.grad(lambda x: jnp.sum(jax.grad(lambda x: jnp.sum(ref(x, w) ** 2))(x)))(x)
    np.testing.assert_allclose(hx, hr, rtol=1e-10, atol=1e-10)


def test_cpu_plan_uses_patches_where_the_kernel_spans_the_map(monkeypatch):
    monkeypatch.delenv(cl.ENV, raising=False)
    monkeypatch.setenv(cl.KERNELS_ENV, "0")          # the plan without the cpu-kernels extra
    plan = lambda xs, ws, s=(1, 1), p=((1, 1), (1, 1)), backend="cpu": cl.plan(xs, ws, s, p, (1, 1), 1, backend)
    # ResNet18's last stages: 3x3 kernels on 2x2 and 1x1 maps
    assert plan((32, 256, 2, 2), (256, 256, 3, 3)) == ("im2col",) * 3
    assert plan((32, 512, 1, 1), (512, 512, 3, 3)) == ("im2col",) * 3
    # a strided 3x3 on a 4x4 map: forward fine, its input gradient (over a dilated 2x2) is not
    assert plan((32, 128, 4, 4), (256, 128, 3, 3), (2, 2)) == ("xla", "im2col", "xla")
    # pointwise convolutions (PointNet's Conv1d stack over 2,500 points) are matrix products in
    # every pass; strided or padded 1x1 convolutions are not pointwise
    no_pad = ((0, 0), (0, 0))
    assert plan((2, 128, 1, 2500), (1024, 128, 1, 1), p=no_pad) == ("im2col",) * 3
    assert plan((32, 64, 8, 8), (256, 64, 1, 1), p=no_pad) == ("im2col",) * 3
    assert plan((32, 64, 8, 8), (128, 64, 1, 1), (2, 2), p=no_pad) == ("xla",) * 3
    assert plan((32, 64, 8, 8), (128, 64, 1, 1)) == ("xla",) * 3
    assert plan((2, 128, 1, 2500), (1024, 128, 1, 1), p=no_pad, backend="gpu") == ("xla",) * 3
    # ordinary maps stay on XLA; so does every GPU/TPU convolution
    assert plan((32, 64, 8, 8), (64, 64, 3, 3)) == ("xla",) * 3
    assert plan((256, 1, 32, 32), (6, 1, 5, 5), p=((0, 0), (0, 0))) == ("xla",) * 3
    assert plan((32, 256, 2, 2), (256, 256, 3, 3), backend="gpu") == ("xla",) * 3
    # grouped convolutions (a depthwise 3x3, float16 or without oneDNN) are XLA:CPU's slow loop: patches
    assert cl.plan((8, 120, 56, 56), (120, 1, 3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1), 120, "cpu") == ("im2col",) * 3


def test_cpu_plan_hands_large_float32_convolutions_to_onednn(monkeypatch):
    """With the cpu-kernels extra installed (faked here), narrow convolutions (few inputs per
    output) of 2M multiply-adds or more run on oneDNN; small or wide ones, float64, forward-mode
    traces and other backends do not."""
    from msjax._core import state
    from msjax.ops._impl import conv_onednn
    monkeypatch.delenv(cl.ENV, raising=False)
    monkeypatch.delenv(cl.KERNELS_ENV, raising=False)
    monkeypatch.setattr(conv_onednn, "available", lambda: True)
    monkeypatch.setattr(conv_onednn, "backend", lambda: "torch")
    lenet256 = lambda **kw: cl.plan((256, 6, 14, 14), (16, 6, 5, 5), (1, 1), ((0, 0), (0, 0)), (1, 1), 1, **kw)
    assert lenet256(backend="cpu") == ("onednn",) * 3
    assert lenet256(backend="gpu") == ("xla",) * 3
    assert lenet256(backend="cpu", dtype=jnp.float64) == ("xla",) * 3
    assert cl.plan((4, 6, 14, 14), (16, 6, 5, 5), (1, 1), ((0, 0), (0, 0)), (1, 1), 1, "cpu") == ("xla",) * 3
    assert cl.plan((32, 64, 8, 8), (64, 64, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 1, "cpu") == ("xla",) * 3
    state.FORWARD_MODE[0] += 1
    try:
        assert lenet256(backend="cpu") == ("xla",) * 3
    finally:
        state.FORWARD_MODE[0] -= 1
    # the persistent compile cache cannot hold callbacks: auto stays on XLA, a forced onednn not
    from msjax._core import compile_cache
    monkeypatch.setattr(compile_cache, "_active", ["/somewhere"])
    assert lenet256(backend="cpu") == ("xla",) * 3
    monkeypatch.setenv(cl.ENV, "onednn")
    assert lenet256(backend="cpu") == ("onednn",) * 3
    monkeypatch.setattr(compile_cache, "_active", [None])
    monkeypatch.delenv(cl.ENV)
    monkeypatch.setenv(cl.KERNELS_ENV, "0")
    assert lenet256(backend="cpu") == ("xla",) * 3
    monkeypatch.setattr(conv_onednn, "available", lambda: False)
    monkeypatch.setenv(cl.ENV, "onednn")
    assert lenet256(backend="cpu") == ("xla",) * 3      # forced but not installed: XLA


def test_cpu_plan_with_the_native_kernels(monkeypatch):
    """msjax's own oneDNN kernels (FFI custom calls, cacheable): every float32 CPU pass, the
    compile cache on or off, as MindSpore's CPU kernels run them (the input gradient of a convolution
    with under 4 input channels per group and the weight gradient of one with at most 4 output
    positions included: other lowerings sum in other orders)."""
    from msjax._core import compile_cache, state
    from msjax.ops._impl import conv_onednn
    monkeypatch.delenv(cl.ENV, raising=False)
    monkeypatch.delenv(cl.KERNELS_ENV, raising=False)
    monkeypatch.setattr(conv_onednn, "backend", lambda: "ffi")
    monkeypatch.setattr(compile_cache, "_active", ["/somewhere"])
    plan = lambda xs, ws, s=(1, 1), p=((1, 1), (1, 1)), **kw: cl.plan(xs, ws, s, p, (1, 1), 1, **kw)
    assert plan((4, 6, 14, 14), (16, 6, 5, 5), backend="cpu") == ("onednn",) * 3
    assert plan((32, 64, 8, 8), (64, 64, 3, 3), backend="cpu") == ("onednn",) * 3
    assert plan((32, 1, 32, 32), (6, 1, 5, 5), backend="cpu") == ("onednn",) * 3
    assert plan((32, 256, 2, 2), (256, 256, 3, 3), backend="cpu") == ("onednn",) * 3
    assert cl.plan((8, 120, 28, 28), (120, 1, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 120,
                   "cpu") == ("onednn",) * 3
    assert plan((32, 64, 8, 8), (64, 64, 3, 3), backend="gpu") == ("xla",) * 3
    assert plan((32, 64, 8, 8), (64, 64, 3, 3), backend="cpu", dtype=jnp.float64) == ("xla",) * 3
    assert plan((0, 64, 8, 8), (64, 64, 3, 3), backend="cpu") == ("xla",) * 3
    state.FORWARD_MODE[0] += 1
    try:
        assert plan((32, 64, 8, 8), (64, 64, 3, 3), backend="cpu") == ("xla",) * 3
    finally:
        state.FORWARD_MODE[0] -= 1
    monkeypatch.setenv(cl.KERNELS_ENV, "0")
    assert plan((32, 64, 8, 8), (64, 64, 3, 3), backend="cpu") == ("xla",) * 3


def _native_or_skip():
    from msjax.ops import _native
    if _native.library() is None:
        pytest.skip("msjax's native oneDNN kernels are not available here (no onednn wheels or no compiler)")


@pytest.mark.parametrize("case", CASES)
def test_native_onednn_passes_match_xla(case):
    """The FFI kernels (conv_dnnl.cc) on every case, 1-3 spatial dimensions, groups, dilation and
    asymmetric padding: values and both gradients, jitted and mixed with a JAX lowering per pass."""
    _native_or_skip()
    from msjax.ops._impl import conv_onednn
    x, w, stride, pads, dil, groups = _args(case, np.float32)
    ref = lambda x, w: cl.xla_conv(x, w, stride, pads, dil, groups)
    y0, vjp0 = jax.vjp(ref, x, w)
    g = jnp.asarray(np.random.default_rng(1).standard_normal(y0.shape), jnp.float32)
    gx0, gw0 = vjp0(g)
    convs = [conv_onednn.conv_function(stride, pads, dil, groups)]
    if case in (CASES[1], CASES[2]):
        convs += [cl._mixed_vjp(("onednn", "im2col", "onednn"), stride, pads, dil, groups),
                  cl._mixed_vjp(("xla", "onednn", "im2col"), stride, pads, dil, groups)]
    for conv in convs:
        y, vjp = jax.vjp(jax.jit(conv), x, w)
        np.testing.assert_allclose(y, y0, rtol=1e-4, atol=1e-4)
        gx, gw = vjp(g)
        np.testing.assert_allclose(gx, gx0, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(gw, gw0, rtol=1e-4, atol=1e-4)
    if case is CASES[2]:
        # second order in reverse mode (a transposed convolution's gradient): the passes are each
        # other's derivatives
        h = lambda c: jax.grad(lambda x, w: jnp.sum(jax.vjp(lambda x: c(x, w), x)[1](g)[0] ** 2), (0, 1))(x, w)
        for a, b in zip(h(conv_onednn.conv_function(stride, pads, dil, groups)), h(ref)):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-3)


def test_native_kernels_fall_back_to_xla(monkeypatch, tmp_path):
    """No compiler (or MSJAX_NATIVE=0): library() is None and the plan keeps XLA's lowerings."""
    from msjax.ops import _native
    from msjax.ops._impl import conv_onednn
    _native.library.cache_clear()
    try:
        monkeypatch.setenv("CXX", str(tmp_path / "no-such-compiler"))
        monkeypatch.setenv(_native.CACHE_ENV, str(tmp_path / "cache"))
        assert _native.library() is None
        monkeypatch.setattr(conv_onednn, "_torch_installed", lambda: False)
        monkeypatch.delenv(cl.ENV, raising=False)
        monkeypatch.delenv(cl.KERNELS_ENV, raising=False)
        assert cl.plan((32, 64, 8, 8), (64, 64, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 1, "cpu") == ("xla",) * 3
        _native.library.cache_clear()
        monkeypatch.setenv(_native.ENV, "0")
        assert _native.library() is None
    finally:
        _native.library.cache_clear()


def test_dead_kernel_taps_are_cropped_exactly():
    """Taps that only ever meet padding (3x3 on ResNet's 1x1 maps, a strided 3x3 from 2x2 to 1x1)
    are dropped before lowering: same values and gradients as the full convolution."""
    assert cl.live_taps((1, 1), (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)) == ((1, 1), (1, 1))
    assert cl.live_taps((2, 2), (3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)) == ((1, 2), (1, 2))
    assert cl.live_taps((8, 8), (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)) is None
    rng = np.random.default_rng(0)
    for n, k, s, (lo, hi), d in [(1, 3, 1, (1, 1), 1), (3, 5, 1, (4, 0), 1), (4, 3, 3, (0, 3), 2)]:
        x = jnp.asarray(rng.standard_normal((2, 4, n, n + 1)), jnp.float32)
        w = jnp.asarray(rng.standard_normal((3, 4, k, k)), jnp.float32)
        st, pads, dil = (s, s), ((lo, hi), (lo, hi)), (d, d)
        ref = jax.jit(lambda x, w: cl.xla_conv(x, w, st, pads, dil, 1))

        @jax.jit
        def cropped(x, w):
            x2, w2, p2 = cl.crop_dead_taps(x, w, st, pads, dil)
            return cl.xla_conv(x2, w2, st, p2, dil, 1)
        y0, vjp0 = jax.vjp(ref, x, w)
        y1, vjp1 = jax.vjp(cropped, x, w)
        np.testing.assert_allclose(y1, y0, rtol=1e-5, atol=1e-5)
        g = jnp.asarray(rng.standard_normal(y0.shape), jnp.float32)
        for a, b in zip(vjp1(g), vjp0(g)):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


ONEDNN_CASES = [c for c in CASES if len(c[0]) == 4] + [CASES[5], CASES[6]]


@pytest.mark.parametrize("case", ONEDNN_CASES)
def test_onednn_passes_match_xla(case):
    """The cpu-kernels path (runs where PyTorch is installed): values and both gradients, jitted,
    asymmetric padding included."""
    pytest.importorskip("torch")
    from msjax.ops._impl import conv_onednn
    x, w, stride, pads, dil, groups = _args(case, np.float32)
    conv = conv_onednn.conv_function(stride, pads, dil, groups)
    ref = lambda x, w: cl.xla_conv(x, w, stride, pads, dil, groups)
    y, vjp = jax.vjp(jax.jit(conv), x, w)
    y0, vjp0 = jax.vjp(ref, x, w)
    np.testing.assert_allclose(y, y0, rtol=1e-4, atol=1e-4)
    g = jnp.asarray(np.random.default_rng(1).standard_normal(y.shape), jnp.float32)
    for a, b in zip(vjp(g), vjp0(g)):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)
    # only the weight's gradient asked for (a network's input image): same value
    gw = jax.jit(jax.grad(lambda w: jnp.sum(conv(x, w) * g)))(w)
    np.testing.assert_allclose(gw, vjp0(g)[1], rtol=1e-4, atol=1e-4)


def test_setting_forces_a_lowering(monkeypatch):
    monkeypatch.setenv(cl.ENV, "im2col")
    assert cl.plan((1, 1, 8, 8), (1, 1, 3, 3), (1, 1), ((0, 0), (0, 0)), (1, 1), 1, "gpu") == ("im2col",) * 3
    monkeypatch.setenv(cl.ENV, "XLA")
    assert cl.plan((1, 1, 2, 2), (1, 1, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 1) == ("xla",) * 3
    monkeypatch.setenv(cl.ENV, "winograd")
    with pytest.raises(ValueError, match="MSJAX_CONV_LOWERING must be one of"):
        cl.plan((1, 1, 2, 2), (1, 1, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 1)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_conv2d_layer_on_small_maps_matches_a_jax_reference(mode):
    """nn.Conv2d on a 2x2 map (the planned path on the CPU) against lax.conv_general_dilated with
    the layer's weights: forward and input/weight/bias gradients through ms.grad."""
    ms.set_context(mode=mode)
    try:
        ms.set_seed(3)
        net = nn.Conv2d(8, 4, 3, stride=1, pad_mode="pad", padding=1, has_bias=True)
        xn = np.random.default_rng(4).standard_normal((2, 8, 2, 2)).astype(np.float32)
        grad = ms.grad(lambda x: ops.sum(net(x) ** 2), grad_position=0, weights=net.trainable_params())
        gx, (gw, gb) = grad(ms.Tensor(xn))

        def ref(x, w, b):
            y = jax.lax.conv_general_dilated(x, w, (1, 1), ((1, 1), (1, 1)),
                                             dimension_numbers=("NCHW", "OIHW", "NCHW"))
            return jnp.sum((y + b[None, :, None, None]) ** 2)

        w, b = net.weight.asnumpy(), net.bias.asnumpy()
        want = jax.grad(ref, argnums=(0, 1, 2))(xn, w, b)
        for got, exp in zip((gx, gw, gb), want):
            np.testing.assert_allclose(got.asnumpy(), exp, rtol=1e-5, atol=1e-4)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


POOLS = [((2, 3, 8, 8), (2, 2), (2, 2), ((0, 0), (0, 0)), False),
         ((2, 3, 9, 9), (3, 3), (2, 2), ((0, 1), (0, 1)), False),      # ResNet's 3x3/2 'same' pool
         ((2, 3, 7, 7), (3, 3), (2, 2), ((1, 1), (1, 1)), True),       # ceil_mode
         ((2, 3, 6), (2,), (2,), ((0, 0),), False),
         ((1, 2, 4, 4, 4), (2, 2, 2), (2, 2, 2), ((0, 0),) * 3, False)]


@pytest.mark.parametrize("shape,kernel,stride,pads,ceil", POOLS)
def test_max_pool_by_taps_matches_reduce_window_with_ties(shape, kernel, stride, pads, ceil, monkeypatch):
    """Values and gradients of the window-taps max pooling equal XLA's reduce_window (whose
    select-and-scatter gradient goes to a window's first maximum, as MindSpore's MaxPoolGrad), on
    ReLU'd inputs full of tied zeros."""
    from msjax.ops._impl import pooling
    x = jnp.maximum(jnp.asarray(np.random.default_rng(5).standard_normal(shape), jnp.float32), 0)
    x = x.at[..., :2].set(1.0)                                   # ties of equal nonzero values too
    results = {}
    for lowering in ("im2col", "xla"):
        monkeypatch.setenv(cl.ENV, lowering)
        f = jax.jit(lambda x: pooling._max_pool_array.raw(x, kernel, stride, pads, None, ceil))
        y, vjp = jax.vjp(f, x)
        weights = jnp.arange(1.0, 1.0 + y.size, dtype=y.dtype).reshape(y.shape)
        results[lowering] = (y, vjp(weights)[0])
    np.testing.assert_array_equal(results["im2col"][0], results["xla"][0])
    np.testing.assert_array_equal(results["im2col"][1], results["xla"][1])


def test_cpu_uses_taps_pooling_unless_forced(monkeypatch):
    from msjax.ops._impl import pooling
    monkeypatch.delenv(cl.ENV, raising=False)
    assert pooling.pool_by_taps() == (jax.default_backend() == "cpu")
    monkeypatch.setenv(cl.ENV, "xla")
    assert not pooling.pool_by_taps()


def test_forced_lowering_holds_for_its_own_thread_only(monkeypatch):
    """The exporters force XLA's convolution while they trace; a training thread beside them keeps
    its own lowering (the process environment is not touched)."""
    import os
    import threading
    monkeypatch.delenv(cl.ENV, raising=False)
    seen = {}
    inside, release = threading.Event(), threading.Event()

    def export_side():
        with cl.forced("xla"):
            seen["exporter"] = cl.setting()
            inside.set()
            release.wait(10)
        seen["after"] = cl.setting()

    t = threading.Thread(target=export_side)
    t.start()
    inside.wait(10)
    seen["other thread"] = cl.setting()
    release.set()
    t.join()
    assert seen == {"exporter": "xla", "other thread": "auto", "after": "auto"}
    assert cl.ENV not in os.environ
