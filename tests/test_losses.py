"""Losses and activations the golden suites cannot record: the random ones (RReLU, the
SampledSoftmaxLoss sampler) by distribution, and the ones MindSpore 2.10 has no CPU kernel for
(soft_margin_loss, multilabel_margin_loss, triplet_margin_loss, smooth_l1_loss(beta=0),
LogSoftmaxExt) against numpy references of their documented formulas."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops

RS = np.random.RandomState(0)
X = RS.randn(3, 4).astype(np.float32)
Y = RS.randn(3, 4).astype(np.float32)
SIGN = np.array([[1, -1, 1, -1], [-1, -1, 1, 1], [1, 1, -1, 1]], np.float32)


def _num_grad(f, x, eps=1e-3):
    x = x.astype(np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


# --- soft margin -----------------------------------------------------------------------------
def _soft_margin_ref(x, y, reduction="mean"):
    v = np.log1p(np.exp(-y * x))
    return {"mean": v.mean(), "sum": v.sum(), "none": v}[reduction]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_soft_margin_loss(mode, reduction):
    x, y = ms.Tensor(X), ms.Tensor(SIGN)
    for out in (ops.soft_margin_loss(x, y, reduction), ops.SoftMarginLoss(reduction)(x, y),
                nn.SoftMarginLoss(reduction)(x, y)):
        assert out.dtype == ms.float32
        np.testing.assert_allclose(out.asnumpy(), _soft_margin_ref(X, SIGN, reduction), rtol=1e-5, atol=1e-6)
    g = ms.grad(lambda a: ops.soft_margin_loss(a, y, reduction).sum())(x)
    ref = _num_grad(lambda a: np.sum(_soft_margin_ref(a, SIGN, reduction)), X)
    np.testing.assert_allclose(g.asnumpy(), ref, rtol=1e-3, atol=1e-4)


def test_soft_margin_loss_errors():
    with pytest.raises(ValueError):
        ops.soft_margin_loss(ms.Tensor(X), ms.Tensor(SIGN), "avg")
    with pytest.raises(TypeError):
        ops.soft_margin_loss(ms.Tensor(X.astype(np.int32)), ms.Tensor(SIGN))
    with pytest.raises(ValueError):
        ops.soft_margin_loss(ms.Tensor(X), ms.Tensor(SIGN[:2]))


# --- multilabel margin -------------------------------------------------------------------------
def _multilabel_margin_ref(x, t):
    x, t = np.atleast_2d(x), np.atleast_2d(t)
    n, c = x.shape
    loss = np.zeros(n)
    is_target = np.zeros((n, c), np.int32)
    for i in range(n):
        tgt = []
        for j in t[i]:
            if j < 0:
                break
            tgt.append(j)
        is_target[i, tgt] = 1
        for j in tgt:
            for k in range(c):
                if not is_target[i, k]:
                    loss[i] += max(0.0, 1 - (x[i, j] - x[i, k]))
        loss[i] /= c
    return loss, is_target


def test_multilabel_margin_loss(mode):
    t = np.array([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 2, 1, 0]], np.int32)
    ref, is_target = _multilabel_margin_ref(X, t)
    x, tt = ms.Tensor(X), ms.Tensor(t)
    np.testing.assert_allclose(ops.multilabel_margin_loss(x, tt).asnumpy(), ref.mean(), rtol=1e-5)
    np.testing.assert_allclose(ops.multilabel_margin_loss(x, tt, "sum").asnumpy(), ref.sum(), rtol=1e-5)
    loss, it = ops.MultilabelMarginLoss(reduction="none")(x, tt)
    np.testing.assert_allclose(loss.asnumpy(), ref, rtol=1e-5)
    assert it.dtype == ms.int32
    np.testing.assert_array_equal(it.asnumpy(), is_target)
    np.testing.assert_allclose(nn.MultilabelMarginLoss()(x, tt).asnumpy(), ref.mean(), rtol=1e-5)
    g = ms.grad(lambda a: ops.multilabel_margin_loss(a, tt))(x)
    np.testing.assert_allclose(g.asnumpy(), _num_grad(lambda a: _multilabel_margin_ref(a, t)[0].mean(), X),
                               rtol=1e-3, atol=1e-4)
    # unbatched input
    l1, it1 = ops.MultilabelMarginLoss("none")(ms.Tensor(X[0]), ms.Tensor(t[0]))
    np.testing.assert_allclose(l1.asnumpy(), ref[0], rtol=1e-5)
    assert it1.shape == (4,)


# --- triplet margin ------------------------------------------------------------------------------
def _dist(a, b, p, eps):
    return np.sum(np.abs(a - b + eps) ** p, axis=1) ** (1.0 / p)


def _triplet_ref(a, pos, neg, margin=1.0, p=2, eps=1e-6, swap=False, reduction="mean"):
    dp, dn = _dist(a, pos, p, eps), _dist(a, neg, p, eps)
    if swap:
        dn = np.minimum(dn, _dist(pos, neg, p, eps))
    v = np.maximum(margin + dp - dn, 0)
    return {"mean": v.mean(), "sum": v.sum(), "none": v}[reduction]


@pytest.mark.parametrize("kw", [{}, {"p": 1, "swap": True, "margin": 0.5}, {"reduction": "none", "margin": 2.0},
                                {"p": 3, "reduction": "sum", "eps": 1e-3}])
def test_triplet_margin_loss(mode, kw):
    neg = RS.randn(3, 4).astype(np.float32)
    a, p, n = ms.Tensor(X), ms.Tensor(Y), ms.Tensor(neg)
    out = ops.triplet_margin_loss(a, p, n, **kw)
    np.testing.assert_allclose(out.asnumpy(), _triplet_ref(X, Y, neg, **kw), rtol=1e-5, atol=1e-6)
    cell_kw = dict(kw)
    margin = cell_kw.pop("margin", 1.0)
    np.testing.assert_allclose(nn.TripletMarginLoss(margin=margin, **cell_kw)(a, p, n).asnumpy(),
                               out.asnumpy(), rtol=1e-6)
    g = ms.grad(lambda u: ops.triplet_margin_loss(u, p, n, **kw).sum())(a)
    ref = _num_grad(lambda u: np.sum(_triplet_ref(u, Y, neg, **kw)), X)
    np.testing.assert_allclose(g.asnumpy(), ref, rtol=2e-3, atol=2e-3)


def test_triplet_margin_prim_and_errors():
    neg = RS.randn(3, 4).astype(np.float32)
    out = ops.TripletMarginLoss(p=2, swap=False, eps=1e-6, reduction="none")(
        ms.Tensor(X), ms.Tensor(Y), ms.Tensor(neg), ms.Tensor(0.7, ms.float32))
    np.testing.assert_allclose(out.asnumpy(), _triplet_ref(X, Y, neg, margin=0.7, reduction="none"), rtol=1e-5)
    with pytest.raises(ValueError):
        ops.triplet_margin_loss(ms.Tensor(X[0]), ms.Tensor(Y[0]), ms.Tensor(neg[0]))


# --- smooth_l1 with beta 0, LogSoftmaxExt -------------------------------------------------------------
def test_smooth_l1_beta_zero_is_l1():
    x, y = ms.Tensor(X), ms.Tensor(Y)
    np.testing.assert_allclose(ops.smooth_l1_loss(x, y, beta=0.0, reduction="mean").asnumpy(),
                               np.abs(X - Y).mean(), rtol=1e-6)
    np.testing.assert_allclose(nn.L1LossExt("none")(x, y).asnumpy(), np.abs(X - Y), rtol=1e-6)


@pytest.mark.parametrize("shape,dim", [((4,), 0), ((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4, 5), 1)])
def test_log_softmax_ext_implicit_dim(mode, shape, dim):
    x = np.random.RandomState(1).randn(*shape).astype(np.float32)
    out = nn.LogSoftmaxExt()(ms.Tensor(x))
    ref = x - np.log(np.exp(x).sum(axis=dim, keepdims=True))
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(nn.LogSoftmaxExt(-1)(ms.Tensor(x)).asnumpy(),
                               x - np.log(np.exp(x).sum(axis=-1, keepdims=True)), rtol=1e-5, atol=1e-6)


# --- random: RReLU, SampledSoftmaxLoss ------------------------------------------------------------------
def test_rrelu_distribution(mode):
    x = ms.Tensor(np.concatenate([-np.ones(4000), np.linspace(0.1, 3, 1000)]).astype(np.float32))
    net = nn.RReLU(lower=0.1, upper=0.3)
    out = net(x).asnumpy()
    slopes = -out[:4000]
    assert out.dtype == np.float32
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3
    assert abs(slopes.mean() - 0.2) < 0.01 and abs(slopes.std() - 0.2 / np.sqrt(12)) < 0.01
    np.testing.assert_array_equal(out[4000:], x.asnumpy()[4000:])
    ms.set_seed(5)
    a = ops.rrelu(x).asnumpy()
    ms.set_seed(5)
    b = ops.rrelu(x).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, ops.rrelu(x).asnumpy())
    s = -a[:4000]
    assert s.min() >= 1 / 8 - 1e-7 and s.max() <= 1 / 3 + 1e-7


def test_rrelu_grad():
    x = ms.Tensor(np.array([-2.0, -1.0, 1.5], np.float32))
    ms.set_seed(1)
    out = ops.rrelu(x)
    ms.set_seed(1)
    g = ms.grad(lambda a: ops.rrelu(a).sum())(x).asnumpy()
    np.testing.assert_allclose(g, out.asnumpy() / x.asnumpy(), rtol=1e-6)


def test_sampled_softmax_loss_random_sampler(mode):
    # the negatives come from MindSpore's UniformCandidateSampler kernel (tests/test_random_op_draws_samplers.py
    # checks the values against MindSpore's): a net's sampler goes on from call to call, and two nets with
    # the same seed draw the same negatives
    rs = np.random.RandomState(0)
    w, b = ms.Tensor(rs.randn(20, 3).astype(np.float32)), ms.Tensor(rs.randn(20).astype(np.float32))
    x = ms.Tensor(rs.randn(4, 3).astype(np.float32))
    labels = ms.Tensor(np.array([0, 5, 7, 9], np.int32))
    net = nn.SampledSoftmaxLoss(num_sampled=6, num_classes=20, seed=3)
    a = net(w, b, labels, x)
    a2 = net(w, b, labels, x)
    b2 = nn.SampledSoftmaxLoss(num_sampled=6, num_classes=20, seed=3)(w, b, labels, x)
    assert a.shape == (4,) and a.dtype == ms.float32
    assert np.all(np.isfinite(a.asnumpy())) and np.all(a.asnumpy() > 0)
    np.testing.assert_array_equal(a.asnumpy(), b2.asnumpy())
    assert not np.array_equal(a.asnumpy(), a2.asnumpy())
    g = ms.grad(lambda u: net(w, b, labels, u).sum())(x)
    assert g.shape == (4, 3) and np.all(np.isfinite(g.asnumpy()))
