"""Unit tests for the conformance comparator (pure Python, no msjax/JAX needed).

compare.py is loaded by file path so these tests do not import msjax's top level.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

_PKG = Path(__file__).resolve().parents[1] / "msjax" / "conformance"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"_conformance_{name}", _PKG / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


C = _load("compare")
compare, tokenize, split_expected, find_exception = (
    C.compare, C.tokenize, C.split_expected, C.find_exception)

DOC_GRADS3 = (
    "=== grads 3 ===\n"
    "grad (Tensor(shape=[1, 3], dtype=Float32, value=\n"
    "[[4.00000000e+000, 6.00000000e+000, 8.00000000e+000]]), Tensor(shape=[], dtype=Float32, value= -2))\n"
    "logit (Tensor(shape=[], dtype=Float32, value= 20),)\n"
)
MS210_GRADS3 = (
    "=== grads 3 ===\n"
    "grad (Tensor(shape=[1, 3], dtype=Float32, value=\n"
    "[[ 4.00000000e+00,  6.00000000e+00,  8.00000000e+00]]), Tensor(shape=[], dtype=Float32, value= -2))\n"
    "logit (Tensor(shape=[], dtype=Float32, value= 20),)\n"
)
T13 = "Tensor(shape=[1, 3], dtype=Float32, value=\n[[ 2.00000000e+00,  4.00000000e+00,  6.00000000e+00]])"


def test_identical():
    assert compare(DOC_GRADS3, DOC_GRADS3).ok


def test_exponent_width_e000_vs_e00():
    r = compare(MS210_GRADS3, DOC_GRADS3)
    assert r.ok, r.message


def test_short_float_vs_exponent_form():
    assert compare("[[4. 6. 8.]]", "[[4.00000000e+00, 6.00000000e+00, 8.00000000e+00]]").ok
    assert compare("value= 20.0", "value= 20").ok


def test_whitespace_layout_ignored():
    # the flattened seed-001 markdown lost the newline after "value="
    flat = DOC_GRADS3.replace("value=\n[[", "value= [[")
    assert compare(MS210_GRADS3, flat).ok
    assert compare("grad [[ 6.  9. 12.]]\n", "grad [[ 6. 9. 12.]]").ok
    assert compare("a  b\n\n", "a b").ok


def test_numpy_vs_comma_layout():
    numpy_out = "[[4.5099998 2.7       3.6000001]\n [4.5099998 2.7       3.6000001]]\n"
    doc = "[[4.5099998, 2.7, 3.6000001],\n[4.5099998, 2.7, 3.6000001]]"
    assert compare(numpy_out, doc).ok
    assert compare(doc, numpy_out).ok


def test_rejects_changed_number():
    r = compare("[[4.001 6. 8.]]", "[[4. 6. 8.]]")
    assert not r.ok
    assert "4.001" in r.message and "number mismatch" in r.message
    # 1e-3 off in the last element of a tensor repr
    assert not compare(MS210_GRADS3.replace("8.00000000e+00", "8.00100000e+00"), DOC_GRADS3).ok
    assert not compare("loss 1.001", "loss 1.0").ok


def test_accepts_within_tolerance_and_zero():
    assert compare("1.0000001", "1.0").ok
    assert compare("[3.6000001]", "[3.6]").ok
    assert compare("0.0000001", "0").ok
    assert compare("-0.", "0.").ok
    assert not compare("0.001", "0").ok


def test_rejects_missing_tuple_nesting():
    r = compare(T13, f"({T13},)")
    assert not r.ok, r.message
    assert not compare(f"({T13},)", T13).ok
    assert not compare(f"(({T13},),)", f"({T13},)").ok
    # tuple comma is not an array separator
    assert not compare(f"({T13})", f"({T13},)").ok


def test_rejects_changed_dtype_word():
    r = compare(T13.replace("Float32", "Float16"), T13)
    assert not r.ok
    assert "Float32" in r.message and "Float16" in r.message
    assert not compare(T13.replace("Tensor", "Parameter"), T13).ok


def test_rejects_extra_line():
    exp = "=== grads 7 ===\ngrad [[ 6. 9. 12.]]\n"
    r = compare(exp + "extra\n", exp)
    assert not r.ok and "extra" in r.message
    r = compare(exp + "1.0\n", exp)
    assert not r.ok
    r = compare("=== grads 7 ===\n", exp)
    assert not r.ok and "ends early" in r.message


def test_rejects_different_number_count():
    assert not compare("[[4. 6. 8. 9.]]", "[[4. 6. 8.]]").ok
    assert not compare("[[4. 6.]]", "[[4. 6. 8.]]").ok


def test_rejects_changed_shape_nesting():
    assert not compare("[4. 6. 8.]", "[[4. 6. 8.]]").ok
    assert not compare("[[4.] [6.]]", "[[4. 6.]]").ok


def test_words_with_digits_are_words():
    toks = [t.text for t in tokenize("dtype=Float32")]
    assert toks == ["dtype", "=", "Float32"]
    assert not compare("Float3", "Float32").ok


def test_as_written_precision():
    numpy_out = "[[4.5099998 2.7       3.6000001]\n [4.5099998 2.7       3.6000001]]"
    doc = "[[4.5, 2.7, 3.6],\n[4.5, 2.7, 3.6]]"
    assert not compare(numpy_out, doc).ok
    assert compare(numpy_out, doc, as_written=True).ok
    assert not compare(numpy_out.replace("4.5099998", "4.5600000"), doc, as_written=True).ok


def test_split_expected_exception():
    text = "=== grads 8 ===\nValueError: `grad_position` and `weight` can not be None at the same time.\n"
    out, exc = split_expected(text)
    assert out == "=== grads 8 ===\n"
    assert exc == ("ValueError", "`grad_position` and `weight` can not be None at the same time.")
    out, exc = split_expected("grad [[ 6. 9. 12.]]\n")
    assert exc is None and out == "grad [[ 6. 9. 12.]]\n"
    assert split_expected("") == ("", None)


def test_find_exception_takes_last_traceback_line():
    err = (
        "Traceback (most recent call last):\n"
        '  File "x.py", line 3, in <module>\n'
        "    raise ValueError(\"`grad_position` and `weight` can not be None at the same time.\")\n"
        "ValueError: `grad_position` and `weight` can not be None at the same time.\n"
    )
    assert find_exception(err) == (
        "ValueError", "`grad_position` and `weight` can not be None at the same time.")
    assert find_exception("all good\n") is None
    assert find_exception("mindspore.errors.FooError: bad\n") == ("mindspore.errors.FooError", "bad")
