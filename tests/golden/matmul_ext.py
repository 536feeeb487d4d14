"""Float32 ``ops.matmul`` (MindSpore's ``MatMulExt``) of 2-D Tensors, run by MindSpore 2.10
(``record_matmul_ext.py``) and msjax (``tests/test_matmul_ext_bits.py``): small products of the
PyNative bench's shapes (``bench/eager_first.py``) and odd sizes, operands of mixed magnitudes.
MindSpore's CPU kernel is oneDNN's matmul, whose bits XLA's dot differs from (measured: 3 of 9 to
3,972 of 5,000 values)."""
import hashlib

import numpy as np

SHAPES = ((4, 16, 4), (8, 32, 8), (16, 16, 16), (3, 5, 3), (32, 8, 32), (5, 40, 3), (61, 22, 50), (7, 1, 9))


def operands(m, k, n, seed):
    rs = np.random.RandomState(seed)
    a = (rs.standard_normal((m, k)) * 10.0 ** rs.randint(-3, 4, (m, k))).astype(np.float32)
    b = (rs.standard_normal((k, n)) * 10.0 ** rs.randint(-3, 4, (k, n))).astype(np.float32)
    return a, b


def digest(r):
    return hashlib.sha256(np.ascontiguousarray(np.asarray(r, np.float32)).tobytes()).hexdigest()[:32]


def matmul_ext_cases(ms):
    """name -> {digest, first values} of ``ops.matmul(a, b)`` and of ``ops.matmul(a, b_t.T)``."""
    out = {}
    for i, (m, k, n) in enumerate(SHAPES):
        a, b = operands(m, k, n, i)
        for name, y in (("", ms.Tensor(b)), ("/transposed", ms.Tensor(np.ascontiguousarray(b.T)).T)):
            r = ms.ops.matmul(ms.Tensor(a), y).asnumpy()
            out[f"{m}x{k}x{n}{name}"] = {"sha256": digest(r), "head": r.ravel()[:4].tolist()}
    return out
