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
and absolute differences of the printed losses from the one-process run. ``--two-hosts`` also
runs each launched job as two "hosts" on this machine (two launcher invocations,
``--worker_num=W --local_worker_num=W/2 --node_rank=0/1 --master_addr=127.0.0.1``) and prints
every rank's losses beside the one-launcher run's (the largest difference; 0 when identical).

The sample is read from a fetched mirror of ``mindspore-ai/docs`` (``--sample`` or
``/work/.mirror/mindspore-ai+docs/repo``); nothing of it is kept in this repository.

    python bench/pipeline_launched.py [--workers 4,8] [--images 640] [--sample PATH] \\
        [--parallel-optimizer] [--two-hosts]
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


def run_launched(tmp, workers, hosts=1):
    """``workers`` ranks of ``8 // workers`` devices, started by ``hosts`` launchers (node ranks
    0 .. hosts - 1 on this machine, as separate hosts would start them)."""
    log_dir = os.path.join(tmp, f"logs{workers}x{hosts}")
    env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={8 // workers}",
               JAX_PLATFORMS="cpu", DATA_PATH=os.path.join(tmp, "mnist"), PYTHONPATH=ROOT)
    t = time.time()
    local = workers // hosts
    node = [f"--master_port={10985 + hosts}"] + (["--master_addr=127.0.0.1"] if hosts > 1 else [])
    procs = [subprocess.Popen([sys.executable, "-m", "msjax", "launch", f"--worker_num={workers}",
                               f"--local_worker_num={local}", f"--log_dir={log_dir}", "--join=True", *node,
                               *([f"--node_rank={h}"] if hosts > 1 else []),
                               os.path.join(tmp, "wrapper.py"), os.path.join(tmp, "sample.py")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp)
             for h in reversed(range(hosts))]      # node 0 (the coordinator's) last, as a second host joins it
    outs = [p.communicate() for p in procs]
    wall = time.time() - t
    if any(p.returncode for p in procs):
        raise SystemExit("".join(o[0][-3000:] + o[1][-3000:] for o in outs))
    per_rank = {}
    for log in sorted(glob.glob(os.path.join(log_dir, "worker_*.log"))):
        with open(log) as f:
            losses, mem = parse(f.read())
        per_rank[mem[0]["rank"]] = (losses, mem[0])
    return per_rank, wall


def _short(losses):
    """The first, middle and last losses (the table's cells stay short)."""
    pick = sorted({0, len(losses) // 2, len(losses) - 1}) if losses else []
    return ", ".join(f"{losses[i]:.6g}" for i in pick)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workers", default="4,8")
    ap.add_argument("--images", type=int, default=640)
    ap.add_argument("--sample", default=None)
    ap.add_argument("--two-hosts", action="store_true",
                    help="also launch each job as two hosts (two launchers, --node_rank=0/1)")
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
            if args.two_hosts:
                two, wall2 = run_launched(tmp, w, hosts=2)
                print(f"\ntwo hosts: 2 x msjax launch --worker_num={w} --local_worker_num={w // 2} "
                      f"--node_rank=0/1 --master_addr=127.0.0.1 ({wall2:.0f} s)")
                print("| rank | one launcher: losses | two hosts: losses | max abs. difference | "
                      "bytes on its most loaded device (one / two) |")
                print("|---:|---|---|---:|---:|")
                for rank, (losses, mm) in sorted(per_rank.items()):
                    other, m2 = two[rank]
                    gap = max(abs(a - b) for a, b in zip(losses, other)) if len(losses) == len(other) else float("nan")
                    print(f"| {rank} | {_short(losses)} | {_short(other)} | {gap:.1e} | "
                          f"{max(mm['per_device'].values()):,} / {max(m2['per_device'].values()):,} |", flush=True)
                print("\n| printed loss (rank 0) | one launcher | two hosts |\n|---:|---:|---:|")
                for i, (a, b) in enumerate(zip(per_rank[0][0], two[0][0])):
                    print(f"| {i + 1} | {a!r} | {b!r} |", flush=True)


if __name__ == "__main__":
    main()
