"""Top-level runtime helpers: ``run_check`` output and the memory queries on a
backend that reports allocator counters (faked here: CPU reports none)."""
import msjax as ms
from msjax.runtime import _device as runtime


def test_run_check_prints_two_lines(capsys):
    ms.run_check()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"MindSpore version:  2.10.0 (msjax {ms.__version__})"
    assert out[1].startswith("The result of multiplication calculation is correct, msjax has been installed on "
                             "platform [")
    assert out[1].endswith("] successfully!")


def test_memory_queries_follow_device_stats(monkeypatch):
    stats = {"bytes_in_use": 100, "peak_bytes_in_use": 500, "pool_bytes": 1000, "peak_pool_bytes": 1200}
    monkeypatch.setattr(runtime, "_raw_stats", lambda: dict(stats))
    monkeypatch.setattr(runtime, "_peak_reset", {})
    assert (ms.memory_allocated(), ms.max_memory_allocated(), ms.memory_reserved(), ms.max_memory_reserved()) == \
        (100, 500, 1000, 1200)
    d = ms.memory_stats()
    assert d["total_idle_memory"] == 900 and d["max_allocated_memory"] == 500
    ms.reset_peak_memory_stats()
    assert ms.max_memory_allocated() == 100 and ms.max_memory_reserved() == 1000
    stats.update(bytes_in_use=300)
    assert ms.max_memory_allocated() == 300          # lower bound: XLA's peak has not grown
    stats.update(bytes_in_use=50, peak_bytes_in_use=800)
    assert ms.max_memory_allocated() == 800          # a new peak since the reset


def test_memory_summary_formats_sizes(monkeypatch):
    stats = {"bytes_in_use": 3 * 2 ** 20, "peak_bytes_in_use": 5 * 2 ** 30, "pool_bytes": 700 * 1024}
    monkeypatch.setattr(runtime, "_raw_stats", lambda: dict(stats))
    monkeypatch.setattr(runtime, "_peak_reset", {})
    lines = ms.memory_summary().splitlines()
    assert lines[0] == "|" + "=" * 45 + "|" and len(lines) == 17
    assert lines[5] == "| Reserved memory      | 716800 B             |"
    assert lines[7] == "| Allocated memory     |   3072 KB            |"
    assert lines[15] == "| Max allocated memory |   5120 MB            |"
