"""Fault tolerance: ``OnRequestExit`` and ``BackupAndRestore`` against MindSpore 2.10's recorded
behaviour (``fixtures/fault_tolerance_scenarios.py``, recorded by
``fixtures/record_fault_tolerance.py``), and a 2-worker data-parallel job that loses a worker to
``kill -9`` and resumes from its checkpoints (``test_killed_worker_job_resumes_to_the_same_weights``)."""
import json
import os
import signal
import sys

import numpy as np
import pytest

import msjax as ms
import msjax.dataset  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
import fault_tolerance_scenarios as scenarios  # noqa: E402
from xla_flags import self_consistent  # noqa: E402

with open(os.path.join(HERE, "fixtures", "fault_tolerance_mindspore.json")) as _f:
    MINDSPORE = json.load(_f)["scenarios"]


def _same(got, want, where=""):
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (where, sorted(got), sorted(want))
        for k in want:
            _same(got[k], want[k], f"{where}/{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    elif isinstance(want, float) and not isinstance(want, bool):
        assert isinstance(got, (int, float)) and abs(got - want) <= 2e-6 + 1e-5 * abs(want), (where, got, want)
    else:
        assert got == want, (where, got, want)


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
def test_same_steps_files_and_checkpoints_as_mindspore(name, tmp_path, monkeypatch, ms_log):
    graceful, _ = scenarios.SCENARIOS[name]
    if graceful:
        monkeypatch.setenv("MS_ENABLE_GRACEFUL_EXIT", "1")
    else:
        monkeypatch.delenv("MS_ENABLE_GRACEFUL_EXIT", raising=False)
    old = signal.getsignal(signal.SIGTERM)
    # recorded in GRAPH_MODE; msjax runs the scenarios without the graceful-exit Parameters in
    # PyNative (fewer compiles), those with them compiled as MindSpore does
    got = scenarios.run(ms, name, str(tmp_path.resolve()), "graph" if graceful else "pynative")
    assert signal.getsignal(signal.SIGTERM) == old
    want = dict(MINDSPORE[name])
    warned = want.pop("warned 'Graceful exit is triggered'")
    assert any("Graceful exit is triggered, stop training." in r.getMessage() for r in ms_log) == warned
    _same(got, want, name)


def test_on_request_exit_mindir_is_skipped_with_a_warning(tmp_path, monkeypatch, ms_log):
    """MindSpore writes <file_name>_train.mindir next to the checkpoint; without the MindIR writer
    msjax says so and still writes the checkpoint."""
    monkeypatch.setenv("MS_ENABLE_GRACEFUL_EXIT", "1")
    ms.set_context(mode=ms.GRAPH_MODE)
    _, _, model = scenarios._model(ms)
    config = tmp_path / "exit.json"
    config.write_text('{"GracefulExit": 1}')
    cb = ms.train.OnRequestExit(file_name="LeNet", directory=str(tmp_path), config_file=str(config))
    model.train(1, scenarios._dataset(ms), callbacks=[cb], dataset_sink_mode=False)
    files = sorted(os.listdir(tmp_path / "rank_0"))
    try:
        from msjax.train._export import mindir_writer  # noqa: F401
    except ImportError:
        assert files == ["LeNet_train.ckpt"]
        assert any("LeNet_train.mindir is not written" in r.getMessage() for r in ms_log)
    else:
        assert files == ["LeNet_train.ckpt", "LeNet_train.mindir"]
    params = ms.load_checkpoint(str(tmp_path / "rank_0" / "LeNet_train.ckpt"))
    assert int(params["step_num"].asnumpy()) == 1 and int(params["epoch_num"].asnumpy()) == 1


def test_on_request_exit_rank_directory_follows_device_id(tmp_path, monkeypatch):
    monkeypatch.delenv("MS_ENABLE_GRACEFUL_EXIT", raising=False)
    ms.set_context(device_id=3)
    try:
        cb = ms.train.OnRequestExit(directory=str(tmp_path))
    finally:
        ms.set_context(device_id=0)
    assert os.path.isdir(tmp_path / "rank_3")
    assert cb.train_name == str((tmp_path / "rank_3" / "Net_train").resolve())


# ---------------------------------------------------------------------------
# a 2-worker data-parallel job loses a worker to kill -9, then resumes
# ---------------------------------------------------------------------------
JOB = """
    import json, os, sys, time
    import numpy as np
    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore import nn, train
    from mindspore.communication import init, get_rank, get_group_size

    ms.set_context(mode=ms.GRAPH_MODE)
    init()
    rank, size = get_rank(), get_group_size()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    EPOCHS, STEPS = 4, 2
    rs = np.random.RandomState(0)
    X, Y = rs.randn(16, 6).astype(np.float32), rs.randn(16, 3).astype(np.float32)
    W1, W2 = ms.Tensor(0.3 * rs.randn(4, 6).astype(np.float32)), ms.Tensor(0.3 * rs.randn(3, 4).astype(np.float32))

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1, self.relu, self.fc2 = nn.Dense(6, 4, W1, "zeros"), nn.ReLU(), nn.Dense(4, 3, W2, "zeros")

        def construct(self, x):
            return self.fc2(self.relu(self.fc1(x)))

    def build():
        net = MLP()
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        return net, opt, ms.Model(net, loss_fn=nn.MSELoss(), optimizer=opt)

    def dataset():
        return ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False, num_shards=size, shard_id=rank).batch(4)

    def weights(tag, net):
        print(tag, json.dumps({p.name: p.asnumpy().tolist() for p in net.trainable_params()}), flush=True)

    class Hang(train.Callback):
        # rank 1 stops after step 5 (epoch 3) and waits to be killed
        def on_train_step_end(self, run_context):
            if rank == 1 and run_context.original_args().cur_step_num == 5:
                print("HANG", os.getpid(), flush=True)
                time.sleep(300)

    # MindSpore's fault-recovery tutorial: ModelCheckpoint per rank, resume from the latest file
    ckdir = f"./checkpoints/rank_{rank}"
    config = train.CheckpointConfig(save_checkpoint_steps=STEPS, append_info=["epoch_num", "step_num"])
    net, opt, model = build()
    initial = 0
    if "--is_recover" in sys.argv:
        names = [f for f in os.listdir(ckdir) if f.endswith(".ckpt")]
        names.sort(key=lambda f: os.path.getctime(os.path.join(ckdir, f)))
        param_dict = ms.load_checkpoint(os.path.join(ckdir, names[-1]))
        initial = int(param_dict["epoch_num"].asnumpy())
        print("RESUME", names[-1], initial, flush=True)
        ms.load_param_into_net(net, param_dict)
        ms.load_param_into_net(opt, param_dict)
    callbacks = [train.ModelCheckpoint(prefix="net", directory=ckdir, config=config)]
    if "--is_recover" not in sys.argv:
        callbacks.append(Hang())
    model.train(EPOCHS, dataset(), callbacks=callbacks, initial_epoch=initial, dataset_sink_mode=False)
    weights("RESUMED", net)

    # the same training without interruption
    net, _, model = build()
    model.train(EPOCHS, dataset(), dataset_sink_mode=False)
    weights("UNINTERRUPTED", net)

    # graceful exit: every rank asks at step 2's end; all stop together after step 3
    os.environ["MS_ENABLE_GRACEFUL_EXIT"] = "1"
    net, _, model = build()
    exit_file = f"exit_{rank}.json"

    class Ask(train.Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 2:
                with open(exit_file, "w") as f:
                    json.dump({"GracefulExit": 1}, f)
    steps = train.LambdaCallback(on_train_step_end=lambda rc: print("STEP", rc.original_args().cur_step_num))
    model.train(EPOCHS, dataset(), dataset_sink_mode=False,
                callbacks=[train.OnRequestExit(save_mindir=False, file_name="Net", directory="./graceful",
                                               config_file=exit_file), Ask(), steps])
"""


def _launch(tmp_path, port, *args):
    import subprocess
    import textwrap
    (tmp_path / "job.py").write_text(textwrap.dedent(JOB))
    cmd = [sys.executable, "-m", "msjax", "launch", "--worker_num=2", "--local_worker_num=2", "--join=True",
           f"--master_port={port}", f"--log_dir=logs{len(args)}", "--tail_worker_log=-2", "job.py", *args]
    return subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=self_consistent())


def _free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _lines(path, tag):
    return [line.split(" ", 1)[1] for line in path.read_text().splitlines() if line.startswith(tag + " ")]


@pytest.mark.xdist_group("distributed")
def test_killed_worker_job_resumes_to_the_same_weights(tmp_path):
    import time
    job = _launch(tmp_path, _free_port())
    log1 = tmp_path / "logs0" / "worker_1.log"
    try:
        deadline = time.time() + 120
        while not (log1.exists() and _lines(log1, "HANG")) and job.poll() is None and time.time() < deadline:
            time.sleep(0.1)
        pid = int(_lines(log1, "HANG")[0])
        os.kill(pid, signal.SIGKILL)                       # kill -9 one worker
        out, err = job.communicate(timeout=60)
    finally:
        if job.poll() is None:
            job.kill()
            job.communicate()
    # the job ends with a clear message naming the killed rank and its log tail
    assert job.returncode == 1, out + err
    assert f"Worker process {pid} (rank 1) exit with exception. Error code: -9 (killed by signal 9: SIGKILL)" in err
    assert f"HANG {pid}" in err.split("Last lines of logs0/worker_1.log:\n", 1)[1]
    assert "Distributed job exited with exception" in err
    # the checkpoints left are complete: epochs 1 and 2 on each rank, every file loads whole
    for rank in (0, 1):
        d = tmp_path / "checkpoints" / f"rank_{rank}"
        names = sorted(f for f in os.listdir(d) if f.endswith(".ckpt"))   # beside net-graph.meta in GRAPH_MODE
        assert names[:2] == ["net-1_2.ckpt", "net-2_2.ckpt"] and len(names) <= 3, names   # epoch 3 not done
        for name in names:
            params = ms.load_checkpoint(str(d / name))
            assert {"fc1.weight", "fc2.bias", "moments.fc1.weight", "epoch_num", "step_num"} <= set(params)
    # the documented resume path ends with the weights of an uninterrupted run, on both ranks
    job = _launch(tmp_path, _free_port(), "--is_recover")
    out, err = job.communicate(timeout=180)
    assert job.returncode == 0, out + err
    resumed, plain = [], []
    for rank in (0, 1):
        log = tmp_path / "logs1" / f"worker_{rank}.log"
        assert _lines(log, "RESUME") == ["net-2_2.ckpt 2"]
        resumed.append(json.loads(_lines(log, "RESUMED")[0]))
        plain.append(json.loads(_lines(log, "UNINTERRUPTED")[0]))
        # graceful exit: both ranks ran steps 1-3, stopped together and saved rank_<id>/Net_train.ckpt
        assert _lines(log, "STEP") == ["1", "2", "3"], log.read_text()[-2000:]
        params = ms.load_checkpoint(str(tmp_path / "graceful" / f"rank_{rank}" / "Net_train.ckpt"))
        assert int(params["step_num"].asnumpy()) == 3 and bool(params["graceful_exit"].asnumpy())
    assert resumed[0] == resumed[1] == plain[0] == plain[1]
    first = json.loads(_lines(tmp_path / "logs1" / "worker_0.log", "RESUMED")[0])
    assert not np.allclose(first["fc1.weight"], W1_START)        # it trained
    # resumed ckpt names: MindSpore's "<prefix>_1-<epoch>_<step>" for a second run in the directory
    assert sorted(f for f in os.listdir(tmp_path / "checkpoints" / "rank_0")
                  if f.endswith(".ckpt"))[-2:] == ["net_1-3_2.ckpt", "net_1-4_2.ckpt"]


_rs = np.random.RandomState(0)
_rs.randn(16, 6), _rs.randn(16, 3)
W1_START = (0.3 * _rs.randn(4, 6)).astype(np.float32).tolist()
