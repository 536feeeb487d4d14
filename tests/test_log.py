"""``mindspore.log`` (msjax/log.py): MindSpore's logger configured from GLOG_* variables."""
import os
import re

import pytest

import msjax.log as log


@pytest.fixture
def fresh_logger(monkeypatch):
    for var in ("GLOG_v", "GLOG_logtostderr", "GLOG_log_dir", "logger_maxBytes", "logger_backupCount",
                "GLOG_stderrthreshold", "RANK_ID"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(log, "_LOGGER", None)
    yield
    if log._LOGGER is not None:
        for h in list(log._LOGGER.handlers):
            h.close()
            log._LOGGER.removeHandler(h)


def test_level_and_record_layout(fresh_logger, monkeypatch, capsys):
    monkeypatch.setenv("GLOG_v", "1")
    assert log.get_level() == "1"
    assert log.get_log_config() == {"GLOG_v": "1", "GLOG_logtostderr": "1"}
    log.info("hello %d", 5)
    log.debug("not shown")
    err = capsys.readouterr().err.strip()
    assert re.fullmatch(r"\[INFO\] ME\(\d+:\d+,MainProcess\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d+\.\d* "
                        r"\[.*test_log\.py:\d+\] hello 5", err), err


def test_default_level_is_warning(fresh_logger, capsys):
    assert log.get_level() == "2"
    log.info("hidden")
    log.warning("shown")
    err = capsys.readouterr().err
    assert "hidden" not in err and "[WARNING]" in err and err.strip().endswith("shown")


def test_bad_level(fresh_logger, monkeypatch):
    monkeypatch.setenv("GLOG_v", "7")
    with pytest.raises(ValueError, match="Incorrect log level.*But got 7"):
        log.info("x")


def test_to_file(fresh_logger, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("GLOG_logtostderr", "0")
    monkeypatch.setenv("GLOG_log_dir", str(tmp_path))
    monkeypatch.setenv("GLOG_stderrthreshold", "3")
    monkeypatch.setenv("RANK_ID", "2")
    log.warning("to the file only")
    log.error("to both")
    cfg = log.get_log_config()
    assert cfg["GLOG_logtostderr"] == "0" and cfg["GLOG_stderrthreshold"] == "3"
    assert cfg["GLOG_log_dir"] == str(tmp_path / "rank_2" / "logs") and cfg["logger_maxBytes"] == 52428800
    (f,) = os.listdir(tmp_path / "rank_2" / "logs")
    text = (tmp_path / "rank_2" / "logs" / f).read_text()
    assert "to the file only" in text and "to both" in text
    err = capsys.readouterr().err
    assert "to both" in err and "to the file only" not in err


def test_console_zero_needs_dir(fresh_logger, monkeypatch):
    monkeypatch.setenv("GLOG_logtostderr", "0")
    with pytest.raises(ValueError, match="GLOG_log_dir must be set"):
        log.warning("x")
