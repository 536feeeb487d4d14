"""Issue 33: under ``set_seed`` the initializers and the ``nn`` layers' default parameters draw
MindSpore 2.10's values bit for bit, and leave NumPy's global generator where MindSpore leaves it.

``golden/init_draws_mindspore.json`` holds MindSpore 2.10's records (``golden/record_init_draws.py``
runs the cases of ``golden/init_draws.py``): each parameter's SHA-256 and first values, and the
next ``np.random.random()``; every case is compared exactly, in PyNative and GRAPH_MODE."""
import json
import os
import sys

import numpy as np
import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import msjax as ms  # noqa: E402
from msjax.common import _philox  # noqa: E402

from golden.init_draws import init_cases  # noqa: E402

with open(os.path.join(_TESTS, "golden", "init_draws_mindspore.json")) as _f:
    GOLDEN = json.load(_f)["cases"]


_RESULTS = {}


def _results(mode):
    """The cases run once per mode; GRAPH_MODE runs the layers only (an initializer's draw is host code)."""
    if mode not in _RESULTS:
        old = ms.context.get_context("mode")
        ms.set_context(mode=ms.PYNATIVE_MODE if mode == "pynative" else ms.GRAPH_MODE)
        try:
            _RESULTS[mode] = init_cases(ms, layers_only=mode == "graph")
        finally:
            ms.set_context(mode=old)
    return _RESULTS[mode]


# one worker computes the draws (each mode once) for all the cases under pytest-xdist
pytestmark = pytest.mark.xdist_group("init_draws")

PARAMS = [("pynative", c) for c in sorted(GOLDEN)] + [("graph", c) for c in sorted(GOLDEN) if c.startswith("layer_")]


@pytest.mark.parametrize("mode,case", PARAMS, ids=[f"{m}-{c}" for m, c in PARAMS])
def test_draws_match_mindspore(mode, case):
    assert _results(mode)[case] == GOLDEN[case]


def test_fixture_covers_all_cases():
    assert sorted(_results("pynative")) == sorted(GOLDEN)


# MindSpore 2.10's C++ draws (mindspore._c_expression._random_uniform/_random_normal/_truncated_normal)
# for seed 12345 and 10 elements: the generator's first words, beside the chunked tail above
PHILOX_12345 = {
    "uniform": (lambda: _philox.uniform(12345, (10,), -1.0, 1.0),
                [0.29665684700012207, -0.5883027911186218, -0.23487304151058197, 0.4108627736568451]),
    "normal": (lambda: _philox.normal(12345, (10,), 0.0, 1.0),
               [-0.2672114968299866, 0.20863831043243408, -0.515648603439331, 0.667035698890686]),
    "truncated": (lambda: _philox.truncated_normal(12345, (10,), -2.0, 2.0, 0.0, 1.0),
                  [0.3626837730407715, -0.7747876048088074, -0.2847786247730255, 0.5131711959838867]),
}


@pytest.mark.parametrize("kind", sorted(PHILOX_12345))
def test_philox_streams(kind):
    make, want = PHILOX_12345[kind]
    got = make()
    assert [float(v) for v in got[:3]] + [float(got[-1])] == want


def test_unseeded_draws_differ():
    a = ms.common.initializer.initializer("normal", (4, 4)).asnumpy()
    b = ms.common.initializer.initializer("normal", (4, 4)).asnumpy()
    assert not np.array_equal(a, b)


def test_subclass_filling_initialize():
    """A user Initializer that overrides only ``_initialize(arr)`` (MindSpore's protocol; the zoo's
    EfficientNetV2 and Inception initializers) fills the Parameter's array."""
    from msjax.common.initializer import Initializer, initializer

    class Arange(Initializer):
        def _initialize(self, arr):
            arr[:] = np.arange(arr.size, dtype=arr.dtype).reshape(arr.shape)

    t = initializer(Arange(), [2, 3], ms.float32)
    np.testing.assert_array_equal(t.asnumpy(), np.arange(6, dtype=np.float32).reshape(2, 3))
