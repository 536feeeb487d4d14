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


def case_matrix_vector_norm_ops_spelling(ms):
    """``ops.matrix_norm``/``ops.vector_norm`` take ``axis``/``keepdims``; ``mint.linalg``'s take
    ``dim``/``keepdim`` (tests/st/ops/test_func_matrix_norm.py, test_func_vector_norm.py)."""
    ops, T = ms.ops, ms.Tensor
    x = T(np.arange(12, dtype=np.float32).reshape(2, 2, 3) - 6)
    out = [ops.matrix_norm(x, ord=o, axis=(-2, -1), keepdims=True)
           for o in ("fro", "nuc", float("inf"), float("-inf"), 1, -1, 2, -2)]
    out.append(ops.matrix_norm(x, 1, [0, 2]))
    out += [ops.vector_norm(x, ord=o, axis=a, keepdims=k) for o, a, k in
            ((2, None, False), (0, 1, True), (float("inf"), (0, 2), False), (float("-inf"), -1, False),
             (3.5, (1,), False), (1, None, True))]
    return out


def case_matrix_norm_axis_list_of_three(ms):
    return ms.ops.matrix_norm(ms.Tensor(np.ones((2, 2, 2), np.float32)), axis=(0, 1, 2))


def case_matrix_norm_axis_int(ms):
    return ms.ops.matrix_norm(ms.Tensor(np.ones((2, 2), np.float32)), axis=1)


def case_matrix_norm_axis_duplicate(ms):
    return ms.ops.matrix_norm(ms.Tensor(np.ones((2, 2), np.float32)), axis=(1, -1))


def case_matrix_norm_bad_ord(ms):
    return ms.ops.matrix_norm(ms.Tensor(np.ones((2, 2), np.float32)), ord=3)


def case_vector_norm_axis_list(ms):
    return ms.ops.vector_norm(ms.Tensor(np.ones((2, 2), np.float32)), axis=[0, 1])


def case_vector_norm_axis_duplicate(ms):
    return ms.ops.vector_norm(ms.Tensor(np.ones((2, 2), np.float32)), axis=(0, -2))


def case_vector_norm_str_ord(ms):
    return ms.ops.vector_norm(ms.Tensor(np.ones((2, 2), np.float32)), ord="fro")


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
