"""Inputs for the ``TopK`` tie-order fixture (tests/test_topk_ties.py; recorded from MindSpore 2.10
by tests/golden/record_topk_ties.py). Only numpy.

Each case is ``name -> (x, k)``: rows with many equal values, ``k`` at most half the row (MindSpore's
CPU kernel then keeps ``std::nth_element``'s order among them) and just over half (a stable sort),
several lengths, a batch of rows, float16 and int32.
"""
import numpy as np


def _levels(shape, seed, k, dtype=np.float32):
    return (np.random.RandomState(seed).randint(0, k, shape) / 8.0).astype(dtype)


def cases():
    out = {}
    for n, k, lv in ((9, 4, 2), (37, 5, 2), (100, 10, 3), (100, 50, 3), (100, 51, 3), (1000, 3, 1),
                     (2000, 1000, 20), (5000, 100, 5000)):
        out[f"f32_{n}_{k}"] = (_levels(n, n + k, lv), k)
    out["rows_4x300"] = (_levels((4, 300), 7, 6), 40)
    out["f16_500"] = (_levels(500, 8, 9, np.float16), 60)
    out["i32_300"] = (np.random.RandomState(9).randint(-3, 3, 300).astype(np.int32), 20)
    return out
