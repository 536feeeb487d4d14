"""Golden cases for the breadth of ``mindspore.ops``: Primitive classes and
functional names migrating model code hits (Einsum, DivNoNan, Bessel functions,
matrix ops, Inplace*, Apply* optimizer primitives...)."""
import numpy as np


def _t(ms, a, dt=None):
    return ms.Tensor(np.array(a), dt)


# --- elementwise math -------------------------------------------------------

def case_div_no_nan(ms):
    x = _t(ms, [1.0, 2.0, -3.0, 0.0], ms.float32)
    y = _t(ms, [0.0, 4.0, 2.0, 0.0], ms.float32)
    out = ms.ops.DivNoNan()(x, y)
    g = ms.grad(lambda a, b: ms.ops.DivNoNan()(a, b).sum(), (0, 1))(x, y)
    return [out, g]


def case_div_no_nan_int(ms):
    return ms.ops.DivNoNan()(_t(ms, [3, 4, 5], ms.int32), _t(ms, [2, 0, -2], ms.int32))


def case_mul_no_nan(ms):
    x = _t(ms, [1.0, np.inf, np.nan, 2.0], ms.float32)
    y = _t(ms, [0.0, 0.0, 0.0, 3.0], ms.float32)
    out = ms.ops.MulNoNan()(x, y)
    g = ms.grad(lambda a, b: ms.ops.MulNoNan()(a, b).sum(), (0, 1))(_t(ms, [1.0, 2.0], ms.float32),
                                                                    _t(ms, [0.0, 3.0], ms.float32))
    return [out, g]


def case_mod(ms):
    x = _t(ms, [-5.0, 5.0, -5.5, 7.0], ms.float32)
    y = _t(ms, [3.0, -3.0, 2.0, 2.5], ms.float32)
    xi = _t(ms, [-5, 5, -7, 7], ms.int32)
    yi = _t(ms, [3, -3, 2, 4], ms.int32)
    return [ms.ops.Mod()(x, y), ms.ops.Mod()(xi, yi), ms.ops.Mod()(xi, 2.5)]


def case_hypot(ms):
    x = _t(ms, [3.0, 5.0, -8.0], ms.float32)
    y = _t(ms, [4.0, 12.0, 15.0], ms.float32)
    g = ms.grad(lambda a, b: ms.ops.hypot(a, b).sum(), (0, 1))(x, y)
    return [ms.ops.hypot(x, y), ms.ops.Hypot()(x.astype(ms.float64), y.astype(ms.float64)), g]


def case_hypot_int_error(ms):
    return ms.ops.hypot(_t(ms, [3, 5], ms.int32), _t(ms, [4, 12], ms.int32))


def case_heaviside(ms):
    x = _t(ms, [-1.5, 0.0, 2.0, 0.0], ms.float32)
    v = _t(ms, [0.5, 0.5, 0.5, 0.7], ms.float32)
    xi = _t(ms, [-2, 0, 3], ms.int32)
    return [ms.ops.heaviside(x, v), ms.ops.Heaviside()(xi, _t(ms, [9, 9, 9], ms.int32))]


def case_lcm(ms):
    a = _t(ms, [4, 6, -9, 0], ms.int32)
    b = _t(ms, [6, 4, 6, 5], ms.int32)
    return [ms.ops.lcm(a, b), ms.ops.Lcm()(a.astype(ms.int64), b.astype(ms.int64))]


def case_lcm_float_error(ms):
    return ms.ops.lcm(_t(ms, [4.0], ms.float32), _t(ms, [6.0], ms.float32))


def case_logit(ms):
    x = _t(ms, [0.1, 0.5, 0.9, 0.0, 1.0], ms.float32)
    g = ms.grad(lambda a: ms.ops.logit(a, 0.05).sum())(_t(ms, [0.02, 0.5, 0.9], ms.float32))
    return [ms.ops.logit(x), ms.ops.logit(x, eps=0.2), ms.ops.Logit(eps=0.1)(x), g]


def case_nan_to_num(ms):
    x = _t(ms, [np.nan, np.inf, -np.inf, 3.5], ms.float32)
    return [ms.ops.nan_to_num(x), ms.ops.nan_to_num(x, 1.0, 100.0, -100.0),
            ms.ops.NanToNum(nan=2.0, posinf=5.0, neginf=-5.0)(x),
            ms.ops.nan_to_num(x.astype(ms.float16))]


def case_lgamma_digamma(ms):
    x = _t(ms, [0.5, 1.0, 2.5, 7.0, -0.5], ms.float32)
    g = ms.grad(lambda a: ms.ops.lgamma(a).sum())(x)
    return [ms.ops.lgamma(x), ms.ops.Lgamma()(x), ms.ops.digamma(x), ms.ops.Digamma()(x), g]


def case_igamma(ms):
    a = _t(ms, [0.5, 1.0, 2.0, 3.0], ms.float32)
    x = _t(ms, [0.3, 1.0, 1.5, 5.0], ms.float32)
    g = ms.grad(lambda u: ms.ops.igamma(a, u).sum())(x)
    return [ms.ops.igamma(a, x), ms.ops.igammac(a, x), ms.ops.Igamma()(a, x), ms.ops.Igammac()(a, x), g]


def case_bessel(ms):
    x = _t(ms, [-1.5, 0.0, 0.5, 2.0, 10.0], ms.float32)
    return [ms.ops.bessel_i0(x), ms.ops.bessel_i1(x), ms.ops.bessel_i0e(x), ms.ops.bessel_i1e(x),
            ms.ops.bessel_j0(x), ms.ops.bessel_j1(x)]


def case_bessel_prims(ms):
    x = _t(ms, [0.25, 1.0, 3.0], ms.float64)
    return [ms.ops.BesselI0()(x), ms.ops.BesselI1()(x), ms.ops.BesselI0e()(x), ms.ops.BesselI1e()(x),
            ms.ops.BesselJ0()(x), ms.ops.BesselJ1()(x)]


def case_bessel_grad(ms):
    x = _t(ms, [0.5, 2.0], ms.float32)
    return [ms.grad(lambda a: ms.ops.bessel_i0(a).sum())(x), ms.grad(lambda a: ms.ops.bessel_j0(a).sum())(x)]


def case_l2_loss(ms):
    x = _t(ms, [1.0, 2.0, -3.0], ms.float32)
    g = ms.grad(lambda a: ms.ops.L2Loss()(a))(x)
    return [ms.ops.L2Loss()(x), ms.ops.L2Loss()(x.astype(ms.float16)), g]


def case_cdist(ms):
    x = _t(ms, [[[1.0, 1.0], [2.0, 2.0]]], ms.float32)
    y = _t(ms, [[[3.0, 3.0], [3.0, 4.0], [0.0, 1.0]]], ms.float32)
    g = ms.grad(lambda a: ms.ops.cdist(a, y).sum())(x)
    return [ms.ops.cdist(x, y), ms.ops.cdist(x, y, 1.0), ms.ops.Cdist(p=3.0)(x, y), ms.ops.cdist(x[0], y[0]), g]


def case_cdist_inf(ms):
    x = _t(ms, [[1.0, 1.0], [2.0, 5.0]], ms.float32)
    y = _t(ms, [[3.0, 3.0], [0.0, 4.0]], ms.float32)
    return [ms.ops.cdist(x, y, float("inf")), ms.ops.cdist(x, y, 0.0)]



# --- linear algebra -----------------------------------------------------------

def _spd(ms):
    return _t(ms, [[4.0, 2.0, 0.4], [2.0, 5.0, 1.0], [0.4, 1.0, 3.0]], ms.float32)


def case_cholesky(ms):
    a = _spd(ms)
    return [ms.ops.cholesky(a), ms.ops.cholesky(a, upper=True), ms.ops.Cholesky(upper=False)(a)]


def case_cholesky_inverse_solve(ms):
    a = _spd(ms)
    u = ms.ops.cholesky(a)
    b = _t(ms, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32)
    return [ms.ops.cholesky_inverse(u), ms.ops.CholeskyInverse(upper=False)(u),
            ms.ops.cholesky_solve(b, u), ms.ops.CholeskySolve()(b, u)]


def case_matrix_determinant(ms):
    a = _t(ms, [[[1.0, 2.0], [3.0, 4.0]], [[2.0, 0.5], [1.0, 3.0]]], ms.float32)
    g = ms.grad(lambda m: ms.ops.MatrixDeterminant()(m).sum())(a)
    return [ms.ops.MatrixDeterminant()(a), ms.ops.LogMatrixDeterminant()(a), ms.ops.slogdet(a), g]


def case_matrix_power(ms):
    a = _t(ms, [[[1.0, 2.0], [3.0, 4.0]]], ms.float32)
    return [ms.ops.matrix_power(a, 3), ms.ops.MatrixPower(0)(a), ms.ops.matrix_power(a, -1)]


def case_matrix_solve(ms):
    a = _t(ms, [[3.0, 1.0], [1.0, 2.0]], ms.float32)
    b = _t(ms, [[9.0], [8.0]], ms.float32)
    return [ms.ops.MatrixSolve()(a, b), ms.ops.MatrixSolve(adjoint=True)(a, b),
            ms.ops.MatrixTriangularSolve()(a, b), ms.ops.MatrixTriangularSolve(lower=False, adjoint=True)(a, b)]


def case_matrix_band_part(ms):
    x = _t(ms, np.arange(16.0).reshape(4, 4), ms.float32)
    return [ms.ops.matrix_band_part(x, 1, 0), ms.ops.matrix_band_part(x, -1, 1),
            ms.ops.MatrixBandPart()(x.astype(ms.int32), 0, -1)]


def case_ger(ms):
    a = _t(ms, [1.0, 2.0, 3.0], ms.float32)
    b = _t(ms, [4.0, 5.0], ms.float32)
    return [ms.ops.Ger()(a, b), ms.ops.Ger()(a.astype(ms.float16), b.astype(ms.float16))]


# --- array ---------------------------------------------------------------------

def case_expand(ms):
    x = _t(ms, [[1.0], [2.0]], ms.float32)
    return [ms.ops.Expand()(x, _t(ms, [2, 3], ms.int32)), ms.ops.expand(x, _t(ms, [2, 4], ms.int32))]


def case_masked_select_nonzero(ms):
    x = _t(ms, [[1, 2, 3], [4, 5, 6]], ms.int32)
    m = _t(ms, [[True, False, True], [False, False, True]], ms.bool_)
    return [ms.ops.MaskedSelect()(x, m), ms.ops.NonZero()(x * m.astype(ms.int32))]


def case_invert_permutation_pack(ms):
    a, b = _t(ms, [1, 2], ms.int32), _t(ms, [3, 4], ms.int32)
    return [ms.ops.InvertPermutation()((3, 4, 0, 2, 1)), ms.ops.Pack()([a, b]), ms.ops.Pack(axis=1)((a, b))]


def case_depth_space(ms):
    x = _t(ms, np.arange(16.0).reshape(1, 4, 2, 2), ms.float32)
    y = ms.ops.DepthToSpace(2)(x)
    return [y, ms.ops.SpaceToDepth(2)(y)]


def case_equal_count_approx(ms):
    x = _t(ms, [1, 2, 3, 4], ms.int32)
    y = _t(ms, [1, 0, 3, 5], ms.int32)
    f = _t(ms, [1.0, 2.0, 3.0], ms.float32)
    return [ms.ops.EqualCount()(x, y), ms.ops.ApproximateEqual(0.5)(f, _t(ms, [1.2, 2.6, 3.0], ms.float32))]


def case_bit_ops(ms):
    x = _t(ms, [1, -2, 7, 0], ms.int32)
    return [ms.ops.Invert()(x), ms.ops.Invert()(x.astype(ms.uint8)), ms.ops.LeftShift()(x, _t(ms, [1, 2, 3, 4], ms.int32)),
            ms.ops.RightShift()(x, _t(ms, [1, 1, 1, 1], ms.int32)), ms.ops.bitwise_left_shift(x, 2),
            ms.ops.bitwise_right_shift(x, 1)]


def case_complex_ops(ms):
    re = _t(ms, [3.0, -1.0], ms.float32)
    im = _t(ms, [4.0, 1.0], ms.float32)
    c = ms.ops.Complex()(re, im)
    return [c, ms.ops.ComplexAbs()(c), ms.ops.conj(c), ms.ops.Conj()(c), ms.ops.angle(c), ms.ops.Angle()(c),
            ms.ops.conj(re)]


def case_invert_permutation_tensor_error(ms):
    return ms.ops.InvertPermutation()(_t(ms, [1, 0], ms.int32))


def case_check_numerics(ms):
    return ms.ops.CheckNumerics()(_t(ms, [1.0, 2.0], ms.float32))


def case_check_numerics_nan(ms):
    return ms.ops.CheckNumerics()(_t(ms, [1.0, np.nan], ms.float32))


def case_bucketize_bounds(ms):
    x = _t(ms, [[-1.0, 0.5, 3.0], [1.0, 2.0, 9.0]], ms.float32)
    sorted_x = _t(ms, [[0.0, 1.0, 2.0, 3.0], [1.0, 1.0, 2.0, 8.0]], ms.float32)
    vals = _t(ms, [[1.0, 2.5], [1.0, 9.0]], ms.float32)
    return [ms.ops.bucketize(x, [0.0, 1.0, 2.0]), ms.ops.bucketize(x, [0.0, 1.0, 2.0], right=True),
            ms.ops.Bucketize([0.0, 1.0, 2.0])(x), ms.ops.LowerBound()(sorted_x, vals),
            ms.ops.UpperBound()(sorted_x, vals), ms.ops.UpperBound(out_type=ms.int64)(sorted_x, vals)]


def case_in_top_k(ms):
    x = _t(ms, [[1.0, 8.0, 5.0, 2.0], [7.0, 5.0, 1.0, 3.0]], ms.float32)
    t = _t(ms, [1, 3], ms.int32)
    return [ms.ops.InTopK(2)(x, t), ms.ops.intopk(x, t, 4)]



# --- optimizer primitives (update Parameters in place) -------------------------

def _p(ms, vals, name):
    return ms.Parameter(ms.Tensor(np.array(vals, np.float32)), name=name)


def _grad_vec(ms):
    return ms.Tensor(np.array([0.5, -1.0, 0.25], np.float32))


def case_apply_gradient_descent(ms):
    var = _p(ms, [1.0, 2.0, 3.0], "var")
    out = ms.ops.ApplyGradientDescent()(var, 0.1, _grad_vec(ms))
    return [out, var]


def case_apply_adagrad(ms):
    var, acc = _p(ms, [1.0, 2.0, 3.0], "var"), _p(ms, [0.1, 0.2, 0.3], "acc")
    out = ms.ops.ApplyAdagrad()(var, acc, 0.01, _grad_vec(ms))
    var2, acc2 = _p(ms, [1.0, 2.0, 3.0], "var2"), _p(ms, [0.1, 0.2, 0.3], "acc2")
    out2 = ms.ops.ApplyAdagradV2(epsilon=1e-6, update_slots=False)(var2, acc2, 0.01, _grad_vec(ms))
    return [out, var, acc, out2, var2, acc2]


def case_apply_adadelta(ms):
    var, acc, upd = _p(ms, [1.0, 2.0, 3.0], "var"), _p(ms, [0.1, 0.2, 0.3], "acc"), _p(ms, [0.3, 0.2, 0.1], "upd")
    out = ms.ops.ApplyAdadelta()(var, acc, upd, 0.01, 0.9, 1e-6, _grad_vec(ms))
    return [out, var, acc, upd]


def case_apply_adamax(ms):
    var, m, v = _p(ms, [1.0, 2.0, 3.0], "var"), _p(ms, [0.1, 0.2, 0.3], "m"), _p(ms, [0.3, 0.2, 0.1], "v")
    out = ms.ops.ApplyAdaMax()(var, m, v, 0.9, 0.01, 0.9, 0.99, 1e-8, _grad_vec(ms))
    return [out, var, m, v]


def case_apply_proximal_adagrad(ms):
    var, acc = _p(ms, [1.0, -2.0, 0.001], "var"), _p(ms, [0.1, 0.2, 0.3], "acc")
    out = ms.ops.ApplyProximalAdagrad()(var, acc, 0.1, 0.01, 0.1, _grad_vec(ms))
    return [out, var, acc]


def case_apply_sign_optimizers(ms):
    var, m = _p(ms, [1.0, 2.0, 3.0], "var"), _p(ms, [0.1, -0.2, 0.3], "m")
    out = ms.ops.ApplyPowerSign()(var, m, 0.01, 2.718, 0.99, 0.9, _grad_vec(ms))
    var2, m2 = _p(ms, [1.0, 2.0, 3.0], "var2"), _p(ms, [0.1, -0.2, 0.3], "m2")
    out2 = ms.ops.ApplyAddSign()(var2, m2, 0.01, 1.0, 0.99, 0.9, _grad_vec(ms))
    return [out, var, m, out2, var2, m2]


def case_apply_ftrl(ms):
    var, acc, lin = _p(ms, [1.0, 2.0, 3.0], "var"), _p(ms, [0.1, 0.2, 0.3], "acc"), _p(ms, [0.5, -0.01, 0.2], "lin")
    out = ms.ops.ApplyFtrl()(var, acc, lin, _grad_vec(ms), 0.01, 0.01, 0.02, -0.5)
    return [out, var, acc, lin]


# --- windows, batch <-> space, Im2Col/Col2Im, 3-D conv/pool Primitives --------

def case_windows(ms):
    o = ms.ops
    n7, n6 = ms.Tensor(np.array(7), ms.int32), ms.Tensor(np.array(6), ms.int64)
    return [o.hann_window(6), o.hann_window(5, periodic=False, dtype=ms.float32), o.hamming_window(5, False, 0.5, 0.5),
            o.hamming_window(4, dtype=ms.float64), o.blackman_window(n7), o.bartlett_window(n6, periodic=False),
            o.bartlett_window(n7, dtype=ms.float16), o.kaiser_window(6, beta=5.0), o.kaiser_window(5, False),
            o.hann_window(1), o.hann_window(0), o.blackman_window(ms.Tensor(np.array(1), ms.int32))]


def case_window_int_length_error(ms):
    return ms.ops.blackman_window(5)


def case_window_tensor_length_error(ms):
    return ms.ops.hann_window(ms.Tensor(np.array(5), ms.int32))


def case_window_primitives(ms):
    n = ms.Tensor(np.array(6), ms.int32)
    n1 = ms.Tensor(np.array([6]), ms.int64)
    return [ms.ops.HammingWindow()(n1), ms.ops.HammingWindow(False, 0.6, 0.4, ms.float64)(n1),
            ms.ops.BartlettWindow()(n), ms.ops.BartlettWindow(periodic=False)(ms.Tensor(np.array(5), ms.int64)),
            ms.ops.BlackmanWindow(False, ms.float64)(n)]


def case_window_primitive_rank_error(ms):
    return ms.ops.BartlettWindow()(_t(ms, [5], ms.int32))


def case_window_float_length_error(ms):
    return ms.ops.BlackmanWindow()(_t(ms, 5.0, ms.float32))


def case_batch_to_space_nd(ms):
    x = _t(ms, np.arange(32).reshape(4, 2, 2, 2), ms.float32)
    out = ms.ops.BatchToSpaceND((2, 2), ((0, 1), (1, 0)))(x)
    f = ms.ops.batch_to_space_nd(x, 2, [[0, 0], [0, 0]])
    g = ms.grad(lambda a: (ms.ops.BatchToSpaceND((2, 2), ((0, 1), (1, 0)))(a) * 2).sum())(x)
    return [out, f, g]


def case_space_to_batch_nd(ms):
    x = _t(ms, np.arange(24).reshape(1, 2, 3, 4), ms.float32)
    out = ms.ops.SpaceToBatchND((2, 2), ((1, 0), (0, 0)))(x)
    f = ms.ops.space_to_batch_nd(_t(ms, np.arange(16).reshape(1, 1, 4, 4), ms.int32), 2, [[0, 0], [0, 0]])
    g = ms.grad(lambda a: (ms.ops.SpaceToBatchND((2, 2), ((1, 0), (0, 0)))(a) ** 2).sum())(x)
    return [out, f, g]


def case_space_to_batch_nd_indivisible_error(ms):
    return ms.ops.SpaceToBatchND((2, 2), ((0, 0), (0, 0)))(_t(ms, np.ones((1, 1, 3, 4)), ms.float32))


def case_im2col(ms):
    x = _t(ms, np.arange(2 * 2 * 4 * 5).reshape(2, 2, 4, 5), ms.float32)
    a = ms.ops.Im2Col(ksizes=2)(x)
    b = ms.ops.Im2Col(ksizes=(2, 3), strides=(2, 1), dilations=1, pads=1)(x)
    c = ms.ops.Im2Col(ksizes=2, dilations=2)(x)
    return [a, b, c]


def case_col2im(ms):
    x = _t(ms, np.arange(1 * 2 * 4 * 6).reshape(1, 2, 4, 6) / 10.0, ms.float32)
    out = ms.ops.Col2Im(kernel_size=2, dilation=1, padding=0, stride=1)(x, _t(ms, [3, 4], ms.int32))
    y = _t(ms, np.arange(1 * 1 * 4 * 4).reshape(1, 1, 4, 4), ms.float32)
    out2 = ms.ops.Col2Im(kernel_size=2, dilation=1, padding=1, stride=2)(y, _t(ms, [2, 2], ms.int32))
    return [out, out2]


def case_conv3d_primitive(ms):
    x = _t(ms, np.arange(2 * 2 * 3 * 4 * 4).reshape(2, 2, 3, 4, 4) / 50.0, ms.float32)
    w = _t(ms, np.linspace(-1, 1, 3 * 2 * 2 * 2 * 2).reshape(3, 2, 2, 2, 2), ms.float32)
    a = ms.ops.Conv3D(3, 2)(x, w)
    b = ms.ops.Conv3D(3, (2, 2, 2), pad_mode="pad", pad=(1, 0, 1, 1, 0, 1), stride=(1, 2, 1))(x, w)
    c = ms.ops.Conv3D(3, 2, pad_mode="same", dilation=2)(x, w)
    g = ms.grad(lambda p, q: ms.ops.Conv3D(3, 2, stride=2)(p, q).sum(), (0, 1))(x, w)
    return [a, b, c, g]


def case_conv3d_primitive_channel_error(ms):
    return ms.ops.Conv3D(3, 2)(_t(ms, np.ones((1, 3, 3, 3, 3)), ms.float32), _t(ms, np.ones((3, 2, 2, 2, 2)), ms.float32))


def case_conv3d_transpose_output_padding_error(ms):
    d, w = _t(ms, np.ones((1, 2, 2, 2, 2)), ms.float32), _t(ms, np.ones((2, 3, 2, 2, 2)), ms.float32)
    return ms.ops.Conv3DTranspose(2, 3, 2, stride=2, output_padding=1)(d, w)


def case_conv3d_transpose_primitive(ms):
    d = _t(ms, np.arange(1 * 2 * 2 * 3 * 3).reshape(1, 2, 2, 3, 3) / 10.0, ms.float32)
    w = _t(ms, np.linspace(-1, 1, 2 * 3 * 2 * 2 * 2).reshape(2, 3, 2, 2, 2), ms.float32)
    a = ms.ops.Conv3DTranspose(2, 3, 2)(d, w)
    b = ms.ops.Conv3DTranspose(2, 3, 2, stride=2, pad_mode="pad", pad=1)(d, w)
    c = ms.ops.Conv3DTranspose(2, 3, 2, stride=2, pad_mode="pad", pad=(1, 0, 0, 1, 1, 1), output_padding=1)(d, w)
    e = ms.ops.Conv3DTranspose(2, 3, 2, pad_mode="same")(d, w)
    return [a, b, c, e]


def case_conv3d_transpose_function(ms):
    d = _t(ms, np.arange(1 * 2 * 2 * 3 * 3).reshape(1, 2, 2, 3, 3) / 10.0, ms.float32)
    w = _t(ms, np.linspace(-1, 1, 2 * 3 * 2 * 2 * 2).reshape(2, 3, 2, 2, 2), ms.float32)
    a = ms.ops.conv3d_transpose(d, w, stride=2)
    b = ms.ops.conv3d_transpose(d, w, pad_mode="pad", padding=1, stride=(1, 2, 2), output_padding=(0, 1, 1))
    g = ms.grad(lambda p, q: (ms.ops.conv3d_transpose(p, q, stride=2) ** 2).sum(), (0, 1))(d, w)
    return [a, b, g]


def case_max_pool3d_primitive(ms):
    x = _t(ms, np.sin(np.arange(2 * 2 * 4 * 5 * 5)).reshape(2, 2, 4, 5, 5), ms.float32)
    a = ms.ops.MaxPool3D(kernel_size=2, strides=1)(x)
    b = ms.ops.MaxPool3D(kernel_size=(2, 3, 3), strides=2, pad_mode="same")(x)
    c = ms.ops.MaxPool3D(kernel_size=2, strides=2, pad_mode="pad", pad_list=1, ceil_mode=True)(x)
    g = ms.grad(lambda a: ms.ops.MaxPool3D(kernel_size=2, strides=2)(a).sum())(x)
    return [a, b, c, g]


def case_avg_pool3d_primitive(ms):
    x = _t(ms, np.arange(1 * 2 * 4 * 5 * 5).reshape(1, 2, 4, 5, 5), ms.float32)
    a = ms.ops.AvgPool3D(kernel_size=2, strides=1)(x)
    b = ms.ops.AvgPool3D(kernel_size=3, strides=2, pad_mode="same")(x)
    c = ms.ops.AvgPool3D(kernel_size=2, strides=2, pad_mode="pad", pad=1, count_include_pad=False)(x)
    e = ms.ops.AvgPool3D(kernel_size=2, strides=2, pad_mode="pad", pad=1, divisor_override=3)(x)
    g = ms.grad(lambda a: ms.ops.AvgPool3D(kernel_size=2, strides=1)(a).sum())(x)
    return [a, b, c, e, g]


def case_adaptive_max_pool2d_primitive(ms):
    x = _t(ms, np.cos(np.arange(2 * 5 * 7)).reshape(1, 2, 5, 7), ms.float32)
    out = ms.ops.AdaptiveMaxPool2D((3, 2))(x)
    out2 = ms.ops.AdaptiveMaxPool2D([2, 4])(x[0])
    return [out, out2]


def case_adaptive_max_pool2d_primitive_int_error(ms):
    return ms.ops.AdaptiveMaxPool2D(3)(_t(ms, np.ones((1, 2, 4, 4)), ms.float32))


# --- Inplace*, ScatterNd*, Segment*, NthElement, Bincount, Primitive forms ----

def case_inplace_add_sub(ms):
    x = _t(ms, np.arange(8).reshape(4, 2), ms.float32)
    v = _t(ms, [[10.0, 20.0], [1.0, 2.0], [5.0, 5.0]], ms.float32)
    a = ms.ops.InplaceAdd((0, 2, 0))(x, v)
    b = ms.ops.InplaceSub(3)(x, v[1:2])
    c = ms.ops.inplace_add(_t(ms, [[1, 2], [3, 4]], ms.int32), _t(ms, [[7, 8]], ms.int32), 1)
    d = ms.ops.inplace_sub(x, v[:2], (1, 2))
    g = ms.grad(lambda p, q: (ms.ops.InplaceAdd((1, 3))(p, q) ** 2).sum(), (0, 1))(x, v[:2])
    return [a, b, c, d, x, g]


def case_inplace_update(ms):
    x = _t(ms, np.arange(8).reshape(4, 2), ms.float32)
    v = _t(ms, [[10.0, 20.0], [1.0, 2.0]], ms.float32)
    a = ms.ops.InplaceUpdate((1, 3))(x, v)
    b = ms.ops.inplace_update(_t(ms, [[1, 2], [3, 4]], ms.int32), _t(ms, [[7, 8]], ms.int32), (0,))
    c = ms.ops.InplaceUpdateV2()(x, _t(ms, [2, 0], ms.int32), v)
    d = ms.ops.InplaceUpdateV2()(x, 3, v[:1])
    g = ms.grad(lambda p, q: (ms.ops.InplaceUpdate((1, 3))(p, q) ** 2).sum(), (0, 1))(x, v)
    g2 = ms.grad(lambda p, q: (ms.ops.InplaceUpdateV2()(p, _t(ms, [1, 0], ms.int32), q) * 3).sum(), (0, 1))(x, v)
    return [a, b, c, d, x, g, g2]


def case_inplace_update_int64_error(ms):
    return ms.ops.InplaceUpdate(0)(_t(ms, [[1, 2], [3, 4]], ms.int64), _t(ms, [[7, 8]], ms.int64))


def case_inplace_add_bool_error(ms):
    return ms.ops.InplaceAdd(0)(_t(ms, [[True], [False]], ms.bool_), _t(ms, [[True]], ms.bool_))


def case_inplace_add_index_error(ms):
    return ms.ops.InplaceAdd((4,))(_t(ms, np.ones((4, 2)), ms.float32), _t(ms, [[1.0, 2.0]], ms.float32))


def case_inplace_update_count_error(ms):
    return ms.ops.InplaceUpdate((0, 1))(_t(ms, np.ones((4, 2)), ms.float32), _t(ms, [[1.0, 2.0]], ms.float32))


def case_inplace_index_add(ms):
    var = ms.Parameter(_t(ms, np.ones((3, 2)), ms.float32), name="var")
    out = ms.ops.InplaceIndexAdd(1)(var, _t(ms, [1, 1], ms.int32), _t(ms, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32))
    var2 = ms.Parameter(_t(ms, np.zeros((3, 2)), ms.int32), name="var2")
    out2 = ms.ops.inplace_index_add(var2, _t(ms, [2, 0], ms.int32), _t(ms, [[1, 2], [3, 4]], ms.int32), 0)
    return [out, var, out2, var2]


def case_scatter_nd_inplace(ms):
    outs = []
    for k, name in enumerate(["ScatterNdAdd", "ScatterNdSub", "ScatterNdMul", "ScatterNdDiv", "ScatterNdMax",
                              "ScatterNdMin", "ScatterNdUpdate"]):
        p = ms.Parameter(_t(ms, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32), name="p%d" % k)
        out = getattr(ms.ops, name)()(p, _t(ms, [[2], [0]], ms.int32), _t(ms, [[4.0, -1.0], [0.5, 8.0]], ms.float32))
        outs += [out, p]
    q = ms.Parameter(_t(ms, np.arange(6).reshape(2, 3), ms.int32), name="q")
    outs += [ms.ops.scatter_nd_max(q, _t(ms, [[0, 1], [1, 2]], ms.int64), _t(ms, [9, -1], ms.int32)), q]
    q2 = ms.Parameter(_t(ms, [1.0, 2.0, 3.0], ms.float32), name="q2")
    outs += [ms.ops.scatter_nd_sub(q2, _t(ms, [[1], [1]], ms.int32), _t(ms, [1.0, 5.0], ms.float32), True), q2]
    return outs


def case_scatter_nd_tensor_input(ms):
    x = _t(ms, [1.0, 5.0, 3.0], ms.float32)
    y = _t(ms, [[1, 5], [3, 4]], ms.int32)
    a = ms.ops.ScatterNdMin()(x, _t(ms, [[0], [0]], ms.int32), _t(ms, [4.0, -7.0], ms.float32))
    b = ms.ops.scatter_nd_mul(y, _t(ms, [[1, 1]], ms.int32), _t(ms, [2], ms.int32))
    return [np.array(a.asnumpy(), copy=True), x, np.array(b.asnumpy(), copy=True), y]


def case_scatter_nd_index_error(ms):
    p = ms.Parameter(_t(ms, [1.0, 5.0, 3.0], ms.float32), name="p")
    return ms.ops.ScatterNdMax()(p, _t(ms, [[3]], ms.int32), _t(ms, [4.0], ms.float32))


def case_tensor_scatter_primitives(ms):
    x = _t(ms, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32)
    i = _t(ms, [[2, 1], [0, 0], [2, 1]], ms.int32)
    u = _t(ms, [4.0, -1.0, 0.5], ms.float32)
    outs = [getattr(ms.ops, n)()(x, i, u) for n in
            ["TensorScatterSub", "TensorScatterMul", "TensorScatterDiv", "TensorScatterMax", "TensorScatterMin"]]
    outs += [ms.ops.tensor_scatter_sub(x, i, u), ms.ops.tensor_scatter_max(x, i[:1], u[:1]),
             ms.ops.tensor_scatter_min(x, _t(ms, [[1]], ms.int64), _t(ms, [[0.0, 9.0]], ms.float32))]
    xi = _t(ms, [[1, 2], [3, 4]], ms.int32)
    outs += [ms.ops.TensorScatterMul()(xi, _t(ms, [[0]], ms.int32), _t(ms, [[3, -2]], ms.int32))]
    outs += [ms.grad(lambda a, b: ms.ops.TensorScatterSub()(a, i, b).sum(), (0, 1))(x, u)]
    w = _t(ms, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32)
    for n in ["TensorScatterMul", "TensorScatterDiv", "TensorScatterMax", "TensorScatterMin"]:
        outs += [ms.grad(lambda a, b, n=n: (getattr(ms.ops, n)()(a, i, b) * w).sum(), (0, 1))(x, u)]
    return outs


def case_segment_ops(ms):
    x = _t(ms, [[1.0, -2.0], [3.0, 4.0], [5.0, 6.0], [7.0, -8.0], [0.5, 1.0]], ms.float32)
    ids = _t(ms, [0, 0, 2, 2, 2], ms.int32)
    outs = [getattr(ms.ops, n)()(x, ids) for n in ["SegmentSum", "SegmentMax", "SegmentMin", "SegmentMean", "SegmentProd"]]
    outs.append(ms.ops.SegmentSum()(_t(ms, [1, 2, 3], ms.int32), _t(ms, [1, 1, 3], ms.int64)))
    outs.append(ms.grad(lambda a: ms.ops.SegmentSum()(a, ids).sum())(x))
    return outs


def case_segment_unsorted_error(ms):
    return ms.ops.SegmentSum()(_t(ms, [1.0, 2.0, 3.0], ms.float32), _t(ms, [1, 0, 1], ms.int32))


def case_unsorted_segment_primitives(ms):
    x = _t(ms, [[1.0, -2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32)
    ids = _t(ms, [2, 0, 2], ms.int32)
    return [ms.ops.UnsortedSegmentMax()(x, ids, 3), ms.ops.UnsortedSegmentMin()(x, ids, 4),
            ms.ops.UnsortedSegmentProd()(x, ids, 3)]


def case_nth_element(ms):
    x = _t(ms, [[3.0, 1.0, 2.0, 7.0], [6.0, 5.0, 4.0, -1.0]], ms.float32)
    return [ms.ops.NthElement()(x, 1), ms.ops.NthElement(reverse=True)(x, _t(ms, 0, ms.int32)),
            ms.ops.NthElement()(_t(ms, [[3, 1, 2]], ms.int8), 2), ms.ops.NthElement()(_t(ms, [3.0, 1.0, 2.0], ms.float64), 1),
            ms.ops.NthElement(True)(_t(ms, np.arange(24).reshape(2, 3, 4) % 5, ms.int32), 3)]


def case_nth_element_range_error(ms):
    return ms.ops.NthElement()(_t(ms, [[3.0, 1.0, 2.0]], ms.float32), 3)


def case_bincount_primitive(ms):
    a = ms.ops.Bincount()(_t(ms, [0, 1, 1, 3, 7], ms.int32), _t(ms, 5, ms.int32), _t(ms, [1.0, 2.0, 3.0, 4.0, 5.0], ms.float64))
    b = ms.ops.Bincount()(_t(ms, [[0, 1], [1, 3]], ms.int32), _t(ms, 4, ms.int32), _t(ms, [[1, 2], [3, 4]], ms.int32))
    c = ms.ops.Bincount()(_t(ms, [2, 2], ms.int32), _t(ms, 3, ms.int32), _t(ms, [0.5, 0.25], ms.float32))
    return [a, b, c]


def case_bincount_negative_error(ms):
    return ms.ops.Bincount()(_t(ms, [0, -1], ms.int32), _t(ms, 4, ms.int32), _t(ms, [1.0, 2.0], ms.float32))


def case_histogram_primitive(ms):
    return [ms.ops.Histogram(bins=4, min=0.0, max=3.0)(_t(ms, [0.0, 1.0, 1.0, 2.5, 3.0, 5.0], ms.float32)),
            ms.ops.Histogram(bins=3)(_t(ms, [0, 1, 1, 2, 5], ms.int32)), ms.ops.Histogram()(_t(ms, [1.0, 2.0], ms.float16))]


def case_median_primitive(ms):
    x = _t(ms, [[1.0, 3.0, 2.0], [4.0, np.nan, 5.0], [7.0, 8.0, 6.0]], ms.float32)
    return [ms.ops.Median()(x[0:1]), ms.ops.Median(axis=1)(x), ms.ops.Median(axis=1, ignore_nan=True)(x),
            ms.ops.Median(global_median=True)(_t(ms, [[1.0, 3.0, 2.0], [4.0, 0.0, 5.0]], ms.float32)),
            ms.ops.Median(axis=-1, keep_dims=True)(_t(ms, [[1, 3, 2, 4]], ms.int32))]


def case_index_fill_tril_triu_renorm_primitives(ms):
    x = _t(ms, np.arange(12).reshape(3, 4), ms.float32)
    return [ms.ops.IndexFill()(x, 1, _t(ms, [0, 2], ms.int32), _t(ms, 9.0, ms.float32)),
            ms.ops.IndexFill()(_t(ms, np.arange(6).reshape(2, 3), ms.int32), 0, _t(ms, [1], ms.int32), _t(ms, -1, ms.int32)),
            ms.ops.Tril()(x), ms.ops.Tril(diagonal=1)(x), ms.ops.Triu(-1)(x),
            ms.ops.Tril()(_t(ms, [[True, True], [True, True]], ms.bool_)),
            ms.ops.Renorm(p=2, dim=0, maxnorm=5.0)(x), ms.ops.Renorm(1, 1, 2.0)(_t(ms, [[3.0, 4.0], [0.3, 0.4]], ms.float32)),
            ms.grad(lambda a: ms.ops.Renorm(p=2, dim=0, maxnorm=5.0)(a).sum())(x)]


def case_index_fill_primitive_value_error(ms):
    return ms.ops.IndexFill()(_t(ms, np.arange(6).reshape(2, 3), ms.float32), 0, _t(ms, [1], ms.int32), 5.0)


# --- Qr, Geqrf/Orgqr, Eig, Lstsq, LpNorm, MatrixLogarithm ---------------------

def case_qr_primitive(ms):
    a = _t(ms, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32)
    w = _t(ms, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], ms.float64)
    b = _t(ms, np.arange(12).reshape(2, 3, 2) + np.eye(3, 2), ms.float32)
    return [ms.ops.Qr()(a), ms.ops.Qr(True)(a), ms.ops.Qr(full_matrices=True)(w), ms.ops.Qr()(b)]


def case_qr_mode_error(ms):
    return ms.ops.qr(_t(ms, [[1.0, 2.0], [3.0, 4.0]], ms.float32), "r")


def case_qr_primitive_int_error(ms):
    return ms.ops.Qr()(_t(ms, [[1, 2], [3, 4]], ms.int32))


def case_geqrf_orgqr(ms):
    a = _t(ms, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32)
    b = _t(ms, np.arange(12).reshape(2, 3, 2) + np.eye(3, 2), ms.float64)
    h, tau = ms.ops.Geqrf()(a)
    return [ms.ops.geqrf(a), ms.ops.geqrf(b), ms.ops.Orgqr()(h, tau), ms.ops.orgqr(*ms.ops.geqrf(b)),
            ms.ops.orgqr(_t(ms, np.arange(12).reshape(2, 3, 2), ms.float32), _t(ms, [[0.5, 0.2], [1.0, 1.5]], ms.float32)),
            ms.ops.orgqr(_t(ms, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32), _t(ms, [0.5], ms.float32))]


def case_geqrf_int_error(ms):
    return ms.ops.geqrf(_t(ms, [[1, 2], [3, 4]], ms.int32))


def case_eig(ms):
    a = _t(ms, [[1.0, 2.0], [3.0, 4.0]], ms.float32)
    w, _ = ms.ops.Eig()(a)
    return [ms.ops.Eig(compute_v=True)(a), ms.ops.eig(a.astype(ms.float64)), w, ms.ops.eig(_t(ms, [[0.0, -1.0], [1.0, 0.0]], ms.float32))[0]]


def case_eig_int_error(ms):
    return ms.ops.eig(_t(ms, [[0, -1], [1, 0]], ms.int32))


def case_lstsq(ms):
    a = _t(ms, [[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], ms.float32)
    return [ms.ops.Lstsq()(a, _t(ms, [[1.0], [2.0], [4.0]], ms.float32)), ms.ops.Lstsq(fast=True)(a, _t(ms, [1.0, 2.0, 4.0], ms.float32)),
            ms.ops.lstsq(a.astype(ms.float64), _t(ms, [[1.0, 0.0], [2.0, 1.0], [4.0, 1.0]], ms.float64)),
            ms.ops.lstsq(_t(ms, [[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]], ms.float32), _t(ms, [[1.0], [2.0]], ms.float32))]


def case_lstsq_fast_false_error(ms):
    return ms.ops.Lstsq(fast=False)(_t(ms, np.eye(2), ms.float32), _t(ms, [[1.0], [2.0]], ms.float32))


def case_lstsq_l2_error(ms):
    return ms.ops.Lstsq(l2_regularizer=0.5)(_t(ms, np.eye(2), ms.float32), _t(ms, [[1.0], [2.0]], ms.float32))


def case_lp_norm_primitive(ms):
    a = _t(ms, [[1.0, -2.0], [3.0, 4.0], [-5.0, 0.0]], ms.float32)
    return [ms.ops.LpNorm(axis=[0, 1], p=1, keep_dims=True)(a), ms.ops.LpNorm(axis=1, p=3)(a), ms.ops.LpNorm(axis=0, p=0)(a),
            ms.ops.LpNorm(axis=-1)(a), ms.ops.LpNorm(axis=0)(_t(ms, [[3.0, 4.0]], ms.float16)),
            ms.grad(lambda x: ms.ops.LpNorm(axis=1)(x).sum())(_t(ms, [[0.0, 0.0], [3.0, 4.0]], ms.float32)),
            ms.grad(lambda x: ms.ops.LpNorm(axis=0, p=3)(x).sum())(a)]


def case_matrix_logarithm(ms):
    return [ms.ops.MatrixLogarithm()(_t(ms, [[2.0, 1.0], [0.5, 3.0]], ms.complex64)),
            ms.ops.MatrixLogarithm()(_t(ms, [[[2.0, 1.0], [0.5, 3.0]], [[-1.0, 0.0], [0.0, -2.0]]], ms.complex128)),
            ms.ops.MatrixLogarithm()(_t(ms, [[1.0, 2.0], [0.0, 1.0]], ms.complex64)),
            ms.ops.MatrixLogarithm()(_t(ms, [[1 + 1j, 0.5], [0.25j, 2.0]], ms.complex128))]


def case_matrix_logarithm_real_error(ms):
    return ms.ops.MatrixLogarithm()(_t(ms, [[1.0, 2.0], [0.0, 1.0]], ms.float32))


# --- Scatter* on Parameters, TensorScatterAdd/Update, tril/triu_indices, col2im --

def case_scatter_row_ops(ms):
    outs = []
    for k, name in enumerate(["ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterMax", "ScatterMin",
                              "ScatterUpdate"]):
        p = ms.Parameter(_t(ms, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32), name="p%d" % k)
        idx = _t(ms, [[2], [0]], ms.int32) if name == "ScatterUpdate" else _t(ms, [[0, 2], [0, 0]], ms.int32)
        upd = _t(ms, np.arange(1, 1 + idx.size * 2).reshape(idx.shape + (2,)) / 2.0, ms.float32)
        outs += [getattr(ms.ops, name)()(p, idx, upd), p]
    q = ms.Parameter(_t(ms, [4, 2, 9], ms.int32), name="q")
    outs += [ms.ops.scatter_max(q, _t(ms, [1, 2], ms.int64), _t(ms, [7, -1], ms.int32)), q]
    q2 = ms.Parameter(_t(ms, [4.0, 2.0], ms.float32), name="q2")
    outs += [np.array(ms.ops.scatter_update(q2, _t(ms, [1], ms.int64), _t(ms, [9.0], ms.float32)).asnumpy(), copy=True),
             ms.ops.scatter_div(q2, _t(ms, [0, 0], ms.int32), _t(ms, [2.0, 4.0], ms.float32)),
             ms.ops.scatter_add(_t(ms, [1.0, 2.0], ms.float32), _t(ms, [0], ms.int32), _t(ms, [5.0], ms.float32)), q2]
    return outs


def case_scatter_row_index_error(ms):
    p = ms.Parameter(_t(ms, [4.0, 2.0], ms.float32), name="p")
    return ms.ops.ScatterMax()(p, _t(ms, [2], ms.int32), _t(ms, [9.0], ms.float32))


def case_tensor_scatter_add_update_primitives(ms):
    x = _t(ms, [[1.0, 2.0], [3.0, 4.0]], ms.float32)
    return [ms.ops.TensorScatterAdd()(x, _t(ms, [[1, 0], [1, 0]], ms.int32), _t(ms, [9.0, 1.0], ms.float32)),
            ms.ops.TensorScatterUpdate()(x, _t(ms, [[0]], ms.int64), _t(ms, [[7.0, 8.0]], ms.float32)), x]


def case_tril_triu_indices(ms):
    return [ms.ops.tril_indices(3, 4, 1), ms.ops.triu_indices(3, 4, -1, dtype=ms.int32), ms.ops.tril_indices(4, 3),
            ms.ops.triu_indices(2, 2, 5), ms.ops.TrilIndices(3, 4, 1)(), ms.ops.TriuIndices(4, 2, 0, ms.int64)()]


def case_col2im_function(ms):
    x = _t(ms, np.arange(1 * 2 * 4 * 6).reshape(1, 2, 4, 6) / 10.0, ms.float32)
    out = ms.ops.col2im(x, _t(ms, [3, 4], ms.int32), 2, 1, 0, 1)
    g = ms.grad(lambda a: (ms.ops.col2im(a, _t(ms, [3, 4], ms.int32), 2, 1, 0, 1) ** 2).sum())(x)
    g2 = ms.grad(lambda a: (ms.ops.Im2Col(ksizes=2, strides=1)(a) ** 2).sum())(_t(ms, np.arange(12).reshape(1, 1, 3, 4), ms.float32))
    return [out, g, g2]


# --- stacking helpers, Unpack, ReverseSequence, UnravelIndex, DiagPart... -----

def case_stack_helpers(ms):
    a, b = _t(ms, [[1.0, 2.0], [3.0, 4.0]], ms.float32), _t(ms, [5.0, 6.0], ms.float32)
    o = ms.ops
    return [o.block_diag(a, b, _t(ms, 7.0, ms.float32)), o.cartesian_prod(_t(ms, [1, 2], ms.int32), _t(ms, [3, 4, 5], ms.int32)),
            o.cartesian_prod(_t(ms, [1.0, 2.0], ms.float32), b, _t(ms, [0.5], ms.float32)),
            o.column_stack([b, _t(ms, [[7.0], [8.0]], ms.float32)]), o.dstack([b, b]), o.dstack([a, a]), o.hstack([b, _t(ms, [1.0], ms.float32)]),
            o.hstack((a, a)), o.vstack([b, b]), o.row_stack((a, b)), o.atleast_1d(_t(ms, 1.0, ms.float32)), o.atleast_2d(b),
            o.atleast_3d(a), o.atleast_3d([b, _t(ms, 1, ms.int32)]), o.atleast_2d((a, b))]


def case_stack_mixed_dtype_error(ms):
    return ms.ops.block_diag(_t(ms, [[1, 2]], ms.int32), _t(ms, [[3.0]], ms.float32))


def case_kron_vander_diag_embed(ms):
    a = _t(ms, [[1.0, 2.0], [3.0, 4.0]], ms.float32)
    b = _t(ms, [[0.5, -1.0], [2.0, 1.5]], ms.float32)
    o = ms.ops
    return [o.kron(a, _t(ms, [[0, 1], [1, 0]], ms.int32)), o.kron(_t(ms, [1, 2], ms.int32), _t(ms, [[1], [3]], ms.int32)),
            o.vander(_t(ms, [1, 2, 3], ms.int32), 4), o.vander(_t(ms, [1.0, 2.0, 3.0], ms.float32)), o.vander(_t(ms, [2.0, 3.0], ms.float64), 1),
            o.diag_embed(a, offset=1, dim1=0, dim2=2), o.diag_embed(a), o.diag_embed(_t(ms, [1, 2, 3], ms.int32), -1),
            ms.grad(lambda x: (o.kron(x, b) ** 2).sum())(a), ms.grad(lambda x: (o.diag_embed(x, 1) * 3).sum())(a)]


def case_vander_zero_error(ms):
    return ms.ops.vander(_t(ms, [2.0, 3.0], ms.float64), 0)


def case_unpack_reverse_sequence_unravel(ms):
    x = _t(ms, np.arange(24).reshape(2, 3, 4), ms.float32)
    o = ms.ops
    return [o.Unpack(axis=1)(x), o.Unpack()(x[0]),
            o.ReverseSequence(seq_dim=1, batch_dim=0)(x[:, :, 0], _t(ms, [2, 3], ms.int32)),
            o.ReverseSequence(seq_dim=2, batch_dim=0)(x, _t(ms, [4, 1], ms.int64)),
            o.ReverseSequence(0, 1)(_t(ms, np.arange(6).reshape(3, 2), ms.int32), _t(ms, [2, 3], ms.int32)),
            o.UnravelIndex()(_t(ms, [5, 7, 0], ms.int32), _t(ms, [3, 4], ms.int32)),
            o.UnravelIndex()(_t(ms, [22], ms.int64), _t(ms, [2, 3, 4], ms.int64))]


def case_diag_part_conjugate_transpose_adaptive_max_pool3d(ms):
    o = ms.ops
    return [o.DiagPart()(_t(ms, np.arange(16).reshape(4, 4), ms.float32)),
            o.DiagPart()(_t(ms, np.arange(36).reshape(2, 3, 2, 3), ms.int32)),
            o.ConjugateTranspose()(_t(ms, [[1 + 1j, 2], [3, 4j]], ms.complex64), (1, 0)),
            o.ConjugateTranspose()(_t(ms, np.arange(6).reshape(1, 2, 3), ms.float32), (2, 0, 1)),
            o.AdaptiveMaxPool3D()(_t(ms, np.sin(np.arange(2 * 4 * 5 * 6)).reshape(1, 2, 4, 5, 6), ms.float32), _t(ms, [2, 3, 4], ms.int32))]


def case_digamma_poles(ms):
    """The pole at zero: -inf at +0, +inf at -0; NaN at negative integers."""
    x = ms.Tensor(np.array([0.0, -0.0, -1.0, -2.5, 1.0, 1e-8], np.float32))
    return [ms.ops.digamma(x), ms.ops.lgamma(x)]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
