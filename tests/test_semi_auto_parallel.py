"""Semi-auto and auto parallel (issue 21): strategies on JAX shardings.

Every strategy kind runs on 4 host devices in one process and gives the stand-alone
numbers (same process, parallel_mode STAND_ALONE); the Parameters and optimizer states
are really cut (bytes on one device read from the arrays' shardings); bad strategies
raise MindSpore's exception types before any step runs and leave the Parameters as they
were; the example script runs under ``msjax launch`` with 2 workers and prints the
stand-alone losses.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax.parallel import Layout
from xla_flags import self_consistent

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "distributed", "semi_auto_parallel.py")

DRIVER = r'''
import json, sys
import numpy as np
import mindspore as ms
from mindspore import mint, nn, ops
from mindspore.common.initializer import initializer
from mindspore.parallel import Layout
from mindspore.parallel.auto_parallel import AutoParallel
import jax

assert jax.device_count() == 4
ms.set_context(mode=ms.GRAPH_MODE)
rs = np.random.RandomState(0)
BATCHES = [(ms.Tensor(rs.randn(8, 16).astype(np.float32)), ms.Tensor(rs.randint(0, 4, (8,)).astype(np.int32)))
           for _ in range(3)]


class Net(nn.Cell):
    def __init__(self, s1, s2, layout=False):
        super().__init__()
        self.w1 = ms.Parameter(initializer("normal", [16, 8], ms.float32), name="w1")
        self.w2 = ms.Parameter(initializer("normal", [8, 4], ms.float32), name="w2")
        self.mm1 = ops.MatMul().shard(s1)
        self.relu = ops.ReLU().shard(((4, 1),))
        self.mm2 = ops.MatMul().shard(s2)

    def construct(self, x):
        return self.mm2(self.relu(self.mm1(x, self.w1)), self.w2)


class MintNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w1 = ms.Parameter(initializer("normal", [16, 8], ms.float32), name="w1")
        self.mm1 = ms.parallel.shard(mint.matmul, in_strategy=((2, 2), (2, 1)))

    def construct(self, x):
        return mint.nn.functional.relu(self.mm1(x, self.w1))


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(initializer("normal", [16, 4], ms.float32), name="weight")

    def construct(self, x):
        return ops.matmul(x, self.weight)


def build(case):
    ms.set_seed(1)
    if case == "repeat":
        return Net(((2, 1), (1, 1)), ((1, 1), (1, 1)))
    if case == "tensor_parallel":
        return Net(((1, 4), (4, 1)), ((2, 2), (2, 1)))
    if case in ("layout", "propagation"):
        layout = Layout((2, 2), ("dp", "mp"))
        return Net((layout("dp", "mp"), layout("mp", "None")), ((1, 1), (1, 1)))
    if case == "mint":
        return MintNet()
    if case == "cell":
        return ms.shard(Block(), in_strategy=((4, 1),), parameter_plan={"weight": (1, 4)})
    if case in ("dense", "dense_fp16"):
        net = nn.SequentialCell([nn.Dense(16, 8), nn.ReLU(), nn.Dense(8, 4)])
        if case == "dense_fp16":
            net.to_float(ms.float16)
        net[0].matmul.shard(((2, 1), (2, 1)))
        net[0].bias_add.shard(((2, 2), (2,)))
        return net
    return nn.SequentialCell([nn.Dense(16, 8), nn.ReLU(), nn.Dense(8, 4)])


def bytes_on_device0(p):
    arr = p._data
    d0 = jax.devices()[0]
    return int(sum(s.data.nbytes for s in arr.addressable_shards if s.device == d0))


def run(case, parallel):
    ms.reset_auto_parallel_context()
    net = build(case)
    if case == "mint":
        wrapped = AutoParallel(net) if parallel else ms.jit(net)
        outs = [float(mint.sum(wrapped(x)).asnumpy()) for x, _ in BATCHES]
        return outs, {p.name: bytes_on_device0(p) for p in net.get_parameters()}
    if case == "optimizer" and parallel:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, enable_parallel_optimizer=True,
                                     parallel_optimizer_config={"parallel_optimizer_threshold": 0})
    if case == "full_batch" and parallel:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, full_batch=True)
    if case in ("cell", "dense", "dense_fp16") and parallel:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    opt = nn.Adam(net.trainable_params(), 1e-2) if case in ("optimizer", "hsdp") else \
        nn.Momentum(net.trainable_params(), 1e-2, 0.9)
    loss_fn = nn.CrossEntropyLoss()
    if case in ("dense", "dense_fp16"):
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    else:
        def forward(x, y):
            return loss_fn(net(x), y)
        grad_fn = ms.value_and_grad(forward, None, opt.parameters)

        def train_step(x, y):
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss
        if parallel and case in ("repeat", "tensor_parallel", "layout", "mint", "hsdp", "propagation"):
            step = AutoParallel(train_step, "sharding_propagation" if case == "propagation" else "semi_auto")
            if case == "hsdp":
                step.hsdp(threshold=0)
        else:
            step = ms.jit(train_step)
    losses = [float(step(x, y).asnumpy()) for x, y in BATCHES]
    params = list(net.get_parameters()) + [p for p in opt.get_parameters() if p.name.startswith(("moment", "adam"))]
    return losses, {p.name: bytes_on_device0(p) for p in params}


def run_model(parallel):
    """Model.train on an AutoParallel network (MindSpore's way to use Model in parallel)."""
    import mindspore.dataset as ds
    from mindspore.train import Callback, Model
    ms.reset_auto_parallel_context()
    net = build("tensor_parallel")
    losses = []

    class Record(Callback):
        def on_train_step_end(self, run_context):
            losses.append(float(run_context.original_args().net_outputs.asnumpy()))
    x = np.concatenate([b[0].asnumpy() for b in BATCHES])
    y = np.concatenate([b[1].asnumpy() for b in BATCHES])
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
    with_loss = nn.WithLossCell(net, nn.CrossEntropyLoss())
    model = Model(AutoParallel(with_loss) if parallel else with_loss, optimizer=nn.SGD(net.trainable_params(), 0.1))
    model.train(1, data, callbacks=[Record()])
    return losses, {p.name: bytes_on_device0(p) for p in net.get_parameters()}


def run_pynative(parallel):
    """PyNative (MindSpore's shard_function_parallel sample): a Cell.shard block with a
    parameter_plan named 'self.<path>' inside an eager value_and_grad, and an eager optimizer
    whose gradients (3 rows) are no batch to cut."""
    ms.reset_auto_parallel_context()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    if parallel:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL, search_mode="sharding_propagation")
    ms.set_seed(0)

    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(16, 16)

        def construct(self, x):
            return ops.tanh(self.dense(x))

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.block = Inner()
            self.head = nn.Dense(16, 3)
            self.block_shard = self.block.shard(in_strategy=((1, 4),), parameter_plan={
                "self.block.dense.weight": (4, 1), "self.block.missing": (1, 1)})

        def construct(self, x):
            return self.head(self.block_shard(x))
    try:
        net = Outer()
        opt = nn.SGD(net.trainable_params(), 0.1)
        grad_fn = ms.value_and_grad(lambda x, y: nn.CrossEntropyLoss()(net(x), y), None, net.trainable_params())
        losses = []
        for x, y in BATCHES:
            loss, grads = grad_fn(x, ms.Tensor(y.asnumpy() % 3))
            opt(grads)
            losses.append(float(loss.asnumpy()))
        return losses, {p.name: bytes_on_device0(p) for p in net.get_parameters()}
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


result = {}
ref, _ = run_pynative(False)
got, sizes = run_pynative(True)
result["pynative_shard"] = {"ref": ref, "got": got, "bytes": sizes}
ref, _ = run_model(False)
got, sizes = run_model(True)
result["model"] = {"ref": ref, "got": got, "bytes": sizes}
for case in ["repeat", "tensor_parallel", "layout", "propagation", "mint", "cell", "dense", "optimizer", "hsdp",
             "full_batch", "dense_fp16"]:
    ref, _ = run(case, False)
    got, sizes = run(case, True)
    result[case] = {"ref": ref, "got": got, "bytes": sizes}


def error(fn):
    try:
        fn()
    except Exception as e:   # noqa: BLE001
        return [type(e).__name__, str(e)]
    return None


def bad_step(s1, x=None):
    ms.reset_auto_parallel_context()
    net = Net(s1, ((1, 1), (1, 1)))
    before = net.w1.asnumpy().copy()
    opt = nn.SGD(net.trainable_params(), 0.1)
    grad_fn = ms.value_and_grad(lambda a, b: nn.CrossEntropyLoss()(net(a), b), None, opt.parameters)

    def step(a, b):
        loss, g = grad_fn(a, b)
        opt(g)
        return loss
    xb, yb = BATCHES[0] if x is None else x
    err = error(lambda: AutoParallel(step)(xb, yb))
    return err, bool(np.array_equal(before, net.w1.asnumpy()))

result["errors"] = {
    "product": bad_step(((3, 1), (1, 1))),
    "rank": bad_step(((2,), (1, 1))),
    "shape": bad_step(((4, 1), (1, 1)), (ms.Tensor(np.ones((6, 16), np.float32)), BATCHES[0][1][:6])),
    "count": bad_step(((2, 1),)),
}
print("RESULT " + json.dumps(result))
'''


def _run(script, devices, *args, timeout=600):
    # the runs compare their numbers with the stand-alone numbers of the same flags
    env = dict(self_consistent(f"--xla_force_host_platform_device_count={devices}"), PYTHONPATH=ROOT,
               JAX_PLATFORMS="cpu")
    return subprocess.run([sys.executable, "-m", "msjax", "run", script, *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def _four_devices(tmp_path):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    r = _run(str(script), 4)
    line = [l for l in r.stdout.splitlines() if l.startswith("RESULT ")]
    assert r.returncode == 0 and line, r.stdout[-3000:] + r.stderr[-6000:]
    return json.loads(line[0][len("RESULT "):])


CASES = ["repeat", "tensor_parallel", "layout", "propagation", "mint", "cell", "dense", "optimizer", "hsdp",
         "full_batch", "model", "pynative_shard", "dense_fp16"]
# float16 layers: the partitioned sums round differently (float16 outputs, float32 accumulation)
RTOL = {"dense_fp16": 5e-3}


def test_every_strategy_kind_on_four_devices(tmp_path):
    """One 4-device process (the suite's time): every case's numbers, bytes and errors."""
    result = _four_devices(tmp_path)
    wrong = []
    for case in CASES:
        r = result[case]
        if not np.allclose(r["got"], r["ref"], rtol=RTOL.get(case, 1e-5), atol=1e-6):
            wrong.append((case, r["got"], r["ref"]))
    assert not wrong, wrong         # every strategy kind gives the stand-alone numbers
    _check_cut(result)
    _check_errors(result["errors"])


def _check_cut(result):
    b = {case: result[case]["bytes"] for case in CASES}
    full1, full2 = 16 * 8 * 4, 8 * 4 * 4
    # w1 cut by its first consumer: (2, 1) with 2 repeats -> half; (1, 4) -> a quarter; layout mp -> half
    assert b["repeat"]["w1"] == full1 // 1 and b["repeat"]["w2"] == full2          # (1, 1): whole
    assert b["tensor_parallel"]["w1"] == full1 // 4 and b["tensor_parallel"]["w2"] == full2 // 2
    # an optimizer state is laid out as its Parameter (MindSpore: the same tensor layout)
    assert b["tensor_parallel"]["moments.w1"] == full1 // 4 and b["tensor_parallel"]["moments.w2"] == full2 // 2
    assert b["model"]["w1"] == full1 // 4           # Model(AutoParallel(net)) trains the sharded step
    assert b["layout"]["w1"] == full1 // 2
    assert b["mint"]["w1"] == full1 // 2
    assert b["cell"]["weight"] == 16 * 4 * 4 // 4                                   # parameter_plan (1, 4)
    # PyNative Cell.shard: 'self.block.dense.weight' found by its name, (4, 1); the rest whole
    assert b["pynative_shard"]["block_shard.dense.weight"] == 16 * 16 * 4 // 4
    assert b["pynative_shard"]["head.weight"] == 3 * 16 * 4
    assert b["dense"]["0.weight"] == 8 * 16 * 4 // 2 and b["dense"]["0.bias"] == 8 * 4 // 2
    # optimizer parallel: Parameters and both Adam moments cut along dim 0 over the 4 devices
    assert b["optimizer"]["0.weight"] == 8 * 16 * 4 // 4
    assert b["optimizer"]["moment1.0.weight"] == 8 * 16 * 4 // 4
    assert b["optimizer"]["moment2.0.weight"] == 8 * 16 * 4 // 4
    assert b["optimizer"]["2.weight"] == 4 * 8 * 4 // 4
    assert b["hsdp"]["0.weight"] == 8 * 16 * 4 // 4


def _check_errors(errors):
    for kind, words in [("product", ["MatMul", "(3, 1)", "divide the device number 4"]),
                        ("rank", ["MatMul", "(2,)", "dimensions"]),
                        ("shape", ["MatMul", "not divisible by 4"]),
                        ("count", ["MatMul", "entries", "tensor inputs"])]:
        (etype, msg), unchanged = errors[kind]
        assert etype == "RuntimeError", (kind, etype, msg)     # raised before any step runs
        for w in words:
            assert w in msg, (kind, msg)
        assert unchanged, kind      # a failed step changes no Parameter


def test_shard_arguments_checked_as_mindspore():
    with pytest.raises(TypeError, match="must be tuple type"):
        ops.MatMul().shard([(2, 1), (1, 1)])
    with pytest.raises(TypeError, match="must be int type"):
        ops.MatMul().shard(((2, 1.0), (1, 1)))
    with pytest.raises(ValueError, match="need to set in_strategy"):
        ops.MatMul().shard(None, ((1, 1),))
    m = ops.MatMul()
    assert m.shard(((2, 1), (1, 1))) is m and m._in_strategy == ((2, 1), (1, 1))
    with pytest.raises(ValueError, match="must be one of"):
        ms.parallel.auto_parallel.AutoParallel(lambda x: x, "bogus")


def test_primitive_set_device_records_the_target():
    """MindSpore's docs sample ``host_device``: ``Primitive.set_device`` returns the Primitive with
    ``primitive_target`` set (MindSpore 2.10 prints GPU for ``ops.Add().set_device("GPU")``); the
    op computes the same."""
    a = ops.Add()
    assert a.set_device("CPU") is a and a.primitive_target == "CPU"
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    assert (a(x, x).asnumpy() == np.array([2.0, 4.0], np.float32)).all()


def test_symbol_dimensions_are_dynamic_inputs():
    """``parallel_support_dynamic_shape``: ``Symbol`` dimensions in ``Tensor(shape=..., dtype=...)`` for
    ``set_inputs``; MindSpore 2.10's to_dict/str, errors, and (its CPU build) no check of the inputs
    against the symbols."""
    s1, s2 = ms.Symbol(divisor=8, remainder=1), ms.Symbol(max=32, unique=True)
    assert str(s1) == "{'divisor': 8, 'remainder': 1}" and s2.to_dict() == {"max": 32, "id": s2.id}
    assert ms.Symbol(min=20, divisor=8).to_dict() == {"min": 20, "divisor": 8}
    dyn = ms.Tensor(shape=(None, s1, s1, s2, s2), dtype=ms.float32)
    assert dyn.shape == (-1,) * 5 and ms.Tensor(shape=(np.int64(2), 3), dtype=ms.float32).shape == (2, 3)
    net = nn.ReLU()
    net.set_inputs(dyn)
    assert net(ms.Tensor(np.ones((1, 9, 17, 32, 32), np.float32))).shape == (1, 9, 17, 32, 32)
    for kw, err, msg in ((dict(min=0), ValueError, "'min' value should be positive, but got 0"),
                         (dict(divisor=2, remainder=3), ValueError, r"range '\[0, 2\)', but got 3"),
                         (dict(max=1.0), TypeError, "argument 'max' must be int"),
                         (dict(unique=1), TypeError, "argument 'unique' must be bool")):
        with pytest.raises(err, match=msg):
            ms.Symbol(**kw)


def test_layout_aliases_and_errors():
    layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
    d = layout("mp", ("sp", "dp"))
    assert d.to_dict()["device_matrix"] == (2, 2, 2)
    assert d.to_dict()["tensor_map"] == (0, (1, 2))          # counted from the right, as MindSpore
    assert layout("None", "dp").to_dict()["tensor_map"] == (-1, 2)
    with pytest.raises(ValueError, match="alias_name"):
        layout("tp", "None")
    with pytest.raises(ValueError, match="must be equal"):
        Layout((2, 2), ("dp",))
    with pytest.raises(ValueError, match="reserved"):
        Layout((2, 2), ("dp", "None"))


def test_optimizer_parallel_config_checked():
    try:
        with pytest.raises(ValueError, match="Optimizer level"):
            ms.set_auto_parallel_context(parallel_optimizer_config={"optimizer_level": "level9"})
        ms.set_auto_parallel_context(enable_parallel_optimizer=True,
                                     parallel_optimizer_config={"optimizer_weight_shard_size": 2})
        from msjax.parallel import _context
        cfg = _context.optimizer_parallel_config()
        assert cfg["enabled"] and cfg["shard_size"] == 2 and cfg["threshold"] == 64
    finally:
        ms.reset_auto_parallel_context()


def test_launched_workers_print_the_stand_alone_losses(tmp_path):
    ref = tmp_path / "ref.json"
    r = _run(EXAMPLE, 1, "--case", "op", "--steps", "3", "--out", str(ref))
    assert r.returncode == 0, r.stderr[-3000:]
    out = tmp_path / "two.json"
    env = dict(self_consistent(), PYTHONPATH=ROOT, JAX_PLATFORMS="cpu")   # the flags of the reference run
    r = subprocess.run([sys.executable, "-m", "msjax", "launch", "--worker_num=2", "--local_worker_num=2",
                        "--join=True", f"--log_dir={tmp_path / 'logs'}", "--master_port=10991", EXAMPLE,
                        "--case", "op", "--outside", "--steps", "3", "--out", str(out), "--ckpt_dir", str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    a, b = json.loads(ref.read_text()), json.loads(out.read_text())
    # the launched run calls Momentum after AutoParallel(grad_fn) (dataset_slice): on each rank's slices
    np.testing.assert_allclose(b["losses"], a["losses"], rtol=1e-5)
    assert b["bytes"]["fc2_weight"] == b["full_bytes"]["fc2_weight"] // 2    # cut across the two processes
    # distributed checkpoint: each rank's slices + the strategy file merge into a stand-alone net and
    # equal the whole Parameters the ranks gathered (integrated_save=True)
    full = ms.load_checkpoint(str(tmp_path / "full_0.ckpt"))
    assert ms.load_checkpoint(str(tmp_path / "full_1.ckpt")).keys() == full.keys()
    sliced = ms.load_checkpoint(str(tmp_path / "rank_1.ckpt"))
    assert sliced["fc2_weight"].shape == (16, 16) and full["fc2_weight"].shape == (32, 16)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1_weight = ms.Parameter(np.zeros((64, 32), np.float32), name="fc1_weight")
            self.fc2_weight = ms.Parameter(np.zeros((32, 16), np.float32), name="fc2_weight")
    net = Net()
    ms.load_distributed_checkpoint(net, [str(tmp_path / f"rank_{r}.ckpt") for r in range(2)],
                                   train_strategy_filename=str(tmp_path / "strategy.ckpt"))
    for name in ("fc1_weight", "fc2_weight"):
        np.testing.assert_array_equal(getattr(net, name).asnumpy(), full[name].asnumpy())


def test_recompute_is_jax_checkpoint_with_the_same_numbers(monkeypatch):
    from msjax import nn
    from msjax.common import _recompute
    calls = []
    real = _recompute.jax.checkpoint

    def counting(fn, **kw):
        calls.append(fn)
        return real(fn, **kw)
    monkeypatch.setattr(_recompute.jax, "checkpoint", counting)

    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense, self.bn = nn.Dense(4, 4), nn.BatchNorm1d(4)

        def construct(self, x):
            return ops.tanh(self.bn(self.dense(x)))

    def run(recompute, graph):
        ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
        try:
            ms.set_seed(0)
            net = nn.SequentialCell([Block(), Block()])
            net.set_train()
            if recompute:
                net[0].recompute()
                net[1].recompute()
            x = ms.Tensor(np.random.RandomState(0).randn(8, 4).astype(np.float32))
            loss, grads = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())(x)
            y = ms.recompute(net[0], x) if recompute else net[0](x)
            return [loss.asnumpy(), y.asnumpy(), net[0].bn.moving_mean.asnumpy()] + [g.asnumpy() for g in grads]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)

    ref = run(False, False)
    assert not calls
    for graph in (False, True):
        got = run(True, graph)
        for a, b in zip(ref, got):
            # float32: jax.checkpoint may fuse the recomputed forward differently (last bits); a Dense
            # bias before BatchNorm has an analytically zero gradient, so its values (~1e-6) are
            # rounding noise, which a PyNative gradient run op by op (issue 35) and a fused
            # recompute round apart: atol 1e-5
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-5)
    assert len(calls) >= 4      # both Blocks, in both modes, went through jax.checkpoint


def test_msrun_style_pytest_worker_runs_on_msjax(tmp_path):
    """MindSpore's samples start as `msrun ... pytest -s -v sample.py::test_case`: the launcher's
    workers, and `python -m msjax run pytest ...`, run pytest with `import mindspore` on msjax."""
    from msjax.parallel.cluster import run as launcher
    assert launcher._worker_cmd("pytest", ["-s", "a.py::t"])[1:] == ["-m", "msjax", "run", "pytest", "-s", "a.py::t"]
    (tmp_path / "sample_test.py").write_text(
        "import mindspore as ms\n\ndef test_case():\n    assert ms.Tensor([1.0]).asnumpy()[0] == 1.0\n"
        "    assert ms.Tensor.__module__.startswith('msjax')\n\ndef test_other():\n    raise AssertionError\n")
    env = dict(os.environ, PYTHONPATH=ROOT, JAX_PLATFORMS="cpu")
    r = subprocess.run([sys.executable, "-m", "msjax", "run", "pytest", "-q", "-p", "no:cacheprovider",
                        str(tmp_path / "sample_test.py")], capture_output=True, text=True, env=env, cwd=tmp_path,
                       timeout=300)
    # the sample's case passes on msjax; the failing one makes the worker exit 1, as pytest does
    assert r.returncode == 1 and "1 failed, 1 passed" in r.stdout, r.stdout + r.stderr


def test_autoparallel_settings_msjax_does_not_reproduce_raise():
    from msjax.parallel.auto_parallel import AutoParallel
    p = AutoParallel(lambda x: x)
    p.no_init_parameters_in_compile()                 # MindSpore's effect is msjax's behaviour anyway
    p.set_group_ckpt_save_file("/tmp/unused_group.ckpt")
    assert p._settings_only == {"init_param_in_compile": False, "group_ckpt_save_file": "/tmp/unused_group.ckpt"}
    for call in (p.print_local_norm, p.enable_device_local_norm, p.enable_fp32_communication,
                 p.disable_loss_repeated_mean, lambda: p.dump_local_norm("/tmp/norms")):
        with pytest.raises(NotImplementedError, match="msjax does not support"):
            call()
    with pytest.raises(TypeError, match="must be str"):
        p.dump_local_norm(3)
