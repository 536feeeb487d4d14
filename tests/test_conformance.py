"""Conformance suite: every documented example x {pynative, graph} under msjax.

Each case runs ``python -m msjax run --mode MODE conformance/seedNNN/NN_name.py``
in a subprocess and compares its stdout with ``NN_name.expected`` using
msjax.conformance.compare (float-formatting tolerant only).
"""

import fcntl
import os
import pickle
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

_REPO = Path(__file__).resolve().parents[1]
if str(_REPO) not in sys.path:
    sys.path.insert(0, str(_REPO))

from msjax.conformance import MODES, discover, run_case  # noqa: E402
from msjax.conformance.preloaded import PreloadedRunner  # noqa: E402

CASES = discover(_REPO / "conformance")


def test_suite_is_not_empty():
    assert len(CASES) >= 30
    for case in CASES:
        assert case.expected_path.exists(), f"{case.id}: missing {case.expected_path.name}"


def _run_all():
    work = [(c, m) for c in CASES for m in MODES]
    # each example in its own process, forked from one that has msjax imported already
    with PreloadedRunner() as runner, ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        done = list(pool.map(lambda cm: run_case(cm[0], cm[1], python=sys.executable, runner=runner), work))
    return {(c.id, m): r for (c, m), r in zip(work, done)}


@pytest.fixture(scope="session")
def results(tmp_path_factory, worker_id):
    """Every example in both modes, run once per test session on all cores at once (each
    test then reports its own result). Under pytest-xdist the workers share one run through
    a file in pytest's common base folder, behind a lock: xdist_group alone still let both
    workers collect conformance tests and run the examples twice."""
    if worker_id == "master":
        return _run_all()
    root = tmp_path_factory.getbasetemp().parent
    data = root / "conformance_results.pickle"
    with open(root / "conformance_results.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if data.is_file():
            return pickle.loads(data.read_bytes())
        res = _run_all()
        data.write_bytes(pickle.dumps(res))
        return res


@pytest.mark.xdist_group("conformance")  # one worker runs the module fixture (pytest-xdist --dist loadgroup)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_conformance(case, mode, results):
    result = results[case.id, mode]
    assert result.passed, result.message
