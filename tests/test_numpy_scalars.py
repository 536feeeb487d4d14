"""MindSpore-era NumPy idioms on one-element results (issue 22): ``float(x.asnumpy())`` and
``'%f' % x.asnumpy()`` on shape-(1,) arrays, ``float(t)``/``int(t)``/``'%f' % t`` on Tensors,
compared case by case with MindSpore 2.10 (NumPy 1.26), recorded by
tests/fixtures/record_numpy_scalars.py. NumPy 2.4 refuses the array cases (TypeError):
pyproject.toml keeps NumPy below 2.4."""
import importlib.util
import json
import os

import numpy as np
import pytest

import msjax as ms

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def _recorder():
    spec = importlib.util.spec_from_file_location("record_numpy_scalars",
                                                  os.path.join(HERE, "record_numpy_scalars.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


REC = _recorder()
with open(os.path.join(HERE, "numpy_scalars_mindspore.json")) as f:
    GOLDEN = json.load(f)


def test_recorded_against_numpy_1():
    assert GOLDEN["numpy"].startswith("1.") and GOLDEN["mindspore"] == "2.10.0"
    assert set(GOLDEN["cases"]) == {f"{t}: {e}" for t, e in REC.CASES}


def test_numpy_pin_keeps_one_element_conversions():
    major, minor = (int(p) for p in np.__version__.split(".")[:2])
    assert (major, minor) < (2, 4), f"NumPy {np.__version__}: float() of a shape-(1,) array is a TypeError"


@pytest.mark.parametrize("tname", sorted(REC.TENSORS))
def test_idioms_as_mindspore(tname):
    got = REC.run(ms.Tensor)
    for key, want in GOLDEN["cases"].items():
        if key.startswith(f"{tname}: "):
            assert got[key] == want, key
