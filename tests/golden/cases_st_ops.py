"""Golden cases for ops MindSpore's own system tests (``tests/st/ops``) exercise and msjax
lacked or got wrong: recorded from MindSpore 2.10 with
``record_mindspore.py --suite st_ops --mode pynative --only NAME --merge``.

Every ``case_<name>(ms)`` uses only the module passed in.
"""
import numpy as np


def _f32(*shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def _raised(f):
    """``f()``, or the name of the exception it raises (errors inside one case; a Tensor is read
    here, as MindSpore's PyNative raises a kernel's error when the result is read)."""
    try:
        out = f()
        return (out, out.asnumpy())[0] if hasattr(out, "asnumpy") else out
    except Exception as e:  # noqa: BLE001 - the type is the result
        return type(e).__name__


def _gen_ops_def(ms):
    from importlib import import_module
    return import_module(ms.__name__ + ".ops.auto_generate.gen_ops_def")


def case_add_ext_sub_ext_alpha(ms):
    """``gen_ops_def.add_ext``/``sub_ext`` (AddExt/SubExt, tests/st/ops/test_ops_add.py) and the
    ``mint``/Tensor spellings over them: dtypes, scalars on either side, two bools, and which
    ``alpha`` each input dtype takes; the input gradient of ``add_ext`` in a Cell."""
    g, T, mint = _gen_ops_def(ms), ms.Tensor, ms.mint
    xi, yi = T(np.array([1, 2, 3], np.int32)), T(np.array([4, 5, 6], np.int32))
    xf, xh = T(_f32(3, seed=1)), T(_f32(3, seed=2).astype(np.float16))
    xb, yb = T(np.array([True, False, True])), T(np.array([True, True, False]))
    out = []
    for f in (g.add_ext, g.sub_ext):
        for args in ((xi, yi), (xi, yi, 2), (xi, yi, 1.5), (xi, 2.0), (xi, True), (xi, xf, 1.5), (xf, xi, 1.5),
                     (xi, 2.0, 1.5), (2.0, xi, 1.5), (xi, yi, True), (xb, yb, 2), (xb, xi, 1.5), (xh, xh, 2.0),
                     (xh, xf, 2.0), (xi, yi, None), (xi, "a")):
            out.append(_raised(lambda: f(*args)))
    out += [_raised(lambda: mint.add(xb, yb)), _raised(lambda: mint.sub(xi, yi, alpha=1.5)),
            _raised(lambda: xi.add(yi, alpha=1.5)), _raised(lambda: xb.add(yb)), xi.sub(yi, alpha=3)]

    class Net(ms.nn.Cell):
        def construct(self, a, b, alpha):
            return g.add_ext(a, b, alpha)
    out.append(ms.grad(Net(), (0, 1))(xf, T(_f32(3, seed=3)), 2.5))
    return out


def case_err_add_ext_float_alpha_int_inputs(ms):
    return _gen_ops_def(ms).add_ext(ms.Tensor(np.array([1, 2], np.int32)), ms.Tensor(np.array([3, 4], np.int32)), 1.5)


def case_err_sub_ext_bool_alpha_int_inputs(ms):
    return _gen_ops_def(ms).sub_ext(ms.Tensor(np.array([1, 2], np.int32)), 3, True)


def case_err_add_ext_alpha_none(ms):
    return _gen_ops_def(ms).add_ext(ms.Tensor(np.array([1, 2], np.int32)), 3, None)


def case_tensor_to_tuple(ms):
    """``ops.TensorToTuple`` (how tests/st/ops/dynamic_shape/test_op_utils.py passes tuple arguments):
    1-D Tensors' values, ``None`` for others, a 0-D Tensor's error; its tuple feeding ``flip``'s
    dims inside ``ms.jit``."""
    T, ops = ms.Tensor, ms.ops
    t = ops.TensorToTuple()
    out = [_raised(lambda: t(a)) for a in (T(np.array([1, 2, 3], np.int32)), T(np.array([1.5, 2.0], np.float32)),
                                           T(np.array(3, np.int64)), T(np.ones((1, 2), np.float32)), (1, 2), 3)]

    def flip(x, d):
        return ops.flip(x, ops.TensorToTuple()(d))
    out.append(ms.jit(flip)(T(np.arange(6).reshape(2, 3).astype(np.float32)), T(np.array([1], np.int64))))
    return out


def case_cast_float_to_int_wraps(ms):
    """Float16/32/64 -> every integer dtype outside the target's range, NaN and infinities, as
    MindSpore's x86 CPU ``Cast`` gives them (its low bits: ``-4.0`` -> UInt8 252), through
    ``ops.cast``, ``Tensor.astype``/``to``/``int`` and inside ``ms.jit``; an unsigned input's
    gradient cast back to its dtype (tests/st/ops/test_ops_cross.py's UInt8 case)."""
    T, ops = ms.Tensor, ms.ops
    v = np.array([-4.0, 300.0, -1.5, 255.7, 1e10, -129.0, 3e9, -3e9, 1e20, -1e20, np.nan, np.inf, -np.inf,
                  2.0 ** 63, 2.0 ** 64], np.float64)
    out = []
    with np.errstate(over="ignore"):
        xs = [T(v.astype(t)) for t in (np.float16, np.float32, np.float64)]
    for x in xs:
        for d in (ms.int8, ms.uint8, ms.int16, ms.uint16, ms.int32, ms.uint32, ms.int64, ms.uint64, ms.bool_):
            out.append(ops.cast(x, d))
    x = xs[1]
    out += [x.astype(ms.uint8), x.to(ms.int8), x.int(), x.long()]

    def f(t):
        return ops.cast(t, ms.uint16), t.astype(ms.uint64)
    out.append(ms.jit(f)(x))
    a, b = T(np.array([[1, 2, 3], [3, 6, 9]], np.uint8)), T(np.array([[9, 7, 5], [2, 7, 5]], np.uint8))

    def crs(p, q):
        return ops.cross(p, q, 1)
    out.append(ms.grad(crs, (0, 1))(a, b))
    return out


def case_apply_adam_with_amsgrad(ms):
    """``ops.ApplyAdamWithAmsgrad``/``V2`` (tests/st/ops/test_ops_applyadamwithamsgradv2.py): two
    steps on random Parameters (float32 and float16, V2 in a Cell), the last returned tuple (MindSpore's
    outputs are its Parameters: an earlier step's tuple reads later values) and the Parameters."""
    T, P, ops = ms.Tensor, ms.Parameter, ms.ops
    out = []
    for dt in (np.float32, np.float16):
        ps = [P(T(np.abs(_f32(3, 4, seed=i)).astype(dt)), name=f"p{i}_{dt.__name__}") for i in range(4)]
        op1 = ops.ApplyAdamWithAmsgrad(0.85, 0.99, 1e-6)
        for step in range(2):
            g = T(_f32(3, 4, seed=10 + step).astype(dt))
            res = op1(*ps, T(np.array(0.85 ** (step + 1), dt)), T(np.array(0.99 ** (step + 1), dt)),
                      T(np.array(0.05, dt)), g)
        out += [res] + [p.value() for p in ps]

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = ops.ApplyAdamWithAmsgradV2()
            self.ps = ms.ParameterTuple(P(T(np.abs(_f32(2, 5, seed=20 + i))), name=f"q{i}") for i in range(4))

        def construct(self, g, b1p, b2p):
            return self.op(*self.ps, b1p, b2p, 0.01, 0.8, 0.999, 1e-8, g)
    net = Net()
    for step in range(2):
        res = net(T(_f32(2, 5, seed=30 + step)), 0.8 ** (step + 1), 0.999 ** (step + 1))
    out += [res] + [p.value() for p in net.ps]
    return out


def case_err_apply_adam_with_amsgrad_float64(ms):
    T = ms.Tensor
    ps = [ms.Parameter(T(np.ones((2, 2))), name=f"r{i}") for i in range(4)]
    return ms.ops.ApplyAdamWithAmsgrad()(*ps, T(np.array(0.9)), T(np.array(0.99)), T(np.array(0.1)), T(np.ones((2, 2))))


def _dumped(folder):
    """The ``.npy`` files ``TensorDump`` wrote under ``folder``: (name with its counter made relative
    to the first dump's, read-only or not, dtype, values), in dump order."""
    import os
    import re
    found = []
    for root, _, files in os.walk(folder):
        for f in files:
            stem, n = re.match(r"(.*)_(\d+)\.npy$", f).groups()
            path = os.path.join(root, f)
            found.append((int(n), os.path.relpath(os.path.join(root, stem), folder), path))
    found.sort()
    first = found[0][0] if found else 0
    out = []
    for n, stem, path in found:
        a = np.load(path)
        out.append((f"{stem}_{n - first}.npy", not os.access(path, os.W_OK) or os.stat(path).st_mode & 0o777 == 0o400,
                    str(a.dtype), a.tolist()))
    return out


def case_tensordump_and_dump_gradient(ms):
    """``ops.tensordump``/``TensorDump``/``DumpGradient`` (tests/st/ops/test_ops_dump_gradient.py): the
    files' names (``<file>_<dtype>_<n>.npy``), modes, dtypes (BFloat16 as float32) and values, the
    gradient dumped from a backward pass, and the argument errors (MindSpore's CPU build has no
    TensorDump kernel in compiled code: tests/test_tensor_dump.py checks msjax's there)."""
    import os
    import shutil
    import tempfile
    T, ops = ms.Tensor, ms.ops
    folder = tempfile.mkdtemp()
    here = os.getcwd()
    try:
        os.chdir(folder)
        os.mkdir("sub")
        for d in (ms.bool_, ms.int64, ms.float16, ms.bfloat16, ms.uint8):
            ops.tensordump("t.npy", T(np.array([1, 0, 3]), d))
        ops.tensordump("sub/u.x.npy", T(np.float32(1.5)))
        ops.TensorDump("in")("v.bin", T(_f32(2, 2)))
        dg = ops.DumpGradient()

        def f(x, y):
            return dg("x_dout.npy", x, "out") * y
        grads = [ms.grad(f, (0, 1))(T(np.float32(1.0)), T(np.float32(2.0))),
                 ms.grad(f, (0, 1))(T(_f32(3)), T(_f32(3, seed=1)))]
        errs = [_raised(lambda: ops.tensordump(*a)) for a in
                ((1, T(1.0)), ("a", 1), ("a", T(1.0), "all"), ("a", T(1.0), "x"), ("a", T(1.0), 3), ("", T(1.0)))]
        errs += [_raised(lambda: ops.TensorDump()(3, T(1.0))), _raised(lambda: ops.TensorDump("x"))]
    finally:
        os.chdir(here)
    try:
        return grads, errs, _dumped(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def case_max_ext_min_ext(ms):
    """``ops.function.array_func.max_ext``/``min_ext`` (tests/st/ops/test_ops_max.py, test_ops_min.py):
    every element's extreme and its gradient over ties, ``(values, indices)`` along a dim, the
    ``keepdim`` error without a dim."""
    from importlib import import_module
    af = import_module(ms.__name__ + ".ops.function.array_func")
    x = ms.Tensor(np.array([[3, 20, 5], [67, 8, 130], [3, 15, 130]], np.float32))
    out = []
    for f in (af.max_ext, af.min_ext):
        out += [f(x), f(x, 1), f(x, 0, True), f(ms.Tensor(np.array([[1, 7], [7, 2]], np.int32)), -1),
                ms.grad(lambda t, g=f: g(t))(x), _raised(lambda g=f: g(x, None, True))]
    return out


def case_grad_value_dependent_shapes(ms):
    """Gradients through ops whose output shape depends on values (tests/st/ops/test_ops_masked_select.py):
    ``mint.masked_select`` by an integer input and its bool mask (a mask's gradient is zeros, an
    integer input's keeps its dtype), ``nonzero``'s count scaling a float or integer input."""
    T, ops, mint = ms.Tensor, ms.ops, ms.mint
    mask = T(np.array([[True], [False], [True], [False]]))
    out = []
    for dt in (np.int8, np.uint8, np.int64, np.float16, np.float32):
        x = T(np.array([[1, 2, 3], [3, 4, 5], [6, 7, 8], [3, 6, 9]]).astype(dt))
        out.append(ops.grad(lambda a, b: mint.masked_select(a, b), (0, 1))(x, mask))
    for dt in (np.float32, np.int32):
        x = T(np.array([[1, 0, 3], [3, 4, 0]]).astype(dt))
        out.append(ops.grad(lambda a: a.nonzero().sum() * a, (0,))(x))
    return out


def case_max_pool_with_argmax_v2(ms):
    """``ops.operations.MaxPoolWithArgmaxV2`` (tests/st/ops/test_ops_maxpool_with_argmax_v2.py): output
    and argmax (Int64 and Int32) with strides, pads, dilation and ceil_mode, float16 and float32, and
    the constructor's argument errors."""
    P = ms.ops.operations
    x = ms.Tensor(_f32(2, 3, 7, 6, seed=4))
    out = [P.MaxPoolWithArgmaxV2((3, 2), (2, 1))(x),
           P.MaxPoolWithArgmaxV2(3, 2, 1, 1, True, ms.int32)(x),
           P.MaxPoolWithArgmaxV2((2, 3), (1, 2), (1, 1), (2, 1), False)(
               ms.Tensor(_f32(1, 2, 6, 7, seed=5), ms.float16))]
    out += [_raised(lambda: P.MaxPoolWithArgmaxV2(2, ceil_mode=1)),
            _raised(lambda: P.MaxPoolWithArgmaxV2(2, argmax_type=ms.float32))]
    return out


def case_function_ext_private_names(ms):
    """``ops.function.array_func.new_ones``/``new_zeros``, ``math_func.norm_ext`` and ``ops.numel``
    (tests/st/ops/test_ops_new_ones.py, _new_zeros, _norm, _numel): values, dtypes and errors
    (``one_hot_ext``'s and ``norm_ext``'s values have no PyNative CPU kernel in MindSpore 2.10: mint's
    one_hot and norm cases cover them)."""
    from importlib import import_module
    af = import_module(ms.__name__ + ".ops.function.array_func")
    mf = import_module(ms.__name__ + ".ops.function.math_func")
    T = ms.Tensor
    x = T(_f32(2, 3, seed=6))
    xi = T(np.array([[1, 0, 3]], np.int32))
    out = [af.new_ones(x, (2, 2)), af.new_ones(xi, (3,), dtype=ms.float16), af.new_zeros(x, (1, 4)),
           af.new_zeros(xi, (2,), dtype=ms.bool_)]
    out += [ms.ops.numel(x), ms.ops.numel(T(np.float32(3))),
            _raised(lambda: mf.norm_ext(np.ones(3))), _raised(lambda: mf.norm_ext(x, "bad")),
            _raised(lambda: ms.ops.numel(3))]
    return out


def case_err_numel_not_tensor(ms):
    return ms.ops.numel([1, 2])


def case_tanh_grad_primitive(ms):
    """``ops.auto_generate.TanhGrad`` (tests/st/ops/test_ops_tanh_grad.py): ``dy * (1 - y * y)`` in
    float32/float64/float16, its own gradients by ``y`` and ``dy``, in ``ms.jit``, and the errors."""
    T = ms.Tensor
    tg = ms.ops.auto_generate.TanhGrad()
    y, dy = _f32(2, 3, seed=7), _f32(2, 3, seed=8)
    out = [tg(T(y.astype(t)), T(dy.astype(t))) for t in (np.float32, np.float64, np.float16)]

    def f(a, b):
        return tg(a, b)
    out += [ms.grad(f, (0, 1))(T(y), T(dy)), ms.jit(f)(T(y), T(dy))]
    out += [_raised(lambda: tg(T(y), T(dy.astype(np.float16)))), _raised(lambda: tg(T(y), 2.0)),
            _raised(lambda: tg(T(y), T(_f32(3, 3))))]
    return out


def case_err_tanh_grad_dtypes(ms):
    return ms.ops.auto_generate.TanhGrad()(ms.Tensor(np.ones(2, np.float32)), ms.Tensor(np.ones(2, np.int32)))


def case_slice_ext_primitive(ms):
    """``ops.auto_generate.SliceExt`` (tests/st/ops/test_ops_slice_ext.py): Python-slice bounds along a
    dim (negative, clamped, empty), and its errors."""
    x = ms.Tensor(np.arange(24).reshape(2, 3, 4).astype(np.float32))
    s = ms.ops.auto_generate.SliceExt()
    return [_raised(lambda a=a: s(x, *a)) for a in ((1, 0, 2, 1), (2, 1, 4, 2), (-1, -3, -1, 1), (0, 0, 5, 1),
                                                     (2, 3, 1, 1), (1, -10, 10, 2))]


def case_err_slice_ext_step(ms):
    return ms.ops.auto_generate.SliceExt()(ms.Tensor(np.ones((2, 3), np.float32)), 1, 0, 3, 0)


def case_err_slice_ext_dim(ms):
    return ms.ops.auto_generate.SliceExt()(ms.Tensor(np.ones((2, 3), np.float32)), 2, 0, 1, 1)


def case_tensor_split_indices_and_split_ext(ms):
    """``ops.tensor_split`` by indices past the end, negative or decreasing (NumPy's ``array_split``
    pieces: tests/st/ops/test_split.py), along both axes; ``array_func.split_ext`` by a size and by
    sizes, and its type error."""
    from importlib import import_module
    af = import_module(ms.__name__ + ".ops.function.array_func")
    x = ms.Tensor(np.arange(10).reshape(5, 2).astype(np.int64))
    out = [ms.ops.tensor_split(x, ios, ax) for ios in ([1, 4, 7], [-2], [3, 1], [0, -1, 9], (2,)) for ax in (0, 1)]
    out += [af.split_ext(x, 2), af.split_ext(x, [1, 4]), af.split_ext(x, 1, 1), _raised(lambda: af.split_ext(x, 2.0))]
    return out


def case_scatter_nd_integer_updates_grad(ms):
    """``ops.scatter_nd``'s gradients by its indices and its integer or float updates
    (tests/st/ops/test_scatter_nd.py: integer indices stay indices, the updates get ones), and a
    0-D indices' error."""
    T, ops = ms.Tensor, ms.ops
    idx = np.array([[1, 0], [1, 1], [1, 0], [1, 0], [1, 0]])
    out = []
    for dt in (np.int64, np.int8, np.float16):
        for it in (np.int64, np.int32):
            i, u = T(idx.astype(it)), T(np.array([-13.4, -3.1, 5.1, -12.1, -1.0]).astype(dt))
            out += [ops.scatter_nd(i, u, (2, 2)), ms.grad(ops.scatter_nd, (0, 1))(i, u, (2, 2))]
    out.append(_raised(lambda: ops.scatter_nd(T(np.array(3, np.int64)), T(np.ones(2, np.float32)), (4, 5))))
    return out


def case_err_scatter_nd_scalar_indices(ms):
    return ms.ops.scatter_nd(ms.Tensor(np.array(3, np.int64)), ms.Tensor(np.ones(2, np.float32)), (4, 5))


def case_interpolate_ext_private_name(ms):
    """``ops.function.nn_func.interpolate_ext`` (tests/st/ops/test_ops_upsample_nearest.py): nearest by
    size and by scale factor in 1-D, 2-D and 3-D (MindSpore 2.10's CPU build has no PyNative
    UpsampleBilinear2D kernel: mint's interpolate cases cover the other modes)."""
    from importlib import import_module
    nf = import_module(ms.__name__ + ".ops.function.nn_func")
    T = ms.Tensor
    return [nf.interpolate_ext(T(_f32(1, 2, 5)), size=8),
            nf.interpolate_ext(T(_f32(1, 2, 3, 4)), scale_factor=(1.5, 2.0)),
            nf.interpolate_ext(T(_f32(1, 1, 2, 3, 2)), size=(3, 4, 5))]


def case_view_as_real(ms):
    """``ops.view_as_real`` (tests/st/ops/test_ops_view_as_real.py): Complex64/Complex128 as real pairs,
    in ``ms.jit``, and its errors."""
    T, ops = ms.Tensor, ms.ops
    x = T(np.array([[2 + 1j, 2 - 3j], [0.5j, 2]], np.complex64))

    def f(a):
        return ops.view_as_real(a) * 2
    return [ops.view_as_real(x), ops.view_as_real(T(np.array([1 - 2j], np.complex128))), ms.jit(f)(x),
            _raised(lambda: ops.view_as_real(T(np.ones(2, np.float32)))),
            _raised(lambda: ops.view_as_real(np.array([1j])))]


def case_err_view_as_real_float(ms):
    return ms.ops.view_as_real(ms.Tensor(np.ones(2, np.float32)))


def case_parallel_concat(ms):
    """``ops.operations.ParallelConcat`` (tests/st/ops/test_parallelconcat.py): a tuple or list of
    (1, ...) Tensors along axis 0, and the dtype error."""
    T, P = ms.Tensor, ms.ops.operations
    a, b = T(np.array([[1, 2]], np.int32)), T(np.array([[3, 4]], np.int32))
    return [P.ParallelConcat()((a, b)), P.ParallelConcat()([a]),
            P.ParallelConcat()([T(_f32(1, 2, 3)), T(_f32(1, 2, 3, seed=1))]),
            _raised(lambda: P.ParallelConcat()((a, T(np.array([[3.0, 4.0]], np.float32)))))]


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


def _raised_msg(f):
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
    out.append(_raised_msg(lambda: ops.assign(x.T, ops.zeros_like(x.T))))
    out.append(_raised_msg(lambda: ops.assign_add(ops.transpose(x, (0, 1, 2)), ops.ones_like(x))))

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
            _raised_msg(lambda: ctx.PIJitCaptureContext(jit_config={"_disable_pijit": 1}))]


def case_pijit_switches(ms):
    """PIJit's switches in ``_c_expression`` (tests/st/pi_jit: its conftest, test_config.py,
    gradient/test_grad_return_ids.py): ``update_pijit_default_config`` takes any option, a bytecode-mode
    function gives the same numbers with PIJit disabled and enabled again, ``function_id`` pairs bound
    and unbound callables, and ``Unsupported`` is a RuntimeError."""
    import importlib
    cx = importlib.import_module(ms.__name__ + "._c_expression")
    ctx = importlib.import_module(ms.__name__ + ".common._pijit_context")
    x = ms.Tensor(_f32(2, 3, seed=6))

    def f(a, b):
        return ops_mul(a, b) - a

    ops_mul = ms.ops.mul
    g = ms.jit(f, capture_mode="bytecode")

    class Test:
        @classmethod
        def hook(cls):
            return cls

        @staticmethod
        def make(v):
            return v

        def __init__(self):
            pass
    fid = cx.function_id
    out = [cx.update_pijit_default_config(compile_with_try=False, anything=3), g(x, 2.0)]
    cx.jit_mode_pi_disable()
    out.append(g(x, x))
    cx.jit_mode_pi_enable()
    out += [g(x, x), fid(tuple.__getitem__) == fid(tuple().__getitem__), fid(list.__getitem__) == fid([].__getitem__),
            fid(list.append) == fid(list.pop), fid(Test.__init__) == fid(Test().__init__) == id(Test.__init__),
            fid(Test) == id(Test), fid(Test.hook) == id(Test.hook.__func__), fid(Test.make) == id(Test().make),
            issubclass(ctx.Unsupported, RuntimeError), _raised_msg(lambda: cx.update_pijit_default_config(1))]
    return out


def case_pynative_augmented_assign(ms):
    """``x += y`` (``-=``, ``*=``, ``/=``) in PyNative binds x to a new Tensor: the Tensor it named and a
    caller's argument keep their values, a Parameter is left unchanged (tests/st/pi_jit/builtin/
    test_list_comprehension.py runs a function with ``x *= 2`` uncompiled, then compiled, on the same
    argument); ``self.w += x`` in a PyNative Cell updates the Parameter ``w``."""
    T = ms.Tensor
    a = T(np.array([3, 4, 5], np.int64))
    b = a
    a *= 2
    c = T(_f32(2, 3, seed=8))
    d = c
    c += 1
    c -= 0.5
    c /= 4
    p = ms.Parameter(T(_f32(3, seed=9)), name="p")
    q = p
    p += 1

    def fn(x):
        x *= 2
        return x + 1

    e = T(_f32(3, seed=10))
    out = fn(e)

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(T(_f32(2, seed=11)), name="w")

        def construct(self, x):
            self.w += x
            x += 1
            return self.w * 1, x
    net = Net()
    x = T(_f32(2, seed=12))
    return [a, b, a is b, c, d, c is d, p, type(p).__name__, q, out, e, net(x), net.w, x]


def case_jit_namedtuple_outputs(ms):
    """A compiled function (``ms.jit``, AST and bytecode modes) returns a namedtuple as itself, holding
    Tensors, None, a dict or another namedtuple (tests/st/pi_jit/builtin/test_namedtuple.py)."""
    import collections
    Point = collections.namedtuple("Point", ["x", "y"])
    x = ms.Tensor(_f32(3, seed=13))

    def f(a):
        return Point(a + 1, None), Point({"k": a * 2}, Point(a, 1.5))

    out = []
    for mode in ("ast", "bytecode"):
        r = ms.jit(f, capture_mode=mode)(x)
        out += [type(r).__name__, type(r[0]).__name__, type(r[1].y).__name__, r]
    return out


def case_pijit_code_records(ms):
    """``_c_expression.get_code_extra`` of functions PIJit compiled without a graph break (tests/st/pi_jit's
    ``assert_executed_by_graph_mode``, ``break_count_`` checks): none before the first call, then the
    status, breaks, graphs built and the calls of the graph last run, call after call; a function whose
    ``_disable_pijit`` option turns PIJit off for some calls counts only the others."""
    import importlib
    cx = importlib.import_module(ms.__name__ + "._c_expression")
    ctx = importlib.import_module(ms.__name__ + ".common._pijit_context")

    import types

    def fresh(fn):   # a new code object per run: PIJit keys its records on the code object
        return types.FunctionType(fn.__code__.replace(), fn.__globals__, fn.__name__)

    f = fresh(lambda a, b: a * b + a)
    h = fresh(lambda a, b: a - b)
    g = ms.jit(f, capture_mode="bytecode")
    k = ctx.PIJitCaptureContext(jit_config={"_disable_pijit": lambda args, kwds: args[0] > 1})(h)

    def seen(fn):
        r = cx.get_code_extra(fn)
        return None if r is None else [r["stat"], r["break_count_"], r["compile_count_"], r["code"]["call_count_"],
                                       bool(r["code"]["phase_"])]
    out = [seen(f)]
    for a, b in [(_f32(3, seed=1), _f32(3, seed=2)), (_f32(3, seed=3), _f32(3, seed=2)),
                 (_f32(2, 2, seed=1), _f32(2, 2, seed=2)), (_f32(2, 2, seed=4), _f32(2, 2, seed=2))]:
        out += [g(ms.Tensor(a), ms.Tensor(b)), seen(f), seen(g)]
    for i in range(5):
        out.append(k(ms.Tensor([i]), ms.Tensor([i])))
    return out + [seen(h), seen(k)]


def case_cell_dynamic_shape_inputs(ms):
    """``Cell._dynamic_shape_inputs``, MindSpore's private store of ``set_inputs`` that the gradient helpers of
    tests/st/pi_jit/share/grad.py read: None until ``set_inputs``, then the declared inputs."""
    class Net(ms.nn.Cell):
        def construct(self, x, y):
            return x * y
    net = Net()
    before = net._dynamic_shape_inputs
    net.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32), ms.Tensor(shape=[2, None], dtype=ms.float32))
    after = net._dynamic_shape_inputs
    return [before, type(after).__name__, len(after), [list(t.shape) for t in after], [str(t.dtype) for t in after]]


def case_assign_ops_scalar_vector(ms):
    """``AssignAdd``/``AssignSub`` take a 1-element vector into a scalar Parameter and a scalar into a
    1-element one (MindSpore's CPU kernels; tests/st/pi_jit/control_flow/test_control_for_continue.py adds
    ``Tensor([4])`` to a scalar Parameter); ``Assign`` refuses both with a RuntimeError; other ranks and
    shapes are refused as before."""
    P = ms.ops
    shapes = [((), (1,)), ((1,), ()), ((), (2,)), ((1,), (1, 1)), ((2,), (1,)), ((1, 1), (1,))]

    def run(op, vs, xs):
        p = ms.Parameter(ms.Tensor(np.full(vs, 2, np.float32)), name="a")
        r = getattr(P, op)()(p, ms.Tensor(np.ones(xs, np.float32)))
        return [r, p.value()]
    return [_raised_msg(lambda op=op, vs=vs, xs=xs: run(op, vs, xs))
            for op in ("AssignAdd", "AssignSub", "Assign") for vs, xs in shapes]


def case_cell_container_checks(ms):
    """``nn.CellList(cells)`` extends as MindSpore's: a list, no CellDict in it; ``CellDict`` refuses a key
    that names a Cell attribute (``_scope``, ``training``) (tests/st/pi_jit/container)."""
    nn = ms.nn
    d = nn.CellDict()
    out = [_raised_msg(lambda: nn.CellList([nn.CellDict({"relu": nn.ReLU()})])),
           _raised_msg(lambda: nn.CellList((nn.ReLU(),))),
           len(nn.CellList([nn.ReLU(), nn.Tanh()]))]
    out += [_raised_msg(lambda k=k: d.__setitem__(k, nn.ReLU())) for k in ("_scope", "training", "a.b", "", 1)]
    return out + [len(d)]


def case_pijit_cell_class(ms):
    """``@jit(capture_mode="bytecode")`` on a Cell class compiles its ``construct`` and leaves the class a
    class (``super(Net, self)`` works; tests/st/pi_jit/gradient/test_custom_cell_bprop_pijit.py); on a Cell
    it compiles the Cell's ``construct`` bound to it, so it can replace that ``construct``."""
    @ms.jit(capture_mode="bytecode")
    class Net(ms.nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.w = ms.Parameter(ms.Tensor(_f32(3, seed=14)), name="w")

        def construct(self, x):
            return x * self.w + 1

    net = Net()
    x = ms.Tensor(_f32(3, seed=15))

    class Plain(ms.nn.Cell):
        def construct(self, a):
            return a * a - 1
    plain = Plain()     # tests/st/pi_jit/share/ops/primitive: net.construct = jit(net, capture_mode="bytecode")
    plain.construct = ms.jit(plain, capture_mode="bytecode")
    return [isinstance(Net, type), net(x), ms.grad(net)(x), plain(x), ms.grad(plain)(x)]


def case_grad_return_ids_no_tensor_input(ms):
    """``ops.grad(..., return_ids=True)`` where no selected input is a Tensor gives ``()`` as without ids
    (tests/st/pi_jit/gradient/test_grad_return_type_pijit.py); a Tensor input still gives its pair."""
    T = ms.Tensor

    def f(x, y):
        return x * y
    calls = [((T(1.5), 2), 0), ((T(1.5), 2), 1), ((2, T(1.5)), 0), ((2, 3), 0), ((2, 3), (0, 1)), ((2, 3), 1)]
    return [_raised_msg(lambda a=a, gp=gp: [ms.ops.grad(f, grad_position=gp, return_ids=True)(*a),
                                            ms.ops.grad(f, grad_position=gp)(*a)]) for a, gp in calls]


def case_grad_of_dtype_output(ms):
    """The gradient of a Cell returning its input's dtype (``ops.DType``) or shape is zeros like the input
    (tests/st/pi_jit/operation/test_dtype.py through share/grad.py's GradOfFirstInput); the forward gives
    the dtype."""
    x = ms.Tensor(_f32(2, 3, seed=16))

    class D(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.dtype = ms.ops.DType()

        def construct(self, a):
            return self.dtype(a)

    class S(ms.nn.Cell):
        def construct(self, a):
            return a.shape
    return [str(D()(x)), ms.ops.GradOperation()(D())(x), ms.ops.GradOperation()(S())(x),
            ms.grad(lambda a: a.dtype)(x)]


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
    return [_raised_msg(lambda v=v, d=d: T(v, d)) for v, d in values]


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
    out += [_raised_msg(lambda: T(np.zeros((2,)), ms.float32).log_normal(1, 2.0)),
            _raised_msg(lambda: T(np.zeros((2,)), ms.float32).log_normal(0.5, "a")),
            _raised_msg(lambda: P.LogNormalReverse(1, 2.0)),
            _raised_msg(lambda: T(np.zeros((2,)), ms.int32).log_normal(0.5, 0.3)),
            _raised_msg(lambda: T(np.zeros((2,)), ms.bool_).log_normal(0.5, 0.3))]
    return out





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


def case_swapaxes_swapdims_checks(ms):
    """``swapaxes``/``swapdims`` (function and method): MindSpore's TypeError for a non-int axis (a bool is
    an int), its ValueError for one out of range (tests/st/tensor/test_swapdims.py)."""
    ops = ms.ops
    x = ms.Tensor(_f32(2, 3, seed=10))
    out = []
    for a in [(0, (1,)), (0, 3), (-3, 0), (0, 1.0), (True, 0), (0, -1), (1, 1)]:
        for f in (lambda a: x.swapdims(*a), lambda a: ops.swapdims(x, *a), lambda a: x.swapaxes(*a),
                  lambda a: ops.swapaxes(x, *a)):
            out.append(_raised_msg(lambda f=f, a=a: f(a)))
    return out


def case_tensor_var_std_ddof_types(ms):
    """``Tensor.var``/``std`` overloads by the type of ``ddof``/``correction``: ``var`` takes a bool ``ddof``
    (tests/st/tensor/test_var.py), ``std`` and ``correction`` do not, a float is refused by the dispatcher
    and a NumPy integer by the deprecated formula."""
    x = ms.Tensor(np.arange(12).reshape(3, 4).astype(np.float32))
    calls = [dict(axis=0, ddof=True, keepdims=True), dict(ddof=True), dict(axis=0, ddof=False), dict(ddof=1.5),
             dict(axis=0, ddof=np.int64(1)), dict(dim=0, correction=True), dict(axis=1, ddof=1)]
    return [_raised_msg(lambda kw=kw, m=m: getattr(x, m)(**kw)) for kw in calls for m in ("var", "std")]


def case_tensor_offload_load_data_sync(ms):
    """``Tensor._offload()``, ``_load()``, ``data_sync(need_wait)`` return None and leave the value
    (tests/st/tensor/test_offload.py, test_load.py)."""
    x = ms.Tensor(_f32(2, 3, seed=11))
    y = x * 2
    p = ms.Parameter(1)
    return [x._offload(), x._offload(), x, y._offload(), y + 1, x._load(), p._load(), p._offload(), p * 1,
            x.data_sync(True), y.data_sync(False), x.data_sync()]


def case_fill_v2(ms):
    """``ops.FillV2()(shape, value)`` (tests/st/compiler/fallback's dynamic-shape Cells): the value's
    dtype, a tuple or Int32/Int64 Tensor shape, an empty dimension; its Type- and ValueErrors."""
    T, fill = ms.Tensor, ms.ops.FillV2()
    calls = ((T([2, 3], ms.int32), T(1.5, ms.float32)), ((3, 2), T(2.5, ms.float16)), (T([2, 0], ms.int64), T(7, ms.int32)),
             ((2,), T([4], ms.int8)), (T([2, 3], ms.float32), T(1, ms.float32)), (T([[2, 3]], ms.int32), T(1, ms.float32)),
             (T([2, 3], ms.int64), T([1, 2], ms.float32)), ([2, 3], T(1, ms.float32)), ((2, 3), 1))
    return [_raised_msg(lambda a=a: fill(*a)) for a in calls]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}


def case_cond(ms):
    """``ops.cond(A, p)`` for every matrix ``p``, a Float64 matrix (kept Float64) and a Float64 batch
    (Float32, as MindSpore's batch loop fills Float32), and its gradient (tests/st/ops/test_func_cond.py)."""
    ops, T = ms.ops, ms.Tensor
    x = T(np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]], np.float32))
    out = [ops.cond(x, p) for p in (None, "fro", "nuc", float("inf"), float("-inf"), 1, -1, 2, -2)]
    out.append(ops.cond(T(np.arange(4.).reshape(2, 2) + np.eye(2)), 1))
    out.append(ops.cond(T(np.arange(8.).reshape(2, 2, 2) + np.eye(2)), 1))
    out.append(ops.cond(T(_f32(2, 1, 3, 3, seed=1)), "fro"))
    out.append(ms.grad(lambda a: ops.cond(a, "fro"))(x))
    out.append(ms.grad(lambda a: ops.cond(a))(T(_f32(3, 3, seed=2))))
    return out


def case_cond_errors(ms):
    """Non-square, rank-1 and Int32 inputs raise ``MatrixInverse``'s errors; ``p=3`` ``norm``'s."""
    ops, T = ms.ops, ms.Tensor
    return [_raised(lambda: ops.cond(T(np.ones(s, np.float32)))) for s in ((2, 3), (3,), (2, 3, 2))] + [
        _raised(lambda: ops.cond(T(np.eye(2, dtype=np.float32)), 3)),
        _raised(lambda: ops.cond(T(np.ones((2, 2), np.int32))))]


def case_inverse_shape_errors(ms):
    return ms.ops.inverse(ms.Tensor(np.ones((3, 2), np.float32)))


def case_inverse_rank_error(ms):
    return ms.ops.inverse(ms.Tensor(np.ones((3,), np.float32)))


def case_pad_negative_other_modes(ms):
    """Negative padding crops before 'reflect'/'replicate'/'circular' pad (tests/st/ops/test_func_pad.py)."""
    x = ms.Tensor(np.arange(24, dtype=np.float64).reshape(1, 2, 3, 4))
    return [ms.ops.pad(x, p, m) for m in ("reflect", "replicate", "circular")
            for p in ((-1, 2, 2, 1), (-1, -1, 1, -1), (2, -1, 0, 0))]


def case_pad_ranks(ms):
    """PadV3's rank rules for the non-constant modes: 2, 4 or 6 padding values and 1-D to 5-D inputs."""
    return [_raised(lambda: ms.ops.pad(ms.Tensor(np.ones((3,) * nd, np.float32)), (1,) * k, m).shape)
            for m in ("reflect", "replicate", "circular") for nd in (1, 2, 3, 4, 5) for k in (2, 4, 6)]


def case_pad_crop_one_side_pad_other(ms):
    """Cropping one side and padding the other: 'reflect' reflects the uncropped input (its size check too),
    'circular' wraps the cropped one."""
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(1, 3, 4))
    return [ms.ops.pad(x, p, m) for m in ("reflect", "replicate", "circular")
            for p in ((-1, 3), (-2, 2), (3, -1), (-1, 2, 1, -1))]


def case_pad_rank_mismatch(ms):
    return ms.ops.pad(ms.Tensor(np.ones((1, 2, 3, 4), np.float32)), (1, 1), "replicate")


def case_randn_like_default_float32(ms):
    """``ops.randn_like`` is Float32 by default whatever the input's dtype (``rand_like`` keeps it), seeded
    values included (tests/st/ops/test_func_random_functions.py)."""
    ops = ms.ops
    x16 = ms.Tensor(np.ones((2, 3)), ms.float16)
    xi = ms.Tensor(np.ones((3, 2)), ms.int32)
    ms.set_seed(3)
    return [ops.randn_like(x16, seed=7), ops.randn_like(xi, seed=7), str(ops.randn_like(x16, dtype=ms.float64).dtype),
            str(ops.rand_like(x16).dtype), _raised(lambda: ops.randn_like(x16, dtype=ms.int32)),
            _raised(lambda: ops.randn_like(np.ones(3)))]


def case_hypermap_lists_in_compiled_code(ms):
    """``HyperMap``/``Map`` keep lists lists inside ``ms.jit`` (nested too), tuples tuples; mixed kinds at one
    level raise; PyNative gives tuples (tests/st/ops/test_dynamic_tuple_and_list.py)."""
    ops, T = ms.ops, ms.Tensor

    def add(x, y):
        return x + y

    def hyper(a, b):
        return ops.HyperMap()(add, a, b)

    def one_level(a, b):
        return ops.Map()(add, a, b)

    hm, mp = ms.jit(hyper), ms.jit(one_level)
    return [hm([1, 2], [3, 4]), hm((1, 2), (3, 4)), hm([[1, 2], (3, 4)], [[1, 2], (3, 4)]),
            hm([T(1.), T(2.)], [T(3.), T(4.)]), mp([1, 2], [3, 4]), mp((1, 2), (3, 4)),
            _raised(lambda: hm([1, 2], (3, 4))), hyper([1, 2], [3, 4]), one_level([1, 2], [3, 4]),
            ops.HyperMap()(add, [[1, 2], (3, 4)], [[1, 2], (3, 4)])]


def case_setitem_ellipsis_higher_rank_value(ms):
    """``a[...] = v`` reshapes a value of higher rank to ``a``'s shape (same size, else ValueError); other
    indices do not drop the value's leading unit dims (tests/st/pynative/test_tensor_getitem.py)."""
    a = np.arange(60, dtype=np.float32).reshape(3, 4, 5)

    def put(index, v):
        t = ms.Tensor(a)
        t[index] = ms.Tensor(v)
        return t

    return [put(..., np.arange(60, dtype=np.float32).reshape(1, 3, 4, 5)),
            put(..., np.arange(60, dtype=np.float32).reshape(60, 1, 1, 1)),
            put(..., np.ones((1, 1, 5), np.float32))] + [
        _raised(lambda: put(i, v)) for i, v in ((..., np.ones((2, 3, 4, 5), np.float32)),
                                                (0, np.ones((1, 4, 5), np.float32)),
                                                (slice(None), np.ones((1, 3, 4, 5), np.float32)),
                                                ((...,), np.ones((1, 3, 4, 5), np.float32)),
                                                (..., np.ones((1, 60, 1), np.float32)))]


def case_gradop_by_list_cell_weights_in_reading_order(ms):
    """``GradOperation(get_by_list=True)(cell)`` without weights: the trainable Parameters the forward reads,
    in the order it first reads them (unused ones left out), also on a second (cached) call and through an
    ``ms.jit`` inner Cell (tests/st/pynative/jit/test_pynative_jit.py)."""
    T, P, nn, ops = ms.Tensor, ms.Parameter, ms.nn, ms.ops

    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = P(T(2.0, ms.float32), name="w")

        @ms.jit
        def construct(self, x):
            return x * self.w

    class Outer(nn.Cell):
        def __init__(self, inner_first):
            super().__init__()
            self.u = P(T(7.0, ms.float32), name="u")
            self.p = P(T(3.0, ms.float32), name="p")
            self.q = P(T(4.0, ms.float32), name="q", requires_grad=False)
            self.net = Inner()
            self.inner_first = inner_first

        def construct(self, x):
            if self.inner_first:
                return self.net(x) * self.q * self.p
            return self.net(x * self.p * self.q)

    out = []
    for first in (True, False):
        net = Outer(first)
        by_list, both = ops.GradOperation(get_by_list=True)(net), ops.GradOperation(True, True)(net)
        out += [by_list(T(5.0)), by_list(T(6.0)), both(T(5.0))]
    return out


class _Box:
    """A plain object a compiled call assigns to (module level, as a global of the case)."""


_BOX = _Box()


def case_compiled_call_assigns_outside_attribute(ms):
    """An ``ms.jit`` construct, an ``ms.jit`` function and a GRAPH_MODE-style call that assign a Tensor to an
    attribute of a Python object outside them: the attribute holds each call's value, a gradient call's too
    (tests/st/pynative/jit/test_pynative_jit.py test_jit_pyexecute)."""
    T, nn = ms.Tensor, ms.nn
    _BOX.a = T(np.arange(6, dtype=np.float32))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(T(2.0, ms.float32), name="w")

        @ms.jit
        def construct(self, x):
            _BOX.a = _BOX.a * x
            return _BOX.a + self.w

    def put(x):
        _BOX.b = x + 1
        return x * 2

    net, out = Net(), []
    for x in (2.0, 3.0):
        out += [net(T(x)), _BOX.a]
    ms.ops.GradOperation()(net)(T(2.0))
    out.append(_BOX.a)
    out += [ms.jit(put)(T(5.0)), _BOX.b]
    return out


def case_tuple_of_tensors_plus_tensor_traced(ms):
    """A tuple of Tensors meeting a Tensor in ``+`` is stacked, inside a compiled function and a gradient
    too (``ops.Split``'s tuple + a Parameter under ``vmap`` of a CellList, test_pynative_jit.py)."""
    T, ops = ms.Tensor, ms.ops
    w = ms.Parameter(T(np.array([1.0, 2.0, 3.0], np.float32)), name="w")

    def f(x):
        return ops.ReduceSum()((x, x * 2) + w, 0) * 1.5

    x = T(np.array([1.0, 4.0, 2.0], np.float32))
    return [f(x), ms.jit(f)(x), ms.grad(f)(x), ms.grad(ms.jit(f))(x)]


def case_tensor_add_deprecated(ms):
    """``ops.TensorAdd`` (deprecated name of ``Add``): promotion, a Python number, its gradient."""
    T, ops = ms.Tensor, ms.ops
    return [ops.TensorAdd()(T(np.array([1, 2], np.int32)), T(np.array([1.5, 2], np.float32))),
            ops.TensorAdd()(T(1.0), 2), ms.grad(lambda x: ops.TensorAdd()(x, x * 3))(T(np.ones(2, np.float32)))]


def _case_helper():
    return 0


def case_constexpr_function_argument_in_graph(ms):
    """``@constexpr`` in compiled code gets a function argument (Python, builtin, ``ops`` function) as
    ``None``; objects, classes, numbers and tuples as they are; in PyNative the function itself
    (tests/st/pynative/test_constexpr.py)."""
    ops = ms.ops

    class Thing:
        pass

    thing = Thing()

    @ops.constexpr(check=False)
    def show(v):
        return type(v).__name__ + ":" + (repr(v) if isinstance(v, (int, float, str, tuple, type(None))) else "")

    def body(x):
        return (show(_case_helper), show(3), show(None), show((1, 2)), show(thing), show(len), show(ops.add),
                show(x.shape), show(Thing))

    return [ms.jit(body)(ms.Tensor(1.0)), body(ms.Tensor(1.0))]


def case_standard_method_functions(ms):
    """``mindspore._extends.parse.standard_method``: Tensor methods as functions of the Tensor, called in
    compiled code as MindSpore's graphs call them (tests/st/ops/test_constexpr_modfied.py)."""
    import importlib
    sm = importlib.import_module(ms.__name__ + "._extends.parse.standard_method")
    T = ms.Tensor

    def body(a, idx, s):
        return (sm.take(a, idx), sm.choose(idx, [[0, 1], [10, 11], [20, 21], [30, 31], [40, 41]]),
                sm.searchsorted(s, T(np.array([2.5, 0.5], np.float32))), sm.var(a), sm.reshape(a, (3, 2)),
                sm.swapaxes(a, 0, 1), sm.topk(s, 2), sm.argmax(a, None), sm.unsqueeze(a, 0), sm.diagonal(a),
                sm.squeeze(sm.unsqueeze(s, 0), 0), sm.tensor_bool(s[0]))

    a = T(np.array([[4.0, 9.0, 2.0], [10.0, 1.0, 3.0]], np.float32))
    return ms.jit(body)(a, T(np.array([0, 4], np.int32)), T(np.array([1.0, 2.0, 3.0], np.float32)))


def case_tensor_choose(ms):
    """``Tensor.choose``: list and Tensor choices, out-of-range indices clipped or wrapped, a non-Tensor
    choice Int64 (float values truncated), mixed dtypes and 0-d inputs raise."""
    T = ms.Tensor
    choices = [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]
    a, far = T(np.array([2, 3, 1, 0])), T(np.array([5, -1, 1, 0]))
    return [a.choose(choices), a.choose(T(np.array(choices, np.float32))), far.choose(choices),
            far.choose(choices, "wrap"), T(np.array([0, 1])).choose([[1.5, 2.7], [3.9, -4.6]]),
            T(np.array([0, 1])).choose([T([1.5, 2.7]), T([3.9, -4.6])]),
            _raised(lambda: T(np.array([[0], [1]], np.int32)).choose((T(np.array([1., 2.], np.float32)), [7, 8]))),
            _raised(lambda: T(1).choose([[1, 2]]))]


def case_contiguous_tensors_handle(ms):
    """``mindspore.hal.contiguous_tensors_handle``: the Tensors laid end to end (CPU: no padding), index and
    slice reads, ``slice_by_tensor_index``, sizes, ``str``, the errors (test_combine_contiguous_handle.py)."""
    import importlib
    h = importlib.import_module(ms.__name__ + ".hal.contiguous_tensors_handle")
    T = ms.Tensor
    x, y = T(np.array([1, 2, 3], np.float32)), T(np.array([[4, 5], [6, 7]], np.float32))
    handle = h.combine_tensor_list_contiguous([x, y, x + 1], True)
    return [handle[1], handle[0:2], handle[3:], handle[:4], handle.slice_by_tensor_index(1),
            handle.slice_by_tensor_index(0, 2), handle.slice_by_tensor_index(), handle.total_padding_size,
            handle.handle_shape, list(handle.before_padding_sizes), str(handle),
            _raised(lambda: handle[2:2]), _raised(lambda: handle[0:99]), _raised(lambda: handle["a"]),
            _raised(lambda: handle[99]), _raised(lambda: handle.slice_by_tensor_index(2, 1)),
            _raised(lambda: h.combine_tensor_list_contiguous([x, 1])), _raised(lambda: h.ContiguousTensorsHandle(x)),
            _raised(lambda: h.ContiguousTensorsHandle([x], 1))]


def case_polygamma(ms):
    """``ops.polygamma``/``ops.Polygamma`` (tests/st/ops/test_polygamma.py): orders 0..4 and -1 on float16/32/64
    with poles, zero and infinities, the input gradient, and the type and rank errors."""
    T = ms.Tensor
    x = np.array([1, 0.4273, 9, -3.12, 0., -2., 1e-3, np.inf, -np.inf, np.nan, 13250], np.float32)
    out = [ms.ops.polygamma(T(np.array(n, np.int64)), T(x.astype(dt))) for n in (0, 1, 2, 3, 4, -1)
           for dt in (np.float32, np.float64)]
    out += [ms.ops.polygamma(T(np.array(n, np.int32)), T(x[:4].astype(np.float16))) for n in (1, 2)]
    out.append(ms.ops.Polygamma()(T(np.array(2, np.int32)), T(x[:4])))
    xx = T(np.array([0.5, 2.0, -3.12], np.float32))
    out += [ms.ops.grad(lambda t, n=n: ms.ops.polygamma(T(np.array(n, np.int64)), t).sum())(xx) for n in (0, 1, 2)]
    xf = T(x)
    out += [_raised(lambda: ms.ops.polygamma(1, xf)), _raised(lambda: ms.ops.polygamma(T(1.0), xf)),
            _raised(lambda: ms.ops.polygamma(T(np.array(1, np.int16)), xf)),
            _raised(lambda: ms.ops.polygamma(T(np.array([1, 2])), xf)),
            _raised(lambda: ms.ops.polygamma(T(1), T(np.array([1, 2], np.int32))))]
    return out


def case_upsample_3d_scale_factor(ms):
    """``interpolate_ext`` trilinear and nearest on 5-D input by float scale factors (trilinear samples
    with ``1 / scale``, tests/st/ops/test_ops_upsample_trilinear3d.py; nearest with in / out in 1-D, 2-D
    and 3-D), their gradients, Float64/Float16/UInt8
    inputs, and the errors of test_upsample_*_3d_error (Int32 input first: MindSpore's PyNative reports a
    pending shape error in place of a later dtype error; rank, int scales, lengths)."""
    from importlib import import_module
    nf = import_module(ms.__name__ + ".ops.function.nn_func")
    T = ms.Tensor
    x = T(_f32(1, 2, 2, 3, 3, seed=5))
    tri = lambda v: nf.interpolate_ext(v, None, [1.5, 2.0, 2.5], "trilinear", False)  # noqa: E731
    near = lambda v: nf.interpolate_ext(v, None, [1.5, 2.0, 2.5], "nearest")  # noqa: E731
    ones = lambda shape, dt=np.float32: T(np.ones(shape, dt))  # noqa: E731
    five = (2, 2, 2, 2, 2)
    return [tri(x), ms.grad(tri)(x), near(x), ms.grad(near)(x),
            nf.interpolate_ext(x, None, [0.5, 1.0, 1.7], "trilinear", True),
            nf.interpolate_ext(T(_f32(1, 1, 2, 2, 3).astype(np.float64)), None, (2.0, 1.5, 1.5), "trilinear"),
            nf.interpolate_ext(T(_f32(1, 1, 2, 2, 3).astype(np.float16)), (3, 3, 4), None, "nearest"),
            nf.interpolate_ext(T(np.arange(12, dtype=np.uint8).reshape(1, 1, 2, 2, 3)), None, 1.5, "nearest"),
            [nf.interpolate_ext(T(np.arange(3, dtype=np.float32).reshape((1, 1) + (1,) * k + (3,))), None,
                                (1.0,) * k + (2.3,), "nearest") for k in range(3)],
            [_raised(lambda m=m: nf.interpolate_ext(ones(five, np.int32), [3, 4, 5], None, m)) for m in
             ("nearest", "trilinear")],
            [_raised(lambda m=m: nf.interpolate_ext(ones((2, 2, 2, 2)), [3, 4, 5], None, m)) for m in
             ("nearest", "trilinear")],
            [_raised(lambda m=m, s=s: nf.interpolate_ext(ones(five), None, s, m)) for m in ("nearest", "trilinear")
             for s in ([1, 2, 3], 2, [1.0, 2.0, 3.0, 4.0])],
            [_raised(lambda m=m: nf.interpolate_ext(ones(five), [3, 4], None, m)) for m in ("nearest", "trilinear")]]


def case_upsample_3d_grad_prims(ms):
    """``ops.auto_generate.UpsampleNearest3DGrad`` and ``UpsampleTrilinear3DGrad`` (test_vmap_upsample_*_grad):
    by output size and by scales, align_corners both ways, under ``ops.vmap``, and their ValueErrors."""
    A, T = ms.ops.auto_generate, ms.Tensor
    dy = T(_f32(1, 1, 2, 3, 4, seed=7))
    near, tri = A.UpsampleNearest3DGrad(), A.UpsampleTrilinear3DGrad(False)
    batch = T(_f32(3, 1, 1, 2, 3, 4, seed=8))

    def near_by_size(g):
        return near(g, (1, 1, 2, 2, 2), [2, 3, 4], None)

    def tri_by_size(g):
        return tri(g, (1, 1, 2, 2, 3), [2, 3, 4], None)

    return [near(dy, (1, 1, 2, 2, 2), [2, 3, 4], None), near(dy, (1, 1, 1, 2, 2), None, [2.0, 1.5, 2.0]),
            near(T(_f32(1, 1, 2, 2, 6, seed=9)), (1, 1, 1, 1, 3), None, [2.0, 2.0, 2.3]),
            tri(dy, (1, 1, 2, 2, 3), [2, 3, 4], None),
            A.UpsampleTrilinear3DGrad(True)(dy, (1, 1, 2, 2, 3), [2, 3, 4], None),
            tri(dy, (1, 1, 1, 2, 2), None, [2.0, 1.5, 2.0]),
            ms.ops.vmap(near_by_size)(batch), ms.ops.vmap(tri_by_size)(batch),
            _raised(lambda: near(dy, (1, 1, 2, 2, 2), None, None)),
            _raised(lambda: near(dy, (1, 1, 2, 2, 2), [2, 3, 4], [1.0, 1.5, 2.0])),
            _raised(lambda: tri(dy, (1, 1, 2, 2, 2), [2, 3, 5], None))]


def case_mint_diff_n(ms):
    """``mint.diff`` (MindSpore's ``diff_ext``, tests/st/mint/test_diff.py): any ``n`` with
    ``prepend``/``append`` on either dimension, bool and int inputs, ``n`` past the length, the
    input gradient, and its TypeErrors (float64, int16, a float ``n``, a list ``dim``)."""
    T, mint = ms.Tensor, ms.mint
    x = T(_f32(2, 3, 5, seed=3))
    pre, app = T(_f32(2, 3, 2, seed=4)), T(_f32(2, 3, 3, seed=5))
    b = T(np.array([[True, False, False, True], [False, False, True, True]]))
    i = T(np.array([1, 4, 9, 16, 25], np.int32))
    grad = ms.grad(lambda t: mint.diff(t, 2, -1, pre, app) * T(_f32(2, 3, 8, seed=6)))(x)
    return [mint.diff(x), mint.diff(x, 2, -1, pre, app), mint.diff(x, 3, 1), mint.diff(x, 0, -1, pre),
            mint.diff(x, 7), mint.diff(x, 2, 2, None, app), mint.diff(b, 2), mint.diff(i, 2), grad,
            _raised(lambda: mint.diff(T(np.ones(4, np.float64)))), _raised(lambda: mint.diff(T(np.ones(4, np.int16)))),
            _raised(lambda: mint.diff(x, 1.0)), _raised(lambda: mint.diff(x, 1, [0])),
            _raised(lambda: mint.diff(np.ones(4, np.float32)))]



def case_mint_clamp_bool(ms):
    """tests/st/mint/overload/test_mint_clamp.py: ``mint.clamp``/``clip``, ``ops.clamp`` and
    ``Tensor.clamp`` reject a bool input or bound with ValueError (results first: MindSpore's
    PyNative raises the error again on the next Tensors read)."""
    T, mint = ms.Tensor, ms.mint
    x = T(np.array([[1., 25., 5., 7.], [4., 11., 6., 21.]], np.float32))
    xb, xi = T(np.array([True, False])), T(np.array([1, 5], np.int32))
    out = [mint.clamp(xi, 2.5, 4), mint.clamp(x, 2, 8)]
    return [o.asnumpy() for o in out] + [
        _raised(lambda: mint.clamp(x, 5, True)), _raised(lambda: mint.clamp(x, True)),
        _raised(lambda: mint.clamp(xb, 0, 1)), _raised(lambda: mint.clamp(x, T(True))),
        _raised(lambda: ms.ops.clamp(x, 5, True)), _raised(lambda: x.clamp(5, True)),
        _raised(lambda: mint.clip(x, True))]


def case_mint_max_min_overloads(ms):
    """tests/st/mint/overload/test_mint_max.py, test_mint_min.py: ``mint.max``/``min`` take a float
    or bool second argument as ``other``, an int as ``dim``, and raise TypeError for an explicit
    ``dim=None``, a ``keepdim`` alone, a None or int ``keepdim`` and a NumPy input."""
    T, mint = ms.Tensor, ms.mint
    x = T(np.array([[1., 25., 5., 7.], [4., 11., 6., 21.]], np.float32))
    out = []
    for f in (mint.max, mint.min):
        out += [f(x), f(x, 1), f(x, 0, True), f(x, 6.5), f(x, True), f(x, T(np.full((2, 4), 6.0, np.float32))),
                _raised(lambda f=f: f(x, None)), _raised(lambda f=f: f(x, dim=None)),
                _raised(lambda f=f: f(x, 0, keepdim=None)), _raised(lambda f=f: f(x, 0, 1)),
                _raised(lambda f=f: f(x, None, True)), _raised(lambda f=f: f(x, keepdim=True)),
                _raised(lambda f=f: f(x.asnumpy())), _raised(lambda f=f: f(x.asnumpy(), -1, True))]
    return out



def _scatter_prim_inputs(ms):
    T = ms.Tensor
    return (ms.ops.auto_generate.Scatter(), ms.ops.auto_generate.ScatterValue(), T(_f32(3, 4, seed=11)),
            T(np.array([[0, 1, 2], [2, 0, 1]], np.int64)), T(_f32(2, 3, seed=12)))


def case_scatter_prims(ms):
    """``ops.auto_generate.Scatter`` and ``ScatterValue`` (tests/st/mint/test_scatter.py) along
    either dimension (distinct positions: MindSpore's order for repeated ones varies), Int32
    indices, both gradients, and their errors (a non-str or unknown ``reduce``, a Tensor
    ``ScatterValue`` src, mismatched dtypes). ``'add'`` is its own case (MindSpore's PyNative op
    cache ignores ``reduce`` after a plain call); ``'multiply'`` is left out: MindSpore 2.10's CPU
    kernel adds (tests/test_mint_st.py)."""
    S, V, x, idx, src = _scatter_prim_inputs(ms)
    grads = ms.grad(lambda a, b: S(a, 1, idx, b) * ms.Tensor(_f32(3, 4, seed=13)), (0, 1))(x, src)
    out = [S(x, 1, idx, src), S(x, 0, idx, src), V(x, 1, idx, 2.5), S(x, 1, idx.astype(ms.int32), src), grads,
           ms.grad(lambda a: V(a, 0, idx, 3.0))(x)]
    return [o.asnumpy() if hasattr(o, "asnumpy") else o for o in out] + [
        _raised(lambda: S(x, 1, idx, src, 1)), _raised(lambda: S(x, 1, idx, src, "max")),
        _raised(lambda: V(x, 0, idx, src)), _raised(lambda: S(x, 1, idx, src.astype(ms.float16)))]


def case_scatter_prims_add(ms):
    """``Scatter``/``ScatterValue`` with ``reduce='add'``: repeated positions accumulate."""
    S, V, x, _, src = _scatter_prim_inputs(ms)
    idx = ms.Tensor(np.array([[0, 1, 2], [2, 1, 0]], np.int64))
    return [S(x, 0, idx, src, "add").asnumpy(), V(x, 0, idx, 1.5, "add").asnumpy(),
            S(x, 1, idx, src, "add").asnumpy()]


def _inner_ops(ms):
    from importlib import import_module
    return import_module(ms.__name__ + ".ops.operations._inner_ops")


def case_convert_to_dynamic(ms):
    """``_inner_ops.ConvertToDynamic`` (tests/st/ops/dynamic_shape/grad's DynamicGradNet): the input's
    values, dtype and shape for several dtypes and ranks (a 0-D Tensor too), the gradient through it
    in a GradOperation net, and ``F.is_sequence_value_unknown``/``is_sequence_shape_unknown`` on
    known tuples, lists and a Tensor's shape."""
    T, F = ms.Tensor, ms.ops.functional
    conv, conv_rank = _inner_ops(ms).ConvertToDynamic(), _inner_ops(ms).ConvertToDynamic(is_dynamic_rank=True)
    out = []
    for x in (T(_f32(2, 3)), T(np.arange(6, dtype=np.int32).reshape(3, 2)), T(_f32(4).astype(np.float16)),
              T(np.array(2.5, np.float32)), T(np.array([True, False]))):
        out += [conv(x), conv_rank(x)]

    class Net(ms.nn.Cell):
        def construct(self, a, b):
            return conv(a) * conv_rank(b) + conv(a * b)
    a, b = T(_f32(2, 3, seed=1)), T(_f32(2, 3, seed=2))
    out.append(ms.ops.GradOperation(get_all=True)(Net())(a, b))
    out += [F.is_sequence_value_unknown((2, 3)), F.is_sequence_value_unknown([1]), F.is_sequence_value_unknown(()),
            F.is_sequence_shape_unknown(a.shape), F.is_sequence_shape_unknown([1, 2]),
            ms.ops.is_sequence_value_unknown(a.shape)]
    return out


def case_err_convert_to_dynamic_not_tensor(ms):
    return _inner_ops(ms).ConvertToDynamic()(1.5)


def case_err_convert_to_dynamic_rank_not_bool(ms):
    return _inner_ops(ms).ConvertToDynamic(is_dynamic_rank=1)


def case_err_is_sequence_value_unknown_int(ms):
    return ms.ops.functional.is_sequence_value_unknown(1)


def case_err_is_sequence_shape_unknown_tensor(ms):
    return ms.ops.functional.is_sequence_shape_unknown(ms.Tensor(np.ones(2, np.float32)))



def _sequence_ops(ms):
    from importlib import import_module
    return import_module(ms.__name__ + ".ops.operations._sequence_ops")


def _graph(ms, prim):
    """``prim`` called in a compiled function: MindSpore runs these Primitives in graphs (its PyNative
    lacks kernels for several)."""
    @ms.jit
    def run(*args):
        return prim(*args)
    return run


def case_sequence_ops(ms):
    """``_sequence_ops``' Primitives (tests/st/ops/dynamic_sequence) on tuples and lists of Python
    numbers and of Tensors, in compiled functions: slices, add and its offsets, count/index, mul,
    max/min, AddN, stack/unstack, Tensor <-> tuple/list/scalar, append/insert, len, shape_mul,
    comparisons."""
    S, T, m = _sequence_ops(ms), ms.Tensor, ms.mutable
    t1, t2 = T(_f32(2, 3, seed=1)), T(_f32(2, 3, seed=2))
    calls = [(S.SequenceSlice(), (1, 2, 3, 4, 5, 6), 1, 5, 2), (S.SequenceSlice(), m((1, 2, 3, 4), True), -3, 4, 1),
             (S.SequenceSlice(), m((1, 2, 3, 4, 5, 6), True), 5, 0, -2), (S.SequenceSlice(), (t1, t2, t1), 0, 2, 1),
             (S.SequenceAdd(), m((1, 2), True), (3, 4, 5)), (S.SequenceAdd(), m([1.5], True), [2.5]),
             (S.SequenceAddOffset(), m((1, 2, 3), True), m((4, 5), True)),
             (S.SequenceCount(), m((1, 2, 1, 3, 1), True), 1), (S.SequenceIndex(), m((5, 6, 7, 6), True), 6, 2, 4),
             (S.SequenceMul(), m((1, 2), True), 3), (S.SequenceMul(), (1, 2), m(2)),
             (S.SequenceMax(), m((3, -1, 7, 2), True)), (S.SequenceMin(), m((3, -1, 7, 2), True)),
             (S.SequenceMax(), m((1.5, 2.5, -3.0), True)), (S.SequenceAddN(), m((1, 2, 3, 4), True)),
             (S.SequenceAddN(), m((t1, t2, t1), True)), (S.SequenceStack(), m((t1, t2), True)),
             (S.SequenceStack(axis=-1), m((t1, t2), True)), (S.SequenceStack(axis=1), m([t1, t2, t1], True)),
             (S.SequenceUnstack(), t1), (S.SequenceUnstack(axis=1), t2), (S.SequenceUnstack(axis=-1, num=3), t1),
             (S.TupleToTensor(), m((1, 2, 3), True), ms.float32), (S.TupleToTensor(), (1, 2), ms.int32),
             (S.TensorToTuple(), T(np.array([1, 2, 3], np.int64))), (S.TensorToScalar(), T(np.array(2.5, np.float32))),
             (S.ListAppend(), m([1, 2], True), 3), (S.ListInsert(), m([1, 2, 3], True), 1, 9),
             (S.InSequence(), 2, m((1, 2, 3), True)), (S.InSequence(), 5, m([1, 2, 3], True)),
             (S.sequence_len(), m((1, 2, 3), True)), (S.shape_mul(), m((2, 3, 4), True)),
             (S.tuple_equal(), m((1, 2), True), (1, 2)), (S.tuple_equal(), m((1, 2), True), (1, 3)),
             (S.tuple_greater_than(), m((2, 3), True), (2, 1)), (S.tuple_greater_equal(), m((1, 2), True), (1, 2, 3)),
             (S.tuple_lt(), m((1, 2), True), (1, 3)), (S.tuple_le(), m((1, 2), True), (1, 2)),
             (S.list_lt(), m([2], True), [1]), (S.list_le(), m([3], True), [3])]
    return [_raised(lambda: _graph(ms, c[0])(*c[1:])) for c in calls]


def case_sequence_ops_errors(ms):
    """``_sequence_ops``: the errors of ``shape_mul`` on a list and of ``SequenceStack``/``SequenceUnstack``
    arguments that are not ints."""
    S = _sequence_ops(ms)
    return [_raised(lambda: S.shape_mul()([2, 3])), _raised(lambda: S.SequenceStack(axis=1.5)),
            _raised(lambda: S.SequenceUnstack(axis="0")), _raised(lambda: S.SequenceUnstack(num=2.0))]


def case_tuple_list_setitem_shape_mul(ms):
    """``F.tuple_setitem``, ``F.list_setitem`` (new sequences; the input is not changed) and ``F.shape_mul``
    (tests/st/ops/dynamic_sequence/test_dynamic_sequence_setitem.py, test_dynamic_shape_mul.py),
    in range and at negative indices."""
    F = ms.ops.functional
    lst = [1, 2, 3]
    out = [F.tuple_setitem((1, 2, 3), 1, 9), F.tuple_setitem((1, 2, 3), -1, 9), F.tuple_setitem((1, 2, 3), -3, 0.5),
           F.list_setitem(lst, 0, 7), F.list_setitem(lst, -2, 4.5), lst, F.shape_mul((2, 3, 4)), F.shape_mul((5,)),
           F.shape_mul(())]
    return out


def case_err_tuple_setitem_out_of_range(ms):
    return ms.ops.functional.tuple_setitem((1, 2, 3), 3, 9)


def case_err_tuple_setitem_negative_out_of_range(ms):
    return ms.ops.functional.tuple_setitem((1, 2, 3), -4, 9)


def case_err_tuple_setitem_list(ms):
    return ms.ops.functional.tuple_setitem([1, 2, 3], 0, 9)


def case_err_tuple_setitem_float_index(ms):
    return ms.ops.functional.tuple_setitem((1, 2, 3), 1.0, 9)


def case_err_list_setitem_out_of_range(ms):
    return ms.ops.functional.list_setitem([1, 2, 3], 5, 9)


def case_err_list_setitem_tuple(ms):
    return ms.ops.functional.list_setitem((1, 2, 3), 0, 9)


def case_err_shape_mul_list(ms):
    return ms.ops.functional.shape_mul([2, 3])


def case_dyn_shape(ms):
    """``ops.dyn_shape`` (tests/st/ops/dynamic_shape/test_dynamic_getitem.py): the shape as an Int64
    Tensor for several ranks (0-D: an empty one), its use as an index bound in a compiled function,
    and a gradient through a net that reads it."""
    T, ops = ms.Tensor, ms.ops
    x = T(_f32(2, 3, 4))
    out = [ops.dyn_shape(x), ops.dyn_shape(T(np.array(1.5, np.float32))), ops.dyn_shape(T(np.zeros((0, 5), np.int32))),
           ops.TensorShape()(x)]

    @ms.jit
    def bound(a):
        n = ops.dyn_shape(a)[1]
        return a[:, 1:n:2]
    out.append(bound(x))
    out.append(ms.grad(lambda a: (a * ops.dyn_shape(a)[0].astype(ms.float32)).sum())(x))
    return out


def case_dyn_shape_errors(ms):
    """``ops.dyn_shape`` and ``TensorShape`` on a number, a list and None: TypeError."""
    return [_raised(lambda: ms.ops.dyn_shape(1)), _raised(lambda: ms.ops.dyn_shape([1, 2])),
            _raised(lambda: ms.ops.TensorShape()(None))]


def case_err_dyn_shape_int(ms):
    return ms.ops.dyn_shape(1)


def case_err_tensor_shape_list(ms):
    return ms.ops.TensorShape()([1, 2])


def _op_cell(ms, op):
    """A Cell whose ``construct(a, b)`` is ``op(a, b)`` (GradOperation of a Primitive)."""
    class OpCell(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = op

        def construct(self, a, b):
            return self.op(a, b)
    return OpCell()


def case_xlogy_xdivy_nextafter_primitives(ms):
    """``ops.Xlogy``, ``ops.Xdivy``, ``ops.NextAfter`` (tests/st/ops/dynamic_shape/grad): values with zeros in
    either input, broadcasting, float16/float64, and each one's input gradients in a GradOperation net."""
    T, ops = ms.Tensor, ms.ops
    x = T(np.array([-5, 0, 4, 0.5], np.float32))
    y = T(np.array([2, 2, 0.5, 3], np.float32))
    out = []
    for prim in (ops.Xlogy(), ops.Xdivy(), ops.NextAfter()):
        out += [prim(x, y), prim(T(_f32(2, 3, seed=1)), T(np.abs(_f32(3, seed=2)) + 0.5)),
                prim(T(np.array([0.0, 1.5], np.float64)), T(np.array([0.1, 2.0], np.float64)))]
        out.append(ops.GradOperation(get_all=True)(_op_cell(ms, prim))(x, y))
    out += [ops.Xlogy()(T(np.array([1.0, 2.0], np.float16)), T(np.array([3.0, 0.5], np.float16))),
            ops.Xdivy()(T(np.array([0.0, 2.0], np.float16)), T(np.array([0.0, 4.0], np.float16)))]
    return out


def case_add_v2(ms):
    """``math_ops.AddV2`` (tests/st/ops/dynamic_shape/grad/test_add_v2.py): same-shape inputs of several
    dtypes and mixed dtypes, uint8 wrapping, its gradients (an Int32 input gets Int32 ones), and the
    errors for broadcasting shapes, a number and Bools."""
    T = ms.Tensor
    from importlib import import_module
    add_v2 = import_module(ms.__name__ + ".ops.operations.math_ops").AddV2()
    f, i = T(np.array([1.5, 2.5], np.float32)), T(np.array([1, 2], np.int32))
    out = [add_v2(f, f), add_v2(i, i), add_v2(f, i), add_v2(i, T(np.array([1, 2], np.int64))),
           add_v2(T(np.array([1, 2], np.uint8)), T(np.array([255, 1], np.uint8))),
           add_v2(T(_f32(2, 3).astype(np.float16)), T(_f32(2, 3, seed=1).astype(np.float16))),
           ms.grad(lambda p, q: add_v2(p, q).sum(), (0, 1))(f, i)]
    for args in ((f, T(np.ones((3, 1), np.float32))), (f, 1.0), (1, i), (f, T(np.ones(3, np.float32))),
                 (T(np.array([True])), T(np.array([False])))):
        out.append(_raised(lambda: add_v2(*args)))
    return out


def case_err_add_v2_bool(ms):
    from importlib import import_module
    return import_module(ms.__name__ + ".ops.operations.math_ops").AddV2()(ms.Tensor(np.array([True])),
                                                                           ms.Tensor(np.array([False])))


def case_err_add_v2_shapes(ms):
    from importlib import import_module
    return import_module(ms.__name__ + ".ops.operations.math_ops").AddV2()(ms.Tensor(np.ones(2, np.float32)),
                                                                           ms.Tensor(np.ones((3, 1), np.float32)))


def case_unsorted_segment_prod_grad(ms):
    """``UnsortedSegmentProd``'s gradient (tests/st/ops/dynamic_shape/grad/test_unsorted_segment_prod.py):
    repeated ids, segments holding one zero and two zeros, an empty segment, a negative id (dropped),
    2-D data with 1-D ids, and a sensitivity that is not ones."""
    T, ops = ms.Tensor, ms.ops
    usp = ops.UnsortedSegmentProd()

    class Net(ms.nn.Cell):
        def __init__(self, n):
            super().__init__()
            self.n = n

        def construct(self, x, ids):
            return usp(x, ids, self.n)
    out = []
    for x, ids, n in ((np.array([[1, 2, 3], [4, 5, 6], [4, 2, 1]], np.float32), np.array([0, 1, 1], np.int32), 2),
                      (np.array([2.0, 0.0, 3.0, 0.0, 0.0, 5.0, 1.5], np.float32), np.array([0, 0, 1, 1, 2, 2, -1], np.int32), 4),
                      (_f32(4, 2, seed=3), np.array([1, 0, 1, 1], np.int32), 3)):
        g = ops.GradOperation(get_all=True)(Net(n))(T(x), T(ids))
        out += [usp(T(x), T(ids), n), g[0]]
    x = T(_f32(5, seed=4))
    sens = T(np.array([1.5, -2.0], np.float32))
    out.append(ops.GradOperation(get_all=True, sens_param=True)(Net(2))(x, T(np.array([1, 0, 1, 0, 0], np.int32)), sens)[0])
    return out


def case_inner_clip_by_norm(ms):
    """``_inner_ops.ClipByNorm`` (tests/st/ops/dynamic_shape/grad/test_clip_by_norm.py) over all dimensions
    (MindSpore 2.10's CPU kernel takes a norm over fewer axes from the wrong elements: those are checked
    against NumPy in tests/test_clip_by_norm_primitive.py): clipped and unclipped inputs, float16 input
    (Float32 out), the gradients of both inputs, an axis that leaves the input unclipped, and its
    argument errors."""
    T, inner = ms.Tensor, _inner_ops(ms)
    np.random.seed(1)
    x = T(np.random.rand(3, 4, 5).astype(np.float32))
    out = [inner.ClipByNorm()(x, T(np.array([0.5], np.float32))), inner.ClipByNorm(0)(x, T(np.array(100.0, np.float32))),
           inner.ClipByNorm((0, 1, 2))(x, T(np.array([0.01], np.float32))),
           inner.ClipByNorm([0, 1])(T(_f32(2, 3).astype(np.float16)), T(np.array([0.3], np.float16))),
           inner.ClipByNorm()(x, T(np.array(100.0, np.float32)))]

    class Net(ms.nn.Cell):
        def __init__(self, axis):
            super().__init__()
            self.op = inner.ClipByNorm(axis)

        def construct(self, a, b):
            return self.op(a, b)
    for axis, c in ((None, 0.01), (None, 0.5), ((0, 1, 2), 100.0)):
        out.append(ms.ops.GradOperation(get_all=True)(Net(axis))(x, T(np.array([c], np.float32))))
    out += [_raised(lambda: inner.ClipByNorm(1.5)), _raised(lambda: inner.ClipByNorm((0, 1.0))),
            _raised(lambda: inner.ClipByNorm(0)(T(np.ones(3, np.float64)), T(np.array(1.0, np.float32)))),
            _raised(lambda: inner.ClipByNorm(0)(x, T(np.array(1, np.int32)))),
            _raised(lambda: inner.ClipByNorm(0)(x, 1.0)), _raised(lambda: inner.ClipByNorm(3)(x, T(np.array(1.0))))]
    return out


def case_padding_primitive(ms):
    """``ops.Padding`` (tests/st/ops/dynamic_shape/grad/test_padding.py): zeros after the last dimension
    (size 1) up to ``pad_dim_size``, default 8, ranks 2 and 3, Int32, its gradient, and its errors."""
    T, P = ms.Tensor, ms.ops.operations
    x = T(np.array([[8], [10]], np.float32))
    w = T(np.array([[1, 2, 3], [4, 5, 6]], np.float32))
    out = [P.Padding(4)(x), P.Padding()(T(np.array([[[1], [2]]], np.int32))), P.Padding(1)(x),
           ms.grad(lambda a: (P.Padding(3)(a) * w).sum())(x)]
    out += [_raised(lambda: P.Padding(0)), _raised(lambda: P.Padding(1.5)),
            _raised(lambda: P.Padding(4)(T(np.ones((2, 2), np.float32)))),
            _raised(lambda: P.Padding(4)(T(np.ones(2, np.float32))))]
    return out


def case_embedding_lookup_primitive(ms):
    """``ops.EmbeddingLookup`` (tests/st/ops/dynamic_shape/test_embedding_lookup_dyn.py): rows
    ``indices - offset``, zeros outside the table, 2-D indices, a 1-D Int64 table, a Tensor offset, and
    the errors of a float offset, a 3-D table and float indices."""
    T, P = ms.Tensor, ms.ops.operations
    params = T(np.array([[8, 9], [10, 11], [12, 13], [14, 15]], np.float32))
    idx = T(np.array([[5, 2], [8, 5]], np.int32))
    out = [P.EmbeddingLookup()(params, idx, 4), P.EmbeddingLookup()(params, T(np.array([0, 1, 3, -1, 4], np.int32)), 0),
           P.EmbeddingLookup()(T(np.arange(4, dtype=np.int64) * 3), T(np.array([[2, 0], [4, 1]], np.int64)), 1),
           P.EmbeddingLookup()(params, idx, T(np.array(1, np.int32)))]
    out += [_raised(lambda: P.EmbeddingLookup()(params, idx, 1.5)),
            _raised(lambda: P.EmbeddingLookup()(T(np.ones((3, 2, 2), np.float32)), idx, 0)),
            _raised(lambda: P.EmbeddingLookup()(params, T(np.array([1.0], np.float32)), 0))]
    return out


def case_matrix_diag_v3_family(ms):
    """``array_ops.MatrixDiagPartV3``, ``MatrixDiagV3``, ``MatrixSetDiagV3`` (tests/st/ops/dynamic_shape/grad):
    every align, single diagonals and bands reaching above and below, padding values, wide and tall
    matrices, explicit and inferred output sizes, and the gradients of each in GradOperation nets."""
    from importlib import import_module
    A, T, i32 = import_module(ms.__name__ + ".ops.operations.array_ops"), ms.Tensor, ms.int32
    x = T(_f32(2, 3, 4, seed=5))
    tall = T(_f32(5, 3, seed=6))
    out = []
    for align in ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT"):
        part, diag = A.MatrixDiagPartV3(align=align), A.MatrixDiagV3(align=align)
        for m, k in ((x, T(np.array([-1, 2], np.int32))), (x, T(1, i32)), (tall, T(np.array([-2, 0], np.int32))),
                     (tall, T(np.array([-4, 2], np.int32)))):
            band = part(m, k, T(np.array(9.0, np.float32)))
            rows, cols = (-1, -1) if m is x else m.shape
            out += [band, diag(band, k, T(rows, i32), T(cols, i32), T(np.array(0.5, np.float32)))]
        out.append(A.MatrixSetDiagV3(align=align)(x, T(_f32(2, 4, 3, seed=7)), T(np.array([-1, 2], np.int32))))
    out += [A.MatrixDiagV3()(T(_f32(3, seed=8)), T(0, i32), T(4, i32), T(-1, i32), T(np.array(0.0, np.float32))),
            A.MatrixDiagV3()(T(_f32(2, 3, seed=9)), T(np.array([0, 1], np.int32)), T(3, i32), T(5, i32),
                             T(np.array(-1.0, np.float32))),
            A.MatrixSetDiagV3()(x, T(_f32(2, 3, seed=10)), T(0, i32)),
            _raised(lambda: A.MatrixDiagV3()(T(_f32(7, 3, seed=8)), T(np.array([-4, 2], np.int32)), T(-1, i32),
                                             T(-1, i32), T(np.array(0.0, np.float32))))]

    class Part(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = A.MatrixDiagPartV3(align="RIGHT_LEFT")

        def construct(self, a, k, p):
            return self.op(a, k, p)

    class SetDiag(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = A.MatrixSetDiagV3()

        def construct(self, a, d, k):
            return self.op(a, d, k)

    class Diag(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = A.MatrixDiagV3(align="LEFT_RIGHT")

        def construct(self, d, k, r, c, p):
            return self.op(d, k, r, c, p)
    grad = ms.ops.GradOperation(get_all=True)
    k = T(np.array([-1, 1], np.int32))
    out.append(grad(Part())(x, k, T(np.array(9.0, np.float32)))[0::2])
    out.append(grad(SetDiag())(x, T(_f32(2, 3, 3, seed=11)), k)[:2])
    out.append(grad(Diag())(T(_f32(2, 3, 3, seed=12)), k, T(3, i32), T(3, i32), T(np.array(0.0, np.float32)))[0::4])
    out.append(_raised(lambda: Diag()(T(_f32(2, 3, 3, seed=12)), k, T(4, i32), T(4, i32), T(np.array(0.0, np.float32)))))
    return out


def case_sequence_concat(ms):
    """``auto_generate.SequenceConcat`` (tests/st/ops/dynamic_sequence/test_dynamic_sequence_concat.py) on
    tuples and lists of Tensors along several axes, in compiled functions (MindSpore runs it in graphs only;
    its dynamic-length sequences need items of one shape)."""
    from importlib import import_module
    SC, T, m = import_module(ms.__name__ + ".ops.auto_generate").SequenceConcat, ms.Tensor, ms.mutable
    a, b = T(_f32(2, 3, seed=1)), T(_f32(2, 3, seed=2))
    i, j = T(np.array([[1, 2]], np.int32)), T(np.array([[3, 4]], np.int32))
    return [_graph(ms, SC())(m((a, b, a), True)), _graph(ms, SC(axis=1))(m((a, b), True)),
            _graph(ms, SC(axis=-1))(m([a, b], True)), _graph(ms, SC(axis=-2))(m((i, j, i), True))]


def case_standard_method_list_append_insert(ms):
    """``_extends.parse.standard_method.list_append``/``list_insert`` (tests/st/ops/dynamic_sequence/
    test_dynamic_list_append.py, test_dynamic_list_insert.py) in compiled functions: numbers and Tensors,
    insertion at the front, the end, past the end and at a negative index."""
    from importlib import import_module
    sm, T, m = import_module(ms.__name__ + "._extends.parse.standard_method"), ms.Tensor, ms.mutable
    t1, t2 = T(_f32(2, seed=1)), T(_f32(2, seed=2))
    return [_graph(ms, sm.list_append)(m([2], True), m(3)), _graph(ms, sm.list_append)(m([t1], True), t2),
            _graph(ms, sm.list_insert)(m([2], True), m(0), m(3)), _graph(ms, sm.list_insert)(m([1, 2, 3], True), 3, 9),
            _graph(ms, sm.list_insert)(m([1, 2, 3], True), 7, 9), _graph(ms, sm.list_insert)(m([1, 2, 3], True), -1, 9),
            _graph(ms, sm.list_insert)(m([t1], True), 1, t2)]


def case_compile_config_names(ms):
    """``_extends.parse.compile_config`` (tests/st/ops/dynamic_sequence/test_dynamic_scalar_math.py sets
    ``GRAD_FOR_SCALAR``): its settings and their defaults."""
    from importlib import import_module
    cc = import_module(ms.__name__ + "._extends.parse.compile_config")
    return [[n, getattr(cc, n)] for n in sorted(dir(cc)) if n.isupper()]


def _message(f):
    """``f()``, or ``"<exception name>: <first line of its message>"`` (a compiled kernel's index check)."""
    try:
        out = f()
        return (out, out.asnumpy())[0] if hasattr(out, "asnumpy") else out
    except Exception as e:  # noqa: BLE001 - the exception is the result
        lines = [l for l in str(e).splitlines() if l.strip()]
        return f"{type(e).__name__}: {lines[0] if lines else ''}"


def _index_cells(ms):
    """Cells calling an op on (input, index) or (input, index, updates): compiled in GRAPH_MODE and by ``ms.jit``."""
    class Take(ms.nn.Cell):
        def __init__(self, fn, k=None, first=True):
            super().__init__()
            self.fn, self.k, self.first = fn, k, first

        @ms.jit
        def construct(self, a, i):
            if self.k is None:
                return self.fn(a, i)
            if self.first:
                return self.fn(a, i, self.k)
            return self.fn(a, self.k, i)

    class Put(ms.nn.Cell):
        def __init__(self, fn):
            super().__init__()
            self.fn = fn

        @ms.jit
        def construct(self, a, i, u):
            return self.fn(a, i, u)
    return Take, Put


def case_jit_gather_index_out_of_range(ms):
    """Gather, index_select, GatherD/gather_elements and GatherNd in compiled code (``ms.jit``;
    tests/st/ops/cpu/test_gather_op.py, test_gather_d_op.py): indices in range (negative ones
    count from the end) give the values, one out of range raises the kernel's RuntimeError; the
    gradient of a gather with a repeated index."""
    Take, _ = _index_cells(ms)
    ops, T = ms.ops, ms.Tensor
    x = T(np.arange(12, dtype=np.float32).reshape(3, 4))
    i32 = lambda v: T(np.array(v, np.int32))  # noqa: E731
    out = [Take(ops.gather, 0)(x, i32([2, -1, 0])), Take(ops.gather, 1)(x, i32([[3, -4]])),
           Take(ops.gather_d, 1, False)(x, i32([[0, -1], [3, 1], [0, 2]])),
           Take(ops.gather_elements, 0, False)(x, i32([[2, 1], [-3, 0]])), Take(ops.gather_nd)(x, i32([[0, 1], [2, 3]])),
           Take(ops.index_select, 0, False)(x, i32([2, 0]))]
    # a new Cell for each failing call: MindSpore's graph that failed fails differently when run again
    for cell, idx in (((ops.gather, 0), [0, 5]), ((ops.gather, 0), [0, -5]), ((ops.gather, 1), [[0, 4]]),
                      ((ops.gather_d, 1, False), [[0, 4], [1, 1], [0, 0]]),
                      ((ops.gather_d, 1, False), [[0, -5], [1, 1], [0, 0]]),
                      ((ops.gather_elements, 0, False), [[0, 3], [1, 1]]), ((ops.gather_nd,), [[0, 1], [3, 2]]),
                      ((ops.gather_nd,), [[0, 1], [-1, 2]]), ((ops.index_select, 0, False), [0, 3])):
        out.append(_message(lambda cell=cell, idx=idx: Take(*cell)(x, i32(idx))))

    class Loss(ms.nn.Cell):
        def construct(self, a, i):
            return (ops.gather(a, i, 0) * 2.0).sum()
    out.append(ms.grad(Loss())(x, i32([1, 1, -1])))
    return out


def case_jit_scatter_nd_index_out_of_range(ms):
    """ScatterNd and the TensorScatter* ops in compiled code (``ms.jit``; tests/st/ops/cpu/
    test_tensor_scatter_arithmetic.py, test_scatter_nd_*): positions in range give the values, a
    position out of range (past the end, negative) raises the kernel's exception; the gradient of
    ``tensor_scatter_add``."""
    Take, Put = _index_cells(ms)
    ops, T = ms.ops, ms.Tensor
    x = T(np.arange(12, dtype=np.float32).reshape(3, 4))
    i32 = lambda v: T(np.array(v, np.int32))  # noqa: E731
    u2 = T(np.array([2.0, 3.0], np.float32))
    # a new Cell for each failing call: MindSpore's graph that failed fails differently when run again
    out = [Take(ops.scatter_nd, (3, 4))(i32([[0, 1], [2, 3]]), u2)]
    out += [_message(lambda idx=idx: Take(ops.scatter_nd, (3, 4))(i32(idx), u2)) for idx in ([[0, 1], [3, 2]],
                                                                                           [[0, 1], [-1, 2]])]
    for h in ("update", "add", "sub", "mul", "div", "max", "min"):
        fn = getattr(ops, "tensor_scatter_" + h)
        out += [Put(fn)(x, i32([[0, 1], [2, 3]]), u2),
                _message(lambda fn=fn: Put(fn)(x, i32([[0, 1], [1, 1], [3, 2]]), T(np.ones(3, np.float32)))),
                _message(lambda fn=fn: Put(fn)(x, i32([[0, 1], [-1, 2]]), u2)),
                _message(lambda fn=fn: Put(fn)(x, i32([[0], [5]]), T(np.ones((2, 4), np.float32))))]

    class Loss(ms.nn.Cell):
        def construct(self, a, u):
            return (ops.tensor_scatter_add(a, i32([[0, 1], [0, 1]]), u) ** 2).sum()
    out.append(ms.grad(Loss(), (0, 1))(x, u2))
    return out


def case_jit_scatter_parameter_index_out_of_range(ms):
    """The Scatter*/ScatterNd* ops writing a Parameter in a compiled Cell (tests/st/ops/cpu/
    test_scatter_arithmetic_op.py, test_scatter_nd_update_op.py): rows/positions in range update
    the Parameter, one out of range raises the kernel's exception (ScatterNdAdd... raise MindSpore's
    "Launch kernel failed" RuntimeError: only the type is compared for them)."""
    T, P = ms.Tensor, ms.ops.operations

    class Net(ms.nn.Cell):
        def __init__(self, prim):
            super().__init__()
            self.prim = prim
            self.x = ms.Parameter(T(np.arange(12, dtype=np.float32).reshape(3, 4)), name="x")

        @ms.jit
        def construct(self, i, u):
            return self.prim(self.x, i, u)
    i32 = lambda v: T(np.array(v, np.int32))  # noqa: E731
    out = []
    for name in ("Update", "Add", "Sub", "Mul", "Div", "Max", "Min"):
        rows, nd = getattr(P, "Scatter" + name)(), getattr(P, "ScatterNd" + name)()
        u = T(np.full((2, 4), 2.0, np.float32))
        net = Net(rows)
        out += [net(i32([2, 0]), u), net.x.value(), _message(lambda: Net(rows)(i32([0, 3]), u)),
                _message(lambda: Net(rows)(i32([0, -1]), u))]
        u = T(np.array([2.0, 3.0], np.float32))
        net = Net(nd)
        out += [net(i32([[0, 1], [2, 3]]), u), net.x.value()]
        bad = [_raised(lambda: Net(nd)(i32([[0, 1], [3, 2]]), u)), _raised(lambda: Net(nd)(i32([[0, 1], [-1, 2]]), u))]
        out += [_message(lambda: Net(nd)(i32([[0, 1], [3, 2]]), u))] if name == "Update" else bad
    return out


def case_unsorted_segment_ids_out_of_range(ms):
    """UnsortedSegmentSum/Min/Max/Prod (tests/st/ops/cpu/test_unsorted_segment_arithmetic.py): a negative
    segment id is dropped, one at or past ``num_segments`` raises the kernel's RuntimeError (MindSpore:
    "Launch kernel failed"; only the type is compared), in PyNative and in a compiled Cell."""
    T = ms.Tensor
    x = T(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    Take, _ = _index_cells(ms)
    out = []
    for name in ("UnsortedSegmentSum", "UnsortedSegmentMin", "UnsortedSegmentMax", "UnsortedSegmentProd"):
        prim = getattr(ms.ops, name)()
        for ids in ([0, -1, 1, 1], [0, 0, 1, 2]):
            i = T(np.array(ids, np.int32))
            out += [_raised(lambda: prim(x, i, 2)), _raised(lambda: Take(prim, 2)(x, i))]
    return out


def case_vmap_gather_index_out_of_range(ms):
    """``ops.vmap`` of a gather over batched indices (tests/st/ops/cpu/test_gather_op.py): the values,
    and the RuntimeError of an index out of range (MindSpore's message names the flattened batch's
    range: only the type is compared)."""
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3))

    def pick(a, i, axis):
        return ms.ops.gather(a, i, axis)
    f = ms.ops.vmap(pick, in_axes=(0, 0, None), out_axes=0)
    return [f(x, ms.Tensor(np.array([[0, 1], [1, 0]], np.int32)), 0),
            _raised(lambda: f(x, ms.Tensor(np.array([[0, 2], [2, 0]], np.int32)), 0))]


def case_embedding_ids_out_of_range(ms):
    """``nn.Embedding`` looks up with MindSpore's Gather: a negative id counts from the end (and gets
    no gradient), one past the vocabulary raises Gather's RuntimeError, in PyNative and in a compiled
    Cell (a new Cell for each failing call)."""
    T = ms.Tensor

    def emb():
        ms.set_seed(0)
        return ms.nn.Embedding(4, 2)

    class Jit(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.e = emb()

        @ms.jit
        def construct(self, i):
            return self.e(i)
    ids = [T(np.array(v, np.int32)) for v in ([[0, 3]], [[0, -1]], [[0, 4]], [[-5, 1]])]
    out = [emb()(ids[0]), emb()(ids[1]), Jit()(ids[1])]
    out += [_message(lambda i=i: emb()(i)) for i in ids[2:]] + [_message(lambda i=i: Jit()(i)) for i in ids[2:]]
    net = emb()
    out.append(ms.grad(lambda i: (net(i) * 3.0).sum(), None, net.trainable_params())(T(np.array([1, -1, 1],
                                                                                               np.int32))))
    return out


def case_svd_signs_and_grad(ms):
    """``ops.svd`` (tests/st/ops/test_ops_svd.py): the signs of MindSpore's CPU kernel (Eigen's JacobiSVD)
    for tall, wide, square and batched matrices, thin and full, float32 and float64; ``ms.grad`` of
    ``sum(s) + sum(u) + sum(v)`` (depends on those signs; full ``u``/``v`` where ``|m - n| == 1``),
    of ``s`` alone, and the bprop's RuntimeError (``full_matrices`` with ``|m - n| > 1``) and
    TypeError (complex input). The 6 x 5 matrix is float64 only: float32 gradients there differ
    from MindSpore's by ~4e-5 relative (rounding amplified by ``1 / (s_i^2 - s_j^2)``)."""
    T, ops = ms.Tensor, ms.ops

    def total(full):
        def f(t):
            s, u, v = ops.svd(t, full, True)
            return s.sum() + u.sum() + v.sum()
        return f

    out = []
    for i, shape in enumerate(((3, 2), (2, 3), (3, 3), (4, 3), (3, 4), (5, 3), (2, 3, 2), (6, 5))):
        for dt in (np.float32, np.float64)[shape == (6, 5):]:
            x = T(np.random.RandomState(i).randn(*shape).astype(dt))
            for full in (False, True):
                out.append(ops.svd(x, full, True))
                out.append(_raised(lambda f=total(full), x=x: ms.grad(f)(x)))
            out.append(ms.grad(lambda t: ops.svd(t, False, False).sum())(x))
    ar = T(np.arange(6).reshape(3, 2).astype(np.float32))
    out.append([ms.grad(total(full))(ar) for full in (False, True)])
    c = T(np.array([[1 + 1j, 2], [3, 4j], [1, 1]], np.complex64))
    out.append(_raised(lambda: ms.grad(total(False))(c)))
    return out


def case_tracev2_grad_op(ms):
    """``ops.auto_generate.tracev2_grad_op`` (TraceV2Grad, tests/st/ops/test_ops_tracev2_grad.py): ``dout`` on
    the diagonal ``offset`` of axes ``axis1``/``axis2`` of a zero Tensor of ``shape``, several dtypes, axes
    and offsets; a tuple ``shape`` is refused."""
    A, T = ms.ops.auto_generate, ms.Tensor
    g = A.tracev2_grad_op
    out = [g(T(_f32(2, seed=1)), T((5, 4, 2))), g(T(_f32(2, seed=1)), T((5, 4, 2)), 0, 0, 1),
           g(T(np.float32(3.0)), T((3, 4)), 1, 1, 0), g(T(_f32(5, seed=2)), T((6, 5, 5)), -1, 0, 1),
           g(T(_f32(3, 8, seed=3)), T((2, 3, 6, 8)), 0, 2, 0), g(T(_f32(3, 8, seed=3)), T((2, 3, 6, 8)), 2, -2, 0),
           g(T(np.float64(2.0)), T((2, 2)), 0, 0, 1), g(T(np.float16(2.0)), T((3, 3)), -2, 0, 1),
           g(T(np.int32(4)), T((3, 2)), 0, 0, 1), A.TraceV2Grad()(T(np.float32(1.0)), T((2, 3)), 5, 0, 1)]
    out.append(_raised(lambda: g(T(np.float32(3.0)), (3, 4), -1, 0, 1)))
    return out


def case_convert_to_dynamic_grad(ms):
    """``ops.operations._inner_ops.ConvertToDynamic`` (tests/st/ops/dynamic_shape/grad/test_grad_of_dynamic.py):
    the value and its gradient pass through, shape or rank marked dynamic; ``F.is_sequence_value_unknown``
    of a PyNative shape."""
    from importlib import import_module
    inner = import_module(ms.__name__ + ".ops.operations._inner_ops")
    F, T = ms.ops.functional, ms.Tensor
    x = T(_f32(2, 3, seed=4))
    out = [inner.ConvertToDynamic()(x), inner.ConvertToDynamic(is_dynamic_rank=True)(x),
           inner.ConvertToDynamic()(T(np.array([1, 2], np.int32))),
           F.is_sequence_value_unknown(x.shape), F.is_sequence_shape_unknown(x.shape)]
    conv = inner.ConvertToDynamic(is_dynamic_rank=False)
    out.append(ms.grad(lambda t: (conv(t) * t).sum())(x))
    return out


def case_vmap_out_axes_sequence(ms):
    """``ops.vmap(..., out_axes=(0,))`` of a one-Tensor function (tests/st/ops/test_ops_triu.py's vmap of
    ``ops.triu``): a sequence of one axis at the top level, and MindSpore's RuntimeErrors for a nested axis
    and for sizes that do not match the results."""
    ops, T = ms.ops, ms.Tensor
    x = T(_f32(2, 4, 3, seed=5))

    def one(t):
        return ops.triu(t, 1)

    def two(t):
        return t * 2, t + 1

    def by_k(t, k):
        return ops.triu(t, k)

    out = [ops.vmap(one, in_axes=0, out_axes=(0,))(x), ops.vmap(one, in_axes=0, out_axes=[1])(x),
           ops.vmap(by_k, in_axes=(0, None), out_axes=(0,))(x, -1),
           ops.vmap(two, in_axes=0, out_axes=(0, 1))(x)]
    out += [_raised(lambda a=a: ops.vmap(one, in_axes=0, out_axes=a)(x)) for a in (((0,),), (0, 0))]
    out.append(_raised(lambda: ops.vmap(two, in_axes=0, out_axes=(0,))(x)))
    return out


def case_tensor_copy_slices(ms):
    """``ops.operations._inner_ops.TensorCopySlices`` (tests/st/ops/test_tensor_copy_slices.py,
    cpu/test_tensor_copy_slices_op.py): slices of leading axes, a value of more elements than the slice,
    list arguments, four dtypes and bool; the gradients of ``x`` and ``value``; MindSpore's errors for a
    step other than 1, an empty or reversed slice and mixed dtypes."""
    from importlib import import_module
    op = import_module(ms.__name__ + ".ops.operations._inner_ops").TensorCopySlices()
    T = ms.Tensor
    out = []
    for dt in (np.int64, np.int32, np.float64, np.float32, np.bool_):
        out += [op(T(np.zeros((10,), dt)), T(np.ones((5,), dt)), (5,), (10,), (1,)),
                op(T(np.zeros((10, 10), dt)), T(np.ones((5, 10), dt)), (0,), (5,), (1,)),
                op(T(np.zeros((10, 10), dt)), T(np.ones((5,), dt)), (9, 5), (10, 10), (1, 1)),
                op(T(np.zeros((4, 5, 3), dt)), T(np.ones((5, 3), dt)), (0, 0, 0), (1, 5, 3), (1, 1, 1))]
    x = T(_f32(4, 5, seed=6))
    out += [op(x, T(_f32(3, 5, seed=7)), (1, 0), (3, 5), (1, 1)), op(x, T(_f32(2, 5, seed=8)), [1, 0], [3, 5], [1, 1]),
            op(x, T(_f32(2, 5, seed=8)), (-3,), (-1,), (1,))]
    w = T(np.arange(20, dtype=np.float32).reshape(4, 5))
    out.append(ms.grad(lambda a, b: (op(a, b, (1, 0), (3, 5), (1, 1)) * w).sum(), (0, 1))(x, T(_f32(2, 5, seed=9))))
    out += [_raised(lambda a=a: op(x, T(_f32(2, 5, seed=8)), *a)) for a in
            (((1, 0), (3, 5), (2, 1)), ((3, 0), (1, 5), (-1, 1)), ((2, 0), (2, 5), (1, 1)))]
    out.append(_raised(lambda: op(x, T(np.ones((2, 5), np.int32)), (1, 0), (3, 5), (1, 1))))
    return out


def case_csr_sparse_matrix_to_sparse_tensor(ms):
    """``ops.operations.sparse_ops.CSRSparseMatrixToSparseTensor`` (tests/st/ops/test_ops_sparse_csr_to_sparse.py):
    2-D and batched 3-D CSR matrices (empty rows, an empty batch) to COO, Float32/Float64/Complex64 values,
    Int32 indices (MindSpore's CPU kernel misreads Int64 ones); its ValueError for a rank-4 shape and
    TypeError for integer values."""
    from importlib import import_module
    op = import_module(ms.__name__ + ".ops.operations.sparse_ops").CSRSparseMatrixToSparseTensor()
    T = ms.Tensor

    def i32(*v):
        return T(np.array(v, np.int32))

    out = []
    for vt in (np.float32, np.float64, np.complex64):
        vals = T((np.arange(1, 5) * 1.5).astype(vt))
        out.append(op(i32(3, 4), i32(0, 4), i32(0, 2, 2, 4), i32(1, 3, 0, 2), vals))
        out.append(op(i32(3, 2, 4), i32(0, 3, 3, 4), i32(0, 1, 3, 0, 0, 0, 0, 0, 1), i32(1, 3, 0, 2), vals))
    vals = T(np.array([1.5, 2.5, 3.5], np.float32))
    out.append(_raised(lambda: op(i32(3, 4, 5, 6), i32(0, 3), i32(0, 2, 2, 3), i32(1, 3, 0), vals)))
    out.append(_raised(lambda: op(i32(3, 4), i32(0, 3), i32(0, 2, 2, 3), i32(1, 3, 0), i32(1, 2, 3))))
    return out


def case_grad_ops_logsoftmax_stridedslice(ms):
    """``_grad_ops.LogSoftmaxGrad`` and ``StridedSliceGrad`` (tests/st/ops/dynamic_shape/test_logsoftmax_grad_dyn.py,
    grad/test_strided_slice_grad.py): values over each axis, StridedSliceGrad with strides and the
    begin/end/shrink masks (MindSpore 2.10's CPU kernel gives zeros for a negative stride), StridedSliceGrad's gradient (MindSpore has none for
    LogSoftmaxGrad), and LogSoftmaxGrad's axis error."""
    from importlib import import_module
    G, T = import_module(ms.__name__ + ".ops.operations._grad_ops"), ms.Tensor
    y, d = T(_f32(4, 5, seed=1)), T(_f32(4, 5, seed=2))
    out = [G.LogSoftmaxGrad()(y, d), G.LogSoftmaxGrad(0)(y, d), G.LogSoftmaxGrad(-2)(y, d),
           G.LogSoftmaxGrad()(T(_f32(2, 3, 4, seed=3)), T(_f32(2, 3, 4, seed=4)))]
    x_shape = (3, 4, 5)
    for masks, begin, end, strides in (((0, 0, 0, 0, 0), (1, 0, 2), (3, 1, 3), (1, 1, 1)),
                                       ((0, 0, 0, 0, 0), (0, 1, 1), (3, 4, 5), (2, 2, 3)),
                                       ((1, 2, 0, 0, 0), (2, 1, 0), (0, 3, 5), (1, 1, 2)),
                                       ((0, 0, 0, 0, 2), (0, 1, 1), (2, 2, 4), (1, 1, 1))):
        shape = ms.ops.StridedSlice(*masks)(T(np.zeros(x_shape, np.float32)), begin, end, strides).shape
        out.append(G.StridedSliceGrad(*masks)(T(_f32(*shape, seed=5)), x_shape, begin, end, strides))

    class Net(ms.nn.Cell):
        def __init__(self, op):
            super().__init__()
            self.op = op

        def construct(self, *args):
            return self.op(*args)
    grad = ms.ops.GradOperation(get_all=True)
    out.append(grad(Net(G.StridedSliceGrad()))(T(_f32(2, 1, 1, seed=6)), x_shape, (1, 0, 2), (3, 1, 3), (1, 1, 1))[0])
    out.append(_raised(lambda: G.LogSoftmaxGrad(2)(y, d)))
    return out


def case_resize_nearest_neighbor_v2(ms):
    """``array_ops.ResizeNearestNeighborV2`` and ``_grad_ops.ResizeNearestNeighborV2Grad`` (tests/st/ops/
    dynamic_shape): up and down sizes in each mode (asymmetric, align_corners, half_pixel_centers), a
    tuple size, UInt8 images (Int32 ones raise), the gradient through it, the Grad Primitive's values, and the size/rank errors."""
    from importlib import import_module
    A, G, T = (import_module(ms.__name__ + ".ops.operations.array_ops"),
               import_module(ms.__name__ + ".ops.operations._grad_ops"), ms.Tensor)
    x = T(_f32(2, 3, 3, 4, seed=1))
    out = []
    for kw in ({}, {"align_corners": True}, {"half_pixel_centers": True}):
        for size in ((5, 3), (2, 7), (1, 1), (6, 8)):
            out.append(A.ResizeNearestNeighborV2(**kw)(x, T(np.array(size, np.int32))))
        out.append(G.ResizeNearestNeighborV2Grad(**kw)(T(_f32(2, 3, 5, 7, seed=2)), T(np.array([3, 4], np.int32))))
        out.append(ms.ops.GradOperation(get_all=True, sens_param=True)(_op_cell(ms, A.ResizeNearestNeighborV2(**kw)))(
            x, T(np.array([5, 2], np.int32)), T(_f32(2, 3, 5, 2, seed=3)))[0])
    out += [A.ResizeNearestNeighborV2()(x, (2, 2)),
            A.ResizeNearestNeighborV2()(T(np.arange(12, dtype=np.uint8).reshape(1, 1, 3, 4)), T(np.array([4, 6], np.int32))),
            _raised(lambda: A.ResizeNearestNeighborV2()(T(np.ones((1, 1, 2, 2), np.int32)), T(np.array([4, 6], np.int32)))),
            _raised(lambda: A.ResizeNearestNeighborV2()(x, T(np.array([0, 2], np.int32)))),
            _raised(lambda: A.ResizeNearestNeighborV2()(T(np.ones((3, 4), np.float32)), T(np.array([2, 2], np.int32)))),
            _raised(lambda: A.ResizeNearestNeighborV2()(x, T(np.array([2, 2, 2], np.int32))))]
    return out


def case_betainc_primitive(ms):
    """``math_ops.Betainc`` (tests/st/ops/dynamic_shape/grad/test_betainc.py): values inside ``[0, 1]`` and at
    its ends, NaN outside, Float64, 0-D inputs, the gradients (``x`` only), and the dtype/shape errors."""
    from importlib import import_module
    B, T = import_module(ms.__name__ + ".ops.operations.math_ops").Betainc, ms.Tensor
    a = T(np.array([0.5, 1.0, 2.0, 3.5, 0.3], np.float32))
    b = T(np.array([1.5, 2.0, 0.7, 3.0, 4.0], np.float32))
    x = T(np.array([0.2, 0.5, 0.9, 0.0, 1.0], np.float32))
    out = [B()(a, b, x), B()(a, b, T(np.array([-0.5, 1.5, 0.9, 1.0, 0.01], np.float32))),
           B()(T(np.array([1.0, 4.0], np.float64)), T(np.array([2.0, 0.5], np.float64)), T(np.array([0.3, 0.7], np.float64))),
           B()(T(np.array(0.8, np.float32)), T(np.array(0.4, np.float32)), T(np.array(0.6, np.float32)))]

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = B()

        def construct(self, p, q, r):
            return self.op(p, q, r)
    out.append(ms.ops.GradOperation(get_all=True)(Net())(a, b, T(np.array([0.2, 0.5, 0.9, 0.3, 0.6], np.float32))))
    out += [_raised(lambda: B()(a, b, T(np.array([0.2, 0.5, 0.9, 0.1, 0.1], np.float64)))),
            _raised(lambda: B()(a, b, T(np.array([0.2, 0.5], np.float32)))),
            _raised(lambda: B()(T(np.array([1, 2], np.int32)), T(np.array([1, 2], np.int32)), T(np.array([1, 2], np.int32))))]
    return out


def case_sparse_segment_sqrt_n_mean(ms):
    """``sparse_ops.SparseSegmentSqrtN``, ``SparseSegmentSqrtNWithNumSegments``, ``SparseSegmentMeanWithNumSegments``
    (tests/st/ops/dynamic_shape/grad): repeated rows and ids, empty segments, float16/float64, Int64 ids,
    the gradients of ``x``, and MindSpore's id/index/dtype errors."""
    from importlib import import_module
    S, T = import_module(ms.__name__ + ".ops.operations.sparse_ops"), ms.Tensor
    x = T(np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], np.float32))
    i, s, s2 = (T(np.array(v, np.int32)) for v in ([0, 1, 2, 1], [0, 0, 1, 1], [0, 0, 2, 2]))
    n4 = T(np.array([4], np.int32))
    out = [S.SparseSegmentSqrtN()(x, i, s), S.SparseSegmentSqrtNWithNumSegments()(x, i, s2, n4),
           S.SparseSegmentMeanWithNumSegments()(x, i, s2, n4),
           S.SparseSegmentSqrtN()(T(np.array([[1, 2], [3, 4]], np.float16)), T(np.array([0, 1, 1], np.int64)),
                                  T(np.array([0, 0, 1], np.int64))),
           S.SparseSegmentMeanWithNumSegments()(T(_f32(3, 2, 2).astype(np.float64)), T(np.array([2, 0], np.int64)),
                                                T(np.array([1, 3], np.int64)), T(np.array([5], np.int64)))]
    grad = ms.ops.GradOperation(get_all=True)

    class Net3(ms.nn.Cell):
        def __init__(self, op):
            super().__init__()
            self.op = op

        def construct(self, a, b, c):
            return self.op(a, b, c)

    class Net4(ms.nn.Cell):
        def __init__(self, op):
            super().__init__()
            self.op = op

        def construct(self, a, b, c, d):
            return self.op(a, b, c, d)
    out += [grad(Net3(S.SparseSegmentSqrtN()))(x, i, s)[0],
            grad(Net4(S.SparseSegmentSqrtNWithNumSegments()))(x, i, s2, n4)[0],
            grad(Net4(S.SparseSegmentMeanWithNumSegments()))(x, i, s2, n4)[0]]
    sq = S.SparseSegmentSqrtN()
    out += [_raised(lambda: sq(x, i, T(np.array([1, 1, 2, 2], np.int32)))), _raised(lambda: sq(x, i, s2)),
            _raised(lambda: sq(x, T(np.array([0, 5, 1, 1], np.int32)), s)),
            _raised(lambda: sq(T(np.ones((3, 2), np.int32)), i, s)),
            _raised(lambda: S.SparseSegmentSqrtNWithNumSegments()(x, i, s2, T(np.array([2], np.int32)))),
            _raised(lambda: sq(x, i, T(np.array([0, 1], np.int32)))),
            _raised(lambda: sq(x, T(np.array([0.0, 1, 2, 1], np.float32)), s)),
            _raised(lambda: S.SparseSegmentMeanWithNumSegments()(x, i, s2, T(np.array([4], np.int64))))]
    return out


def case_sparse_tensor_dense_add_matmul(ms):
    """``sparse_ops.SparseTensorDenseAdd`` and ``SparseTensorDenseMatmul`` (tests/st/ops/dynamic_shape/grad):
    repeated indices, each adjoint, a tuple shape, the gradients of values and of the dense input, and the
    dtype/shape errors."""
    from importlib import import_module
    S, T = import_module(ms.__name__ + ".ops.operations.sparse_ops"), ms.Tensor
    ind = T(np.array([[0, 0], [0, 1], [0, 1], [2, 2]], np.int64))
    val = T(np.array([1, 2, 3, -1.5], np.float32))
    sh = T(np.array([3, 3], np.int64))
    x2 = T(_f32(3, 3, seed=1))
    i2, v2 = T(np.array([[0, 1], [1, 2], [2, 0], [1, 2]], np.int32)), T(np.array([1, 2, 3, 0.5], np.float32))
    out = [S.SparseTensorDenseAdd()(ind, val, sh, x2),
           S.SparseTensorDenseMatmul()(i2, v2, (3, 4), T(_f32(4, 2, seed=2))),
           S.SparseTensorDenseMatmul(adjoint_st=True)(i2, v2, (4, 3), T(_f32(4, 2, seed=2))),
           S.SparseTensorDenseMatmul(adjoint_dt=True)(i2, v2, (3, 4), T(_f32(2, 4, seed=3))),
           S.SparseTensorDenseMatmul(True, True)(i2, v2, (4, 3), T(_f32(2, 4, seed=3)))]
    grad = ms.ops.GradOperation(get_all=True)

    class Net(ms.nn.Cell):
        def __init__(self, op):
            super().__init__()
            self.op = op

        def construct(self, a, b, c, d):
            return self.op(a, b, c, d) * 2
    g1 = grad(Net(S.SparseTensorDenseAdd()))(ind, val, sh, x2)
    g2 = grad(Net(S.SparseTensorDenseMatmul()))(i2, v2, (3, 4), T(_f32(4, 2, seed=2)))
    out += [g1[1], g1[3], g2[1], g2[-1],
            _raised(lambda: S.SparseTensorDenseAdd()(ind, val, sh, T(np.ones((2, 3), np.float32)))),
            _raised(lambda: S.SparseTensorDenseAdd()(ind, T(np.array([1, 2, 3, 4], np.int32)), sh, x2))]
    return out


def case_conv2d_backprop_filter(ms):
    """``_grad_ops.Conv2DBackpropFilter`` (tests/st/ops/dynamic_shape/grad/test_conv2d_back_prop_filter.py): the
    weight gradient for valid/same modes, strides and groups, and its own gradients (pad mode is left out:
    MindSpore 2.10's CPU kernel raises a oneDNN RuntimeError there with the default ``pad_list``)."""
    from importlib import import_module
    G, T = import_module(ms.__name__ + ".ops.operations._grad_ops"), ms.Tensor
    out = []
    for kw, x_shape, w_shape in (
            (dict(out_channel=1, kernel_size=3), (1, 1, 6, 6), (1, 1, 3, 3)),
            (dict(out_channel=4, kernel_size=3, pad_mode="same", stride=(2, 2)), (2, 3, 7, 7), (4, 3, 3, 3)),
            (dict(out_channel=4, kernel_size=3, group=2), (1, 4, 5, 5), (4, 2, 3, 3))):
        x = T(_f32(*x_shape, seed=1))
        w = T(_f32(*w_shape, seed=2))
        conv = ms.ops.Conv2D(kw["out_channel"], kw["kernel_size"], pad_mode=kw.get("pad_mode", "valid"),
                             pad=kw.get("pad", 0), stride=kw.get("stride", 1), dilation=kw.get("dilation", 1),
                             group=kw.get("group", 1))
        dout = T(_f32(*conv(x, w).shape, seed=3))
        out.append(G.Conv2DBackpropFilter(**kw)(dout, x, w_shape))

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = G.Conv2DBackpropFilter(1, 3, pad_mode="valid", pad=0, mode=1, stride=(1, 1),
                                             dilation=(1, 1, 1, 1), group=1)

        def construct(self, d, x):
            return self.op(d, x, (1, 1, 3, 3))
    out.append(ms.ops.GradOperation(get_all=True)(Net())(T(_f32(1, 1, 4, 4, seed=4)), T(_f32(1, 1, 6, 6, seed=5))))
    return out


def case_resize_bilinear_grad(ms):
    """``_grad_ops.ResizeBilinearGrad`` (tests/st/ops/dynamic_shape/test_resize_bilinear_grad_dyn.py): up- and
    down-sampled gradients in the default, ``align_corners`` and ``half_pixel_centers`` modes, float16."""
    from importlib import import_module
    G, T = import_module(ms.__name__ + ".ops.operations._grad_ops"), ms.Tensor
    img = T(_f32(2, 3, 4, 5, seed=1))
    out = []
    for kw in ({}, {"align_corners": True}, {"half_pixel_centers": True}):
        for g_shape in ((2, 3, 7, 9), (2, 3, 2, 3), (2, 3, 4, 5)):
            out.append(G.ResizeBilinearGrad(**kw)(T(_f32(*g_shape, seed=2)), img))
    out.append(G.ResizeBilinearGrad()(T(_f32(1, 1, 4, 4, seed=3).astype(np.float16)),
                                      T(_f32(1, 1, 2, 2, seed=4).astype(np.float16))))
    return out


def case_mint_scatter_signature(ms):
    """``mint.scatter(input, dim, index, src)`` is ``ops.scatter``: a Tensor or float ``src``; a
    ``reduce`` or ``value`` keyword is a TypeError (tests/st/mint/test_scatter.py)."""
    T, mint = ms.Tensor, ms.mint
    x = T(_f32(3, 4, seed=14))
    idx = T(np.array([[0, 1, 2], [2, 0, 1]], np.int64))
    src = T(_f32(2, 3, seed=15))
    out = [mint.scatter(x, 1, idx, src), mint.scatter(x, 0, idx, 2.5), mint.scatter(input=x, dim=1, index=idx, src=src)]
    return [o.asnumpy() for o in out] + [_raised(lambda: mint.scatter(x, 1, idx, src, reduce="add")),
                                         _raised(lambda: mint.scatter(x, 1, idx, value=2.0))]


def case_extract_volume_patches(ms):
    """``ops.ExtractVolumePatches`` (tests/st/ops/dynamic_shape/grad/test_extract_volume_patches.py): VALID and
    SAME padding, strides, uneven kernels, float16, and the gradient through it."""
    T, ops = ms.Tensor, ms.ops
    x = T(_f32(2, 2, 4, 5, 4, seed=1))
    out = [ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), "VALID")(x),
           ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 2, 2, 2), "SAME")(x),
           ops.ExtractVolumePatches((1, 1, 3, 2, 1), (1, 1, 2, 1, 3), "SAME")(x),
           ops.ExtractVolumePatches((1, 1, 1, 3, 2), (1, 1, 1, 2, 1), "VALID")(T(_f32(1, 3, 3, 3, 3, seed=2).astype(np.float16)))]

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = ops.ExtractVolumePatches((1, 1, 2, 3, 2), (1, 1, 2, 1, 2), "SAME")

        def construct(self, a):
            return self.op(a)
    out.append(ops.GradOperation(sens_param=True)(Net())(x, T(_f32(*Net()(x).shape, seed=3))))
    return out


def case_fractional_max_pool_with_fixed_ksize(ms):
    """``nn_ops.FractionalMaxPoolWithFixedKsize`` (tests/st/ops/dynamic_shape/grad/test_fractional_max_pool_with_fixed_ksize.py):
    maxima and argmax positions for several samples, square and rectangular ksize/output_shape, Int32 input,
    and the error of an output too large for the input (MindSpore 2.10's PyNative gradient of a Float32
    input fails: its backward kernel has no Int64-argmax variant)."""
    from importlib import import_module
    F, T = import_module(ms.__name__ + ".ops.operations.nn_ops").FractionalMaxPoolWithFixedKsize, ms.Tensor
    x = T(np.random.RandomState(0).rand(2, 2, 7, 9).astype(np.float32))
    rs = T(np.array([[[0.3, 0.7], [0.9, 0.1]], [[0.0, 0.5], [0.99, 0.25]]], np.float32))
    xi = T(np.array([3, 9, 7, 0, 3, 5, 5, 3, 1, 8, 9, 4, 9, 8, 3, 4, 9, 9, 6, 9, 9, 1, 0, 1, 9]).reshape([1, 1, 5, 5]),
           ms.int32)
    out = [F((2, 3), (4, 3))(x, rs), F(2, 3)(x, rs), F(3, (5, 7))(x, rs), F(2, (2, 2))(xi, T(np.array([[[0.8, 0.8]]], np.float32)))]

    out.append(_raised(lambda: F(3, (6, 8))(x, rs)))
    return out


def case_sparse_add(ms):
    """``sparse_ops.SparseAdd`` (tests/st/ops/dynamic_shape/grad/test_sparse_add.py): merged and single entries,
    thresholds dropping merged sums, 3-D indices, and the gradients of both value inputs."""
    from importlib import import_module
    S, T = import_module(ms.__name__ + ".ops.operations.sparse_ops"), ms.Tensor
    i1, v1 = T(np.array([[0, 1], [1, 2], [2, 0]], np.int64)), T(np.array([1, 2, 3], np.float32))
    i2, v2 = T(np.array([[0, 0], [1, 2], [2, 3]], np.int64)), T(np.array([5, -2.05, 0.1], np.float32))
    s = T(np.array([3, 4], np.int64))
    out = [S.SparseAdd()(i1, v1, s, i2, v2, s, T(np.array(th, np.float32))) for th in (0.0, 0.06, 0.2)]
    j1, j2 = T(np.array([[0, 0, 1], [1, 1, 0]], np.int64)), T(np.array([[0, 0, 1], [0, 1, 0], [1, 1, 1]], np.int64))
    s3 = T(np.array([2, 2, 2], np.int64))
    out.append(S.SparseAdd()(j1, T(np.array([1.5, -1.0], np.float32)), s3, j2, T(np.array([-1.5, 2.0, 4.0], np.float32)),
                             s3, T(np.array(0.0, np.float32))))

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = S.SparseAdd()

        def construct(self, a, b, c, d, e, f, g):
            return self.op(a, b, c, d, e, f, g)[1]
    g = ms.ops.GradOperation(get_all=True, sens_param=True)(Net())(
        i1, v1, s, i2, v2, s, T(np.array(0.06, np.float32)), T(np.array([1.0, 2.0, 3.0, 4.0], np.float32)))
    out.append((g[1], g[4]))
    return out


def case_fractional_max_pool3d_with_fixed_ksize(ms):
    """``ops.operations.nn_ops.FractionalMaxPool3DWithFixedKsize`` (tests/st/ops/test_fractionalmaxpool3dwithfixedksize.py):
    output and Int64 argmax for float16/float32/int32 inputs and float16/float32 samples, 4-D and 5-D inputs,
    kernels larger than 1, the input gradient; MindSpore's ValueErrors for a ksize of two numbers, an output
    too large for the input and samples whose channels differ from the input's."""
    from importlib import import_module
    N, T = import_module(ms.__name__ + ".ops.operations.nn_ops"), ms.Tensor
    op = N.FractionalMaxPool3DWithFixedKsize
    out = []
    for xt in (np.float16, np.float32, np.int32):
        for st in (np.float16, np.float32):
            x = T(np.arange(1, 65).reshape(1, 1, 4, 4, 4).astype(xt))
            out.append(op((1, 1, 1), (2, 2, 3))(x, T(np.array([0.5, 0.5, 0.8]).reshape(1, 1, 3).astype(st))))
    x = T(_f32(2, 3, 4, 5, 6, seed=10))
    rs = T(np.random.RandomState(11).rand(2, 3, 3).astype(np.float32))
    out += [op((1, 2, 2), (2, 2, 3))(x, rs), op(2, (3, 3, 4))(x, rs),
            op((2, 1, 2), (2, 3, 3))(T(_f32(3, 4, 5, 6, seed=12)), rs[:1]),
            ms.grad(lambda t: op((1, 2, 2), (2, 2, 3))(t, rs)[0].sum())(x)]
    ones = T(np.ones((1, 1, 4, 4, 4), np.float32))
    half = T(np.full((1, 1, 3), 0.5, np.float32))
    out += [_raised(lambda: op((1, 1), (2, 2, 2))), _raised(lambda: op((1, 1, 1), (4, 2, 2))(ones, half)),
            _raised(lambda: op((1, 1, 1), (2, 2, 2))(ones, T(np.full((1, 2, 3), 0.5, np.float32))))]
    return out


def case_fractional_max_pool_functional(ms):
    """``ops.fractional_max_pool2d``/``ops.fractional_max_pool3d`` (tests/st/ops/test_ops_fractional_max_pool.py):
    by output size and by ratio with given samples, values and indices, 3-D and 4-D (4-D and 5-D) inputs."""
    ops, T = ms.ops, ms.Tensor
    x2 = T(_f32(2, 3, 7, 6, seed=13))
    s2 = T(np.random.RandomState(14).rand(2, 3, 2).astype(np.float32))
    x3 = T(_f32(2, 2, 5, 6, 4, seed=15))
    s3 = T(np.random.RandomState(16).rand(2, 2, 3).astype(np.float32))
    return [ops.fractional_max_pool2d(x2, 2, output_size=(3, 4), return_indices=True, _random_samples=s2),
            ops.fractional_max_pool2d(x2, (2, 3), output_ratio=(0.5, 0.5), _random_samples=s2),
            ops.fractional_max_pool2d(x2[0], 2, output_size=(2, 2), return_indices=True, _random_samples=s2[:1]),
            ops.fractional_max_pool3d(x3, (1, 2, 1), output_size=(2, 3, 2), return_indices=True, _random_samples=s3),
            ops.fractional_max_pool3d(x3, 2, output_ratio=(0.5, 0.5, 0.5), _random_samples=s3),
            ops.fractional_max_pool3d(x3[0], 1, output_size=(1, 1, 2), return_indices=True, _random_samples=s3[:1])]


def case_matrix_set_diag_v3(ms):
    """``ops.MatrixSetDiagV3`` (tests/st/ops/test_ops_svd.py rebuilds ``u diag(s) v^T`` with it): one diagonal
    (main, super, sub) and bands ``(k0, k1)`` under the four alignments, batched; the gradients of ``x`` and
    ``diagonal``."""
    ops, T = ms.ops, ms.Tensor
    x = T(np.arange(40, dtype=np.float32).reshape(2, 4, 5))
    k0, k1 = T(np.int32(0)), T(np.array([-1, 1], np.int32))
    out = []
    for al in ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"):
        op = ops.MatrixSetDiagV3(al)
        out += [op(x, T(-np.arange(1, 9, dtype=np.float32).reshape(2, 4)), k0),
                op(x, T(-np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4)), k1),
                op(x, T(-np.arange(1, 33, dtype=np.float32).reshape(2, 4, 4)), T(np.array([-2, 1], np.int32)))]
    op = ops.MatrixSetDiagV3()
    out += [op(x, T(-np.ones((2, 4), np.float32)), T(np.int32(1))), op(x, T(-np.ones((2, 3), np.float32)),
                                                                      T(np.int32(-1))),
            op(T(np.zeros((3, 3), np.float64)), T(np.array([1.0, 2.0, 3.0])), k0)]
    w = T(_f32(2, 4, 5, seed=17))
    out.append(ms.grad(lambda a, b: (op(a, b, k1) * w).sum(), (0, 1))(x, T(_f32(2, 3, 4, seed=18))))
    return out


def case_assert_prim(ms):
    """``ops.operations.Assert`` (tests/st/ops/cpu/test_assert_op.py): Int32 ``[0]`` when the condition
    holds, RuntimeError 'assert failed' when it does not, in PyNative and in a compiled Cell (a bool
    Tensor condition, computed in the program); its TypeErrors and the one-element condition check."""
    T, P = ms.Tensor, ms.ops.operations
    data = [T(np.array([1.0, -1.0, 2.5], np.float32)), T(np.array([4, -4], np.int16))]

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.check = P.Assert(2)

        @ms.jit
        def construct(self, c, x, y):
            return self.check(c, [x, y])
    return [P.Assert()(True, data), _message(lambda: P.Assert(2)(False, data)),
            _message(lambda: P.Assert()(T(np.array([False])), data)), Net()(T(np.array(True)), *data),
            _message(lambda: Net()(T(np.array(False)), *data)), _message(lambda: Net()(T(np.array([False])), *data)),
            _raised(lambda: P.Assert(3.5)), _raised(lambda: P.Assert()(T(np.array([True, False])), data)),
            _raised(lambda: P.Assert()(True, data[0]))]


def case_tensor_index_out_of_range(ms):
    """``x[t]`` and ``x[t] = v`` with an integer Tensor ``t``: MindSpore's Gather and TensorScatterUpdate
    kernels' errors for an index out of range (a negative one counted from the end once: -4 of 3 is
    reported as -1), in PyNative and in a compiled Cell (a new Cell for each failing call)."""
    T = ms.Tensor
    x = T(np.arange(12, dtype=np.float32).reshape(3, 4))

    class Get(ms.nn.Cell):
        @ms.jit
        def construct(self, a, i):
            return a[i]

    class Set(ms.nn.Cell):
        @ms.jit
        def construct(self, a, i):
            a[i] = 7.0
            return a

    def py_set(i):
        y = T(np.arange(12, dtype=np.float32).reshape(3, 4))
        y[i] = 7.0
        return y
    idx = [T(np.array(v, np.int32)) for v in ([5], [-4], [[0, 1], [2, 9]], [-1, 0])]
    out = [_message(lambda i=i: x[i]) for i in idx] + [_message(lambda i=i: py_set(i)) for i in idx]
    out += [_message(lambda i=i: Get()(x, i)) for i in (idx[0], idx[2], idx[3])]
    out += [_message(lambda i=i: Set()(T(np.arange(12, dtype=np.float32).reshape(3, 4)), i)) for i in idx]
    return out


def _rl_gru(ms):
    from importlib import import_module
    ops = ms.__name__ + ".ops.operations."
    return import_module(ops + "_rl_inner_ops").GRUV2, import_module(ops + "_grad_ops").GRUV2Grad


def case_gru_v2(ms):
    """``_rl_inner_ops.GRUV2`` (tests/st/ops/test_gru.py, tests/st/ops/cpu/test_gru.py): one flat weight
    Tensor (oneDNN's GRU: gates u, r, o; one bias read), one and two directions, with and without bias,
    two stacked layers; ``GRUV2Grad``'s dx/dh/dw and the autodiff gradient of a Cell over it. (float16 is
    left out: MindSpore's CPU kernel returns meaningless values for it, ones and zeros.)"""
    GRUV2, GRUV2Grad = _rl_gru(ms)
    T, rs = ms.Tensor, np.random.RandomState(7)
    t, n, i, h = 4, 2, 3, 2
    seq = T(np.array([4, 3], np.int32))
    out = []
    for layers, bidir, bias in ((1, False, True), (1, False, False), (1, True, True), (1, True, False),
                                (2, False, True)):
        d = 2 if bidir else 1
        size = 3 * h * (i + h) * d + (3 * h * (i + h) * d if layers == 2 else 0) + (6 * h * d * layers if bias else 0)
        i_used = i if layers == 1 else h * d
        x = T(rs.uniform(-1, 1, (t, n, i_used)).astype(np.float32))
        h0 = T(rs.uniform(-1, 1, (layers * d, n, h)).astype(np.float32))
        w = T(rs.uniform(-1, 1, (size, 1, 1)).astype(np.float32))
        res = GRUV2(i_used, h, layers, bias, bidir, 0.0)(x, h0, w, seq)
        out.append((res[0], res[1], res[2].shape, res[3].shape))   # reserve: the kernel's workspace
        dy, dh = T(rs.uniform(-1, 1, res[0].shape).astype(np.float32)), T(rs.uniform(-1, 1, res[1].shape).astype(np.float32))
        out.append(GRUV2Grad(i_used, h, layers, bias, bidir, 0.0)(x, h0, w, seq, res[0], res[1], dy, dh, res[2]))

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.gru = GRUV2(i, h, 1, True, False, 0.0)

        def construct(self, x, h0, w):
            y, hn, _, _ = self.gru(x, h0, w, seq)
            return (y * y).sum() + hn.sum()
    x, h0 = T(rs.uniform(-1, 1, (t, n, i)).astype(np.float32)), T(rs.uniform(-1, 1, (1, n, h)).astype(np.float32))
    w = T(rs.uniform(-1, 1, (42, 1, 1)).astype(np.float32))
    out.append(ms.grad(Net(), (0, 1))(x, h0, w))
    return out


def case_gru_v2_errors(ms):
    """``GRUV2``'s argument and input checks (MindSpore's exception types)."""
    GRUV2 = _rl_gru(ms)[0]
    T = ms.Tensor
    x, h0 = T(np.ones((4, 2, 3), np.float32)), T(np.ones((1, 2, 2), np.float32))
    w, seq = T(np.ones((42, 1, 1), np.float32)), T(np.array([4, 3], np.int32))
    g = GRUV2(3, 2, 1, True, False, 0.0)
    return [_raised(lambda: g(T(np.ones((4, 2), np.float32)), h0, w, seq)),
            _raised(lambda: g(T(np.ones((4, 2, 4), np.float32)), h0, w, seq)),
            _raised(lambda: g(x, T(np.ones((2, 2, 2), np.float32)), w, seq)),
            _raised(lambda: g(x, T(np.ones((1, 3, 2), np.float32)), w, seq)),
            _raised(lambda: g(x, T(np.ones((1, 2, 3), np.float32)), w, seq)),
            _raised(lambda: g(x, h0, w, T(np.array([4, 3, 2], np.int32)))),
            _raised(lambda: g(x, h0, w, T(np.array([4, 3], np.int64)))),
            _raised(lambda: g(x, h0, T(np.ones((42, 1, 1), np.float64)), seq)),
            _raised(lambda: g(x, h0, T(np.ones((42,), np.float32)), seq)),
            _raised(lambda: GRUV2(0, 2, 1, True, False, 0.0)), _raised(lambda: GRUV2(3, 2, 1, 1, False, 0.0)),
            _raised(lambda: GRUV2(3, 2, 1, True, False, 1)), _raised(lambda: GRUV2(3, 2, 1, True, False, 1.5)),
            _raised(lambda: GRUV2(3, 2, 1, True, False, 0.0, is_train=1))]


def case_sparse_apply_adagrad(ms):
    """``ops.SparseApplyAdagrad``/``SparseApplyAdagradV2`` (tests/st/ops/cpu/test_sparse_apply_adagrad*.py): the
    updated rows, repeated indices added first and out-of-range ones skipped (SparseApplyAdagrad), int64
    indices, ``update_slots=False``, float16 outputs, the Parameters after the update, and the argument
    and input checks."""
    T, P = ms.Tensor, ms.ops.operations
    out = []

    def run(prim, idx, dt=np.float32, idt=np.int32, gshape=None):
        var = ms.Parameter(T(np.arange(8).reshape(4, 2).astype(dt) / 10), name="var")
        acc = ms.Parameter(T(np.ones((4, 2), dt)), name="accum")
        g = T(np.arange(2 * len(idx)).reshape(len(idx), 2).astype(dt) / 5 + 0.1) if gshape is None else \
            T(np.ones(gshape, dt))
        res = prim(var, acc, g, T(np.array(idx, idt)))
        return (res[0], res[1]) if dt == np.float16 else (res[0], res[1], var.value(), acc.value())
    for v2 in (False, True):
        def mk(us=True):
            return P.SparseApplyAdagradV2(lr=0.1, epsilon=1e-6, update_slots=us) if v2 else \
                P.SparseApplyAdagrad(lr=0.1, update_slots=us)
        out += [_raised(lambda: run(mk(), [2, 0])), _raised(lambda: run(mk(), [2, 0], idt=np.int64)),
                _raised(lambda: run(mk(False), [2, 0])), _raised(lambda: run(mk(), [2, 0], np.float16)),
                _raised(lambda: run(mk(), [2, 0], gshape=(2, 3))), _raised(lambda: run(mk(), [2, 0], gshape=(3, 2))),
                _raised(lambda: run(mk(), [2, 0], np.float64)), _raised(lambda: run(mk(), [2.0, 0.0], idt=np.float32)),
                _raised(lambda: run(mk(), [[2, 0]]))]
        if not v2:
            out += [run(mk(), [1, 1]), run(mk(), [4, 0]), run(mk(), [-1, 0])]
    out += [_raised(lambda: P.SparseApplyAdagrad(lr=1)), _raised(lambda: P.SparseApplyAdagrad(lr=0.1, update_slots=1)),
            _raised(lambda: P.SparseApplyAdagradV2(lr=1, epsilon=1e-6)),
            _raised(lambda: P.SparseApplyAdagradV2(lr=0.1, epsilon=1))]
    return out


def case_sparse_count_sparse_output(ms):
    """``sparse_ops.SparseCountSparseOutput`` (tests/st/ops/cpu/test_sparse_count_sparse_output.py): per batch
    row, the weighted count of each value (zero totals kept), sorted by (row, value); ``binary_output``,
    ``minlength``/``maxlength``, one-dimensional indices, no weights, weight dtypes, and the checks."""
    from importlib import import_module
    sp = import_module(ms.__name__ + ".ops.operations.sparse_ops")
    T, i64 = ms.Tensor, np.int64
    idx = T(np.array([[1, 2], [3, 4], [2, 1], [2, 2], [1, 0], [3, 3], [2, 0], [2, 2]], i64))
    vals = np.array([0, 2, 8, 8, 1, 2, 3, 7])
    shape = T(np.array([5, 5], i64))
    w = np.array([2, 5, 1, 0, 4, 2, 2, 2])
    out = []
    for b, lo, hi in ((False, -1, -1), (True, -1, -1), (False, 12, -1), (False, -1, 4), (True, 3, 6), (False, 2, 3),
                      (False, -1, 20), (False, -1, 0), (False, 12, 4)):
        out.append(_raised(lambda: sp.SparseCountSparseOutput(b, lo, hi)(idx, T(vals.astype(np.int32)), shape,
                                                                         T(w.astype(np.int64)))))
    for vt, wt in ((np.int64, np.int32), (np.int32, np.float32), (np.int32, np.float64)):   # (int64, float64):
        # MindSpore's kernel reads int64 values as int32 there
        out.append(_raised(lambda: sp.SparseCountSparseOutput()(idx, T(vals.astype(vt)), shape,
                                                                T((w * 1.25).astype(wt)))))
    out.append(_raised(lambda: sp.SparseCountSparseOutput()(idx, T(vals), shape, T(np.zeros((0,), i64)))))
    out.append(_raised(lambda: sp.SparseCountSparseOutput()(T(np.array([[0], [3], [1], [3]], i64)),
                                                            T(np.array([4, 1, 4, 0], i64)), T(np.array([6], i64)),
                                                            T(np.array([1.5, 2, 3, 4], np.float32)))))
    bad = T(np.array([[1, 2], [8, 6], [2, 2], [2, 1]], i64))
    v4, s43, w4 = T(np.array([0, 2, 8, 8], i64)), T(np.array([4, 3], i64)), T(np.array([1, 2, 1, 0], i64))
    out += [_raised(lambda: sp.SparseCountSparseOutput()(bad, v4, s43, w4)),
            _raised(lambda: sp.SparseCountSparseOutput()(idx[:4], v4, T(np.array([4, 4], i64)), w4[:3])),
            _raised(lambda: sp.SparseCountSparseOutput()(idx[:4], T(np.array([0, -2, 8, 8], i64)),
                                                         T(np.array([4, 4], i64)), w4)),
            _raised(lambda: sp.SparseCountSparseOutput()(idx[:4], v4[:3], T(np.array([4, 4], i64)), w4[:3])),
            _raised(lambda: sp.SparseCountSparseOutput()(idx[:4].astype(ms.int32), v4, T(np.array([4, 4], i64)), w4)),
            _raised(lambda: sp.SparseCountSparseOutput()(idx[:4], v4.astype(ms.float32), T(np.array([4, 4], i64)), w4)),
            _raised(lambda: sp.SparseCountSparseOutput()(idx[:4], v4, T(np.array([4, 4, 4], i64)), w4)),
            _raised(lambda: sp.SparseCountSparseOutput(binary_output=1)),
            _raised(lambda: sp.SparseCountSparseOutput(minlength=1.5))]
    return out


def case_random_choice_with_mask_output_limit(ms):
    """``RandomChoiceWithMask`` (tests/st/ops/cpu/test_random_choice_with_mask_op.py, ``count=2051328285``):
    MindSpore's kernel refuses an Int32 ``(count, rank)`` output of more than INT_MAX bytes (RuntimeError)
    before msjax allocates it; ``choice_with_mask`` shares the check."""
    T, P = ms.Tensor, ms.ops.operations
    x5, x3 = T(np.ones((1, 1, 1, 1, 2), bool)), T(np.ones((2, 2, 2), bool))
    return [_raised(lambda: P.RandomChoiceWithMask(count=107374183, seed=1)(x5)[1]),
            _raised(lambda: P.RandomChoiceWithMask(count=178956971, seed=1)(x3)[1]),
            _raised(lambda: ms.ops.choice_with_mask(x3, count=178956971)[1]),
            P.RandomChoiceWithMask(count=10, seed=1)(x3)[1]]
