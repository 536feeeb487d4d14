"""Pipeline stages on their own devices (issue 32): one process with 4 host devices,
``pipeline_stages=2`` (2 stages x 2 devices).

The sample-style step (``value_and_grad`` of a ``PipelineCell``, ``PipelineGradReducer``,
SGD in ``ms.jit``) prints the losses of the hand-written JAX reference (the summed micro-batch
gradient, ``tests/test_pipeline_parallel.py``) under both schedules; each Parameter, its
``accu_grads`` and optimizer states live only on their stage's two devices (read from the
arrays' shardings); a ``Layout`` on a stage's 2 devices cuts its Parameter there; a device
count the stages do not divide, and fewer micro-batches than stages in training, raise
MindSpore's errors before any step. A compiled ``DistributedGradReducer`` called on its own
(``startup_method/net.py``) reduces the process's gradients whole, whatever their shapes."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DRIVER = r'''
import gc, json, os, sys
sys.path.insert(0, sys.argv[1])
import jax
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.parallel import Layout
import test_pipeline_parallel as T
T.MICRO = 2      # cheap: 2 micro-batches of 8

assert jax.device_count() == 4
out = {}


def devices(p):
    return sorted(d.id for d in p._data.sharding.device_set)


def bytes_on(p, dev):
    return sum(s.data.nbytes for s in p._data.addressable_shards if s.device.id == dev)


REFERENCE = {}


def run(scheduler=None, layout=False):
    cfg = {} if scheduler is None else {"pipeline_config": {"pipeline_interleave": True,
                                                              "pipeline_scheduler": scheduler}}
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=2, **cfg)
    net = T._staged_net()
    if layout:      # a Layout over stage 1's two devices (MindSpore: the stage's device matrix)
        mp = Layout((2,), ("mp",))
        net.layer3.matmul.shard((mp("None", "None"), mp("None", "mp")))
    start = T._params(net)
    step, reducer = T._sample_step(net)
    batches = T._batches(2)
    got = [float(step(Tensor(x), Tensor(y))[0]) for x, y in batches]
    params = {p.name: p for p in list(net.get_parameters()) + list(reducer.get_parameters())}
    # no single-device copy of a Parameter, its accu_grads or SGD states is left alive (read before
    # anything touches addressable_shards, whose per-device views JAX then keeps)
    gc.collect()        # the previous case's Cells
    shapes = {tuple(p._data.shape) for p in params.values() if p.name != "scale_sense"}
    single = sorted({str(a.shape) for a in jax.live_arrays() if len(a.sharding.device_set) == 1
                     and tuple(a.shape) in shapes})
    key = tuple(sorted((k, v.tobytes()) for k, v in start.items()))
    if key not in REFERENCE:     # both cases start from the same weights: one reference run (and compile)
        ref_losses, _, ref_final = T._reference_run(start, batches)
        REFERENCE[key] = ref_losses, {k: np.array(v) for k, v in ref_final.items()}     # no device arrays kept
        del ref_final
    want, final = REFERENCE[key]
    res = {"got": got, "want": want, "single": single, "devices": {n: devices(p) for n, p in params.items()},
           "final": max(float(np.abs(v - np.asarray(final[n])).max()) for n, v in T._params(net).items()),
           "bytes": {n: [bytes_on(p, d) for d in range(4)] for n, p in params.items()
                     if n in ("layer2.weight", "layer3.weight")}}
    ms.reset_auto_parallel_context()
    return res


# both schedules over the same programs: the second run compiles nothing new
out["1f1b"] = run(layout=True)
out["gpipe"] = run("gpipe", layout=True)

# 3 stages on 4 devices: MindSpore's error, before any step, nothing changed
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=3)
net = T._staged_net()
net.layer3.pipeline_stage = 2
start = T._params(net)
step, _ = T._sample_step(net)
x, y = T._batches(1)[0]
try:
    step(Tensor(x), Tensor(y))
    out["error"] = None
except RuntimeError as e:
    out["error"] = str(e)
out["unchanged"] = all((T._params(net)[k] == v).all() for k, v in start.items())
ms.reset_auto_parallel_context()

# fewer micro-batches than stages in training: MindSpore's error, before any step
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=2)
T.MICRO = 1
net = T._staged_net()
start = T._params(net)
step, _ = T._sample_step(net)
try:
    step(Tensor(x), Tensor(y))
    out["micro_error"] = None
except RuntimeError as e:
    out["micro_error"] = str(e)
out["micro_unchanged"] = all((T._params(net)[k] == v).all() for k, v in start.items())

# an element-wise operator's inputs share its one device matrix (MindSpore's ArithmeticBase): a
# bias cut over mp sits on the devices of the columns it is added to
from msjax.parallel import _strategy
x_st, b_st = _strategy.op_strategies("Add", ((2, 2), (2,)), _strategy.mesh_devices(), {})
out["bias_axes"] = [str(x_st.spec[1]), str(b_st.spec[0])]
# a dataset strategy's repeated calculation is the first device-matrix dimension (MindSpore's
# VirtualDatasetInfo; operators put it last): rank r feeds slice r % 2, as dataset_slice's ranks do
from msjax.communication import _sharded
sh = _sharded._input_sharding(np.zeros((4, 8)), 0, _strategy.mesh_devices(), ((1, 2),))
out["dataset_cols"] = [i[1].start or 0 for _, i in sorted(sh.devices_indices_map((4, 8)).items(), key=lambda t: t[0].id)]

# a rank's checkpoint slice back onto its Parameter's layout (load_param_into_net in a launched job):
# each device's block of a (4, 6) array cut 2 x 2 comes from the slice; a slice of another shape does not fit
from jax.sharding import Mesh, NamedSharding, PartitionSpec as PS
like = jax.device_put(np.zeros((4, 6), np.float32), NamedSharding(Mesh(np.array(jax.devices()).reshape(2, 2),
                                                                        ("a", "b")), PS("a", "b")))
block = np.arange(24, dtype=np.float32).reshape(4, 6)
back = _sharded.from_local_view(like, block)
out["from_local_view"] = [np.array_equal(np.asarray(back), block), back.sharding == like.sharding,
                          [np.asarray(s.data).tolist() for s in back.addressable_shards][3],
                          _sharded.from_local_view(like, block[:2]) is None]

# msjax's CPU kernels in a sharded program (a stage's tensor-parallel MLP and attention): GeLU's
# native kernel and the float32 softmax keep the operand's layout (an opaque custom call, or rows
# flattened over two cut axes, made XLA gather the whole array onto every device) and its bits
from msjax.ops._impl import activation
cut = NamedSharding(Mesh(np.array(jax.devices()).reshape(2, 2), ("a", "b")), PS("a", "b"))
kx = np.linspace(-4, 4, 4 * 8 * 6 * 16, dtype=np.float32).reshape(4, 8, 6, 16)
kernels = {"gelu": lambda t: activation._gelu_tanh_f(t * 1), "softmax": lambda t: activation.softmax32(t * 1)}
out["sharded_kernels"] = {}
for name, f in kernels.items():
    fn = jax.jit(f)
    got = fn(jax.device_put(kx, cut))
    out["sharded_kernels"][name] = [np.asarray(got).tobytes() == np.asarray(jax.jit(f)(kx)).tobytes(),
                                    str(got.sharding.spec), "all-gather" in fn.lower(jax.device_put(kx, cut)).compile().as_text()]

# startup_method's eager step on one process with 4 local devices (GRAPH_MODE): the compiled
# DistributedGradReducer gets the process's gradients, not a batch to split over the devices
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
ms.set_context(mode=ms.GRAPH_MODE)
grads = (Tensor(np.arange(30, dtype=np.float32).reshape(10, 3)), Tensor(np.arange(8, dtype=np.float32)))
red = nn.DistributedGradReducer([])(grads)
out["reducer"] = [[list(r.shape), float(np.abs(r.asnumpy() - g.asnumpy()).max())] for r, g in zip(red, grads)]
ms.set_context(mode=ms.PYNATIVE_MODE)
ms.reset_auto_parallel_context()
# the eager store loads a stored program for the process's default device: loaded for every device
# of the process (or of a launched job), it was refused here ("expected 4 shards") and in a launched
# job its outputs claimed every rank's device, so the next copy of them failed
import tempfile
from msjax.common import _eager_store
from msjax.runtime import _host_eager as he
with tempfile.TemporaryDirectory() as d:
    os.environ[_eager_store.DIR_ENV] = os.path.join(d, "eager")
    x = Tensor(np.linspace(-1, 1, 7, dtype=np.float32))
    first = ops.atan(x).asnumpy()      # compiled on its first call (no host version): stored
    jax.clear_caches()       # as a new process
    before = he.stats()["loaded"]
    again = ops.atan(x)
    out["eager_store"] = [he.stats()["loaded"] - before, again.asnumpy().tobytes() == first.tobytes(),
                          sorted(d.id for d in again._data.sharding.device_set)]
    del os.environ[_eager_store.DIR_ENV]
# XLA's C++ warnings ("[SPMD] Involuntary full rematerialization", which MindSpore's pipeline sample
# printed 4 times) are kept off stderr: msjax sets XLA's log level to errors before JAX starts
out["xla_log_level"] = os.environ.get("TF_CPP_MIN_LOG_LEVEL")
print("RESULT " + json.dumps(out))
'''


def test_stages_on_their_devices_with_the_stand_alone_losses(tmp_path):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=4", PYTHONPATH=ROOT,
               JAX_PLATFORMS="cpu")
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)
    env.pop("GLOG_v", None)
    r = subprocess.run([sys.executable, "-m", "msjax", "run", str(script), os.path.join(ROOT, "tests")],
                       capture_output=True, text=True, env=env, timeout=600)
    line = [l for l in r.stdout.splitlines() if l.startswith("RESULT ")]
    assert r.returncode == 0 and line, r.stdout[-3000:] + r.stderr[-6000:]
    out = json.loads(line[0][len("RESULT "):])
    for case in ("1f1b", "gpipe"):
        res = out[case]
        np.testing.assert_allclose(res["got"], res["want"], rtol=1e-5)      # the summed micro-batch gradient
        assert res["final"] < 1e-5
        assert res["single"] == [], (case, res["single"])
        stage0 = ("layer1.param", "layer2.weight", "layer2.bias")
        for name, devs in res["devices"].items():
            if name == "scale_sense":
                continue
            want = [0, 1] if name.endswith(stage0) else [2, 3]
            assert devs == want, (case, name, devs)      # Parameter, accu_grads, optimizer states
        # the Layout cuts layer3's (4, 10) weight (MatMul transpose_b) over stage 1's 2 devices: 80 bytes
        # each; layer2's (10, 10) weight (no strategy) is whole on each of stage 0's devices
        assert res["bytes"] == {"layer3.weight": [0, 0, 80, 80], "layer2.weight": [400, 400, 0, 0]}, case
    assert out["error"] == "Device_num must be divisible by the stage_num, got device_num: 4stage_num: 3"
    assert out["unchanged"]
    assert out["micro_error"] == "MicroBatch size: 1 can't less than stage num: 2" and out["micro_unchanged"]
    assert out["bias_axes"][0] == out["bias_axes"][1] != "None"
    assert out["xla_log_level"] == "2"
    assert out["dataset_cols"] == [0, 4, 0, 4]
    assert out["sharded_kernels"] == {"gelu": [True, "P('a', 'b')", False],
                                      "softmax": [True, "P('a', 'b')", False]}
    assert out["reducer"] == [[[10, 3], 0.0], [[8], 0.0]]      # one process: the mean over 1 rank
    assert out["eager_store"] == [1, True, [0]]      # loaded, the same bits, on the default device alone
    assert out["from_local_view"] == [True, True, [[15.0, 16.0, 17.0], [21.0, 22.0, 23.0]], True]


def test_stages_over_unequal_numbers_of_processes_are_refused():
    """2 processes of 3 devices, 3 stages of 2 devices: the middle stage spans both processes, so
    its data-parallel batch would be twice the others'. MindSpore accepts 6 devices in 3 stages
    (a rank is one device there); msjax refuses only processes of several devices laid so."""
    from types import SimpleNamespace
    from msjax.communication import _stage_transfer
    from msjax.parallel import _stages
    devices = [SimpleNamespace(id=i, process_index=i // 3) for i in range(6)]
    groups = _stages.stage_groups(devices, 3)
    with pytest.raises(NotImplementedError, match=r"unequal numbers of processes \(processes per stage: "
                                                  r"\[1, 2, 1\]\)"):
        _stage_transfer.procs_per_stage(groups)
    # one device per process (MindSpore's ranks), or 2 per process: every stage spans as many processes
    assert _stage_transfer.procs_per_stage(_stages.stage_groups(
        [SimpleNamespace(id=i, process_index=i) for i in range(6)], 3)) == 2
    assert _stage_transfer.procs_per_stage(_stages.stage_groups(
        [SimpleNamespace(id=i, process_index=i // 2) for i in range(8)], 2)) == 2
