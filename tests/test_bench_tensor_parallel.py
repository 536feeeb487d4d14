"""bench/tensor_parallel.py runs (tiny sizes, 2 host devices in a child process) and its
two sides, msjax's semi-auto parallel and the hand-written jax.sharding + optax step,
compute the same losses in both modes. No timings are checked, so the child compiles with
XLA's backend optimizations off (a quarter less CPU; both sides alike)."""
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import tensor_parallel  # noqa: E402


def test_bench_runs_and_sides_agree(monkeypatch):
    monkeypatch.setenv("XLA_FLAGS", (os.environ.get("XLA_FLAGS", "") + " --xla_backend_optimization_level=0").strip())
    rows = tensor_parallel.main(["--devices", "2", "--hidden", "32", "--heads", "2", "--seq", "4", "--batch", "2",
                                 "--layers", "1", "--steps", "1", "--repeat", "1", "--threshold", "0"])
    assert [(r["devices"], r["mode"], r["dp"], r["mp"]) for r in rows] == [(2, "tp", 1, 2), (2, "tp+op", 2, 1)]
    for r in rows:
        msjax_losses, jax_losses = r["losses"]
        assert len(msjax_losses) == 3
        np.testing.assert_allclose(msjax_losses, jax_losses, rtol=1e-4)
        assert msjax_losses[-1] < msjax_losses[0]      # both sides train
        assert r["retraces_while_timed"] == 0
        assert r["msjax_steps_per_s"] > 0 and r["jax_steps_per_s"] > 0
    op = rows[1]    # optimizer parallel: both sides hold about half of every parameter and state
    assert abs(op["msjax_bytes"] - op["jax_bytes"]) <= 64, (op["msjax_bytes"], op["jax_bytes"])
