"""Golden cases for the msjax core (Tensor, Parameter, nn.Cell, grad APIs).

Every ``case_<name>(ms)`` takes the top-level module (``mindspore`` or
``msjax``), returns a value (nested tuples/lists/dicts of Tensors, Python
scalars, strings, bools) or raises.  Results are serialized with
``tests/golden/serialize.py`` and compared against fixtures recorded with
real MindSpore 2.10 (``record_mindspore.py``).

Rules: no other import of mindspore/msjax here; numpy is fine; everything
small and deterministic (weights are set explicitly).

Name prefixes:
  print_   repr()/str() formatting            dtype_   default dtype inference
  tensor_  Tensor basics / ops                cell_    nn.Cell / Parameter basics
  grad_    ms.grad                            vag_     ms.value_and_grad
  gradop_  ops.GradOperation                  err_     error handling
"""
import numpy as np


# ===========================================================================
# helpers
# ===========================================================================
def _rs(t):
    return {"repr": repr(t), "str": str(t)}


def _net001(ms):
    """Seed 001: Net(3, 1) = Dense(3, 1, has_bias=False) + MSELoss."""
    nn = ms.nn

    class Net(nn.Cell):
        def __init__(self, in_channel, out_channel):
            super(Net, self).__init__()
            self.fc = nn.Dense(in_channel, out_channel, has_bias=False)
            self.loss = nn.MSELoss()

        def construct(self, x, y):
            logits = self.fc(x).squeeze()
            loss = self.loss(logits, y)
            return loss, logits

    net = Net(3, 1)
    net.fc.weight.set_data(ms.Tensor([[2, 3, 4]], ms.float32))
    x = ms.Tensor([[1, 2, 3]], ms.float32)
    y = ms.Tensor(19, ms.float32)
    return net, x, y


def _net001_sum(ms):
    """Seed 001 Net2: returns loss + logits (single output)."""
    nn = ms.nn

    class Net2(nn.Cell):
        def __init__(self, in_channel, out_channel):
            super().__init__()
            self.fc = nn.Dense(in_channel, out_channel, has_bias=False)
            self.loss = nn.MSELoss()

        def construct(self, x, y):
            logits = self.fc(x).squeeze()
            loss = self.loss(logits, y)
            return loss + logits

    net = Net2(3, 1)
    net.fc.weight.set_data(ms.Tensor([[2, 3, 4]], ms.float32))
    return net


def _net001_loss_only(ms):
    """Same as Net(3, 1) but returns only the loss (single output)."""
    nn = ms.nn

    class NetLoss(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 1, has_bias=False)
            self.loss = nn.MSELoss()

        def construct(self, x, y):
            logits = self.fc(x).squeeze()
            return self.loss(logits, y)

    net = NetLoss()
    net.fc.weight.set_data(ms.Tensor([[2, 3, 4]], ms.float32))
    return net


def _net004(ms, requires_grad=True):
    """Seed 004: f(x, y) = MatMul(x * z, y) with Parameter z = [1.0]."""
    nn, ops = ms.nn, ms.ops
    Tensor, Parameter = ms.Tensor, ms.Parameter

    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.matmul = ops.MatMul()
            self.z = Parameter(Tensor(np.array([1.0], np.float32)), name='z',
                               requires_grad=requires_grad)

        def construct(self, x, y):
            x = x * self.z
            out = self.matmul(x, y)
            return out

    return Net()


def _xy004(ms):
    Tensor = ms.Tensor
    x = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], dtype=ms.float32)
    y = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], dtype=ms.float32)
    return x, y


def _sens004(ms):
    return ms.Tensor([[0.1, 0.6, 0.2], [0.8, 1.3, 1.1]], dtype=ms.float32)


def _two_param_net(ms):
    """w1 trainable, w2 requires_grad=False; out = sum(x * w1 * w2)."""
    nn, Tensor, Parameter = ms.nn, ms.Tensor, ms.Parameter

    class TwoParam(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w1 = Parameter(Tensor([2.0, 3.0], ms.float32), name='w1')
            self.w2 = Parameter(Tensor([4.0, 5.0], ms.float32), name='w2',
                                requires_grad=False)

        def construct(self, x):
            return (x * self.w1 * self.w2).sum()

    return TwoParam()


def _f_xy(x, y):
    return x * y


def _f_sq_sum(x):
    return (x * x).sum()


def _f_two_out(x):
    return x * 2, x * 3


def _f_three_out(x):
    return (x * x).sum(), x * 2, x + 1


def _f_cubic(x):
    return x * x * x


def _f_sq(a):
    return a * a


def _f_times2(a):
    return a * 2


def _f_sum_mul(a, b):
    return (a * b).sum()


def _f_outer(a):
    return a.reshape(3, 1) * a


def _f_index_mul(a):
    return a[0] * a[1]


def _f_py_const(a):
    return 1.0


# ===========================================================================
# printing
# ===========================================================================
def case_print_scalar_float32(ms):
    T = ms.Tensor
    return [_rs(T(1.0)), _rs(T(-2.5)), _rs(T(0.1)), _rs(T(3.14159)),
            _rs(T(100.0)), _rs(T(1e10)), _rs(T(1e-5)), _rs(T(0.0)),
            _rs(T(-0.0)), _rs(T(123456.789)), _rs(T(20.0)), _rs(T(-2.0))]


def case_print_scalar_int64(ms):
    T = ms.Tensor
    return [_rs(T(5)), _rs(T(-3)), _rs(T(0)), _rs(T(123456789))]


def case_print_scalar_bool(ms):
    return [_rs(ms.Tensor(True)), _rs(ms.Tensor(False))]


def case_print_scalar_float16(ms):
    T = ms.Tensor
    return [_rs(T(1.5, ms.float16)), _rs(T(0.1, ms.float16)), _rs(T(-3.0, ms.float16))]


def case_print_scalar_float64(ms):
    T = ms.Tensor
    return [_rs(T(2.5, ms.float64)), _rs(T(0.1, ms.float64)),
            _rs(T(np.float64(1.0) / 3))]


def case_print_scalar_int32(ms):
    T = ms.Tensor
    return [_rs(T(7, ms.int32)), _rs(T(-7, ms.int32)), _rs(T(np.int32(3)))]


def case_print_1d_float(ms):
    T = ms.Tensor
    return [_rs(T([1.0, 2.0, 3.0])), _rs(T([0.1, 0.25, -3.0])),
            _rs(T([1.5, -2.25])), _rs(T([4.0, 6.0, 8.0])),
            _rs(T([0.001, 1000.0])), _rs(T([1e-8, 1.0])), _rs(T([1.0])),
            _rs(T([2.15359993e+01]))]


def case_print_1d_int(ms):
    T = ms.Tensor
    return [_rs(T([1, 2, 3])), _rs(T([-1, 10, 100])), _rs(T([1, 2], ms.int32)),
            _rs(T([5], ms.int8)), _rs(T([1, 2], ms.uint8))]


def case_print_1d_bool(ms):
    return [_rs(ms.Tensor([True, False, True])), _rs(ms.Tensor([False]))]


def case_print_1d_float16_float64(ms):
    T = ms.Tensor
    return [_rs(T([1.5, 2.0], ms.float16)), _rs(T([0.1, 0.2], ms.float64))]


def case_print_2d_float(ms):
    T = ms.Tensor
    return [_rs(T([[1.0, 2.0], [3.0, 4.0]])),
            _rs(T([[4.5099998, 2.7, 3.6000001], [4.5099998, 2.7, 3.6000001]])),
            _rs(T([[2.211, 0.51, 1.49], [5.588, 2.68, 4.07]])),
            _rs(T([[4.0, 6.0, 8.0]])), _rs(T([[-1.5, 0.0, 2.25]]))]


def case_print_2d_int(ms):
    return [_rs(ms.Tensor([[1, 2], [3, 4]])), _rs(ms.Tensor([[1, -20, 300]], ms.int32))]


def case_print_2d_bool(ms):
    return [_rs(ms.Tensor([[True, False], [False, True]]))]


def case_print_3d(ms):
    T = ms.Tensor
    return [_rs(T(np.arange(12, dtype=np.float32).reshape(2, 2, 3))),
            _rs(T(np.arange(12).reshape(2, 3, 2)))]


def case_print_nan_inf(ms):
    T = ms.Tensor
    return [_rs(T([1.0, float('nan'), float('inf'), -float('inf')])),
            _rs(T(float('nan'))), _rs(T(float('inf'))), _rs(T(-float('inf'))),
            _rs(T([[float('nan'), 1.5], [2.0, float('inf')]]))]


def case_print_large_1d(ms):
    T = ms.Tensor
    return [_rs(T(np.arange(2000, dtype=np.float32))),
            _rs(T(np.arange(2000))),
            _rs(T(np.arange(1001, dtype=np.float32)))]


def case_print_threshold_1d_1000(ms):
    return _rs(ms.Tensor(np.arange(1000, dtype=np.float32)))


def case_print_threshold_1d_1000_int(ms):
    return _rs(ms.Tensor(np.arange(1000, dtype=np.int32)))


def case_print_large_2d(ms):
    T = ms.Tensor
    return [_rs(T(np.arange(2000, dtype=np.float32).reshape(40, 50))),
            _rs(T(np.arange(1024, dtype=np.float32).reshape(32, 32))),
            _rs(T(np.ones((100, 100), np.int32)))]


def case_print_large_3d(ms):
    return _rs(ms.Tensor(np.arange(2000, dtype=np.float32).reshape(10, 10, 20)))


def case_print_large_bool(ms):
    return _rs(ms.Tensor(np.arange(2000) % 3 == 0))


def case_print_wide_1d_no_summary(ms):
    # long line wrapping without summarization
    return [_rs(ms.Tensor(np.arange(30, dtype=np.float32) / 7)),
            _rs(ms.Tensor(np.arange(30)))]


def case_print_wrap_widths(ms):
    # line wrapping of long 1-D / 2-D arrays for various element widths
    T = ms.Tensor
    return [_rs(T(np.arange(30, dtype=np.float16))),
            _rs(T(np.arange(30, dtype=np.float64) / 3)),
            _rs(T(np.arange(30) * 100000)),
            _rs(T(np.arange(30, dtype=np.int8))),
            _rs(T(np.arange(30) % 2 == 0)),
            _rs(T(np.arange(90, dtype=np.float32).reshape(3, 30))),
            _rs(T(np.arange(60).reshape(2, 30)))]


def case_print_summary_shapes(ms):
    # ndim >= 2: every dim longer than 6 is summarized to 3 ... 3
    T = ms.Tensor
    out = []
    for sh in [(2, 6), (2, 7), (7, 2), (1, 7), (2, 2, 7), (7, 1, 1)]:
        out.append(_rs(T(np.arange(int(np.prod(sh))).reshape(sh))))
    out.append(_rs(T(np.arange(14, dtype=np.float32).reshape(2, 7))))
    return out


def case_print_summary_hidden_width(ms):
    # column width is computed from the displayed elements only
    a = np.arange(7).reshape(1, 7)
    a[0, 3] = 12345
    b = np.arange(1001)
    b[500] = 123456
    return [_rs(ms.Tensor(a)), _rs(ms.Tensor(b))]


def case_print_float_extremes(ms):
    T = ms.Tensor
    return [_rs(T([1e100, 1e-300, -1.0], ms.float64)), _rs(T(np.float64(1e100))),
            _rs(T([[1.0, float('nan')]], ms.float16)), _rs(T([-1, 2])),
            _rs(T(3, ms.uint8)), _rs(T([3.4e38, -3.4e38]))]


def case_print_bfloat16(ms):
    T = ms.Tensor
    return [_rs(T(1.0, ms.bfloat16)), _rs(T([1.0, 2.5], ms.bfloat16))]


def case_print_mixed_magnitudes(ms):
    T = ms.Tensor
    return [_rs(T([1e-3, 1e5, 3.0])), _rs(T([1e20, 1.0])), _rs(T([123456.0, 0.5]))]


def case_print_empty(ms):
    return [_rs(ms.Tensor(np.zeros((0,), np.float32))),
            _rs(ms.Tensor(np.zeros((0, 3), np.float32)))]


def case_print_tuple_of_tensors(ms):
    t1 = ms.Tensor([[4.0, 6.0, 8.0]])
    t2 = ms.Tensor(-2.0)
    return {"str": str((t1, t2)), "repr": repr((t1, t2)),
            "str1": str((ms.Tensor(20.0),))}


def case_print_list_of_tensors(ms):
    return str([ms.Tensor([1, 2]), ms.Tensor(1.5)])


def case_print_dtypes(ms):
    out = {}
    for name in ["float16", "float32", "float64", "int8", "int16", "int32",
                 "int64", "uint8", "bool_", "bfloat16", "complex64"]:
        d = getattr(ms, name, None)
        out[name] = None if d is None else [str(d), repr(d)]
    return out


def case_print_dtype_aliases(ms):
    return [str(ms.float_), str(ms.int_), str(ms.half), str(ms.single),
            str(ms.double), ms.float32 == ms.float32, ms.float32 == ms.float64]


def case_print_tensor_dtype(ms):
    T = ms.Tensor
    return [str(T(1.0).dtype), repr(T(1.0).dtype), str(T([1]).dtype),
            str(T(True).dtype), str(T(1.0, ms.float16).dtype)]


def case_print_parameter(ms):
    p = ms.Parameter(ms.Tensor([1.0, 2.0]), name='w')
    return {"repr": repr(p), "str": str(p), "name": p.name,
            "requires_grad": p.requires_grad,
            "data_repr": repr(p.data) if hasattr(p, "data") else None}


def case_print_parameter_scalar_nograd(ms):
    p = ms.Parameter(ms.Tensor(3.0), name='s', requires_grad=False)
    return {"repr": repr(p), "str": str(p), "name": p.name,
            "requires_grad": p.requires_grad}


def case_print_parameter_int_2d(ms):
    p = ms.Parameter(ms.Tensor([[1, 2], [3, 4]], ms.int32), name='k')
    return [repr(p), str(p)]


def case_print_parameter_default_name(ms):
    # MindSpore names unnamed Parameters 'Parameter#<global counter>'; the
    # counter depends on process history, so only its shape is recorded.
    p = ms.Parameter(ms.Tensor([1.0]))
    prefix, sep, num = p.name.partition('#')
    return [prefix, sep, num.isdigit(), repr(p).replace(p.name, '<NAME>')]


def case_print_net_parameter(ms):
    net, _, _ = _net001(ms)
    w = net.fc.weight
    return [w.name, repr(w), str(w), [p.name for p in net.trainable_params()]]


def case_print_print_function(ms):
    import io
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print(ms.Tensor(1.0), ms.Tensor(20.0))
        print("grad", ms.Tensor([[4.0, 6.0, 8.0]]))
        print("grad", (ms.Tensor([[2.0, 4.0, 6.0]]),))
        print(ms.Tensor(-2.0))
    return buf.getvalue()


# ===========================================================================
# dtype inference
# ===========================================================================
def _dv(t):
    return (str(t.dtype), t)


def case_dtype_python_scalars(ms):
    T = ms.Tensor
    return [_dv(T(1)), _dv(T(1.0)), _dv(T(True)), _dv(T(-7))]


def case_dtype_python_lists(ms):
    T = ms.Tensor
    return [_dv(T([1, 2])), _dv(T([1.0, 2])), _dv(T([True, False])),
            _dv(T([[1, 2], [3, 4]])), _dv(T([True, 2])), _dv(T((1, 2.5)))]


def case_dtype_numpy(ms):
    T = ms.Tensor
    return [_dv(T(np.array([1.0, 2.0]))),               # float64
            _dv(T(np.array([1, 2], np.int32))),
            _dv(T(np.array([1, 2], np.int64))),
            _dv(T(np.float32(1.5))),
            _dv(T(np.float64(1.5))),
            _dv(T(np.int32(3))),
            _dv(T(np.array(2.0, np.float32))),
            _dv(T(np.array([True, False]))),
            _dv(T(np.array([1, 2], np.float16))),
            _dv(T(np.array([1, 2], np.uint8)))]


def case_dtype_explicit(ms):
    T = ms.Tensor
    return [_dv(T([[1, 2], [3, 4]], ms.float32)),
            _dv(T(2.5, ms.int32)),
            _dv(T(-2.5, ms.int32)),
            _dv(T(2.7, ms.int64)),
            _dv(T(1, ms.float64)),
            _dv(T([0, 1, 2], ms.bool_)),
            _dv(T(np.array([1.7, 2.2]), ms.int32)),
            _dv(T([1.0, 2.0], dtype=ms.float16))]


def case_dtype_tensor_from_tensor(ms):
    T = ms.Tensor
    a = T([1, 2, 3])
    b = T(a)
    c = T(a, ms.float32)
    d = T(T(1.5))
    return [_dv(b), _dv(c), _dv(d)]


def case_dtype_input_data_kw(ms):
    return _dv(ms.Tensor(input_data=[1.0, 2.0], dtype=ms.float32))


# ===========================================================================
# Tensor basics
# ===========================================================================
def _a23(ms):
    return ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))


def case_tensor_shape_ndim_size(ms):
    t = _a23(ms)
    s = ms.Tensor(1.0)
    return [t.shape, t.ndim, t.size, s.shape, s.ndim, s.size, len(t),
            type(t.shape).__name__]


def case_tensor_item(ms):
    T = ms.Tensor
    return [T(2.5).item(), T(3).item(), T(True).item(), T([[4.0]]).item(),
            T(1.5, ms.float16).item(), T(7, ms.int32).item()]


def case_tensor_item_multi_error(ms):
    return ms.Tensor([1.0, 2.0]).item()


def case_tensor_python_conversions(ms):
    T = ms.Tensor
    return [float(T(2.5)), int(T(3.7)), bool(T(0.0)), bool(T(2)), int(T(-3))]


def case_tensor_bool_of_array_error(ms):
    return bool(ms.Tensor([1.0, 2.0]))


def case_tensor_asnumpy(ms):
    T = ms.Tensor
    return [T([1.0, 2.0]).asnumpy(), T([1, 2]).asnumpy(), T(True).asnumpy(),
            T(1.5).asnumpy(), T([1, 2], ms.float16).asnumpy()]


def case_tensor_astype(ms):
    T = ms.Tensor
    t = T([-1.7, 0.5, 2.9])
    return [t.astype(ms.int32), t.astype(ms.float16), t.astype(ms.bool_),
            T([1, 0, 2]).astype(ms.float32), t.astype(ms.int64),
            T([300, -5]).astype(ms.uint8)]


def case_tensor_arith_scalar_int(ms):
    t = ms.Tensor([1, 2, 3])
    return [t + 1, t * 2, t - 1, 1 - t, t + 1.5, t * 2.5, t / 2, t // 2, t % 2,
            t ** 2, 2 ** t, -t, t + True]


def case_tensor_arith_scalar_float(ms):
    t = ms.Tensor([1.0, 2.0, 3.0])
    return [t + 1, t * 2, t / 2, 2 / t, t ** 2, t // 2, t % 2, -t, t - 0.5,
            abs(-t)]


def case_tensor_arith_mixed_dtypes(ms):
    T = ms.Tensor
    i64 = T([1, 2])
    i32 = T([1, 2], ms.int32)
    f32 = T([0.5, 1.5])
    f16 = T([0.5, 1.5], ms.float16)
    f64 = T([0.5, 1.5], ms.float64)
    b = T([True, False])
    return [i64 + i32, i64 + f32, i32 + f16, f16 + f32, f32 + f64, b + b,
            b + i32, b * f32, i64 / i64, i32 / i32, T(2) * f32, T(2.0) * i64]


def case_tensor_arith_float16_scalar(ms):
    t = ms.Tensor([1.0, 2.0], ms.float16)
    return [t + 1, t * 2.5, t / 2]


def case_tensor_comparison(ms):
    T = ms.Tensor
    t = T([1.0, 2.0, 3.0])
    return [t > 1, t >= 2, t < 2, t <= 2, t == 2, t != 2, t == T([1.0, 0.0, 3.0]),
            T([1, 2]) > 1.5]


def case_tensor_indexing(ms):
    t = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    return [t[0], t[1, 2], t[:, 1], t[-1], t[::2], t[1:3, ::2], t[None].shape,
            t[..., 0], t[0, None], t[ms.Tensor([0, 2])]]


def case_tensor_indexing_bool_mask(ms):
    t = ms.Tensor([1.0, 5.0, 3.0])
    return t[t > 2]


def case_tensor_setitem(ms):
    t = ms.Tensor([1.0, 2.0, 3.0])
    t[0] = 5.0
    u = ms.Tensor(np.zeros((2, 2), np.float32))
    u[1] = ms.Tensor([7.0, 8.0])
    return [t, u]


def case_tensor_shape_ops(ms):
    t = _a23(ms)
    return [t.reshape(3, 2), t.reshape((6,)), t.reshape(-1, 2), t.view(3, 2),
            t.transpose(), t.transpose(1, 0), t.T, t.flatten(),
            t.expand_dims(0).shape, t.expand_dims(-1).shape,
            ms.Tensor([[[1.0], [2.0]]]).squeeze(), ms.Tensor([[1.0, 2.0]]).squeeze(0),
            ms.Tensor(np.zeros((1, 3, 1), np.float32)).squeeze(2).shape]


def case_tensor_reductions_float(ms):
    t = _a23(ms)
    return [t.sum(), t.sum(0), t.sum(axis=1), t.sum(axis=1, keepdims=True),
            t.mean(), t.mean(0), t.mean(axis=1, keep_dims=True),
            t.max(), t.max(axis=0), t.min(), t.min(axis=1, keepdims=True),
            t.sum(axis=(0, 1))]


def case_tensor_reductions_int_bool(ms):
    T = ms.Tensor
    i = T([[1, 2], [3, 4]])
    b = T([True, False, True])
    return [i.sum(), i.sum(0), i.max(), i.min(axis=1), b.sum(), b.any(), b.all(),
            T([1, 2], ms.int32).sum()]


def case_tensor_mean_int(ms):
    return ms.Tensor([1, 2]).mean()


def case_tensor_abs_and_math(ms):
    t = ms.Tensor([-1.5, 0.0, 2.0])
    return [t.abs(), abs(t), ms.Tensor([-2, 3]).abs(), t.abs().sqrt(),
            t.exp(), ms.ops.square(t), ms.ops.exp(t)]


def case_tensor_ops_functions(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0], [3.0, 4.0]])
    b = T([[0.5], [1.0]])
    return [ops.matmul(a, b), ops.mul(a, 2.0), ops.add(a, b), ops.ones((2, 2), ms.float32),
            ops.zeros((2,), ms.int32), ops.reshape(a, (4,)), ops.transpose(a, (1, 0)),
            ops.ReduceSum()(a), ops.ReduceSum(keep_dims=True)(a, 1), ops.MatMul()(a, b),
            ops.ReduceMean()(a, 0), ops.sum(a, 1), ops.mean(a)]


def case_tensor_ops_class_primitives(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0], [3.0, 4.0]])
    return [ops.Mul()(a, a), ops.Add()(a, 1.0), ops.Square()(a), ops.ExpandDims()(a, 0).shape,
            ops.Squeeze()(T([[1.0, 2.0]])), ops.Reshape()(a, (1, 4)),
            ops.Transpose()(a, (1, 0)), ops.Cast()(a, ms.int32)]


def case_tensor_matmul_operator(ms):
    a = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    return [a @ a, a @ ms.Tensor([1.0, 1.0])]


def case_tensor_equality_identity(ms):
    a = ms.Tensor([1.0, 2.0])
    return [isinstance(a, ms.Tensor), a.dtype == ms.float32, a.dtype is ms.float32,
            isinstance(ms.Parameter(a, name='p'), ms.Tensor)]


def case_tensor_copy_semantics(ms):
    a = np.array([1.0, 2.0], np.float32)
    t = ms.Tensor(a)
    a[0] = 100.0
    n = t.asnumpy()
    return [t, n]


# ===========================================================================
# Cell / Parameter basics
# ===========================================================================
def case_cell_forward_001(ms):
    net, x, y = _net001(ms)
    return net(x, y)


def case_cell_forward_inner_set_train_false_in_train_step(ms):
    """official/cv/PointNet's loop: a compiled TrainOneStepCell step, then
    ``network.set_train(False)`` and an evaluation call on the inner network, then more
    steps with no ``set_train(True)``. PyNative (and msjax in both modes) trains the later
    steps with the BatchNorm in inference mode; MindSpore's GRAPH_MODE reuses the step's
    graph (keyed by the TrainOneStepCell's own phase and the arguments), so its BatchNorm
    stays in training mode (core_graph.json, docs/differences.md)."""
    nn = ms.nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
            self.bn = nn.BatchNorm1d(3)

        def construct(self, x):
            return self.bn(self.fc(x))

    class Loss(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x):
            return (self.net(x) ** 2 * ms.Tensor([1.0, 2.0, 3.0])).sum()

    net = Net()
    net.set_train(True)
    step = nn.TrainOneStepCell(Loss(net), nn.SGD(net.trainable_params(), 0.01))
    x = ms.Tensor([[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, 2.0, -1.0], [2.5, 0.5, -1.5, 1.0],
                   [-1.0, 3.0, 1.0, 0.0], [0.5, 0.5, 0.5, 0.5]])
    losses = [step(x)]
    net.set_train(False)
    evaluated = net(x)
    losses += [step(x), step(x)]
    return [losses, evaluated, net.bn.gamma, net.bn.moving_mean, net.bn.moving_variance]


def case_cell_trainable_params_001(ms):
    net, _, _ = _net001(ms)
    return [(p.name, p) for p in net.trainable_params()]


def case_cell_dense_with_bias(ms):
    nn = ms.nn
    d = nn.Dense(2, 2)
    d.weight.set_data(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]))
    d.bias.set_data(ms.Tensor([0.5, -0.5]))
    return [d(ms.Tensor([[1.0, 1.0]])), [p.name for p in d.trainable_params()],
            d.weight.shape, d.bias.shape]


def case_cell_mseloss(ms):
    nn = ms.nn
    return [nn.MSELoss()(ms.Tensor([1.0, 2.0]), ms.Tensor([0.0, 0.0])),
            nn.MSELoss(reduction='sum')(ms.Tensor([1.0, 2.0]), ms.Tensor([0.0, 0.0])),
            nn.MSELoss(reduction='none')(ms.Tensor([1.0, 2.0]), ms.Tensor([0.0, 0.0]))]


def case_cell_requires_grad_false_params(ms):
    net = _two_param_net(ms)
    return {"trainable": [p.name for p in net.trainable_params()],
            "all": [p.name for p in net.get_parameters()],
            "untrainable": [p.name for p in net.untrainable_params()],
            "w2": net.w2}


def case_cell_parameter_set_data(ms):
    p = ms.Parameter(ms.Tensor([1.0, 2.0]), name='w')
    p.set_data(ms.Tensor([3.0, 4.0]))
    r1 = repr(p)
    q = p * 2
    return [p, q, r1, type(q).__name__]


def case_cell_parameter_tuple(ms):
    net, _, _ = _net001(ms)
    pt = ms.ParameterTuple(net.trainable_params())
    return [type(pt).__name__, len(pt), pt[0].name, isinstance(pt, tuple)]


def case_cell_004_forward(ms):
    net = _net004(ms)
    x, y = _xy004(ms)
    return [net(x, y), [p.name for p in net.trainable_params()]]


# ===========================================================================
# ms.grad: the seed-001 table
# ===========================================================================
def _grad001(ms, grad_position, weights_kind, has_aux, vag=False, return_ids=False):
    net, x, y = _net001(ms)
    if weights_kind is None:
        w = None
    elif weights_kind == "list":
        w = net.trainable_params()
    elif weights_kind == "param":
        w = net.fc.weight
    elif weights_kind == "ptuple":
        w = ms.ParameterTuple(net.trainable_params())
    else:
        raise AssertionError(weights_kind)
    api = ms.value_and_grad if vag else ms.grad
    kw = dict(grad_position=grad_position, weights=w, has_aux=has_aux)
    if return_ids:
        kw["return_ids"] = True
    return api(net, **kw)(x, y)


_TABLE = [("pos0", 0, None), ("pos1", 1, None), ("pos01", (0, 1), None),
          ("posNone_w", None, "list"), ("pos0_w", 0, "list"),
          ("pos01_w", (0, 1), "list")]


def _make_table_cases():
    g = globals()
    for tag, pos, wk in _TABLE:
        for aux in (True, False):
            for vag in (False, True):
                name = "case_%s_%s_%s" % ("vag" if vag else "grad", tag,
                                           "aux" if aux else "noaux")

                def f(ms, pos=pos, wk=wk, aux=aux, vag=vag):
                    return _grad001(ms, pos, wk, aux, vag)
                f.__name__ = name
                f.__doc__ = "seed 001 table row: grad_position=%r weights=%r has_aux=%r" % (
                    pos, wk, aux)
                g[name] = f


_make_table_cases()


def case_grad_posNone_none_aux(ms):
    return _grad001(ms, None, None, True)


def case_vag_posNone_none_aux(ms):
    return _grad001(ms, None, None, True, vag=True)


def case_grad_defaults(ms):
    net, x, y = _net001(ms)
    return ms.grad(net)(x, y)


def case_vag_defaults(ms):
    net, x, y = _net001(ms)
    return ms.value_and_grad(net)(x, y)


def case_grad_sum_net2(ms):
    net = _net001_sum(ms)
    _, x, y = _net001(ms)
    return ms.grad(net, grad_position=0, weights=None, has_aux=False)(x, y)


def case_grad_weights_single_param(ms):
    return [_grad001(ms, None, "param", True), _grad001(ms, 0, "param", True),
            _grad001(ms, None, "param", False)]


def case_vag_weights_single_param(ms):
    return [_grad001(ms, None, "param", True, vag=True),
            _grad001(ms, (0, 1), "param", False, vag=True)]


def case_grad_weights_parametertuple(ms):
    return [_grad001(ms, None, "ptuple", True), _grad001(ms, 0, "ptuple", True),
            _grad001(ms, (0, 1), "ptuple", False)]


def case_vag_weights_parametertuple(ms):
    return _grad001(ms, 0, "ptuple", True, vag=True)


def case_grad_position_tuple_one(ms):
    return [_grad001(ms, (0,), None, True), _grad001(ms, (1,), None, False),
            _grad001(ms, (0,), "list", True)]


def case_grad_position_number_args_dropped(ms):
    """``grad_position`` naming Python numbers: they are dropped first, so one Tensor position left
    gives its gradient unwrapped, none an empty tuple (tests/st/ops/test_ops_clamp.py's
    ``ms.grad(f, (0, 1, 2))(x, 2, 7)``), with weights and in ``value_and_grad`` too."""
    x = ms.Tensor(np.array([[1.0, 5.0, 9.0]], np.float32))

    def f(a, lo, hi):
        return ms.ops.clamp(a, lo, hi)

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([2.0, 3.0, 4.0], np.float32)), name="w")

        def construct(self, a, s):
            return a * self.w * s
    net = Net()
    return [ms.grad(f, (0, 1, 2))(x, 2, 7), ms.grad(f, (1, 2))(x, 2, 7), ms.grad(f, (2, 0))(x, 2.0, 7.0),
            ms.grad(f, (0, 2))(x, ms.Tensor(np.array(2.0, np.float32)), ms.Tensor(np.array(7.0, np.float32))),
            ms.grad(net, (0, 1), net.trainable_params())(x, 2.0), ms.value_and_grad(net, (0, 1))(x, 3.0)]


def case_vag_position_tuple_one(ms):
    return [_grad001(ms, (0,), None, True, vag=True),
            _grad001(ms, (1,), "list", False, vag=True)]


def case_grad_position_reversed(ms):
    return _grad001(ms, (1, 0), None, True)


def case_grad_return_ids_pos0(ms):
    return _grad001(ms, 0, None, True, return_ids=True)


def case_grad_return_ids_pos1(ms):
    return _grad001(ms, 1, None, False, return_ids=True)


def case_grad_return_ids_pos1_aux(ms):
    return _grad001(ms, 1, None, True, return_ids=True)


def case_grad_return_ids_pos0_noaux(ms):
    return _grad001(ms, 0, None, False, return_ids=True)


def case_grad_return_ids_pos01(ms):
    return _grad001(ms, (0, 1), None, True, return_ids=True)


def case_grad_return_ids_posNone_w(ms):
    return _grad001(ms, None, "list", True, return_ids=True)


def case_grad_return_ids_pos0_w(ms):
    return _grad001(ms, 0, "list", True, return_ids=True)


def case_grad_return_ids_pos01_w(ms):
    return _grad001(ms, (0, 1), "list", False, return_ids=True)


def case_grad_return_ids_single_param(ms):
    return _grad001(ms, None, "param", True, return_ids=True)


def case_vag_return_ids_pos01_w(ms):
    return _grad001(ms, (0, 1), "list", True, vag=True, return_ids=True)


def case_vag_return_ids_pos0(ms):
    return _grad001(ms, 0, None, False, vag=True, return_ids=True)


def case_grad_loss_only_net_weights(ms):
    net = _net001_loss_only(ms)
    _, x, y = _net001(ms)
    return [ms.grad(net, None, net.trainable_params())(x, y),
            ms.value_and_grad(net, None, net.trainable_params())(x, y),
            ms.value_and_grad(net, 0, net.trainable_params())(x, y)]


def case_grad_function_single_output(ms):
    T = ms.Tensor
    x, y = T([1.0, 2.0, 3.0]), T([4.0, 5.0, 6.0])
    f = _f_sum_mul
    return [ms.grad(f)(x, y), ms.grad(f, 1)(x, y), ms.grad(f, (0, 1))(x, y),
            ms.value_and_grad(f, (0, 1))(x, y)]


def case_grad_scalar_inputs(ms):
    T = ms.Tensor
    return [ms.grad(_f_xy, (0, 1))(T(3.0), T(4.0)),
            ms.value_and_grad(_f_xy)(T(3.0), T(4.0))]


def case_grad_nonscalar_output(ms):
    x = ms.Tensor([1.0, 2.0, 3.0])
    return [ms.grad(_f_sq)(x), ms.value_and_grad(_f_sq)(x),
            ms.grad(_f_outer)(x)]


def case_grad_multi_output_noaux(ms):
    x = ms.Tensor([1.0, 2.0])
    return [ms.grad(_f_two_out)(x), ms.value_and_grad(_f_two_out)(x)]


def case_grad_three_outputs_aux(ms):
    x = ms.Tensor([1.0, 2.0])
    return [ms.grad(_f_three_out, has_aux=True)(x),
            ms.value_and_grad(_f_three_out, has_aux=True)(x)]


def case_grad_three_outputs_noaux(ms):
    return ms.grad(_f_three_out)(ms.Tensor([1.0, 2.0]))


def case_grad_aux_nested_tuple(ms):
    def f(x):
        return (x * x).sum(), (x, x + 1)
    return [ms.grad(f, has_aux=True)(ms.Tensor([1.0, 2.0])),
            ms.value_and_grad(f, has_aux=True)(ms.Tensor([1.0, 2.0]))]


def case_grad_output_list(ms):
    def f(x):
        return [x * 2, x * 3]
    return ms.grad(f)(ms.Tensor([1.0, 2.0]))


def case_grad_closure_over_net_params(ms):
    net, x, y = _net001(ms)

    def forward_fn(a, b):
        loss, logits = net(a, b)
        return loss, logits

    vag = ms.value_and_grad(forward_fn, grad_position=None,
                            weights=net.trainable_params(), has_aux=True)
    g = ms.grad(forward_fn, grad_position=None, weights=net.trainable_params(),
                has_aux=True)
    return [vag(x, y), g(x, y)]


def case_grad_closure_loss_scale(ms):
    net, x, y = _net001(ms)

    def forward_fn(a, b):
        loss, logits = net(a, b)
        loss = loss * 1024.0
        return loss, logits

    vag = ms.value_and_grad(forward_fn, grad_position=None,
                            weights=net.trainable_params(), has_aux=True)
    (loss, logits), grads = vag(x, y)
    return [loss, logits, grads, tuple(g / 1024.0 for g in grads)]


def case_grad_plain_function_weights_param(ms):
    w = ms.Parameter(ms.Tensor([1.0, 2.0]), name='w')

    def f(x):
        return (x * w).sum()

    x = ms.Tensor([3.0, 4.0])
    return [ms.grad(f, None, w)(x), ms.grad(f, 0, [w])(x),
            ms.value_and_grad(f, None, (w,))(x)]


def case_grad_requires_grad_false_trainable(ms):
    net = _two_param_net(ms)
    x = ms.Tensor([1.0, 1.0])
    return [ms.grad(net, None, net.trainable_params())(x),
            ms.grad(net, 0, net.trainable_params())(x)]


def case_grad_requires_grad_false_explicit(ms):
    net = _two_param_net(ms)
    x = ms.Tensor([1.0, 1.0])
    return ms.grad(net, None, [net.w1, net.w2])(x)


def case_grad_requires_grad_false_only(ms):
    net = _two_param_net(ms)
    x = ms.Tensor([1.0, 1.0])
    return ms.grad(net, None, net.w2)(x)


def case_grad_requires_grad_false_get_parameters(ms):
    net = _two_param_net(ms)
    x = ms.Tensor([1.0, 1.0])
    return ms.grad(net, None, ms.ParameterTuple(net.get_parameters()))(x)


def case_grad_param_unused(ms):
    w = ms.Parameter(ms.Tensor([1.0, 2.0]), name='w_unused')
    net, x, y = _net001(ms)
    return ms.grad(net, None, [net.fc.weight, w], has_aux=True)(x, y)


def case_grad_input_unused(ms):
    def f(a, b):
        return (a * 2.0).sum()
    return ms.grad(f, (0, 1))(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))


def case_grad_stop_gradient_function(ms):
    ops = ms.ops

    def f(x):
        return (x * x + ops.stop_gradient(x * x)).sum()
    return [ms.grad(f)(ms.Tensor([1.0, 2.0])), ms.value_and_grad(f)(ms.Tensor([1.0, 2.0]))]


def case_grad_stop_gradient_004(ms):
    nn, ops = ms.nn, ms.ops

    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.matmul = ops.MatMul()

        def construct(self, x, y):
            out1 = self.matmul(x, y)
            out2 = self.matmul(x, y)
            out2 = ops.stop_gradient(out2)
            out = out1 + out2
            return out

    class NetNoStop(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ops.MatMul()

        def construct(self, x, y):
            return self.matmul(x, y) + self.matmul(x, y)

    x, y = _xy004(ms)
    return [ops.GradOperation()(Net())(x, y), ops.GradOperation()(NetNoStop())(x, y),
            ms.grad(Net())(x, y)]


def case_grad_of_grad_cubic(ms):
    x = ms.Tensor(2.0)
    return [ms.grad(_f_cubic)(x), ms.grad(ms.grad(_f_cubic))(x),
            ms.grad(ms.grad(ms.grad(_f_cubic)))(x)]


def case_grad_of_grad_vector(ms):
    x = ms.Tensor([1.0, 2.0])
    return ms.grad(ms.grad(_f_cubic))(x)


def case_grad_integer_input(ms):
    return ms.grad(_f_sq)(ms.Tensor(3))


def case_grad_integer_input_vector(ms):
    return ms.grad(_f_sq_sum)(ms.Tensor([1, 2], ms.int32))


def case_grad_integer_and_float_inputs(ms):
    return ms.grad(_f_xy, (0, 1))(ms.Tensor([1.0, 2.0]), ms.Tensor([3, 4]))


def case_vag_integer_input(ms):
    return ms.value_and_grad(_f_times2)(ms.Tensor([1, 2]))


def case_grad_bool_input(ms):
    return ms.grad(_f_xy, (0, 1))(ms.Tensor([1.0, 2.0]), ms.Tensor([True, False]))


def case_grad_float16_input(ms):
    return ms.grad(_f_sq_sum)(ms.Tensor([1.0, 2.0], ms.float16))


def case_grad_float64_input(ms):
    return ms.grad(_f_sq_sum)(ms.Tensor([1.0, 2.0], ms.float64))


def case_grad_python_scalar_arg_other(ms):
    return ms.grad(_f_xy)(ms.Tensor(3.0), 2.0)


def case_grad_python_scalar_arg_position(ms):
    return ms.grad(_f_xy, 1)(ms.Tensor(3.0), 2.0)


def _f_abc_sum(a, b, c):
    return (a * b * c).sum()


def _f_abc_sum_aux(a, b, c):
    return (a * b * c).sum(), a * 2


def case_grad_position_tuple_scalars_dropped(ms):
    """Non-Tensor positions are dropped first; one Tensor left gives its bare gradient
    (tests/st/tensor/test_diag.py: ops.grad(f, (0, 1))(x, 0))."""
    x = ms.Tensor(np.array([1.0, 2.0, 5.0], np.float32))
    w = ms.Parameter(ms.Tensor(np.array([2.0], np.float32)), name="w")

    def with_w(a, b):
        return (a * w * b).sum()
    return [ms.grad(_f_abc_sum, (0, 1, 2))(x, 2, 3.0),
            ms.grad(_f_abc_sum, (1, 0))(x, 2, 3.0),
            ms.grad(_f_abc_sum, (1, 2))(x, 2, 3.0),
            ms.grad(_f_abc_sum, (0, 2))(x, 2, ms.Tensor(3.0)),
            ms.value_and_grad(_f_abc_sum, (0, 1))(x, 2, 3.0),
            ms.grad(_f_abc_sum_aux, (0, 1), has_aux=True)(x, 2, 3.0),
            ms.grad(_f_abc_sum, (0, 1), return_ids=True)(x, 2, 3.0),
            ms.grad(with_w, (0, 1), weights=[w])(x, 2),
            ms.grad(with_w, (0, 1), weights=w)(x, 2)]


def case_grad_kwargs(ms):
    x, y = ms.Tensor(3.0), ms.Tensor(4.0)
    return ms.grad(_f_xy)(x, y=y)


def case_grad_kwargs_position1(ms):
    x, y = ms.Tensor(3.0), ms.Tensor(4.0)
    return ms.grad(_f_xy, 1)(x, y=y)


def case_vag_kwargs(ms):
    x, y = ms.Tensor(3.0), ms.Tensor(4.0)
    return ms.value_and_grad(_f_xy)(x, y=y)


def case_grad_fn_reuse(ms):
    g = ms.grad(_f_sq_sum)
    return [g(ms.Tensor([1.0, 2.0])), g(ms.Tensor([3.0])), g(ms.Tensor([[1.0], [2.0]]))]


def case_grad_after_set_data(ms):
    net, x, y = _net001(ms)
    g = ms.grad(net, None, net.trainable_params(), has_aux=True)
    r1 = g(x, y)
    net.fc.weight.set_data(ms.Tensor([[1.0, 1.0, 1.0]]))
    r2 = g(x, y)
    return [r1, r2]


def case_grad_does_not_modify_params(ms):
    net, x, y = _net001(ms)
    ms.grad(net, None, net.trainable_params(), has_aux=True)(x, y)
    return net.fc.weight


def case_grad_constant_output(ms):
    def f(a):
        return ms.Tensor(1.0)
    return ms.grad(f)(ms.Tensor(2.0))


def case_grad_tensor_methods_in_fn(ms):
    def f(x):
        return x.reshape(2, 2).transpose().sum(axis=0).mean() + x.abs().max()
    return ms.grad(f)(ms.Tensor([1.0, -5.0, 3.0, 4.0]))


def case_grad_cell_with_kwargs_construct(ms):
    nn = ms.nn

    class K(nn.Cell):
        def construct(self, x, scale=2.0):
            return (x * scale).sum()
    net = K()
    return [ms.grad(net)(ms.Tensor([1.0, 2.0])),
            ms.grad(net, (0, 1))(ms.Tensor([1.0, 2.0]), ms.Tensor(3.0))]


# ===========================================================================
# ops.GradOperation: seed 004
# ===========================================================================
def _gradop_direct(ms, get_all, get_by_list, sens_param, weights="ptuple"):
    ops = ms.ops
    net = _net004(ms)
    x, y = _xy004(ms)
    op = ops.GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)
    if get_by_list:
        w = (ms.ParameterTuple(net.trainable_params()) if weights == "ptuple"
             else net.trainable_params())
        gf = op(net, w)
    else:
        gf = op(net)
    args = (x, y, _sens004(ms)) if sens_param else (x, y)
    return gf(*args)


def _gradop_cell(ms, get_all, get_by_list, sens_param):
    nn, ops = ms.nn, ms.ops

    class GradNet(nn.Cell):
        def __init__(self, net):
            super(GradNet, self).__init__()
            self.net = net
            self.params = ms.ParameterTuple(net.trainable_params())
            self.grad_op = ops.GradOperation(get_all=get_all, get_by_list=get_by_list,
                                             sens_param=sens_param)
            self.grad_wrt_output = _sens004(ms)

        def construct(self, x, y):
            if get_by_list:
                gradient_function = self.grad_op(self.net, self.params)
            else:
                gradient_function = self.grad_op(self.net)
            if sens_param:
                return gradient_function(x, y, self.grad_wrt_output)
            return gradient_function(x, y)

    x, y = _xy004(ms)
    return GradNet(_net004(ms))(x, y)


def _make_gradop_cases():
    g = globals()
    for ga in (False, True):
        for gbl in (False, True):
            for sp in (False, True):
                tag = "all%d_list%d_sens%d" % (ga, gbl, sp)

                def fd(ms, ga=ga, gbl=gbl, sp=sp):
                    return _gradop_direct(ms, ga, gbl, sp)

                def fc(ms, ga=ga, gbl=gbl, sp=sp):
                    return _gradop_cell(ms, ga, gbl, sp)
                fd.__name__ = "case_gradop_direct_" + tag
                fc.__name__ = "case_gradop_cell_" + tag
                g[fd.__name__] = fd
                g[fc.__name__] = fc


_make_gradop_cases()


def case_gradop_weights_as_list(ms):
    return [_gradop_direct(ms, False, True, False, weights="list"),
            _gradop_direct(ms, True, True, False, weights="list")]


def case_gradop_weights_single_param(ms):
    net = _net004(ms)
    x, y = _xy004(ms)
    return ms.ops.GradOperation(get_by_list=True)(net, net.z)(x, y)


def case_gradop_sens_scaling(ms):
    net = _net004(ms)
    x, y = _xy004(ms)
    op = ms.ops.GradOperation(sens_param=True)
    ones = ms.Tensor(np.ones((2, 3), np.float32))
    return [op(net)(x, y, ones), op(net)(x, y, ones * 2), ms.ops.GradOperation()(net)(x, y)]


def case_gradop_requires_grad_false(ms):
    net = _net004(ms, requires_grad=False)
    x, y = _xy004(ms)
    ops = ms.ops
    tp = net.trainable_params()
    return {"trainable": [p.name for p in tp],
            "by_list_empty": ops.GradOperation(get_by_list=True)(net, ms.ParameterTuple(tp))(x, y),
            "all_by_list_empty": ops.GradOperation(get_all=True, get_by_list=True)(
                net, ms.ParameterTuple(tp))(x, y),
            "explicit_z": ops.GradOperation(get_by_list=True)(
                net, ms.ParameterTuple([net.z]))(x, y)}


def case_gradop_scalar_loss_function(ms):
    def f(a, b):
        return (a * b).sum()
    T = ms.Tensor
    return [ms.ops.GradOperation()(f)(T([1.0, 2.0]), T([3.0, 4.0])),
            ms.ops.GradOperation(get_all=True)(f)(T([1.0, 2.0]), T([3.0, 4.0]))]


def case_gradop_multi_output(ms):
    return [ms.ops.GradOperation()(_f_two_out)(ms.Tensor([1.0, 2.0])),
            ms.ops.GradOperation(get_all=True)(_f_two_out)(ms.Tensor([1.0, 2.0]))]


def case_gradop_multi_output_sens_tuple(ms):
    T = ms.Tensor
    op = ms.ops.GradOperation(sens_param=True)
    return op(_f_two_out)(T([1.0, 2.0]), (T([1.0, 1.0]), T([0.0, 2.0])))


def case_gradop_single_input_get_all(ms):
    return ms.ops.GradOperation(get_all=True)(_f_sq_sum)(ms.Tensor([1.0, 2.0]))


def case_gradop_integer_input(ms):
    return ms.ops.GradOperation(get_all=True)(_f_xy)(ms.Tensor([1.0, 2.0]), ms.Tensor([3, 4]))


def case_gradop_grad_of_grad(ms):
    ops = ms.ops
    g1 = ops.GradOperation()(_f_cubic)
    g2 = ops.GradOperation()(g1)
    return [g1(ms.Tensor(2.0)), g2(ms.Tensor(2.0))]


def case_gradop_repr_name(ms):
    op = ms.ops.GradOperation(get_all=True)
    return [type(op).__name__, op.get_all, op.get_by_list, op.sens_param]


# ===========================================================================
# error cases (record whatever MindSpore does)
# ===========================================================================
def case_err_grad_none_none(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=None, weights=None)(x, y)


def case_err_grad_none_none_construct_only(ms):
    net, _, _ = _net001(ms)
    ms.grad(net, grad_position=None, weights=None)
    return "constructed"


def case_err_vag_none_none(ms):
    net, x, y = _net001(ms)
    return ms.value_and_grad(net, grad_position=None, weights=None)(x, y)


def case_err_vag_none_none_construct_only(ms):
    net, _, _ = _net001(ms)
    ms.value_and_grad(net, grad_position=None, weights=None)
    return "constructed"


def case_err_grad_position_out_of_range(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=5)(x, y)


def case_err_grad_position_out_of_range_2(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=2)(x, y)


def case_err_grad_position_tuple_out_of_range(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=(0, 3))(x, y)


def case_err_vag_position_out_of_range(ms):
    net, x, y = _net001(ms)
    return ms.value_and_grad(net, grad_position=5)(x, y)


def case_err_grad_position_negative(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=-1, has_aux=True)(x, y)


def case_err_grad_position_negative_in_tuple(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=(0, -1), has_aux=True)(x, y)


def case_err_grad_position_float(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=1.5)(x, y)


def case_err_grad_position_str(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position="0")(x, y)


def case_err_grad_position_bool(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=True, has_aux=True)(x, y)


def case_err_grad_position_empty_tuple(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=())(x, y)


def case_err_grad_position_list(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=[0, 1], has_aux=True)(x, y)


def case_err_grad_position_duplicates(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=(0, 0), has_aux=True)(x, y)


def case_err_vag_position_float(ms):
    net, x, y = _net001(ms)
    return ms.value_and_grad(net, grad_position=1.5)(x, y)


def case_err_has_aux_single_output(ms):
    return ms.grad(_f_sq_sum, has_aux=True)(ms.Tensor([1.0, 2.0]))


def case_err_vag_has_aux_single_output(ms):
    return ms.value_and_grad(_f_sq_sum, has_aux=True)(ms.Tensor([1.0, 2.0]))


def case_err_has_aux_not_bool(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, has_aux=1)(x, y)


def case_err_has_aux_str(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, has_aux="yes")(x, y)


def case_err_vag_has_aux_not_bool(ms):
    net, x, y = _net001(ms)
    return ms.value_and_grad(net, has_aux=1)(x, y)


def case_err_weights_plain_tensor(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=None, weights=ms.Tensor([1.0]), has_aux=True)(x, y)


def case_err_weights_int(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=None, weights=1, has_aux=True)(x, y)


def case_err_weights_list_of_tensors(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=None, weights=[ms.Tensor([1.0])], has_aux=True)(x, y)


def case_err_weights_list_of_ints(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=None, weights=[1, 2], has_aux=True)(x, y)


def case_err_weights_empty_list(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=None, weights=[], has_aux=True)(x, y)


def case_err_weights_empty_list_pos0(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=0, weights=[], has_aux=True)(x, y)


def case_err_weights_dict(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, grad_position=None, weights={"w": net.fc.weight}, has_aux=True)(x, y)


def case_err_vag_weights_plain_tensor(ms):
    net, x, y = _net001(ms)
    return ms.value_and_grad(net, grad_position=None, weights=ms.Tensor([1.0]),
                             has_aux=True)(x, y)


def case_err_grad_wrong_num_args_missing(ms):
    net, x, y = _net001(ms)
    return ms.grad(net)(x)


def case_err_grad_wrong_num_args_extra(ms):
    net, x, y = _net001(ms)
    return ms.grad(net, has_aux=True)(x, y, y)


def case_err_grad_function_wrong_num_args(ms):
    return ms.grad(_f_xy)(ms.Tensor(1.0))


def case_err_grad_no_args(ms):
    return ms.grad(_f_xy)()


def case_err_grad_non_tensor_input(ms):
    return ms.grad(_f_sq_sum)(np.array([1.0, 2.0], np.float32))


def case_err_grad_python_float_input(ms):
    return ms.grad(_f_sq)(3.0)


def case_err_grad_fn_not_callable(ms):
    return ms.grad(1)(ms.Tensor(1.0))


def case_err_grad_list_input(ms):
    return ms.grad(_f_index_mul)([ms.Tensor(2.0), ms.Tensor(3.0)])


def case_err_grad_tuple_input(ms):
    return ms.grad(_f_index_mul)((ms.Tensor(2.0), ms.Tensor(3.0)))


def case_err_grad_output_not_tensor(ms):
    return ms.grad(_f_py_const)(ms.Tensor(2.0))


def case_err_gradop_sens_missing(ms):
    net = _net004(ms)
    x, y = _xy004(ms)
    return ms.ops.GradOperation(sens_param=True)(net)(x, y)


def case_err_gradop_sens_wrong_shape(ms):
    net = _net004(ms)
    x, y = _xy004(ms)
    return ms.ops.GradOperation(sens_param=True)(net)(x, y, ms.Tensor([1.0, 2.0]))


def case_err_gradop_sens_scalar(ms):
    net = _net004(ms)
    x, y = _xy004(ms)
    return ms.ops.GradOperation(sens_param=True)(net)(x, y, ms.Tensor(2.0))


def case_err_gradop_get_all_not_bool(ms):
    return ms.ops.GradOperation(get_all=1)


def case_err_gradop_get_all_str(ms):
    ms.ops.GradOperation(get_all="yes")
    return "constructed"


def case_err_gradop_get_by_list_not_bool(ms):
    ms.ops.GradOperation(get_by_list=1)
    return "constructed"


def case_err_gradop_sens_param_not_bool(ms):
    ms.ops.GradOperation(sens_param=None)
    return "constructed"


def case_err_gradop_by_list_no_weights(ms):
    net = _net004(ms)
    x, y = _xy004(ms)
    return ms.ops.GradOperation(get_by_list=True)(net)(x, y)


def case_err_gradop_weights_without_by_list(ms):
    net = _net004(ms)
    x, y = _xy004(ms)
    return ms.ops.GradOperation()(net, ms.ParameterTuple(net.trainable_params()))(x, y)


def case_err_gradop_weights_plain_tensor(ms):
    net = _net004(ms)
    x, y = _xy004(ms)
    return ms.ops.GradOperation(get_by_list=True)(net, ms.Tensor([1.0]))(x, y)


def case_err_gradop_wrong_num_args(ms):
    net = _net004(ms)
    x, _ = _xy004(ms)
    return ms.ops.GradOperation()(net)(x)


def case_err_gradop_integer_only_input(ms):
    return ms.ops.GradOperation()(_f_sq)(ms.Tensor([1, 2]))


def case_err_parametertuple_of_tensors(ms):
    return ms.ParameterTuple([ms.Tensor([1.0])])


def case_err_parameter_duplicate_names_in_tuple(ms):
    a = ms.Parameter(ms.Tensor([1.0]), name='same')
    b = ms.Parameter(ms.Tensor([2.0]), name='same')
    pt = ms.ParameterTuple([a, b])
    return [p.name for p in pt]


def case_err_tensor_bad_data(ms):
    return ms.Tensor("abc")


def case_err_tensor_none(ms):
    return ms.Tensor(None)


def case_err_tensor_ragged(ms):
    return ms.Tensor([[1, 2], [3]])


def case_err_reshape_bad(ms):
    return ms.Tensor([1.0, 2.0, 3.0]).reshape(2, 2)


def case_err_add_shape_mismatch(ms):
    return ms.Tensor([1.0, 2.0, 3.0]) + ms.Tensor([1.0, 2.0])


def case_err_index_out_of_range(ms):
    return ms.Tensor([1.0, 2.0])[5]


def case_err_set_data_shape_mismatch(ms):
    p = ms.Parameter(ms.Tensor([1.0, 2.0]), name='w')
    p.set_data(ms.Tensor([1.0, 2.0, 3.0]))
    return p


def case_err_set_data_dtype_change(ms):
    p = ms.Parameter(ms.Tensor([1.0, 2.0]), name='w')
    p.set_data(ms.Tensor([1, 2]))
    return [p, str(p.dtype)]


def case_gradop_get_all_kwargs(ms):
    """``GradOperation(get_all=True)`` appends the gradients of Tensors passed through ``**kwargs``
    (keyword order), after the positional inputs'."""
    class Net(ms.nn.Cell):
        def construct(self, x, y, **kwargs):
            return x * y * kwargs["z"] + kwargs["w"] * kwargs["scale"]

    x, y, z, w = (ms.Tensor(np.array([v, v + 1], np.float32)) for v in (2., 3., 5., 7.))
    g = ms.ops.GradOperation(get_all=True)(Net())
    return [g(x, y, w=w, z=z, scale=3.0), g(x, y, z=z, w=w, scale=2.0),
            ms.ops.GradOperation(get_all=True, sens_param=True)(Net())(x, y, z=z, w=w, scale=1.0, sens=x)]


def case_gradop_get_by_list_function(ms):
    """``GradOperation(get_by_list=True)`` of a function without weights: the trainable Parameters
    it names (an empty tuple when none)."""
    w = ms.Parameter(ms.Tensor(np.array([3.0, -1.0], np.float32)), name='w')
    frozen = ms.Parameter(ms.Tensor(np.array([2.0], np.float32)), name='frozen', requires_grad=False)
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))

    def plain(x):
        return (x * x).sum()

    def closes(x):
        return (x * w * frozen).sum()
    g = ms.ops.GradOperation
    return [g(get_all=True, get_by_list=True)(plain)(x), g(get_by_list=True)(plain)(x),
            g(get_all=True, get_by_list=True)(closes)(x), g(get_by_list=True)(closes)(x)]


def case_set_data_dtype_rules(ms):
    """``Parameter.set_data`` casts a Tensor of any dtype to the Parameter's; Python scalars become it."""
    out = []
    for pd in (np.bool_, np.int8, np.uint8, np.int32, np.float16, np.float32):
        for nd in (np.bool_, np.int64, np.uint8, np.float64, np.float32):
            p = ms.Parameter(ms.Tensor(np.zeros(2, pd)), name='w')
            v = np.array([1.7, 2.2 if pd == np.uint8 else -2.2])    # (a negative float into UInt8: not pinned)
            p.set_data(ms.Tensor(v.astype(nd)))
            out.append(p)
        for v in (True, 3):
            p = ms.Parameter(ms.Tensor(np.zeros(2, pd)), name='w')
            p.set_data(v)
            out.append(p)
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.uint8)), name='w')
    p.set_data(2.5)
    return out + [p]


def case_err_set_data_float_into_int(ms):
    p = ms.Parameter(ms.Tensor(np.array([1, 2], np.int32)), name='w')
    p.set_data(1.5)
    return p


# ---------------------------------------------------------------------------
def all_cases():
    """Return {name: fn} for every case in this module (name without 'case_')."""
    return {k[len("case_"):]: v for k, v in sorted(globals().items())
            if k.startswith("case_") and callable(v)}


# cases also recorded under GRAPH_MODE
GRAPH_PREFIXES = ("grad_", "vag_", "gradop_", "err_grad", "err_vag", "err_gradop",
                  "err_has_aux", "err_weights", "cell_forward")


def graph_cases():
    return {k: v for k, v in all_cases().items() if k.startswith(GRAPH_PREFIXES)}
