"""ONNX export of the zoo networks: msjax writes each (msjax/train/_export/onnx.py), onnxruntime
runs the file, and its outputs are compared with msjax's own forward (compiled once).

    python bench/onnx_export.py                 # the small cases and the full-size zoo networks
    python bench/onnx_export.py lenet resnet18_full

Networks: tests/fixtures/mindir_export_cases.py (the zoo's sources under examples/zoo; ``*_full``
are ResNet18 at 64 base channels, MobileNetV2 1.0 at 224x224, VGG16 with 512-wide classifier,
BERT 128 hidden x 2 layers). Prints, per network: export seconds, file MB, onnxruntime and
msjax seconds per batch, the largest |difference| and whether it is within rtol 1e-5.
"""
import os
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "fixtures"))

import jax  # noqa: E402

import msjax as ms  # noqa: E402
from msjax import _compat  # noqa: E402
from msjax._core.tensor import wrap  # noqa: E402
from msjax.train._export.onnx import write_onnx  # noqa: E402

_compat.install()
import mindir_export_cases as cases  # noqa: E402


def bench(name, tmp):
    import onnxruntime as ort
    net, xs = cases.build(ms, name)
    path = os.path.join(tmp, name + ".onnx")
    t0 = time.perf_counter()
    write_onnx(net, cases.export_inputs(ms, name, xs), path)
    t_export = time.perf_counter() - t0
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    feed = {i.name: x for i, x in zip(sess.get_inputs(), xs)}
    got = sess.run(None, feed)
    t0 = time.perf_counter()
    sess.run(None, feed)
    t_ort = time.perf_counter() - t0
    fwd = jax.jit(lambda *a: jax.tree_util.tree_leaves(net(*map(wrap, a))))
    want = [np.asarray(w) for w in fwd(*xs)]
    t0 = time.perf_counter()
    jax.block_until_ready(fwd(*xs))
    t_ms = time.perf_counter() - t0
    diff = max(float(np.max(np.abs(g.astype(np.float64) - w))) for g, w in zip(got, want))
    ok = all(np.allclose(g, w, rtol=1e-5, atol=1e-6) for g, w in zip(got, want))
    size = os.path.getsize(path) / 2 ** 20
    os.chmod(path, 0o600)
    os.remove(path)
    print(f"{name:18s} export {t_export:6.2f} s  {size:7.1f} MB  onnxruntime {t_ort * 1e3:8.1f} ms  "
          f"msjax {t_ms * 1e3:8.1f} ms  max|diff| {diff:.2e}  rtol 1e-5: {ok}", flush=True)
    return ok


def main(names):
    names = names or [*cases.CASES, *cases.FULL]
    with tempfile.TemporaryDirectory() as tmp:
        results = [bench(n, tmp) for n in names]
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main(sys.argv[1:])
