"""Golden suites recorded in GRAPH_MODE: every ``tests/golden/cases_<suite>.py`` with a
``<suite>_graph.json`` (the core suite aside: ``test_golden_core.py``) replayed through msjax in
GRAPH_MODE and compared with MindSpore 2.10's GRAPH_MODE results: values, dtypes, nesting (tuple vs
list), exception types and messages.

* ``graph_syntax``: the compile tutorials' static-graph Python and ``tests/st/compiler``'s syntax
  constructs. Where msjax differs on purpose (docs/differences.md, "Static-graph syntax") the cases
  record what both agree on.
* ``fallback``: MindSpore's JIT Fallback (Python builtins, NumPy and third-party code in graphs).
* ``st_control``: ``tests/st/compiler/control``, ``gradient`` and ``auto_monad``'s constructs."""
import glob
import importlib
import json
import os
import sys

import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import msjax as ms  # noqa: E402

from golden.serialize import compare, run_case  # noqa: E402

_GOLDEN = os.path.join(_TESTS, "golden")
SUITES = sorted(os.path.basename(p)[:-len("_graph.json")] for p in glob.glob(os.path.join(_GOLDEN, "*_graph.json"))
                if os.path.basename(p) != "core_graph.json")


def _fixture(suite):
    with open(os.path.join(_GOLDEN, suite + "_graph.json")) as f:
        return json.load(f)["cases"]


FIXTURES = {s: _fixture(s) for s in SUITES}

# msjax keeps Float32 for integer inputs' gradients of a float output in graphs, where MindSpore's
# backward rules cast some to the input's dtype (truncating: Mul, Cast, Tensor-Tensor Div/Add) and
# keep others Float32 (scalar Div, Neg, Sqrt; op by op table in docs/differences.md, "Static-graph
# syntax", from bench/int_grad_dtypes.py): casting all would truncate `x / 3`'s 0.333 to 0.
KNOWN_DIFFERENCES = {
    "graph_syntax:sg29_int_grads_cast_to_input_dtype":
        "integer inputs' gradients of a float output keep Float32 in graphs",
}


@pytest.fixture(autouse=True)
def _graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_the_graph_suites_are_there():
    assert {"graph_syntax", "fallback", "st_control"} <= set(SUITES)


@pytest.mark.parametrize("suite", SUITES)
def test_fixture_covers_all_cases(suite):
    cases = importlib.import_module("golden.cases_" + suite).all_cases()
    assert sorted(FIXTURES[suite]) == sorted(cases)


@pytest.mark.parametrize("suite,name", [(s, n) for s in SUITES for n in sorted(FIXTURES[s])],
                         ids=[f"{s}:{n}" for s in SUITES for n in sorted(FIXTURES[s])])
def test_golden_graph(suite, name):
    case = importlib.import_module("golden.cases_" + suite).all_cases()[name]
    problems = compare(FIXTURES[suite][name], run_case(case, ms))
    if problems and f"{suite}:{name}" in KNOWN_DIFFERENCES:
        pytest.xfail(KNOWN_DIFFERENCES[f"{suite}:{name}"])
    assert not problems, "\n".join(problems)
