"""MindSpore's pipeline sample launched: stage placement per rank and the losses.

Runs MindSpore's ``docs/sample_code/distributed_pipeline_parallel/distributed_pipeline_parallel.py``
(2 stages, ``PipelineCell`` of 4 micro-batches, ``PipelineGradReducer``, SGD), unmodified, on a
learnable synthetic MNIST (each label's random 28 x 28 template, ``0.6 x template + N(0, 60) +
40`` per pixel, ``--images`` images): once in one process with 8 host devices, then under
``python -m msjax launch --worker_num=W --local_worker_num=W`` for each ``--workers`` W (8 / W
host devices per process, 8 devices in all). The sample runs inside a small wrapper
(``runpy``) that, after training and ``gc.collect()``, reads ``jax.live_arrays()``: the bytes of
the shards on each of the rank's devices beside the logical bytes of every live array the rank sees
(a launched rank also sees the global arrays of the other stage, of which it holds nothing).
Reported per run: each rank's most loaded device's bytes and share, and the largest relative
and absolute differences of the printed losses from the one-process run.

The sample is read from a fetched mirror of ``mindspore-ai/docs`` (``--sample`` or
``/work/.mirror/mindspore-ai+docs/repo``); nothing of it is kept in this repository.

    python bench/pipeline_launched.py [--workers 4,8] [--images 640] [--sample PATH] \\
        [--parallel-optimizer]
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIRROR = "/work/.mirror/mindspore-ai+docs/repo"
SAMPLE = "docs/sample_code/distributed_pipeline_parallel/distributed_pipeline_parallel.py"

WRAPPER = r'''
import gc, json, os, runpy, sys
if os.environ.get("BENCH_PARALLEL_OPTIMIZER"):      # --parallel-optimizer: set before the sample runs
    import mindspore as ms
    ms.set_auto_parallel_context(enable_parallel_optimizer=True)
runpy.run_path(sys.argv[1], run_name="__main__")
import jax
from mindspore.communication import get_rank
gc.collect()
live = jax.live_arrays()
logical = sum(a.nbytes for a in live)
per = {}
for a in live:
    for s in a.addressable_shards:
        per[s.device.id] = per.get(s.device.id, 0) + s.data.nbytes
print("MEMORY " + json.dumps({"rank": get_rank(), "logical": logical, "per_device": per}), flush=True)
'''


def write_mnist(path, n, seed=0):
    rng = np.random.default_rng(seed)
    templates = rng.uniform(0, 255, (10, 28, 28))
    labels = rng.integers(0, 10, n)
    imgs = np.clip(0.6 * templates[labels] + rng.normal(0, 60, (n, 28, 28)) + 40, 0, 255)
    for name, arr in (("train-images-idx3-ubyte", imgs), ("train-labels-idx1-ubyte", labels)):
        with open(os.path.join(path, name), "wb") as f:
            f.write(struct.pack(">HBB", 0, 0x08, arr.ndim))
            f.write(struct.pack(">" + "I" * arr.ndim, *arr.shape))
            f.write(arr.astype(np.uint8).tobytes())


def sample_source(path):
    if path:
        with open(path) as f:
            return f.read()
    return subprocess.run(["git", "--git-dir", MIRROR, "show", f"HEAD:{SAMPLE}"], check=True,
                          capture_output=True, text=True).stdout


def parse(text):
    losses = [float(m.group(1)) for m in re.finditer(r"loss is ([-0-9.eE+]+)", text)]
    mem = [json.loads(line[len("MEMORY "):]) for line in text.splitlines() if line.startswith("MEMORY ")]
    return losses, mem


def run_one(tmp, devices):
    env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={devices}", JAX_PLATFORMS="cpu",
               DATA_PATH=os.path.join(tmp, "mnist"), PYTHONPATH=ROOT)
    t = time.time()
    r = subprocess.run([sys.executable, "-m", "msjax", "run", os.path.join(tmp, "wrapper.py"),
                        os.path.join(tmp, "sample.py")], capture_output=True, text=True, env=env, cwd=tmp)
    if r.returncode:
        raise SystemExit(r.stdout[-2000:] + r.stderr[-4000:])
    return parse(r.stdout) + (time.time() - t,)


def run_launched(tmp, workers):
    log_dir = os.path.join(tmp, f"logs{workers}")
    env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={8 // workers}",
               JAX_PLATFORMS="cpu", DATA_PATH=os.path.join(tmp, "mnist"), PYTHONPATH=ROOT)
    t = time.time()
    r = subprocess.run([sys.executable, "-m", "msjax", "launch", f"--worker_num={workers}",
                        f"--local_worker_num={workers}", f"--log_dir={log_dir}", "--join=True",
                        os.path.join(tmp, "wrapper.py"), os.path.join(tmp, "sample.py")],
                       capture_output=True, text=True, env=env, cwd=tmp)
    wall = time.time() - t
    if r.returncode:
        raise SystemExit(r.stdout[-3000:] + r.stderr[-3000:])
    per_rank = {}
    for log in sorted(glob.glob(os.path.join(log_dir, "worker_*.log"))):
        with open(log) as f:
            losses, mem = parse(f.read())
        per_rank[mem[0]["rank"]] = (losses, mem[0])
    return per_rank, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workers", default="4,8")
    ap.add_argument("--images", type=int, default=640)
    ap.add_argument("--sample", default=None)
    ap.add_argument("--parallel-optimizer", action="store_true",
                    help="enable_parallel_optimizer=True set before the sample runs (the sample unchanged)")
    args = ap.parse_args()
    if args.parallel_optimizer:
        os.environ["BENCH_PARALLEL_OPTIMIZER"] = "1"
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "mnist"))
        write_mnist(os.path.join(tmp, "mnist"), args.images)
        with open(os.path.join(tmp, "sample.py"), "w") as f:
            f.write(sample_source(args.sample))
        with open(os.path.join(tmp, "wrapper.py"), "w") as f:
            f.write(WRAPPER)
        ref, mem, wall = run_one(tmp, 8)
        m = mem[0]
        per = ", ".join(f"{d}: {b:,}" for d, b in sorted(m["per_device"].items(), key=lambda t: int(t[0])))
        print(f"one process, 8 devices ({wall:.0f} s): {len(ref)} losses {ref}; logical bytes {m['logical']:,}; "
              f"device 0 share {m['per_device']['0'] / m['logical']:.3f}; per device {per}", flush=True)
        for w in [int(x) for x in args.workers.split(",") if x]:
            per_rank, wall = run_launched(tmp, w)
            print(f"\nmsjax launch --worker_num={w} --local_worker_num={w} ({8 // w} devices each, {wall:.0f} s)")
            print("| rank | bytes on its most loaded device | logical bytes it sees | share | "
                  "max rel. / abs. loss diff vs 1 process |")
            print("|---:|---:|---:|---:|---:|")
            for rank, (losses, mm) in sorted(per_rank.items()):
                held = max(mm["per_device"].values())
                same = len(losses) == len(ref) and ref
                diff = max(abs(a - b) / max(abs(b), 1e-12) for a, b in zip(losses, ref)) if same else float("nan")
                absd = max(abs(a - b) for a, b in zip(losses, ref)) if same else float("nan")
                print(f"| {rank} | {held:,} | {mm['logical']:,} | {held / mm['logical']:.3f} | {diff:.1e} / "
                      f"{absd:.1e} |", flush=True)


if __name__ == "__main__":
    main()
