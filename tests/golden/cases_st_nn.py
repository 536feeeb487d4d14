"""Golden cases for what MindSpore's own system tests of ``nn`` (``tests/st/nn``) exercise and msjax
lacked or got wrong: recorded from MindSpore 2.10 with
``record_mindspore.py --suite st_nn --mode pynative --only NAME --merge``.

Every ``case_<name>(ms)`` uses only the module passed in.
"""
import numpy as np

try:  # a package module under pytest, a top-level one when record_mindspore.py records it
    from .cases_st_ops import _f32, _raised  # noqa: F401
except ImportError:
    from cases_st_ops import _f32, _raised  # noqa: F401


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}


def case_ctc_loss_targets_outside_classes(ms):
    """``nn.CTCLoss``/``ops.ctc_loss`` with target labels outside [0, C) (tests/st/nn/test_ctc_loss.py:
    the second sample's labels 5, 6, 7 with C = 4): MindSpore reads the flat (T, N, C) buffer at
    ``(t * N + n) * C + label``, a neighbouring row (msjax gave NaN); a label of the blank in the targets;
    the three reductions; a negative label. (Past the buffer's end MindSpore reads whatever memory follows
    it, 0 in the st test's case, other values elsewhere; no case here reads there.)"""
    T = ms.Tensor
    t, c, n = 10, 4, 2
    x = T(np.arange(t * n * c).reshape(t, n, c), ms.float32)
    il, tl = T(np.full(n, t), ms.int32), T(np.full(n, 3), ms.int32)
    tg = T(np.arange(n * 5).reshape(n, 5), ms.int32)
    out = [ms.nn.CTCLoss(blank=0, reduction=r)(x, tg, il, tl) for r in ("none", "mean", "sum")]
    lp = ms.ops.log_softmax(T(_f32(6, 3, 5, seed=1)), -1)
    for labels in ([[1, 2, 3], [3, 7, 1], [2, 2, 1]], [[1, -2, 3], [3, 4, 1], [2, 2, 1]],
                   [[1, 2, 3], [3, 9, 1], [2, 2, 1]]):
        out.append(ms.ops.ctc_loss(lp, T(np.array(labels), ms.int32), T([6, 5, 6], ms.int32), T([3, 3, 2], ms.int32),
                                   reduction="none"))
    return out


def case_max_unpool_functional(ms):
    """``ops.max_unpool1d/2d/3d`` (tests/st/nn/test_max_unpool*.py; msjax lacked them) and the
    ``MaxUnpool2D`` Primitive: batched and unbatched inputs, strides, padding, ``output_size`` inside and
    outside its range, Int32/Int64 indices, Int32/Float16 values, an index past the plane or negative,
    attribute errors, the ``nn.MaxUnpool1d`` shape error, and the input gradient."""
    T, ops = ms.Tensor, ms.ops
    x, i = T(np.array([[2, 4, 6, 8]], np.float32)), T(np.array([[1, 3, 5, 7]], np.int64))
    x2 = T(np.arange(8).reshape(1, 2, 2, 2).astype(np.float32))
    i2 = T(np.array([0, 3, 5, 15, 1, 2, 11, 14]).reshape(1, 2, 2, 2), ms.int64)
    x3 = T(np.arange(8).reshape(1, 1, 2, 2, 2).astype(np.float32))
    i3 = T(np.array([0, 3, 5, 15, 17, 22, 41, 63]).reshape(1, 1, 2, 2, 2), ms.int64)
    calls = [lambda: ops.max_unpool1d(x, i, 2), lambda: ops.max_unpool1d(x, i.astype(ms.int32), 2, stride=3, padding=1),
             lambda: ops.max_unpool1d(x, i, 2, output_size=(9,)), lambda: ops.max_unpool1d(x, i, 2, output_size=(1, 10)),
             lambda: ops.max_unpool1d(x, i, 2, output_size=(6,)), lambda: ops.max_unpool1d(x, i, 2, output_size=(20,)),
             lambda: ops.max_unpool1d(x, i, 2, output_size=[9]), lambda: ops.max_unpool1d(x, i, 2, output_size=(1, 1, 1, 9)),
             lambda: ops.max_unpool1d(x, T(np.array([[1, 3, 5, 9]]), ms.int64), 2),
             lambda: ops.max_unpool1d(x, T(np.array([[1, 3, 5, -1]]), ms.int64), 2),
             lambda: ops.max_unpool1d(x, i.astype(ms.float32), 2), lambda: ops.max_unpool1d(x.astype(ms.int32), i, 2),
             lambda: ops.max_unpool1d(x.astype(ms.float16), i, 2), lambda: ops.max_unpool1d(x, i[:, :3], 2),
             lambda: ops.max_unpool1d(x[0], i[0], 2), lambda: ops.max_unpool1d(x, i, -2),
             lambda: ops.max_unpool1d(x, i, 2.0), lambda: ops.max_unpool1d(x, i, 2, padding=-1),
             lambda: ops.max_unpool2d(x2, i2, 2), lambda: ops.max_unpool2d(x2[0], i2[0], 2),
             lambda: ops.max_unpool2d(x2, i2, 2, output_size=(5, 4)), lambda: ops.max_unpool2d(x2, i2, (2, 1), stride=(2, 2)),
             lambda: ops.max_unpool2d(x2[0, 0], i2[0, 0], 2), lambda: ops.max_unpool2d(x2, i2, 2, output_size=[4, 4]),
             lambda: ops.max_unpool3d(x3, i3, 2), lambda: ops.max_unpool3d(x3[0], i3[0], 2),
             lambda: ops.max_unpool3d(x3, i3, 2, output_size=(4, 4, 5)), lambda: ops.max_unpool3d(x3[0, 0], i3[0, 0], 2),
             lambda: ops.max_unpool3d(x3, i3, (2, 2), stride=2),
             lambda: ops.MaxUnpool2D(ksize=2, strides=2)(x2, i2), lambda: ops.MaxUnpool2D(ksize=2, pads=1)(x2, i2),
             lambda: ms.nn.MaxUnpool1d(2)(x, i[:, :3]), lambda: ms.nn.MaxUnpool2d(2)(x2, i2, (5, 4))]
    out = [_raised(f) for f in calls]
    weights = T(np.arange(16.).reshape(4, 4), ms.float32)
    out.append(ms.grad(lambda a: (ops.max_unpool2d(a, i2, 2) * weights).sum())(x2))
    out.append(ms.grad(lambda a: (ops.max_unpool1d(a, i, 2) * T(np.arange(8.), ms.float32)).sum())(x))
    return out


def case_cell_buffers_state_dict(ms):
    """``Cell.register_buffer``/``_Buffer`` attributes, ``named_buffers``/``buffers``/``get_buffer``,
    ``state_dict`` (Parameters and persistent buffers, sub-Cells after each Cell's own) and
    ``load_state_dict`` with its hooks and key errors (tests/st/nn/test_cell_buffer.py,
    test_cell_state_dict.py; msjax lacked them)."""
    import importlib
    T, nn = ms.Tensor, ms.nn
    _Buffer = importlib.import_module(ms.__name__ + ".common.parameter")._Buffer if ms.__name__ == "mindspore" \
        else importlib.import_module(ms.__name__ + ".nn._buffers")._Buffer

    class Simple(nn.Cell):
        def __init__(self):
            super().__init__()
            self.buffer_0 = _Buffer(T(np.array([1, 2, 3], np.float32)))
            self.register_buffer("buffer_1", T(np.array([3, 4, 5], np.float32)))
            self.register_buffer("hidden", T(np.array([9.0], np.float32)), persistent=False)
            self.param_0 = ms.Parameter(T(np.array([10, 20, 30], np.float32)))

        def construct(self, x):
            return (x + self.buffer_0) * self.buffer_1 + self.param_0

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.sub_net = Simple()
            self.buffer_0 = _Buffer(T(np.array([6, 6, 6], np.float32)))
            self.param_1 = ms.Parameter(T(np.array([8, 8, 8], np.float32)))

        def construct(self, x):
            return self.sub_net(x) + self.buffer_0 - self.param_1

    net = Outer()
    net.register_buffer("extra", T(np.array([1.5], np.float32)))
    x = T(np.array([2, 2, 2], np.float32))
    out = [[k for k, _ in net.named_buffers()], list(net.buffers()), [k for k, _ in net.named_buffers(recurse=False)],
           len(net._buffers), net.get_buffer("sub_net.buffer_1"), net(x), ms.grad(net)(x),
           [k for k in net.state_dict()], [type(v).__name__ for v in net.state_dict().values()],
           [p.name for p in net.get_parameters()]]
    seen = []
    net.register_state_dict_pre_hook(lambda cell, prefix, keep: seen.append(("pre", prefix)))
    net.sub_net.register_state_dict_post_hook(lambda cell, sd, prefix, meta: seen.append(("post", prefix, len(sd))))
    net.state_dict()
    other = Outer()
    other.register_load_state_dict_post_hook(lambda cell, keys: seen.append(("load", list(keys[0]), list(keys[1]))))
    sd = net.state_dict()
    out.append(_raised(lambda: other.load_state_dict(sd)))
    sd.pop("extra")
    sd["sub_net.buffer_1"] = T(np.array([7, 7, 7], np.float32))
    sd["param_1"] = T(np.array([1, 1, 1], np.float32))
    out += [str(other.load_state_dict(sd)), other.sub_net.buffer_1, other.param_1, other(x), seen]
    sd["bogus"] = T(np.array([1.0], np.float32))
    out += [_raised(lambda: other.load_state_dict(sd)), str(other.load_state_dict(sd, strict=False))]
    out += [_raised(lambda: net.register_buffer(2, x)), _raised(lambda: net.register_buffer("a.b", x)),
            _raised(lambda: net.register_buffer("", x)), _raised(lambda: net.register_buffer("param_1", x)),
            _raised(lambda: net.register_buffer("c", 3)), _raised(lambda: net.get_buffer("buffer_5")),
            _raised(lambda: net.get_buffer("param_1")), _raised(lambda: _Buffer(None)), _raised(lambda: _Buffer(3)),
            _raised(lambda: setattr(net, "extra", x + 1)), isinstance(net.extra, _Buffer), isinstance(x, _Buffer)]
    net.extra = None
    del net.buffer_0
    out += [[k for k, _ in net.named_buffers()], _raised(lambda: net.state_dict(prefix=3))]
    return out


def case_parameter_arguments_written(ms):
    """In-place writes to a Parameter passed as an argument of a compiled function or of a gradient
    function land in the Parameter (tests/st/parameter/test_parameter.py; msjax's traced calls wrote
    them to a stand-in Tensor and dropped them); ``AssignAdd``/``AssignSub`` of a scalar to a shape-(1,)
    Parameter and the other way round (tests/st/parameter/test_parameter_celllist.py); the names
    MindSpore gives unnamed Parameters of a ParameterTuple attribute, ``Cell._params``."""
    T, P = ms.Tensor, ms.Parameter
    z = P(T(np.array([[1.0, 4.0], [-1, 8.0]], np.float32)), name="z")

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.z = z

        def construct(self, param, x, y):
            ms.ops.Assign()(param, x * self.z)
            ms.ops.Assign()(x, x + y)
            ms.ops.AssignSub()(y, param)
            return param

    def fresh():
        return (P(T(np.zeros((2, 2), np.float32)), name="bparam"),
                P(T(np.array([[4.0, -8.0], [-2.0, -5.0]], np.float32)), name="bx"),
                P(T(np.array([[1, 0], [1, 1]], np.float32)), name="by"))

    net = Net()
    out = []
    args = fresh()
    ms.ops.GradOperation(get_by_list=True)(net, ms.ParameterTuple(net.trainable_params()))(*args)
    out.append([a.asnumpy() for a in args])
    args = fresh()
    ms.jit(net.construct)(*args)
    out.append([a.asnumpy() for a in args])
    a, b = P(T(np.array([1.5], np.float32)), name="a"), P(T(np.float32(2.0)), name="b")
    out += [ms.ops.AssignAdd()(a, 1), ms.ops.AssignSub()(b, T([0.5], ms.float32)), a.asnumpy(), b.asnumpy()]
    c = P(T(np.zeros((1, 1), np.float32)), name="c")
    out.append(_raised(lambda: ms.ops.AssignAdd()(c, T(1.0, ms.float32))))

    class Tup(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.named = P(T([1.0], ms.float32), name="named")
            self.tup = ms.ParameterTuple((P(T([2.0], ms.float32)), self.named, P(T([3.0], ms.float32))))
            self.more = ms.ParameterTuple((P(T([4.0], ms.float32)),))
            self.plain = P(T([5.0], ms.float32))

    cell = Tup()
    out += [[p.name for p in cell.tup], [p.name for p in cell.more], list(cell._params),
            list(ms.nn.Dense(2, 3)._params)]
    return out


def case_cell_container_checks(ms):
    """``nn.CellList``/``nn.CellDict`` checks (tests/st/container): a CellDict given to ``CellList(...)``
    (msjax took it), ``CellList(None)``/a tuple, a CellDict key named as a Cell attribute (``_scope``),
    what ``append``/``insert`` return."""
    nn = ms.nn
    d = nn.CellDict()
    out = [_raised(lambda: d.__setitem__(k, nn.ReLU())) for k in (1, "_scope", "training", "a.b", "", "x")]
    out += [_raised(lambda: nn.CellList([nn.CellDict({"r": nn.ReLU()})])), _raised(lambda: nn.CellList(None)),
            _raised(lambda: nn.CellList((nn.ReLU(),))), _raised(lambda: nn.CellList().extend([nn.CellDict()])),
            nn.CellList().append(nn.ReLU()), nn.CellList().insert(0, nn.ReLU()),
            nn.SequentialCell([nn.ReLU()]).append(nn.Tanh()), len(nn.CellList([nn.ReLU(), nn.Tanh()])), sorted(d)]
    return out


def case_jit_tensor_arguments_written(ms):
    """``ms.jit``: in-place ops on a plain Tensor argument write the caller's Tensor, as on a Parameter
    (tests/st/runtime/test_runtime_inplace.py's ``test_single_add``; msjax left the Tensor unchanged)."""
    T = ms.Tensor

    @ms.jit
    def add(x, y):
        ms.ops.AssignAdd()(x, y)
        return x * 2

    x, y = T(np.array([2.0, 3.0], np.float32)), T(np.array([3.0, 1.0], np.float32))
    out = add(x, y)
    first = x.asnumpy().copy()
    add(x, y)
    return [out, first, x, y]
