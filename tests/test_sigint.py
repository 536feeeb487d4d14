"""Ctrl-C once programs run ends the process by SIGTERM, as MindSpore 2.10's runtime does (issue 36):
``msjax.runtime._interrupt``. The end-to-end case is recorded from MindSpore 2.10
(``tests/golden/record_sigint.py``)."""
import json
import os
import signal
import sys
import threading

import pytest

from msjax.runtime import _interrupt

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
sys.path.insert(0, HERE)
from record_sigint import FIXTURE, SCRIPT, outcome  # noqa: E402


def test_ctrl_c_during_model_train_as_mindspore():
    """A SIGINT at step 3 of ``Model.train`` under ``msjax run``: killed by SIGTERM, no
    KeyboardInterrupt traceback, no atexit hook, the same stdout as MindSpore 2.10."""
    with open(FIXTURE) as f:
        expected = json.load(f)["train_pynative"]
    assert expected["returncode"] == -signal.SIGTERM
    assert outcome([sys.executable, "-m", "msjax", "run", SCRIPT]) == expected


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
