"""Where the pipeline sample's losses separate: one process, launched, and hand-written references.

Runs MindSpore's ``distributed_pipeline_parallel.py`` (unmodified, 2 stages, ``PipelineCell`` of 4
micro-batches, ``PipelineGradReducer``, SGD) on the learnable synthetic MNIST of
``bench/pipeline_launched.py``: once in one process with 8 host devices and, with ``--workers W``,
under ``msjax launch --worker_num=W --local_worker_num=W`` (8 / W devices each). A small wrapper
(``runpy``) records every step's loss (not only the printed ones), the step's inputs and the
initial weights (taken when ``PipelineCell`` is built, before any step). Then hand-written JAX
references train from the same weights on the same batches, in float32 and float64:

* ``one``: the batch of 32 rows cut into 4 micro-batches of 8 (what one process's stage sees);
* ``copies``: the stage's global batch of a launched job where each of the stage's ``R`` ranks
  loads the same 32 rows (MindSpore's ``_VirtualDataset``: ranks' batches joined in rank order),
  ``R`` copies cut into 4 micro-batches of ``32 R / 4`` rows (MindSpore's default micro-batch
  ``StridedSlice`` has strategy 1 on the batch axis: it slices the joined global batch).

Each reference computes a micro-batch's gradient on its own and adds them in micro-batch order
(``accu_grads``), then takes ``p - lr * g``. Reported: per step, the losses' relative differences
between the runs and from each reference; a float64 reference is the exact value the float32
runs approximate.

``--params`` also records each step's weights and reports each run's one-step error from the
float64 step taken from the run's own weights (beside the float32 reference's), which separates
a run's rounding from a trajectory that met a ReLU boundary (docs/parallel.md).

    python bench/pipeline_loss_gap.py [--workers 4] [--images 320] [--one-devices 8] [--params] [--keep DIR]
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pipeline_launched import ROOT, sample_source, write_mnist  # noqa: E402

PARAMS = False
WRAPPER = r'''
import json, os, runpy, sys
import numpy as np
import mindspore as ms
from mindspore import nn
OUT = os.environ["BENCH_OUT"]
LOSSES, XS, YS = [], [], []
_jit = ms.jit


def jit(fn=None, *args, **kwargs):
    if fn is None or args or kwargs:
        return _jit(fn, *args, **kwargs)
    compiled = _jit(fn)

    def step(x, y):
        if not LOSSES:      # the first step: nothing trained yet
            dump_init()
        XS.append(x.asnumpy())
        YS.append(y.asnumpy())
        out = compiled(x, y)
        LOSSES.append(float(out[0]))
        if os.environ.get("BENCH_PARAMS"):      # --params: the weights after each step, those this rank holds
            held = {}
            for p in NET[0].get_parameters():
                try:
                    held[p.name] = p.asnumpy()
                except RuntimeError:       # another stage's Parameter (a launched rank)
                    pass
            from mindspore.communication import get_rank
            np.savez(os.path.join(OUT, f"params{get_rank()}_{len(LOSSES) - 1}.npz"), **held)
        return out
    return step


NET = []
_init = nn.PipelineCell.__init__


def pipeline_init(self, network, *args, **kwargs):
    NET.append(network)
    _init(self, network, *args, **kwargs)


def dump_init():
    from mindspore.communication import get_rank
    if get_rank() == 0:
        np.savez(os.path.join(OUT, "init.npz"), **{p.name: p.asnumpy() for p in NET[0].get_parameters()})


ms.jit = jit
nn.PipelineCell.__init__ = pipeline_init
runpy.run_path(sys.argv[1], run_name="__main__")
from mindspore.communication import get_rank
rank = get_rank()
np.savez(os.path.join(OUT, f"batches{rank}.npz"), x=np.stack(XS), y=np.stack(YS))
with open(os.path.join(OUT, f"losses{rank}.json"), "w") as f:
    json.dump(LOSSES, f)
'''


def _run(tmp, out, devices, workers=None):
    if os.path.exists(os.path.join(out, "losses0.json")):      # --keep: recorded before
        return _losses(out)
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={devices}", JAX_PLATFORMS="cpu",
               DATA_PATH=os.path.join(tmp, "mnist"), PYTHONPATH=ROOT, BENCH_OUT=out)
    if PARAMS:
        env["BENCH_PARAMS"] = "1"
    cmd = [sys.executable, "-m", "msjax"]
    cmd += ["run"] if workers is None else ["launch", f"--worker_num={workers}", f"--local_worker_num={workers}",
                                             f"--log_dir={out}/logs", "--join=True"]
    r = subprocess.run(cmd + [os.path.join(tmp, "wrapper.py"), os.path.join(tmp, "sample.py")],
                       capture_output=True, text=True, env=env, cwd=tmp)
    if r.returncode:
        raise SystemExit(r.stdout[-3000:] + r.stderr[-3000:])
    return _losses(out)


def _losses(out):
    return {int(os.path.basename(p)[6:-5]): json.load(open(p)) for p in glob.glob(os.path.join(out, "losses*.json"))}


def reference(init, xs, ys, copies, dtype, micro=4, lr=1e-2, steps=False, reverse=False):
    """The stand-alone step on the summed micro-batch gradient, micro-batch by micro-batch
    (``steps``: a function making one such step from given weights instead)."""
    import jax
    import jax.numpy as jnp

    def loss_fn(p, x, y):
        h = jax.nn.relu(x.reshape(x.shape[0], -1) @ p["layer1.param"])
        h = jax.nn.relu(h @ p["layer2.weight"].T + p["layer2.bias"])
        logits = h @ p["layer3.weight"].T + p["layer3.bias"]
        return jnp.mean(-jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

    vg = jax.jit(jax.value_and_grad(loss_fn))

    def step(p, x, y):
        p = {k: jnp.asarray(v, dtype) for k, v in p.items()}
        x = np.concatenate([x] * copies).astype(dtype)
        y = np.concatenate([y] * copies)
        n = x.shape[0] // micro
        total, acc = None, None
        for i in (reversed(range(micro)) if reverse else range(micro)):
            loss, g = vg(p, x[n * i:n * (i + 1)], y[n * i:n * (i + 1)])
            total = loss if total is None else total + loss
            acc = g if acc is None else {k: acc[k] + g[k] for k in acc}
        return float(total), {k: p[k] - jnp.asarray(lr, dtype) * acc[k] for k in p}

    if steps:
        return step
    p, losses = init, []
    for x, y in zip(xs, ys):
        loss, p = step(p, x, y)
        losses.append(loss)
    return np.array(losses)


def local_errors(out, init, xs, ys, copies):
    """Per step, from the run's own weights before it: the run's new weights' largest distance
    from the float64 step, over the float64 step's largest change, beside the float32 reference's."""
    s64 = reference(None, None, None, copies, np.float64, steps=True)
    s32 = reference(None, None, None, copies, np.float32, steps=True)
    rows, before = [], init
    for k in range(len(xs)):
        files = sorted(glob.glob(os.path.join(out, f"params*_{k}.npz")))
        if not files:
            break
        after = {}
        for f in files:
            after.update(dict(np.load(f)))
        _, p64 = s64(before, xs[k], ys[k])
        _, p32 = s32(before, xs[k], ys[k])
        change = max(float(np.abs(np.asarray(p64[n]) - before[n]).max()) for n in after)
        err = max(float(np.abs(after[n] - np.asarray(p64[n])).max()) for n in after)
        err32 = max(float(np.abs(np.asarray(p32[n]) - np.asarray(p64[n])).max()) for n in after)
        rows.append((k, err / change, err32 / change))
        before = after
    return rows


def rel(a, b):
    return np.abs(np.asarray(a) - np.asarray(b)) / np.abs(np.asarray(b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workers", type=int, default=4, help="0: the one-process run only")
    ap.add_argument("--images", type=int, default=320)
    ap.add_argument("--one-devices", type=int, default=8, help="host devices of the one-process run")
    ap.add_argument("--sample", default=None)
    ap.add_argument("--keep", default=None, help="a directory kept for the runs' records (reused when present)")
    ap.add_argument("--params", action="store_true", help="record each step's weights: per-step (local) errors")
    args = ap.parse_args()
    global PARAMS
    PARAMS = args.params
    with tempfile.TemporaryDirectory() as tmp:
        if args.keep:
            tmp = args.keep
            os.makedirs(tmp, exist_ok=True)
        os.makedirs(os.path.join(tmp, "mnist"), exist_ok=True)
        write_mnist(os.path.join(tmp, "mnist"), args.images)
        with open(os.path.join(tmp, "sample.py"), "w") as f:
            f.write(sample_source(args.sample))
        with open(os.path.join(tmp, "wrapper.py"), "w") as f:
            f.write(WRAPPER)
        runs = {f"one process, {args.one_devices} devices": _run(tmp, os.path.join(tmp, "one"), args.one_devices)[0]}
        data = np.load(os.path.join(tmp, "one", "batches0.npz"))
        init = dict(np.load(os.path.join(tmp, "one", "init.npz")))
        xs, ys = data["x"], data["y"]
        per_stage = 1
        if args.workers:
            launched = _run(tmp, os.path.join(tmp, "launched"), 8 // args.workers, args.workers)
            ranks = sorted(launched)
            assert all(launched[r] == launched[ranks[0]] for r in ranks), "ranks print different losses"
            runs[f"launched {args.workers} workers"] = launched[0]
            for r in ranks:
                got = np.load(os.path.join(tmp, "launched", f"batches{r}.npz"))
                assert (got["x"] == xs).all() and (got["y"] == ys).all(), f"rank {r} read other batches"
            per_stage = args.workers // 2
    import jax
    jax.config.update("jax_enable_x64", True)
    refs = {}
    for copies in sorted({1, per_stage}):
        name = "one" if copies == 1 else f"copies x{copies}"
        for dt in (np.float32, np.float64):
            refs[f"{name} {np.dtype(dt).name}"] = reference(init, xs, ys, copies, dt)
    # the same float32 step, its micro-batches added in the other order: as valid a float32 result
    refs["one float32, micro-batches added last to first"] = reference(init, xs, ys, 1, np.float32, reverse=True)
    # how sensitive the training is: the float32 reference from weights moved by about one rounding
    noise = np.random.default_rng(0)
    moved = {k: (v * (1 + 1e-7 * noise.standard_normal(v.shape))).astype(np.float32) for k, v in init.items()}
    refs["one float32, initial weights x (1 + 1e-7 N(0, 1))"] = reference(moved, xs, ys, 1, np.float32)
    exact = refs["one float64"]
    print(f"{len(xs)} steps; float64 references agree: "
          f"{max(rel(v, exact).max() for k, v in refs.items() if k.endswith('float64')):.1e}")
    table = dict(runs, **{f"reference {k}": v for k, v in refs.items()})
    print("| losses | max rel. diff from float64 | at step | max rel. diff from reference "
          "'one float32' | first step with a rel. diff > 1e-6 from float64 |")
    print("|---|---:|---:|---:|---:|")
    for name, got in table.items():
        d = rel(got, exact)
        first = int(np.argmax(d > 1e-6)) if (d > 1e-6).any() else "-"
        print(f"| {name} | {d.max():.1e} | {int(d.argmax())} | {rel(got, refs['one float32']).max():.1e} | {first} |")
    if args.params:
        for name, out, copies in (("one process", "one", 1), ("launched", "launched", per_stage)):
            if not os.path.exists(os.path.join(tmp, out)):
                continue
            rows = local_errors(os.path.join(tmp, out), init, xs, ys, copies)
            e = np.array([r[1] for r in rows])
            e32 = np.array([r[2] for r in rows])
            print(f"{name}: one step's error from the float64 step (over the step's change), {len(rows)} steps: "
                  f"median {np.median(e):.1e} max {e.max():.1e} (step {int(e.argmax())}); float32 reference "
                  f"median {np.median(e32):.1e} max {e32.max():.1e}")
    print("per step (loss float64, rel. diff of each run):")
    for s in range(len(xs)):
        print(s, f"{exact[s]:.7f}", " ".join(f"{rel(v[s], exact[s]):.1e}" for v in table.values()))


if __name__ == "__main__":
    main()
