"""Golden cases for MindSpore's JIT Fallback in GRAPH_MODE (``ms.jit`` functions calling Python
builtins, NumPy and third-party code, as MindSpore's own ``tests/st/compiler/fallback`` do; the
cases are written anew, with other values). Recorded in GRAPH_MODE only::

    /tmp/ms/bin/python tests/golden/record_mindspore.py --suite fallback --mode graph

and replayed in GRAPH_MODE by ``tests/test_fallback_graph.py``. Errors are compared by type and
by the part of MindSpore's message before ``but got`` (what follows names MindSpore's abstract
values).
"""
import numpy as np


def _error(f):
    """``f()``, or ``'<ExceptionType>: <message's first line up to "but got">'``."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the type and message are the result
        return f"{type(e).__name__}: {str(e).strip().splitlines()[0].split(' but got')[0]}"


def case_range_int_scalars_only(ms):
    """``range`` in a graph takes int scalars: a constant Tensor made in the graph, a Tensor
    argument or a float is MindSpore's TypeError; ints (also a NumPy int, and ``x.asnumpy()``, which
    JIT Fallback runs in Python) run."""
    @ms.jit
    def const_tensor(x):
        for i in range(ms.Tensor(3, ms.int32)):
            x = x + i
        return x

    @ms.jit
    def arg_tensor(x):
        y = x
        for i in range(1, x):
            y = y + i
        return y

    @ms.jit
    def float_step(x):
        for i in range(0, 4, 1.5):
            x = x + i
        return x

    @ms.jit
    def ints(x):
        for i in range(1, 7, 2):
            x = x + i
        return x

    @ms.jit
    def numpy_int(x):
        for i in range(np.int64(3)):
            x = x + i
        return x

    @ms.jit
    def asnumpy(x):
        y = 0
        for i in range(1, x.asnumpy() + 3):
            y += i
        return y

    x = ms.Tensor(2, ms.int32)
    return {f.__name__: _error(lambda: f(x)) for f in (const_tensor, arg_tensor, float_step, ints, numpy_int, asnumpy)}


def case_enumerate_start_checks(ms):
    """``enumerate`` in a graph: its ``start`` a const int (a list, a float, a constant Tensor: its
    TypeError; a bool: ``make_range``'s), its input not a number; a NumPy int start runs."""
    def make(start):
        @ms.jit
        def f(x):
            out = x
            for index, value in enumerate([x, x * 2], start=start):
                out = out + index * value
            return out
        return f

    @ms.jit
    def number(x):
        for index, value in enumerate(3):
            x = x + index
        return x

    x = ms.Tensor(2, ms.int32)
    out = {f"start_{type(s).__name__}": _error(lambda: make(s)(x))
           for s in ([1, 2], 1.5, ms.Tensor(1, ms.int32), True, np.int64(2), -1)}
    out["number"] = _error(lambda: number(x))
    return out


def case_isinstance_sparse_classes(ms):
    """``isinstance`` in a graph against the sparse classes, ``RowTensorInner`` among them (the
    base of ``RowTensor``), for a NumPy array and a CSRTensor held by the Cell; a RowTensorInner
    made outside the graph keeps its parts (and has no ``to_dense``)."""
    inner = ms.common.sparse_tensor.RowTensorInner

    class Net(ms.nn.Cell):
        def __init__(self, x):
            super().__init__()
            self.x = x
            self.y = ms.CSRTensor(ms.Tensor([0, 1, 2], ms.int32), ms.Tensor([0, 1], ms.int32),
                                  ms.Tensor([2.0, 5.0], ms.float32), (2, 4))

        def construct(self):
            return (isinstance(self.x, inner), isinstance(self.x, (inner, ms.COOTensor, np.ndarray)),
                    isinstance(self.y, (inner, ms.CSRTensor)), isinstance(self.y, inner))

    rows = inner(ms.Tensor([1], ms.int32), ms.Tensor([[1.5, 2.5]], ms.float32), (3, 2))
    return (Net(np.array([[1, 2], [3, 4]]))(), issubclass(ms.RowTensor, inner), rows.indices, rows.values,
            rows.dense_shape, hasattr(rows, "to_dense"))


def case_len_without_len(ms):
    """``len`` in a graph of what has no ``__len__``: a number (also ``mutable``), None are
    AttributeErrors naming MindSpore's types, a 0-D Tensor a TypeError; sequences, dicts, strings
    and a 1-D Tensor have lengths."""
    @ms.jit
    def of_mutable():
        return len(ms.mutable(3))

    @ms.jit
    def of_int():
        return len(7)

    @ms.jit
    def of_float():
        return len(0.5)

    @ms.jit
    def of_bool():
        return len(False)

    @ms.jit
    def of_none():
        return len(None)

    @ms.jit
    def of_tensor(x):
        return len(x)

    @ms.jit
    def of_sequences(x):
        return len((x, x, 1)), len([x]), len({"a": x, "b": 2}), len("graph"), len(x[0])

    out = {f.__name__: _error(f) for f in (of_mutable, of_int, of_float, of_bool, of_none)}
    out["scalar_tensor"] = _error(lambda: of_tensor(ms.Tensor(4, ms.float32)))
    out["sequences"] = _error(lambda: of_sequences(ms.Tensor(np.ones((2, 5), np.float32))))
    return out


def all_cases():
    return {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}


graph_cases = all_cases
