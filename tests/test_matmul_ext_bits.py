"""Float32 ``ops.matmul`` of 2-D Tensors gives MindSpore 2.10's values bit for bit on the CPU
(``golden/matmul_ext_mindspore.json``, recorded by ``golden/record_matmul_ext.py``): MindSpore's
``MatMulExt`` kernel is oneDNN's matmul, as ``MatMul``'s. Its first PyNative calls run oneDNN's
primitive on the host (``runtime/_host_eager.py``'s twin of the FFI target), the later ones the
compiled program: the same bits. The record is the one of this CPU's instruction set
(``matmul_ext_mindspore.json``: AVX2; ``matmul_ext_mindspore_avx512.json``: AVX-512, where MindSpore's
oneDNN sums 12 of the 16 cases in another order and msjax's does the same); with another instruction set
or thread count than the record's (oneDNN splits its sums by both) the values are checked to float rounding."""
import json
import os
import sys
import weakref

import jax
import numpy as np
import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import msjax as ms  # noqa: E402
from msjax.ops._impl import conv_onednn  # noqa: E402
from msjax.runtime import _host_eager as he  # noqa: E402

from golden.lenet_step import isa_record, machine, record_path  # noqa: E402
from golden.matmul_ext import digest, matmul_ext_cases, operands  # noqa: E402

_RECORD = os.path.join(_TESTS, "golden", "matmul_ext_mindspore.json")
with open(isa_record(_RECORD)) as _f:
    _DOC = json.load(_f)

pytestmark = pytest.mark.skipif(conv_onednn.backend() != "ffi", reason="msjax's native oneDNN kernels not built")
SAME_MACHINE = {k: _DOC["meta"][k] for k in ("isa", "threads")} == machine()


def _check(name, got):
    want = _DOC["cases"][name]
    if SAME_MACHINE:
        assert got["sha256"] == want["sha256"], (name, got["head"], want["head"])
    else:
        np.testing.assert_allclose(got["head"], want["head"], rtol=1e-5, err_msg=name)


def test_each_record_is_of_its_instruction_set():
    """Both records hold the same cases, each made on the instruction set its name says, and they differ
    (MindSpore's oneDNN rounds by instruction set: one record could not serve both)."""
    docs = {}
    for isa in ("avx2", "avx512"):
        with open(record_path(_RECORD, isa)) as f:
            docs[isa] = json.load(f)
        assert docs[isa]["meta"]["isa"] == isa
    assert sorted(docs["avx2"]["cases"]) == sorted(docs["avx512"]["cases"])
    assert any(docs["avx2"]["cases"][k]["sha256"] != docs["avx512"]["cases"][k]["sha256"] for k in docs["avx2"]["cases"])


def test_matmul_values_are_mindspores():
    ours = matmul_ext_cases(ms)
    assert sorted(ours) == sorted(_DOC["cases"])
    for name, got in ours.items():
        _check(name, got)


def test_first_host_calls_and_the_compiled_one_agree(monkeypatch):
    monkeypatch.setattr(he, "_TABLE", weakref.WeakKeyDictionary())
    monkeypatch.setattr(he, "HOST_BUDGET_MS", 0.0)       # the call after THRESHOLD host calls compiles
    monkeypatch.setattr(he, "STORE", [None])
    monkeypatch.setattr(he, "_ON", True)
    jax.clear_caches()
    a, b = operands(3, 5, 3, 3)                          # an odd shape; the case "3x5x3"
    x, y = ms.Tensor(a), ms.Tensor(b)
    paths, outs = [], []
    for _ in range(he.THRESHOLD + 2):
        before = he.stats()
        outs.append(ms.ops.matmul(x, y).asnumpy())
        paths.append("host" if he.stats()["host"] > before["host"] else "compiled")
    assert paths[0] == "host" and "compiled" in paths
    for out in outs:
        _check("3x5x3", {"sha256": digest(out), "head": out.ravel()[:4].tolist()})
    jax.clear_caches()
