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


def _outcomes(*thunks):
    """Each thunk's result, or its error as ``'<Type>: <first line>'``."""
    out = []
    for mk in thunks:
        try:
            out.append(mk())
        except (TypeError, ValueError, RuntimeError) as e:
            out.append(f"{type(e).__name__}: {e}".splitlines()[0])
    return out


def _add(x, y):
    return x + y


def case_partial_keywords(ms):
    """statements: ``ops.partial(add, x=2)`` binds by name inside ``ms.jit``; PyNative rejects
    keywords (functional and Primitive forms)."""
    out = _outcomes(lambda: ms.ops.partial(_add, x=2)(y=3), lambda: ms.ops.Partial()(_add, x=1))

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
    out += _outcomes(lambda: ops.ReduceSum(True)(x, bogus=2), lambda: ops.Add()(x, y=x))

    @ms.jit
    def f(a):
        return ops.ReduceSum(True)(a, axis=2) * 2
    out.append(f(x))
    return out


def case_jit_asnumpy_fallback(ms):
    """static_graph (JIT Fallback): ``x.asnumpy()`` inside ``ms.jit`` runs on the host values."""
    class Net(ms.nn.Cell):
        @ms.jit
        def construct(self, x, y):
            z = x.asnumpy() + y.asnumpy()
            return ms.ops.abs(ms.Tensor(z, dtype=ms.float32)), ms.Tensor(z)
    return Net()(ms.Tensor(np.array([-4, 5]), ms.int32), ms.Tensor(np.array([1.5, -2.0]), ms.float32))


def case_jit_class_on_cell(ms):
    """static_graph_expert_programming: ``@jit_class`` on an ``nn.Cell`` raises TypeError."""
    def decorate():
        @ms.jit_class
        class Net(ms.nn.Cell):
            def construct(self, x):
                return x
        return Net
    return [r.split(": <class")[0] for r in _outcomes(decorate, lambda: ms.jit_class(3))]


def case_bce_with_logits_gradients(ms):
    """autograd: ``ops.binary_cross_entropy_with_logits`` differentiated w.r.t. every input, each
    reduction: MindSpore's bprop gives ``weight`` and ``pos_weight`` zero gradients."""
    T = ms.Tensor
    x = T(np.array([[3.8, -3.0, -1.9], [0.5, 0.0, 2.0]], np.float32))
    y = T(np.array([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25]], np.float32))
    w = T(np.array([1.0, 2.0, 0.5], np.float32))
    pw = T(np.array([[1.5, 1.0, 3.0], [1.0, 2.0, 1.0]], np.float32))
    out = []
    for reduction in ("mean", "sum", "none"):
        def f(a, b, c, d):
            return ms.ops.binary_cross_entropy_with_logits(a, b, c, d, reduction)
        out.append(ms.value_and_grad(f, grad_position=(0, 1, 2, 3))(x, y, w, pw))
    return out


def case_lazy_init_tensor_text(ms):
    """tensor: ``Tensor(shape=..., dtype=..., init=One())`` prints ``<uninitialized>`` until
    ``init_data()`` or ``asnumpy()`` (which clears ``has_init``)."""
    One, initializer = ms.common.initializer.One, ms.common.initializer.initializer
    a = ms.Tensor(shape=(2, 2), dtype=ms.float32, init=One())
    b = ms.Tensor(shape=(3,), dtype=ms.int32, init=One())
    c = initializer(One(), [2], ms.float32)
    out = [str(a), str(b), f"{c}", a.has_init]
    a.asnumpy()
    c.init_data()
    return out + [str(a), a.has_init, str(c), c.has_init, str(b)]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
