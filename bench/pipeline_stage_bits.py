"""The pipelined gradient against the stand-alone program's, bit for bit (issue 32).

One process with 4 host devices, ``pipeline_stages=4`` (a device per stage, so no data parallel
inside a stage): the small staged network of ``tests/test_pipeline_parallel.py`` (the docs
sample's in small) takes one step of the sample's form (``value_and_grad`` of a ``PipelineCell``
of 4 micro-batches, ``PipelineGradReducer``, SGD in ``ms.jit``); then the same network
stand-alone computes each micro-batch's gradient in one compiled program (XLA's products,
``MSJAX_CPU_KERNELS=0``, as every semi-auto step multiplies) and adds them in micro-batch order,
as MindSpore's ``accu_grads``. Printed: per Parameter, how many gradient values differ (0 since
each stage program recomputes the layout operations on state it reads; 84, 47, 6, 17 and 3 of
120, 100, 10, 40 and 4 before, 2026-11-30).

    python bench/pipeline_stage_bits.py
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DRIVER = r'''
import os, sys
sys.path.insert(0, sys.argv[1])
import jax
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
import test_pipeline_parallel as T

assert jax.device_count() == 4
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=4)
net = T._staged_net()
net.relu1.pipeline_stage = net.layer2.pipeline_stage = 1
net.relu2.pipeline_stage, net.layer3.pipeline_stage = 2, 3
step, _ = T._sample_step(net)
x, y = T._batches(1)[0]
piped = [g.asnumpy() for g in step(Tensor(x), Tensor(y))[1]]
ms.reset_auto_parallel_context()
os.environ["MSJAX_CPU_KERNELS"] = "0"
net = T._staged_net()
params = net.trainable_params()
grad = ms.jit(ops.value_and_grad(nn.WithLossCell(net, nn.CrossEntropyLoss()), None, params))
n, acc = T.BATCH // T.MICRO, None
for i in range(T.MICRO):
    g = [a.asnumpy() for a in grad(Tensor(x[n * i:n * (i + 1)]), Tensor(y[n * i:n * (i + 1)]))[1]]
    acc = g if acc is None else [a + b for a, b in zip(acc, g)]
for p, a, b in zip(params, piped, acc):
    print(f"{p.name}: {int((a != b).sum())} of {a.size} gradient values differ (max {float(abs(a - b).max()):.1e})")
'''


def main():
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=4", JAX_PLATFORMS="cpu", PYTHONPATH=ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "driver.py")
        with open(script, "w") as f:
            f.write(DRIVER)
        r = subprocess.run([sys.executable, "-m", "msjax", "run", script, os.path.join(ROOT, "tests")],
                           capture_output=True, text=True, env=env)
    print(r.stdout, r.stderr[-3000:] if r.returncode else "", end="")


if __name__ == "__main__":
    main()
