"""``AITURBO=1``: MindSpore 2.10's ``ModelCheckpoint()`` imports the ``aiturbo`` package and raises
``ModuleNotFoundError`` without it (tests/st/export_and_load/test_aiturbo.py); unset, nothing is imported."""
import importlib.util

import pytest

from msjax.train import ModelCheckpoint


@pytest.mark.skipif(importlib.util.find_spec("aiturbo") is not None, reason="aiturbo is installed here")
def test_aiturbo_without_the_package(monkeypatch, tmp_path):
    monkeypatch.setenv("AITURBO", "1")
    with pytest.raises(ModuleNotFoundError, match="aiturbo"):
        ModelCheckpoint(directory=str(tmp_path))
    monkeypatch.setenv("AITURBO", "0")
    assert ModelCheckpoint(directory=str(tmp_path))._manager is not None
