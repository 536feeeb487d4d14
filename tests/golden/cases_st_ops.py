"""Golden cases for ops MindSpore's own system tests (``tests/st/ops``) exercise and msjax
lacked or got wrong: recorded from MindSpore 2.10 with
``record_mindspore.py --suite st_ops --mode pynative --only NAME --merge``.

Every ``case_<name>(ms)`` uses only the module passed in.
"""
import numpy as np


def _f32(*shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def _raised(f):
    """``f()``, or the name of the exception it raises (for errors inside a loop)."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the type is the result
        return type(e).__name__


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



# --- the FFT family (tests/st/ops/test_ops_*fft*.py) ------------------------------------------------

_FFT_1D = ("fft", "ifft", "rfft", "ihfft", "irfft", "hfft")


def _ri(ms, t):
    """A complex Tensor as [itself (dtype, shape, real part), its imaginary part]: the fixtures keep
    only the real part of complex values."""
    return [t, ms.ops.imag(t)] if "Complex" in str(t.dtype) else t


def _c64(*shape, seed=0):
    r = np.random.RandomState(seed)
    return (r.randn(*shape) + 1j * r.randn(*shape)).astype(np.complex64)


def _fft_input(ms, name, seed):
    """A complex input for the transforms of a (one-sided) spectrum, a real one for the others."""
    real = name.startswith(("rfft", "ihfft"))
    return ms.Tensor(_f32(3, 4, 5, seed=seed) if real else _c64(3, 4, 5, seed=seed))


def case_fft_transforms_1d(ms):
    """fft/ifft/rfft/ihfft/irfft/hfft with n (cut and zero-padded), dim and each norm (any case)."""
    out = {}
    for name in _FFT_1D:
        x = _fft_input(ms, name, 1)
        for k, kw in enumerate(({}, dict(n=3, dim=1, norm="ortho"), dict(n=7, dim=0, norm="forward"),
                                dict(dim=-2, norm="Backward"), dict(n=1, dim=2))):
            out[f"{name}{k}"] = _ri(ms, getattr(ms.ops, name)(x, **kw))
    out["fft_real"] = _ri(ms, ms.ops.fft(ms.Tensor(_f32(3, 4, 5, seed=2)), 6))
    # a complex input of rfft/ihfft: 1-D (MindSpore 2.10 mixes up the rows of a batch, docs/differences.md)
    out["rfft_complex"] = _ri(ms, ms.ops.rfft(ms.Tensor(_c64(6, seed=3))))
    out["ihfft_complex"] = _ri(ms, ms.ops.ihfft(ms.Tensor(_c64(5, seed=3)), 4, 0))
    out["irfft_real"] = ms.ops.irfft(ms.Tensor(_f32(3, 4, seed=4)))
    out["irfft_one_entry"] = ms.ops.irfft(ms.Tensor(_c64(3, 1, seed=5)))
    return out


def case_fft_transforms_2d_nd(ms):
    """The 2-D and N-D forms with s (cut and zero-padded), dim in any order and each norm."""
    out = {}
    for name in _FFT_1D:
        x = _fft_input(ms, name, 6)
        for k, kw in enumerate(({}, dict(s=(2, 6), norm="ortho"), dict(s=[4, 3], dim=(0, 2), norm="forward"),
                                dict(dim=(2, 0)))):
            out[f"{name}2_{k}"] = _ri(ms, getattr(ms.ops, name + "2")(x, **kw))
        for k, kw in enumerate(({}, dict(s=(2, 6)), dict(dim=(2, 0), norm="ortho"),
                                dict(s=(3, 3, 3), dim=[1, 0, 2], norm="forward"), dict(dim=(1,)))):
            out[f"{name}n_{k}"] = _ri(ms, getattr(ms.ops, name + "n")(x, **kw))
    return out


def case_fft_input_dtypes(ms):
    """Int16/Int32/Int64, Float16, BFloat16 inputs compute in Float32 (Complex64 spectra), Float64 and
    Complex128 in double precision; Int8, UInt8 and Bool raise TypeError. rfft/ihfft of a complex
    input: 1-D (MindSpore 2.10 mixes up the rows of a batch, docs/differences.md)."""
    out = {}
    x = np.array([[1.5, -2.0, 3.0, 0.5], [4.0, 2.5, -1.0, 7.0]])
    for dt in ("int16", "int32", "int64", "float16", "bfloat16", "float64", "complex128", "complex64"):
        t = ms.Tensor(x.astype(np.float32), getattr(ms, dt))
        for name in ("fft", "rfft", "ihfft", "irfft", "hfft2", "ihfftn", "ifftn"):
            if "complex" in dt and name in ("rfft", "ihfft", "ihfftn"):
                t1 = ms.Tensor(x[1].astype(np.float32), getattr(ms, dt))
                out[f"{name}_{dt}"] = _ri(ms, getattr(ms.ops, name)(t1))
            else:
                out[f"{name}_{dt}"] = _ri(ms, getattr(ms.ops, name)(t))
    for dt in ("int8", "uint8", "bool_"):
        t = ms.Tensor(x.astype(np.float32), getattr(ms, dt))
        for name in ("fft", "irfft", "rfftn"):
            out[f"{name}_{dt}"] = _raised(lambda: getattr(ms.ops, name)(t))
    return out


def _fft_grad(ms, name, x, kw, seed, scale=1.0):
    """The gradient of ``ops.<name>(x, **kw)`` for a given sensitivity (complex, with an imaginary part,
    for a complex output), scaled by ``scale``."""
    def f(a):
        return getattr(ms.ops, name)(a, **kw)
    y = f(x)
    shape = tuple(y.shape)
    sens = _c64(*shape, seed=seed) if "Complex" in str(y.dtype) else _f32(*shape, seed=seed)
    sens = (sens * scale).astype(sens.dtype)
    return _ri(ms, ms.ops.GradOperation(sens_param=True)(f)(x, ms.Tensor(sens)))


def case_fft_gradients_1d(ms):
    """MindSpore's backward of each 1-D transform, real and complex inputs, n cut and padded, each norm."""
    out = {}
    for name in _FFT_1D:
        for j, x in enumerate((ms.Tensor(_f32(3, 4, seed=7)), ms.Tensor(_c64(3, 4, seed=8)))):
            for k, kw in enumerate((dict(n=6, dim=0), dict(n=3, norm="ortho"), dict(n=2, dim=0, norm="forward"))):
                out[f"{name}_{j}{k}"] = _fft_grad(ms, name, x, kw, 10 + k)
    return out


def case_fft_gradients_2d_nd(ms):
    """MindSpore's backward of the 2-D and N-D transforms (s cut and padded, dims, norms). The
    sensitivities are scaled to give gradients of about unit size: a float32 FFT's rounding error is
    relative to the norm of the whole result (up to 2e-6 on these 60-term sums of size ~5, between
    XLA's and MindSpore's FFTs), and the fixtures compare each value to 1e-6."""
    out = {}
    for name in _FFT_1D:
        for j, x in enumerate((ms.Tensor(_f32(3, 4, 5, seed=9)), ms.Tensor(_c64(3, 4, 5, seed=10)))):
            for k, kw in enumerate((dict(s=(2, 7), norm="ortho"), dict(s=(4, 3), dim=(2, 0), norm="forward"))):
                out[f"{name}2_{j}{k}"] = _fft_grad(ms, name + "2", x, kw, 20 + k, 0.2)
            for k, kw in enumerate(({}, dict(s=(5, 2), dim=(1, 2), norm="ortho"),
                                    dict(s=(2, 5, 6), dim=(0, 1, 2), norm="forward"))):
                out[f"{name}n_{j}{k}"] = _fft_grad(ms, name + "n", x, kw, 30 + k, 0.2)
    return out


def case_fft_complex_part_gradients(ms):
    """Gradients through ``ops.real``/``ops.imag``/``ops.angle`` of a spectrum, and of those ops alone
    with a given sensitivity: MindSpore's Imag backward is ``1j * dout`` and its Angle backward
    ``-dout / (imag + 1j real)`` (JAX's own rules give their conjugates); angle of a real Tensor raises.
    Each chain's gradient is taken twice and the second kept: MindSpore 2.10's first PyNative call of
    angle-of-ihfft's gradient gives other numbers (the negated FD gradient) than its later calls, which
    agree with its two backward rules applied one after the other."""
    ops, T = ms.ops, ms.Tensor
    xr, xc = T(_f32(6, seed=15)), T(_c64(2, 3, seed=16))
    out = {}
    for k, part in enumerate((ops.real, ops.imag, ops.angle)):
        for name, x in (("fft", xr), ("rfft", xr), ("ihfft", xr), ("ifft2", xc)):
            w = T(_f32(*getattr(ops, name)(x).shape, seed=17))
            chain = ops.GradOperation()(lambda a: (part(getattr(ops, name)(a)) * w).sum())
            chain(x)
            out[f"{name}_{k}"] = _ri(ms, chain(x))
    grad = ops.GradOperation(sens_param=True)
    sens = T(_f32(2, 3, seed=18))
    out["imag"] = _ri(ms, grad(ops.imag)(xc, sens))
    out["angle"] = _ri(ms, grad(ops.angle)(xc, sens))
    out["angle_real"] = _raised(lambda: ops.angle(xr))
    return out


def case_fft_compiled(ms):
    """The transforms and their gradients inside a Cell and ms.jit, n and dim as (mutable) ints."""
    ops = ms.ops

    class Net(ms.nn.Cell):
        def construct(self, a, n, dim):
            return ops.irfft(ops.rfft(a, n, dim) * 2, n, dim) + ops.hfft(ops.ihfft(a, n, dim), n, dim)

    class Grad(ms.nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.grad = ops.GradOperation()

        def construct(self, a, n, dim):
            return self.grad(self.net)(a, n, dim)

    def spectra(a):
        return ops.fft2(a, (2, 5)), ops.ifftn(a, dim=(0,), norm="ortho"), ops.fftshift(ops.rfftn(a), (0,))
    x = ms.Tensor(_f32(3, 4, seed=12))
    out = [Net()(x, 4, 1), Net()(x, ms.mutable(5), ms.mutable(0)), Grad(Net())(x, 6, 1)]
    out += [_ri(ms, y) for y in ms.jit(spectra)(x)]
    return out


def case_fft_errors(ms):
    """Each argument error's exception type."""
    ops, T = ms.ops, ms.Tensor
    x = T(_f32(3, 4, seed=13))
    calls = {
        "n0": lambda: ops.fft(x, 0), "n_neg": lambda: ops.irfft(x, -1), "n_float": lambda: ops.fft(x, 2.0),
        "n_bool": lambda: ops.rfft(x, True), "dim_hi": lambda: ops.fft(x, dim=2), "dim_lo": lambda: ops.hfft(x, dim=-3),
        "dim_float": lambda: ops.ifft(x, dim=1.0), "norm_bad": lambda: ops.fft(x, norm="abc"),
        "norm_int": lambda: ops.ihfft(x, norm=1), "list": lambda: ops.fft([1.0, 2.0]),
        "ndarray": lambda: ops.rfft(np.ones(3)), "rank0": lambda: ops.fft(T(1.0)),
        "rank9": lambda: ops.fftn(T(np.ones([1] * 9, np.float32))), "s0": lambda: ops.fft2(x, s=(0, 2)),
        "s_neg": lambda: ops.rfftn(x, s=(-1, 2)), "s_len": lambda: ops.fft2(x, s=(2,)),
        "s_int": lambda: ops.fftn(x, s=2), "dim_int": lambda: ops.irfft2(x, dim=0),
        "dims_repeat": lambda: ops.hfftn(x, dim=(0, 0)), "dims_out": lambda: ops.ifft2(x, dim=(0, 2)),
        "dim_none_2d": lambda: ops.fft2(x, None, None), "dim_none_1d": lambda: ops.fft(x, None, None),
        "shift_dim": lambda: ops.fftshift(x, 2), "shift_dim_bool": lambda: ops.ifftshift(x, True),
        "shift_dim_float": lambda: ops.fftshift(x, (0, 1.0)), "shift_0d": lambda: ops.ifftshift(T(3.0), 0),
        "shift_ndarray": lambda: ops.fftshift(np.ones(3)),
    }
    return {k: _raised(f) for k, f in calls.items()}


def case_fft_error_dim_message(ms):
    return ms.ops.rfft(ms.Tensor(_f32(2, 3, 4)), dim=3)


def case_fft_error_norm_message(ms):
    return ms.ops.fft2(ms.Tensor(_f32(2, 3)), norm="sideways")


def case_fft_error_signature_message(ms):
    return ms.ops.fft(ms.Tensor(_f32(2, 3)), 2.0)


def case_fftshift_dims_dtypes_grad(ms):
    """fftshift/ifftshift over every, one, repeated and no dimension, on each dtype, and their gradients."""
    ops, T = ms.ops, ms.Tensor
    x = np.arange(60).reshape(3, 4, 5)
    out = {}
    for k, dim in enumerate((None, 0, -1, (0, 0), [1, -1, 0], ())):
        out[f"s{k}"] = ops.fftshift(T(x.astype(np.float32)), dim)
        out[f"i{k}"] = ops.ifftshift(T(x.astype(np.float32)), dim)
    for dt in ("int8", "uint8", "bool_", "float16", "int64", "complex64", "float64"):
        t = T(x.astype(np.float32), getattr(ms, dt))
        out[f"s_{dt}"] = _ri(ms, ops.fftshift(t, (1, 2)))
        out[f"i_{dt}"] = _ri(ms, ops.ifftshift(t))
    out["scalar"] = ops.fftshift(T(np.float32(2.5)))
    sens = T(_f32(3, 4, 5, seed=14))
    grad = ops.GradOperation(sens_param=True)
    out["g_shift"] = grad(lambda a: ops.fftshift(a, (0, 2)))(T(x.astype(np.float32)), sens)
    out["g_ishift"] = grad(lambda a: ops.ifftshift(a))(T(x.astype(np.float32)), sens)
    return out


def case_fftfreq_rfftfreq(ms):
    """fftfreq/rfftfreq: n, d (a float or a 0-D Float Tensor), dtypes, d = 0, and the errors' types."""
    ops, T = ms.ops, ms.Tensor
    out = {}
    for k, (n, d) in enumerate(((1, 1.0), (4, 1.0), (5, 0.5), (6, 2.0), (7, 3.3), (8, 0.1))):
        out[f"f{k}"] = ops.fftfreq(n, d)
        out[f"r{k}"] = ops.rfftfreq(n, d)
    for dt in ("float16", "float64", "bfloat16", "int32", "bool_", "complex64"):
        out[f"f_{dt}"] = _ri(ms, ops.fftfreq(5, 0.25, getattr(ms, dt)))
        out[f"r_{dt}"] = _ri(ms, ops.rfftfreq(6, 0.3, getattr(ms, dt)))
    out["d0"] = ops.fftfreq(4, 0.0)
    out["d_tensor"] = ops.fftfreq(4, T(2.0))
    out["n_tensor"] = ops.rfftfreq(T(4))
    bad = {"n0": lambda: ops.fftfreq(0), "n_neg": lambda: ops.rfftfreq(-1), "n_float": lambda: ops.fftfreq(2.0),
           "n_bool": lambda: ops.rfftfreq(True), "d_int": lambda: ops.fftfreq(4, 2), "d_none": lambda: ops.fftfreq(4, None),
           "d_int_tensor": lambda: ops.rfftfreq(4, T(2)), "d_1d": lambda: ops.fftfreq(4, T([2.0, 3.0]))}
    out.update({k: _raised(f) for k, f in bad.items()})
    return out



def case_fft_with_size(ms):
    """``ops.FFTWithSize``: fft/ifft, rfft/irfft (onesided or not, ``signal_sizes``), 1 to 3 signal
    dimensions, each norm, the gradients for a given sensitivity, and the errors' types."""
    ops, T = ms.ops, ms.Tensor
    F = ops.FFTWithSize
    xr, xc = T(_f32(2, 3, 4, seed=19)), T(_c64(2, 3, 4, seed=20))
    out = {}
    for nd in (1, 2, 3):
        for norm in ("backward", "forward", "ortho"):
            for inverse, real, onesided, x in ((False, False, True, xc), (True, False, True, xc), (False, True, True, xr),
                                               (True, True, True, xc), (False, True, False, xr), (True, True, False, xc)):
                key = f"{nd}{norm[0]}{int(inverse)}{int(real)}{int(onesided)}"
                prim = F(nd, inverse, real, norm, onesided)
                y = prim(x)
                shape = tuple(y.shape)
                sens = T(_c64(*shape, seed=21) if "Complex" in str(y.dtype) else _f32(*shape, seed=21))
                out[key] = _ri(ms, y)
                if nd == 3 and norm != "backward" and real and onesided and not inverse:
                    continue   # MindSpore 2.10 scales this gradient by another 1/n (docs/differences.md)
                out["g" + key] = _ri(ms, ops.GradOperation(sens_param=True)(lambda a: prim(a))(x, sens))
    sized = F(2, True, True, signal_sizes=(3, 7))
    out["sizes"] = sized(xc)
    out["g_sizes"] = ops.GradOperation(sens_param=True)(lambda a: sized(a))(xc, T(_f32(2, 3, 7, seed=22)))
    for dt in ("int32", "bool_", "uint8", "float64"):
        out[f"rfft_{dt}"] = _ri(ms, F(1, False, True)(T(_f32(4, seed=23) > 0, getattr(ms, dt))))
    bad = {"fft_float": lambda: F(1, False, False)(xr), "rfft_complex": lambda: F(1, False, True)(xc),
           "rfft_f16": lambda: F(1, False, True)(T(_f32(4), ms.float16)),
           "norm": lambda: F(1, False, False, "abc"), "sizes_bad": lambda: F(2, True, True, signal_sizes=(3, 9))(xc),
           "sizes_len": lambda: F(2, True, True, signal_sizes=(7,))(xc), "ndim_bool": lambda: F(True, False, False)(xc),
           "ndarray": lambda: F(1, False, False)(np.ones(3))}
    out.update({k: _raised(f) for k, f in bad.items()})
    return out


def case_fft_with_size_error_rank(ms):
    """Raised when the kernel runs (MindSpore: one such error per process, as later calls misbehave)."""
    return ms.ops.FFTWithSize(3, False, False)(ms.Tensor(_c64(2, 2)))


def case_fft_with_size_signal_ndim_4(ms):
    """signal_ndim above 3 (documented as a ValueError): MindSpore 2.10 transforms the last 3 dimensions."""
    return ms.ops.FFTWithSize(4, False, False)(ms.Tensor(_c64(2, 2, 2, 3)))


def case_fft_with_size_error_last_dim_one(ms):
    return ms.ops.FFTWithSize(1, True, True)(ms.Tensor(_c64(2, 1)))

def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
