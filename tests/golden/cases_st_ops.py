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
    """``f()``, or the name and message of the exception it raises (errors inside a loop)."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the type is the result
        return [type(e).__name__, str(e).split("\n")[0]]


def case_view_layout_permutes(ms):
    """PyNative view ops that permute axes (tests/st/tensor/test_contiguous.py): ``is_contiguous``,
    ``stride``, ``storage_offset`` of the view and of ``contiguous()``, and ``Assign``'s refusal."""
    ops, mint = ms.ops, ms.mint
    x = ms.Tensor(_f32(2, 3, 4, seed=3))
    views = [ops.transpose(x, (1, 0, 2)), ops.transpose(x, (0, 1, 2)), x.transpose(2, 1, 0), x.transpose(),
             x.transpose(0, 2), x.permute(2, 0, 1), ops.permute(x, (1, 2, 0)), x.T, x.mT, x.swapaxes(0, 1),
             ops.swapdims(x, -1, 0), mint.transpose(x, 0, 1), ops.moveaxis(x, 0, 2), ops.movedim(x, -1, 0),
             ops.t(x[0]), x[0].t(), ops.transpose(ops.transpose(x, (1, 0, 2)), (1, 0, 2)),
             ops.transpose(x, (1, 0, 2)).T, ms.Tensor(np.ones((1, 3), np.float32)).T]
    out = []
    for v in views:
        c = v.contiguous()
        out.append([v, v.is_contiguous(), v.stride(), v.storage_offset(), c.is_contiguous(), c.stride(),
                    (v + 1).is_contiguous()])
    out.append(_raised(lambda: ops.assign(x.T, ops.zeros_like(x.T))))
    out.append(_raised(lambda: ops.assign_add(ops.transpose(x, (0, 1, 2)), ops.ones_like(x))))

    def compiled(a):
        return ops.transpose(a, (1, 0, 2)).is_contiguous()
    out.append(ms.jit(compiled)(x))
    return out


def case_pijit_capture_context(ms):
    """``mindspore.common._pijit_context.PIJitCaptureContext`` compiles a function, a method and a
    Cell's ``construct`` (tests/st/pi_jit/share/utils.py, imported by tests/st/tensor/test_getitem.py);
    ``_c_expression.get_code_extra`` of a function PIJit never ran is None."""
    import importlib
    ctx = importlib.import_module(ms.__name__ + ".common._pijit_context")
    extra = importlib.import_module(ms.__name__ + "._c_expression").get_code_extra
    x = ms.Tensor(_f32(2, 3, seed=4))

    def f(a, b):
        return a * b + 1

    class Net(ms.nn.Cell):
        def construct(self, a):
            return a[1, ::2] - 2
    net = Net()
    return [ctx.PIJitCaptureContext()(f)(x, 3.0), ctx.PIJitCaptureContext(fullgraph=True)(f)(x, x),
            ctx.PIJitCaptureContext(jit_config={"jit_level": "O0"})(net)(x), extra(_f32), extra(_f32.__code__),
            _raised(lambda: ctx.PIJitCaptureContext(jit_config={"_disable_pijit": 1}))]


def case_linalg_tensor_methods(ms):
    """``Tensor.geqrf``, ``orgqr``, ``lu_solve``, ``lstsq`` (tests/st/tensor/test_geqrf.py, test_orgqr.py,
    test_lu_solve.py): the functions' results, float32 and float64, in a Cell too. (MindSpore 2.10's
    ``Tensor.eigvals()`` raises TypeError: tests/test_tensor_linalg_methods.py.)"""
    T = ms.Tensor
    a64 = np.array([[15.5862, 10.6579], [0.1885, -10.0553], [4.4496, 0.7312]], np.float64)
    a32 = _f32(2, 3, 2, seed=5)
    lu = T(np.array([[1.6253573, 1.4034185, -0.9425243], [0.19567108, 1.6314834, -0.96950316],
                     [0.26517096, 0.45115343, -0.5865267]], np.float32))
    piv = T(np.array([2, 3, 3], np.int32))
    b = T(_f32(3, 2, seed=7))

    class Net(ms.nn.Cell):
        def construct(self, x):
            return x.geqrf()
    y64, tau64 = T(a64).geqrf()
    y32, tau32 = T(a32).geqrf()
    return [T(a64).geqrf(), T(a32).geqrf(), Net()(T(a64)), y64.orgqr(tau64), y32.orgqr(tau32),
            b.lu_solve(lu, piv),
            T(_f32(4, 2, seed=8)).lstsq(T(_f32(4, 3, seed=9)))]


def case_tensor_python_int_range(ms):
    """A Python int becomes Int64 (UInt64 from 2**63) and is then cast, wrapping, to the dtype asked for;
    one beyond 64 bits raises MindSpore's RuntimeError, in a list its TypeError
    (tests/st/tensor/test_errorType.py)."""
    T, m = ms.Tensor, ms
    values = [(2**64, m.int64), (2**63, m.int64), (2**64 - 1, m.int64), (2**63, None), (2**64, None),
              (-2**63 - 1, m.int64), (-2**63, None), (300, m.int8), (2**40, m.int32), ([1, 2**64], m.int64),
              ([1, 2**64], None), (2**64, m.float32), (2**64, m.uint64), (-1, m.uint8), ((2**70,), m.int64),
              (2**1100, m.float64), (2**60 + 1, m.float32), (7, m.float64), (True, m.int32), (-5, m.bool_)]
    return [_raised(lambda v=v, d=d: T(v, d)) for v, d in values]


def case_log_normal_reverse(ms):
    """``Tensor.log_normal(mean=1.0, std=2.0)`` / ``LogNormalReverse`` (tests/st/tensor/test_log_normal.py):
    shape, dtype, the law of the numbers (MindSpore's kernel is not seeded: 20,000 draws' log mean and
    std to one decimal), the type errors. One mean/std per process: MindSpore 2.10 keeps the first."""
    T, P = ms.Tensor, ms.ops.operations
    big = T(np.zeros((20000,), np.float32)).log_normal(0.5, 0.3).asnumpy()
    logs = np.log(big.astype(np.float64))
    out = [round(float(logs.mean()), 1), round(float(logs.std()), 1), bool((big > 0).all())]
    for dt in (ms.float16, ms.float32, ms.float64):
        y = T(np.zeros((2, 3)), dt).log_normal(0.5, 0.3)
        out.append([y.shape, str(y.dtype)])
    y = P.LogNormalReverse(0.5, 0.3)(T(np.zeros((4,)), ms.float32))
    out.append([y.shape, str(y.dtype)])
    out += [_raised(lambda: T(np.zeros((2,)), ms.float32).log_normal(1, 2.0)),
            _raised(lambda: T(np.zeros((2,)), ms.float32).log_normal(0.5, "a")),
            _raised(lambda: P.LogNormalReverse(1, 2.0)),
            _raised(lambda: T(np.zeros((2,)), ms.int32).log_normal(0.5, 0.3)),
            _raised(lambda: T(np.zeros((2,)), ms.bool_).log_normal(0.5, 0.3))]
    return out


def case_swapaxes_swapdims_checks(ms):
    """``swapaxes``/``swapdims`` (function and method): MindSpore's TypeError for a non-int axis (a bool is
    an int), its ValueError for one out of range (tests/st/tensor/test_swapdims.py)."""
    ops = ms.ops
    x = ms.Tensor(_f32(2, 3, seed=10))
    out = []
    for a in [(0, (1,)), (0, 3), (-3, 0), (0, 1.0), (True, 0), (0, -1), (1, 1)]:
        for f in (lambda a: x.swapdims(*a), lambda a: ops.swapdims(x, *a), lambda a: x.swapaxes(*a),
                  lambda a: ops.swapaxes(x, *a)):
            out.append(_raised(lambda f=f, a=a: f(a)))
    return out


def case_tensor_var_std_ddof_types(ms):
    """``Tensor.var``/``std`` overloads by the type of ``ddof``/``correction``: ``var`` takes a bool ``ddof``
    (tests/st/tensor/test_var.py), ``std`` and ``correction`` do not, a float is refused by the dispatcher
    and a NumPy integer by the deprecated formula."""
    x = ms.Tensor(np.arange(12).reshape(3, 4).astype(np.float32))
    calls = [dict(axis=0, ddof=True, keepdims=True), dict(ddof=True), dict(axis=0, ddof=False), dict(ddof=1.5),
             dict(axis=0, ddof=np.int64(1)), dict(dim=0, correction=True), dict(axis=1, ddof=1)]
    return [_raised(lambda kw=kw, m=m: getattr(x, m)(**kw)) for kw in calls for m in ("var", "std")]


def case_tensor_offload_load_data_sync(ms):
    """``Tensor._offload()``, ``_load()``, ``data_sync(need_wait)`` return None and leave the value
    (tests/st/tensor/test_offload.py, test_load.py)."""
    x = ms.Tensor(_f32(2, 3, seed=11))
    y = x * 2
    p = ms.Parameter(1)
    return [x._offload(), x._offload(), x, y._offload(), y + 1, x._load(), p._load(), p._offload(), p * 1,
            x.data_sync(True), y.data_sync(False), x.data_sync()]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
