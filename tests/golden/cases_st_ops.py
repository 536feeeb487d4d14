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


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
