"""A launched pipeline splits the model (issue 32): ``msjax launch --worker_num=2`` with 2 host
devices per worker, ``pipeline_stages=2`` (stage = rank // (device_num / stages): rank 0's
devices are stage 0, rank 1's stage 1).

The sample-style step of ``tests/test_pipeline_parallel.py`` (``PipelineCell`` of 2
micro-batches, ``PipelineGradReducer``, SGD in ``ms.jit``) prints on both ranks the losses of the
hand-written JAX reference (the summed micro-batch gradient); each rank holds shards only of its
own stage's Parameters and ``accu_grads``, and no live array on a rank (Parameters, optimizer
states, gradients, activations) has a shard of the other stage's Parameter shapes (read from
``jax.live_arrays()``); activations and their gradients crossed between the processes."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import test_pipeline_parallel as T

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DRIVER = r'''
import gc, json, sys
sys.path.insert(0, sys.argv[1])
import jax
import mindspore as ms
from mindspore import Tensor
from mindspore.communication import init, get_rank
import test_pipeline_parallel as T
T.MICRO = 2
init()
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=2)
net = T._staged_net()
step, reducer = T._sample_step(net)
got = []
for x, y in T._batches(2):
    loss, grads = step(Tensor(x), Tensor(y))
    got.append(float(loss))
del loss, grads
gc.collect()
params = {p.name: p for p in list(net.get_parameters()) + list(reducer.get_parameters())}
shapes = {n: list(p._data.shape) for n, p in params.items()}
live = sorted({str(list(a.shape)) for a in jax.live_arrays() if a.addressable_shards})
held = {n: sorted(s.device.id for s in p._data.addressable_shards) for n, p in params.items()}
print("RESULT " + json.dumps({"rank": get_rank(), "got": got, "held": held, "shapes": shapes, "live": live,
                              "local": sorted(d.id for d in jax.local_devices())}), flush=True)
'''

STAGE0 = ("layer1.param", "layer2.weight", "layer2.bias")


@pytest.mark.skipif(not os.environ.get("MSJAX_LAUNCHED_PIPELINE_TEST"), reason="two launched workers: about 30 s "
                    "of CPU on 2 cores, over the suite's budget; MSJAX_LAUNCHED_PIPELINE_TEST=1 runs it")
def test_launched_stages_hold_only_their_parameters(tmp_path):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=2", PYTHONPATH=ROOT,
               JAX_PLATFORMS="cpu")
    r = subprocess.run([sys.executable, "-m", "msjax", "launch", "--worker_num=2", "--local_worker_num=2",
                        "--join=True", f"--log_dir={tmp_path / 'logs'}", "--master_port=10993", str(script),
                        os.path.dirname(os.path.abspath(__file__))],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    res = {}
    for rank in range(2):
        text = (tmp_path / "logs" / f"worker_{rank}.log").read_text()
        line = [l for l in text.splitlines() if l.startswith("RESULT ")]
        assert line, text[-3000:]
        out = json.loads(line[0][len("RESULT "):])
        res[out["rank"]] = out
    T.MICRO, micro = 2, T.MICRO
    try:
        want = T._reference_run(T._params(T._staged_net()), T._batches(2))[0]
    finally:
        T.MICRO = micro
    for rank, out in res.items():
        np.testing.assert_allclose(out["got"], want, rtol=1e-5)      # the loss reaches both ranks
        for name, devs in out["held"].items():
            stage0 = name.endswith(STAGE0) or name == "scale_sense"      # scale_sense: the first stage reading it
            assert devs == (out["local"] if stage0 == (rank == 0) else []), (rank, name, devs)
        other = {str(s) for n, s in out["shapes"].items() if n != "scale_sense" and n.endswith(STAGE0) != (rank == 0)}
        assert not other & set(out["live"]), (rank, other & set(out["live"]))
