"""Run ``python -m msjax run --mode MODE script`` without paying msjax's import each time.

A conformance run starts one process per example and mode; most of each one's time is
``import msjax`` (JAX, Flax, optax: about 2 s). ``PreloadedRunner`` starts one server process
with msjax imported (the standard library's ``forkserver`` with msjax preloaded; the server
has created no JAX backend, so forking it is safe) and forks every example from it: each
example still runs in its own fresh process, with its own working directory, environment,
stdout/stderr captured at the file-descriptor level, exit status, ``atexit`` handlers and
a timeout, as under ``subprocess.run``. Used by ``run_case(..., runner=...)``; Linux/macOS
only (the forkserver start method).

Stdlib only at import; msjax is imported by the server, not here.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import shutil
import sys
import tempfile

__all__ = ["PreloadedRunner"]

_PRELOAD = ["msjax", "msjax.__main__"]


def _child(argv, cwd, env, out_path, err_path):
    """Body of one forked example: what ``python -m msjax <argv>`` would do."""
    import atexit
    for fd, path in ((1, out_path), (2, err_path)):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(f, fd)
        os.close(f)
    sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=1)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    from msjax.__main__ import main
    try:
        rc = main(list(argv))
        rc = 0 if rc is None else rc
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if not isinstance(e.code, (int, type(None))):
            print(e.code, file=sys.stderr)
    except BaseException:   # the interpreter's report of an uncaught exception (or msjax's hook)
        sys.excepthook(*sys.exc_info())
        rc = 1
    try:
        atexit._run_exitfuncs()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(rc)


class PreloadedRunner:
    """``run(argv, cwd, env, timeout) -> (returncode, stdout bytes, stderr bytes)`` for
    ``argv`` = the arguments after ``python -m msjax``; ``TimeoutError`` past ``timeout``
    (the child is killed)."""

    def __init__(self):
        from multiprocessing import process
        self._ctx = mp.get_context("forkserver")
        self._ctx.set_forkserver_preload(_PRELOAD)
        # the server's socket goes in multiprocessing's temp folder: give it one that close()
        # removes (its own would stay until this process exits)
        config = process.current_process()._config
        self._tmp = None
        if "tempdir" not in config:
            self._tmp = config["tempdir"] = tempfile.mkdtemp(prefix="msjax-forkserver-")

    def run(self, argv, cwd, env, timeout):
        with tempfile.TemporaryDirectory(prefix="msjax-conf-") as tmp:
            out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
            proc = self._ctx.Process(target=_child, args=(tuple(argv), str(cwd), dict(env), out, err))
            proc.start()
            proc.join(timeout)
            timed_out = proc.is_alive()
            if timed_out:
                proc.kill()
                proc.join()
            with open(out, "rb") as f:
                stdout = f.read()
            with open(err, "rb") as f:
                stderr = f.read()
        if timed_out:
            raise TimeoutError(stdout)
        return proc.exitcode, stdout, stderr   # negative: killed by that signal, as subprocess says

    def close(self):
        """Stop the server and remove the folder multiprocessing made for its socket (it would
        otherwise stay until this process exits)."""
        from multiprocessing import forkserver, process
        forkserver._forkserver._stop()
        if self._tmp is not None:
            process.current_process()._config.pop("tempdir", None)
            shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
