"""``mindspore.boost.GradientAccumulation``: values are golden cases
(``train:boost_grad_accumulation_*``, both modes); here what they cannot show:
the GRAPH_MODE training step stays one compiled function, steps without an
update leave weights and optimizer state bit-identical, the module paths."""
import numpy as np
import pytest

import msjax as ms
from msjax import _compat, _tree
from msjax.boost import GradientAccumulation
from msjax.boost.grad_accumulation import gradient_accumulation_op, gradient_clear_op
from msjax.common._cell_cache import cell_functions


class _TrainAccumulate(ms.nn.TrainOneStepCell):
    def __init__(self, network, optimizer, n):
        super().__init__(network, optimizer)
        self.grad_accumulation = GradientAccumulation(n, self.optimizer)

    def construct(self, x, y):
        loss = self.network(x, y)
        grads = self.grad(self.network, self.weights)(x, y, ms.ops.ones_like(loss))
        return self.grad_accumulation(loss, grads)


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)    # conftest puts PYNATIVE_MODE back after each test


def test_compiled_step_updates_every_nth_call(graph_mode):
    net = ms.nn.Dense(3, 2)
    opt = ms.nn.Adam(net.trainable_params(), 0.01)
    step = _TrainAccumulate(ms.nn.WithLossCell(net, ms.nn.MSELoss()), opt, 3)
    rng = np.random.RandomState(1)
    state = lambda: [p.asnumpy().copy() for p in opt.get_parameters()]   # noqa: E731  (weights and Adam state)
    history = [state()]
    for _ in range(6):
        step(ms.Tensor(rng.randn(4, 3).astype(np.float32)), ms.Tensor(rng.randn(4, 2).astype(np.float32)))
        history.append(state())
    entries = list(cell_functions(step)["train_step"]._cache.values())
    assert len(entries) == 1 and hasattr(entries[0].call, "lower")   # one jitted step, not the eager fallback
    for i in range(1, 7):
        changed = any(not np.array_equal(a, b) for a, b in zip(history[i], history[i - 1]))
        assert changed == (i % 3 == 0), i           # calls 3 and 6 step Adam; the others leave it bit-identical
    assert int(step.grad_accumulation._accumulation_step.asnumpy()) == 0
    assert all(not p.asnumpy().any() for p in step.grad_accumulation._grad_accumulation)


def test_multitype_ops_with_hypermap():
    acc = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="acc")
    grad = ms.Tensor(np.array([2.0, 4.0, 6.0], np.float32))
    hyper_map = ms.ops.HyperMap()
    hyper_map(ms.ops.partial(gradient_accumulation_op, 2), (acc,), (grad,))
    np.testing.assert_array_equal(acc.asnumpy(), [2.0, 3.0, 4.0])
    hyper_map(gradient_clear_op, (acc,))
    np.testing.assert_array_equal(acc.asnumpy(), [0.0, 0.0, 0.0])


def test_mindspore_paths():
    _compat.install()
    import mindspore.boost as boost
    from mindspore.boost.grad_accumulation import GradientAccumulation as G2
    assert boost.GradientAccumulation is G2 is GradientAccumulation
    with pytest.raises(_tree.UnsupportedError, match=r"`mindspore.boost.AutoBoost`"):
        boost.AutoBoost
