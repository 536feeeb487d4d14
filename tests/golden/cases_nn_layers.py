"""Golden cases: convolution / pooling / normalisation / dropout / resize / padding ops, the
``mindspore.nn`` layers built on them, and the deterministic initializers.

Every ``case_<name>(ms)`` uses only the module passed in. Weights are set explicitly with
``set_data`` from a seeded numpy RandomState (in ``parameters_and_names()`` order); gradients are
taken of ``sum(output * c)`` for a fixed random ``c`` so that every output element matters (forward and
gradient from one ``value_and_grad(..., has_aux=True)`` call, which keeps the suite fast).
Random ops are only recorded where they are deterministic (p=0, keep_prob=1, eval mode); their
distributions are tested in tests/test_layers_state.py.

Name prefixes: op_ functional ops / Primitives, l_ layers, init_ initializers, err_ errors,
repr_ printed layers.
"""
import numpy as np


# ===========================================================================
# helpers
# ===========================================================================
def _rs(seed, *shape):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def _t(ms, seed, *shape):
    return ms.Tensor(_rs(seed, *shape))


def _init(ms, net, seed=0, scale=0.5):
    """Set every parameter from a seeded RandomState, in parameters_and_names() order."""
    r = np.random.RandomState(seed)
    for _, p in net.parameters_and_names():
        p.set_data(ms.Tensor((r.randn(*p.shape) * scale).astype(np.float32)))
    return net


def _is_float(t):
    return "Float" in str(t.dtype)


def _flat(o):
    if isinstance(o, (tuple, list)):
        return [y for x in o for y in _flat(x)]
    return [o]


def _fg(ms, fn, *inputs, weights=None, seed=7):
    """Forward output and gradients of sum(out_i * c_i) (fixed random c_i over the float outputs) w.r.t. the
    inputs (and ``weights``), from one ``value_and_grad(..., has_aux=True)`` call."""
    def loss(*xs):
        out = fn(*xs)
        s = 0
        for i, o in enumerate(_flat(out)):
            if _is_float(o):
                s = s + (o * ms.Tensor(_rs(seed + i, *o.shape))).sum()
        return s, out
    pos = tuple(range(len(inputs)))
    (_, out), g = ms.value_and_grad(loss, pos, weights, has_aux=True)(*inputs)
    return {"out": out, "grad": g}


def _net(ms, net, *inputs, seed=0, init=True):
    if init:
        _init(ms, net, seed)
    return _fg(ms, net, *inputs, weights=net.trainable_params())


# ===========================================================================
# convolution ops
# ===========================================================================
def case_op_conv2d_valid(ms):
    x, w, b = _t(ms, 1, 2, 3, 6, 5), _t(ms, 2, 4, 3, 3, 2), _t(ms, 3, 4)
    return _fg(ms, lambda x, w, b: ms.ops.conv2d(x, w, b), x, w, b)


def case_op_conv2d_same_stride(ms):
    x, w = _t(ms, 1, 1, 2, 7, 6), _t(ms, 2, 3, 2, 3, 3)
    return _fg(ms, lambda x, w: ms.ops.conv2d(x, w, stride=2, pad_mode="same"), x, w)


def case_op_conv2d_pad_dilation_groups(ms):
    x, w = _t(ms, 1, 1, 4, 7, 7), _t(ms, 2, 6, 2, 3, 2)
    return _fg(ms, lambda x, w: ms.ops.conv2d(x, w, stride=(1, 2), pad_mode="pad", padding=(2, 1), dilation=(2, 1),
                                              groups=2), x, w)


def case_op_conv1d(ms):
    x, w, b = _t(ms, 1, 2, 3, 9), _t(ms, 2, 4, 3, 3), _t(ms, 3, 4)
    return _fg(ms, lambda x, w, b: ms.ops.conv1d(x, w, b, stride=2, pad_mode="pad", padding=1), x, w, b)


def case_op_conv3d(ms):
    x, w = _t(ms, 1, 1, 2, 4, 5, 4), _t(ms, 2, 3, 2, 2, 3, 2)
    return _fg(ms, lambda x, w: ms.ops.conv3d(x, w, pad_mode="same"), x, w)


def case_op_Conv2D_prim(ms):
    x, w = _t(ms, 1, 2, 3, 6, 6), _t(ms, 2, 4, 3, 3, 3)
    conv = ms.ops.Conv2D(out_channel=4, kernel_size=3, pad_mode="pad", pad=(1, 0, 2, 1), stride=2)
    return _fg(ms, lambda x, w: conv(x, w), x, w)


def case_op_Conv2D_same_dilation(ms):
    x, w = _t(ms, 1, 1, 2, 8, 7), _t(ms, 2, 3, 2, 3, 3)
    conv = ms.ops.Conv2D(3, (3, 3), pad_mode="same", dilation=2, stride=(1, 1, 2, 1))
    return _fg(ms, lambda x, w: conv(x, w), x, w)


def case_op_Conv2DTranspose_prim(ms):
    dout, w = _t(ms, 1, 2, 4, 3, 3), _t(ms, 2, 4, 3, 3, 3)
    op = ms.ops.Conv2DTranspose(out_channel=4, kernel_size=3, pad_mode="same", stride=2)
    return _fg(ms, lambda d, w: op(d, w, (2, 3, 6, 6)), dout, w)


def case_op_bias_add(ms):
    x, b = _t(ms, 1, 2, 3, 2, 2), _t(ms, 2, 3)
    return _fg(ms, lambda x, b: ms.ops.bias_add(x, b), x, b)


def case_op_BiasAdd_2d(ms):
    x, b = _t(ms, 1, 4, 3), _t(ms, 2, 3)
    return _fg(ms, lambda x, b: ms.ops.BiasAdd()(x, b), x, b)


def case_op_dense_bidense(ms):
    x, w, b = _t(ms, 1, 2, 3), _t(ms, 2, 4, 3), _t(ms, 3, 4)
    x1, x2, w2 = _t(ms, 4, 2, 3), _t(ms, 5, 2, 2), _t(ms, 6, 4, 3, 2)
    return {"dense": _fg(ms, lambda x, w, b: ms.ops.dense(x, w, b), x, w, b),
            "bidense": _fg(ms, lambda a, c, w: ms.ops.bidense(a, c, w), x1, x2, w2)}


def case_err_conv2d_channels(ms):
    return ms.ops.conv2d(_t(ms, 1, 1, 3, 5, 5), _t(ms, 2, 4, 2, 3, 3))


def case_err_conv2d_dtype(ms):
    return ms.ops.conv2d(ms.Tensor(np.ones((1, 1, 3, 3), np.int32)), ms.Tensor(np.ones((1, 1, 2, 2), np.int32)))


def case_err_conv2d_pad_mode(ms):
    return ms.ops.conv2d(_t(ms, 1, 1, 3, 5, 5), _t(ms, 2, 4, 3, 3, 3), pad_mode="full")


def case_err_conv2d_padding_not_pad(ms):
    return ms.ops.conv2d(_t(ms, 1, 1, 3, 5, 5), _t(ms, 2, 4, 3, 3, 3), padding=1)


def case_err_conv2d_rank(ms):
    return ms.ops.conv2d(_t(ms, 1, 3, 5, 5), _t(ms, 2, 4, 3, 3, 3))


def case_err_bias_add_len(ms):
    return ms.ops.bias_add(_t(ms, 1, 2, 3, 2), _t(ms, 2, 4))


def case_err_conv1d_rank(ms):
    return ms.ops.conv1d(_t(ms, 1, 2, 3, 4, 5), _t(ms, 2, 4, 3, 3))


# ===========================================================================
# pooling ops
# ===========================================================================
def case_op_MaxPool_valid(ms):
    x = _t(ms, 1, 2, 2, 6, 5)
    return _fg(ms, lambda x: ms.ops.MaxPool(kernel_size=3, strides=2)(x), x)


def case_op_MaxPool_same(ms):
    x = _t(ms, 1, 1, 2, 5, 6)
    return _fg(ms, lambda x: ms.ops.MaxPool(kernel_size=(2, 3), strides=(2, 2), pad_mode="SAME")(x), x)


def case_op_AvgPool_valid_same(ms):
    x = _t(ms, 1, 1, 2, 5, 6)
    return {"valid": _fg(ms, lambda x: ms.ops.AvgPool(kernel_size=2, strides=1)(x), x),
            "same": _fg(ms, lambda x: ms.ops.AvgPool(kernel_size=3, strides=2, pad_mode="same")(x), x)}


def case_op_max_pool2d_indices(ms):
    x = _t(ms, 1, 2, 2, 5, 6)
    out = ms.ops.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    g = ms.grad(lambda x: (ms.ops.max_pool2d(x, 3, stride=2, padding=1) * _t(ms, 9, 2, 2, 3, 3)).sum())(x)
    return {"out": out, "grad": g}


def case_op_max_pool2d_ceil_dilation(ms):
    x = _t(ms, 1, 1, 2, 7, 8)
    return {"ceil": ms.ops.max_pool2d(x, 2, stride=2, ceil_mode=True, return_indices=True),
            "dil": _fg(ms, lambda x: ms.ops.max_pool2d(x, (2, 3), stride=(2, 1), dilation=(2, 1)), x)}


def case_op_max_pool3d(ms):
    x = _t(ms, 1, 1, 2, 4, 4, 5)
    return {"out": ms.ops.max_pool3d(x, 2, stride=2, padding=1, return_indices=True),
            "fg": _fg(ms, lambda x: ms.ops.max_pool3d(x, (2, 2, 3), stride=1), x)}


def case_op_avg_pool1d(ms):
    x = _t(ms, 1, 2, 3, 7)
    return {"a": _fg(ms, lambda x: ms.ops.avg_pool1d(x, 3, 2, padding=1), x),
            "b": ms.ops.avg_pool1d(x, 2, 2, padding=1, ceil_mode=True, count_include_pad=False)}


def case_op_avg_pool2d(ms):
    x = _t(ms, 1, 1, 2, 5, 6)
    return {"a": _fg(ms, lambda x: ms.ops.avg_pool2d(x, 3, 2, padding=1), x),
            "nopad": ms.ops.avg_pool2d(x, 3, 2, padding=1, count_include_pad=False),
            "ceil": ms.ops.avg_pool2d(x, 2, 2, padding=1, ceil_mode=True),
            "div": ms.ops.avg_pool2d(x, (2, 3), (1, 2), divisor_override=4)}


def case_op_avg_pool3d(ms):
    x = _t(ms, 1, 1, 1, 4, 5, 4)
    return {"a": _fg(ms, lambda x: ms.ops.avg_pool3d(x, 2, 2, padding=1), x),
            "b": ms.ops.avg_pool3d(x, (2, 3, 2), 1, count_include_pad=False, padding=1)}


def case_op_lp_pool(ms):
    x = ms.Tensor(np.abs(_rs(1, 1, 2, 6, 6)) + 0.1)
    x1 = ms.Tensor(np.abs(_rs(2, 2, 3, 7)) + 0.1)
    return {"2d": _fg(ms, lambda x: ms.ops.lp_pool2d(x, 2, 3, stride=2), x),
            "1d": _fg(ms, lambda x: ms.ops.lp_pool1d(x, 3.0, 2), x1)}


def case_op_adaptive_avg_pool(ms):
    x2 = _t(ms, 1, 1, 2, 7, 5)
    x1 = _t(ms, 2, 2, 3, 6)
    x3 = _t(ms, 3, 1, 2, 5, 4, 3)
    return {"1d": _fg(ms, lambda x: ms.ops.adaptive_avg_pool1d(x, 3), x1),
            "2d": _fg(ms, lambda x: ms.ops.adaptive_avg_pool2d(x, (3, 2)), x2),
            "2d_none": ms.ops.adaptive_avg_pool2d(x2, (None, 3)),
            "3d": _fg(ms, lambda x: ms.ops.adaptive_avg_pool3d(x, (2, 3, 2)), x3)}


def case_op_adaptive_max_pool(ms):
    x2 = _t(ms, 1, 1, 2, 7, 5)
    x1 = _t(ms, 2, 2, 3, 6)
    return {"1d": _fg(ms, lambda x: ms.ops.adaptive_max_pool1d(x, 2), x1),
            "2d": _fg(ms, lambda x: ms.ops.adaptive_max_pool2d(x, (3, 2)), x2),
            "2d_idx": ms.ops.adaptive_max_pool2d(x2, 3, return_indices=True)}


def case_op_adaptive_avg_pool2d_3d_input(ms):
    return ms.ops.AdaptiveAvgPool2D(2)(_t(ms, 1, 3, 4, 6))


def case_err_maxpool_kernel_too_big(ms):
    return ms.ops.MaxPool(kernel_size=7)(_t(ms, 1, 1, 1, 5, 5))


def case_err_adaptive_avg_pool1d_divisible(ms):
    return ms.ops.adaptive_avg_pool1d(_t(ms, 1, 1, 2, 7), 3)


def case_err_adaptive_avg_pool1d_dtype(ms):
    return ms.ops.adaptive_avg_pool1d(ms.Tensor(np.ones((1, 2, 6), np.float64)), 3)


def case_err_max_pool2d_padding(ms):
    return ms.ops.max_pool2d(_t(ms, 1, 1, 1, 5, 5), 2, padding=2)


# ===========================================================================
# normalisation ops
# ===========================================================================
def case_op_lrn(ms):
    x = _t(ms, 1, 2, 6, 3, 2)
    return {"a": _fg(ms, lambda x: ms.ops.lrn(x, depth_radius=2, bias=0.5, alpha=0.3, beta=0.75), x),
            "prim": ms.ops.LRN()(x)}


def case_op_L2Normalize(ms):
    x = _t(ms, 1, 3, 4)
    return {"a0": _fg(ms, lambda x: ms.ops.L2Normalize()(x), x),
            "a1": _fg(ms, lambda x: ms.ops.L2Normalize(axis=-1, epsilon=1e-2)(x), x),
            "small": ms.ops.L2Normalize(axis=1)(ms.Tensor([[1e-4, 0.0], [3.0, 4.0]], ms.float32))}


def case_op_batch_norm_functional(ms):
    x = _t(ms, 1, 4, 3, 2, 2)
    rm = ms.Parameter(_t(ms, 2, 3), name="rm")
    rv = ms.Parameter(ms.Tensor(np.abs(_rs(3, 3)) + 0.5), name="rv")
    w, b = _t(ms, 4, 3), _t(ms, 5, 3)
    infer = ms.ops.batch_norm(x, rm, rv, w, b)
    train = ms.ops.batch_norm(x, rm, rv, w, b, training=True, momentum=0.2, eps=1e-3)
    g = ms.grad(lambda x, w, b: (ms.ops.batch_norm(x, rm, rv, w, b, training=True) * _t(ms, 9, 4, 3, 2, 2)).sum(),
                grad_position=(0, 1, 2))(x, w, b)
    return {"infer": infer, "train": train, "rm": rm.value(), "rv": rv.value(), "grad": g}


def case_op_BatchNorm_prim(ms):
    x = _t(ms, 1, 2, 3, 4, 4)
    p = [ms.Parameter(ms.Tensor(np.ones(3), ms.float32), name="s"), ms.Parameter(ms.Tensor(np.zeros(3), ms.float32),
                                                                             name="b"),
         ms.Parameter(ms.Tensor(np.zeros(3), ms.float32), name="m"), ms.Parameter(ms.Tensor(np.ones(3), ms.float32),
                                                                              name="v")]
    tr = ms.ops.BatchNorm(is_training=True)(x, *p)
    tr = (tr[0], tr[3], tr[4])   # outputs 1-2 are left unwritten by MindSpore's CPU kernel
    after = (p[2].value(), p[3].value())
    inf = ms.ops.BatchNorm(is_training=False, epsilon=1e-3)(x, *p)
    return {"train": tr, "after": after, "infer": inf}


def case_op_LayerNorm_prim(ms):
    x = _t(ms, 1, 2, 3, 4)
    g, b = _t(ms, 2, 3, 4), _t(ms, 3, 3, 4)
    return _fg(ms, lambda x, g, b: ms.ops.LayerNorm(1, 1)(x, g, b), x, g, b)


def case_op_LayerNorm_prim_last(ms):
    x = _t(ms, 1, 2, 3, 4)
    g, b = _t(ms, 2, 4), _t(ms, 3, 4)
    return _fg(ms, lambda x, g, b: ms.ops.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1, epsilon=1e-5)(x, g, b),
               x, g, b)


def case_op_group_norm(ms):
    x = _t(ms, 1, 2, 4, 3, 2)
    g, b = _t(ms, 2, 4), _t(ms, 3, 4)
    return {"a": _fg(ms, lambda x, g, b: ms.ops.group_norm(x, 2, g, b, eps=1e-3), x, g, b),
            "noaffine": ms.ops.group_norm(x, 4)}


def case_err_group_norm_groups(ms):
    return ms.ops.group_norm(_t(ms, 1, 2, 4, 3), 3)


def case_err_layer_norm_shape(ms):
    return ms.ops.LayerNorm()(_t(ms, 1, 2, 3), _t(ms, 2, 4), _t(ms, 3, 4))


# ===========================================================================
# dropout ops (deterministic settings)
# ===========================================================================
def case_op_dropout_deterministic(ms):
    x = _t(ms, 1, 2, 3, 2, 2)
    return {"p0": ms.ops.dropout(x, p=0.0), "eval": ms.ops.dropout(x, p=0.7, training=False),
            "d1_eval": ms.ops.dropout1d(_t(ms, 2, 2, 3, 4), 0.5, training=False),
            "d2_eval": ms.ops.dropout2d(x, 0.5, training=False),
            "d3_eval": ms.ops.dropout3d(_t(ms, 3, 1, 2, 2, 2, 2), 0.5, training=False),
            "prim_keep1": ms.ops.Dropout(keep_prob=1.0)(x),
            "d2_keep1": ms.ops.Dropout2D(keep_prob=1.0)(x),
            "d3_keep1": ms.ops.Dropout3D(keep_prob=1.0)(_t(ms, 3, 1, 2, 2, 2, 2))}


def case_op_dropout_shapes(ms):
    x = _t(ms, 1, 2, 3, 4, 4)
    o, m = ms.ops.Dropout(keep_prob=0.5)(x)
    o2, m2 = ms.ops.Dropout2D(keep_prob=0.5)(x)
    return {"o": (o.shape, str(o.dtype)), "m": (m.shape, str(m.dtype)), "o2": (o2.shape, str(o2.dtype)),
            "m2": (m2.shape, str(m2.dtype)), "f": (ms.ops.dropout(x, 0.3).shape, str(ms.ops.dropout(x, 0.3).dtype))}


def case_err_dropout1d_p_type(ms):
    return ms.ops.dropout1d(_t(ms, 1, 2, 3, 4), 1)


def case_err_dropout1d_rank(ms):
    return ms.ops.dropout1d(_t(ms, 1, 2, 3, 4, 5), 0.5)


# ===========================================================================
# resize / pixel shuffle / padding ops
# ===========================================================================
def case_op_interpolate_nearest(ms):
    x4 = _t(ms, 1, 1, 2, 3, 4)
    x3 = _t(ms, 2, 1, 2, 5)
    x5 = _t(ms, 3, 1, 1, 2, 3, 2)
    return {"4d": _fg(ms, lambda x: ms.ops.interpolate(x, size=(5, 7)), x4),
            "4d_down": ms.ops.interpolate(x4, size=(2, 3)),
            "3d": _fg(ms, lambda x: ms.ops.interpolate(x, size=8), x3),
            "5d_scale": ms.ops.interpolate(x5, scale_factor=(2.0, 1.5, 2.0)),
            "recompute": ms.ops.interpolate(x4, scale_factor=1.7, recompute_scale_factor=True)}


def case_op_interpolate_linear(ms):
    x4 = _t(ms, 1, 1, 2, 3, 4)
    x3 = _t(ms, 2, 1, 2, 5)
    return {"bilinear": _fg(ms, lambda x: ms.ops.interpolate(x, size=(5, 7), mode="bilinear"), x4),
            "bilinear_ac": _fg(ms, lambda x: ms.ops.interpolate(x, size=(5, 3), mode="bilinear", align_corners=True),
                               x4),
            "linear": _fg(ms, lambda x: ms.ops.interpolate(x, size=9, mode="linear"), x3),
            "linear_ac": ms.ops.interpolate(x3, size=3, mode="linear", align_corners=True)}


def case_op_interpolate_bicubic(ms):
    x4 = _t(ms, 1, 1, 1, 4, 5)
    return {"a": ms.ops.interpolate(x4, size=(6, 7), mode="bicubic"),
            "ac": ms.ops.interpolate(x4, size=(3, 8), mode="bicubic", align_corners=True)}


def case_op_interpolate_area_exact_trilinear(ms):
    x4 = _t(ms, 1, 1, 2, 5, 6)
    x5 = _t(ms, 2, 1, 1, 2, 3, 2)
    return {"area": _fg(ms, lambda x: ms.ops.interpolate(x, size=(2, 4), mode="area"), x4),
            "area_scale": ms.ops.interpolate(x4, scale_factor=0.5, mode="area"),
            "exact": ms.ops.interpolate(x4, size=(7, 4), mode="nearest-exact"),
            "tri": _fg(ms, lambda x: ms.ops.interpolate(x, size=(3, 5, 3), mode="trilinear"), x5),
            "tri_ac": ms.ops.interpolate(x5, size=(4, 4, 3), mode="trilinear", align_corners=True),
            "tri_scale": ms.ops.interpolate(x5, scale_factor=(2.0, 2.0, 1.5), mode="trilinear")}


def case_err_interpolate_nearest_scale_4d(ms):
    return ms.ops.interpolate(_t(ms, 1, 1, 1, 2, 2), scale_factor=2.0)


def case_err_interpolate_both(ms):
    return ms.ops.interpolate(_t(ms, 1, 1, 1, 2, 2), size=(3, 3), scale_factor=2.0)


def case_err_interpolate_mode(ms):
    return ms.ops.interpolate(_t(ms, 1, 1, 1, 2, 2), size=(3, 3), mode="linear")


def case_err_interpolate_align_nearest(ms):
    return ms.ops.interpolate(_t(ms, 1, 1, 1, 2, 2), size=(3, 3), align_corners=True)


def case_op_ResizeNearestNeighbor(ms):
    x = _t(ms, 1, 1, 2, 3, 4)
    return {"a": _fg(ms, lambda x: ms.ops.ResizeNearestNeighbor((5, 6))(x), x),
            "ac": ms.ops.ResizeNearestNeighbor((5, 7), align_corners=True)(x),
            "down": ms.ops.ResizeNearestNeighbor((2, 3))(x)}


def case_op_ResizeBilinearV2(ms):
    x = _t(ms, 1, 1, 2, 3, 4)
    return {"legacy": ms.ops.ResizeBilinearV2()(x, (5, 6)),
            "half": ms.ops.ResizeBilinearV2(half_pixel_centers=True)(x, (5, 6)),
            "ac": ms.ops.ResizeBilinearV2(align_corners=True)(x, (5, 6))}


def case_op_upsample(ms):
    return ms.ops.upsample(_t(ms, 1, 1, 1, 2, 3), size=(4, 5), mode="bilinear", align_corners=True)


def case_op_pixel_shuffle(ms):
    x = _t(ms, 1, 2, 8, 2, 3)
    y = _t(ms, 2, 3, 2, 4, 6)
    return {"shuffle": _fg(ms, lambda x: ms.ops.pixel_shuffle(x, 2), x),
            "unshuffle": _fg(ms, lambda x: ms.ops.pixel_unshuffle(x, 2), y),
            "3d_in": ms.ops.pixel_shuffle(_t(ms, 3, 9, 1, 2), 3)}


def case_err_pixel_shuffle(ms):
    return ms.ops.pixel_shuffle(_t(ms, 1, 1, 6, 2, 2), 2)


def case_op_pad_modes(ms):
    x = _t(ms, 1, 1, 2, 3, 4)
    return {"const": _fg(ms, lambda x: ms.ops.pad(x, (1, 2, 0, 1), value=1.5), x),
            "neg": ms.ops.pad(x, (-1, 1, 1, -1)),
            "reflect": ms.ops.pad(x, (2, 1, 1, 2), mode="reflect"),
            "replicate": _fg(ms, lambda x: ms.ops.pad(x, (2, 1, 1, 0), mode="replicate"), x),
            "circular": ms.ops.pad(x, (1, 2, 2, 1), mode="circular"),
            "3d_reflect": ms.ops.pad(_t(ms, 2, 2, 3, 4), [1, 1], mode="reflect"),
            "int": ms.ops.pad(ms.Tensor(np.arange(6).reshape(2, 3), ms.int32), (1, 1), value=7)}


def case_err_pad_odd(ms):
    return ms.ops.pad(_t(ms, 1, 2, 3), (1, 2, 3))


def case_err_pad_value_mode(ms):
    return ms.ops.pad(_t(ms, 1, 1, 2, 3), (1, 1), mode="reflect", value=1.0)


def case_op_Pad_MirrorPad(ms):
    x = _t(ms, 1, 2, 3, 4)
    return {"pad": _fg(ms, lambda x: ms.ops.Pad(((0, 1), (2, 0), (1, 1)))(x), x),
            "reflect": ms.ops.MirrorPad("REFLECT")(x, ms.Tensor([[0, 0], [1, 1], [2, 1]], ms.int64)),
            "sym": ms.ops.MirrorPad("SYMMETRIC")(x, ms.Tensor([[1, 0], [2, 2], [1, 3]], ms.int64))}


def case_op_unfold_fold(ms):
    x = _t(ms, 1, 1, 2, 5, 4)
    cols = _t(ms, 2, 1, 8, 12)
    return {"unfold": _fg(ms, lambda x: ms.ops.unfold(x, 2, dilation=(1, 2), padding=1, stride=(2, 1)), x),
            "fold": _fg(ms, lambda c: ms.ops.fold(c, ms.Tensor([4, 5], ms.int32), 2, stride=(2, 1), padding=(1, 0)),
                        cols)}


def case_op_grid_sample(ms):
    x = _t(ms, 1, 1, 2, 4, 5)
    grid = ms.Tensor(np.random.RandomState(2).uniform(-1.2, 1.2, (1, 3, 2, 2)).astype(np.float32))
    out = {}
    for mode in ("bilinear", "nearest"):
        for pm in ("zeros", "border", "reflection"):
            for ac in (False, True):
                out[f"{mode}_{pm}_{ac}"] = ms.ops.grid_sample(x, grid, mode, pm, ac)
    out["grad"] = _fg(ms, lambda x, g: ms.ops.grid_sample(x, g, align_corners=False), x, grid)
    return out


def case_op_deformable_conv2d(ms):
    x = _t(ms, 1, 1, 2, 5, 5)
    w = _t(ms, 2, 3, 2, 2, 2)
    offs = ms.Tensor((np.random.RandomState(3).uniform(-1, 1, (1, 12, 4, 4))).astype(np.float32))
    return ms.ops.deformable_conv2d(x, w, offs, (2, 2), (1, 1, 1, 1), (0, 0, 0, 0))


# ===========================================================================
# layers: dense family
# ===========================================================================
def case_l_dense_activation(ms):
    net = ms.nn.Dense(3, 4, activation="relu")
    return _net(ms, net, _t(ms, 1, 2, 5, 3))


def case_l_dense_no_bias_3d(ms):
    net = ms.nn.Dense(3, 2, has_bias=False)
    return _net(ms, net, _t(ms, 1, 2, 2, 3))


def case_l_linear(ms):
    net = ms.nn.Linear(3, 2)
    out = _net(ms, net, _t(ms, 1, 4, 3))
    return {"fg": out, "names": [n for n, _ in net.parameters_and_names()], "repr": repr(net)}


def case_l_bidense(ms):
    net = ms.nn.BiDense(3, 2, 4)
    return {"fg": _net(ms, net, _t(ms, 1, 2, 2, 3), _t(ms, 2, 2, 2, 2)), "repr": repr(net),
            "shape": net.weight.shape}


def case_err_dense_weight_shape(ms):
    return ms.nn.Dense(3, 4, weight_init=ms.Tensor(np.ones((3, 4), np.float32)))


def case_err_dense_in_channels(ms):
    return ms.nn.Dense(0, 3)


def case_err_dense_dtype(ms):
    return ms.nn.Dense(3, 2)(ms.Tensor(np.ones((2, 3), np.float64)))


def case_err_dense_activation_type(ms):
    return ms.nn.Dense(3, 2, activation=3)


# ===========================================================================
# layers: convolution
# ===========================================================================
def case_l_conv2d_same(ms):
    net = ms.nn.Conv2d(2, 3, 3, stride=2, has_bias=True)
    return _net(ms, net, _t(ms, 1, 2, 2, 7, 6))


def case_l_conv2d_pad_group(ms):
    net = ms.nn.Conv2d(4, 6, (3, 2), pad_mode="pad", padding=(1, 2, 0, 1), dilation=(1, 2), group=2)
    return _net(ms, net, _t(ms, 1, 1, 4, 5, 6))


def case_l_conv2d_valid(ms):
    net = ms.nn.Conv2d(1, 2, 3, pad_mode="valid", has_bias=True, weight_init="ones", bias_init="zeros")
    return {"fg": _net(ms, net, _t(ms, 1, 2, 1, 5, 5)), "repr": repr(net),
            "names": [n for n, _ in net.parameters_and_names()]}


def case_l_conv1d(ms):
    net = ms.nn.Conv1d(2, 4, 3, stride=2, pad_mode="pad", padding=1, has_bias=True, group=2)
    return {"fg": _net(ms, net, _t(ms, 1, 2, 2, 9)), "wshape": net.weight.shape}


def case_l_conv1d_same(ms):
    net = ms.nn.Conv1d(2, 3, 4, dilation=2)
    return _net(ms, net, _t(ms, 1, 1, 2, 10))


def case_l_conv3d(ms):
    net = ms.nn.Conv3d(2, 2, (2, 3, 2), stride=(1, 2, 1), pad_mode="pad", padding=(1, 0, 1, 1, 0, 1), has_bias=True)
    return _net(ms, net, _t(ms, 1, 1, 2, 3, 5, 4))


def case_l_conv3d_same_group(ms):
    net = ms.nn.Conv3d(2, 4, 2, group=2, has_bias=True)
    return _net(ms, net, _t(ms, 1, 1, 2, 3, 3, 3))


def case_l_conv2d_transpose(ms):
    out = {}
    for pm, pad in (("same", 0), ("valid", 0), ("pad", 1)):
        net = ms.nn.Conv2dTranspose(2, 3, 3, stride=2, pad_mode=pm, padding=pad, has_bias=True)
        out[pm] = _net(ms, net, _t(ms, 1, 1, 2, 3, 4))
    return out


def case_l_conv2d_transpose_outpad_group(ms):
    net = ms.nn.Conv2dTranspose(4, 2, (3, 2), stride=(2, 3), pad_mode="pad", padding=(1, 0, 0, 1),
                                output_padding=1, group=2, dilation=1, has_bias=True)
    return {"fg": _net(ms, net, _t(ms, 1, 1, 4, 3, 3)), "wshape": net.weight.shape}


def case_l_conv1d_transpose(ms):
    out = {}
    for pm, pad in (("same", 0), ("valid", 0), ("pad", 1)):
        net = ms.nn.Conv1dTranspose(2, 3, 3, stride=2, pad_mode=pm, padding=pad, has_bias=True)
        out[pm] = _net(ms, net, _t(ms, 1, 1, 2, 5))
    out["wshape"] = net.weight.shape
    return out


def case_l_conv3d_transpose(ms):
    out = {}
    for pm, pad in (("same", 0), ("valid", 0), ("pad", 1)):
        net = ms.nn.Conv3dTranspose(2, 3, (2, 3, 2), stride=2, pad_mode=pm, padding=pad, has_bias=True)
        out[pm] = _net(ms, net, _t(ms, 1, 1, 2, 2, 3, 2))
    return out


def case_l_conv3d_transpose_outpad(ms):
    net = ms.nn.Conv3dTranspose(2, 2, 3, stride=2, pad_mode="pad", padding=1, output_padding=1)
    return _net(ms, net, _t(ms, 1, 1, 2, 2, 2, 2))


def case_err_conv2d_layer_group(ms):
    return ms.nn.Conv2d(3, 4, 3, group=2)


def case_err_conv2d_layer_pad_mode(ms):
    return ms.nn.Conv2d(3, 4, 3, pad_mode="full")


def case_err_conv2d_layer_padding_same(ms):
    return ms.nn.Conv2d(3, 4, 3, padding=1)


def case_err_conv2d_layer_input_channels(ms):
    return ms.nn.Conv2d(3, 4, 3)(_t(ms, 1, 1, 2, 5, 5))


def case_err_conv1d_kernel_type(ms):
    return ms.nn.Conv1d(3, 4, (3,))


def case_err_conv2d_transpose_outpad(ms):
    return ms.nn.Conv2dTranspose(2, 2, 3, stride=2, output_padding=1)(_t(ms, 1, 1, 2, 3, 3))


def case_repr_conv(ms):
    nn = ms.nn
    return {"c2": repr(nn.Conv2d(3, 4, 3, weight_init="normal")),
            "c1": repr(nn.Conv1d(2, 3, 3, weight_init="ones", bias_init="zeros", has_bias=True)),
            "c3": repr(nn.Conv3d(2, 3, 3, weight_init="ones")),
            "t2": repr(nn.Conv2dTranspose(2, 3, 3, weight_init="ones")),
            "t1": repr(nn.Conv1dTranspose(2, 3, 3, weight_init="ones")),
            "t3": repr(nn.Conv3dTranspose(2, 3, 3, weight_init="ones"))}


def case_l_conv2d_kernel_spans_map(ms):
    """Convolutions whose (dilated) kernel covers the whole input, ResNet's late stages: msjax
    lowers some of their passes as patches + dot_general instead of XLA's convolution."""
    nn = ms.nn
    return {"s2_on_2x2": _net(ms, nn.Conv2d(3, 4, 3, stride=2, pad_mode="pad", padding=1), _t(ms, 1, 2, 3, 2, 2)),
            "on_1x1": _net(ms, nn.Conv2d(2, 3, 3, pad_mode="pad", padding=1, has_bias=True), _t(ms, 2, 2, 2, 1, 1),
                           seed=1),
            "1x1_s2_on_4x4": _net(ms, nn.Conv2d(4, 2, 1, stride=2), _t(ms, 3, 2, 4, 4, 4), seed=2),
            "same_s2_on_3x3": _net(ms, nn.Conv2d(2, 2, 3, stride=2), _t(ms, 4, 1, 2, 3, 3), seed=3)}


def case_l_conv_relu_maxpool_ties(ms):
    """A stem like ResNet's: convolution, ReLU (zeros tie), 3x3/2 max pooling; the gradient goes
    to one maximum per window (msjax pools the CPU as a max over window views)."""
    nn = ms.nn

    class Stem(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 3, 3, stride=2, pad_mode="pad", padding=1)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(3, 2, pad_mode="same")

        def construct(self, x):
            return self.pool(self.relu(self.conv(x)))

    x = np.where(_rs(5, 2, 2, 8, 8) > 0, 1.0, -1.0).astype(np.float32)
    ties = ms.Tensor(np.round(_rs(6, 1, 2, 5, 5)).astype(np.float32))
    return {"stem": _net(ms, Stem(), ms.Tensor(x)),
            "pool_ties_same": _fg(ms, nn.MaxPool2d(3, 2, pad_mode="same"), ties),
            "pool_ties_pad": _fg(ms, nn.MaxPool2d(3, 2, pad_mode="pad", padding=1), ties)}


# ===========================================================================
# layers: pooling
# ===========================================================================
def case_l_maxpool2d(ms):
    nn = ms.nn
    x = _t(ms, 1, 2, 2, 6, 7)
    return {"valid": _fg(ms, nn.MaxPool2d(3, 2), x),
            "same": nn.MaxPool2d((2, 3), (2, 2), pad_mode="same")(x),
            "pad": _fg(ms, nn.MaxPool2d(3, 2, pad_mode="pad", padding=1), x),
            "pad_idx": nn.MaxPool2d(2, 2, pad_mode="pad", padding=1, return_indices=True, ceil_mode=True)(x),
            "unbatched": nn.MaxPool2d(2, 2)(_t(ms, 2, 3, 4, 4)),
            "repr": repr(nn.MaxPool2d(2, 2))}


def case_l_maxpool1d_3d(ms):
    nn = ms.nn
    x1 = _t(ms, 1, 2, 3, 9)
    x3 = _t(ms, 2, 1, 2, 4, 5, 4)
    return {"1d": _fg(ms, nn.MaxPool1d(3, 2), x1),
            "1d_same": nn.MaxPool1d(2, 2, pad_mode="same")(x1),
            "1d_pad": nn.MaxPool1d(3, 2, pad_mode="pad", padding=1, return_indices=True)(x1),
            "1d_unbatched": nn.MaxPool1d(2, 2)(_t(ms, 3, 3, 6)),
            "3d": _fg(ms, nn.MaxPool3d(2, 2), x3),
            "3d_pad": nn.MaxPool3d(2, 1, pad_mode="pad", padding=1, return_indices=True)(x3),
            "repr": (repr(nn.MaxPool1d(2, 2)), repr(nn.MaxPool3d(2)))}


def case_l_avgpool(ms):
    nn = ms.nn
    x2 = _t(ms, 1, 2, 2, 6, 7)
    x1 = _t(ms, 2, 2, 3, 9)
    x3 = _t(ms, 3, 1, 2, 4, 5, 4)
    return {"2d": _fg(ms, nn.AvgPool2d(3, 2), x2),
            "2d_same": nn.AvgPool2d(3, 2, pad_mode="same")(x2),
            "2d_pad": _fg(ms, nn.AvgPool2d(3, 2, pad_mode="pad", padding=1, count_include_pad=False), x2),
            "2d_div": nn.AvgPool2d(2, 2, divisor_override=3)(x2),
            "2d_ceil": nn.AvgPool2d(2, 2, ceil_mode=True)(x2),
            "1d": _fg(ms, nn.AvgPool1d(3, 2), x1),
            "1d_short": nn.AvgPool1d(8, 4)(x1),
            "1d_pad": nn.AvgPool1d(3, 2, pad_mode="pad", padding=1)(x1),
            "1d_same": nn.AvgPool1d(2, 2, pad_mode="same")(x1),
            "3d": _fg(ms, nn.AvgPool3d(2, 2), x3),
            "3d_pad": nn.AvgPool3d(2, 2, pad_mode="pad", padding=1, count_include_pad=False)(x3),
            "repr": (repr(nn.AvgPool2d(2, 2)), repr(nn.AvgPool1d(2, 2)), repr(nn.AvgPool3d(2)))}


def case_l_adaptive_pools(ms):
    nn = ms.nn
    x1 = _t(ms, 1, 2, 3, 8)
    x2 = _t(ms, 2, 1, 2, 7, 6)
    x3 = _t(ms, 3, 1, 2, 5, 4, 3)
    return {"avg1": _fg(ms, nn.AdaptiveAvgPool1d(4), x1), "max1": _fg(ms, nn.AdaptiveMaxPool1d(2), x1),
            "avg2": _fg(ms, nn.AdaptiveAvgPool2d((3, 4)), x2), "max2": _fg(ms, nn.AdaptiveMaxPool2d(3), x2),
            "max2_idx": nn.AdaptiveMaxPool2d((2, 4), return_indices=True)(x2),
            "avg3": _fg(ms, nn.AdaptiveAvgPool3d((2, 2, 2)), x3)}


def case_l_lppool(ms):
    nn = ms.nn
    x2 = ms.Tensor(np.abs(_rs(1, 1, 2, 5, 6)) + 0.1)
    x1 = ms.Tensor(np.abs(_rs(2, 1, 2, 7)) + 0.1)
    return {"2d": _fg(ms, nn.LPPool2d(2, (2, 3), 2), x2), "1d": _fg(ms, nn.LPPool1d(1, 3, 2), x1)}


def case_err_maxpool2d_padding_valid(ms):
    return ms.nn.MaxPool2d(2, 2, padding=1)


def case_err_maxpool2d_pad_mode(ms):
    return ms.nn.MaxPool2d(2, 2, pad_mode="full")


def case_err_adaptive_max_pool1d_size(ms):
    return ms.nn.AdaptiveMaxPool1d(3)(_t(ms, 1, 1, 2, 8))


def case_err_avgpool_kernel(ms):
    return ms.nn.AvgPool2d(kernel_size=0)


# ===========================================================================
# layers: normalisation
# ===========================================================================
def case_l_batchnorm2d_train_eval(ms):
    nn = ms.nn
    net = nn.BatchNorm2d(3, momentum=0.8)
    _init(ms, net, 1)
    net.moving_variance.set_data(ms.Tensor(np.abs(_rs(5, 3)) + 0.5))
    x = _t(ms, 2, 4, 3, 2, 3)
    net.set_train()
    fg = _fg(ms, net, x, weights=net.trainable_params())
    stats = (net.moving_mean.value(), net.moving_variance.value())
    net.set_train(False)
    ev = _fg(ms, net, x, weights=net.trainable_params())
    return {"train": fg, "stats": stats, "eval": ev,
            "stats_after_eval": (net.moving_mean.value(), net.moving_variance.value())}


def case_l_batchnorm2d_float16_stats(ms):
    """Float16 input (plain, in a to_float(float16) cell, and under O3 inside a network): the moving
    statistics stay float32 and are updated in float32 (issue 36: 249.875 vs 249.926)."""
    nn = ms.nn
    rs = np.random.RandomState(0)
    x = (rs.randn(4, 3, 5, 5) * 20 + 3).astype(np.float32)
    out = {}
    for name in ("plain", "to_float"):
        bn = nn.BatchNorm2d(3)
        if name == "to_float":
            bn.to_float(ms.float16)
        bn.set_train()
        y = bn(ms.Tensor(x.astype(np.float16)))
        y = bn(ms.Tensor(x[::-1].copy().astype(np.float16)))
        bn.set_train(False)
        out[name] = [str(y.dtype), bn.moving_mean.value(), bn.moving_variance.value(),
                     bn(ms.Tensor(x.astype(np.float16))).astype(ms.float32).sum()]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 3, 1, weight_init="ones")
            self.bn = nn.BatchNorm2d(3)

        def construct(self, a):
            return self.bn(self.conv(a)).sum()
    net = Net()
    tr = ms.amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.0), level="O3")
    tr.set_train()
    tr(ms.Tensor(x))
    tr(ms.Tensor(x * 0.5))
    out["O3"] = [net.bn.moving_mean.value(), net.bn.moving_variance.value()]
    return out


def case_l_batchnorm1d(ms):
    nn = ms.nn
    out = {}
    for shape in ((4, 3), (3, 3, 2)):
        net = nn.BatchNorm1d(3, eps=1e-3)
        _init(ms, net, 2)
        net.moving_variance.set_data(ms.Tensor(np.abs(_rs(5, 3)) + 0.5))
        net.set_train()
        out[str(len(shape))] = {"fg": _fg(ms, net, _t(ms, 3, *shape), weights=net.trainable_params()),
                                "mm": net.moving_mean.value(), "mv": net.moving_variance.value()}
        net.set_train(False)
        out[str(len(shape)) + "e"] = net(_t(ms, 3, *shape))
    return out


def case_l_batchnorm3d(ms):
    net = ms.nn.BatchNorm3d(2)
    _init(ms, net, 3)
    net.bn2d.moving_variance.set_data(ms.Tensor(np.abs(_rs(5, 2)) + 0.5))
    net.set_train()
    fg = _fg(ms, net, _t(ms, 4, 2, 2, 2, 3, 2), weights=net.trainable_params())
    return {"fg": fg, "names": [n for n, _ in net.parameters_and_names()],
            "mm": net.bn2d.moving_mean.value(), "mv": net.bn2d.moving_variance.value()}


def case_l_batchnorm_use_batch_statistics(ms):
    nn = ms.nn
    x = _t(ms, 1, 3, 2, 2, 2)
    a = nn.BatchNorm2d(2, use_batch_statistics=True, affine=False)
    ya = a(x)
    b = nn.BatchNorm2d(2, use_batch_statistics=False, moving_mean_init=0.5, moving_var_init=2.0)
    b.set_train()
    yb = b(x)
    return {"a": ya, "a_mm": a.moving_mean.value(), "b": yb, "b_mm": b.moving_mean.value(),
            "a_trainable": [p.name for p in a.trainable_params()]}


def case_l_sync_batchnorm(ms):
    net = ms.nn.SyncBatchNorm(3)
    _init(ms, net, 4)
    net.moving_variance.set_data(ms.Tensor(np.abs(_rs(5, 3)) + 0.5))
    net.set_train()
    fg = _fg(ms, net, _t(ms, 5, 2, 3, 2, 2), weights=net.trainable_params())
    return {"fg": fg, "mm": net.moving_mean.value(), "mv": net.moving_variance.value()}


def case_l_batchnorm_names_repr(ms):
    nn = ms.nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.bn = nn.BatchNorm2d(3)
            self.bn1 = nn.BatchNorm1d(2, affine=False)

        def construct(self, x):
            return self.bn(x)

    n = Net()
    return {"names": [(k, p.name, p.requires_grad) for k, p in n.parameters_and_names()],
            "repr": repr(n), "standalone": [(k, p.name) for k, p in nn.BatchNorm2d(2).parameters_and_names()],
            "trainable": [p.name for p in n.trainable_params()]}


def case_err_batchnorm_dims(ms):
    return ms.nn.BatchNorm2d(3)(_t(ms, 1, 2, 3))


def case_err_batchnorm_momentum(ms):
    return ms.nn.BatchNorm2d(3, momentum=1.5)


def case_err_batchnorm_num_features(ms):
    return ms.nn.BatchNorm1d(0)


def case_err_batchnorm_use_stats(ms):
    return ms.nn.BatchNorm2d(3, use_batch_statistics=1)


def case_l_layernorm(ms):
    nn = ms.nn
    net = nn.LayerNorm((4,))
    a = _net(ms, net, _t(ms, 1, 2, 3, 4))
    net2 = nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1, epsilon=1e-5)
    b = _net(ms, net2, _t(ms, 2, 2, 3, 4))
    net3 = nn.LayerNorm((4,), begin_norm_axis=1, begin_params_axis=-1)
    c = _net(ms, net3, _t(ms, 3, 2, 3, 4))
    return {"a": a, "b": b, "c": c, "repr": repr(nn.LayerNorm((3,)))}


def case_err_layernorm_type(ms):
    return ms.nn.LayerNorm(4)


def case_l_groupnorm(ms):
    net = ms.nn.GroupNorm(2, 4)
    return {"fg": _net(ms, net, _t(ms, 1, 2, 4, 3, 2)), "repr": repr(net),
            "3d": net(_t(ms, 2, 3, 4, 5))}


def case_err_groupnorm(ms):
    return ms.nn.GroupNorm(3, 4)


def case_err_groupnorm_eps(ms):
    return ms.nn.GroupNorm(2, 4, eps=1)


def case_l_instancenorm_build(ms):
    nn = ms.nn
    n = nn.InstanceNorm2d(3)
    return {"repr": repr(n), "names": [(k, p.name, p.requires_grad) for k, p in n.parameters_and_names()],
            "1d": repr(nn.InstanceNorm1d(2, affine=False)), "3d": repr(nn.InstanceNorm3d(2, momentum=0.2))}


def case_err_instancenorm_eps(ms):
    return ms.nn.InstanceNorm2d(3, eps=1)


def case_l_lrn(ms):
    net = ms.nn.LRN(depth_radius=1, bias=2.0, alpha=0.5, beta=0.6)
    return _fg(ms, net, _t(ms, 1, 2, 4, 2, 3))


# ===========================================================================
# layers: dropout (deterministic), flatten, identity, padding, resize
# ===========================================================================
def case_l_dropout_eval_and_p0(ms):
    nn = ms.nn
    x = _t(ms, 1, 2, 3, 2, 2)
    d = nn.Dropout(p=0.5)
    d0 = nn.Dropout(p=0.0)
    d0.set_train()
    dk = nn.Dropout(keep_prob=1.0)
    dk.set_train()
    d1 = nn.Dropout1d(0.0)
    d1.set_train()
    d2 = nn.Dropout2d(0.5)
    d3 = nn.Dropout3d(0.0)
    d3.set_train()
    return {"eval": d(x), "p0": d0(x), "keep1": dk(x), "d1": d1(_t(ms, 2, 2, 3, 4)), "d2": d2(x),
            "d3": d3(_t(ms, 3, 1, 2, 2, 2, 2)),
            "repr": [repr(nn.Dropout(p=0.2)), repr(nn.Dropout(keep_prob=0.8)), repr(nn.Dropout2d(0.3)),
                     repr(nn.Dropout1d(0.3)), repr(nn.Dropout3d(0.4))]}


def case_err_dropout_p(ms):
    return ms.nn.Dropout(p=1.0)


def case_err_dropout_keep_prob(ms):
    return ms.nn.Dropout(keep_prob=0.0)


def case_err_dropout2d_p(ms):
    return ms.nn.Dropout2d(p=1)


def case_l_flatten_unflatten_identity(ms):
    nn = ms.nn
    x = _t(ms, 1, 2, 3, 4, 2)
    return {"flat": nn.Flatten()(x), "flat2": nn.Flatten(2, 3)(x), "flat_neg": nn.Flatten(0, -2)(x),
            "unflat": nn.Unflatten(1, (3, 1))(x), "unflat_last": nn.Unflatten(-1, [1, 2])(x),
            "id": nn.Identity(3, k=2)(x), "grad": _fg(ms, nn.Flatten(), x)}


def case_err_flatten_range(ms):
    return ms.nn.Flatten(start_dim=4)(_t(ms, 1, 2, 3))


def case_l_pad_layers(ms):
    nn = ms.nn
    x = _t(ms, 1, 1, 2, 3, 4)
    return {"pad": _fg(ms, nn.Pad(((0, 0), (1, 0), (1, 2), (0, 1))), x),
            "reflect": nn.Pad(((0, 0), (0, 0), (1, 1), (2, 1)), mode="REFLECT")(x),
            "sym": nn.Pad(((0, 0), (1, 1), (2, 1), (0, 3)), mode="SYMMETRIC")(x),
            "c1": nn.ConstantPad1d(2, 0.5)(x), "c2": nn.ConstantPad2d((1, -1, 0, 2), 1.0)(x),
            "c3": nn.ConstantPad3d((1, 1, 0, 1, 1, 0), -1.0)(x), "z": nn.ZeroPad2d((1, 0, 2, 1))(x),
            "r1": nn.ReflectionPad1d(2)(x), "r2": _fg(ms, nn.ReflectionPad2d((1, 2, 2, 0)), x),
            "r3": nn.ReflectionPad3d(1)(_t(ms, 2, 1, 2, 3, 3)),
            "e1": nn.ReplicationPad1d((2, 1))(_t(ms, 3, 2, 3)), "e2": _fg(ms, nn.ReplicationPad2d(1), x),
            "e3": nn.ReplicationPad3d((1, 0, 0, 1, 1, 1))(_t(ms, 4, 1, 2, 2, 2))}


def case_err_pad_layer_type(ms):
    return ms.nn.Pad([[1, 1]])


def case_err_constantpad_len(ms):
    return ms.nn.ConstantPad1d((1, 1, 1, 1), 0.0)


def case_err_reflectionpad_negative(ms):
    return ms.nn.ReflectionPad2d((1, -1, 0, 0))


def case_l_upsample_pixelshuffle(ms):
    nn = ms.nn
    x = _t(ms, 1, 1, 8, 2, 2)
    return {"up": _fg(ms, nn.Upsample(size=(3, 5), mode="bilinear"), x),
            "up_near": nn.Upsample(size=(4, 4))(x),
            "ps": _fg(ms, nn.PixelShuffle(2), x), "pu": nn.PixelUnshuffle(2)(_t(ms, 2, 1, 2, 4, 4))}


# ===========================================================================
# layers: embedding
# ===========================================================================
def case_l_embedding(ms):
    nn = ms.nn
    net = nn.Embedding(5, 3)
    _init(ms, net)
    ids = ms.Tensor(np.array([[0, 4], [2, 2]]), ms.int32)
    out = net(ids)
    g = ms.grad(lambda i: (net(i) * _t(ms, 4, 2, 2, 3)).sum(), grad_position=None,
                weights=net.trainable_params())(ids)
    oh = nn.Embedding(5, 3, use_one_hot=True)
    _init(ms, oh)
    pad = nn.Embedding(4, 2, embedding_table="ones", padding_idx=1)
    return {"out": out, "grad": g, "onehot": oh(ids), "pad_table": pad.embedding_table.value(), "repr": repr(pad),
            "int64": net(ms.Tensor(np.array([1, 3]), ms.int64))}


def case_err_embedding_float_ids(ms):
    return ms.nn.Embedding(5, 3)(ms.Tensor([1.0, 2.0]))


def case_err_embedding_padding_idx(ms):
    return ms.nn.Embedding(5, 3, padding_idx=5)


def case_l_embedding_lookup(ms):
    net = ms.nn.EmbeddingLookup(6, 3)
    _init(ms, net)
    ids = ms.Tensor(np.array([[0, 5, 2]]), ms.int32)
    out = net(ids)
    # the CPU target's gradient is a RowTensor of the looked-up rows; the device target's is dense
    dev = ms.nn.EmbeddingLookup(6, 3, target="DEVICE", sparse=False)
    _init(ms, dev)
    g = ms.grad(lambda i: (dev(i) * _t(ms, 4, 1, 3, 3)).sum(), grad_position=None,
                weights=dev.trainable_params())(ids)
    return {"out": out, "dev": dev(ids), "grad": g, "names": [n for n, _ in net.parameters_and_names()]}


def case_err_embedding_lookup_target(ms):
    return ms.nn.EmbeddingLookup(4, 2, target="GPU")


def case_l_dropout_primitive_attribute(ms):
    """nn.Dropout's ops.Dropout as its attribute ``dropout``: Wide&Deep shards it
    (``dense_layer_1.dropout.dropout.shard(((1, n),))``); outside parallel the strategy is ignored."""
    d = ms.nn.Dropout(p=0.5)
    prim = d.dropout
    same = prim.shard(((1, 2),)) is prim
    x = ms.Tensor(np.ones((2, 4), np.float32))
    d.set_train(False)
    return prim.name, same, d(x)


def _semi_auto(ms, build):
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    try:
        return build()
    finally:
        ms.reset_auto_parallel_context()


def case_l_embedding_lookup_slice_modes_semi_auto(ms):
    """Built under SEMI_AUTO_PARALLEL (one device): each slice_mode (Wide&Deep's auto-parallel branch
    builds table_row_slice / table_column_slice lookups) looks up the same rows; forward_unique as
    MindSpore sets it (a DEVICE table cut by rows or columns looks up the unique ids)."""
    ids = ms.Tensor(np.array([[0, 5, 2], [5, 5, 1]]), ms.int32)
    out = {}
    for mode, target in (("table_row_slice", "DEVICE"), ("table_row_slice", "CPU"), ("table_column_slice", "DEVICE"),
                         ("table_column_slice", "CPU"), ("batch_slice", "CPU")):
        # a DEVICE table with sparse=True is SparseGatherV2, which MindSpore's CPU build lacks
        net = _semi_auto(ms, lambda: ms.nn.EmbeddingLookup(6, 3, target=target, slice_mode=mode,
                                                           sparse=target == "CPU"))
        _init(ms, net)
        out[f"{mode}_{target}"] = (net(ids), net.forward_unique, net.embedding_table.unique)
    net = _semi_auto(ms, lambda: ms.nn.EmbeddingLookup(6, 3, slice_mode="field_slice", manual_shapes=(4, 2)))
    _init(ms, net)
    out["field_slice"] = (net(ids), net.forward_unique)
    return out


def case_err_embedding_lookup_slice_mode_semi_auto(ms):
    return _semi_auto(ms, lambda: ms.nn.EmbeddingLookup(4, 2, slice_mode="rows"))


def case_err_embedding_lookup_field_slice_no_shapes(ms):
    return _semi_auto(ms, lambda: ms.nn.EmbeddingLookup(4, 2, slice_mode="field_slice"))


def case_err_embedding_lookup_field_slice_list(ms):
    return _semi_auto(ms, lambda: ms.nn.EmbeddingLookup(4, 2, slice_mode="field_slice", manual_shapes=[2, 2]))


def case_err_embedding_lookup_field_slice_zero(ms):
    return _semi_auto(ms, lambda: ms.nn.EmbeddingLookup(4, 2, slice_mode="field_slice", manual_shapes=(2, 0)))


def case_l_embedding_lookup_bad_slice_mode_stand_alone(ms):
    """Outside semi-auto/auto parallel slice_mode is not checked (MindSpore builds it)."""
    return ms.nn.EmbeddingLookup(4, 2, slice_mode="rows").forward_unique


# ===========================================================================
# layers: small math Cells
# ===========================================================================
def case_l_math_cells(ms):
    nn = ms.nn
    x = _t(ms, 1, 3, 4)
    return {"tril": nn.Tril()(x), "tril_k": nn.Tril()(x, 1), "triu": nn.Triu()(x, -1),
            "norm": nn.Norm()(x), "norm_ax": nn.Norm(axis=1, keep_dims=True)(x), "norm_ax2": nn.Norm(axis=(0,))(x),
            "onehot": nn.OneHot(depth=4)(ms.Tensor([0, 3, 1], ms.int32)),
            "onehot_ax": nn.OneHot(axis=0, depth=3, on_value=2.0, off_value=-1.0)(ms.Tensor([[0, 2]], ms.int32)),
            "matmul": nn.MatMul()(x, _t(ms, 2, 4, 2)), "matmul_t": nn.MatMul(transpose_x2=True)(x, _t(ms, 3, 2, 4)),
            "matmul_b": nn.MatMul()(_t(ms, 4, 2, 3, 4), _t(ms, 5, 4, 2)), "matmul_v": nn.MatMul()(x, _t(ms, 6, 4)),
            "range": nn.Range(1, 8, 2)(), "range_f": nn.Range(0.5, 2.0, 0.5)(), "range1": nn.Range(4)(),
            "repr": [repr(nn.Norm()), repr(nn.Tril()), repr(nn.Range(3))]}


def case_err_math_cells(ms):
    return ms.nn.Roll((1, 2), 0)


# ===========================================================================
# containers
# ===========================================================================
def case_l_celldict(ms):
    nn = ms.nn
    d = nn.CellDict({"fc": nn.Dense(2, 3), "act": nn.ReLU()})
    d["bn"] = nn.BatchNorm1d(3)
    names = [n for n, _ in d.parameters_and_names()]
    keys = list(d.keys())
    popped = type(d.pop("act")).__name__
    return {"names": names, "keys": keys, "popped": popped, "len": len(d), "in": "fc" in d,
            "after": list(d.keys()), "repr": repr(nn.CellDict([("a", nn.ReLU()), ("b", nn.Flatten())]))}


def case_err_celldict_key(ms):
    return ms.nn.CellDict({"a.b": ms.nn.ReLU()})


def case_err_celldict_value(ms):
    return ms.nn.CellDict({"a": ms.nn.SequentialCell([ms.nn.ReLU()])})


def case_err_celldict_attr_key(ms):
    return ms.nn.CellDict({"training": ms.nn.ReLU()})


# ===========================================================================
# attention / transformer layers
# ===========================================================================
def case_l_multihead_attention(ms):
    nn = ms.nn
    net = nn.MultiheadAttention(4, 2)
    _init(ms, net)
    q, k = _t(ms, 1, 3, 2, 4), _t(ms, 2, 5, 2, 4)
    fg = _fg(ms, lambda q, k: net(q, k, k), q, k, weights=net.trainable_params())
    names = [n for n, _ in net.parameters_and_names()]
    mask = ms.Tensor(np.array([[False, True, False, False, True]] * 3))
    kpm = ms.Tensor(np.array([[False, False, False, True, True], [False, False, False, False, False]]))
    return {"fg": fg, "names": names, "masked": net(q, k, k, attn_mask=mask),
            "kpm": net(q, k, k, key_padding_mask=kpm, average_attn_weights=False),
            "unbatched": net(q[:, 0], k[:, 0], k[:, 0]), "repr": repr(net)}


def case_l_multihead_attention_kvdim_batch_first(ms):
    nn = ms.nn
    net = nn.MultiheadAttention(4, 1, kdim=3, vdim=2, batch_first=True, add_bias_kv=True, add_zero_attn=True)
    _init(ms, net, 1)
    q, k, v = _t(ms, 1, 2, 3, 4), _t(ms, 2, 2, 5, 3), _t(ms, 3, 2, 5, 2)
    fg = _fg(ms, lambda q, k, v: net(q, k, v), q, k, v, weights=net.trainable_params())
    return {"fg": fg, "names": [n for n, _ in net.parameters_and_names()]}


def case_err_mha_heads(ms):
    return ms.nn.MultiheadAttention(5, 2)


def case_err_mha_embed(ms):
    net = ms.nn.MultiheadAttention(4, 2)
    return net(_t(ms, 1, 3, 2, 6), _t(ms, 2, 3, 2, 6), _t(ms, 2, 3, 2, 6))


def case_l_transformer_encoder_layer(ms):
    nn = ms.nn
    net = nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0)
    _init(ms, net)
    x = _t(ms, 1, 3, 2, 4)
    fg = _fg(ms, net, x, weights=net.trainable_params())
    nf = nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0, norm_first=True, batch_first=True,
                                    activation="gelu")
    _init(ms, nf, 1)
    mask = ms.Tensor(np.triu(np.full((3, 3), -1e9, np.float32), 1))
    return {"fg": fg, "names": [n for n, _ in net.parameters_and_names()],
            "norm_first": nf(_t(ms, 2, 2, 3, 4), src_mask=mask)}


def case_l_transformer_decoder(ms):
    nn = ms.nn
    layer = nn.TransformerDecoderLayer(4, 2, dim_feedforward=6, dropout=0.0)
    net = nn.TransformerDecoder(layer, 1, norm=nn.LayerNorm((4,)))
    _init(ms, net)
    tgt, mem = _t(ms, 1, 3, 2, 4), _t(ms, 2, 5, 2, 4)
    fg = _fg(ms, net, tgt, mem, weights=net.trainable_params())
    return {"fg": fg, "names": [n for n, _ in net.parameters_and_names()]}


def case_l_transformer_full(ms):
    nn = ms.nn
    net = nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=6,
                         dropout=0.0)
    _init(ms, net)
    src, tgt = _t(ms, 1, 5, 2, 4), _t(ms, 2, 3, 2, 4)
    out = net(src, tgt)
    return {"out": out, "n": len(net.trainable_params()), "names": [n for n, _ in net.parameters_and_names()][:6]}


def case_l_transformer_copies_same_init(ms):
    nn = ms.nn
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, dim_feedforward=6), 2)
    a = enc.layers[0].self_attn.in_proj_weight.value()
    b = enc.layers[1].self_attn.in_proj_weight.value()
    return (a == b).all()


def case_err_transformer_activation(ms):
    return ms.nn.TransformerEncoderLayer(4, 2, activation="tanh")


def case_err_transformer_d_model(ms):
    net = ms.nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=6)
    return net(_t(ms, 1, 5, 2, 6), _t(ms, 2, 3, 2, 6))


# ===========================================================================
# recurrent layers
# ===========================================================================
def _rnn_init(ms, net, seed=0):
    # small weights: MindSpore's CPU tanh is only accurate to ~1e-8 for |x| < 3 (1e-4 near 5)
    return _init(ms, net, seed, scale=0.2)


def case_l_rnn_cells(ms):
    nn = ms.nn
    x, h, c = _t(ms, 1, 2, 3), _t(ms, 2, 2, 4), _t(ms, 3, 2, 4)
    rnn = _rnn_init(ms, nn.RNNCell(3, 4))
    relu = _rnn_init(ms, nn.RNNCell(3, 4, nonlinearity="relu", has_bias=False))
    gru = _rnn_init(ms, nn.GRUCell(3, 4))
    lstm = _rnn_init(ms, nn.LSTMCell(3, 4))
    return {"rnn": _net(ms, rnn, x, h, init=False), "relu": _net(ms, relu, x, h, init=False),
            "gru": _net(ms, gru, x, h, init=False),
            "lstm": _fg(ms, lambda x, h, c: lstm(x, (h, c)), x, h, c, weights=lstm.trainable_params()),
            "names": [n for n, _ in lstm.parameters_and_names()], "relu_names": [n for n, _ in relu.parameters_and_names()]}


def case_l_lstm(ms):
    nn = ms.nn
    net = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    _rnn_init(ms, net)
    x = _t(ms, 1, 5, 2, 3)
    h0, c0 = _t(ms, 2, 4, 2, 4), _t(ms, 3, 4, 2, 4)
    fg = _fg(ms, lambda x, h, c: net(x, (h, c)), x, h0, c0, weights=net.trainable_params())
    return {"fg": fg, "names": [n for n, _ in net.parameters_and_names()], "nohx": net(x), "repr": repr(net)}


def case_l_gru_batch_first(ms):
    nn = ms.nn
    net = nn.GRU(3, 4, batch_first=True, has_bias=False)
    _rnn_init(ms, net)
    x = _t(ms, 1, 2, 5, 3)
    return {"fg": _fg(ms, lambda x: net(x), x, weights=net.trainable_params()),
            "names": [n for n, _ in net.parameters_and_names()]}


def case_l_rnn_relu_seq_length(ms):
    nn = ms.nn
    net = nn.RNN(2, 3, nonlinearity="relu", bidirectional=True)
    _rnn_init(ms, net)
    x = _t(ms, 1, 4, 3, 2)
    sl = ms.Tensor(np.array([4, 2, 3]), ms.int32)
    out = net(x, seq_length=sl)
    lstm = nn.LSTM(2, 3)
    _rnn_init(ms, lstm, 1)
    return {"rnn": out, "lstm": lstm(x, seq_length=sl), "gru_names": repr(nn.GRU(2, 3))}


def case_l_rnn_in_net_names(ms):
    nn = ms.nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.rnn = nn.GRU(3, 4)
            self.c = nn.GRUCell(3, 4)
            self.emb = nn.Embedding(5, 3)
            self.mha = nn.MultiheadAttention(4, 2)

    return [(n, p.name, p.shape) for n, p in Net().parameters_and_names()]


def case_err_lstm_hx_type(ms):
    net = ms.nn.LSTM(3, 4)
    return net(_t(ms, 1, 5, 2, 3), _t(ms, 2, 1, 2, 4))


def case_err_rnn_dropout(ms):
    return ms.nn.RNN(3, 4, dropout=1.0)


def case_err_rnncell_dtype(ms):
    return ms.nn.RNNCell(3, 4)(ms.Tensor(np.ones((2, 3))), _t(ms, 2, 2, 4))


# ===========================================================================
# initializers (deterministic ones, shapes/dtypes of random ones, errors)
# ===========================================================================
def case_init_deterministic(ms):
    init = ms.common.initializer
    return {"ones": init.initializer("ones", (2, 3)), "zeros": init.initializer("zeros", [2], ms.float16),
            "one": init.initializer(init.One(), (2,), ms.int32), "zero": init.initializer(init.Zero(), 3),
            "const": init.initializer(init.Constant(2.5), (2, 2)), "num": init.initializer(3, (2,), ms.float64),
            "identity": init.initializer("identity", (2, 3)), "Identity": init.initializer(init.Identity(), (3, 3)),
            "dirac": init.initializer(init.Dirac(), (2, 2, 3)), "dirac_g": init.initializer(init.Dirac(2), (4, 2, 3, 3)),
            "tensor": init.initializer(ms.Tensor(np.arange(3), ms.int32), (3,))}


def case_init_random_shapes(ms):
    init = ms.common.initializer
    names = ["normal", "uniform", "truncatednormal", "xavier_uniform", "xavier_normal", "he_uniform", "he_normal",
             "orthogonal", "variancescaling", "XAVIER_UNIFORM", "HeNormal"]
    out = {}
    for n in names:
        t = init.initializer(n, (3, 4), ms.float16)
        out[n] = (t.shape, str(t.dtype))
    for cls in (init.Normal(0.1), init.Uniform(0.2), init.TruncatedNormal(0.3), init.XavierUniform(2.0),
                init.XavierNormal(), init.HeUniform(0.1, "fan_out", "relu"), init.HeNormal(),
                init.Sparse(0.5), init.Orthogonal(2.0), init.VarianceScaling(2.0, "fan_avg", "uniform")):
        t = init.initializer(cls, [4, 3])
        out[type(cls).__name__] = (t.shape, str(t.dtype))
    sp = init.initializer(init.Sparse(0.5, 1.0), (4, 3)).asnumpy()
    out["sparse_zeros_per_col"] = [int((sp[:, j] == 0).sum()) for j in range(3)]
    orth = init.initializer(init.Orthogonal(), (3, 5)).asnumpy()
    out["orth_rows"] = ms.Tensor((orth @ orth.T).astype(np.float32))
    return out


def case_init_bounds(ms):
    init = ms.common.initializer
    u = init.initializer(init.Uniform(0.2), (50, 40)).asnumpy()
    x = init.initializer(init.XavierUniform(), (50, 40)).asnumpy()
    h = init.initializer(init.HeUniform(), (50, 40, 2)).asnumpy()
    t = init.initializer(init.TruncatedNormal(1.0, 0.0, -0.5, 0.5), (50, 40)).asnumpy()
    vs = init.initializer(init.VarianceScaling(), (50, 40)).asnumpy()
    return {"u": bool(np.abs(u).max() <= 0.2), "x": bool(np.abs(x).max() <= np.sqrt(6 / 90)),
            "h": bool(np.abs(h).max() <= np.sqrt(6 / 80)), "t": bool(np.abs(t).max() <= 0.5),
            "vs": bool(np.abs(vs).max() <= np.sqrt(3 / 40))}


def case_err_init_type(ms):
    return ms.common.initializer.initializer(np.ones(3), (3,))


def case_err_init_name(ms):
    return ms.common.initializer.initializer("kaiming", (3,))


def case_err_init_shape(ms):
    return ms.common.initializer.initializer("ones", (3, 0))


def case_err_init_tensor_shape(ms):
    return ms.common.initializer.initializer(ms.Tensor([1.0, 2.0]), (3,))


def case_err_init_fan(ms):
    return ms.common.initializer.initializer("xavier_uniform", (3,))


def case_err_init_identity_dims(ms):
    return ms.common.initializer.initializer("identity", (2, 2, 2))


def case_err_init_variancescaling(ms):
    return ms.common.initializer.VarianceScaling(mode="fan")


def case_err_init_he_nonlinearity(ms):
    return ms.common.initializer.initializer(ms.common.initializer.HeUniform(nonlinearity="gelu"), (2, 2))


def case_err_init_sparse_name(ms):
    return ms.common.initializer.initializer("sparse", (2, 2))


def case_init_default_layer_weights(ms):
    """Default initialisers' bounds (checked by range, not value)."""
    nn = ms.nn
    c = nn.Conv2d(4, 8, 3, has_bias=True)
    d = nn.Dense(10, 6)
    bound_w = np.sqrt(6 / ((1 + 5) * 36))
    return {"conv_w": bool(np.abs(c.weight.asnumpy()).max() <= bound_w + 1e-7),
            "conv_b": bool(np.abs(c.bias.asnumpy()).max() <= 1 / 6 + 1e-7),
            "dense_b": bool(np.abs(d.bias.asnumpy()).max() <= 1 / np.sqrt(10) + 1e-7),
            "bn": [p.asnumpy().tolist() for p in nn.BatchNorm1d(2).get_parameters()],
            "emb_shape": nn.Embedding(3, 2).embedding_table.shape, "ln": nn.LayerNorm((2,)).gamma.asnumpy().tolist()}


# ===========================================================================
# further P1 layers: Ext pooling, unpooling, fractional pooling, combined, image, math, sparse
# ===========================================================================
def case_l_max_unpool(ms):
    nn = ms.nn
    x = _t(ms, 1, 1, 2, 4, 6)
    out, idx = ms.ops.max_pool2d(x, 2, 2, return_indices=True)
    x1 = _t(ms, 2, 1, 2, 8)
    o1, i1 = nn.MaxPool1d(2, 2, pad_mode="pad", return_indices=True)(x1)
    return {"2d": nn.MaxUnpool2d(2)(out, idx), "2d_size": nn.MaxUnpool2d(2, 2)(out, idx, output_size=(5, 7)),
            "1d": nn.MaxUnpool1d(2)(o1, i1)}


def case_l_fractional_max_pool(ms):
    nn = ms.nn
    x = _t(ms, 1, 2, 2, 7, 6)
    samples = ms.Tensor(np.random.RandomState(4).uniform(0, 1, (2, 2, 2)).astype(np.float32))
    net = nn.FractionalMaxPool2d(2, output_size=(4, 3), return_indices=True, _random_samples=samples)
    r = nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5), _random_samples=samples)
    x3 = _t(ms, 2, 1, 2, 5, 6, 5)
    s3 = ms.Tensor(np.random.RandomState(5).uniform(0, 1, (1, 2, 3)).astype(np.float32))
    n3 = nn.FractionalMaxPool3d(2, output_size=(3, 4, 3), return_indices=True, _random_samples=s3)
    return {"2d": net(x), "ratio": r(x), "3d": n3(x3)}


def case_l_dropout_ext_eval(ms):
    nn = ms.nn
    x = _t(ms, 1, 2, 3, 2, 2)
    d = nn.DropoutExt(0.3)
    d2 = nn.Dropout2dExt(0.0)
    d2.set_train()
    return {"eval": d(x), "p0": d2(x)}


def case_l_multifield_embedding(ms):
    nn = ms.nn
    out = {}
    ids = ms.Tensor(np.array([[1, 5, 3], [2, 9, 9]]), ms.int32)
    vals = ms.Tensor(np.array([[1.0, 2.0, 0.0], [0.5, 1.0, -2.0]], np.float32))
    fids = ms.Tensor(np.array([[0, 1, 1], [2, 2, 0]]), ms.int32)
    for op in ("SUM", "MEAN", "MAX"):
        net = nn.MultiFieldEmbeddingLookup(10, 2, field_size=3, operator=op)
        _init(ms, net)
        out[op] = net(ids, vals, fids)
    return out


def case_l_combined(ms):
    nn = ms.nn
    c = nn.Conv2dBnAct(2, 3, 3, has_bn=True, activation="relu")
    _init(ms, c)
    c.batchnorm.moving_variance.set_data(ms.Tensor(np.abs(_rs(3, 3)) + 0.5))
    d = nn.DenseBnAct(3, 4, has_bn=True, activation="sigmoid")
    _init(ms, d, 1)
    d.batchnorm.moving_variance.set_data(ms.Tensor(np.abs(_rs(4, 4)) + 0.5))
    return {"conv": _fg(ms, c, _t(ms, 1, 2, 2, 4, 4), weights=c.trainable_params()),
            "dense": _fg(ms, d, _t(ms, 2, 5, 3), weights=d.trainable_params()),
            "names": [n for n, _ in c.parameters_and_names()] + [n for n, _ in d.parameters_and_names()],
            "leaky": nn.Conv2dBnAct(1, 1, 1, activation="leakyrelu", alpha=0.1, weight_init="ones")(_t(ms, 5, 1, 1, 2, 2))}


def case_l_time_distributed(ms):
    nn = ms.nn
    dense = nn.Dense(3, 2)
    _init(ms, dense)
    x = _t(ms, 1, 2, 4, 3)
    return {"loop": nn.TimeDistributed(dense, time_axis=1)(x),
            "reshape": nn.TimeDistributed(dense, time_axis=1, reshape_with_axis=0)(x)}


def case_l_image_cells(ms):
    """(SSIM, MSSSIM and PSNR raise a ScalarCast ValueError in MindSpore 2.10's PyNative mode on CPU; they are
    checked against numpy in test_layers_state.)"""
    nn = ms.nn
    x = _t(ms, 3, 1, 6, 3, 4)
    return {"grads": nn.ImageGradients()(x), "grads_1px": nn.ImageGradients()(_t(ms, 4, 1, 1, 1, 3)),
            "crop": nn.CentralCrop(0.5)(_t(ms, 4, 2, 6, 8)), "crop3": nn.CentralCrop(0.7)(_t(ms, 5, 3, 5, 5)),
            "crop1": nn.CentralCrop(1.0)(x), "shuffle": _fg(ms, nn.ChannelShuffle(3), x)}


def case_err_central_crop(ms):
    return ms.nn.CentralCrop(1.5)


def case_l_math_cells_2(ms):
    """(MatInverse, MatDet and the MatrixDiag Cells have no CPU kernel in MindSpore: see test_layers_state.)"""
    nn = ms.nn
    x = _t(ms, 1, 3, 4)
    pos = ms.Tensor(np.abs(_rs(2, 3, 4)) + 0.5)
    return {"lse": nn.ReduceLogSumExp(1)(x), "lse_k": nn.ReduceLogSumExp((0, 1), keep_dims=True)(x),
            "moments": nn.Moments(axis=1)(x), "moments_k": nn.Moments(axis=(0, 1), keep_dims=True)(x),
            "lgamma": nn.LGamma()(pos + 2.5), "digamma": nn.DiGamma()(pos), "igamma": nn.IGamma()(pos, pos * 0.7),
            "lbeta": nn.LBeta()(pos, pos + 1), "l1": nn.L1Regularizer(0.5)(x),
            "moments_grad": _fg(ms, lambda x: nn.Moments(axis=0)(x), x)}


def case_l_sparse_cells(ms):
    nn = ms.nn
    idx = ms.Tensor(np.array([[0, 1], [1, 2], [2, 0]]), ms.int64)
    vals = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    coo = ms.COOTensor(idx, vals, (3, 4))
    dense = _t(ms, 1, 4, 2)
    return {"to_dense": nn.SparseToDense()(coo),
            "matmul": nn.SparseTensorDenseMatmul()(idx, vals, (3, 4), dense),
            "matmul_adj": nn.SparseTensorDenseMatmul(adjoint_dt=True)(idx, vals, (3, 4), _t(ms, 2, 2, 4))}


# ===========================================================================
# AdaptiveMaxPool3d, the image-quality Cells compiled, THOR layers, Jvp/Vjp, no_init_parameters
# ===========================================================================
def case_l_adaptive_max_pool3d(ms):
    nn = ms.nn
    x = _t(ms, 11, 2, 3, 5, 6, 7)
    return {"fg": _fg(ms, nn.AdaptiveMaxPool3d((2, 3, 4)), x), "idx": nn.AdaptiveMaxPool3d(3, return_indices=True)(x), "4d": nn.AdaptiveMaxPool3d(2)(x[0])}


def case_op_adaptive_pool3d_int(ms):
    """The 3-D adaptive pools take integer inputs (the 1-D/2-D ones do not); integer means truncate,
    an int8 window's sum does not wrap."""
    x = np.random.RandomState(13).randint(-50, 50, (1, 2, 3, 5, 4))
    out = {}
    for dt in (np.int8, np.int32, np.uint8, np.int64):
        t = ms.Tensor(np.abs(x).astype(dt) if dt == np.uint8 else x.astype(dt))
        out[dt.__name__] = (ms.ops.adaptive_avg_pool3d(t, (2, 3, 3)), ms.ops.adaptive_max_pool3d(t, (2, 2, 3), True),
                            ms.nn.AdaptiveAvgPool3d(1)(t), ms.nn.AdaptiveMaxPool3d((1, 2, 2))(t))
    out["wide"] = ms.ops.adaptive_avg_pool3d(ms.Tensor(np.full((1, 1, 2, 2, 2), 120, np.int8)), 1)
    return out


def case_op_lp_pool_int(ms):
    """An integer input's Lp pooling is Float32 (``x.pow(float)``)."""
    x = np.random.RandomState(14).randint(0, 9, (1, 2, 4, 6))
    return {"2d": ms.ops.lp_pool2d(ms.Tensor(x.astype(np.int32)), 2, 2),
            "1d": ms.ops.lp_pool1d(ms.Tensor(x[0].astype(np.uint8)), 3.0, 3, 2)}


def case_op_adaptive_max_pool2d_empty_batch(ms):
    return ms.ops.adaptive_max_pool2d(ms.Tensor(np.zeros((0, 2, 5, 4), np.float32)), (2, 3), True)


def case_err_adaptive_max_pool3d_rank(ms):
    return ms.ops.adaptive_max_pool3d(_t(ms, 1, 4, 4, 4), 2)


def case_err_adaptive_max_pool3d_empty(ms):
    return ms.ops.adaptive_max_pool3d(ms.Tensor(np.zeros((1, 0, 3, 4), np.float32)), 2)


def case_err_adaptive_avg_pool3d_bool(ms):
    return ms.ops.adaptive_avg_pool3d(ms.Tensor(np.ones((1, 2, 2, 2), np.bool_)), 1)


def case_l_image_quality_jit(ms):
    """SSIM, MSSSIM and PSNR inside ms.jit (MindSpore 2.10's PyNative mode raises a ScalarCast error for them on
    CPU; compiled they run)."""
    nn = ms.nn
    r = np.random.RandomState(12)
    a = ms.Tensor(r.rand(2, 2, 24, 24).astype(np.float32))
    b = ms.Tensor(np.clip(a.asnumpy() + r.randn(2, 2, 24, 24).astype(np.float32) * 0.1, 0, 1))
    out = {}
    for key, cell in (("ssim", nn.SSIM()), ("ssim5", nn.SSIM(max_val=2.0, filter_size=5, filter_sigma=1.0, k1=0.02)),
                      ("msssim", nn.MSSSIM(power_factors=(0.3, 0.3, 0.4), filter_size=3, filter_sigma=1.0)),
                      ("psnr", nn.PSNR(max_val=2.0))):
        out[key] = _jit_value_and_grad(ms, cell, a, b)
    out["psnr_half"] = _jit_value_and_grad(ms, nn.PSNR(), a, a * 0.5)
    return out


def _jit_value_and_grad(ms, cell, a, b):
    """``cell(a, b)`` and its gradient w.r.t. ``a``, compiled (one Cell per compiled function)."""
    @ms.jit
    def run(x, y):
        return cell(x, y), ms.grad(cell, 0)(x, y)

    return run(a, b)


def _thor_init(ms, net, seed=0):
    r = np.random.RandomState(seed)
    for _, p in net.parameters_and_names():
        if p.requires_grad:
            p.set_data(ms.Tensor((r.randn(*p.shape) * 0.5).astype(p.asnumpy().dtype)))
    return net


def case_l_thor_dense(ms):
    nn = ms.nn
    d = _thor_init(ms, nn.DenseThor(3, 4, activation="relu"))
    e = _thor_init(ms, nn.DenseThor(3, 2, has_bias=False), 1)
    x = _t(ms, 2, 5, 3)
    names = [(n, p.requires_grad) for n, p in d.parameters_and_names()]
    out = {"names": names, "g0": d.matrix_g.value()}
    out["fg"] = _fg(ms, d, x, weights=d.trainable_params())
    out["matrix_a"] = d.matrix_a.value()
    out["nobias"] = e(x * 2)
    out["nobias_a"] = e.matrix_a.value()
    return out


def case_l_thor_embedding(ms):
    nn = ms.nn
    e = _thor_init(ms, nn.EmbeddingThor(10, 3))
    ids = ms.Tensor(np.array([[1, 2, 1], [3, 4, 9]]), ms.int32)
    out = {"names": [(n, p.requires_grad) for n, p in e.parameters_and_names()], "a0": e.matrix_a.value()}
    out["fwd"] = e(ids)
    out["matrix_a"] = e.matrix_a.value()
    out["grad"] = ms.grad(lambda i: (e(i) * _t(ms, 3, 2, 3, 3)).sum(), None, e.trainable_params())(ids)
    oh = _thor_init(ms, nn.EmbeddingThor(6, 2, use_one_hot=True), 1)
    out["one_hot"] = oh(ms.Tensor(np.array([0, 5, 5]), ms.int32))
    out["one_hot_a"] = oh.matrix_a.value()
    return out


def case_l_thor_embedding_lookup(ms):
    """(With max_norm MindSpore 2.10 on CPU scales the looked-up vectors by factors that are not their norms'
    clipping ratios -- vectors of the same id come out different -- so max_norm is not recorded; the table's
    gradient there has one row per looked-up id, (6, 3), where msjax gives the dense (10, 3).)"""
    nn = ms.nn
    net = _thor_init(ms, nn.EmbeddingLookupThor(10, 3))
    ids = ms.Tensor(np.array([[1, 2, 1], [3, 4, 9]]), ms.int32)
    out = {"names": [(n, str(p.dtype), p.requires_grad) for n, p in net.parameters_and_names()]}
    out["fwd"] = net(ids)
    out["matrix_a"] = net.matrix_a.value()
    return out


class _JvpNets:
    """Cells for the Jvp/Vjp cases, built from the framework passed in."""

    def __init__(self, ms):
        nn, ops = ms.nn, ms.ops

        class Net(nn.Cell):
            def construct(self, x, y):
                return x ** 3 + ops.sin(y) * x

        class Two(nn.Cell):
            def construct(self, x, y):
                return x * y, ops.exp(x) - y

        class One(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = ms.Parameter(ms.Tensor(_rs(9, 2, 3)), name="w")

            def construct(self, x):
                return ops.tanh(x * self.w)

        self.net, self.two, self.one = Net(), Two(), One()


def case_l_jvp(ms):
    c = _JvpNets(ms)
    x, y, v1, v2 = _t(ms, 1, 2, 3), _t(ms, 2, 2, 3), _t(ms, 3, 2, 3), _t(ms, 4, 2, 3)
    jvp = ms.nn.Jvp(c.net)
    return {"two_in": jvp(x, y, (v1, v2)), "again": jvp(x * 2, y, (v2, v1)),
            "tuple_out": ms.nn.Jvp(c.two)(x, y, (v1, v2)), "one_in": ms.nn.Jvp(c.one)(x, v2)}


def case_l_vjp(ms):
    c = _JvpNets(ms)
    x, y, v1, v2 = _t(ms, 1, 2, 3), _t(ms, 2, 2, 3), _t(ms, 3, 2, 3), _t(ms, 4, 2, 3)
    return {"two_in": ms.nn.Vjp(c.net)(x, y, v1), "tuple_out": ms.nn.Vjp(c.two)(x, y, (v1, v2)),
            "one_in": ms.nn.Vjp(c.one)(x, v2)}


def case_op_jvp(ms):
    c = _JvpNets(ms)
    x, y, v1, v2 = _t(ms, 1, 2, 3), _t(ms, 2, 2, 3), _t(ms, 3, 2, 3), _t(ms, 4, 2, 3)
    return {"two_in": ms.ops.jvp(c.net, (x, y), (v1, v2)), "one_in": ms.ops.jvp(c.one, x, v2),
            "aux": ms.ops.jvp(c.two, (x, y), [v1, v2], has_aux=True)}


def case_l_no_init_parameters(ms):
    nn = ms.nn
    with nn.utils.no_init_parameters():
        inside = ms.Parameter.init_param
        net = nn.Dense(3, 2)
    after = ms.Parameter.init_param
    _init(ms, net, 3)            # what loading a checkpoint does
    net.init_parameters_data()
    return {"inside": inside, "after": after, "same": nn.no_init_parameters is nn.utils.no_init_parameters,
            "fg": _net(ms, net, _t(ms, 5, 4, 3), init=False)}


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
