"""Float16 and float32 ``MatMul`` cases run by MindSpore 2.10 (``record_matmul_fp16.py``) and msjax
(``tests/test_matmul_fp16_bits.py``): ``ops.MatMul`` with each transpose and ``nn.Dense`` in
PyNative mode, on seeded operands. MindSpore's CPU kernel computes a float16 product as oneDNN's
float32 matmul of the widened operands, rounded once (GCN's ``fp16=True`` layers)."""
import hashlib

import numpy as np

# shapes where XLA's dot and oneDNN's matmul round differently: two that MindSpore's oneDNN 3.10 splits
# over two threads on the recording machine, and the zoo ResNet-18's head, small enough for one thread
# (oneDNN 3.2's own cost model, msjax's wheel, would split it: conv_dnnl.cc's MatmulThreads), and one
# whose untransposed right operand msjax copies into padded rows first (512 columns, 64 rows:
# conv_dnnl.cc's PadWeightRows)
SHAPES = ((128, 1024, 8), (200, 1433, 16), (32, 512, 10), (64, 256, 512))


def _operands(m, k, n, dtype, seed):
    rng = np.random.RandomState(seed)
    return rng.randn(m, k).astype(dtype), (rng.randn(k, n) * 0.05).astype(dtype)


def _summary(r):
    r = np.ascontiguousarray(np.asarray(r, np.float32))
    return {"sha256": hashlib.sha256(r.tobytes()).hexdigest()[:32], "head": r.ravel()[:8].tolist(),
            "sum": float(r.astype(np.float64).sum()), "absmax": float(np.abs(r).max())}


def matmul_cases(ms):
    """name -> a summary of the product (digest of its float32 values, first values, sum)."""
    out = {}
    for dtype in ("float16", "float32"):
        for i, (m, k, n) in enumerate(SHAPES):
            a, b = _operands(m, k, n, dtype, i)
            for ta, tb in ((False, False), (True, False), (False, True)):
                x = a.T.copy() if ta else a
                y = b.T.copy() if tb else b
                r = ms.ops.MatMul(transpose_a=ta, transpose_b=tb)(ms.Tensor(x), ms.Tensor(y)).asnumpy()
                out[f"{dtype}/{m}x{k}x{n}/ta{int(ta)}tb{int(tb)}"] = _summary(r)
            dense = ms.nn.Dense(k, n, weight_init=ms.Tensor(b.T.copy()), has_bias=False,
                                dtype=getattr(ms, dtype))
            out[f"{dtype}/{m}x{k}x{n}/dense"] = _summary(dense(ms.Tensor(a)).asnumpy())
    return out
