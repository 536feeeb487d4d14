"""Conformance suite: every documented example x {pynative, graph} under msjax.

Each case runs ``python -m msjax run --mode MODE conformance/seedNNN/NN_name.py``
in a subprocess and compares its stdout with ``NN_name.expected`` using
msjax.conformance.compare (float-formatting tolerant only).
"""

import sys
from pathlib import Path

import pytest

_REPO = Path(__file__).resolve().parents[1]
if str(_REPO) not in sys.path:
    sys.path.insert(0, str(_REPO))

from msjax.conformance import MODES, discover, run_case  # noqa: E402

CASES = discover(_REPO / "conformance")


def test_suite_is_not_empty():
    assert len(CASES) >= 30
    for case in CASES:
        assert case.expected_path.exists(), f"{case.id}: missing {case.expected_path.name}"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_conformance(case, mode):
    result = run_case(case, mode, python=sys.executable)
    assert result.passed, result.message
