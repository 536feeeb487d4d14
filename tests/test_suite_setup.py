"""The test run's own setup (tests/conftest.py): where the environment forbids bytecode beside
the sources, the run's processes share a bytecode cache, laid out where Python looks for it."""
import importlib.util
import os
import sys

import jax
import numpy as np

import conftest


def test_bytecode_cache_is_where_python_looks(tmp_path, monkeypatch):
    prefix = str(tmp_path / "pyc")
    monkeypatch.setattr(sys, "pycache_prefix", None)
    monkeypatch.setitem(conftest._SESSION_TMP, "bytecode", conftest._SESSION_TMP["bytecode"])   # the run's own
    monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    conftest._bytecode_cache(prefix, (np, jax))
    assert not os.path.exists(prefix) and "PYTHONPYCACHEPREFIX" not in os.environ, "bytecode allowed: nothing changes"

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    conftest._bytecode_cache(prefix, (np, jax))
    assert os.environ["PYTHONPYCACHEPREFIX"] == prefix and "PYTHONDONTWRITEBYTECODE" not in os.environ
    # an imported module's bytecode is already where a process started with that prefix reads it
    monkeypatch.setattr(sys, "pycache_prefix", prefix)
    for module in (np, jax):
        seeded = importlib.util.cache_from_source(module.__file__)
        assert seeded.startswith(prefix + os.sep) and os.path.isfile(seeded), seeded
        with open(seeded, "rb") as a, open(module.__cached__, "rb") as b:
            assert a.read() == b.read()
