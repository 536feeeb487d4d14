"""MindSpore's control-flow system tests (``tests/st/compiler/control``, ``gradient``,
``auto_monad``), the constructs msjax got wrong, against MindSpore 2.10's GRAPH_MODE results
(``tests/golden/cases_st_control.py``, ``st_control_graph.json``)."""
import json
import os
import sys

import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import msjax as ms  # noqa: E402

from golden import cases_st_control  # noqa: E402
from golden.serialize import compare, run_case  # noqa: E402

with open(os.path.join(_TESTS, "golden", "st_control_graph.json")) as _f:
    FIXTURE = json.load(_f)["cases"]


@pytest.fixture(autouse=True)
def _graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_fixture_covers_all_cases():
    assert sorted(FIXTURE) == sorted(cases_st_control.all_cases())


@pytest.mark.parametrize("name", sorted(FIXTURE))
def test_st_control(name):
    problems = compare(FIXTURE[name], run_case(cases_st_control.all_cases()[name], ms))
    assert not problems, "\n".join(problems)
