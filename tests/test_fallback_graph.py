"""MindSpore's JIT Fallback in GRAPH_MODE (Python builtins, NumPy and third-party code inside
``ms.jit``): ``tests/golden/cases_fallback.py`` against the results MindSpore 2.10 gave in
GRAPH_MODE (``fallback_graph.json``): values, dtypes, nesting, exception types and messages."""
import json
import os
import sys

import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import msjax as ms  # noqa: E402

from golden import cases_fallback  # noqa: E402
from golden.serialize import compare, run_case  # noqa: E402

with open(os.path.join(_TESTS, "golden", "fallback_graph.json")) as _f:
    FIXTURE = json.load(_f)["cases"]


@pytest.fixture(autouse=True)
def _graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_fixture_covers_all_cases():
    assert sorted(FIXTURE) == sorted(cases_fallback.all_cases())


@pytest.mark.parametrize("name", sorted(FIXTURE))
def test_fallback(name):
    problems = compare(FIXTURE[name], run_case(cases_fallback.all_cases()[name], ms))
    assert not problems, "\n".join(problems)
