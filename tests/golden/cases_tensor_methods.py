"""Golden cases for Tensor methods: in-place arithmetic (return values in PyNative, where
MindSpore 2.10's CPU build does not write back; the Parameter update inside ms.jit), shape
helpers, nan-aware reductions, medians and elementwise helpers, with gradients."""
import numpy as np


def _x(ms):
    return ms.Tensor(np.array([[1.5, -2.0, 0.0], [3.0, 0.5, 4.0]], np.float32))


def _xi(ms):
    return ms.Tensor(np.array([[1, -2, 0], [3, 5, 4]], np.int32))


def case_inplace_arith_results(ms):
    T = ms.Tensor
    return [_x(ms).add_(T(2.0)), _x(ms).add_(T(1.0), alpha=2), _x(ms).sub_(1.0, alpha=2), _x(ms).mul_(2.0),
            _x(ms).div_(2.0), _x(ms).div_(2.0, rounding_mode="floor"), _xi(ms).add_(2), _xi(ms).mul_(3),
            _xi(ms).floor_divide_(2), _xi(ms).remainder_(2), _x(ms).exp_()]


def case_inplace_on_parameter_jit(ms):
    p = ms.Parameter(ms.Tensor(np.array([1.5, -2.0], np.float32)), name="p")

    @ms.jit
    def f(x):
        p.add_(x)
        p.mul_(x)
        p.div_(2.0)
        return p * 1
    out = f(ms.Tensor(3.0, ms.float32))
    return [out, p.value()]


def case_copy_(ms):
    a = ms.Tensor(np.array([1.5, -2.0], np.float32))
    r = a.copy_(ms.Tensor([3.0, 4.0]))
    b = ms.Tensor(np.zeros((2, 2), np.float32))
    b.copy_(ms.Tensor([1, 2]))
    return [r, a, b]


def case_clamp_inplace_no_bounds(ms):
    return _x(ms).clamp_()


def case_t_mm_outer_inner(ms):
    x, xi = _x(ms), _xi(ms)
    v = ms.Tensor([1.0, 2.0, 3.0])
    return [x.t(), v.t(), x.mm(x.t()), xi.mm(xi.t()), v.outer(v), ms.Tensor([1, 2]).outer(ms.Tensor([3, 4])),
            x.inner(x), xi.inner(xi), v.inner(ms.Tensor(2.0))]


def case_take_negative_indices(ms):
    x = ms.Tensor(np.arange(4, dtype=np.float32))
    y = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    return [x.take(ms.Tensor([-1, 5])), x.take(ms.Tensor([-2, -9]), mode="clip"), x.take(ms.Tensor([-1, 6]), mode="wrap"),
            y.take(ms.Tensor([-1, 0]), axis=1), y.take(ms.Tensor([[-1], [7]]))]


def case_take_expand(ms):
    x, v = _x(ms), ms.Tensor([1.0, 2.0, 3.0])
    return [x.take(ms.Tensor([0, 5])), x.take(ms.Tensor([0, 2]), axis=1), x.take(ms.Tensor([7]), mode="wrap"),
            x.take(ms.Tensor([7]), mode="clip"), v.expand(ms.Tensor([2, 3])), v.expand((2, 3)), v.expand(2, -1)]


def case_axes_and_casts(ms):
    z = ms.Tensor(np.arange(6, dtype=np.float32).reshape(1, 2, 3))
    x, xi = _x(ms), _xi(ms)
    return [z.moveaxis(0, 2), z.movedim((0, 1), (2, 0)), z.swapdims(0, 2), x.ravel(),
            x.reshape_as(ms.Tensor(np.zeros((3, 2)))), x.type_as(xi), x.type(), xi.type(), x.type(ms.int32)]


def case_new_tensors(ms):
    xi, x = _xi(ms), _x(ms)
    return [xi.new_zeros((2,)), xi.new_zeros((2,), dtype=ms.float16), x.new_ones((2, 3)),
            xi.new_ones((1,), ms.float32), tuple(x.new_empty((2, 4)).shape), str(x.new_empty((3,)).dtype)]


def case_top_k_diagonal(ms):
    x, xi = _x(ms), _xi(ms)
    return [ms.Tensor([1.0, 3.0, 2.0]).top_k(2), xi.top_k(2), x.diagonal(), x.diagonal(1),
            ms.Tensor(np.arange(8.0).reshape(2, 2, 2)).diagonal(0, 0, 2), ms.Tensor([1.0, 2.0, 3.0]).diagflat(),
            x.diagflat(-1)]


def case_flips_rot90(ms):
    x = _x(ms)
    return [x.fliplr(), x.flipud(), x.rot90(2, (0, 1)), x.rot90(-1, [0, 1]), x.rot90(1, (1, 0))]


def case_fliplr_1d(ms):
    return ms.Tensor([1.0, 2.0]).fliplr()


def case_splits(ms):
    x = _x(ms)
    return [x.hsplit(3), x.hsplit([1]), x.vsplit(2), ms.Tensor(np.arange(4.0).reshape(1, 1, 4)).dsplit(2),
            ms.Tensor([1.0, 2.0, 3.0]).tensor_split(2), x.tensor_split([1], axis=1)]


def case_hsplit_1d(ms):
    return ms.Tensor([1.0, 2.0, 3.0]).hsplit(3)


def case_nansum_nanmean(ms):
    n = ms.Tensor(np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 2.0]], np.float32))
    return [n.nansum(), n.nansum(1, keepdims=True), _xi(ms).nansum(), n.nansum(dtype=ms.float64), n.nanmean(),
            n.nanmean(0), n.nanmean(1, keepdims=True)]


def case_nanmean_int(ms):
    return _xi(ms).nanmean()


def case_median_nanmedian(ms):
    n = ms.Tensor(np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 2.0]], np.float32))
    x, xi = _x(ms), _xi(ms)
    return [x.median(), x.median(0), xi.median(0, keepdims=True), ms.Tensor([1.0, 2.0, 3.0, 4.0]).median(),
            ms.Tensor([2.0, 1.0, 2.0, 1.0]).median(), n.nanmedian(), n.nanmedian(0)]


def case_logcumsumexp_grad(ms):
    x = _x(ms)
    g = ms.grad(lambda a: a.logcumsumexp(1).sum())(x)
    return [x.logcumsumexp(1), x.logcumsumexp(0), g]


def case_logcumsumexp_int(ms):
    return _xi(ms).logcumsumexp(1)


def case_xlogy_xdivy(ms):
    T = ms.Tensor
    a, b = T([0.0, 1.0, 2.0]), T([0.0, 2.0, 3.0])
    g = ms.grad(lambda u, w: u.xlogy(w).sum(), grad_position=(0, 1))(T([1.0, 2.0]), T([2.0, 3.0]))
    return [a.xlogy(b), a.xlogy(2), a.xdivy(b), T([1.0, -2.0]).xdivy(T([0.5, 4.0])), g]


def case_xdivy_int(ms):
    return ms.Tensor([0, 1, 2]).xdivy(ms.Tensor([0, 2, 3]))


def case_elementwise_helpers(ms):
    T = ms.Tensor
    x, xi, v = _x(ms), _xi(ms), T([1.0, 2.0, 3.0])
    return [x.copysign(-1.0), xi.copysign(T([-1.0, 1.0, -1.0])), v.ldexp(T([1, 2, 3])), T([1, 2]).ldexp(T([1, 2])),
            T([0.0, 0.5, 1.0, -1.5]).sinc(), T([0, 1]).sinc(), v.deg2rad(), v.rad2deg(),
            T(np.array([1.0, 2.0], np.float64)).nextafter(T(np.array([2.0, 0.0], np.float64)))]


def case_deg2rad_int(ms):
    return ms.Tensor([180]).deg2rad()


def case_sign_helpers(ms):
    T = ms.Tensor
    x, xi = _x(ms), _xi(ms)
    return [x.sgn(), xi.sgn(), T(np.array([3 + 4j, 0j], np.complex64)).sgn(), T([-0.0, 1.0, -2.0]).signbit(),
            xi.signbit(), x.positive(), T([True]).positive()]


def case_ptp_msort_searchsorted(ms):
    T = ms.Tensor
    x, xi, v = _x(ms), _xi(ms), T([1.0, 2.0, 3.0])
    return [x.ptp(), x.ptp(1, keepdims=True), xi.ptp(0), T([[3.0, 1.0], [2.0, 0.0]]).msort(), xi.msort(),
            v.searchsorted(T([2.0, 2.5])), v.searchsorted(T([2.0]), side="right"),
            T([[1, 3, 5], [2, 4, 6]]).searchsorted(T([[3], [3]]))]


def case_method_grads(ms):
    x = _x(ms)
    g1 = ms.grad(lambda a: (a.diagonal() * 2).sum() + a.rot90(1, (0, 1))[0].sum())(x)
    g2 = ms.grad(lambda a: a.median(1)[0].sum() + a.ptp() + a.inner(a).sum())(x)
    g3 = ms.grad(lambda a: a.take(ms.Tensor([0, 4, 4])).sum() + a.t().mm(a).sum())(x)
    return [g1, g2, g3]


def case_special_function_methods(ms):
    x, xi = _x(ms), _xi(ms)
    T = ms.Tensor
    return [x.hypot(T(2.0)), x.heaviside(T(0.5)), xi.lcm(T(6, ms.int32)), x.lgamma(), T([1.5, 3.0, 0.5, -2.5]).digamma(),
            T([0.25, 0.5]).logit(), T([0.0, 0.5]).logit(eps=0.1), T([np.nan, np.inf]).nan_to_num(1.0),
            T([1.0]).igamma(T([2.0])), T([1.0]).igammac(T([2.0])), x.i0()]


def case_scatter_methods(ms):
    idx = ms.Tensor(np.array([[0], [2]], np.int32))
    up = ms.Tensor(np.array([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], np.float32))
    m = ms.Tensor(np.full((3, 3), 1.0, np.float32))
    out = [getattr(m, n)(idx, up) for n in
           ("scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_max", "scatter_min")]
    return out + [m.scatter_add(ms.Tensor(np.array([[0], [2]])), up)]


def case_unsorted_segment_methods(ms):
    seg = ms.Tensor(np.array([0, 1, 0], np.int32))
    d = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 0.0]], np.float32))
    di = ms.Tensor(np.array([[1, 2], [3, 4], [5, 0]], np.int32))
    return [d.unsorted_segment_max(seg, 3), d.unsorted_segment_min(seg, 3), d.unsorted_segment_prod(seg, 3),
            di.unsorted_segment_max(seg, 3), di.unsorted_segment_min(seg, 3)]


def case_scatter_like_writes(ms):
    T = ms.Tensor
    m = T(np.full((3, 3), 1.0, np.float32))
    return [m.select_scatter(T([5.0, 6.0, 7.0]), 0, 1), m.select_scatter(T([5.0, 6.0, 7.0]), 1, 0),
            m.slice_scatter(T(np.full((3, 2), 5.0, np.float32)), axis=1, start=0, end=3, step=2),
            m.diagonal_scatter(T([5.0, 6.0]), 1), m.diagonal_scatter(T([5.0, 6.0]), -1),
            m.index_put((T([0, 1], ms.int32), T([1, 2], ms.int32)), T([5.0, 6.0])),
            m.index_put((T([0, 0], ms.int32), T([1, 1], ms.int32)), T([5.0, 6.0]), True)]


def case_slice_scatter_bad_shape(ms):
    m = ms.Tensor(np.full((3, 3), 1.0, np.float32))
    return m.slice_scatter(ms.Tensor(np.ones((3, 1), np.float32)), axis=1, start=0, end=3, step=2)


def case_aminmax_allclose_predicates(ms):
    T = ms.Tensor
    x, xi = _x(ms), _xi(ms)
    return [x.aminmax(), x.aminmax(axis=1, keepdims=True), xi.aminmax(axis=0), x.allclose(x + 1e-6),
            x.allclose(x + 1e-7), T([np.nan]).allclose(T([np.nan]), equal_nan=True), x.is_complex(),
            T(np.array([1j], np.complex64)).is_complex(), x.is_signed(), T(np.array([1], np.uint8)).is_signed(),
            T(np.array([1 + 0j, 1j], np.complex64)).isreal(), x.isreal()]


def case_linalg_stats_methods(ms):
    T = ms.Tensor
    a, x = T(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)), _x(ms)
    g = ms.grad(lambda u: u.logdet())(a)
    return [a.logdet(), T([[0.0, 1.0], [1.0, 0.0]]).logdet(), a.matrix_determinant(), g, x.cov(),
            x.cov(correction=0), x.cov(fweights=T([1, 2, 1])), x.cov(aweights=T([0.5, 1.0, 2.0])),
            x.renorm(2, 0, 2.0), x.renorm(1, 1, 1.0)]


def case_casts_and_layout(ms):
    x = _x(ms)
    return [x.short(), x.byte(), str(x.bfloat16().dtype), x.ndimension(), x.stride(), x.stride(1),
            x.is_contiguous(), x.contiguous()]


def case_bitwise_complex_matrix_methods(ms):
    T = ms.Tensor
    x = _xi(ms)
    c = T(np.array([1 + 1j, -1 + 0j], np.complex64))
    a = T(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32))
    return [x.invert(), x.bitwise_left_shift(T(1, ms.int32)), x.bitwise_right_shift(T(1, ms.int32)), c.conj(),
            c.angle(), a.slogdet(), a.matrix_power(2), a.matrix_power(0)]


def case_more_methods_on_ops(ms):
    T = ms.Tensor
    x = _x(ms)
    a = T(np.array([[4.0, 2.0], [2.0, 3.0]], np.float32))
    return [x.argwhere(), x.gather_nd(T(np.array([[0, 1], [1, 2]], np.int32))), x.soft_shrink(1.0),
            T([1, 1, 2, 2, 1]).unique_consecutive(True, True), a.cholesky(), a.cholesky(True),
            a.cholesky().cholesky_inverse(), T([[1.0], [2.0]]).cholesky_solve(a.cholesky()),
            a.log_matrix_determinant(), x.H, x.mH, x.adjoint()]


def case_more_tensor_helpers(ms):
    T = ms.Tensor
    x = _x(ms)
    a = T(np.array([[4.0, 2.0], [2.0, 3.0]], np.float32))
    g = ms.grad(lambda u: u.sum_to_size(1, 3).sum() * 2 + u.fmax(T(1.0)).sum())(x)
    return [T([1.0, np.nan, 3.0]).fmax(T([np.nan, 2.0, 1.0])),
            T(np.zeros((2, 2), np.float32)).addr(T([1.0, 2.0]), T([3.0, 4.0]), beta=1, alpha=2),
            x.sum_to_size(1, 3), x.sum_to_size((2, 1)), x.reverse([1]), T([2.5, 3.0]).mvlgamma(2), a.qr(),
            T(np.zeros((3, 3), np.float32)).fill_diagonal(5.0), g]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
