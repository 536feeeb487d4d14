"""Golden cases for ``COOTensor``/``CSRTensor`` as MindSpore's own system tests
(``tests/st/sparse``) use them and msjax lacked or got wrong: recorded from MindSpore 2.10 with
``record_mindspore.py --suite st_sparse --mode pynative --only NAME --merge``.

A sparse result is returned as its ``to_tuple()`` parts. Every ``case_<name>(ms)`` uses only
the module passed in.
"""
import numpy as np


try:
    from .cases_st_ops import _raised
except ImportError:
    from cases_st_ops import _raised


def _parts(sp):
    return (sp.indices, sp.values, sp.shape) if type(sp).__name__ == "COOTensor" else \
        (sp.indptr, sp.indices, sp.values, sp.shape) if type(sp).__name__ == "CSRTensor" else sp


def _coo(ms, indices, values, shape=(3, 4), itype=None):
    return ms.COOTensor(ms.Tensor(np.array(indices), itype or ms.int64), ms.Tensor(np.array(values, np.float32)), shape)


def case_index_gradients(ms):
    """The index inputs of ``COOTensor``/``CSRTensor`` get zero gradients (MindSpore's
    MakeCOOTensor/MakeCSRTensor bprops), whatever reaches them; the values get the sensitivity."""
    g, T = ms.ops.GradOperation(get_all=True), ms.Tensor
    i, v = T(np.array([[0, 1], [1, 2]], np.int32)), T(np.array([-1.0, 2.0], np.float32))
    ip, ix = T(np.array([0, 1, 2], np.int32)), T(np.array([0, 1], np.int32))
    return [g(lambda a, b: ms.COOTensor(a, b, (3, 4)))(i, v),
            g(lambda a, b: ms.COOTensor(a, b, (3, 4)).indices)(i, v),
            g(lambda a, b: ms.COOTensor(a, b, (3, 4)).to_tuple())(i, v),
            g(lambda a, b: ms.COOTensor(a, b, (3, 4)).abs())(i, v),
            g(lambda a, b: ms.COOTensor(a, b, (3, 4)).to_dense())(i, v),
            g(lambda a, b, c: ms.CSRTensor(a, b, c, (2, 4)))(ip, ix, v),
            g(lambda a, b, c: ms.CSRTensor(a, b, c, (2, 4)).to_tuple())(ip, ix, v)]


def case_coo_arithmetic(ms):
    """``-coo``, ``coo +/- coo`` (coalesced union; an exact zero stays), ``coo +/- dense`` and
    reflected (dense), ``coo * dense``/``dense * coo``/``coo / dense`` (the pattern kept), and
    the errors for another shape and a Python number."""
    a = _coo(ms, [[0, 1], [1, 2]], [-1, 2])
    b = _coo(ms, [[0, 2], [1, 2], [2, 3]], [3, -2, 1])
    d = ms.Tensor(np.array([[0, 1, 2, 0], [0, 0, 2, 0], [1, 0, 0, 0]], np.float32) + 0.5)
    out = [_parts(-a), _parts(a + b), _parts(a - b), a + d, d + a, a - d, d - a, _parts(a * d), _parts(d * a),
           _parts(a / d)]
    out.append([_raised(lambda f=f: f()) for f in (lambda: a + ms.Tensor(np.ones((2, 2), np.float32)),
                                                   lambda: a * 2, lambda: a + 1,
                                                   lambda: a + _coo(ms, [[0, 0]], [1.0], (2, 2)))])
    return out


def case_coo_add_thresh_coalesce(ms):
    """``COOTensor.add(other, thresh)`` drops the sums whose magnitude is below ``thresh``;
    ``coalesce()`` sums duplicates and sorts (Int64 indices only: Int32 is a TypeError)."""
    a = _coo(ms, [[0, 1], [1, 2]], [-1, 2])
    c = _coo(ms, [[1, 2], [2, 0]], [-1.5, 0.25])
    dup = _coo(ms, [[1, 1], [0, 2], [1, 1], [0, 0]], [1, 2, 3, 4], (2, 3))
    return [_parts(a.add(c, ms.Tensor(np.float32(0.0)))), _parts(a.add(c, ms.Tensor(np.float32(0.6)))),
            _parts(dup.coalesce()),
            _raised(lambda: _coo(ms, [[0, 1]], [1.0], (2, 3), ms.int32).coalesce())]


def case_dense_to_sparse(ms):
    """``Tensor.to_coo()``/``to_csr()``: the non-zero entries, Int32 indices, the Tensor's dtype."""
    x = ms.Tensor(np.array([[0, 1.5, 0, -2], [0, 0, 0, 0], [3, 0, 0, 0.5]], np.float32))
    xi = ms.Tensor(np.array([[0, 7], [4, 0]], np.int64))
    return [_parts(x.to_coo()), _parts(x.to_csr()), _parts(xi.to_coo()), _parts(xi.to_csr())]


def case_sparse_through_jit(ms):
    """A COOTensor/CSRTensor made or changed inside ``ms.jit`` comes out with concrete parts."""
    a = _coo(ms, [[0, 1], [1, 2]], [-1, 2])
    csr = ms.CSRTensor(ms.Tensor(np.array([0, 1, 2], np.int32)), ms.Tensor(np.array([0, 1], np.int32)),
                       ms.Tensor(np.array([1.0, 2.0], np.float32)), (2, 3))

    @ms.jit
    def neg(c):
        return -c

    return [_parts(neg(a)), _parts(neg(csr))]


def case_sparse_unary_ops(ms):
    """``ops.csr_<op>``/``ops.coo_<op>``: the op on the values, indices and shape kept
    (tests/st/sparse/test_sparse_unary_ops.py)."""
    T = ms.Tensor
    vals = T(np.array([-3.5, -0.5, 0.0, 0.25, 1.5, 2.75], np.float32))
    csr = ms.CSRTensor(T(np.array([0, 1, 4, 6], np.int32)), T(np.array([3, 0, 1, 2, 1, 3], np.int32)), vals, (3, 4))
    coo = ms.COOTensor(T(np.array([[0, 3], [1, 0], [1, 1], [1, 2], [2, 1], [2, 3]], np.int32)), vals, (3, 4))
    names = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1",
             "floor", "inv", "isfinite", "isinf", "isnan", "log", "log1p", "neg", "relu", "relu6", "round",
             "sigmoid", "sin", "sinh", "softsign", "sqrt", "square", "tan", "tanh")
    return [[_parts(getattr(ms.ops, f"{k}_{n}")(x)) for n in names] for k, x in (("csr", csr), ("coo", coo))]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
