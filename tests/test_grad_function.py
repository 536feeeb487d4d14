"""``mindspore._Function`` (PyTorch-style custom backward; MindSpore's
tests/st/pynative/grad/test_custom_function_grad.py): gradients from ``backward``, the context,
``mark_non_differentiable``, ``set_materialize_grads``, broadcast gradients summed back, and
MindSpore's errors."""
import numpy as np
import pytest

import msjax as ms
from msjax import _Function, ops

X = ms.Tensor(np.array([2.0, 2.0], np.float32))
Y = ms.Tensor(np.array([3.0, 3.0], np.float32))
grad_all = ops.GradOperation(get_all=True)


class _Scaled(_Function):
    @staticmethod
    def forward(ctx, x, y, k=1.0):
        ctx.k = k
        x2 = x * x
        ctx.save_for_backward(x, x2)
        return x2 + y * k, 4, x2

    @staticmethod
    def backward(ctx, gz, g_const, gx2):
        x, x2 = ctx.saved_tensors
        assert g_const is None and float(x2.asnumpy()[0]) == 4.0
        return gz * 2 * x + gx2 * 2 * x, gz * ctx.k, None


def test_backward_gives_the_gradients_and_sees_the_context():
    z, four, x2 = _Scaled.apply(X, Y, 3.0)
    assert four == 4 and z.asnumpy().tolist() == [13.0, 13.0] and x2.asnumpy().tolist() == [4.0, 4.0]
    gx, gy = grad_all(lambda x, y: _Scaled.apply(x, y, 3.0)[0].sum())(X, Y)
    assert gx.asnumpy().tolist() == [4.0, 4.0] and gy.asnumpy().tolist() == [3.0, 3.0]
    gx, gy = grad_all(lambda x, y: (_Scaled.apply(x, y, 1.0)[0] + _Scaled.apply(x, y, 1.0)[2]).sum())(X, Y)
    assert gx.asnumpy().tolist() == [8.0, 8.0] and gy.asnumpy().tolist() == [1.0, 1.0]


class _NonDiff(_Function):
    @staticmethod
    def forward(ctx, x, y):
        z = x * x + y
        ctx.mark_non_differentiable(z)
        return z

    @staticmethod
    def backward(ctx, g):
        return g + 1, g + 1


class _Lazy(_Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g0, g1):
        assert g1 is None
        return g0 * 2


def test_non_differentiable_outputs_and_unmaterialized_gradients():
    gx, gy = grad_all(lambda x, y: _NonDiff.apply(x, y).sum())(X, Y)
    assert gx.asnumpy().tolist() == [0.0, 0.0] and gy.asnumpy().tolist() == [0.0, 0.0]
    (g,) = grad_all(lambda x: _Lazy.apply(x)[0].sum())(X)
    assert g.asnumpy().tolist() == [2.0, 2.0]


class _Broadcast(_Function):
    @staticmethod
    def forward(ctx, x, b):
        return x + b

    @staticmethod
    def backward(ctx, g):
        return g, ops.ones((3, 2), ms.float64)


def test_broadcast_gradient_is_summed_and_cast_to_the_input():
    b = ms.Tensor(np.array([1.0, 1.0], np.float32))
    x = ms.Tensor(np.ones((3, 2), np.float32))
    gx, gb = grad_all(lambda x, b: _Broadcast.apply(x, b).sum())(x, b)
    assert gb.dtype == ms.float32 and gb.asnumpy().tolist() == [3.0, 3.0]


@pytest.mark.parametrize("backward, message", [
    (lambda ctx, g: g, "Function backward return a wrong number of gradients"),
    (lambda ctx, g: (g, 4), "Gradient should be none or tensor"),
])
def test_backward_errors(backward, message):
    class Bad(_Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y
    Bad.backward = staticmethod(backward)
    with pytest.raises(RuntimeError, match=message):
        grad_all(lambda x, y: Bad.apply(x, y).sum())(X, Y)


def test_a_non_tensor_input_must_get_none_and_dirty_tensors_must_be_outputs():
    class NotNone(_Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, g
    with pytest.raises(RuntimeError, match="Input is not tensor, but gradient is not none"):
        grad_all(lambda x: NotNone.apply(x, 3).sum())(X)

    class Dirty(_Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g
    with pytest.raises(RuntimeError, match="The dirty tensors must all be outputs of the forward function."):
        Dirty.apply(X)


def test_c_expression_tensorpy_is_the_tensor_base():
    """MindSpore's test helpers (tests/mindspore_test_framework) check ``isinstance(x, TensorPy)``."""
    from msjax._c_expression import TensorPy
    assert isinstance(X, TensorPy) and isinstance(ms.Parameter(X, name="p"), TensorPy)
    assert not isinstance(np.ones(2), TensorPy)


def test_setup_context_style_and_the_base_class_errors():
    """With ``setup_context`` ``forward`` takes no ctx (defaults bound first); a subclass that does not
    define ``forward``/``backward`` raises MindSpore's NotImplementedError when it is needed (the
    values and messages are MindSpore 2.10's, checked with its venv)."""
    class Scaled(_Function):
        @staticmethod
        def forward(x, k=2.0):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k + 1, None
    assert Scaled.apply(X).asnumpy().tolist() == [4.0, 4.0]
    g = ops.GradOperation()(lambda x: Scaled.apply(x).sum())(X)
    assert g.asnumpy().tolist() == [3.0, 3.0]

    class NoForward(_Function):
        pass

    class NoBackward(_Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3
    with pytest.raises(NotImplementedError, match="forward function should be customized."):
        NoForward.apply(X)
    with pytest.raises(NotImplementedError, match="backward function should be customized."):
        ops.GradOperation()(lambda x: NoBackward.apply(x).sum())(X)
