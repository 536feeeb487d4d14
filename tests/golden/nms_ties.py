"""Inputs for the ``ops.NMSWithMask`` tie-order fixture (tests/test_nms_ties.py; recorded from
MindSpore 2.10 by tests/golden/record_nms_ties.py). Only numpy; the test and the recorder build
the same boxes from these seeds.

Each case is ``name -> (boxes, iou_threshold)``: tied scores (all equal, a few levels), scores a
few ulps apart, NaN scores, float16, at box counts that are and are not powers of two (MindSpore's
CPU kernel sorts with a bitonic network over the next power of two).
"""
import numpy as np

MINDIR_CASE = "levels_50"     # also exported to a .mindir by MindSpore and run by msjax's reader


def _boxes(n, seed, scores, dtype=np.float32):
    rng = np.random.RandomState(seed)
    xy, wh = rng.uniform(0, 40, (n, 2)), rng.uniform(4, 16, (n, 2))
    return np.concatenate([xy, xy + wh, np.asarray(scores, np.float64)[:, None]], 1).astype(dtype)


def _levels(n, seed, k):
    return np.random.RandomState(seed + 100).randint(0, k, n) / 8.0 + 0.125


def _ulps(n, seed, base=0.5188):
    steps = np.random.RandomState(seed + 200).randint(0, 4, n)
    out = np.full(n, base, np.float32)
    for _ in range(3):
        out = np.where(steps > _, np.nextafter(out, np.float32(1)), out)
    return out


def cases():
    out = {}
    for n in (1, 13):
        out[f"equal_{n}"] = (_boxes(n, n, np.full(n, 0.5)), 0.5)
    for n, k in ((20, 3), (50, 4), (129, 5)):
        out[f"levels_{n}"] = (_boxes(n, n, _levels(n, n, k)), 0.3)
    for n in (37, 300):
        out[f"ulps_{n}"] = (_boxes(n, n, _ulps(n, n)), 0.5)
    nan = _levels(10, 10, 3)
    nan[[2, 7]] = np.nan
    out["nan_10"] = (_boxes(10, 10, nan), 0.5)
    out["f16_40"] = (_boxes(40, 40, _levels(40, 40, 3), np.float16), 0.3)
    return out
