"""Stateful layers inside transforms, random layers by distribution, initializers by distribution,
and the ops MindSpore's CPU backend cannot run (so they have no golden): checked against numpy."""
import jax
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax.common import initializer as init


def _rs(seed, *shape):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def _bn_reference(x, mm, mv, momentum=0.9):
    m = x.mean(axis=(0, 2, 3))
    v = x.var(axis=(0, 2, 3), ddof=1)
    return momentum * mm + (1 - momentum) * m, momentum * mv + (1 - momentum) * v


def _concrete(p):
    return not isinstance(p._raw_get(), jax.core.Tracer)


# ---------------------------------------------------------------------------
# BatchNorm statistics in every execution style
# ---------------------------------------------------------------------------
class _BNNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, has_bias=True, weight_init="ones", bias_init="zeros")
        self.bn = nn.BatchNorm2d(3)

    def construct(self, x):
        return self.bn(self.conv(x))


def _expected_stats(net, x):
    y = ops.conv2d(x, net.conv.weight, net.conv.bias, pad_mode="same").asnumpy()
    return _bn_reference(y, net.bn.moving_mean.asnumpy(), net.bn.moving_variance.asnumpy())


@pytest.mark.parametrize("style", ["pynative", "grad", "value_and_grad", "graph", "jit", "graph_grad"])
def test_batchnorm_statistics_update_once_per_call(style):
    ms.set_context(mode=ms.GRAPH_MODE if style.startswith("graph") else ms.PYNATIVE_MODE)
    net = _BNNet()
    net.set_train()
    x = ms.Tensor(_rs(0, 4, 2, 5, 5))
    for _ in range(2):
        exp_m, exp_v = _expected_stats(net, x)
        if style in ("pynative", "graph"):
            net(x)
        elif style in ("grad", "graph_grad"):
            g = ms.grad(lambda x: net(x).sum(), grad_position=None, weights=net.trainable_params())(x)
            assert len(g) == 4
        elif style == "value_and_grad":
            ms.value_and_grad(lambda x: (net(x) ** 2).sum(), None, net.trainable_params())(x)
        else:
            ms.jit(lambda x: net(x))(x)
        np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), exp_m, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(net.bn.moving_variance.asnumpy(), exp_v, rtol=1e-5, atol=1e-6)
        assert all(_concrete(p) for p in net.get_parameters())
    assert not net.bn.moving_mean.requires_grad
    assert [p.name for p in net.untrainable_params()] == ["bn.moving_mean", "bn.moving_variance"]


def test_batchnorm_eval_uses_moving_statistics_and_keeps_them():
    net = nn.BatchNorm2d(2)
    net.moving_mean.set_data(ms.Tensor([1.0, -1.0]))
    net.moving_variance.set_data(ms.Tensor([4.0, 0.25]))
    x = ms.Tensor(_rs(1, 3, 2, 2, 2))
    y = net(x).asnumpy()
    ref = (x.asnumpy() - np.array([1.0, -1.0])[None, :, None, None]) / np.sqrt(
        np.array([4.0, 0.25])[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.moving_mean.asnumpy(), [1.0, -1.0])
    # set_train flips every sub-Cell and the compiled GRAPH_MODE function follows it
    ms.set_context(mode=ms.GRAPH_MODE)
    seq = nn.SequentialCell([nn.BatchNorm2d(2)])
    a = seq(x).asnumpy()
    seq.set_train()
    b = seq(x).asnumpy()
    seq.set_train(False)
    c = seq(x).asnumpy()
    assert not np.allclose(a, b)
    assert not np.allclose(seq[0].moving_mean.asnumpy(), 0)
    assert not np.allclose(a, c)      # eval again, with the updated statistics


def test_training_loop_with_batchnorm_in_graph_mode_has_no_leaked_tracers():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Dense(32, 1)])
    net.set_train()
    x = ms.Tensor(_rs(2, 2, 1, 4, 4))
    t = ms.Tensor(_rs(3, 2, 1))
    loss_fn = nn.MSELoss()
    step = ms.value_and_grad(lambda x, t: loss_fn(net(x), t), None, net.trainable_params())
    losses = []
    for _ in range(5):
        loss, grads = step(x, t)
        for p, g in zip(net.trainable_params(), grads):
            p.set_data(p - 0.02 * g)
        losses.append(float(loss.asnumpy()))
    assert losses[-1] < losses[0]
    assert all(_concrete(p) for p in net.get_parameters())


# ---------------------------------------------------------------------------
# dropout by distribution
# ---------------------------------------------------------------------------
def test_dropout_distribution_and_scaling():
    ms.set_seed(3)
    x = ms.Tensor(np.ones((200, 100), np.float32))
    y = ops.dropout(x, p=0.3).asnumpy()
    kept = y != 0
    assert abs(kept.mean() - 0.7) < 0.02
    np.testing.assert_allclose(y[kept], 1 / 0.7, rtol=1e-6)
    out, mask = ops.Dropout(keep_prob=0.6)(x)
    assert mask.dtype == ms.float32 and abs(mask.asnumpy().mean() - 0.6) < 0.02
    np.testing.assert_allclose(out.asnumpy(), mask.asnumpy() / 0.6, rtol=1e-6)


def test_dropout_reproducible_under_set_seed_and_fresh_each_call():
    x = ms.Tensor(np.ones((64,), np.float32))
    ms.set_seed(11)
    a, b = ops.dropout(x).asnumpy(), ops.dropout(x).asnumpy()
    ms.set_seed(11)
    c = ops.dropout(x).asnumpy()
    assert not np.array_equal(a, b)
    np.testing.assert_array_equal(a, c)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_dropout_cell_train_eval_and_key_advances_inside_jit(mode):
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    d = nn.Dropout(p=0.5)
    x = ms.Tensor(np.ones((128,), np.float32))
    np.testing.assert_array_equal(d(x).asnumpy(), x.asnumpy())
    d.set_train()
    f = ms.jit(lambda x: d(x))
    a, b = f(x).asnumpy(), f(x).asnumpy()
    assert set(np.unique(a)) <= {0.0, 2.0} and not np.array_equal(a, b)
    g = ms.grad(lambda x: d(x).sum())(x).asnumpy()
    assert set(np.unique(g)) <= {0.0, 2.0}


def test_channel_dropout_masks_whole_channels():
    ms.set_seed(5)
    x = ms.Tensor(np.ones((8, 16, 3, 3), np.float32))
    out, mask = ops.Dropout2D(keep_prob=0.5)(x)
    o = out.asnumpy()
    assert mask.dtype == ms.bool_
    per_channel = o.reshape(8, 16, -1)
    assert np.all((per_channel == per_channel[..., :1]))
    assert set(np.unique(o)) <= {0.0, 2.0}
    assert 0.3 < (o[:, :, 0, 0] != 0).mean() < 0.7
    y = ops.dropout3d(ms.Tensor(np.ones((4, 8, 2, 2, 2), np.float32)), 0.25).asnumpy().reshape(4, 8, -1)
    assert np.all(y == y[..., :1])
    z = ops.dropout1d(ms.Tensor(np.ones((6, 5), np.float32)), 0.5).asnumpy()
    assert np.all(z == z[:, :1])
    d2 = nn.Dropout2d(0.5)
    d2.set_train()
    assert d2(x).shape == x.shape


def test_rnn_dropout_between_layers_only_in_training():
    net = nn.GRU(3, 4, num_layers=2, dropout=0.5)
    x = ms.Tensor(_rs(1, 5, 2, 3))
    a = net(x)[0].asnumpy()
    np.testing.assert_array_equal(a, net(x)[0].asnumpy())
    net.set_train()
    ms.set_seed(1)
    b = net(x)[0].asnumpy()
    assert not np.allclose(a, b)


# ---------------------------------------------------------------------------
# initializers by distribution
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name,args,mean,std", [
    ("Normal", (0.5, 1.0), 1.0, 0.5),
    ("Uniform", (0.3,), 0.0, 0.3 / np.sqrt(3)),
    ("XavierUniform", (), 0.0, np.sqrt(6 / 600) / np.sqrt(3)),
    ("XavierNormal", (2.0,), 0.0, 2.0 * np.sqrt(2 / 600)),
    ("HeNormal", (0, "fan_in", "relu"), 0.0, np.sqrt(2 / 300)),
    ("HeUniform", (), 0.0, np.sqrt(2 / 300)),
])
def test_random_initializer_distributions(name, args, mean, std):
    ms.set_seed(0)
    t = init.initializer(getattr(init, name)(*args), (300, 300)).asnumpy()
    assert t.dtype == np.float32
    assert abs(t.mean() - mean) < 0.01 + 0.02 * std
    assert abs(t.std() - std) < 0.03 * std


def test_truncated_normal_and_variance_scaling():
    ms.set_seed(0)
    t = init.initializer(init.TruncatedNormal(1.0, 0.5, -1.0, 1.5), (200, 200)).asnumpy()
    assert t.min() >= -1.0 and t.max() <= 1.5
    vs = init.initializer(init.VarianceScaling(2.0, "fan_out", "untruncated_normal"), (100, 400)).asnumpy()
    assert abs(vs.std() - np.sqrt(2.0 / 100)) < 0.01
    # MindSpore's default distribution falls into the uniform branch
    u = init.initializer(init.VarianceScaling(), (200, 300)).asnumpy()
    assert np.abs(u).max() <= np.sqrt(3.0 / 300) and abs(u.std() - np.sqrt(1 / 300)) < 0.002
    o = init.initializer(init.Orthogonal(1.5), (4, 6)).asnumpy()
    np.testing.assert_allclose(o @ o.T, 1.5 ** 2 * np.eye(4), atol=1e-5)


def test_initializers_reproducible_under_set_seed():
    ms.set_seed(42)
    a = nn.Dense(5, 4).weight.asnumpy()
    ms.set_seed(42)
    b = nn.Dense(5, 4).weight.asnumpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, nn.Dense(5, 4).weight.asnumpy())
    for name in ("normal", "ones", "xavier_uniform", "he_normal", "truncatednormal", "zeros"):
        assert init.initializer(name, (2, 3), ms.float16).dtype == ms.float16
    arr = np.zeros((3, 3), np.float32)
    init.Identity()(arr)
    np.testing.assert_array_equal(arr, np.eye(3))


# ---------------------------------------------------------------------------
# ops without a MindSpore CPU kernel (no golden): checked against numpy
# ---------------------------------------------------------------------------
def test_instance_norm_matches_definition_and_updates_moving_statistics():
    net = nn.InstanceNorm2d(3)
    x = _rs(0, 2, 3, 4, 4)
    y = net(ms.Tensor(x)).asnumpy()
    m = x.mean(axis=(2, 3), keepdims=True)
    v = x.var(axis=(2, 3), keepdims=True)
    np.testing.assert_allclose(y, (x - m) / np.sqrt(v + 1e-5), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(net.moving_mean.asnumpy(), 0.1 * m.reshape(2, 3).mean(0), rtol=1e-5, atol=1e-7)
    names = [n for n, _ in nn.SequentialCell([nn.InstanceNorm1d(2)]).parameters_and_names()]
    assert names == ["0.moving_mean", "0.moving_variance", "0.gamma", "0.beta"]


def test_layer_norm_functional():
    x = _rs(1, 2, 3, 4)
    g, b = _rs(2, 3, 4), _rs(3, 3, 4)
    y = ops.layer_norm(ms.Tensor(x), (3, 4), ms.Tensor(g), ms.Tensor(b), eps=1e-5).asnumpy()
    m = x.reshape(2, -1).mean(1)[:, None, None]
    v = x.reshape(2, -1).var(1)[:, None, None]
    np.testing.assert_allclose(y, (x - m) / np.sqrt(v + 1e-5) * g + b, rtol=1e-5, atol=1e-5)


def test_embedding_functional_padding_idx_has_no_gradient():
    w = ms.Tensor(_rs(0, 5, 3))
    idx = ms.Tensor(np.array([[0, 2], [4, 2]]), ms.int32)
    np.testing.assert_array_equal(ops.embedding(idx, w).asnumpy(), w.asnumpy()[idx.asnumpy()])
    g = ms.grad(lambda w: ops.embedding(idx, w, padding_idx=2).sum())(w).asnumpy()
    np.testing.assert_array_equal(g.sum(1), [3.0, 0.0, 0.0, 0.0, 3.0])


def test_conv_transpose2d_is_the_adjoint_of_conv2d():
    x = _rs(0, 1, 2, 4, 3)
    w = _rs(1, 2, 3, 3, 3)
    y = ops.conv_transpose2d(ms.Tensor(x), ms.Tensor(w), stride=2, padding=1, output_padding=1).asnumpy()
    assert y.shape == (1, 3, 8, 6)
    # <conv_transpose(x), z> == <x, conv(z)> for the matching forward convolution
    z = _rs(2, 1, 3, 8, 6)
    zp = np.pad(z, [(0, 0), (0, 0), (1, 0), (1, 0)])   # padding 1 at the start, output_padding eats the end
    fwd = ops.conv2d(ms.Tensor(zp), ms.Tensor(w), stride=2).asnumpy()
    np.testing.assert_allclose((y * z).sum(), (x * fwd[:, :, :4, :3]).sum(), rtol=1e-4)


def test_roll_cell_and_embedding_lookup_max_norm():
    x = _rs(0, 3, 4)
    np.testing.assert_array_equal(nn.Roll((1, -2), (0, 1))(ms.Tensor(x)).asnumpy(), np.roll(x, (1, -2), (0, 1)))
    net = nn.EmbeddingLookup(3, 2, max_norm=1.0)
    net.embedding_table.set_data(ms.Tensor([[3.0, 4.0], [0.3, 0.4], [0.0, 2.0]]))
    out = net(ms.Tensor(np.array([0, 1, 2]), ms.int32)).asnumpy()
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.3, 0.4], [0.0, 1.0]], rtol=1e-6)


def test_lstm_matches_unrolled_cells():
    lstm = nn.LSTM(3, 4)
    cell = nn.LSTMCell(3, 4)
    for p, q in zip(cell.trainable_params(), lstm.trainable_params()):
        p.set_data(q.value())
    x = ms.Tensor(_rs(0, 5, 2, 3))
    out, (h, c) = lstm(x)
    hx = (ms.Tensor(np.zeros((2, 4), np.float32)), ms.Tensor(np.zeros((2, 4), np.float32)))
    for t in range(5):
        hx = cell(x[t], hx)
        np.testing.assert_allclose(out[t].asnumpy(), hx[0].asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h.asnumpy()[0], hx[0].asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c.asnumpy()[0], hx[1].asnumpy(), rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------
# P1 layers whose MindSpore kernels are missing on CPU (checked against definitions)
# ---------------------------------------------------------------------------
def test_ext_pooling_matches_functional_ops():
    x = ms.Tensor(_rs(0, 1, 2, 6, 7))
    np.testing.assert_allclose(nn.AvgPool2dExt(3, 2, padding=1, count_include_pad=False)(x).asnumpy(),
                               ops.avg_pool2d(x, 3, 2, 1, count_include_pad=False).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(nn.AvgPool2dExt(2)(x).asnumpy(), ops.avg_pool2d(x, 2, 2).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(nn.MaxPool2dExt(3, 2, padding=1)(x).asnumpy(), ops.max_pool2d(x, 3, 2, 1).asnumpy())
    x1 = ms.Tensor(_rs(1, 2, 3, 8))
    np.testing.assert_allclose(nn.AvgPool1dExt(3, 2, padding=1)(x1).asnumpy(),
                               ops.avg_pool1d(x1, 3, 2, padding=1).asnumpy(), rtol=1e-6)
    x3 = ms.Tensor(_rs(2, 1, 1, 4, 4, 4))
    np.testing.assert_allclose(nn.AvgPool3dExt(2)(x3).asnumpy(), ops.avg_pool3d(x3, 2, 2).asnumpy(), rtol=1e-6)


def test_unfold_extract_image_patches_layout():
    x = _rs(0, 1, 2, 4, 5)
    out = nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 1, 1])(ms.Tensor(x)).asnumpy()
    assert out.shape == (1, 12, 2, 3)
    # depth ordered (kh, kw, C): element (i, j, c) of the patch at (oh, ow)
    for i in range(2):
        for j in range(3):
            for c in range(2):
                np.testing.assert_array_equal(out[0, (i * 3 + j) * 2 + c], x[0, c, i:i + 3:2, j:j + 3])
    same = nn.Unfold([1, 3, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], "same")(ms.Tensor(x)).asnumpy()
    assert same.shape == (1, 18, 4, 5)
    np.testing.assert_array_equal(same[0, 4 * 2:4 * 2 + 2], x[0])   # the centre tap is the image itself


def test_embedding_ext_and_layer_norm_ext():
    ms.set_seed(0)
    e = nn.EmbeddingExt(5, 3, padding_idx=2)
    assert [n for n, _ in e.parameters_and_names()] == ["weight"]
    np.testing.assert_array_equal(e.weight.asnumpy()[2], 0)
    idx = ms.Tensor(np.array([[0, 2]]), ms.int32)
    np.testing.assert_array_equal(e(idx).asnumpy(), e.weight.asnumpy()[[[0, 2]]])
    assert not nn.EmbeddingExt(3, 2, _freeze=True).weight.requires_grad
    ln = nn.LayerNormExt((3,), eps=1e-6)
    x = _rs(1, 2, 3)
    ref = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(ln(ms.Tensor(x)).asnumpy(), ref, rtol=1e-5, atol=1e-6)
    assert [n for n, _ in ln.parameters_and_names()] == ["weight", "bias"]
    assert nn.LayerNormExt(3, elementwise_affine=False).weight is None


def _ssim_reference(a, b, size, sigma, max_val=1.0, k1=0.01, k2=0.03):
    g = np.exp(-((np.arange(size) - size // 2) ** 2) / (2 * sigma ** 2))
    w = np.outer(g, g)
    w /= w.sum()

    def conv(img):
        h, wd = img.shape
        out = np.zeros((h - size + 1, wd - size + 1))
        for i in range(out.shape[0]):
            for j in range(out.shape[1]):
                out[i, j] = (img[i:i + size, j:j + size] * w).sum()
        return out
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    res = []
    for n in range(a.shape[0]):
        vals = []
        for c in range(a.shape[1]):
            x, y = a[n, c].astype(np.float64), b[n, c].astype(np.float64)
            mx, my = conv(x), conv(y)
            sx, sy, sxy = conv(x * x) - mx ** 2, conv(y * y) - my ** 2, conv(x * y) - mx * my
            vals.append((((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx ** 2 + my ** 2 + c1) * (sx + sy + c2))).mean())
        res.append(np.mean(vals))
    return np.array(res)


def test_ssim_psnr_msssim_against_numpy():
    a = np.random.RandomState(1).rand(2, 2, 12, 12).astype(np.float32)
    b = np.clip(a + 0.1 * np.random.RandomState(2).randn(2, 2, 12, 12), 0, 1).astype(np.float32)
    s = nn.SSIM(filter_size=5)(ms.Tensor(a), ms.Tensor(b)).asnumpy()
    np.testing.assert_allclose(s, _ssim_reference(a, b, 5, 1.5), rtol=1e-4)
    p = nn.PSNR()(ms.Tensor(a), ms.Tensor(b)).asnumpy()
    np.testing.assert_allclose(p, 10 * np.log10(1 / ((a - b) ** 2).mean(axis=(1, 2, 3))), rtol=1e-5)
    ai, bi = (a * 255).astype(np.uint8), (b * 255).astype(np.uint8)
    pi = nn.PSNR(255)(ms.Tensor(ai), ms.Tensor(bi)).asnumpy()
    mse = ((ai / 255.0 - bi / 255.0) ** 2).mean(axis=(1, 2, 3))
    np.testing.assert_allclose(pi, 10 * np.log10((255 / 255.0) ** 2 / mse), rtol=1e-4)
    m = nn.MSSSIM(filter_size=3, power_factors=(0.5, 0.5))(ms.Tensor(a), ms.Tensor(b)).asnumpy()
    assert m.shape == (2,) and np.all((0 < m) & (m <= 1))
    same = nn.MSSSIM(filter_size=3, power_factors=(0.3, 0.3, 0.4))(ms.Tensor(a), ms.Tensor(a)).asnumpy()
    np.testing.assert_allclose(same, 1.0, rtol=1e-5)


def test_matrix_cells_against_numpy():
    spd = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)
    np.testing.assert_allclose(nn.MatInverse()(ms.Tensor(spd)).asnumpy(), np.linalg.inv(spd), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(nn.MatDet()(ms.Tensor(spd)).asnumpy(), np.linalg.det(spd), rtol=1e-5)
    x = _rs(0, 2, 3, 4)
    np.testing.assert_array_equal(nn.MatrixDiag()(ms.Tensor(x[0, 0])).asnumpy(), np.diag(x[0, 0]))
    np.testing.assert_array_equal(nn.MatrixDiagPart()(ms.Tensor(x)).asnumpy(), np.diagonal(x, axis1=1, axis2=2))
    d = np.array([9.0, 8.0, 7.0], np.float32)
    out = nn.MatrixSetDiag()(ms.Tensor(x), ms.Tensor(np.stack([d, d]))).asnumpy()
    ref = x.copy()
    for n in range(2):
        np.fill_diagonal(ref[n], d)
    np.testing.assert_array_equal(out, ref)


def test_conv2d_thor_raises_a_clear_error():
    # DenseThor/EmbeddingThor/EmbeddingLookupThor are golden cases (nn_layers: l_thor_*); Conv2dThor needs
    # ThorIm2Col, which MindSpore 2.10 lacks on CPU as well.
    with pytest.raises(NotImplementedError, match="THOR"):
        nn.Conv2dThor(3, 4, 3)
    assert nn.Conv2dThor.__ms_unsupported__
