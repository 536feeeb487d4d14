"""``mindspore.common.api.cells_compile_cache`` and ``Cell.compile_cache`` map onto
msjax's compiled functions: clearing them drops what was compiled, and the next
call traces again (the registry itself is golden case ``tree:cells_compile_cache_registry``)."""
import copy
import gc

import numpy as np
import pytest

import msjax as ms
from msjax._core import transforms
from msjax.common.api import cells_compile_cache
from msjax.common._cell_cache import cell_functions


class _Add(ms.nn.Cell):
    def construct(self, x, y):
        return x + y


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)    # conftest puts PYNATIVE_MODE back after each test


def _traces(fn):
    before = transforms.TRACES[0]
    out = fn()
    return transforms.TRACES[0] - before, out


X, Y = ms.Tensor(np.array([1.0], np.float32)), ms.Tensor(np.array([2.0], np.float32))


def test_clearing_a_cells_compile_cache_recompiles(graph_mode):
    net = _Add()
    assert cells_compile_cache[id(net)] is net.compile_cache and len(net.compile_cache) == 0
    assert _traces(lambda: net(X, Y))[0] == 1
    assert list(net.compile_cache) == ["construct.0"] and "construct.0" in net.compile_cache
    assert _traces(lambda: net(X, Y))[0] == 0                       # cached
    compiled = cell_functions(net)["construct"]
    cells_compile_cache[id(net)].clear()
    assert len(net.compile_cache) == 0 and not cell_functions(net)
    n, out = _traces(lambda: net(X, Y))
    assert n == 1 and out.asnumpy().tolist() == [3.0] and cell_functions(net)["construct"] is not compiled
    net(ms.Tensor(np.ones((2, 2), np.float32)), ms.Tensor(np.ones((2, 2), np.float32)))
    assert sorted(net.compile_cache) == ["construct.0", "construct.1"]
    net.compile_cache.discard("construct.0")
    assert list(net.compile_cache) == ["construct.0"]                # the (2, 2) signature is left
    assert _traces(lambda: net(X, Y))[0] == 1
    with pytest.raises(TypeError, match="cannot be added"):
        net.compile_cache.add("train.1")


def test_removing_entries_drops_compiled_functions(graph_mode):
    a, b = _Add(), _Add()
    a(X, Y), b(X, Y)
    del cells_compile_cache[id(a)]
    assert id(a) not in cells_compile_cache and len(a.compile_cache) == 0
    assert cells_compile_cache.pop(id(b)) is b.compile_cache and len(b.compile_cache) == 0
    assert cells_compile_cache.pop(id(b), None) is None
    assert _traces(lambda: (a(X, Y), b(X, Y)))[0] == 2
    cells_compile_cache[id(a)], cells_compile_cache[id(b)] = a.compile_cache, b.compile_cache
    saved = dict(cells_compile_cache)     # clear() empties the registry of every live Cell: put it back after
    try:
        cells_compile_cache.clear()
        assert not cells_compile_cache and len(a.compile_cache) == 0 and len(b.compile_cache) == 0
    finally:
        dict.update(cells_compile_cache, saved)
    assert _traces(lambda: a(X, Y))[0] == 1


def test_deep_copied_cell_registered_by_hand_and_released(graph_mode):
    """The model zoo's ``clone``: deepcopy, then ``cells_compile_cache[id(new)] = new.compile_cache``."""
    net = ms.nn.Dense(3, 2)
    x = ms.Tensor(np.ones((1, 3), np.float32))
    net(x)
    twin = copy.deepcopy(net)
    assert id(twin) not in cells_compile_cache and len(twin.compile_cache) == 0   # compiled code is not copied
    key = id(twin)
    cells_compile_cache[key] = twin.compile_cache
    np.testing.assert_array_equal(twin(x).asnumpy(), net(x).asnumpy())
    assert list(twin.compile_cache) == ["construct.0"] and list(net.compile_cache) == ["construct.0"]
    del twin
    gc.collect()
    assert cells_compile_cache.get(key) is None      # the entry leaves with its Cell


def test_training_step_after_clear_trains_on(graph_mode):
    def run(clear_every):
        net = ms.nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()),
                                      ms.nn.Momentum(net.trainable_params(), 0.1, 0.9))
        rng = np.random.RandomState(0)
        traces = 0
        for i in range(4):
            if clear_every and i:
                step.compile_cache.clear()
            n, _ = _traces(lambda: step(ms.Tensor(rng.randn(4, 3).astype(np.float32)),
                                        ms.Tensor(rng.randn(4, 2).astype(np.float32))))
            traces += n
        assert list(step.compile_cache) == ["train_step.0"]
        return traces, net.weight.asnumpy(), net.bias.asnumpy()

    t_plain, w_plain, b_plain = run(False)
    t_clear, w_clear, b_clear = run(True)
    assert (t_plain, t_clear) == (1, 4)
    np.testing.assert_allclose(w_clear, w_plain, rtol=1e-6)
    np.testing.assert_allclose(b_clear, b_plain, rtol=1e-6)


def test_pynative_cell_calls_compile_nothing():
    net = _Add()
    net(X, Y)
    assert len(net.compile_cache) == 0 and cells_compile_cache[id(net)] is net.compile_cache


def test_merged_cell_compiles_for_itself(graph_mode):
    """``nnx.merge`` shares the split Cell's plain attributes; the compiled functions
    stay with the Cell they were built for."""
    import jax
    from flax import nnx
    net = ms.nn.Dense(3, 2)
    x = ms.Tensor(np.ones((1, 3), np.float32))
    expected = net(x).asnumpy()
    graphdef, params = nnx.split(net)
    zeroed = nnx.merge(graphdef, jax.tree_util.tree_map(lambda a: a * 0, params))
    np.testing.assert_array_equal(zeroed(x).asnumpy(), np.zeros((1, 2), np.float32))
    np.testing.assert_array_equal(net(x).asnumpy(), expected)
    assert cell_functions(zeroed)["construct"] is not cell_functions(net)["construct"]


def test_stateful_function_lists_and_drops_its_compiled_signatures():
    """The transform core's public view of its compiled signatures (what ``compile_cache`` shows)."""
    sf = transforms.StatefulFunction(lambda x, y: x + y)
    assert sf.signatures() == []
    wide = ms.Tensor(np.ones((2, 2), np.float32))
    assert _traces(lambda: (sf(X, Y), sf(X, Y), sf(wide, wide)))[0] == 2
    first, second = sf.signatures()
    sf.discard(first)
    assert sf.signatures() == [second]
    assert _traces(lambda: sf(wide, wide))[0] == 0 and _traces(lambda: sf(X, Y))[0] == 1
    sf.discard(first)
    sf.discard(first)                   # a signature no longer there: nothing to drop
    assert sf.signatures() == [second]
