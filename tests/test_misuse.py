"""Misuse never leaks JAX: every input of ``tests/golden/cases_misuse.py`` (113
misuses of the gradient API, transforms, Tensors, Parameters, Cells, optimizers)
raises MindSpore 2.10's exception type (recorded in ``misuse_pynative.json``) in
PyNative and GRAPH_MODE, with a clear message and never a ``jax.*``/``jaxlib``
exception or a raw JAX TypeError."""
import json
import os
import sys

import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import msjax as ms  # noqa: E402
from golden.cases_misuse import MISUSES  # noqa: E402

_JAX_PHRASES = ("Tracer", "jaxpr", "not a valid JAX type", "jax.", "XLA", "jnp.", "incompatible shapes for broadcasting",
                "ConcretizationTypeError", "float0")


def _expected():
    with open(os.path.join(_TESTS, "golden", "misuse_pynative.json")) as f:
        cases = json.load(f)["cases"]
    out = {}
    for c in cases.values():
        for name, v in c["items"].items():
            out[name] = v["value"] if v["kind"] == "str" else v["items"]["error"]["value"]
    return out


EXPECTED = _expected()


def test_at_least_100_misuses_recorded():
    assert len(MISUSES) >= 100
    assert set(EXPECTED) == {n for n, _ in MISUSES}
    assert sum(1 for v in EXPECTED.values() if v != "ok") >= 100


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
def test_misuse_raises_mindspore_exceptions(graph):
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    problems = []
    try:
        for name, fn in MISUSES:
            try:
                fn(ms)
                got, msg, mod = "ok", "", ""
            except Exception as e:  # noqa: BLE001
                got, msg, mod = type(e).__name__, str(e), type(e).__module__
            if got != EXPECTED[name]:
                problems.append(f"{name}: MindSpore raises {EXPECTED[name]}, msjax {got}: {msg[:120]}")
            if mod.split(".")[0] in ("jax", "jaxlib"):
                problems.append(f"{name}: a JAX exception reached the user ({mod}.{got}): {msg[:120]}")
            if got != "ok" and (len(msg.strip()) < 10 or any(p in msg for p in _JAX_PHRASES)):
                problems.append(f"{name}: unclear or JAX-internal message: {msg[:160]!r}")
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert not problems, "\n".join(problems)
