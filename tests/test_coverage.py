"""The coverage tool's notion of "checked" (msjax/_coverage.py), on small traced runs."""
import sys

import numpy as np
import pytest

import msjax as ms
from msjax import _coverage as cov


def _precision_run():
    m = ms.train.Precision()
    m.update(ms.Tensor(np.eye(2, dtype=np.float32)), ms.Tensor(np.array([0, 1], np.int32)))
    return m.eval()


def test_inherited_methods_check_the_instance_class_only():
    """Precision defines no method of its own: running it checks Precision, not its sibling Recall."""
    t = cov.Tracer()
    out = t.run(_precision_run)
    assert np.allclose(out, [1.0, 1.0])
    classes = t.classes()
    assert cov.is_checked(ms.train.Precision, t.codes, classes)
    assert not cov.is_checked(ms.train.Recall, t.codes, classes)
    assert sys.getprofile() is None


def test_user_subclass_checks_its_nearest_msjax_base():
    class Mine(ms.train.Callback):
        def __init__(self):
            self.seen = []

        def begin(self, run_context):
            self.seen.append(run_context)

    cb = Mine()
    t = cov.Tracer()
    t.run(cb.on_train_begin, "ctx")  # Callback.on_train_begin calls the old-style hook
    assert cb.seen == ["ctx"]
    assert ms.train.Callback in t.classes()
    assert cov.is_checked(ms.Callback, t.codes, t.classes())
    assert not cov.is_checked(ms.train.TimeMonitor, t.codes, t.classes())


def test_untouched_class_and_undeclared_constant_are_not_checked():
    t = cov.Tracer()
    t.run(lambda: ms.Tensor([1.0, 2.0], ms.float32) + 1)
    assert not cov.is_checked(ms.train.MAE, t.codes, t.classes())
    assert not cov.is_checked(ms.GRAPH_MODE, t.codes, t.classes(), set(), "mindspore.GRAPH_MODE")
    assert cov.is_checked(ms.GRAPH_MODE, t.codes, t.classes(), {"mindspore.GRAPH_MODE"}, "mindspore.GRAPH_MODE")


def test_profile_is_removed_when_the_run_raises():
    t = cov.Tracer()
    with pytest.raises(ZeroDivisionError):
        t.run(lambda: 1 / 0)
    assert sys.getprofile() is None


def test_reference_checks_count_only_passing_tests_that_ran_the_name(tmp_path):
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "reference_checks.py").write_text(
        "REFERENCE_CHECKS = {\n"
        "    'mindspore.ops.roll': ('test_ref.py::test_uses_roll', 'why'),\n"
        "    'mindspore.nn.Roll': ('test_ref.py::test_uses_roll', 'why'),\n"
        "    'mindspore.ops.scalar_to_array': ('test_ref.py::test_fails', 'why'),\n"
        "}\n")
    (tests / "test_ref.py").write_text(
        "import msjax as ms\n"
        "def test_uses_roll():\n"
        "    assert ms.ops.roll(ms.Tensor([1, 2, 3]), 1).asnumpy().tolist() == [3, 1, 2]\n"
        "def test_fails():\n"
        "    ms.ops.scalar_to_array(1.0)\n"
        "    assert False\n")
    done = cov.reference_checked(tmp_path)
    assert done == {"mindspore.ops.roll": "why"}
    assert sys.getprofile() is None
