"""Errors and logs as MindSpore prints them (issue 22): under ``python -m msjax run`` missing
names are reported by their ``mindspore.`` path, JAX's own log lines stay out of a script's
``logging.basicConfig(level=INFO)``, and MindSpore's logged warnings come out in
``mindspore.log``'s format, compared line for line with MindSpore 2.10
(tests/fixtures/record_messages.py)."""
import importlib.util
import json
import logging
import os
import subprocess
import sys

import pytest

from msjax import _tree, log

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _recorder():
    spec = importlib.util.spec_from_file_location("record_messages", os.path.join(HERE, "record_messages.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(script, extra_env=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GLOG_", "JAX_", "MSJAX_JAX"))}
    env.update(extra_env or {})
    return subprocess.run([sys.executable, "-m", "msjax", "run", script], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


def test_script_prints_what_mindspore_prints():
    rec = _recorder()
    with open(os.path.join(HERE, "messages_mindspore.json")) as f:
        golden = json.load(f)
    p = _run(rec.SCRIPT)
    assert p.returncode == 0, p.stderr
    assert rec.normalize(p.stdout) == golden["stdout"]     # no JAX INFO lines among them
    assert rec.normalize(p.stderr) == golden["stderr"]


@pytest.fixture
def jax_loggers():
    loggers = [logging.getLogger("jax"), logging.getLogger("jaxlib")]
    saved = [lg.level for lg in loggers]
    yield loggers
    for lg, level in zip(loggers, saved):
        lg.setLevel(level)


def test_jax_logs_when_asked(jax_loggers, monkeypatch):
    """(The subprocess above shows the default: no JAX lines under basicConfig(level=INFO).)"""
    jax_, jaxlib = jax_loggers
    for lg in jax_loggers:
        lg.setLevel(logging.NOTSET)
    monkeypatch.setenv("MSJAX_JAX_LOGS", "1")
    log._quiet_jax()
    assert jax_.level == jaxlib.level == logging.NOTSET
    monkeypatch.delenv("MSJAX_JAX_LOGS")
    jaxlib.setLevel(logging.INFO)              # a level the user gave: kept
    log._quiet_jax()
    assert jax_.level == logging.WARNING and jaxlib.level == logging.INFO


def test_missing_names_in_process(monkeypatch):
    import msjax.dataset
    import msjax.nn.layer.basic
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, _tree.MindsporeFinder)])
    with pytest.raises(AttributeError, match="^module 'msjax.dataset' has no attribute 'Nope'$") as e:
        msjax.dataset.Nope
    assert e.value.name == "Nope" and e.value.obj is msjax.dataset
    monkeypatch.setattr(sys, "meta_path", [_tree.MindsporeFinder()] + sys.meta_path)
    with pytest.raises(AttributeError, match="^module 'mindspore.dataset' has no attribute 'Nope'$"):
        msjax.dataset.Nope
    with pytest.raises(AttributeError, match="^module 'mindspore.nn.layer.basic' has no attribute 'Nope'$"):
        msjax.nn.layer.basic.Nope


def test_log_file_paths_as_mindspore_shows_them(monkeypatch):
    pkg = os.path.dirname(os.path.abspath(log.__file__))
    own = os.path.join(pkg, "nn", "layer", "basic.py")
    monkeypatch.setitem(sys.modules, "mindspore", None)
    assert log._shown_path(own) == "msjax/nn/layer/basic.py"
    monkeypatch.setitem(sys.modules, "mindspore", sys.modules["msjax"])
    assert log._shown_path(own) == "mindspore/nn/layer/basic.py"
    assert log._shown_path("/home/u/mindspore_models/train.py") == "mindspore_models/train.py"
    assert log._shown_path("/home/u/train.py") == "/home/u/train.py"


def test_logged_not_raised_warnings(ms_log, recwarn):
    """MindSpore logs these (``logger.warning``): msjax too, no Python warning."""
    from msjax import nn
    import msjax as ms
    nn.Dropout(keep_prob=0.8, dtype=ms.float16)
    assert [r.getMessage() for r in ms_log] == [
        "This parameter `dtype` will be deleted or invisible in the future. Please don't use it.",
        "For Dropout, this parameter `keep_prob` will be deprecated, please use `p` instead."]
    assert all(r.levelno == logging.WARNING for r in ms_log) and not recwarn.list
