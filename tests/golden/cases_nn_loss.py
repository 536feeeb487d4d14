"""Golden cases: the loss ops (functional and Primitive), the loss Cells and ``nn.LossBase``.

Every ``case_<name>(ms)`` uses only the module passed in. Inputs are fixed (seeded numpy);
gradients w.r.t. the logits (and, where MindSpore defines one, the labels) are taken with
``ms.grad``. Losses whose kernel MindSpore 2.10 lacks on CPU (soft_margin_loss,
multilabel_margin_loss, triplet_margin_loss) are checked against their formula in
tests/test_losses.py; only their argument errors are recorded here.

Name prefixes: f_ functional ops, p_ Primitives, c_ Cells, b_ LossBase, err_ errors.
"""
import numpy as np

RS = np.random.RandomState(0)
LOGITS = np.round(RS.randn(3, 4), 3).astype(np.float32)        # (N=3, C=4)
LOGITS2 = np.round(RS.randn(3, 4), 3).astype(np.float32)
PROB = np.round(RS.uniform(0.05, 0.95, (3, 4)), 3).astype(np.float32)
TARGET01 = np.round(RS.uniform(0, 1, (3, 4)), 3).astype(np.float32)
CLS = np.array([1, 0, 3], np.int32)
CLS_IGN = np.array([1, -100, 3], np.int32)
SIGN = np.array([[1, -1, 1, -1], [-1, -1, 1, 1], [1, 1, -1, 1]], np.float32)
W4 = np.array([0.5, 1.0, 2.0, 1.5], np.float32)


def _t(ms, a, dt=None):
    """A Tensor of ``a`` (Python floats become Float32, as numpy float64 arrays do unless ``dt`` says)."""
    a = np.asarray(a)
    if dt is None and a.dtype == np.float64:
        dt = np.float32
    return ms.Tensor(a.astype(dt) if dt is not None else a)


def _vg(ms, fn, *args, pos=0):
    """(fn(*args), grads of sum(fn(*args)) w.r.t. positions ``pos``)."""
    out = fn(*args)
    return {"out": out, "grad": ms.grad(lambda *a: fn(*a).sum(), grad_position=pos)(*args)}


# ===========================================================================
# regression losses
# ===========================================================================
def case_f_l1_loss(ms):
    x, y = _t(ms, LOGITS), _t(ms, LOGITS2)
    f = ms.ops.l1_loss
    return ([_vg(ms, lambda a, b: f(a, b, r), x, y, pos=(0, 1)) for r in ("mean", "sum", "none")],
            f(_t(ms, LOGITS, np.float64), _t(ms, LOGITS2, np.float64)),
            f(_t(ms, [[1, 5], [7, 2]], np.int32), _t(ms, [[2, 2], [2, 2]], np.int32)))


def case_f_mse_loss(ms):
    x, y = _t(ms, LOGITS), _t(ms, LOGITS2)
    f = ms.ops.mse_loss
    return ([_vg(ms, lambda a, b: f(a, b, r), x, y, pos=(0, 1)) for r in ("mean", "sum", "none")],
            f(_t(ms, LOGITS, np.float64), _t(ms, LOGITS2, np.float64)),
            f(_t(ms, [[1, 5], [7, 2]], np.int32), _t(ms, [[2, 2], [2, 2]], np.int32), "none"))


def case_f_smooth_l1_loss(ms):
    x, y = _t(ms, LOGITS), _t(ms, LOGITS2)
    f = ms.ops.smooth_l1_loss
    return (_vg(ms, f, x, y, pos=(0, 1)), _vg(ms, lambda a, b: f(a, b, 0.5, "mean"), x, y, pos=(0, 1)),
            _vg(ms, lambda a, b: f(a, b, beta=2.0, reduction="sum"), x, y, pos=(0, 1)),
            f(_t(ms, LOGITS, np.float64), _t(ms, LOGITS2, np.float64)))


def case_f_huber_loss(ms):
    x, y = _t(ms, LOGITS), _t(ms, LOGITS2)
    f = ms.ops.huber_loss
    return (_vg(ms, f, x, y, pos=(0, 1)), _vg(ms, lambda a, b: f(a, b, "sum", 0.5), x, y, pos=(0, 1)),
            _vg(ms, lambda a, b: f(a, b, reduction="none", delta=2), x, y),
            f(_t(ms, LOGITS, np.float64), _t(ms, LOGITS2, np.float64)))


def case_f_gaussian_nll_loss(ms):
    x, y = _t(ms, LOGITS), _t(ms, LOGITS2)
    var = _t(ms, PROB)
    f = ms.ops.gaussian_nll_loss
    var_row = _t(ms, PROB[:, 0])
    var_col = _t(ms, PROB[:, :1])
    return (_vg(ms, f, x, y, var, pos=(0, 1, 2)),
            _vg(ms, lambda a, b, v: f(a, b, v, full=True, reduction="sum"), x, y, var, pos=(0, 2)),
            _vg(ms, lambda a, b, v: f(a, b, v, reduction="none", eps=0.1), x, y, var_row, pos=(0, 2)),
            _vg(ms, lambda a, b, v: f(a, b, v, True, 1e-3, "none"), x, y, var_col, pos=(0, 2)))


def case_f_margin_ranking_loss(ms):
    x, y, t = _t(ms, LOGITS), _t(ms, LOGITS2), _t(ms, SIGN)
    f = ms.ops.margin_ranking_loss
    return (_vg(ms, f, x, y, t, pos=(0, 1)), _vg(ms, lambda a, b, c: f(a, b, c, 0.3, "sum"), x, y, t, pos=(0, 1)),
            _vg(ms, lambda a, b, c: f(a, b, c, margin=0.5, reduction="none"), x, y, t, pos=(0, 1)))


def case_f_hinge_embedding_loss(ms):
    x, t = _t(ms, LOGITS), _t(ms, SIGN)
    f = ms.ops.hinge_embedding_loss
    return (_vg(ms, f, x, t), _vg(ms, lambda a, b: f(a, b, 0.5, "sum"), x, t),
            _vg(ms, lambda a, b: f(a, b, margin=2, reduction="none"), x, t),
            f(_t(ms, LOGITS, np.float64), _t(ms, SIGN, np.float64)))


def case_f_cosine_embedding_loss(ms):
    x, y = _t(ms, LOGITS), _t(ms, LOGITS2)
    t = _t(ms, [1, -1, -1], np.int32)
    f = ms.ops.cosine_embedding_loss
    return (_vg(ms, f, x, y, t, pos=(0, 1)), _vg(ms, lambda a, b, c: f(a, b, c, -0.3, "sum"), x, y, t, pos=(0, 1)),
            _vg(ms, lambda a, b, c: f(a, b, c, margin=0.2, reduction="none"), x, y, t, pos=(0, 1)),
            f(_t(ms, [[1, 2], [3, 1]], np.int32), _t(ms, [[2, 1], [1, 1]], np.int32), _t(ms, [1, -1], np.int32)))


def case_f_multi_margin_loss(ms):
    x, t = _t(ms, LOGITS), _t(ms, CLS, np.int64)
    w = _t(ms, W4)
    f = ms.ops.multi_margin_loss
    return (_vg(ms, f, x, t), _vg(ms, lambda a, b: f(a, b, 2, 2, w, "none"), x, t),
            _vg(ms, lambda a, b: f(a, b, p=1, margin=3, weight=w, reduction="sum"), x, t))


def case_f_multilabel_soft_margin_loss(ms):
    x, y = _t(ms, LOGITS), _t(ms, (TARGET01 > 0.5).astype(np.float32))
    w = _t(ms, W4)
    f = ms.ops.multilabel_soft_margin_loss
    return (_vg(ms, f, x, y, pos=(0, 1)), _vg(ms, lambda a, b: f(a, b, w, "none"), x, y),
            _vg(ms, lambda a, b: f(a, b, weight=w, reduction="sum"), x, y))


# ===========================================================================
# probabilistic / classification losses
# ===========================================================================
def case_f_binary_cross_entropy(ms):
    x, y, w = _t(ms, PROB), _t(ms, TARGET01), _t(ms, np.tile(W4, (3, 1)))
    f = ms.ops.binary_cross_entropy
    return (_vg(ms, f, x, y, pos=(0, 1)), _vg(ms, lambda a, b: f(a, b, w, "none"), x, y, pos=(0, 1)),
            _vg(ms, lambda a, b: f(a, b, weight=w, reduction="sum"), x, y, pos=(0, 1)))


def case_f_binary_cross_entropy_clamp(ms):
    x = _t(ms, [0.0, 1.0, 0.3, 1e-20])
    y = _t(ms, [1.0, 0.0, 0.5, 1.0])
    return ms.ops.binary_cross_entropy(x, y, reduction="none")


def case_f_bce_with_logits(ms):
    x, y = _t(ms, LOGITS), _t(ms, TARGET01)
    w, pw = _t(ms, W4), _t(ms, [1.0, 3.0, 0.5, 2.0])
    f = ms.ops.binary_cross_entropy_with_logits
    return (_vg(ms, f, x, y, pos=(0, 1)), _vg(ms, lambda a, b: f(a, b, w, pw, "none"), x, y, pos=(0, 1)),
            _vg(ms, lambda a, b: f(a, b, weight=None, pos_weight=pw, reduction="sum"), x, y, pos=(0, 1)),
            _vg(ms, lambda a, b: f(a, b, _t(ms, np.tile(W4, (3, 1))), None), x, y))


def case_f_kl_div(ms):
    x = _t(ms, np.log(PROB))
    y = _t(ms, TARGET01 * (TARGET01 > 0.2))
    f = ms.ops.kl_div
    return ([_vg(ms, lambda a, b: f(a, b, r), x, y, pos=(0, 1)) for r in ("mean", "sum", "none", "batchmean")],
            f(_t(ms, np.log(PROB), np.float64), _t(ms, TARGET01, np.float64), "batchmean"))


def case_f_kl_div_negative_labels(ms):
    x = _t(ms, [[-1.0, -2.0], [-0.5, -3.0]])
    y = _t(ms, [[0.0, 0.3], [0.5, -0.2]])
    return _vg(ms, lambda a, b: ms.ops.kl_div(a, b, "none"), x, y, pos=(0, 1))


def case_f_nll_loss_float64_weight(ms):
    x = _t(ms, LOGITS)
    w = _t(ms, W4, np.float64)
    return (ms.ops.nll_loss(x, _t(ms, CLS), w), ms.ops.nll_loss(x, _t(ms, CLS), w, reduction="none"),
            ms.ops.cross_entropy(x, _t(ms, CLS), w, label_smoothing=0.1))


def case_f_nll_loss_2d(ms):
    x = _t(ms, LOGITS)
    f = ms.ops.nll_loss
    w = _t(ms, W4)
    return (_vg(ms, f, x, _t(ms, CLS)), _vg(ms, lambda a: f(a, _t(ms, CLS, np.int64), w), x),
            _vg(ms, lambda a: f(a, _t(ms, CLS_IGN), w, reduction="none"), x),
            _vg(ms, lambda a: f(a, _t(ms, CLS_IGN), reduction="sum"), x),
            _vg(ms, lambda a: f(a, _t(ms, CLS), ignore_index=0), x),
            _vg(ms, lambda a: f(a, _t(ms, CLS_IGN), w, label_smoothing=0.2), x),
            _vg(ms, lambda a: f(a, _t(ms, CLS), None, -100, "none", 0.1), x))


def case_f_nll_loss_nd(ms):
    f = ms.ops.nll_loss
    x1 = _t(ms, LOGITS[0])
    x3 = _t(ms, np.round(np.random.RandomState(3).randn(2, 3, 4), 3).astype(np.float32))
    t3 = _t(ms, [[0, 2, 1, 1], [2, 2, 0, 1]], np.int32)
    x4 = _t(ms, np.round(np.random.RandomState(4).randn(2, 3, 2, 2), 3).astype(np.float32))
    t4 = _t(ms, [[[0, 2], [1, 1]], [[2, 2], [0, 1]]], np.int32)
    w3 = _t(ms, [0.2, 1.0, 3.0])
    return (_vg(ms, lambda a: f(a, _t(ms, 2, np.int32)), x1),
            _vg(ms, lambda a: f(a, t3), x3), _vg(ms, lambda a: f(a, t3, w3, reduction="none"), x3),
            _vg(ms, lambda a: f(a, t4, w3), x4), _vg(ms, lambda a: f(a, t4, reduction="none"), x4),
            _vg(ms, lambda a: f(a, t3, w3, 2, "sum", 0.1), x3))


def case_f_cross_entropy_indices(ms):
    x = _t(ms, LOGITS)
    f = ms.ops.cross_entropy
    w = _t(ms, W4)
    return (_vg(ms, f, x, _t(ms, CLS)), _vg(ms, lambda a: f(a, _t(ms, CLS, np.int64), w), x),
            _vg(ms, lambda a: f(a, _t(ms, CLS_IGN), w, reduction="none"), x),
            _vg(ms, lambda a: f(a, _t(ms, CLS_IGN), reduction="sum", label_smoothing=0.1), x),
            _vg(ms, lambda a: f(a, _t(ms, CLS), w, 3, "mean", 0.25), x),
            _vg(ms, lambda a: f(a, _t(ms, 2, np.int32)), _t(ms, LOGITS[1])))


def case_f_cross_entropy_probs(ms):
    x = _t(ms, LOGITS)
    p = _t(ms, PROB / PROB.sum(1, keepdims=True))
    f = ms.ops.cross_entropy
    w = _t(ms, W4)
    return (_vg(ms, f, x, p, pos=(0, 1)), _vg(ms, lambda a, b: f(a, b, w, reduction="none"), x, p, pos=(0, 1)),
            _vg(ms, lambda a, b: f(a, b, w, reduction="sum", label_smoothing=0.2), x, p, pos=(0, 1)),
            _vg(ms, lambda a, b: f(a, b), _t(ms, LOGITS[0]), _t(ms, PROB[0]), pos=(0, 1)))


def case_f_cross_entropy_3d(ms):
    x = _t(ms, np.round(np.random.RandomState(3).randn(2, 3, 4), 3).astype(np.float32))
    t = _t(ms, [[0, 2, 1, 1], [2, 2, 0, 1]], np.int32)
    p = _t(ms, np.random.RandomState(5).dirichlet(np.ones(3), size=(2, 4)).transpose(0, 2, 1).astype(np.float32))
    w = _t(ms, [0.2, 1.0, 3.0])
    f = ms.ops.cross_entropy
    return (_vg(ms, lambda a: f(a, t, w), x), _vg(ms, lambda a: f(a, t, reduction="none", label_smoothing=0.3), x),
            _vg(ms, lambda a: f(a, p, w, reduction="none"), x), _vg(ms, lambda a: f(a, p), x))


def case_f_cross_entropy_float64(ms):
    x = _t(ms, LOGITS, np.float64)
    return ms.ops.cross_entropy(x, _t(ms, CLS)), ms.ops.nll_loss(x, _t(ms, CLS))


def _ctc_inputs(ms, dt=np.float32):
    lp = np.log(np.random.RandomState(0).dirichlet(np.ones(5), size=(6, 3))).astype(dt)   # (T=6, N=3, C=5)
    targets = np.array([[1, 2, 2], [3, 1, 0], [4, 0, 0]], np.int32)
    return _t(ms, lp), _t(ms, targets), _t(ms, [6, 5, 4], np.int32), _t(ms, [3, 2, 1], np.int32)


def case_f_ctc_loss(ms):
    lp, tg, il, tl = _ctc_inputs(ms)
    f = ms.ops.ctc_loss
    out = {}
    for r in ("none", "mean", "sum"):
        loss, alpha = f(lp, tg, il, tl, reduction=r)
        out[r] = (loss, ms.grad(lambda a: f(a, tg, il, tl, reduction=r)[0].sum())(lp))
    out["alpha"] = alpha
    return out


def case_f_ctc_loss_blank_int64(ms):
    lp, tg, il, tl = _ctc_inputs(ms)
    tg = _t(ms, [[0, 2, 2], [3, 0, 1], [4, 1, 1]], np.int64)
    f = ms.ops.ctc_loss
    return _vg(ms, lambda a: f(a, tg, _t(ms, [6, 5, 4], np.int64), _t(ms, [3, 2, 1], np.int64), blank=1)[0], lp)


def case_f_ctc_loss_float64(ms):
    lp, tg, il, tl = _ctc_inputs(ms, np.float64)
    loss, alpha = ms.ops.ctc_loss(lp, tg, il, tl)
    return loss, alpha, ms.grad(lambda a: ms.ops.ctc_loss(a, tg, il, tl)[0])(lp)


def case_f_ctc_loss_infeasible(ms):
    lp = _t(ms, np.log(np.random.RandomState(0).dirichlet(np.ones(4), size=(2, 2))).astype(np.float32))
    tg = _t(ms, [[1, 1], [2, 3]], np.int32)
    il, tl = _t(ms, [2, 2], np.int32), _t(ms, [2, 1], np.int32)
    f = ms.ops.ctc_loss
    out = {}
    for zi in (False, True):
        loss, alpha = f(lp, tg, il, tl, reduction="none", zero_infinity=zi)
        g = ms.grad(lambda a: f(a, tg, il, tl, reduction="none", zero_infinity=zi)[0][1])(lp)
        out[str(zi)] = (loss, alpha, g)
    return out


def case_f_ctc_loss_from_logits(ms):
    logits = _t(ms, np.round(np.random.RandomState(1).randn(6, 3, 5), 3).astype(np.float32))
    _, tg, il, tl = _ctc_inputs(ms)
    fn = lambda a: ms.ops.ctc_loss(ms.ops.log_softmax(a, -1), tg, il, tl)[0]  # noqa: E731
    return fn(logits), ms.grad(fn)(logits)


# ===========================================================================
# Primitives
# ===========================================================================
def case_p_binary_cross_entropy(ms):
    x, y, w = _t(ms, PROB), _t(ms, TARGET01), _t(ms, np.tile(W4, (3, 1)))
    o = ms.ops
    return (_vg(ms, lambda a, b: o.BinaryCrossEntropy()(a, b, w), x, y, pos=(0, 1)),
            _vg(ms, lambda a, b: o.BinaryCrossEntropy("none")(a, b), x, y, pos=(0, 1)),
            _vg(ms, lambda a, b: o.BinaryCrossEntropy(reduction="sum")(a, b, None), x, y))


def case_p_bce_with_logits(ms):
    x, y = _t(ms, LOGITS), _t(ms, TARGET01)
    w, pw = _t(ms, W4), _t(ms, [1.0, 3.0, 0.5, 2.0])
    o = ms.ops
    return (_vg(ms, lambda a, b: o.BCEWithLogitsLoss()(a, b, w, pw), x, y, pos=(0, 1)),
            _vg(ms, lambda a, b: o.BCEWithLogitsLoss("none")(a, b, None, None), x, y, pos=(0, 1)),
            _vg(ms, lambda a, b: o.BCEWithLogitsLoss(reduction="sum")(a, b), x, y))


def case_p_smooth_l1_loss(ms):
    x, y = _t(ms, LOGITS), _t(ms, LOGITS2)
    o = ms.ops
    return (_vg(ms, o.SmoothL1Loss(), x, y, pos=(0, 1)), _vg(ms, o.SmoothL1Loss(0.3, "mean"), x, y, pos=(0, 1)),
            _vg(ms, o.SmoothL1Loss(beta=2.0, reduction="sum"), x, y))


def case_p_kl_div_loss(ms):
    x = _t(ms, np.log(PROB))
    y = _t(ms, TARGET01 * (TARGET01 > 0.2))
    return [_vg(ms, ms.ops.KLDivLoss(r), x, y, pos=(0, 1)) for r in ("mean", "sum", "none", "batchmean")]


def case_p_nll_loss(ms):
    x, w = _t(ms, LOGITS), _t(ms, W4)
    o = ms.ops
    out = []
    for prim, t in ((o.NLLLoss(), CLS), (o.NLLLoss("none"), CLS), (o.NLLLoss("sum", 0), CLS),
                    (o.NLLLoss(ignore_index=3), CLS.astype(np.int64))):
        loss, total = prim(x, _t(ms, t), w)
        g = ms.grad(lambda a: prim(a, _t(ms, t), w)[0].sum())(x)
        out.append((loss, total, g))
    return out


def case_p_multi_margin_loss(ms):
    x, t, w = _t(ms, LOGITS), _t(ms, CLS, np.int64), _t(ms, W4)
    o = ms.ops
    return (_vg(ms, lambda a: o.MultiMarginLoss()(a, t), x), _vg(ms, lambda a: o.MultiMarginLoss(2, 0.5)(a, t, w), x),
            _vg(ms, lambda a: o.MultiMarginLoss(p=1, margin=2.0, reduction="none")(a, t, w), x))


def case_p_sigmoid_cross_entropy_with_logits(ms):
    x, y = _t(ms, LOGITS), _t(ms, TARGET01)
    return _vg(ms, ms.ops.SigmoidCrossEntropyWithLogits(), x, y, pos=(0, 1))


def case_p_softmax_cross_entropy_with_logits(ms):
    x = _t(ms, LOGITS)
    y = _t(ms, PROB / PROB.sum(1, keepdims=True))
    prim = ms.ops.SoftmaxCrossEntropyWithLogits()
    loss, backprop = prim(x, y)
    g = ms.grad(lambda a, b: prim(a, b)[0].sum(), grad_position=(0, 1))(x, y)
    g2 = ms.grad(lambda a, b: prim(a, b)[0].sum() + prim(a, b)[1].sum() * 3, grad_position=(0, 1))(x, y)
    c = _t(ms, [0.5, -1.0, 2.0])
    g3 = ms.grad(lambda a: (prim(a, y)[0] * c).sum())(x)
    return loss, backprop, g, g2, g3


def case_p_sparse_softmax_cross_entropy_with_logits(ms):
    x, t = _t(ms, LOGITS), _t(ms, CLS)
    o = ms.ops
    return (_vg(ms, lambda a: o.SparseSoftmaxCrossEntropyWithLogits()(a, t), x),
            o.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(x, _t(ms, CLS, np.int64)))


def case_p_ctc_loss_v2(ms):
    lp, tg, il, tl = _ctc_inputs(ms)
    prim = ms.ops.CTCLossV2()
    loss, alpha = prim(lp, tg, il, tl)
    g = ms.grad(lambda a: prim(a, tg, il, tl)[0].sum())(lp)
    return loss, alpha, g, ms.ops.CTCLossV2(blank=0, reduction="none", zero_infinity=True)(lp, tg, il, tl)[0]


# ===========================================================================
# Cells
# ===========================================================================
def _cg(ms, net, *args, pos=0):
    out = net(*args)
    return {"out": out, "grad": ms.grad(lambda *a: net(*a).sum(), grad_position=pos)(*args)}


def case_c_regression(ms):
    nn = ms.nn
    x, y = _t(ms, LOGITS), _t(ms, LOGITS2)
    cells = [nn.L1Loss(), nn.L1Loss("sum"), nn.L1Loss(reduction="none"), nn.MSELoss(), nn.MSELoss("none"),
             nn.RMSELoss(), nn.MAELoss(), nn.MAELoss("sum"), nn.SmoothL1Loss(), nn.SmoothL1Loss(0.5, "mean"),
             nn.HuberLoss(), nn.HuberLoss("none", 0.5), nn.HuberLoss(reduction="sum", delta=2.0)]
    return [_cg(ms, c, x, y, pos=(0, 1)) for c in cells]


def case_c_regression_dtypes(ms):
    nn = ms.nn
    x64, y64 = _t(ms, LOGITS, np.float64), _t(ms, LOGITS2, np.float64)
    xi, yi = _t(ms, [[1, 5], [7, 2]], np.int32), _t(ms, [[2, 2], [2, 2]], np.int32)
    return ([c(x64, y64) for c in (nn.L1Loss(), nn.MSELoss(), nn.RMSELoss(), nn.MAELoss(), nn.HuberLoss())],
            [c(xi, yi) for c in (nn.MSELoss(), nn.MAELoss(), nn.MSELoss("none"), nn.L1Loss())],
            _cg(ms, nn.MSELoss(), x64, y64))


def case_c_gaussian_poisson(ms):
    nn = ms.nn
    x, y, var = _t(ms, LOGITS), _t(ms, LOGITS2), _t(ms, PROB)
    cnt = _t(ms, np.array([[0, 1, 3, 2], [5, 0, 1, 1], [2, 2, 0, 4]], np.float32))
    return (_cg(ms, nn.GaussianNLLLoss(), x, y, var, pos=(0, 2)),
            _cg(ms, nn.GaussianNLLLoss(full=True, eps=0.1, reduction="none"), x, y, var, pos=(0, 2)),
            _cg(ms, nn.PoissonNLLLoss(), x, cnt), _cg(ms, nn.PoissonNLLLoss(full=True, reduction="none"), x, cnt),
            _cg(ms, nn.PoissonNLLLoss(log_input=False, reduction="sum"), _t(ms, PROB * 3), cnt),
            _cg(ms, nn.PoissonNLLLoss(log_input=False, full=True, eps=1e-4), _t(ms, PROB * 3), cnt))


def case_c_margin(ms):
    nn = ms.nn
    x, y, s = _t(ms, LOGITS), _t(ms, LOGITS2), _t(ms, SIGN)
    t3 = _t(ms, [1, -1, 1], np.int32)
    return (_cg(ms, nn.MarginRankingLoss(), x, y, s, pos=(0, 1)),
            _cg(ms, nn.MarginRankingLoss(0.2, "none"), x, y, s, pos=(0, 1)),
            _cg(ms, nn.HingeEmbeddingLoss(), x, s), _cg(ms, nn.HingeEmbeddingLoss(0.7, "sum"), x, s),
            _cg(ms, nn.CosineEmbeddingLoss(), x, y, t3, pos=(0, 1)),
            _cg(ms, nn.CosineEmbeddingLoss(margin=0.1, reduction="none"), x, y, t3, pos=(0, 1)))


def case_c_multi_margin(ms):
    nn = ms.nn
    x, t, w = _t(ms, LOGITS), _t(ms, CLS, np.int64), _t(ms, W4)
    y01 = _t(ms, (TARGET01 > 0.5).astype(np.float32))
    net_w = nn.MultiMarginLoss(p=2, margin=0.5, weight=w)
    return (_cg(ms, nn.MultiMarginLoss(), x, t), _cg(ms, net_w, x, t),
            _cg(ms, lambda a, b: nn.MultiMarginLoss(reduction="none")(a, b, w), x, t),
            _cg(ms, nn.MultiLabelSoftMarginLoss(), x, y01),
            _cg(ms, nn.MultiLabelSoftMarginLoss(weight=w, reduction="none"), x, y01))


def case_c_triplet_with_distance(ms):
    nn = ms.nn
    a, p, n = _t(ms, LOGITS), _t(ms, LOGITS2), _t(ms, PROB)
    l1 = lambda u, v: (u - v).abs().sum(1)  # noqa: E731
    return (_cg(ms, nn.TripletMarginWithDistanceLoss(), a, p, n, pos=(0, 1, 2)),
            _cg(ms, nn.TripletMarginWithDistanceLoss(swap=True, reduction="none", margin=2.0), a, p, n, pos=(0, 2)),
            _cg(ms, nn.TripletMarginWithDistanceLoss(distance_function=l1, reduction="sum"), a, p, n))


def case_c_bce(ms):
    nn = ms.nn
    x, y, w = _t(ms, PROB), _t(ms, TARGET01), _t(ms, np.tile(W4, (3, 1)))
    lx = _t(ms, LOGITS)
    return (_cg(ms, nn.BCELoss(), x, y), _cg(ms, nn.BCELoss(w, "none"), x, y, pos=(0, 1)),
            _cg(ms, nn.BCELoss(weight=w, reduction="sum"), x, y),
            _cg(ms, nn.BCEWithLogitsLoss(), lx, y, pos=(0, 1)),
            _cg(ms, nn.BCEWithLogitsLoss("none", _t(ms, W4), _t(ms, [1.0, 3.0, 0.5, 2.0])), lx, y),
            _cg(ms, nn.BCEWithLogitsLoss(reduction="sum", pos_weight=_t(ms, [2.0, 1.0, 1.0, 0.5])), lx, y))


def case_c_kl_div(ms):
    x = _t(ms, np.log(PROB))
    y = _t(ms, TARGET01 * (TARGET01 > 0.2))
    return [_cg(ms, ms.nn.KLDivLoss(r), x, y, pos=(0, 1)) for r in ("mean", "sum", "none", "batchmean")]


def case_c_softmax_cross_entropy(ms):
    nn = ms.nn
    x = _t(ms, LOGITS)
    p = _t(ms, PROB / PROB.sum(1, keepdims=True))
    t = _t(ms, CLS)
    return (_cg(ms, nn.SoftmaxCrossEntropyWithLogits(), x, p),
            _cg(ms, nn.SoftmaxCrossEntropyWithLogits(reduction="mean"), x, p),
            _cg(ms, nn.SoftmaxCrossEntropyWithLogits(sparse=True), x, t),
            _cg(ms, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), x, t),
            _cg(ms, nn.SoftmaxCrossEntropyWithLogits(True, "sum"), x, _t(ms, CLS, np.int64)))


def case_c_cross_entropy(ms):
    nn = ms.nn
    x, w = _t(ms, LOGITS), _t(ms, W4)
    p = _t(ms, PROB / PROB.sum(1, keepdims=True))
    return (_cg(ms, nn.CrossEntropyLoss(), x, _t(ms, CLS)),
            _cg(ms, nn.CrossEntropyLoss(w, reduction="none"), x, _t(ms, CLS_IGN)),
            _cg(ms, nn.CrossEntropyLoss(weight=w, ignore_index=3, label_smoothing=0.1), x, _t(ms, CLS)),
            _cg(ms, nn.CrossEntropyLoss(reduction="sum"), x, p),
            _cg(ms, nn.CrossEntropyLoss(w, label_smoothing=0.3), x, p, pos=(0, 1)))


def case_c_nll(ms):
    nn = ms.nn
    x, w = _t(ms, LOGITS), _t(ms, W4)
    return (_cg(ms, nn.NLLLoss(), x, _t(ms, CLS)), _cg(ms, nn.NLLLoss(w, reduction="none"), x, _t(ms, CLS_IGN)),
            _cg(ms, nn.NLLLoss(weight=w, ignore_index=0, reduction="sum"), x, _t(ms, CLS, np.int64)))


def case_c_ctc(ms):
    lp, tg, il, tl = _ctc_inputs(ms)
    nn = ms.nn
    lp2 = _t(ms, lp.asnumpy()[:, 0])
    tg_b = _t(ms, [[1, 2, 2], [3, 1, 0], [0, 0, 0]], np.int32)
    return (_cg(ms, nn.CTCLoss(), lp, tg, il, tl), nn.CTCLoss(reduction="none")(lp, tg, il, tl),
            nn.CTCLoss(blank=4, reduction="sum", zero_infinity=True)(lp, tg_b, il, tl),
            _cg(ms, nn.CTCLoss(), lp2, _t(ms, [1, 2, 2], np.int32), _t(ms, [6], np.int32), _t(ms, [3], np.int32)),
            nn.CTCLoss(reduction="none")(lp2, _t(ms, [[1, 2, 0]], np.int32), _t(ms, [5], np.int32),
                                         _t(ms, [2], np.int32)))


def case_c_focal(ms):
    nn = ms.nn
    x = _t(ms, LOGITS)
    onehot = _t(ms, np.eye(4, dtype=np.float32)[CLS])
    idx = _t(ms, CLS.reshape(3, 1))
    x4 = _t(ms, np.round(np.random.RandomState(4).randn(2, 3, 2, 2), 3).astype(np.float32))
    t4 = _t(ms, np.array([[[[0, 2], [1, 1]]], [[[2, 2], [0, 1]]]], np.int32))
    return (_cg(ms, nn.FocalLoss(), x, onehot), _cg(ms, nn.FocalLoss(gamma=1.5, reduction="none"), x, idx),
            _cg(ms, nn.FocalLoss(weight=_t(ms, W4), reduction="sum"), x, idx),
            _cg(ms, nn.FocalLoss(weight=_t(ms, W4)), x, onehot),
            _cg(ms, nn.FocalLoss(weight=_t(ms, [0.2, 1.0, 3.0])), x4, t4))


def case_c_dice(ms):
    nn = ms.nn
    x = _t(ms, PROB)
    y = _t(ms, (TARGET01 > 0.5).astype(np.float32))
    return (_cg(ms, nn.DiceLoss(), x, y), _cg(ms, nn.DiceLoss(smooth=0.5), x, y),
            _cg(ms, nn.MultiClassDiceLoss(), _t(ms, LOGITS), y),
            _cg(ms, nn.MultiClassDiceLoss(weights=_t(ms, np.ones((4, 4), np.float32) * 0.5), ignore_indiex=1,
                                          activation="sigmoid"), _t(ms, LOGITS), y),
            _cg(ms, nn.MultiClassDiceLoss(activation=None), x, y))


def case_c_sampled_softmax(ms):
    nn = ms.nn
    rs = np.random.RandomState(0)
    w = _t(ms, rs.randn(7, 3).astype(np.float32))
    b = _t(ms, rs.randn(7).astype(np.float32))
    x = _t(ms, rs.randn(3, 3).astype(np.float32))
    labels = _t(ms, [0, 1, 2], np.int32)
    sv = (_t(ms, [4, 5, 6], np.int32), _t(ms, np.full((3, 1), 0.4, np.float32)), _t(ms, np.full((3,), 0.4,
                                                                                                np.float32)))
    net = nn.SampledSoftmaxLoss(num_sampled=3, num_classes=7, sampled_values=sv)
    out = net(w, b, labels, x)
    g = ms.grad(lambda *a: net(*a).sum(), grad_position=(0, 1, 3))(w, b, labels, x)
    net2 = nn.SampledSoftmaxLoss(3, 7, num_true=2, sampled_values=sv, reduction="mean")
    l2 = _t(ms, [[0, 1], [2, 3], [1, 2]], np.int64)
    return out, g, net2(w, b, l2, x)


# ===========================================================================
# LossBase
# ===========================================================================
def _custom_loss(ms, reduction="mean"):
    class MyLoss(ms.nn.LossBase):
        def construct(self, logits, labels, w=None):
            x = ms.ops.abs(logits - labels)
            return self.get_loss(x) if w is None else self.get_loss(x, w)
    return MyLoss(reduction)


def case_b_get_loss(ms):
    x, y = _t(ms, LOGITS), _t(ms, LOGITS2)
    w = _t(ms, W4)
    out = []
    for r in ("mean", "sum", "none"):
        net = _custom_loss(ms, r)
        out.append((net(x, y), net(x, y, w), net(x, y, 2.0), _cg(ms, lambda a, b: net(a, b, w), x, y, pos=(0, 1))))
    return out


def case_b_get_loss_dtypes(ms):
    net, net_none = _custom_loss(ms), _custom_loss(ms, "none")
    xi, yi = _t(ms, [[1, 5], [7, 2]], np.int32), _t(ms, [[2, 2], [2, 2]], np.int32)
    x16, y16 = _t(ms, LOGITS, np.float16), _t(ms, LOGITS2, np.float16)
    x64, y64 = _t(ms, LOGITS, np.float64), _t(ms, LOGITS2, np.float64)
    return (net(xi, yi), net_none(xi, yi, 0.5), net(x16, y16), net(x64, y64), net_none(x64, y64, _t(ms, W4)),
            net(x64, y64, _t(ms, W4, np.float64)), _cg(ms, net, x64, y64))


def case_b_attrs(ms):
    nets = [_custom_loss(ms, r) for r in ("mean", "sum", "none")]
    return [(n.average, n.reduce, n.get_axis(_t(ms, LOGITS))) for n in nets]


def case_b_construct_not_implemented(ms):
    return ms.nn.LossBase()(_t(ms, LOGITS), _t(ms, LOGITS2))


# ===========================================================================
# errors
# ===========================================================================
def case_err_lossbase_reduction(ms):
    return ms.nn.LossBase("avg")


def case_err_l1_loss_reduction(ms):
    return ms.ops.l1_loss(_t(ms, LOGITS), _t(ms, LOGITS2), "avg")


def case_err_l1_loss_not_tensor(ms):
    return ms.ops.l1_loss(LOGITS.tolist(), _t(ms, LOGITS2))


def case_err_mse_loss_not_tensor(ms):
    return ms.ops.mse_loss(_t(ms, LOGITS), 1.0)


def case_err_mse_loss_reduction(ms):
    return ms.ops.mse_loss(_t(ms, LOGITS), _t(ms, LOGITS2), "avg")


def case_err_mse_cell_not_tensor(ms):
    return ms.nn.MSELoss()(_t(ms, LOGITS), 1.0)


def case_err_smooth_l1_int(ms):
    return ms.ops.smooth_l1_loss(_t(ms, [[1, 2]], np.int32), _t(ms, [[1, 1]], np.int32))


def case_err_smooth_l1_beta(ms):
    return ms.ops.smooth_l1_loss(_t(ms, LOGITS), _t(ms, LOGITS2), beta=-1.0)


def case_err_smooth_l1_reduction(ms):
    return ms.ops.smooth_l1_loss(_t(ms, LOGITS), _t(ms, LOGITS2), reduction="avg")


def case_err_smooth_l1_shape(ms):
    return ms.ops.smooth_l1_loss(_t(ms, LOGITS), _t(ms, LOGITS2[:2]))


def case_err_huber_delta(ms):
    return ms.ops.huber_loss(_t(ms, LOGITS), _t(ms, LOGITS2), delta=0.0)


def case_err_huber_delta_type(ms):
    return ms.ops.huber_loss(_t(ms, LOGITS), _t(ms, LOGITS2), delta="1")


def case_err_gaussian_eps(ms):
    return ms.ops.gaussian_nll_loss(_t(ms, LOGITS), _t(ms, LOGITS2), _t(ms, PROB), eps=1)


def case_err_gaussian_full(ms):
    return ms.ops.gaussian_nll_loss(_t(ms, LOGITS), _t(ms, LOGITS2), _t(ms, PROB), full=1)


def case_err_gaussian_not_tensor(ms):
    return ms.ops.gaussian_nll_loss(_t(ms, LOGITS), _t(ms, LOGITS2), 1.0)


def case_err_gaussian_reduction(ms):
    return ms.ops.gaussian_nll_loss(_t(ms, LOGITS), _t(ms, LOGITS2), _t(ms, PROB), reduction="avg")


def case_err_margin_ranking_margin(ms):
    return ms.ops.margin_ranking_loss(_t(ms, LOGITS), _t(ms, LOGITS2), _t(ms, SIGN), 1)


def case_err_margin_ranking_dtype(ms):
    return ms.ops.margin_ranking_loss(_t(ms, LOGITS), _t(ms, LOGITS2, np.float64), _t(ms, SIGN))


def case_err_hinge_int(ms):
    return ms.ops.hinge_embedding_loss(_t(ms, [[1, 2]], np.int32), _t(ms, [[1.0, -1.0]]))


def case_err_hinge_reduction(ms):
    return ms.ops.hinge_embedding_loss(_t(ms, LOGITS), _t(ms, SIGN), reduction="avg")


def case_err_hinge_margin(ms):
    return ms.ops.hinge_embedding_loss(_t(ms, LOGITS), _t(ms, SIGN), margin="1")


def case_err_cosine_margin(ms):
    return ms.ops.cosine_embedding_loss(_t(ms, LOGITS), _t(ms, LOGITS2), _t(ms, [1, -1, 1], np.int32), 1.5)


def case_err_cosine_target_shape(ms):
    return ms.ops.cosine_embedding_loss(_t(ms, LOGITS), _t(ms, LOGITS2), _t(ms, [1, -1], np.int32))


def case_err_cosine_dtype(ms):
    return ms.ops.cosine_embedding_loss(_t(ms, LOGITS), _t(ms, LOGITS2, np.float64), _t(ms, [1, -1, 1], np.int32))


def case_err_multi_margin_margin(ms):
    return ms.ops.multi_margin_loss(_t(ms, LOGITS), _t(ms, CLS, np.int64), margin=1.0)


def case_err_multi_margin_target(ms):
    return ms.ops.multi_margin_loss(_t(ms, LOGITS), _t(ms, CLS))


def case_err_multi_margin_rank(ms):
    return ms.ops.multi_margin_loss(_t(ms, LOGITS[0]), _t(ms, CLS[:1], np.int64))


def case_err_multilabel_margin_target(ms):
    return ms.ops.multilabel_margin_loss(_t(ms, LOGITS), _t(ms, [[3, 0, -1, 1]] * 3, np.int64))


def case_err_triplet_1d(ms):
    return ms.ops.triplet_margin_loss(_t(ms, LOGITS[0]), _t(ms, LOGITS2[0]), _t(ms, PROB[0]))


def case_err_bce_float64(ms):
    return ms.ops.binary_cross_entropy(_t(ms, PROB, np.float64), _t(ms, TARGET01, np.float64))


def case_err_bce_dtype_mismatch(ms):
    return ms.ops.binary_cross_entropy(_t(ms, PROB), _t(ms, TARGET01, np.float64))


def case_err_bce_shape(ms):
    return ms.ops.binary_cross_entropy(_t(ms, PROB), _t(ms, TARGET01[:2]))


def case_err_bce_reduction(ms):
    return ms.ops.binary_cross_entropy(_t(ms, PROB), _t(ms, TARGET01), reduction="avg")


def case_err_bce_int(ms):
    return ms.ops.binary_cross_entropy(_t(ms, [[1, 0]], np.int32), _t(ms, [[1, 0]], np.int32))


def case_err_bce_logits_weight_float64(ms):
    return ms.ops.binary_cross_entropy_with_logits(_t(ms, LOGITS), _t(ms, TARGET01), _t(ms, W4, np.float64))


def case_err_bce_logits_float64(ms):
    return ms.ops.binary_cross_entropy_with_logits(_t(ms, LOGITS, np.float64), _t(ms, TARGET01, np.float64))


def case_err_kl_div_reduction(ms):
    return ms.ops.kl_div(_t(ms, LOGITS), _t(ms, PROB), "avg")


def case_err_kl_div_reduction_type(ms):
    return ms.ops.kl_div(_t(ms, LOGITS), _t(ms, PROB), 1)


def case_err_cross_entropy_int_input(ms):
    return ms.ops.cross_entropy(_t(ms, [[1, 2]], np.int32), _t(ms, [1], np.int32))


def case_err_cross_entropy_smoothing_type(ms):
    return ms.ops.cross_entropy(_t(ms, LOGITS), _t(ms, CLS), label_smoothing=0)


def case_err_cross_entropy_reduction(ms):
    return ms.ops.cross_entropy(_t(ms, LOGITS), _t(ms, CLS), reduction="avg")


def case_err_cross_entropy_ignore_type(ms):
    return ms.ops.cross_entropy(_t(ms, LOGITS), _t(ms, CLS), ignore_index=1.0)


def case_err_ctc_reduction(ms):
    lp, tg, il, tl = _ctc_inputs(ms)
    return ms.ops.ctc_loss(lp, tg, il, tl, reduction="avg")


def case_err_ctc_blank_type(ms):
    lp, tg, il, tl = _ctc_inputs(ms)
    return ms.ops.ctc_loss(lp, tg, il, tl, blank=1.0)


def case_err_ctc_zero_infinity_type(ms):
    lp, tg, il, tl = _ctc_inputs(ms)
    return ms.ops.ctc_loss(lp, tg, il, tl, zero_infinity=1)


def case_err_softmax_ce_prim_rank(ms):
    return ms.ops.SoftmaxCrossEntropyWithLogits()(_t(ms, LOGITS[0]), _t(ms, PROB[0]))


def case_err_cell_cross_entropy_int64_labels(ms):
    return ms.nn.CrossEntropyLoss()(_t(ms, LOGITS), _t(ms, CLS, np.int64))


def case_err_cell_cross_entropy_shape(ms):
    return ms.nn.CrossEntropyLoss()(_t(ms, LOGITS), _t(ms, CLS[:2]))


def case_err_cell_cross_entropy_rank(ms):
    return ms.nn.CrossEntropyLoss()(_t(ms, LOGITS), _t(ms, [[[1]]], np.int32))


def case_err_cell_cross_entropy_smoothing(ms):
    return ms.nn.CrossEntropyLoss(label_smoothing=1.5)


def case_err_cell_cross_entropy_smoothing_type(ms):
    return ms.nn.CrossEntropyLoss(label_smoothing=0)


def case_err_cell_cross_entropy_weight(ms):
    return ms.nn.CrossEntropyLoss(weight=_t(ms, W4, np.float64))


def case_err_cell_nll_weight_type(ms):
    return ms.nn.NLLLoss(weight=W4)


def case_err_cell_nll_ignore_type(ms):
    return ms.nn.NLLLoss(ignore_index=1.0)


def case_err_cell_bce_logits_param(ms):
    return ms.nn.BCEWithLogitsLoss(weight=ms.Parameter(_t(ms, W4), name="w"))


def case_err_cell_cosine_margin_type(ms):
    return ms.nn.CosineEmbeddingLoss(margin=1)


def case_err_cell_cosine_margin_range(ms):
    return ms.nn.CosineEmbeddingLoss(margin=1.5)


def case_err_cell_cosine_shape(ms):
    return ms.nn.CosineEmbeddingLoss()(_t(ms, LOGITS), _t(ms, LOGITS2[:2]), _t(ms, [1, -1, 1], np.int32))


def case_err_cell_hinge_margin(ms):
    return ms.nn.HingeEmbeddingLoss(margin="1")


def case_err_cell_hinge_reduction(ms):
    return ms.nn.HingeEmbeddingLoss(reduction="avg")


def case_err_cell_gaussian_eps(ms):
    return ms.nn.GaussianNLLLoss(eps=0.0)


def case_err_cell_gaussian_full(ms):
    return ms.nn.GaussianNLLLoss(full=1)


def case_err_cell_gaussian_positional(ms):
    return ms.nn.GaussianNLLLoss(True)


def case_err_cell_triplet_distance_margin(ms):
    return ms.nn.TripletMarginWithDistanceLoss(margin=1)


def case_err_cell_softmax_ce_sparse_type(ms):
    return ms.nn.SoftmaxCrossEntropyWithLogits(sparse=1)


def case_err_cell_softmax_ce_reduction(ms):
    return ms.nn.SoftmaxCrossEntropyWithLogits(reduction="avg")


def case_err_cell_rmse_uint(ms):
    return ms.nn.RMSELoss()(_t(ms, [1, 2], np.uint8), _t(ms, [1, 1], np.uint8))


def case_err_cell_ctc_targets(ms):
    lp, tg, il, tl = _ctc_inputs(ms)
    return ms.nn.CTCLoss()(_t(ms, lp.asnumpy()[:, 0]), tg, _t(ms, [6], np.int32), _t(ms, [3], np.int32))


def case_err_cell_focal_gamma(ms):
    return ms.nn.FocalLoss(gamma=2)


def case_err_cell_focal_weight(ms):
    return ms.nn.FocalLoss(weight=W4)


def case_err_cell_focal_channel(ms):
    return ms.nn.FocalLoss()(_t(ms, LOGITS[:, :1]), _t(ms, CLS.reshape(3, 1)))


def case_c_focal_float64_labels(ms):
    return ms.nn.FocalLoss()(_t(ms, LOGITS), _t(ms, np.eye(4, dtype=np.float64)[CLS]))


def case_err_cell_dice_smooth(ms):
    return ms.nn.DiceLoss(smooth=0.0)


def case_err_cell_dice_shape(ms):
    return ms.nn.DiceLoss()(_t(ms, PROB), _t(ms, PROB[:2]))


def case_err_cell_multiclass_dice_activation(ms):
    return ms.nn.MultiClassDiceLoss(activation="gelu")


def case_err_cell_multiclass_dice_weights(ms):
    return ms.nn.MultiClassDiceLoss(weights=_t(ms, W4))


def case_err_cell_sampled_softmax_args(ms):
    return ms.nn.SampledSoftmaxLoss(num_sampled=8, num_classes=7)


def case_err_cell_sampled_softmax_num_true(ms):
    return ms.nn.SampledSoftmaxLoss(num_sampled=3, num_classes=7, num_true=0)


def case_err_cell_sampled_softmax_values(ms):
    return ms.nn.SampledSoftmaxLoss(num_sampled=3, num_classes=7, sampled_values=[1, 2])


def case_err_cell_sampled_softmax_labels(ms):
    net = ms.nn.SampledSoftmaxLoss(num_sampled=3, num_classes=7)
    return net(_t(ms, np.ones((7, 3), np.float32)), _t(ms, np.ones(7, np.float32)), _t(ms, [0.0, 1.0, 2.0]),
               _t(ms, np.ones((3, 3), np.float32)))


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
