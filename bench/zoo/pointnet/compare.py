"""Distances of MindSpore's and msjax's float32 results (steps.py) to the float64 reference
(reference.py): max |difference| / max |reference| per forward stage and per gradient.

    python bench/zoo/pointnet/compare.py --out DIR [--batch 2]
"""
import argparse
import os

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--batch", type=int, default=2)
args = ap.parse_args()
load = lambda name: np.load(os.path.join(args.out, f"{name}_B{args.batch}.npz"))  # noqa: E731
ref, a, b = load("ref64"), load("ms"), load("msjax")
print(f'{"":34s} {"max|ref|":>9s} {"MS-ref":>9s} {"msjax-ref":>9s} {"MS-msjax":>9s}')
for k in ref.files:
    r = ref[k]
    s = np.abs(r).max()
    if s < 1e-12:       # a bias followed by BatchNorm: exactly 0 in float64, rounding noise in float32
        continue
    x, y = (v[k].reshape(r.shape).astype(np.float64) for v in (a, b))
    print(f"{k:34s} {s:9.3g} {np.abs(x - r).max() / s:9.2e} {np.abs(y - r).max() / s:9.2e} "
          f"{np.abs(x - y).max() / s:9.2e}")
