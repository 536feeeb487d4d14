"""Ctrl-C once programs run ends the process by SIGTERM, as MindSpore 2.10's runtime does (issue 36):
``msjax.runtime._interrupt``; Ctrl-C in a dataset-only loop raises ``KeyboardInterrupt`` (nothing
armed, as in MindSpore) and the interpreter's exit waits for the iterators' producer threads. The
end-to-end cases are recorded from MindSpore 2.10 (``tests/golden/record_sigint.py``)."""
import gc
import json
import os
import signal
import sys
import threading
import time

import numpy as np

import pytest

from msjax.runtime import _interrupt

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
sys.path.insert(0, HERE)
from record_sigint import DATASET_SCRIPT, FIXTURE, SCRIPT, outcome  # noqa: E402


def test_ctrl_c_during_model_train_as_mindspore():
    """A SIGINT at step 3 of ``Model.train`` under ``msjax run``: killed by SIGTERM, no
    KeyboardInterrupt traceback, no atexit hook, the same stdout as MindSpore 2.10."""
    with open(FIXTURE) as f:
        expected = json.load(f)["train_pynative"]
    assert expected["returncode"] == -signal.SIGTERM
    assert outcome([sys.executable, "-m", "msjax", "run", SCRIPT]) == expected


def test_ctrl_c_in_a_dataset_loop_as_mindspore():
    """A SIGINT at the third batch of a dataset-only loop: KeyboardInterrupt's traceback, the atexit
    hook, killed by SIGINT (-2), the same stdout as MindSpore 2.10."""
    with open(FIXTURE) as f:
        expected = json.load(f)["dataset_loop"]
    assert expected["returncode"] == -signal.SIGINT
    assert outcome([sys.executable, "-m", "msjax", "run", DATASET_SCRIPT]) == expected


def test_exit_waits_for_a_busy_producer():
    """The interpreter's exit (threading's shutdown hook) waits for a producer thread to leave the
    row it is computing, also when its iterator is gone (a ``for`` loop's, dropped as Ctrl-C left
    the loop): a producer still in native code (a JAX transfer) when the interpreter finalizes is
    ended by ``pthread_exit`` there and aborts the process ("FATAL: exception not rethrown", exit
    status 134). The producer here is 1.5 s into its second row (the hook waited 1 s, for live
    iterators' producers only)."""
    from msjax.dataset import GeneratorDataset, engine

    def rows():
        yield (np.zeros(2, np.float32),)
        time.sleep(1.5)      # stands for native code: the GIL released, longer than a second
        yield (np.ones(2, np.float32),)
    it = GeneratorDataset(rows, ["x"], shuffle=False).create_tuple_iterator(output_numpy=True)
    next(it)
    producer = it._thread
    stop = engine._PRODUCERS[producer]
    del it
    gc.collect()
    assert producer.is_alive() and stop.is_set()       # the iterator's finalizer stopped it
    engine._stop_and_wait([], {producer: stop})
    assert not producer.is_alive() and producer not in engine._PRODUCERS
    assert any(getattr(f, "func", f) is engine._stop_all_iterators      # runs before finalization
               for f in threading._threading_atexits)


@pytest.fixture
def fresh(monkeypatch):
    """An unarmed module with Python's default SIGINT handler; the test's handler restored after."""
    old = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(_interrupt, "_ARMED", [False])
    signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def test_arm_replaces_python_default_handler_once(fresh):
    _interrupt.arm()
    assert _interrupt.armed() and signal.getsignal(signal.SIGINT) is _interrupt._terminate
    signal.signal(signal.SIGINT, signal.default_int_handler)     # the script's own choice later
    _interrupt.arm()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_arm_keeps_a_script_handler(fresh):
    def mine(signum, frame):
        pass
    signal.signal(signal.SIGINT, mine)
    _interrupt.arm()
    assert _interrupt.armed() and signal.getsignal(signal.SIGINT) is mine


def test_arm_waits_for_the_main_thread(fresh):
    t = threading.Thread(target=_interrupt.arm)
    t.start()
    t.join()
    assert not _interrupt.armed() and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    _interrupt.arm()
    assert signal.getsignal(signal.SIGINT) is _interrupt._terminate


def test_first_program_run_arms(fresh):
    import numpy as np
    import jax.numpy as jnp
    jnp.add(np.float32(1), np.float32(np.random.rand()))    # a program run through the eager hook
    assert signal.getsignal(signal.SIGINT) is _interrupt._terminate
