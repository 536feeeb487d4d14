"""Issue 33: the main job's LeNet5 step gives MindSpore 2.10's numbers bit for bit on the CPU.

``golden/lenet_step_mindspore.json`` (``golden/record_lenet_step.py`` runs ``golden/lenet_step.py``
under MindSpore 2.10): each layer's output, the loss, every gradient, and two Momentum steps
with weight decay, as SHA-256 digests. msjax computes them with oneDNN's
convolution and matmul primitives on MindSpore's layouts, MindSpore's sparse softmax
cross-entropy arithmetic and its ApplyMomentum rounding.

Every value is bit-exact, ``conv1``'s weight gradient (one input channel) included: its gemm runs
on one thread while the primitive runs, as in MindSpore (see ``CurrentThreadsOne`` in
``msjax/ops/_native/conv_dnnl.cc``; on two threads its sum is split in two and differs in the last
bits). The bits depend on the instruction set and the thread count oneDNN builds its primitives
for: on a machine other than the recording one's, every value is checked to 1e-5 instead."""
import json
import os
import sys

import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import msjax as ms  # noqa: E402
from msjax.ops._impl import conv_onednn  # noqa: E402

from golden.lenet_step import lenet_step_cases, machine  # noqa: E402

with open(os.path.join(_TESTS, "golden", "lenet_step_mindspore.json")) as _f:
    _DOC = json.load(_f)
GOLDEN, META = _DOC["cases"], _DOC["meta"]

pytestmark = pytest.mark.skipif(conv_onednn.backend() != "ffi", reason="msjax's native oneDNN kernels not built")


@pytest.fixture(scope="module")
def results():
    old = ms.context.get_context("mode")
    try:
        return lenet_step_cases(ms)
    finally:
        ms.set_context(mode=old)


def _close(got, want, rel):
    scale = max(abs(want["abs_sum"]), 1e-30)
    assert abs(got["abs_sum"] - want["abs_sum"]) <= rel * scale
    for a, b in zip(got["head"], want["head"]):
        assert abs(a - b) <= rel * max(abs(b), scale / max(1, len(got["head"])))


def test_cases_match_the_fixture(results):
    assert sorted(results) == sorted(GOLDEN)


def test_every_value_is_mindspores(results):
    here = machine()
    exact = here["isa"] == META["isa"] and here["threads"] == META["threads"]
    differ = []
    for name, want in GOLDEN.items():
        got = results[name]
        assert got["shape"] == want["shape"], name
        if exact:
            if got["sha256"] != want["sha256"]:
                differ.append(name)
        else:
            _close(got, want, 1e-5)
    assert not differ, f"not MindSpore's bits: {differ}"
