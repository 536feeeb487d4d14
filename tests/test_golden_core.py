"""Golden tests: msjax must reproduce MindSpore 2.10's recorded results.

Fixtures (tests/golden/core_pynative.json, core_graph.json) were recorded from
real MindSpore by tests/golden/record_mindspore.py; each case in
tests/golden/cases_core.py is run here with ``msjax`` passed as ``ms`` and the
serialized result is compared:

* tensors: dtype, shape exactly; values with rtol=1e-5, atol=1e-6
  (integer/bool dtypes exactly); strings (repr/str cases) exactly;
* errors: the exception class name exactly, plus the key phrase from
  KEY_PHRASES where MindSpore's message is meaningful.

Every case also runs in GRAPH_MODE against the PyNative fixture: msjax gives
PyNative's results in both modes. core_graph.json records where MindSpore's own
GRAPH_MODE diverges (see docs/differences.md); it documents, it is not a target.

Environment switch:
  MSJAX_GOLDEN_STRICT_MESSAGES=1  require exception messages to match exactly
"""
import json
import os
import sys

import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_TESTS)
for _p in (_ROOT, _TESTS):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import msjax as ms  # noqa: E402

from golden import cases_core  # noqa: E402
from golden.serialize import compare, run_case  # noqa: E402

_GOLDEN = os.path.join(_TESTS, "golden")
STRICT_MESSAGES = os.environ.get("MSJAX_GOLDEN_STRICT_MESSAGES") == "1"

# case name -> substring that msjax's exception message must contain.
# Only for messages that are meaningful to a user (not C++ internals).
_NONE_NONE = "`grad_position` and `weight` can not be None at the same time."
_POS_TYPE = "the 'grad_position' must be int or tuple."
_HAS_AUX_MULTI = "When has_aux is True, origin fn requires more than one outputs."
_WEIGHTS_TYPE = "The weights you provided is expected to be a tensor, or a list or tuple. but got"
_MISSING_Y = "missing 1 required positional argument: 'y'"
_TENSOR_TYPE = "For 'Tensor', the type of 'input_data' should be one of"
_ONE_ELEMENT = "The tensor should have only one element, but got 2, more than one element is ambiguous."
KEY_PHRASES = {
    "grad_posNone_none_aux": _NONE_NONE,
    "vag_posNone_none_aux": _NONE_NONE,
    "err_grad_none_none": _NONE_NONE,
    "err_grad_none_none_construct_only": _NONE_NONE,
    "err_vag_none_none": _NONE_NONE,
    "err_vag_none_none_construct_only": _NONE_NONE,
    "err_grad_position_out_of_range": "Position index 5 is exceed input size.",
    "err_grad_position_out_of_range_2": "Position index 2 is exceed input size.",
    "err_grad_position_tuple_out_of_range": "Position index 3 is exceed input size.",
    "err_vag_position_out_of_range": "Position index 5 is exceed input size.",
    "err_grad_position_negative": "grad_position must be >= 0.",
    "err_grad_position_negative_in_tuple": "The element in grad_position must be >= 0.",
    "err_grad_position_float": _POS_TYPE,
    "err_grad_position_str": _POS_TYPE,
    "err_grad_position_list": _POS_TYPE,
    "err_vag_position_float": _POS_TYPE,
    "err_grad_position_empty_tuple": "grad_position should not be empty when grad by position",
    "err_grad_position_duplicates": "There are duplicate positions in `grad_position`",
    "err_has_aux_single_output": _HAS_AUX_MULTI,
    "err_vag_has_aux_single_output": _HAS_AUX_MULTI,
    "err_has_aux_not_bool": "the 'has_aux' should be bool, but got int",
    "err_has_aux_str": "the 'has_aux' should be bool, but got str",
    "err_vag_has_aux_not_bool": "the 'has_aux' should be bool, but got int",
    "err_weights_int": _WEIGHTS_TYPE + " 1",
    "err_weights_dict": _WEIGHTS_TYPE,
    "err_grad_fn_not_callable": "The fn should be callable, but got int",
    "err_grad_wrong_num_args_missing": _MISSING_Y,
    "err_grad_function_wrong_num_args": _MISSING_Y,
    "err_gradop_sens_missing": _MISSING_Y,
    "err_gradop_wrong_num_args": _MISSING_Y,
    "err_grad_wrong_num_args_extra": "takes 3 positional arguments but 4 were given",
    "err_grad_no_args": "missing 2 required positional arguments",
    "err_gradop_get_all_not_bool": "For 'GradOperation', the 'get_all' should be bool, but got int",
    "err_gradop_get_all_str": "For 'GradOperation', the 'get_all' should be bool, but got str",
    "err_gradop_get_by_list_not_bool": "For 'GradOperation', the 'get_by_list' should be bool, but got int",
    "err_gradop_sens_param_not_bool": "For 'GradOperation', the 'sens_param' should be bool, but got NoneType",
    "err_tensor_bad_data": _TENSOR_TYPE,
    "err_tensor_none": _TENSOR_TYPE,
    "err_tensor_ragged": "that contain unsupported element.",
    "err_parametertuple_of_tensors": "ParameterTuple input should be 'Parameter' collection",
    "err_parameter_duplicate_names_in_tuple": "its name 'same' already exists. Please set a unique name for the parameter.",
    "tensor_item_multi_error": _ONE_ELEMENT,
    "tensor_bool_of_array_error": _ONE_ELEMENT,
    "grad_return_ids_pos1": "Cannot iterate over a scalar tensor.",
    "grad_return_ids_pos1_aux": "Cannot iterate over a scalar tensor.",
}


def _load(name):
    path = os.path.join(_GOLDEN, name)
    with open(path) as f:
        data = json.load(f)
    return data["meta"], data["cases"]


PYNATIVE_META, PYNATIVE = _load("core_pynative.json")
CASES = cases_core.all_cases()


def _set_mode(graph):
    set_context = getattr(ms, "set_context", None)
    if set_context is None:
        return
    mode = getattr(ms, "GRAPH_MODE" if graph else "PYNATIVE_MODE", None)
    if mode is not None:
        set_context(mode=mode)


def _check(name, expected, meta):
    actual = run_case(CASES[name], ms)
    soft = []
    problems = compare(expected, actual, soft=soft)
    if expected.get("kind") == "error" and actual.get("kind") == "error":
        phrase = KEY_PHRASES.get(name)
        if phrase is not None and phrase not in actual["message"]:
            problems.append("exception message must contain %r; got %r" % (
                phrase, actual["message"]))
        if STRICT_MESSAGES:
            problems.extend(soft)
    if problems:
        pytest.fail("golden mismatch vs MindSpore %s (%s) for case %r:\n  %s" % (
            meta.get("mindspore_version"), meta.get("mode"), name,
            "\n  ".join(problems)), pytrace=False)


def test_fixture_covers_all_cases():
    missing = sorted(set(CASES) - set(PYNATIVE))
    stale = sorted(set(PYNATIVE) - set(CASES))
    assert not missing and not stale, (
        "fixture out of date; re-run /tmp/ms/bin/python tests/golden/record_mindspore.py "
        "(missing=%s, stale=%s)" % (missing, stale))


@pytest.mark.parametrize("name", sorted(PYNATIVE))
def test_golden_pynative(name):
    if name not in CASES:
        pytest.fail("case %r is in the fixture but not in cases_core.py; re-record" % name)
    _set_mode(graph=False)
    _check(name, PYNATIVE[name], PYNATIVE_META)


@pytest.mark.parametrize("name", sorted(PYNATIVE))
def test_graph_mode_gives_pynative_results(name):
    """msjax's GRAPH_MODE follows MindSpore's PyNative results (the same numbers
    in both modes); MindSpore's own graph-mode divergences, recorded in
    core_graph.json, are listed in docs/differences.md."""
    if name not in CASES:
        pytest.fail("case %r is in the fixture but not in cases_core.py; re-record" % name)
    _set_mode(graph=True)
    try:
        _check(name, PYNATIVE[name], PYNATIVE_META)
    finally:
        _set_mode(graph=False)
