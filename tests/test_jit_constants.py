"""``ms.jit`` and GRAPH_MODE Cells return Python constants as Python values and dicts
in their own order, as MindSpore 2.10's graphs do (values below printed by MindSpore
2.10 for the same functions: ``(1, (1, 2), [4, 16], (2, 3), 2.5, True)``, keys
``['b', 'a']``, ``int 2``, ``int 3``)."""
import pickle

import jax
import numpy as np

import msjax as ms
from msjax import nn
from msjax._core import transforms


@ms.jit
def _constants(x):
    return 1, (1, 2), [4, 16], x.shape, 2.5, True, x * 2, {"b": 1, "a": x}


def test_jit_returns_python_constants():
    r = _constants(ms.Tensor(np.ones((2, 3), np.float32)))
    assert [type(v).__name__ for v in r] == ["int", "tuple", "list", "tuple", "float", "bool", "Tensor", "dict"]
    assert r[:6] == (1, (1, 2), [4, 16], (2, 3), 2.5, True)
    assert list(r[7]) == ["b", "a"] and type(r[7]["b"]) is int and isinstance(r[7]["a"], ms.Tensor)
    assert type(r[7]) is dict
    np.testing.assert_array_equal(r[6].asnumpy(), np.full((2, 3), 2.0, np.float32))


def test_numbers_of_different_types_stay_apart():
    @ms.jit
    def f(x, k):
        return (1, 1.0, True)[k]
    x = ms.Tensor(1.0)
    assert [type(f(x, k)).__name__ for k in range(3)] == ["int", "float", "bool"]


def test_graph_mode_cell_returns_a_shape_entry_as_int():
    class N(nn.Cell):
        def construct(self, x):
            return x.shape[0], x + 1

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        o = N()(ms.Tensor(np.ones((2, 3), np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert type(o[0]) is int and o[0] == 2 and isinstance(o[1], ms.Tensor)


def test_output_structures_pickle_for_the_compile_cache():
    tree = transforms.to_arrays((1, {"b": 2.5, "a": True}), constants=True)
    td = jax.tree_util.tree_structure(tree)
    assert pickle.loads(pickle.dumps(td)) == td
