"""Golden cases for ``mindspore.mint.nn.functional``, ``mindspore.mint.nn`` layers (forward and
gradients through ``ms.grad`` / ``ms.value_and_grad``) and ``mindspore.mint.optim`` (a few steps
on a small net, whole trajectories compared).

Layers are given fixed weights (``set_data``) so their outputs are comparable; random
initialisation is compared by shape and dtype only. Names MindSpore 2.10's CPU build cannot run
are reference-checked in tests/test_mint.py instead.
"""
import numpy as np

_X4 = (np.arange(2 * 3 * 5 * 5, dtype=np.float32).reshape(2, 3, 5, 5) % 7 - 3) / 2.0
_X3 = (np.arange(2 * 3 * 8, dtype=np.float32).reshape(2, 3, 8) % 5 - 2) / 2.0
_X5 = _X4[:, :, None].repeat(2, 2)
_A = np.array([[0.5, -1.25, 2.0, 0.0], [3.5, -0.75, 1.0, -2.0]], np.float32)
_PROB = np.array([[0.2, 0.7, 0.9, 0.4], [0.6, 0.1, 0.5, 0.8]], np.float32)
_TGT = np.array([[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 1.0, 1.0]], np.float32)
_LBL = np.array([3, 0], np.int64)


def _t(ms, a, dt=None):
    return ms.Tensor(np.array(a), dt)


def _F(ms):
    return ms.mint.nn.functional


def _w(shape, seed):
    return (np.random.RandomState(seed).standard_normal(shape) * 0.3).astype(np.float32)


def _fixed(layer, ms, **arrays):
    for name, arr in arrays.items():
        getattr(layer, name).set_data(ms.Tensor(arr))
    return layer


def _fwd_grad(ms, layer, x):
    """Output, input gradient and weight gradients of sum(layer(x) * ramp)."""
    out = layer(x)
    ramp = ms.Tensor(np.linspace(-1, 1, int(np.prod(out.shape)), dtype=np.float32).reshape(out.shape))
    fn = lambda v: (layer(v) * ramp).sum()  # noqa: E731
    params = layer.trainable_params()
    g = ms.grad(fn, 0, params)(x) if params else ms.grad(fn)(x)
    return [out, g]


# --- nn.functional ----------------------------------------------------------

_FUNCTIONAL = {
    "relu": lambda ms: _F(ms).relu(_t(ms, _A)),
    "relu6": lambda ms: _F(ms).relu6(_t(ms, _A * 3)),
    "silu": lambda ms: _F(ms).silu(_t(ms, _A)),
    "sigmoid": lambda ms: _F(ms).sigmoid(_t(ms, _A)),
    "tanh": lambda ms: _F(ms).tanh(_t(ms, _A)),
    "logsigmoid": lambda ms: _F(ms).logsigmoid(_t(ms, _A)),
    "elu": lambda ms: _F(ms).elu(_t(ms, _A), 0.5),
    "hardtanh": lambda ms: _F(ms).hardtanh(_t(ms, _A), -0.5, 1.5),
    "leaky_relu": lambda ms: _F(ms).leaky_relu(_t(ms, _A), 0.1),
    "threshold": lambda ms: _F(ms).threshold(_t(ms, _A), 0.6, -1.0),
    "gelu": lambda ms: [_F(ms).gelu(_t(ms, _A)), _F(ms).gelu(_t(ms, _A), approximate="tanh")],
    "hardshrink": lambda ms: _F(ms).hardshrink(_t(ms, _A), 0.8),
    "softshrink": lambda ms: _F(ms).softshrink(_t(ms, _A), 0.8),
    "hardsigmoid": lambda ms: _F(ms).hardsigmoid(_t(ms, _A)),
    "hardswish": lambda ms: _F(ms).hardswish(_t(ms, _A)),
    "selu": lambda ms: _F(ms).selu(_t(ms, _A)),
    "mish": lambda ms: _F(ms).mish(_t(ms, _A)),
    "softplus": lambda ms: _F(ms).softplus(_t(ms, _A), 2.0),
    "glu": lambda ms: _F(ms).glu(_t(ms, _A)),
    "prelu": lambda ms: _F(ms).prelu(_t(ms, _X3), _t(ms, [0.1, 0.2, 0.3], ms.float32)),
    "softmax": lambda ms: [_F(ms).softmax(_t(ms, _A)), _F(ms).softmax(_t(ms, _A), 0), _F(ms).softmax(_t(ms, _X3))],
    "log_softmax": lambda ms: [_F(ms).log_softmax(_t(ms, _A), 1), _F(ms).log_softmax(_t(ms, _X3))],
    "relu_": lambda ms: _F(ms).relu_(_t(ms, _A)),
    "sigmoid_": lambda ms: _F(ms).sigmoid_(_t(ms, _A)),
    "elu_": lambda ms: _F(ms).elu_(_t(ms, _A)),
    "hardtanh_": lambda ms: _F(ms).hardtanh_(_t(ms, _A)),
    "threshold_": lambda ms: _F(ms).threshold_(_t(ms, _A), 0.6, -1.0),
    "linear": lambda ms: [_F(ms).linear(_t(ms, _A), _t(ms, _w((3, 4), 0))),
                          _F(ms).linear(_t(ms, _A), _t(ms, _w((3, 4), 0)), _t(ms, _w((3,), 1)))],
    "conv1d": lambda ms: [_F(ms).conv1d(_t(ms, _X3), _t(ms, _w((4, 3, 3), 2)), _t(ms, _w((4,), 3)), 1, 1),
                          _F(ms).conv1d(_t(ms, _X3), _t(ms, _w((3, 1, 2), 2)), None, 2, 0, 1, 3)],
    "conv2d": lambda ms: [_F(ms).conv2d(_t(ms, _X4), _t(ms, _w((4, 3, 3, 3), 4)), _t(ms, _w((4,), 5)), 1, 1),
                          _F(ms).conv2d(_t(ms, _X4), _t(ms, _w((2, 3, 2, 2), 4)), None, 2, "valid"),
                          _F(ms).conv2d(_t(ms, _X4), _t(ms, _w((2, 3, 3, 3), 4)), None, 1, "same", 2)],
    "conv3d": lambda ms: _F(ms).conv3d(_t(ms, _X4[:, :, None].repeat(3, 2)), _t(ms, _w((2, 3, 2, 2, 2), 6)), None, 1,
                                                  1),
    "conv_transpose2d": lambda ms: _F(ms).conv_transpose2d(_t(ms, _X4), _t(ms, _w((3, 2, 3, 3), 7)),
                                                           _t(ms, _w((2,), 8)), 2, 1, 1),
    "avg_pool1d": lambda ms: _F(ms).avg_pool1d(_t(ms, _X3), 3, 2, 1),
    "avg_pool2d": lambda ms: [_F(ms).avg_pool2d(_t(ms, _X4), 2), _F(ms).avg_pool2d(_t(ms, _X4), 3, 2, 1, True, False)],
    "avg_pool3d": lambda ms: _F(ms).avg_pool3d(_t(ms, _X4[:, :, None].repeat(2, 2)), 2),
    "max_pool2d": lambda ms: [_F(ms).max_pool2d(_t(ms, _X4), 2), _F(ms).max_pool2d(_t(ms, _X4), 3, 2, 1),
                              _F(ms).max_pool2d(_t(ms, _X4), 2, return_indices=True)],
    "max_unpool2d": lambda ms: _F(ms).max_unpool2d(*_F(ms).max_pool2d(_t(ms, _X4[:, :, :4, :4]), 2,
                                                                      return_indices=True), 2),
    "adaptive_avg_pool1d": lambda ms: _F(ms).adaptive_avg_pool1d(_t(ms, _X3), 4),
    "adaptive_avg_pool2d": lambda ms: _F(ms).adaptive_avg_pool2d(_t(ms, _X4), 2),
    "adaptive_avg_pool3d": lambda ms: _F(ms).adaptive_avg_pool3d(_t(ms, _X4[:, :, None].repeat(2, 2)), 1),
    "adaptive_max_pool1d": lambda ms: _F(ms).adaptive_max_pool1d(_t(ms, _X3), 2),
    "adaptive_max_pool2d": lambda ms: _F(ms).adaptive_max_pool2d(_t(ms, _X4), 2),
    "batch_norm": lambda ms: [_F(ms).batch_norm(_t(ms, _X3), _t(ms, np.zeros(3, np.float32)),
                                                _t(ms, np.ones(3, np.float32))),
                              _F(ms).batch_norm(_t(ms, _X3), _t(ms, np.zeros(3, np.float32)),
                                                _t(ms, np.ones(3, np.float32)), _t(ms, _w((3,), 9)),
                                                _t(ms, _w((3,), 10)), True, 0.1, 1e-5)],
    "layer_norm": lambda ms: [_F(ms).layer_norm(_t(ms, _X3), (8,)),
                              _F(ms).layer_norm(_t(ms, _X3), (3, 8), _t(ms, _w((3, 8), 11)), _t(ms, _w((3, 8), 12)))],
    "group_norm": lambda ms: _F(ms).group_norm(_t(ms, _X4), 3, _t(ms, _w((3,), 13)), _t(ms, _w((3,), 14))),
    "normalize": lambda ms: [_F(ms).normalize(_t(ms, _A)), _F(ms).normalize(_t(ms, _A), 1.0, 0)],
    "dropout_shapes": lambda ms: [(o.shape, str(o.dtype)) for o in (
        _F(ms).dropout(_t(ms, _X4), 0.5), _F(ms).dropout2d(_t(ms, _X4), 0.5))]
    + [_F(ms).dropout(_t(ms, _A), 0.5, training=False), _F(ms).dropout(_t(ms, _A), 0.0)],
    "dropout_scale": lambda ms: sorted(set(np.round(_F(ms).dropout(_t(ms, np.ones((400,), np.float32)), 0.75)
                                                    .asnumpy(), 4).tolist())),
    "embedding": lambda ms: [_F(ms).embedding(_t(ms, [[0, 2], [3, 1]]), _t(ms, _w((4, 3), 15))),
                             _F(ms).embedding(_t(ms, [[0, 2], [3, 1]]), _t(ms, _w((4, 3), 15)), 1)],
    "one_hot": lambda ms: [_F(ms).one_hot(_t(ms, [0, 2, 1])), _F(ms).one_hot(_t(ms, [0, 2, 1]), 4)],
    "pad_constant": lambda ms: [_F(ms).pad(_t(ms, _X3), (1, 2)), _F(ms).pad(_t(ms, _X3), (1, 1), value=9.0)],
    "pad_reflect": lambda ms: _F(ms).pad(_t(ms, _X3), (2, 1), 'reflect'),
    "pad_replicate": lambda ms: _F(ms).pad(_t(ms, _X4), (1, 1, 2, 0), 'replicate'),
    "pad_circular": lambda ms: _F(ms).pad(_t(ms, _X3), (2, 2), 'circular'),
    "interpolate_nearest": lambda ms: [_F(ms).interpolate(_t(ms, _X4), scale_factor=2.0),
                                       _F(ms).upsample(_t(ms, _X4), size=(6, 6), mode='nearest')],
    "interpolate_bilinear": lambda ms: [
        _F(ms).interpolate(_t(ms, _X4), size=(3, 7), mode="bilinear", align_corners=False),
        _F(ms).interpolate(_t(ms, _X4), size=(4, 4), mode="bilinear", align_corners=True)],
    "interpolate_linear": lambda ms: _F(ms).interpolate(_t(ms, _X3), size=5, mode='linear'),
    "unfold": lambda ms: _F(ms).unfold(_t(ms, _X4), 2, 1, 0, 2),
    "fold": lambda ms: _F(ms).fold(_t(ms, np.arange(2 * 12 * 4, dtype=np.float32).reshape(2, 12, 4)), (3, 3), 2),
    "pixel_shuffle": lambda ms: _F(ms).pixel_shuffle(_t(ms, np.arange(32.0).reshape(1, 8, 2, 2)), 2),
    "flatten": lambda ms: [_F(ms).flatten(_t(ms, _X4)), _F(ms).flatten(_t(ms, _X4), 1, 2)],
    "grid_sample": lambda ms: _F(ms).grid_sample(_t(ms, _X4), _t(ms, _w((2, 3, 3, 2), 16) * 2), "bilinear", "zeros",
                                                 False),
    "mse_loss": lambda ms: [_F(ms).mse_loss(_t(ms, _A), _t(ms, _TGT), reduction=r) for r in ('mean', 'sum', 'none')],
    "l1_loss": lambda ms: [_F(ms).l1_loss(_t(ms, _A), _t(ms, _TGT), reduction=r) for r in ('mean', 'sum', 'none')],
    "smooth_l1_loss": lambda ms: [_F(ms).smooth_l1_loss(_t(ms, _A), _t(ms, _TGT), reduction=r)
                                  for r in ("mean", "sum", "none")]
    + [_F(ms).smooth_l1_loss(_t(ms, _A), _t(ms, _TGT), beta=0.5)],
    "binary_cross_entropy": lambda ms: [_F(ms).binary_cross_entropy(_t(ms, _PROB), _t(ms, _TGT)),
                                        _F(ms).binary_cross_entropy(_t(ms, _PROB), _t(ms, _TGT),
                                                                    _t(ms, _w((2, 4), 17)), "sum")],
    "binary_cross_entropy_with_logits": lambda ms: [_F(ms).binary_cross_entropy_with_logits(_t(ms, _A), _t(ms, _TGT)),
                                                    _F(ms).binary_cross_entropy_with_logits(
                                                        _t(ms, _A), _t(ms, _TGT), None, "none",
                                                        _t(ms, [1.0, 2.0, 0.5, 1.0], ms.float32))],
    "cross_entropy": lambda ms: [_F(ms).cross_entropy(_t(ms, _A), _t(ms, _LBL)),
                                 _F(ms).cross_entropy(_t(ms, _A), _t(ms, _LBL), reduction='none', label_smoothing=0.1),
                                 _F(ms).cross_entropy(_t(ms, _A), _t(ms, _TGT / 2))],
    "nll_loss": lambda ms: [_F(ms).nll_loss(_t(ms, _A), _t(ms, _LBL)),
                            _F(ms).nll_loss(_t(ms, _A), _t(ms, [3, -100]), ignore_index=-100, reduction='sum')],
    "kl_div": lambda ms: [_F(ms).kl_div(_t(ms, _A), _t(ms, _PROB), r) for r in ("mean", "sum", "none", "batchmean")]
    + [_F(ms).kl_div(_t(ms, _A), _t(ms, _A / 2), "sum", True)],
    "soft_margin_loss": lambda ms: _F(ms).soft_margin_loss(_t(ms, _A), _t(ms, _TGT * 2 - 1)),
    "cosine_embedding_loss": lambda ms: _F(ms).cosine_embedding_loss(_t(ms, _A), _t(ms, _A[::-1].copy()),
                                                                     _t(ms, [1, -1]), 0.1),
    "grad_functional": lambda ms: ms.grad(
        lambda x, w: (_F(ms).linear(x, w) ** 2).mean() + _F(ms).sigmoid(x).sum() + _F(ms).softmax(x, 1).max(),
        (0, 1))(_t(ms, _A), _t(ms, _w((3, 4), 18))),
    "err_softmax_dim_type": lambda ms: _F(ms).softmax(_t(ms, _A), 1.5),
}

# --- nn layers --------------------------------------------------------------


def _nn(ms):
    return ms.mint.nn


_LAYERS = {
    "linear": lambda ms: _fwd_grad(ms, _fixed(_nn(ms).Linear(4, 3), ms, weight=_w((3, 4), 20), bias=_w((3,), 21)),
                                   _t(ms, _A)),
    "conv1d": lambda ms: _fwd_grad(ms, _fixed(_nn(ms).Conv1d(3, 2, 3, padding=1), ms, weight=_w((2, 3, 3), 22),
                                              bias=_w((2,), 23)), _t(ms, _X3)),
    "conv2d": lambda ms: _fwd_grad(ms, _fixed(_nn(ms).Conv2d(3, 2, 3, 2, 1, bias=False), ms,
                                              weight=_w((2, 3, 3, 3), 24)), _t(ms, _X4)),
    "conv2d_reflect": lambda ms: _fwd_grad(ms, _fixed(_nn(ms).Conv2d(3, 2, 3, padding="same", padding_mode="reflect"),
                                                      ms, weight=_w((2, 3, 3, 3), 25), bias=_w((2,), 26)),
                                           _t(ms, _X4)),
    "conv3d": lambda ms: _fwd_grad(ms, _fixed(_nn(ms).Conv3d(3, 2, 2), ms, weight=_w((2, 3, 2, 2, 2), 27),
                                              bias=_w((2,), 28)), _t(ms, _X4[:, :, None].repeat(3, 2))),
    "conv_transpose2d": lambda ms: _fwd_grad(ms, _fixed(_nn(ms).ConvTranspose2d(3, 2, 3, 2, 1, 1), ms,
                                                        weight=_w((3, 2, 3, 3), 29), bias=_w((2,), 30)), _t(ms, _X4)),
    "batchnorm2d_train": lambda ms: _bn_steps(ms, _nn(ms).BatchNorm2d(3), _t(ms, _X4)),
    "batchnorm1d_train": lambda ms: _bn_steps(ms, _nn(ms).BatchNorm1d(3, momentum=None), _t(ms, _X3)),
    "batchnorm3d_train": lambda ms: _bn_steps(ms, _nn(ms).BatchNorm3d(3, momentum=0.3), _t(ms, _X5)),
    "syncbatchnorm_eval": lambda ms: _nn(ms).SyncBatchNorm(3)(_t(ms, _X3)),
    "maxunpool2d": lambda ms: _nn(ms).MaxUnpool2d(2)(_t(ms, [[[[1.0, 2.0], [3.0, 4.0]]]], ms.float32),
                                                    _t(ms, [[[[0, 3], [9, 15]]]])),
    "groupnorm": lambda ms: _fwd_grad(ms, _fixed(_nn(ms).GroupNorm(3, 3), ms, weight=_w((3,), 31), bias=_w((3,), 32)),
                                      _t(ms, _X4)),
    "layernorm": lambda ms: _fwd_grad(ms, _fixed(_nn(ms).LayerNorm(8), ms, weight=_w((8,), 33), bias=_w((8,), 34)),
                                      _t(ms, _X3)),
    "embedding": lambda ms: _embedding(ms),
    "prelu": lambda ms: _fwd_grad(ms, _fixed(_nn(ms).PReLU(3, 0.1), ms), _t(ms, _X3)),
    "fold_layer": lambda ms: _nn(ms).Fold((3, 3), 2)(_t(ms, np.arange(2 * 12 * 4, dtype=np.float32).reshape(2, 12, 4))),
    "dropout_layers": lambda ms: [(d(_t(ms, _X4)).shape, str(d(_t(ms, _X4)).dtype)) for d in
                                  (_nn(ms).Dropout(0.3), _nn(ms).Dropout2d(0.3))]
    + [_nn(ms).Dropout(0.3).set_train(False)(_t(ms, _A))],
    "param_names": lambda ms: [sorted(p.name for p in c.get_parameters()) for c in (
        _nn(ms).Linear(2, 3), _nn(ms).Conv2d(2, 4, 3), _nn(ms).BatchNorm2d(3), _nn(ms).GroupNorm(1, 2),
        _nn(ms).LayerNorm(4), _nn(ms).Embedding(3, 2), _nn(ms).PReLU())],
    "init_shapes": lambda ms: [(p.shape, str(p.dtype)) for c in (
        _nn(ms).Conv1d(2, 4, 3, bias=False), _nn(ms).Conv2d(4, 4, (2, 3), groups=2), _nn(ms).ConvTranspose2d(2, 4, 3),
        _nn(ms).BatchNorm1d(5, affine=False)) for p in c.get_parameters()],
    "repr": lambda ms: [str(c) for c in (
        _nn(ms).Linear(2, 3), _nn(ms).Conv2d(1, 2, 3), _nn(ms).Conv1d(2, 4, 3, 2, 1, bias=False),
        _nn(ms).ConvTranspose2d(2, 1, 2), _nn(ms).BatchNorm2d(3), _nn(ms).BatchNorm1d(2, momentum=None, affine=False),
        _nn(ms).GroupNorm(1, 2), _nn(ms).LayerNorm(4), _nn(ms).Embedding(3, 2), _nn(ms).ReLU(), _nn(ms).ELU(),
        _nn(ms).GELU(), _nn(ms).Softmax(1), _nn(ms).Flatten(), _nn(ms).Dropout(0.2), _nn(ms).ZeroPad2d(1),
        _nn(ms).AdaptiveAvgPool2d(2), _nn(ms).MaxPool2d(2), _nn(ms).AvgPool2d(2), _nn(ms).MSELoss(),
        _nn(ms).CrossEntropyLoss(), _nn(ms).PReLU(), _nn(ms).Upsample(scale_factor=2.0), _nn(ms).AdaptiveAvgPool1d(2),
        _nn(ms).AdaptiveMaxPool1d(2), _nn(ms).Unfold(2), _nn(ms).Fold((3, 3), 2), _nn(ms).Threshold(0.1, 2.0),
        _nn(ms).ConstantPad1d(1, 2.0), _nn(ms).BatchNorm3d(2), _nn(ms).MaxUnpool2d(2), _nn(ms).KLDivLoss())],
    "err_conv_padding_mode": lambda ms: _nn(ms).Conv2d(3, 2, 3, padding_mode="mirror"),
    "err_conv_groups": lambda ms: _nn(ms).Conv2d(3, 2, 3, groups=2),
}


def _embedding(ms):
    emb = _fixed(_nn(ms).Embedding(5, 3, padding_idx=1), ms, weight=_w((5, 3), 35))
    idx = _t(ms, [[0, 4], [2, 1]])
    g = ms.grad(lambda i: (emb(i) * ms.Tensor(_w((2, 2, 3), 36))).sum(), None, emb.trainable_params())(idx)
    return [emb(idx), g]


# case -> (mint.nn class name, constructor arguments, input): the layer's output on that input
_FWD_LAYERS = {
    "MaxPool2d": ("MaxPool2d", (2,), _X4), "AvgPool2d": ("AvgPool2d", (3, 2, 1), _X4),
    "AdaptiveAvgPool2d": ("AdaptiveAvgPool2d", (2,), _X4), "AdaptiveMaxPool2d": ("AdaptiveMaxPool2d", (3,), _X4),
    "PixelShuffle": ("PixelShuffle", (1,), _X4), "Unfold": ("Unfold", (2, 1, 0, 2), _X4),
    "Upsample": ("Upsample", (None, 2.0), _X4), "UpsamplingNearest2d": ("UpsamplingNearest2d", ((7, 7),), _X4),
    "UpsamplingBilinear2d": ("UpsamplingBilinear2d", (None, 2.0), _X4), "AvgPool1d": ("AvgPool1d", (2,), _X3),
    "AdaptiveAvgPool1d": ("AdaptiveAvgPool1d", (4,), _X3), "AdaptiveMaxPool1d": ("AdaptiveMaxPool1d", (2,), _X3),
    "AvgPool3d": ("AvgPool3d", (2,), _X5), "AdaptiveAvgPool3d": ("AdaptiveAvgPool3d", ((1, 2, 2),), _X5),
    "ZeroPad2d": ("ZeroPad2d", (1,), _X4), "ConstantPad2d": ("ConstantPad2d", ((1, 0, 2, 1), 3.5), _X4),
    "ReflectionPad2d": ("ReflectionPad2d", (2,), _X4), "ReplicationPad2d": ("ReplicationPad2d", ((1, 2, 0, 1),), _X4),
    "ZeroPad1d": ("ZeroPad1d", ((1, 2),), _X3), "ConstantPad1d": ("ConstantPad1d", (2, -1.0), _X3),
    "ReflectionPad1d": ("ReflectionPad1d", (1,), _X3), "ReplicationPad1d": ("ReplicationPad1d", (2,), _X3),
    "ZeroPad3d": ("ZeroPad3d", (1,), _X4), "ConstantPad3d": ("ConstantPad3d", (1, 2.0), _X4),
    "ReplicationPad3d": ("ReplicationPad3d", (1,), _X4), "ReflectionPad3d": ("ReflectionPad3d", (1,), _X4),
}
# case -> (loss class name, constructor keywords, inputs)
_LOSS_LAYERS = {
    "MSELoss": ("MSELoss", {}, (_A, _TGT)), "L1Loss": ("L1Loss", {"reduction": "sum"}, (_A, _TGT)),
    "SmoothL1Loss": ("SmoothL1Loss", {"reduction": "none", "beta": 0.5}, (_A, _TGT)),
    "BCELoss": ("BCELoss", {}, (_PROB, _TGT)),
    "BCEWithLogitsLoss": ("BCEWithLogitsLoss", {"pos_weight": np.array([1.0, 2.0, 0.5, 1.0], np.float32)},
                          (_A, _TGT)),
    "CrossEntropyLoss": ("CrossEntropyLoss", {"label_smoothing": 0.2}, (_A, _LBL)),
    "NLLLoss": ("NLLLoss", {"reduction": "sum"}, (_A, _LBL)),
    "KLDivLoss": ("KLDivLoss", {"reduction": "batchmean"}, (_A, _PROB)),
    "SoftMarginLoss": ("SoftMarginLoss", {}, (_A, _TGT * 2 - 1)),
    "CosineEmbeddingLoss": ("CosineEmbeddingLoss", {"margin": 0.2}, (_A, _A[::-1].copy(), np.array([1, -1]))),
}


def _fwd_layer(name, args, x):
    def case(ms):
        return getattr(ms.mint.nn, name)(*args)(_t(ms, x))
    return case


def _loss_layer(name, kw, inputs):
    def case(ms):
        kw_t = {k: _t(ms, v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        return getattr(ms.mint.nn, name)(**kw_t)(*[_t(ms, a) for a in inputs])
    return case


# layer name -> constructor arguments: forward and input gradient of mint.nn.<name>(*args)
_ACT_LAYERS = {
    "ReLU": (), "ReLU6": (), "ELU": (0.5,), "GELU": (), "GELU_tanh": ("tanh",), "SiLU": (), "Sigmoid": (), "Tanh": (),
    "LogSigmoid": (), "Mish": (), "SELU": (), "Hardtanh": (-0.5, 0.5), "Hardshrink": (0.6,), "Softshrink": (0.6,),
    "Hardsigmoid": (), "Hardswish": (), "Threshold": (0.1, 20.0), "Softmax": (1,), "LogSoftmax": (1,), "GLU": (),
    "Identity": (), "Flatten": (0,),
}


def _act_layer(name, args):
    def case(ms):
        return _fwd_grad(ms, getattr(ms.mint.nn, name.split("_")[0])(*args), _t(ms, _A * 0.5))
    return case


def _bn_steps(ms, bn, x):
    bn.set_train(True)
    outs = [bn(x), bn(x * 2)]
    bn.set_train(False)
    outs.append(bn(x))
    return outs + [bn.running_mean, bn.running_var, bn.num_batches_tracked]


# --- optim ------------------------------------------------------------------

def _trajectory(ms, make_opt, steps=4):
    """Losses and final weights of ``steps`` compiled training steps (``ms.jit``: MindSpore 2.10's
    CPU PyNative does not write the optimizers' in-place updates back)."""
    net = ms.mint.nn.Linear(4, 2)
    net.weight.set_data(ms.Tensor(_w((2, 4), 40)))
    net.bias.set_data(ms.Tensor(_w((2,), 41)))
    opt = make_opt(net)
    x, y = ms.Tensor(_A), ms.Tensor(np.array([[1.0, -1.0], [0.5, 2.0]], np.float32))

    def loss_fn(a, b):
        return ((net(a) - b) ** 2).mean()

    grad_fn = ms.value_and_grad(loss_fn, None, opt.parameters)

    @ms.jit
    def step(a, b):
        loss, grads = grad_fn(a, b)
        opt(grads)
        return loss

    losses = [step(x, y) for _ in range(steps)]
    return [losses, net.weight, net.bias]


_OPTIM = {
    "adam": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.Adam(n.trainable_params(), lr=0.1)),
    "adam_wd": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.Adam(
        n.trainable_params(), lr=0.05, betas=(0.8, 0.99), weight_decay=0.1)),
    "adam_amsgrad": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.Adam(
        n.trainable_params(), lr=0.05, betas=(0.8, 0.99), weight_decay=0.1, amsgrad=True)),
    "adam_maximize": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.Adam(n.trainable_params(), lr=0.01,
                                                                             maximize=True), 2),
    "adamw": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.AdamW(n.trainable_params(), lr=0.1)),
    "adamw_amsgrad": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.AdamW(n.trainable_params(), lr=0.05,
                                                                              weight_decay=0.2, amsgrad=True)),
    "fused_adamw": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.FusedAdamW(n.trainable_params(), lr=0.1)),
    "sgd": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.SGD(n.trainable_params(), lr=0.1)),
    "sgd_momentum": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.SGD(n.trainable_params(), lr=0.1, momentum=0.9,
                                                                           dampening=0.1, weight_decay=0.01)),
    "sgd_nesterov": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.SGD(n.trainable_params(), lr=0.05,
                                                                           momentum=0.8, nesterov=True)),
    "adam_groups": lambda ms: _trajectory(ms, lambda n: ms.mint.optim.Adam(
        [{"params": [n.weight], "lr": 0.2}, {"params": [n.bias], "weight_decay": 0.5}], lr=0.05)),
    "optim_state_names": lambda ms: [sorted(p.name for p in o.get_parameters() if ("exp_avg" in p.name
                                            or "momentum_buf" in p.name or "step" in p.name) and "max_" not in p.name
                                            and "global" not in p.name) for o in (
        ms.mint.optim.Adam(ms.mint.nn.Linear(2, 1).trainable_params()),
        ms.mint.optim.SGD(ms.mint.nn.Linear(2, 1).trainable_params(), 0.1, 0.9))],
    "err_adam_lr": lambda ms: ms.mint.optim.Adam(ms.mint.nn.Linear(2, 1).trainable_params(), lr=-1.0),
    "err_adam_betas": lambda ms: ms.mint.optim.Adam(ms.mint.nn.Linear(2, 1).trainable_params(), betas=(0.9, 1.0)),
    "err_sgd_nesterov": lambda ms: ms.mint.optim.SGD(ms.mint.nn.Linear(2, 1).trainable_params(), 0.1, nesterov=True),
}


# Cases whose MindSpore 2.10 (CPU) result is a missing-kernel error: not replayed as goldens,
# reference-checked by tests/test_mint.py (hand-written NumPy / JAX).
NO_CPU_KERNEL = {
    'layer_batchnorm3d_train', 'layer_maxunpool2d',
    'f_adaptive_avg_pool1d', 'f_adaptive_avg_pool2d', 'f_adaptive_avg_pool3d', 'f_adaptive_max_pool1d',
    'f_avg_pool1d', 'f_avg_pool2d', 'f_avg_pool3d', 'f_batch_norm', 'f_conv1d', 'f_conv2d', 'f_conv3d',
    'f_conv_transpose2d', 'f_cosine_embedding_loss', 'f_cross_entropy', 'f_dropout_scale', 'f_dropout_shapes',
    'f_elu', 'f_elu_', 'f_embedding', 'f_fold', 'f_gelu', 'f_hardtanh', 'f_hardtanh_', 'f_interpolate_bilinear',
    'f_interpolate_linear', 'f_kl_div', 'f_l1_loss', 'f_layer_norm', 'f_leaky_relu', 'f_log_softmax',
    'f_logsigmoid', 'f_max_pool2d', 'f_max_unpool2d', 'f_mish', 'f_mse_loss', 'f_normalize', 'f_one_hot',
    'f_pad_constant', 'f_pad_reflect', 'f_pad_replicate', 'f_relu6', 'f_relu_', 'f_selu', 'f_sigmoid_',
    'f_soft_margin_loss', 'f_threshold', 'f_threshold_', 'f_unfold', 'layer_act_ELU', 'layer_act_GELU',
    'layer_act_GELU_tanh', 'layer_act_Hardtanh', 'layer_act_LogSigmoid', 'layer_act_LogSoftmax', 'layer_act_Mish',
    'layer_act_ReLU6', 'layer_act_SELU', 'layer_act_Threshold', 'layer_batchnorm1d_train',
    'layer_batchnorm2d_train', 'layer_conv1d', 'layer_conv2d', 'layer_conv2d_reflect', 'layer_conv3d',
    'layer_conv_transpose2d', 'layer_embedding', 'layer_fold_layer', 'layer_fwd_AdaptiveAvgPool1d',
    'layer_fwd_AdaptiveAvgPool2d', 'layer_fwd_AdaptiveAvgPool3d', 'layer_fwd_AdaptiveMaxPool1d',
    'layer_fwd_AvgPool1d', 'layer_fwd_AvgPool2d', 'layer_fwd_AvgPool3d', 'layer_fwd_ConstantPad1d',
    'layer_fwd_ConstantPad2d', 'layer_fwd_ConstantPad3d', 'layer_fwd_MaxPool2d', 'layer_fwd_ReflectionPad1d',
    'layer_fwd_ReflectionPad2d', 'layer_fwd_ReflectionPad3d', 'layer_fwd_ReplicationPad1d',
    'layer_fwd_ReplicationPad2d', 'layer_fwd_ReplicationPad3d', 'layer_fwd_Unfold', 'layer_fwd_ZeroPad1d',
    'layer_fwd_ZeroPad2d', 'layer_fwd_ZeroPad3d', 'layer_layernorm', 'layer_loss_CosineEmbeddingLoss',
    'layer_loss_CrossEntropyLoss', 'layer_loss_KLDivLoss', 'layer_loss_L1Loss', 'layer_loss_MSELoss',
    'layer_loss_SoftMarginLoss', 'optim_adamw', 'optim_adamw_amsgrad'
}
# Cases where MindSpore 2.10 runs but is plainly wrong (reason), reference-checked the same way.
MINDSPORE_WRONG = {
    "optim_adam_amsgrad": "MindSpore 2.10's mint Adam never stores max_exp_avg_sq (its amsgrad is plain Adam)",
    "optim_fused_adamw": "MindSpore 2.10's CPU FusedAdamW fails (InplaceCopy kernel error)",
    "layer_fwd_UpsamplingBilinear2d": "MindSpore 2.10 passes a float scale where its kernel wants a tuple (TypeError)",
}


def _all_cases():
    out = {}
    out.update({"f_" + k: v for k, v in _FUNCTIONAL.items()})
    out.update({"layer_" + k: v for k, v in _LAYERS.items()})
    out.update({"layer_act_" + k: _act_layer(k, a) for k, a in _ACT_LAYERS.items()})
    out.update({"layer_fwd_" + k: _fwd_layer(*v) for k, v in _FWD_LAYERS.items()})
    out.update({"layer_loss_" + k: _loss_layer(*v) for k, v in _LOSS_LAYERS.items()})
    out.update({"optim_" + k: v for k, v in _OPTIM.items()})
    return dict(sorted(out.items()))


def all_cases():
    return {k: v for k, v in _all_cases().items() if k not in NO_CPU_KERNEL and k not in MINDSPORE_WRONG}


def reference_cases():
    return {k: v for k, v in _all_cases().items() if k in NO_CPU_KERNEL or k in MINDSPORE_WRONG}
