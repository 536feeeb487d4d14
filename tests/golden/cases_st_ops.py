"""Golden cases for ops MindSpore's own system tests (``tests/st/ops``) exercise and msjax
lacked or got wrong: recorded from MindSpore 2.10 with
``record_mindspore.py --suite st_ops --mode pynative --only NAME --merge``.

Every ``case_<name>(ms)`` uses only the module passed in.
"""
import numpy as np


def _f32(*shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def case_bincount_compiled(ms):
    """A data-dependent output length inside ms.jit and a GRAPH_MODE-style Cell (MindSpore: a
    dynamic-shape graph), with float32/int32/float64 weights and minlength."""
    T, ops = ms.Tensor, ms.ops
    x = T(np.array([2, 4, 1, 0, 0], np.int64))

    class Net(ms.nn.Cell):
        def construct(self, a, w=None, m=0):
            return ops.bincount(a, w, m)

    def plus_one(a):
        return ops.bincount(a) + 1

    def weighted(a, w):
        return ops.bincount(a, w, 2)

    out = [Net()(x, None, 7), ms.jit(plus_one)(x)]
    for w in (np.array([0., 0.25, 0.5, 0.75, 1.], np.float32), np.array([1, 2, 3, 4, 5], np.int32),
              np.array([1, 2, 3, 4, 5], np.float64)):
        out.append(Net()(x, T(w), 7))
    out.append(ms.jit(weighted)(T(np.array([3, 1], np.int32)), T(_f32(2))))
    return out


def case_matrix_vector_norm_ops_spelling(ms):
    """``ops.matrix_norm``/``ops.vector_norm`` take ``axis``/``keepdims``; ``mint.linalg``'s take
    ``dim``/``keepdim`` (tests/st/ops/test_func_matrix_norm.py, test_func_vector_norm.py)."""
    ops, T = ms.ops, ms.Tensor
    x = T(np.arange(12, dtype=np.float32).reshape(2, 2, 3) - 6)
    out = [ops.matrix_norm(x, ord=o, axis=(-2, -1), keepdims=True)
           for o in ("fro", "nuc", float("inf"), float("-inf"), 1, -1, 2, -2)]
    out.append(ops.matrix_norm(x, 1, [0, 2]))
    out += [ops.vector_norm(x, ord=o, axis=a, keepdims=k) for o, a, k in
            ((2, None, False), (0, 1, True), (float("inf"), (0, 2), False), (float("-inf"), -1, False),
             (3.5, (1,), False), (1, None, True))]
    return out


def case_matrix_norm_axis_list_of_three(ms):
    return ms.ops.matrix_norm(ms.Tensor(np.ones((2, 2, 2), np.float32)), axis=(0, 1, 2))


def case_matrix_norm_axis_int(ms):
    return ms.ops.matrix_norm(ms.Tensor(np.ones((2, 2), np.float32)), axis=1)


def case_matrix_norm_axis_duplicate(ms):
    return ms.ops.matrix_norm(ms.Tensor(np.ones((2, 2), np.float32)), axis=(1, -1))


def case_matrix_norm_bad_ord(ms):
    return ms.ops.matrix_norm(ms.Tensor(np.ones((2, 2), np.float32)), ord=3)


def case_vector_norm_axis_list(ms):
    return ms.ops.vector_norm(ms.Tensor(np.ones((2, 2), np.float32)), axis=[0, 1])


def case_vector_norm_axis_duplicate(ms):
    return ms.ops.vector_norm(ms.Tensor(np.ones((2, 2), np.float32)), axis=(0, -2))


def case_vector_norm_str_ord(ms):
    return ms.ops.vector_norm(ms.Tensor(np.ones((2, 2), np.float32)), ord="fro")


def case_logspace(ms):
    """LogSpace's CPU kernel: double-precision points and pow, rounded once (float32/float16 outputs;
    float64 outputs differ in MindSpore 2.10, see the docstring of msjax's logspace)."""
    ops, T = ms.ops, ms.Tensor
    out = [ops.logspace(T(1, ms.float32), T(10, ms.float32), 10),
           ops.logspace(T(-2.3, ms.float32), T(7.7, ms.float32), 7, base=7),
           ops.logspace(T(0.1, ms.float16), T(1.3, ms.float16), 5, base=3, dtype=ms.float32),
           ops.logspace(0.5, 2.0, 4), ops.logspace(T(0.1, ms.float32), T(1.3, ms.float32), 1),
           ops.logspace(T(0.1, ms.float32), T(1.3, ms.float32), 0)]
    for dt in (ms.float16, ms.float32):
        out.append(ops.logspace(T(0.1, ms.float64), T(1.3, ms.float64), 5, base=3, dtype=dt))
    return out


def case_logspace_negative_steps(ms):
    return ms.ops.logspace(ms.Tensor(0.1, ms.float32), ms.Tensor(1.3, ms.float32), -1)


def case_logspace_float_base(ms):
    return ms.ops.logspace(ms.Tensor(0.1, ms.float32), ms.Tensor(1.3, ms.float32), 3, base=2.5)


def case_logspace_int_dtype(ms):
    return ms.ops.logspace(ms.Tensor(0.1, ms.float32), ms.Tensor(1.3, ms.float32), 3, dtype=ms.int32)


def case_cosine_similarity(ms):
    """Values (broadcast, eps clamp, float16) and the gradient of the sum."""
    ops, T = ms.ops, ms.Tensor
    a, b = T(_f32(2, 3, 4)), T(_f32(2, 3, 4, seed=1))
    out = [ops.cosine_similarity(a, b), ops.cosine_similarity(a, b, dim=2),
           ops.cosine_similarity(T(np.zeros((2, 3), np.float32)), T(np.ones((1, 3), np.float32))),
           ops.cosine_similarity(T(_f32(2, 3), ms.float16), T(_f32(2, 3, seed=2), ms.float16), 0, 0.5)]
    out.append(ms.grad(lambda x, y: ops.cosine_similarity(x, y, -1).sum(), (0, 1))(a, b))
    return out


def case_is_nonzero(ms):
    ops, T = ms.ops, ms.Tensor

    class Net(ms.nn.Cell):
        def construct(self, x):
            return ops.is_nonzero(x)

    return [ops.is_nonzero(T([[[False]]])), ops.is_nonzero(T([[3.5]])), ops.is_nonzero(T(np.float32("nan"))),
            ops.is_nonzero(T([0], ms.int32)), Net()(T([[2.0]]))]


def case_is_nonzero_two_elements(ms):
    return ms.ops.is_nonzero(ms.Tensor([1, 2]))


def case_is_nonzero_not_tensor(ms):
    return ms.ops.is_nonzero(3)


def case_eps(ms):
    """``ops.Eps()``: machine epsilon of each float type, zero gradient."""
    eps, T = ms.ops.operations.Eps(), ms.Tensor
    x = np.array([[1.0, -3.0, 0.5]])
    return [eps(T(x, dt)) for dt in (ms.float16, ms.float32, ms.float64)] + \
        [ms.grad(lambda a: (eps(a) * a).sum())(T(x, ms.float32))]


def case_eps_int(ms):
    return ms.ops.operations.Eps()(ms.Tensor([1, 2], ms.int32))


def case_eigvals(ms):
    """Complex64/Complex128 eigenvalues (not recorded: a 3x3 triangular matrix, whose eigenvalues
    MindSpore's Eigen kernel orders otherwise than LAPACK; see msjax's ops.eigvals docstring)."""
    ops, T = ms.ops, ms.Tensor
    return [ops.eigvals(T(np.array([[1.0, 0.0], [0.0, 2.0]]), ms.float32)),
            ops.eigvals(T(np.array([[[2.0, 1.0], [1.0, 3.0]]] * 2), ms.float32)),
            ops.eigvals(T(np.array([[0.0, -1.0], [1.0, 0.0]]), ms.float64))]


def case_eigvals_not_square(ms):
    return ms.ops.eigvals(ms.Tensor(np.array([[1.0, 2.0, 3.0]]), ms.float32))


def case_eigvals_int(ms):
    return ms.ops.eigvals(ms.Tensor(np.array([[1, 2], [3, 4]]), ms.int32))


def case_lu_solve(ms):
    """Batched, broadcast ``b``, float16/float64 (MindSpore computes in float32)."""
    ops, T = ms.ops, ms.Tensor
    rs = np.random.RandomState(0)
    lu, b = T(rs.randn(2, 3, 3).astype(np.float32)), rs.randn(2, 3, 2).astype(np.float32)
    piv = T(np.array([[2, 3, 3], [1, 3, 3]], np.int32))
    out = [ops.lu_solve(T(b), lu, piv), ops.lu_solve(T(b[0]), lu, piv)]
    for dt in (ms.float16, ms.float64):
        out.append(ops.lu_solve(T(b, dt), lu.astype(dt), piv))
    return out


def case_lu_solve_int64_pivots(ms):
    return ms.ops.lu_solve(ms.Tensor(np.ones((3, 1), np.float32)), ms.Tensor(np.eye(3, dtype=np.float32)),
                           ms.Tensor(np.array([1, 2, 3], np.int64)))


def case_lu_solve_not_square(ms):
    return ms.ops.lu_solve(ms.Tensor(np.ones((3, 1), np.float32)), ms.Tensor(np.ones((3, 2), np.float32)),
                           ms.Tensor(np.array([1, 2, 3], np.int32)))


def case_topk_tensor_k(ms):
    """``ops.topk`` with a (mutable) Tensor ``k``, 0-d or one element, in PyNative, a Cell and ms.jit."""
    T, ops = ms.Tensor, ms.ops
    x = T(_f32(3, 4, seed=5))

    class Net(ms.nn.Cell):
        def construct(self, a, k):
            return ops.topk(a, k, dim=1, largest=False)
    def top(a, k):
        return ops.topk(a, k)
    out = []
    for k in (T(2, ms.int32), T([3], ms.int32), ms.mutable(T(2, ms.int32))):
        out += [ops.topk(x, k, dim=1), Net()(x, k), ms.jit(top)(x, k)]
    return out


def case_aminmax_axis_none_and_scalar(ms):
    """``aminmax`` with ``axis=None`` (every element; ``keepdims`` keeps each dimension as 1) and on a
    0-D Tensor (tests/st/tensor/test_aminmax.py), as a method, the function and in a Cell."""
    T = ms.Tensor
    x = T(_f32(2, 3, seed=9))
    s = T(np.array(32.0, np.float32))

    class Net(ms.nn.Cell):
        def construct(self, a, k):
            return a.aminmax(axis=None, keepdims=k)
    return [x.aminmax(axis=None), x.aminmax(axis=None, keepdims=True), ms.ops.aminmax(x, axis=None),
            Net()(x, True), s.aminmax(axis=0, keepdims=True), s.aminmax(axis=-1), s.aminmax(axis=None)]


def _raised(f):
    """``f()``, or the name of the exception it raises (errors inside a loop)."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the type is the result
        return type(e).__name__


_BESSEL_X = np.array([-1, 0, 1e-3, 0.5, 1, 2, 2.5, 5, 8, 10, 50, 100, 700, np.inf, np.nan])


def case_bessel_second_kind(ms):
    """``bessel_k0/k1/k0e/k1e/y0/y1`` on Float16/Float32/Float64 (the domain's edges: negative, 0, inf,
    NaN; tests/st/ops/test_bessel.py), their Primitives, and the gradients."""
    ops, T = ms.ops, ms.Tensor
    out = []
    for name in ("k0", "k1", "k0e", "k1e", "y0", "y1"):
        fn = getattr(ops, "bessel_" + name)
        out += [fn(T(_BESSEL_X.astype(d))) for d in (np.float16, np.float32, np.float64)]
        prim = getattr(ops, "Bessel" + name[0].upper() + name[1:])()
        out.append(prim(T(np.array([0.25, 3.0], np.float32))))
        out.append(ms.grad(fn)(T(np.array([0.5, 1.0, 3.0, 7.5], np.float32))))
    return out


def case_bessel_k0_int(ms):
    return ms.ops.bessel_k0(ms.Tensor(np.array([1, 2], np.int32)))


def case_bessel_y1_not_tensor(ms):
    return ms.ops.bessel_y1(1.0)


def case_i0_and_zeta(ms):
    """``ops.i0`` (``bessel_i0``) and the Hurwitz ``ops.zeta``: Float32/Float64, a Python number on either
    side, broadcasting by element count, x <= 1, negative q, the Primitive and the gradients
    (tests/st/ops/test_i0.py, test_func_zeta.py)."""
    ops, T = ms.ops, ms.Tensor
    x = T(np.array([2., 4., 1., 0.5, -1, 3]), ms.float32)
    q = T(np.array([1, 2, 0.5, 2, 2, -1.5]), ms.float32)
    return [ops.i0(T(np.array([0., 1., -2.5, 4.]), ms.float32)), ops.zeta(x, 1), ops.zeta(x, q),
            ops.zeta(T(np.array([2., 4.]), ms.float64), T(np.array([1., 2.]), ms.float64)),
            ops.zeta(2., T(np.array([1., 2.]), ms.float32)), ops.zeta(T(np.array([[3.]]), ms.float32), q),
            ops.Zeta()(T(np.array([2., 4.]), ms.float32), T(np.array([1., 2.]), ms.float32)),
            ms.grad(ops.zeta, (0, 1))(T(np.array([2., 4.]), ms.float32), T(np.array([1., 2.]), ms.float32))]


def case_zeta_errors(ms):
    ops, T = ms.ops, ms.Tensor
    f = T(np.array([2., 4.]), ms.float32)
    return [_raised(lambda: ops.zeta(2, 3)), _raised(lambda: ops.zeta(T(np.array([2, 4]), ms.int32), 1)),
            _raised(lambda: ops.zeta(T(np.array([2., 4.]), ms.float16), 1)),
            _raised(lambda: ops.zeta(f, T(np.array([1.]), ms.float64)))]


def case_cauchy_shapes_and_checks(ms):
    """``ops.Cauchy(size, median, sigma)()`` and ``Tensor.cauchy``: shapes, dtypes and argument checks
    (the numbers are random in MindSpore: not compared; tests/st/ops/test_cauchy.py,
    tests/st/tensor/test_cauchy.py)."""
    ops, T = ms.ops, ms.Tensor
    out = []
    for make in (lambda: ops.Cauchy([2, 3])(), lambda: ops.Cauchy([4], 1.0, 2.0)(),
                 lambda: ops.Cauchy([2, 3], sigma=0.0)(), lambda: T(np.zeros((6, 3)), ms.float32).cauchy(),
                 lambda: T(np.zeros((2,)), ms.float16).cauchy(1.0, 2.0), lambda: T(np.zeros((2,)), ms.int32).cauchy()):
        r = _raised(make)
        out.append(r if isinstance(r, str) else (str(r.dtype), r.shape))
    out.append(ops.Cauchy([3], 1.5, 0.0)())
    for bad in (lambda: ops.Cauchy((2, 3)), lambda: ops.Cauchy([2, 0]), lambda: ops.Cauchy(3),
                lambda: ops.Cauchy([2], median=1), lambda: ops.Cauchy([])(), lambda: T(np.zeros((2,))).cauchy(0)):
        out.append(_raised(bad))
    return out


def case_vecdot(ms):
    """``ops.vecdot``: integer and Bool inputs give Int64 (the product wraps in Int8 first), Float16,
    complex (conjugated x), broadcasting over ``axis``, the gradients and the argument checks
    (tests/st/ops/test_func_vetdot.py)."""
    ops, T = ms.ops, ms.Tensor
    x = T(np.array([[1, 3], [5, 7], [9, 8]]), ms.int32)
    y = T(np.array([[4, 5], [6, 7], [3, 2]]), ms.int32)
    a = T(np.array([[1., 2.], [3., 4.]]), ms.float32)
    return [ops.vecdot(x, y), ops.vecdot(x, y, axis=0),
            ops.vecdot(T(np.array([[1, 3], [5, 7]]), ms.int8), T(np.array([[100, 100], [6, 7]]), ms.int8)),
            ops.vecdot(x.astype(ms.float16), y), ops.vecdot(T([True, False]), T([True, True])),
            ops.vecdot(T(np.ones((3, 1, 2)), ms.float32), T(_f32(4, 2)), axis=-3),
            ops.vecdot(T(np.array([1 + 2j, 3 - 1j]), ms.complex64), T(np.array([2 - 1j, 1 + 1j]), ms.complex64)),
            ms.grad(ops.vecdot, (0, 1))(a, a + 4),
            _raised(lambda: ops.vecdot(x, y, axis=2)), _raised(lambda: ops.vecdot(x, y, axis=1.0)),
            _raised(lambda: ops.vecdot(x, [1, 2]))]


def case_is_floating_point(ms):
    T = ms.Tensor
    return [ms.ops.is_floating_point(T([1], d)) for d in
            (ms.float16, ms.float32, ms.float64, ms.bfloat16, ms.int64, ms.bool_, ms.complex64)]


def case_repeat_elements_checks(ms):
    """``ops.repeat_elements``: rank 7 works, rank 8 and Bool are refused; ``rep`` and ``axis`` checks
    (tests/st/ops/test_func_repeat_elements.py)."""
    ops, T = ms.ops, ms.Tensor
    x = T(np.arange(6).reshape(2, 3), ms.int32)
    return [ops.repeat_elements(x, 2, -1), ops.repeat_elements(x, 3, -2),
            ops.repeat_elements(T(np.ones((1, 2, 1, 1, 1, 1, 1)), ms.float32), 2, 1)] + [
        _raised(f) for f in (lambda: ops.repeat_elements(T(np.ones((1, 2, 1, 1, 1, 1, 1, 1)), ms.float32), 1, 0),
                             lambda: ops.repeat_elements(T([True, False]), 2, 0),
                             lambda: ops.repeat_elements(x, 0, 0), lambda: ops.repeat_elements(x, 2.0, 0),
                             lambda: ops.repeat_elements(x, 2, 2), lambda: ops.repeat_elements(x, 2, -3),
                             lambda: ops.repeat_elements(x, 2, 1.0), lambda: ops.repeat_elements(T(3.0), 2, 0))]


def case_select_slice_scatter(ms):
    """``select_scatter``/``slice_scatter`` as MindSpore computes the positions (``range(start, end, step)``,
    negative start/end counted once, end clipped), an index out of range, an empty slice, and the checks:
    non-Tensor operands, another dtype, shapes (tests/st/ops/test_func_select_scatter.py,
    test_func_slice_scatter.py)."""
    ops, T = ms.ops, ms.Tensor
    x = T(np.arange(18).reshape(2, 3, 3), ms.float32)
    o21, o23, o13 = (T(np.ones(s), ms.float32) for s in ((2, 1, 3), (2, 2, 3), (1, 3)))
    calls = [lambda: ops.select_scatter(x, T(np.ones((2, 3)), ms.float32), 2, 0),
             lambda: ops.select_scatter(x, T(np.ones((2, 3)), ms.float32), 1, -1),
             lambda: ops.select_scatter(x, o13, 2, 0),
             lambda: ops.select_scatter(x, T(np.ones((2, 3)), ms.int32), 2, 0),
             lambda: ops.select_scatter(x, T(np.ones((2, 3)), ms.float32), 2, 3),
             lambda: ops.select_scatter(x, T(np.ones((2, 3)), ms.float32), 2, -4),
             lambda: ops.select_scatter(x, T(np.ones((2, 3)), ms.float32), 3, 0),
             lambda: ops.select_scatter(1., 2, 2, 0), lambda: ops.select_scatter(x, 2, 2, 0),
             lambda: ops.slice_scatter(x, o13, 1, 1, 1, 1), lambda: ops.slice_scatter(1., 2, 1, 1, 1, 1),
             lambda: ops.slice_scatter(x, 2, 1, 1, 1, 1), lambda: ops.slice_scatter(x, o21, 1, 1, 2, 1),
             lambda: ops.slice_scatter(x, o23, 1, 1, 2, 1),
             lambda: ops.slice_scatter(x, T(np.ones((2, 2, 3)), ms.int32), 1, 1, 3, 1),
             lambda: ops.slice_scatter(x, T(np.ones((2, 0, 3)), ms.float32), 1, 1, 1, 1),
             lambda: ops.slice_scatter(x, T(np.ones((2, 3, 3)), ms.float32)),
             lambda: ops.slice_scatter(x, o23, 1, 0, None, 2), lambda: ops.slice_scatter(x, o23, 1, 0, 10, 2),
             lambda: ops.slice_scatter(x, o21, 1, -10, 1, 1), lambda: ops.slice_scatter(x, o21, 1, 1, 2, 0),
             lambda: ops.slice_scatter(x, o21, 1, -3, -2, 1),
             lambda: ops.slice_scatter(T(np.zeros((4, 6)), ms.int32), T(np.ones((4, 3)), ms.int32), 1, -6, 5, 2)]
    return [_raised(f) for f in calls]


def case_slogdet_complex(ms):
    """``ops.slogdet`` of a complex matrix: both outputs complex (tests/st/ops/test_func_slogdet.py)."""
    x = ms.Tensor([[-1.5 + 7.8j, 3 + 5.75j, 2 + 2.4j], [-6.4 + 485.4j, 45 + 3.14j, 45 + 453j],
                   [-3.5 + 5.8j, 63 + 12.75j, -5 + 6.4j]], dtype=ms.complex64)
    return [ms.ops.slogdet(x), ms.ops.slogdet(ms.Tensor(_f32(2, 3, 3)))]


def case_scatter_integer_divide(ms):
    """``ScatterNdDiv``/``ScatterDiv``/``tensor_scatter_div`` on integer dtypes keep the dtype and
    truncate toward zero, one update after another on repeated indices; ``ScatterNdDiv`` by zero gives
    the dtype's max/min (0 for 0) (tests/st/ops/cpu/test_scatter_nd_arithmetic_op.py)."""
    ops, T, P = ms.ops, ms.Tensor, ms.Parameter
    rows = T(np.arange(6).reshape(6, 1), ms.int32)
    out = []
    for d in (ms.int8, ms.int16, ms.int32, ms.int64, ms.uint8):
        signed = d != ms.uint8
        x = T(np.array([5, -5, 0, 7, -7, 100]) if signed else np.array([5, 250, 0, 7, 9, 100]), d)
        u = T(np.array([0, 0, 0, -2, 2, 3]) if signed else np.array([0, 0, 0, 2, 2, 3]), d)
        out.append(ops.ScatterNdDiv()(P(x, name="p"), rows, u))
        out.append(ops.ScatterNdDiv()(P(x, name="r"), T(np.array([[1], [1], [5]]), ms.int32), T(np.array([2, 2, 7]), d)))
    for d in (ms.int16, ms.int32, ms.int64, ms.uint16):
        x = T(np.array([5, 9, 7, 8, 100, 101]), d)
        u = T(np.array([2, 2, 3, 2, 3, 7]), d)
        out += [ops.tensor_scatter_div(x, rows, u),
                ops.ScatterDiv()(P(x, name="q"), T(np.arange(6), ms.int32), u)]
    out.append(ops.tensor_scatter_div(T(np.array([-7, 7, -9]), ms.int32), T(np.array([[0], [1], [2]]), ms.int32),
                                      T(np.array([2, -2, 4]), ms.int32)))
    return out


def case_parameterized_truncated_normal_float64_far_bounds(ms):
    """``ParameterizedTruncatedNormal`` in Float64 with a bound 40 standard deviations away: the
    kernel's ``exp`` overflows to inf (msjax raised Python's OverflowError;
    tests/st/ops/cpu/test_parameterized_truncated_normal_op.py); two calls of one instance."""
    T = ms.Tensor
    op = ms.ops.ParameterizedTruncatedNormal(seed=10, seed2=20)
    args = [T(np.array(v), ms.float64) for v in ([6, 8], [0.1, 0.2], [2, 5], [10, 15])]
    shape = T(np.array([2, 4]), ms.int32)
    return [op(shape, *args), op(shape, *args)]


def case_parameterized_truncated_normal_graph_runs(ms):
    """An ``ms.jit`` function and a Cell calling a ``ParameterizedTruncatedNormal`` instance with the shape
    as a Tensor input (msjax runs them uncompiled): the instance's graph kernel goes on from run to run,
    apart from its PyNative kernel; a new instance starts again
    (tests/st/ops/cpu/test_parameterized_truncated_normal_op.py)."""
    T = ms.Tensor
    args = [T(np.array(v), ms.float32) for v in ([6, 8], [0.1, 0.2], [2, 5], [10, 15])]
    shape = T(np.array([2, 4]), ms.int32)
    op = ms.ops.ParameterizedTruncatedNormal(seed=10, seed2=20)

    def draw(s, a, b, c, d):
        return op(s, a, b, c, d)
    run = ms.jit(draw)
    out = [run(shape, *args) for _ in range(3)] + [op(shape, *args)]

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.ops.ParameterizedTruncatedNormal(seed=3, seed2=4)

        def construct(self, s, a, b, c, d):
            return self.p(s, a, b, c, d)
    net = ms.jit(Net())
    return out + [net(shape, *args), net(shape, *args)]


def case_no_repeat_ngram(ms):
    """``ops.NoRepeatNGram(ngram_size)`` (tests/st/ops/cpu/test_no_repeat_ngram.py): n of 1, 2, 3, the
    dtypes' lowest values (Float16/32/64), an out-of-vocabulary word before the prefix, and the checks
    (MindSpore raises the kernel's errors asynchronously, at a later call: a banned word out of the
    vocabulary, an ngram_size equal to the sequence's length; not recorded)."""
    T, P = ms.Tensor, ms.ops.NoRepeatNGram
    s = T(np.array([[[1, 2, 1, 2, 5, 1, 2], [9, 3, 9, 5, 4, 1, 5]], [[4, 8, 6, 4, 5, 6, 4], [4, 8, 8, 4, 3, 4, 8]]]),
          ms.int32)
    lp = T(_f32(2, 2, 10, seed=3))
    out = [P(n)(s, lp) for n in (1, 2, 3)] + [P(2)(s, lp.astype(d)) for d in (ms.float16, ms.float64)]
    out.append(P(2)(T(np.array([[[1, 12, 1, 12]]]), ms.int32), T(np.ones((1, 1, 10)), ms.float32)))
    short = T(np.array([[[1, 2, 1, 2, 5, 1, 2]]]), ms.int32)
    out += [_raised(f) for f in (lambda: P(8)(s, lp), lambda: P(0), lambda: P(2.0),
                                 lambda: P(2)(s.astype(ms.int64), lp), lambda: P(2)(s, lp.astype(ms.int32)),
                                 lambda: P(2)(s[0], lp[0]), lambda: P(2)(short, T(np.ones((2, 1, 4)), ms.float32)),
                                 lambda: P(2)(short, T(np.ones((1, 2, 4)), ms.float32)))]
    return out


def case_truncate_div_mod(ms):
    """``ops.truncate_div``/``truncate_mod`` and their Primitives: promotion (Int32 with Float32, Bool, a
    Python int), Int8/UInt8, zero divisors, broadcasting, and the dtypes refused
    (tests/st/ops/cpu/test_truncate_div_op.py, test_truncate_mod_op.py)."""
    ops, T = ms.ops, ms.Tensor
    out = []
    for fn in (ops.truncate_div, ops.truncate_mod, ops.TruncateDiv(), ops.TruncateMod()):
        calls = (lambda: fn(T(np.array([1, 4, -7, 7]), ms.int32), T(np.array([3, 3, 5, -2]), ms.float32)),
                 lambda: fn(T(np.array([1, 4, -7, 7]), ms.int32), T(np.array([3, 3, 5, -2]), ms.int32)),
                 lambda: fn(T(np.array([1.5, 4, -7.5, 7]), ms.float32), T(np.array([3, 3, 5, -2]), ms.float32)),
                 lambda: fn(T(np.array([1, 4, -3]), ms.int32), T(np.array([True]), ms.bool_)),
                 lambda: fn(T(np.array([1, 4, -3]), ms.int8), T(np.array([2]), ms.int8)),
                 lambda: fn(T(np.array([1, -4, 0]), ms.int32), T(np.array([0, 0, 0]), ms.int32)),
                 lambda: fn(T(np.array([1., -4, 0]), ms.float32), T(np.array([0., 0, 0]), ms.float32)),
                 lambda: fn(T(np.array([1., -4, 0]), ms.float16), 2.0),
                 lambda: fn(7, T(np.array([2, -3]), ms.int64)),
                 lambda: fn(T(np.array([True, False])), T(np.array([True, True]))),
                 lambda: fn(T(np.array([7, 8]), ms.uint8), T(np.array([2, 3]), ms.uint8)),
                 lambda: fn(T(np.array([7.5, -8]), ms.float64), T(np.array([[2], [3]]), ms.float64)),
                 lambda: fn(T(np.array([1 + 1j]), ms.complex64), T(np.array([1 + 1j]), ms.complex64)))
        out += [_raised(f) for f in calls]
    return out


def case_binary_cross_entropy_float16_none(ms):
    """Float16 ``BinaryCrossEntropy`` with ``reduction='none'``: every step rounded to float16, as
    MindSpore's kernel (the mean/sum kernels round once), with and without weight, PyNative and ms.jit
    (tests/st/ops/cpu/test_binary_cross_entropy_op.py)."""
    T, ops = ms.Tensor, ms.ops
    rs = np.random.RandomState(7)
    x, y, w = (T(rs.rand(512).astype(np.float16)) for _ in range(3))
    bce = ops.BinaryCrossEntropy("none")

    def f(a, b, c):
        return bce(a, b, c)
    return [bce(x, y, w), bce(x, y), ms.jit(f)(x, y, w), ops.binary_cross_entropy(x, y, w, reduction="none")]


def case_tensor_scatter_index_checks(ms):
    """``tensor_scatter_*`` and their Primitives: ``indices``' last dimension above the rank (ValueError),
    a position out of range or negative (MindSpore's kernels' RuntimeError, raised when the result is read;
    JAX dropped or wrapped it) (tests/st/ops/cpu/test_tensor_scatter_arithmetic.py)."""
    ops, T = ms.ops, ms.Tensor
    x = T(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), ms.float32)
    one = T(np.array([1.0]), ms.float32)
    out = []
    for fn in (ops.tensor_scatter_add, ops.tensor_scatter_sub, ops.tensor_scatter_mul, ops.tensor_scatter_div,
               ops.tensor_scatter_max, ops.tensor_scatter_min, ops.tensor_scatter_update, ops.TensorScatterAdd()):
        out += [_raised(lambda: fn(x, T(np.array([[0, 1, 2]]), ms.int32), one).asnumpy()),
                _raised(lambda: fn(x, T(np.array([[10, 10]]), ms.int32), one).asnumpy()),
                _raised(lambda: fn(x, T(np.array([[1, -1]]), ms.int32), one).asnumpy()),
                fn(x, T(np.array([[1, 2]]), ms.int32), one)]
    return out


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
