import os
import shutil
import sys
import tempfile

import pytest

import msjax as ms

# ---------------------------------------------------------------------------
# Nothing left behind: the session runs with its own temporary directory
# (TMPDIR, inherited by subprocesses, and tempfile.tempdir); at the end anything
# a test left there, other than pytest's own tmp_path tree, fails the run. The
# directory is removed afterwards either way (MSJAX_KEEP_TEST_TMP=1 keeps it).
# Under pytest-xdist the controller does this; its workers inherit TMPDIR.
# ---------------------------------------------------------------------------
_SESSION_TMP = {"dir": None, "saved": None, "keys": None, "bytecode": None}


def leftovers(directory):
    """Names under ``directory`` a test left behind (pytest's ``pytest-of-*`` tree excepted)."""
    if not os.path.isdir(directory):
        return []
    return sorted(n for n in os.listdir(directory) if not n.startswith("pytest-of-"))


def _bytecode_cache(prefix, modules=None):
    """Where the environment forbids bytecode next to the sources (``PYTHONDONTWRITEBYTECODE``),
    every process of the run (xdist workers, ``msjax run``/``launch`` subprocesses and their
    workers, notebook kernels) would compile msjax's ~340 modules and the test modules again
    (about 1.1 s of CPU per process that imports msjax). The run's processes share a bytecode
    cache in ``prefix`` instead (``PYTHONPYCACHEPREFIX``: nothing is written beside the
    sources; removed with the run's key folder). It starts with the bytecode the installed
    packages already have for ``modules`` (default: every module imported so far), so no process
    compiles those."""
    import sys
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX") \
            or sys.pycache_prefix:
        return
    for module in list(sys.modules.values()) if modules is None else modules:
        src, cached = getattr(module, "__file__", None), getattr(module, "__cached__", None)
        if src and cached and src.endswith(".py") and os.path.isfile(cached):
            # the name importlib gives it under a prefix: <prefix>/<source folder>/<pyc name>
            folder = os.path.join(prefix, os.path.dirname(os.path.abspath(src)).lstrip(os.sep))
            os.makedirs(folder, exist_ok=True)
            shutil.copyfile(cached, os.path.join(folder, os.path.basename(cached)))
    _SESSION_TMP["bytecode"] = os.environ.pop("PYTHONDONTWRITEBYTECODE")
    os.environ["PYTHONPYCACHEPREFIX"] = prefix


def pytest_configure(config):
    if hasattr(config, "workerinput"):
        return          # an xdist worker: it inherited the controller's TMPDIR, which the controller checks
    # the compile cache's per-user key (common/_cache_auth.py) goes to a folder of the run's own,
    # never the user's ~/.cache (inherited by workers and subprocesses; removed at the end)
    if "MSJAX_CACHE_KEY_DIR" not in os.environ:
        _SESSION_TMP["keys"] = os.environ["MSJAX_CACHE_KEY_DIR"] = tempfile.mkdtemp(prefix="msjax-test-keys-")
        # PyNative's eager store (common/_eager_store.py) is shared by the run's workers and
        # subprocesses under that key, and removed with it
        os.environ.setdefault("MSJAX_EAGER_STORE_DIR", os.path.join(_SESSION_TMP["keys"], "eager"))
        _bytecode_cache(os.path.join(_SESSION_TMP["keys"], "pyc"))
    d = tempfile.mkdtemp(prefix="msjax-tests-")
    _SESSION_TMP["dir"] = d
    _SESSION_TMP["saved"] = (os.environ.get("TMPDIR"), tempfile.tempdir)
    os.environ["TMPDIR"] = d
    tempfile.tempdir = d


# ---------------------------------------------------------------------------
# A test that hangs with the GIL held (a native deadlock) never lets pytest-timeout's thread run,
# and the whole run then waits for its worker. faulthandler's watchdog is a C thread: past
# MSJAX_TEST_WATCHDOG seconds (default: 60 s after pytest-timeout's limit) it prints every
# thread's Python stack to the run's stderr and ends the worker, which pytest-xdist reports as a
# crash of that test and replaces.
# ---------------------------------------------------------------------------
def _watchdog_seconds(config):
    seconds = os.environ.get("MSJAX_TEST_WATCHDOG")
    if seconds is not None:
        return float(seconds)
    try:
        limit = float(config.getini("timeout") or 0)       # pytest-timeout's per-test limit
    except ValueError:                                      # pytest-timeout not installed
        return 0.0
    return limit + 60 if limit > 0 else 0.0


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    import faulthandler
    seconds = _watchdog_seconds(item.config)
    if seconds > 0:
        try:        # the stderr pytest's faulthandler plugin kept before output capture began
            from _pytest.faulthandler import fault_handler_stderr_fd_key
            fd = item.config.stash[fault_handler_stderr_fd_key]
        except (ImportError, KeyError):
            fd = sys.__stderr__.fileno()
        faulthandler.dump_traceback_later(seconds, exit=True, file=fd)
    try:
        yield
    finally:
        if seconds > 0:
            faulthandler.cancel_dump_traceback_later()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    d = _SESSION_TMP["dir"]
    left = leftovers(d) if d else []
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        msg = (f"the tests left {len(left)} entries in their temporary directory {d}: "
               f"{', '.join(left[:20])}{' ...' if len(left) > 20 else ''} (use tmp_path and clean up)")
        if reporter is not None:
            reporter.write_line("ERROR: " + msg, red=True)
        if session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config):
    d = _SESSION_TMP["dir"]
    if d is None:
        return
    env, tmp = _SESSION_TMP["saved"]
    if env is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = env
    tempfile.tempdir = tmp
    if _SESSION_TMP["keys"] is not None:
        os.environ.pop("MSJAX_CACHE_KEY_DIR", None)
        if os.environ.get("MSJAX_EAGER_STORE_DIR", "").startswith(_SESSION_TMP["keys"]):
            os.environ.pop("MSJAX_EAGER_STORE_DIR")
        if _SESSION_TMP["bytecode"] is not None:
            os.environ.pop("PYTHONPYCACHEPREFIX", None)
            os.environ["PYTHONDONTWRITEBYTECODE"] = _SESSION_TMP["bytecode"]
        shutil.rmtree(_SESSION_TMP["keys"], ignore_errors=True)
    if os.environ.get("MSJAX_KEEP_TEST_TMP") != "1":
        shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------------------
# Longest first: under ``-n 2 --dist loadgroup`` the xdist groups go out first, then every other
# test one at a time in collection order, each worker holding up to three. In alphabetical order
# the zoo trainings (test_zoo_examples, about 2 minutes) came last and one worker often finished
# them alone. These modules (each over ~20 s of a worker in a measured full run, heaviest first)
# are collected first, every module's tests kept together and in their order, so the run ends on
# short tests that both workers share.
# ---------------------------------------------------------------------------
LONG_MODULES = ("test_docs_build", "test_zoo_examples", "test_frontend_cache", "test_semi_auto_parallel",
                "test_bench_tensor_parallel", "test_conv_lowering", "test_notebooks", "test_ctc_dynamic_rnn",
                "test_conformance_preloaded", "test_memory", "test_compile_cache", "test_low_precision",
                "test_pipeline_stages")


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(LONG_MODULES)}
    # a stable sort: the other modules keep pytest's order, after the long ones
    items.sort(key=lambda item: rank.get(item.path.stem, len(LONG_MODULES)))


@pytest.fixture(autouse=True)
def _pynative():
    """Every test starts in PYNATIVE_MODE and leaves it so."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.fixture(params=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "graph" else ms.PYNATIVE_MODE)
    return request.param


@pytest.fixture(scope="module")
def preloaded():
    """Runs of ``python -m msjax ...`` as new processes forked from one that has imported msjax
    and done nothing else (``msjax/conformance/preloaded.py``: ``run(argv, cwd, env, timeout)
    -> (returncode, stdout bytes, stderr bytes)``): no traced program, compiled executable or
    in-memory cache, as in a fresh interpreter, without paying msjax's import (about 2.5 CPU-s)
    a run. One server per test module."""
    from msjax.conformance.preloaded import PreloadedRunner
    with PreloadedRunner() as runner:
        yield runner


@pytest.fixture
def ms_log():
    """The records MindSpore's logger (``msjax.log``: warnings MindSpore logs rather than raises)
    emits during the test, in order (``record.getMessage()`` is the text)."""
    import logging

    from msjax import log
    records = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = records.append
    logger = log._get_logger()
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)
