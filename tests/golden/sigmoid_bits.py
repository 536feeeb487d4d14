"""Float32 ``Sigmoid`` cases run by MindSpore 2.10 (``record_sigmoid_bits.py``) and msjax
(``tests/test_sigmoid_bits.py``): ``ops.sigmoid`` on every length 1-17 (nnacl's AVX blocks of 8, its
SSE block of 4 and its scalar tail), 31, 33, 64, 1000 and 8000 elements, ``nn.Sigmoid``, and a
GRAPH_MODE cell on a (500, 16) tensor. The values: the edges of nnacl's ``exp`` clamp, signed zeros,
denormals, large magnitudes, infinities and seeded random values (normal, 10x normal, uniform on
[-95, 95]). Compared with subnormal results flushed to zero: MindSpore returns a subnormal or zero
for ``x`` in about [-103.3, -87.34] depending on the thread that computes it. No NaN: a NaN changes
the values of the other elements of its thread's chunk in MindSpore, and the chunks are chosen by
timing (``docs/differences.md``)."""
import hashlib

import numpy as np

SIZES = tuple(range(1, 18)) + (31, 33, 64, 1000, 8000)


def values():
    """8000 float32 inputs: the edges first, then seeded random values."""
    f32 = np.float32
    lo, hi = f32(-87.3365478515625), f32(88.72283935546875)        # nnacl's clamp of exp's argument
    edges = [lo, hi, -lo, -hi, np.nextafter(lo, f32(0)), np.nextafter(hi, f32(0)), np.nextafter(-lo, f32(-1e9)),
             np.nextafter(-hi, f32(1e9)), 0.0, -0.0, 1e-45, -1e-45, 1e-40, -1e-40, 1.17549435e-38,
             -1.17549435e-38, 88.0, -88.0, 87.0, -87.0, -87.5, -88.5, -89.0, -90.0, -103.0, -104.0, 100.0,
             -100.0, 1e30, -1e30, np.inf, -np.inf, 0.5, -0.5, 1.0, -1.0, 15.0, 16.5, 17.0, -17.0]
    rs = np.random.RandomState(7)
    n = 8000 - len(edges)
    rand = np.concatenate([rs.standard_normal(3000), rs.standard_normal(3000) * 10, rs.uniform(-95, 95, n - 6000)])
    return np.concatenate([np.asarray(edges, f32), rand.astype(f32)])


def flush_denormals(r):
    """``r`` with its subnormal values replaced by zeros of their sign."""
    r = np.array(r, np.float32)
    tiny = (r != 0) & (np.abs(r) < np.finfo(np.float32).tiny)
    r[tiny] = np.copysign(np.float32(0), r[tiny])
    return r


def _summary(r):
    r = np.ascontiguousarray(np.asarray(r, np.float32))
    flushed = flush_denormals(r)
    return {"sha256": hashlib.sha256(r.tobytes()).hexdigest()[:32],
            "sha256_flushed": hashlib.sha256(flushed.tobytes()).hexdigest()[:32],
            "subnormals": int((flushed != r).sum()), "head": r.ravel()[:40].tolist(),
            "sum": float(r.astype(np.float64).sum())}


def sigmoid_cases(ms, direct=SIZES):
    """name -> a summary of the float32 result (digest of its bits, first values, sum). A length not in
    ``direct`` is summarised from the first elements of the 8000-element result (msjax's values do not
    depend on the length, so its test computes a few lengths only; MindSpore's are all computed)."""
    x = values()
    full = ms.ops.sigmoid(ms.Tensor(x)).asnumpy()
    out = {f"ops.sigmoid/{n}": _summary(ms.ops.sigmoid(ms.Tensor(x[:n])).asnumpy() if n in direct else full[:n])
           for n in SIZES}
    out["nn.Sigmoid/8000"] = _summary(ms.nn.Sigmoid()(ms.Tensor(x)).asnumpy())
    x2 = ms.Tensor(x.reshape(500, 16))

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.act = ms.nn.Sigmoid()

        def construct(self, t):
            return self.act(t)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out["graph/500x16"] = _summary(Net()(x2).asnumpy())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return out
