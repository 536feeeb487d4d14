"""Where a PyNative new shape's time goes: ``bench/eager_first.py``'s new-shape phase (10 ops on 5 new
shapes, after the 30 ops' first and second calls on (8, 16)), each call split into JAX tracing the
op's programs (``pjit._trace_for_jit``), msjax's host hook (``runtime/_host_eager``: its plan and its
NumPy evaluation counted apart; a compile or a store load falls in the hook too) and the rest (msjax's
op code, JAX's dispatch outside the trace, the sync). Process CPU time, milliseconds per call, one
fresh process with an empty eager store in a temporary directory; pin it to one core::

    taskset -c 0 python bench/eager_new_shape_stages.py

The timers wrap JAX internals of jax 0.10 (``pjit._trace_for_jit``, ``pjit._pjit_call_impl_python``);
nested calls are counted once, at the outermost.
"""
from __future__ import annotations

import collections
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))


def _timed(owner, name, label, counter, clock):
    """Replace ``owner.name`` by a wrapper adding its outermost calls' CPU time to ``counter[label]``."""
    inner, depth = getattr(owner, name), [0]

    def wrapper(*args, **kwargs):
        depth[0] += 1
        t0 = clock()
        try:
            return inner(*args, **kwargs)
        finally:
            depth[0] -= 1
            if depth[0] == 0:
                counter[label] += clock() - t0
    setattr(owner, name, wrapper)


def main():
    tmp = tempfile.mkdtemp(prefix="eager-stages-")
    os.environ.update(MSJAX_EAGER_STORE_DIR=os.path.join(tmp, "store"), MSJAX_CACHE_DIR=os.path.join(tmp, "cache"),
                      MSJAX_CACHE_KEY_DIR=os.path.join(tmp, "key"))
    try:
        import eager_first as ef
        clock = time.process_time
        make, mod, sync, _ = ef._side("msjax")
        from jax._src import pjit
        from msjax.runtime import _host_eager as he
        x, y = ef._arrays(ef.SHAPE, make)
        sync(x + y)
        for _ in range(2):
            for op in ef.OPS:
                sync(op[1](mod, x, y))
        stage = collections.Counter()
        _timed(pjit, "_trace_for_jit", "trace", stage, clock)
        _timed(pjit, "_pjit_call_impl_python", "hook", stage, clock)
        _timed(he, "_plan", "plan", stage, clock)
        _timed(he, "_evaluate", "evaluate", stage, clock)
        by_name = {op[0]: op for op in ef.OPS}
        per = collections.defaultdict(collections.Counter)
        for shape in ef.NEW_SHAPES:
            a, b = ef._arrays(shape, make)
            for name in ef.NEW_SHAPE_OPS:
                stage.clear()
                t0 = clock()
                sync(by_name[name][1](mod, a, b))
                per[name]["total"] += clock() - t0
                per[name].update(stage)
        total = collections.Counter()
        print("| op (ms per call) | total | JAX tracing | host hook | of it: plan | of it: evaluation | rest |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, c in list(per.items()) + [("all (per op)", total)]:
            if c is not total:
                total.update(c)
            n = len(ef.NEW_SHAPES) * (len(per) if c is total else 1) / 1e3
            cells = [c[k] / n for k in ("total", "trace", "hook", "plan", "evaluate")]
            print(f"| {name} | " + " | ".join(f"{v:.2f}" for v in cells) + f" | {cells[0] - cells[1] - cells[2]:.2f} |")
        print("host-path counts:", {k: v for k, v in he.stats().items() if k != "last_refusal"})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
