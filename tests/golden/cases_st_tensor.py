"""Golden cases for the Tensor method overloads MindSpore's own system tests
(``tests/st/tensor/overload``) exercise and msjax lacked or got wrong: recorded from MindSpore 2.10
with ``record_mindspore.py --suite st_tensor --mode pynative --only NAME --merge``.

Every ``case_<name>(ms)`` uses only the module passed in.
"""
from importlib import import_module

import numpy as np

# the st_ops suite's helpers (imported as ``golden.cases_st_ops`` by the tests, ``cases_st_ops`` by the recorder)
_st_ops = import_module(__name__.replace("cases_st_tensor", "cases_st_ops"))
_f32, _raised = _st_ops._f32, _st_ops._raised


def case_augmented_assignment_not_in_place(ms):
    """``t += 1`` / ``-=`` / ``*=`` / ``/=`` bind a new Tensor: another name for the old one keeps
    its value (a Parameter too, the result being a Tensor); a while loop on ``x += 1`` in a Cell
    leaves the caller's Tensor unchanged (tests/st/sparse/test_control_flow.py). PyNative's rules:
    the case sets PYNATIVE_MODE (a GRAPH_MODE Cell writes the caller's Tensor, as MindSpore's graph
    does: st_nn:jit_tensor_arguments_written)."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    T = ms.Tensor
    t = T(np.array([1.0, 2.0], np.float32))
    u = t
    u += 1
    v = u
    v *= 2
    w = v
    w -= 1
    z = w
    z /= 2
    p = ms.Parameter(T(np.array([1.0, 2.0], np.float32)), name="p")
    q = p
    q += 1

    class Net(ms.nn.Cell):
        def construct(self, x):
            while x < 1:
                x += 1
            return x

    a = T(np.array(-2, np.int32))
    return [t, u, v, w, z, u is t, p.value(), type(q).__name__, q, Net()(a), a]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}


def case_add_sub_sequence(ms):
    """``Tensor.add(other)``/``Tensor.sub(y)`` with a list or tuple (made a Tensor of the input's
    dtype: int inputs truncate float lists; test_add.py/test_sub.py), and the TypeError of the
    ``alpha`` overloads, which take no sequence."""
    T = ms.Tensor
    x, xi = T(_f32(2, 2, seed=1)), T(np.arange(4, dtype=np.int32).reshape(2, 2))
    xh = T(_f32(2, 2, seed=2).astype(np.float16))
    seqs = ([[1.5, 2.0], [3.0, -4.25]], (1.5, -2.7), [7, 8])
    out = [t.add(s) for t in (x, xi, xh) for s in seqs]
    out += [t.sub(s) for t in (x, xi, xh) for s in seqs]
    out += [_raised(lambda: x.add([1.0, 2.0], alpha=2)), _raised(lambda: x.sub((1.0, 2.0), alpha=2)),
            _raised(lambda: x.subtract([1.0, 2.0]))]
    return out


def case_round_decimals(ms):
    """``Tensor.round(decimals=0)`` with ``decimals`` positional (test_round.py): floats half to even,
    Int32 unchanged, a nonzero ``decimals`` is the CPU kernel's RuntimeError, a float or bool one a
    TypeError."""
    T = ms.Tensor
    x = T(np.array([0.8, 1.5, 2.3, 2.5, -4.5, -0.5], np.float32))
    xi = T(np.array([15, -35], np.int32))
    return [x.round(), x.round(0), x.round(decimals=0), xi.round(0), x.astype(ms.float16).round(0),
            _raised(lambda: x.round(1)), _raised(lambda: x.round(-1)), _raised(lambda: x.round(1.0)),
            _raised(lambda: x.round(True)), _raised(lambda: x.round(0, 1))]


def case_expand_as_overloads(ms):
    """``Tensor.expand_as(other)`` and the older ``expand_as(x=...)`` (test_expand_as.py), the
    ValueError of shapes that do not broadcast, a wrong keyword, and the gradient."""
    T = ms.Tensor
    x, y = T(np.array([1.0, 2.0, 3.0], np.float32)), T(np.ones((2, 3), np.float32))
    return [x.expand_as(y), x.expand_as(other=y), x.expand_as(x=y), _raised(lambda: x.expand_as(z=y)),
            _raised(lambda: x.expand_as(T(np.ones((2, 2), np.float32)))),
            ms.grad(lambda a: a.expand_as(x=y) * y)(x)]


def case_select_overloads(ms):
    """``Tensor.select(dim, index)`` (ints or a 0-d integer Tensor) and MindSpore's older
    ``Tensor.select(condition, y)`` with its TypeErrors (a number ``y`` needs an Int32 or Float32
    input, a non-Tensor condition), out-of-range ``index``/``dim`` (test_select.py)."""
    T = ms.Tensor
    x, y, c = T(np.array([2.0, 3.0], np.float32)), T(np.array([1.0, 2.0], np.float32)), T(np.array([True, False]))
    xi, x2 = T(np.array([2, 3], np.int32)), T(np.arange(6, dtype=np.float32).reshape(2, 3))
    return [x.select(c, y), x.select(c, 1.5), xi.select(c, 4), x2.select(T(np.array([True, False, True])), y=0.5),
            x2.select(0, 1), x2.select(1, T(np.array(1, np.int32))), x2.select(dim=1, index=-1),
            _raised(lambda: x.select(1, y)), _raised(lambda: x.select(c, 1)), _raised(lambda: xi.select(c, 1.5)),
            _raised(lambda: x.select(c, "a")), _raised(lambda: x.select(c, True)),
            _raised(lambda: x.astype(ms.float16).select(c, 2.5)), _raised(lambda: x2.select(0, 5)),
            _raised(lambda: x2.select(2, 0)), _raised(lambda: x2.select(0, True)), _raised(lambda: x2.select(True, 0))]


def case_mean_keepdim_type(ms):
    """``Tensor.mean(dim, keepdim, *, dtype)``: a non-bool ``keepdim`` is a TypeError before the
    axis' range is checked (test_mean.py); the older ``mean(axis, keep_dims)``."""
    T = ms.Tensor
    x = T(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    return [_raised(lambda: x.mean(5, 1, dtype=None)), _raised(lambda: x.mean(1, 1, dtype=None)),
            _raised(lambda: x.mean(5, True)), _raised(lambda: x.mean(dim=2.0, keepdim=True, dtype=None)),
            x.mean((0, 1), True), x.mean(1, keepdim=False, dtype=ms.float16), x.mean(axis=2, keep_dims=True)]


def case_max_min_where_and_types(ms):
    """``Tensor.max``/``min(axis, keepdims, *, initial, where, return_indices)`` (test_min.py,
    test_parse_exception.py): a Python bool ``where`` (False masks every element: the result is
    ``initial``), ``ops.max``/``ops.min`` alike, a tuple axis, and the argument TypeErrors
    (``where=None``, a Tensor or list ``initial``, an int ``keepdims``/``return_indices``)."""
    T, ops = ms.Tensor, ms.ops
    x, w = T(np.arange(4, dtype=np.float32).reshape(2, 2)), T(np.array([False, True]))
    out = [x.min(0, False, initial=9.5, where=False), x.max(1, True, initial=-1.0, where=False),
           x.min((0, 1), False, initial=9.5, where=False), x.min(0, False, initial=9, where=w),
           x.max(0, False, initial=1.5, where=w, return_indices=True), x.min(0, False, initial=2.0, where=True),
           ops.max(x, 0, initial=-1.0, where=False), ops.min(x, 1, initial=2.0, where=True),
           ms.grad(lambda a: a.max(0, False, initial=1.5, where=w))(x)]
    for f in (x.max, x.min):
        out += [_raised(lambda: f(0, False, initial=9, where=None)), _raised(lambda: f(0, False, initial=w, where=w)),
                _raised(lambda: f(0, False, initial=9, where=w, return_indices=1)),
                _raised(lambda: f(1, True, initial=[1])), _raised(lambda: f(1, 1, initial=None)),
                _raised(lambda: f(0, False, where=False))]
    return out


def case_reshape_shape_types(ms):
    """``Tensor.reshape(*shape)`` refuses a float or str dimension (TypeError; test_parse_exception.py)
    instead of truncating it, and takes ints, a tuple/list, an int Tensor or 0-d Tensors."""
    T = ms.Tensor
    x = T(np.arange(6, dtype=np.float32))
    return [x.reshape(2, 3), x.reshape((3, 2)), x.reshape([-1]), x.reshape(T(np.array([2, 3]))),
            x.reshape(np.int64(6)), x.reshape((T(np.array(2)), 3)),
            _raised(lambda: x.reshape(6.0)), _raised(lambda: x.reshape(1.1)), _raised(lambda: x.reshape(2, 3.0)),
            _raised(lambda: x.reshape((2, 3.7))), _raised(lambda: x.reshape([2, "a"])), _raised(lambda: x.reshape(None)),
            _raised(lambda: x.reshape(4))]


def case_clamp_bool_refused(ms):
    """``Tensor.clamp``/``clip``, ``ops.clamp`` and ``mint.clamp`` refuse a Bool input or bound
    (Python bool or Bool Tensor) with MindSpore's ValueError (test_clamp.py) instead of clamping
    to 0/1; numbers and Tensors as bounds still clamp."""
    T, ops, mint = ms.Tensor, ms.ops, ms.mint
    x = T(np.array([[1.0, 25.0, 5.0, 7.0], [4.0, 11.0, 6.0, 21.0]], np.float32))
    xi, b = T(np.array([1, 25, 5], np.int32)), T(np.array(True))
    # the results first: after a failed clamp MindSpore's PyNative raises the same error for the next one
    return [x.clamp(5, 20), xi.clamp(2.5), x.clip(T(np.array(3.0, np.float32)), None),
            _raised(lambda: x.clamp(5, True)), _raised(lambda: x.clamp(True, 5)), _raised(lambda: x.clamp(None, True)),
            _raised(lambda: x.clamp(b, 5.0)), _raised(lambda: xi.clamp(2, False)), _raised(lambda: ops.clamp(x, 5, True)),
            _raised(lambda: mint.clamp(x, b, T(np.array(6.0, np.float32)))), _raised(lambda: x.clip(5, True)),
            _raised(lambda: T(np.array([True, False])).clamp(0, 1))]


def case_mm_non_tensor(ms):
    """``Tensor.mm``, ``ops.mm`` and ``mint.mm`` with a number or list ``mat2``: MindSpore's TypeError
    (test_mm.py), not the ValueError of a wrong rank."""
    T = ms.Tensor
    x = T(np.arange(6, dtype=np.float32).reshape(2, 3))
    return [x.mm(T(np.ones((3, 2), np.float32))), _raised(lambda: x.mm(3)), _raised(lambda: x.mm(3.0)),
            _raised(lambda: x.mm([[1.0], [2.0], [3.0]])), _raised(lambda: ms.mint.mm(x, 3)), _raised(lambda: ms.ops.mm(x, 3))]


def case_split_overload_keywords(ms):
    """``Tensor.split(split_size=..., dim=...)`` and ``split(split_size_or_sections=..., axis=...)`` by
    keyword (test_split.py), positional, and the TypeError of mixed keywords."""
    x = ms.Tensor(np.arange(20, dtype=np.float32).reshape(10, 2))
    return [x.split(split_size=3, dim=0), x.split(4), x.split(1, 1), x.split(split_size_or_sections=[2, 3, 5], axis=0),
            x.split([2, 8], axis=0), x.split((1, 1), dim=1), _raised(lambda: x.split(split_size=3, axis=0)),
            _raised(lambda: x.split(3, dim=0, axis=0))]


def case_median_dim_keepdim(ms):
    """``Tensor.median(dim=-1, keepdim=False)`` by keyword (test_median.py) beside the older
    ``median(axis, keepdims)``: lower median and Int64 index, and the gradient; mixed keywords are a
    TypeError."""
    x = ms.Tensor(np.array([[1.0, 7.0, 3.0, 2.0], [0.0, 5.0, 6.0, 5.0]], np.float32))
    return [x.median(), x.median(1), x.median(dim=0), x.median(dim=1, keepdim=True), x.median(axis=1, keepdims=True),
            x.median(0, True), ms.grad(lambda a: a.median(dim=1)[0])(x), _raised(lambda: x.median(dim=1, keepdims=True))]


def case_shape_methods_float_dims(ms):
    """``Tensor.view``/``broadcast_to``/``expand``/``repeat`` refuse a float dimension with MindSpore's
    argument-parser TypeError (msjax truncated ``view(2.5, 3)`` to ``(2, 3)``), and take ints, tuples,
    -1 and an int Tensor (``repeat`` has no CPU kernel in MindSpore 2.10: only its TypeErrors here)."""
    T = ms.Tensor
    x = T(np.arange(6, dtype=np.float32))
    return [x.view(2, 3), x.view((3, -1)), x.view(ms.int32), x.broadcast_to(2, 6), x.broadcast_to((2, -1)),
            x.expand(2, 6), x.expand(T(np.array([3, 6]))),
            _raised(lambda: x.view(2, 3.0)), _raised(lambda: x.view(2.5, 3)), _raised(lambda: x.view((2, 3.0))),
            _raised(lambda: x.broadcast_to(2, 6.0)), _raised(lambda: x.expand(2, 6.0)), _raised(lambda: x.repeat(2.0))]


def case_new_zeros_ones_size_types(ms):
    """``Tensor.new_zeros``/``new_ones(size)``: an int, a tuple/list or an empty tuple; a float, str or
    bool ``size`` (or element) is MindSpore's TypeError (msjax truncated ``new_zeros(2.5)`` to ``(2,)``)."""
    x = ms.Tensor(np.arange(6, dtype=np.float32))
    return [x.new_zeros((2, 3)), x.new_ones(3), x.new_zeros([1, 2], dtype=ms.int32), x.new_ones(()),
            _raised(lambda: x.new_zeros(2.5)), _raised(lambda: x.new_zeros((2, 3.0))), _raised(lambda: x.new_ones(2.5)),
            _raised(lambda: x.new_ones([2, 1.5])), _raised(lambda: x.new_zeros("a")), _raised(lambda: x.new_zeros(True))]


def case_tensor_sub_add_dunder_alpha(ms):
    """``Tensor.__sub__``/``__isub__``/``__add__``/``__iadd__`` with ``alpha=`` (tests/st/tensor/overload/test_sub.py):
    MindSpore's operators are its ``Tensor.sub``/``add`` overloads; a second positional argument and
    ``__rsub__(alpha=)`` raise TypeError; a float alpha on int inputs too."""
    T = ms.Tensor
    x, y = T(np.array([4, 5, 6]), ms.float32), T(1, ms.int32)
    xi = T(np.array([4, 5, 6]), ms.int32)
    out = [x.__sub__(y, alpha=2), x.__add__(y, alpha=2), x.__sub__(2, alpha=2), x.__sub__(y, alpha=2.5),
           xi.__sub__(y, alpha=2), T(np.array([4, 5, 6]), ms.float32).__isub__(y, alpha=2),
           T(np.array([4, 5, 6]), ms.float32).__iadd__(y, alpha=3)]
    out += [_st_ops._raised(f) for f in (lambda: x.__sub__(y, 2), lambda: x.__sub__(y, beta=2),
                                         lambda: x.__rsub__(y, alpha=2), lambda: xi.__sub__(y, alpha=2.5),
                                         lambda: x.__mul__(y, alpha=2))]
    return out


def _message(f):
    """``f()``'s exception as ``type: message`` (MindSpore's C++ call stack and trailing blank lines cut)."""
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001 - the message is the result
        return f"{type(e).__name__}: {str(e).split('-----')[0].rstrip()}"


def case_tensor_max_min_parser_messages(ms):
    """``Tensor.max``/``min`` calls no overload takes (tests/st/tensor/overload/test_parse_exception.py): MindSpore's
    argument-parser wording: too many positionals, an unknown keyword after accepted positionals, the
    best-fitting overload's own check, and the list of overloads with why each failed."""
    x = ms.Tensor(np.array([1, 2, 3, 4, 5]))
    calls = (lambda: x.max(1, [1]), lambda: x.max(1, 1.5), lambda: x.max([1], 1, initial=[1]),
             lambda: x.max(1, True, 3), lambda: x.min(dim=1, keepdims=True), lambda: x.max(dim=1, il=2),
             lambda: x.max(a=1, b=1), lambda: x.max(1, True, il=[1]), lambda: x.max(1, True, initial=[1]),
             lambda: x.max(1, 1, initial=None), lambda: x.min(1.5), lambda: x.min((0,), True, 2))
    return [_message(f) for f in calls] + [x.max(0, True, initial=9), x.min(dim=0)]
