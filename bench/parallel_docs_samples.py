"""MindSpore's parallel docs samples of issue 32, run unmodified beside their stand-alone run.

Each sample is read from a fetched mirror of ``mindspore-ai/docs`` (``docs/sample_code/``;
nothing of it is kept in this repository) and run on a learnable synthetic MNIST (the writer of
``bench/pipeline_launched.py``):

* ``startup_method/net.py`` (DATA_PARALLEL, eager ``value_and_grad``, a compiled
  ``DistributedGradReducer``), ``host_device/train.py`` (``Primitive.set_device("CPU")``) and
  ``parallel_support_dynamic_shape/main.py`` (``Symbol(divisor=8)`` dims, ``set_inputs``,
  ``Model.train``, ``runtime.set_memory``): one process with 8 host devices beside one process
  with 1 device; the printed losses must agree.
* ``dataset_slice/train.py`` (``SlicePatches``, ``AutoParallel(grad_fn)`` with
  ``dataset_strategy(((1, 1, 1, 4), (1,)))``, ``optimizer(grads)`` outside it,
  ``no_init_parameters``): as its ``run.sh`` starts it, ``msjax launch --worker_num=8
  --local_worker_num=8 ... pytest -s train.py``. The sample draws unseeded weights (each rank
  others, MindSpore's too), so a ``conftest.py`` beside it calls ``ms.set_seed(1)``. Its reference
  is one process with 1 device whose dataset yields the 4 patches side by side (the global batch
  the 8 ranks feed together: rank ``r`` holds patch ``r % 4``, the repeated factor first); there a
  ``conftest.py`` also makes the sample's ``project`` keep the 4 patches joined on the last axis.
  Every rank must print the reference's losses.
* ``distributed_pipeline_parallel/distributed_pipeline_parallel_inference.py`` (4 stages,
  ``lazy_inline``, ``full_batch``, ``pipeline_result_broadcast``): one process with 8 host
  devices, and ``msjax launch --worker_num=8 --local_worker_num=8`` as its ``run_inference.sh``;
  every rank must print the stand-alone (1 device) array.

    python bench/parallel_docs_samples.py [--samples startup_method,host_device,...] [--images 640]

Reported per sample: the number of printed losses (array entries for the inference sample), the largest relative difference from the
stand-alone run, the wall time.
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from pipeline_launched import MIRROR, write_mnist  # noqa: E402

ONE_PROCESS = {"startup_method": "startup_method/net.py", "host_device": "host_device/train.py",
               "parallel_support_dynamic_shape": "parallel_support_dynamic_shape/main.py"}
INFERENCE = "distributed_pipeline_parallel/distributed_pipeline_parallel_inference.py"
IMAGES = {"host_device": 3232}      # it prints every 100 steps of one epoch: steps 0 and 100

SEED_CONFTEST = "import mindspore as ms\nms.set_seed(1)\n"
JOIN_CONFTEST = SEED_CONFTEST + r'''
import numpy as np
import mindspore.dataset as ds

_project = ds.Dataset.project


def project(self, columns):
    """The 4 patches side by side (the 8 ranks' global batch) where the sample keeps one."""
    if columns and str(columns[0]).startswith("img"):
        cols = ["img%d" % i for i in range(4)]
        self = self.map(operations=lambda *p: np.concatenate(p, -1), input_columns=cols,
                        output_columns=["img0"])
        columns = ["img0"] + list(columns[1:])
    return _project(self, columns)


ds.Dataset.project = project
'''


def source(rel):
    return subprocess.run(["git", "--git-dir", MIRROR, "show", f"HEAD:docs/sample_code/{rel}"], check=True,
                          capture_output=True, text=True).stdout


def losses_of(text):
    return [float(m.group(1)) for m in re.finditer(r"loss is \[?([-0-9.eE+]+)", text)]


def array_of(text):
    """The numbers of the last printed 2-D array (``[[ ... ]]``)."""
    arrays = re.findall(r"\[\[.*?\]\]", text, re.S)
    return [float(v) for v in re.findall(r"[-+]?\d+\.?\d*(?:[eE][-+]?\d+)?", arrays[-1])] if arrays else []


def env_for(tmp, devices):
    return dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={devices}", JAX_PLATFORMS="cpu",
                DATA_PATH=os.path.join(tmp, "mnist"), PYTHONPATH=ROOT)


def run(cmd, tmp, devices):
    """``cmd``'s stdout and wall time. pytest's exit code 5 ("no tests ran": ``dataset_slice`` is
    a script that ``run.sh`` starts with ``pytest -s``, so it trains while pytest collects it and
    then finds no test) counts as success, also when the launcher reports it for its workers."""
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env_for(tmp, devices), cwd=tmp)
    codes = set(re.findall(r"Error code: (\d+)", r.stdout + r.stderr))
    no_tests = "no tests ran" in r.stdout and (r.returncode == 5 or codes == {"5"})
    if r.returncode and not no_tests:
        raise SystemExit(f"{cmd} failed:\n" + r.stdout[-3000:] + r.stderr[-4000:])
    return r.stdout, time.time() - t


def rel(a, b):
    if len(a) != len(b) or not a:
        return float("nan")
    return max(abs(x - y) / max(abs(y), 1e-12) for x, y in zip(a, b))


def one_process(name, tmp):
    script = os.path.join(tmp, "sample.py")
    with open(script, "w") as f:
        f.write(source(ONE_PROCESS[name]))
    ref, _ = run([sys.executable, "-m", "msjax", "run", script], tmp, 1)
    got, wall = run([sys.executable, "-m", "msjax", "run", script], tmp, 8)
    return losses_of(got), losses_of(ref), wall, "one process, 8 host devices"


def launch8(tmp, *task):
    """``msjax launch --worker_num=8 --local_worker_num=8 ... task``: each rank's log text."""
    log_dir = os.path.join(tmp, "log_output")
    _, wall = run([sys.executable, "-m", "msjax", "launch", "--worker_num=8", "--local_worker_num=8",
                   "--master_addr=127.0.0.1", "--master_port=10811", "--join=True", f"--log_dir={log_dir}",
                   *task], tmp, 1)
    logs = []
    for log in sorted(glob.glob(os.path.join(log_dir, "worker_*.log"))):
        with open(log) as f:
            logs.append(f.read())
    return logs, wall


def worst(runs, ref):
    return max(runs, key=lambda got: rel(got, ref) if len(got) == len(ref) else float("inf"))


def inference(tmp):
    script = os.path.join(tmp, "sample.py")
    with open(script, "w") as f:
        f.write(source(INFERENCE))
    ref = array_of(run([sys.executable, "-m", "msjax", "run", script], tmp, 1)[0])
    one, _ = run([sys.executable, "-m", "msjax", "run", script], tmp, 8)
    logs, wall = launch8(tmp, script)
    got = worst([array_of(one)] + [array_of(t) for t in logs], ref)
    return got, ref, wall, f"one process, 8 host devices, and launched 8 x 1 ({len(logs)} ranks; worst shown)"


def dataset_slice(tmp):
    with open(os.path.join(tmp, "train.py"), "w") as f:
        f.write(source("dataset_slice/train.py"))
    with open(os.path.join(tmp, "conftest.py"), "w") as f:
        f.write(SEED_CONFTEST)
    logs, wall = launch8(tmp, "pytest", "-s", "train.py")
    ranks = [losses_of(t) for t in logs]
    with open(os.path.join(tmp, "conftest.py"), "w") as f:
        f.write(JOIN_CONFTEST)
    ref, _ = run([sys.executable, "-m", "msjax", "run", "pytest", "-s", "-p", "no:cacheprovider", "train.py"],
                 tmp, 1)
    ref = losses_of(ref)
    return worst(ranks, ref), ref, wall, f"msjax launch --worker_num=8 --local_worker_num=8 ({len(ranks)} ranks, worst shown)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", default=",".join(list(ONE_PROCESS) + ["dataset_slice", "inference"]))
    ap.add_argument("--images", type=int, default=640)
    args = ap.parse_args()
    print("| sample | how it ran | printed losses | max rel. difference from 1 device | wall |")
    print("|---|---|---:|---:|---:|")
    for name in args.samples.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "mnist"))
            write_mnist(os.path.join(tmp, "mnist"), IMAGES.get(name, args.images))
            got, ref, wall, how = {"dataset_slice": dataset_slice, "inference": inference}.get(
                name, lambda t: one_process(name, t))(tmp)
            print(f"| `{name}` | {how} | {len(got)} (1 device: {len(ref)}) | {rel(got, ref):.1e} | {wall:.0f} s |",
                  flush=True)


if __name__ == "__main__":
    main()
