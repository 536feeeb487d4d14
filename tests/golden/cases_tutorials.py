"""Golden cases from running MindSpore's English tutorials (docs repo, ``tutorials/source_en``)
through msjax: the behaviours where msjax differed from MindSpore 2.10, each reduced to a few
lines (the tutorials themselves stay outside the repository)."""
import numpy as np


def case_tensor_one_element_to_scalar(ms):
    """static_graph: ``int(mindspore.tensor([10]))``; one-element Tensors of any rank convert
    to Python numbers and index lists, larger ones raise ValueError."""
    T = ms.Tensor
    out = []
    for f in (int, float, bool, complex):
        for t in (T([10]), T([[2.5]]), T(3), T([1, 2])):
            try:
                out.append(repr(f(t)))
            except ValueError as e:
                out.append(f"ValueError: {e}".splitlines()[0])
    for t in (T([1]), T(1), T([[1]]), T([1.0])):
        try:
            out.append(repr(([5, 6][t], [5, 6, 7][t:])))
        except ValueError as e:
            out.append(f"ValueError: {e}".splitlines()[0])
    return out


def _add(x, y):
    return x + y


def case_partial_keywords(ms):
    """statements: ``ops.partial(add, x=2)`` binds by name inside ``ms.jit``; PyNative rejects
    keywords (functional and Primitive forms)."""
    out = []
    for mk in (lambda: ms.ops.partial(_add, x=2)(y=3), lambda: ms.ops.Partial()(_add, x=1)):
        try:
            out.append(mk())
        except TypeError as e:
            out.append(f"TypeError: {e}")

    @ms.jit
    def f(a):
        add_ = ms.ops.partial(_add, x=a)
        return add_(y=a * 2), ms.ops.Partial()(_add, x=a)(y=a + 1)
    out.append(f(ms.Tensor(2.0, ms.float32)))
    return out


def case_primitive_named_inputs(ms):
    """static_graph: ``ops.ReduceSum(True)(x, axis=2)``: a Primitive takes its inputs by name;
    an unknown name raises TypeError."""
    ops = ms.ops
    x = ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    out = [ops.ReduceSum(True)(x, axis=2), ops.ReduceSum(False)(x, 1)]
    for mk in (lambda: ops.ReduceSum(True)(x, bogus=2), lambda: ops.Add()(x, y=x)):
        try:
            out.append(mk())
        except TypeError as e:
            out.append(f"TypeError: {e}")

    @ms.jit
    def f(a):
        return ops.ReduceSum(True)(a, axis=2) * 2
    out.append(f(x))
    return out


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
