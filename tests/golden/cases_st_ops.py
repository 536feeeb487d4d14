"""Golden cases for ops MindSpore's own system tests (``tests/st/ops``) exercise and msjax
lacked or got wrong: recorded from MindSpore 2.10 with
``record_mindspore.py --suite st_ops --mode pynative --only NAME --merge``.

Every ``case_<name>(ms)`` uses only the module passed in.
"""
import numpy as np


def _f32(*shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def case_bincount_compiled(ms):
    """A data-dependent output length inside ms.jit and a GRAPH_MODE-style Cell (MindSpore: a
    dynamic-shape graph), with float32/int32/float64 weights and minlength."""
    T, ops = ms.Tensor, ms.ops
    x = T(np.array([2, 4, 1, 0, 0], np.int64))

    class Net(ms.nn.Cell):
        def construct(self, a, w=None, m=0):
            return ops.bincount(a, w, m)

    def plus_one(a):
        return ops.bincount(a) + 1

    def weighted(a, w):
        return ops.bincount(a, w, 2)

    out = [Net()(x, None, 7), ms.jit(plus_one)(x)]
    for w in (np.array([0., 0.25, 0.5, 0.75, 1.], np.float32), np.array([1, 2, 3, 4, 5], np.int32),
              np.array([1, 2, 3, 4, 5], np.float64)):
        out.append(Net()(x, T(w), 7))
    out.append(ms.jit(weighted)(T(np.array([3, 1], np.int32)), T(_f32(2))))
    return out


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
