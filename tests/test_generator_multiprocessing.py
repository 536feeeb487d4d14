"""``GeneratorDataset`` (random access, ``python_multiprocessing=True``, several workers) and
``batch(per_batch_map=..., python_multiprocessing=True)`` on worker processes: MindSpore 2.10's
rows (its per-worker seeds, recorded by ``fixtures/record_generator_mp.py``), the thread
version's rows, MindSpore's error shape, and no process or shared-memory block left behind."""
import gc
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import msjax as ms
import msjax.dataset as ds

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
from generator_mp_cases import run_cases  # noqa: E402


# one worker runs the module under pytest-xdist: its module fixture is computed once, not on both
pytestmark = pytest.mark.xdist_group("generator_multiprocessing")


@pytest.fixture(scope="module")
def cases():
    with open(os.path.join(HERE, "fixtures", "generator_mp_mindspore.json")) as f:
        ref = json.load(f)
    return ref, run_cases(ds)


@pytest.mark.parametrize("name", ["seeded_two_epochs", "seeded_shuffle", "per_batch_map_seeded", "plain"])
def test_rows_match_mindspore(cases, name):
    ref, got = cases
    assert got[name] == ref[name]


@pytest.mark.parametrize("name,line", [("source_error", "ValueError: bad index five"),
                                       ("per_batch_map_error", "KeyError: 'batch one'")])
def test_worker_errors_have_mindspores_shape(cases, name, line):
    ref, got = cases
    assert got[name]["type"] == ref[name]["type"] == "RuntimeError"
    head = "Exception thrown from user defined Python function in dataset."
    assert ref[name]["lines"][0] == head and got[name]["lines"][0].startswith(head)
    assert line in ref[name]["lines"] and got[name]["lines"][0].endswith(line)


class Pids:
    """Row ``i``: ``i``, a 96 KiB array (through shared memory), the reading process's pid."""

    def __init__(self, n=12, calls=None):
        self.n, self.calls = n, calls

    def __getitem__(self, i):
        if self.calls is not None:
            self.calls.append(i)
        return np.array(i, np.int64), np.full((64, 64, 6), i, np.float32), os.getpid()

    def __len__(self):
        return self.n


def _rows(d, **kw):
    return [[np.asarray(c) for c in r] for r in d.create_tuple_iterator(output_numpy=True, **kw)]


@pytest.mark.parametrize("kw", [dict(shuffle=True), dict(sampler=ds.DistributedSampler(3, 1, shuffle=True)),
                                dict(num_shards=2, shard_id=1, shuffle=False), dict(num_samples=5)])
def test_same_rows_as_threads(kw):
    ds.config.set_seed(7)
    procs = ds.GeneratorDataset(Pids(), ["i", "img", "pid"], num_parallel_workers=2, **kw)
    threads = ds.GeneratorDataset(Pids(), ["i", "img", "pid"], num_parallel_workers=2,
                                  python_multiprocessing=False, **kw)
    a, b = procs.create_tuple_iterator(num_epochs=2, output_numpy=True), \
        threads.create_tuple_iterator(num_epochs=2, output_numpy=True)
    for _ in range(2):
        ra, rb = list(a), list(b)
        assert [int(r[0]) for r in ra] == [int(r[0]) for r in rb] and ra
        for x, y in zip(ra, rb):
            assert x[1].dtype == y[1].dtype == np.float32 and np.array_equal(x[1], y[1])
            assert x[2].dtype == y[2].dtype and int(y[2]) == os.getpid() != int(x[2])
        assert len({int(r[2]) for r in ra}) == min(2, len(ra))
    ds.config.set_seed(5489)


def _children():
    return [p for p in multiprocessing.active_children() if p.name.startswith("msjax-dataset")]


def _blocks(pid=None):
    """This process's shared blocks (another test process may be making its own meanwhile)."""
    prefix = f"msjax_{os.getpid() if pid is None else pid}_"
    return {f for f in os.listdir("/dev/shm") if f.startswith(prefix)} if os.path.isdir("/dev/shm") else set()


def test_nothing_left_after_break_and_epochs():
    before = _blocks()
    d = ds.GeneratorDataset(Pids(40), ["i", "img", "pid"], num_parallel_workers=2, shuffle=False)
    for k, _ in enumerate(d):                   # early break: the iterator is dropped
        if k == 3:
            break
    gc.collect()
    assert not _children()
    it = d.create_dict_iterator(num_epochs=2, output_numpy=True)
    assert [len(list(it)) for _ in range(2)] == [40, 40]
    assert len(_children()) == 2                # the workers live as long as the iterator
    with pytest.raises(RuntimeError, match="EOF buffer encountered"):
        next(it)
    del it
    assert not _children()
    it = d.create_tuple_iterator(output_numpy=True)
    next(it)
    it.stop()                                   # answers in flight are drained: no block left
    assert not _children() and _blocks() <= before


def test_per_batch_map_on_processes():
    def pbm(img, info):
        return [x * 2 for x in img], [np.array(os.getpid()) for _ in img]

    d = ds.GeneratorDataset(Pids(7), ["i", "img", "pid"], shuffle=False)
    d = d.batch(3, per_batch_map=pbm, input_columns=["img"], output_columns=["img", "bpid"],
                num_parallel_workers=2, python_multiprocessing=True)
    rows = list(d.create_dict_iterator(output_numpy=True))
    assert [r["i"].tolist() for r in rows] == [[0, 1, 2], [3, 4, 5], [6]]
    for r in rows:
        assert r["img"].shape[1:] == (64, 64, 6) and np.array_equal(r["img"][:, 0, 0, 0], 2 * r["i"])
        assert os.getpid() not in r["bpid"].tolist() and (r["pid"] == os.getpid()).all()
    gc.collect()
    assert not _children()


def test_killed_worker_raises():
    class Killer(Pids):
        def __getitem__(self, i):
            if i == 3:
                os.kill(os.getpid(), signal.SIGKILL)
            return super().__getitem__(i)

    d = ds.GeneratorDataset(Killer(8), ["i", "img", "pid"], num_parallel_workers=2, shuffle=False)
    with pytest.raises(RuntimeError, match=r"Dataset worker process \d+ was killed by signal: Killed\."):
        _rows(d)
    gc.collect()
    assert not _children()


class TensorMathSource:
    """Tensor arithmetic, no operator module named: JAX would hang in a forked worker."""
    def __getitem__(self, i):
        return (ms.Tensor(np.full((2,), i, np.float32)) * 2).asnumpy()

    def __len__(self):
        return 4


class HeldTensorSource:
    def __init__(self, w):
        self.w = w

    def __getitem__(self, i):
        return (self.w * i).asnumpy()

    def __len__(self):
        return 4


@pytest.mark.parametrize("source", [TensorMathSource(), HeldTensorSource(ms.Tensor(np.ones(2, np.float32)))],
                         ids=["msjax_names", "msjax_objects"])
def test_sources_that_run_jax_stay_in_this_process(source, monkeypatch):
    from msjax.dataset import sources
    warned = []
    monkeypatch.setattr(sources.logger, "warning", lambda msg, *a: warned.append(msg))
    d = ds.GeneratorDataset(source, ["x"], num_parallel_workers=2, shuffle=False)
    assert d.num_parallel_workers == 1 and warned
    assert [r[0].tolist() for r in _rows(d)] == [[2.0 * i] * 2 if isinstance(source, TensorMathSource) else [i] * 2
                                               for i in range(4)]


def test_map_callables_that_run_jax_stay_on_threads():
    """map(python_multiprocessing=True): a function computing with msjax runs on the map's
    threads; a plain numpy function still goes to the worker processes."""
    def double(x):
        return (ms.Tensor(x) * 2).asnumpy()

    def pid(x):
        return np.array(os.getpid())

    d = ds.NumpySlicesDataset({"x": np.arange(6, dtype=np.float32)}, shuffle=False)
    d = d.map([double], ["x"], num_parallel_workers=2, python_multiprocessing=True)
    d = d.map([pid], ["x"], ["p"], num_parallel_workers=2, python_multiprocessing=True)
    rows = _rows(d)
    assert all(int(p) != os.getpid() for (p,) in rows) and len(rows) == 6
    d = ds.NumpySlicesDataset({"x": np.arange(6, dtype=np.float32)}, shuffle=False)
    d = d.map([double], ["x"], num_parallel_workers=2, python_multiprocessing=True)
    assert [float(r[0]) for r in _rows(d)] == [2.0 * i for i in range(6)]
    gc.collect()
    assert not _children()


def test_main_process_paths():
    calls = []
    d = ds.GeneratorDataset(Pids(4, calls), ["i", "img", "pid"], num_parallel_workers=2)
    assert d.output_shapes() == [[], [64, 64, 6], []] and calls    # getters: no worker processes
    del calls[:]
    assert {int(r[2]) for r in _rows(d)} != {os.getpid()} and not calls

    def gen():                                  # an iterable source: one thread, as MindSpore
        for i in range(3):
            yield np.array(i), os.getpid()
    assert [int(r[1]) for r in _rows(ds.GeneratorDataset(gen, ["i", "pid"], num_parallel_workers=2))] == \
        [os.getpid()] * 3


class OpsSource:
    def __getitem__(self, i):
        import msjax.ops
        return msjax.ops.ones((2,)).asnumpy() * i

    def __len__(self):
        return 4


def test_source_with_operators_gets_one_worker(monkeypatch):
    from msjax.dataset import sources
    warned = []     # MindSpore's warning (through msjax's logger, whatever level an earlier test left)
    monkeypatch.setattr(sources.logger, "warning", lambda msg, *a: warned.append(msg % a if a else msg))
    d = ds.GeneratorDataset(OpsSource(), ["x"], num_parallel_workers=2)
    assert d.num_parallel_workers == 1
    assert any("Here decrease 'num_parallel_workers' into 1." in w for w in warned), warned
    assert ds.GeneratorDataset(Pids(), ["i", "img", "pid"], num_parallel_workers=2).num_parallel_workers == 2


@pytest.mark.skipif(not os.environ.get("MSJAX_DATASET_EXIT_TEST"), reason="starts an interpreter (3 s): "
                    "MSJAX_DATASET_EXIT_TEST=1")
def test_interpreter_exit_leaves_nothing(tmp_path):
    script = tmp_path / "exit.py"
    script.write_text(textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {HERE!r})
        from test_generator_multiprocessing import Pids
        import msjax.dataset as ds
        d = ds.GeneratorDataset(Pids(50), ["i", "img", "pid"], num_parallel_workers=2, shuffle=False)
        it = d.create_tuple_iterator(output_numpy=True)
        print(int(next(it)[0]), os.getpid(), flush=True)
        KEEP = it                               # still iterating when the interpreter exits
    """))
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    first, pid = res.stdout.split()
    assert res.returncode == 0 and first == "0", res.stderr
    assert "leaked" not in res.stderr
    time.sleep(0.2)
    assert not _blocks(pid)
    out = subprocess.run(["pgrep", "-f", str(script)], capture_output=True, text=True).stdout
    assert not out.strip()


def test_fork_while_another_thread_is_in_the_resource_tracker(monkeypatch):
    """A worker forked while another thread of the pipeline holds the resource tracker's lock
    (opening another worker's answer block) still makes shared blocks: before, its copy of the
    lock stayed taken and its first block waited forever (a CI run hung an hour on this)."""
    import threading
    from multiprocessing import resource_tracker

    from msjax.dataset._procpool import ProcessCalls

    resource_tracker.ensure_running()
    lock = resource_tracker._resource_tracker._lock
    taken, release = threading.Event(), threading.Event()

    def hold():           # a thread inside register(): the lock held across a write to the tracker
        with lock:
            taken.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    ensure = resource_tracker.ensure_running

    def ensure_then_other_thread_registers():       # the race, made certain: after the pool's own
        ensure()                                    # check, before its fork
        holder.start()
        taken.wait(10)
        threading.Timer(0.5, release.set).start()

    monkeypatch.setattr(resource_tracker, "ensure_running", ensure_then_other_thread_registers)
    pool = ProcessCalls([lambda i: np.full((64, 64, 6), i, np.float32)], 1)
    got = []
    caller = threading.Thread(target=lambda: got.append(pool.call(0, 3)), daemon=True)
    try:
        caller.start()
        caller.join(30)
        assert not caller.is_alive(), "the worker forked under the tracker's lock never answered"
        assert got[0].shape == (64, 64, 6) and (got[0] == 3).all()
    finally:
        release.set()
        if holder.is_alive():
            holder.join()
        pool.close()
