"""``python -m msjax run [--mode pynative|graph] script.py [args...]``

Runs an unmodified MindSpore script with ``mindspore`` resolved to msjax.
``python -m msjax conformance ...`` runs the conformance suite (same as
``python -m msjax.conformance``).
``python -m msjax launch [msrun flags] script.py [args...]`` starts a distributed
job as MindSpore's ``msrun`` does (``--worker_num``, ``--local_worker_num``,
``--master_addr``, ``--master_port``, ``--node_rank``, ``--log_dir``, ``--join``,
``--cluster_time_out``...; see ``msjax.parallel.cluster.run``).
``python -m msjax coverage`` prints, per MindSpore namespace, how many public
names msjax provides and how many are checked against MindSpore.
"""
from __future__ import annotations

import argparse
import functools
import os
import runpy
import sys


def _run(argv):
    p = argparse.ArgumentParser(prog="python -m msjax run",
                                description="Run a MindSpore script on msjax.")
    p.add_argument("--mode", choices=("pynative", "graph"), default=None,
                   help="start in this execution mode (the script's own set_context still applies)")
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER)
    ns = p.parse_args(argv)
    from . import _compat
    _compat.install()
    import msjax
    worker = os.environ.get("MS_ROLE") == "MS_WORKER" and int(os.environ.get("MS_WORKER_NUM", "1")) > 1
    if worker:
        # started by `msjax launch`: join the job before the script computes anything
        # (jax.distributed must start before JAX's backends)
        from .communication import _runtime as distributed
        distributed.start_runtime()
    if ns.mode is not None:
        msjax.set_context(mode=msjax.GRAPH_MODE if ns.mode == "graph" else msjax.PYNATIVE_MODE)
    sys.argv = [ns.script] + ns.args
    sys.path.insert(0, os.path.dirname(os.path.abspath(ns.script)))
    run = functools.partial(runpy.run_path, ns.script, run_name="__main__")
    if ns.script == "pytest" and not os.path.isfile(ns.script):
        # `msjax run pytest -s -v test.py::case` (msrun's way to start MindSpore's samples): pytest
        # collects and runs the tests with `import mindspore` resolving to msjax
        import pytest

        def run():
            code = pytest.main(list(ns.args))
            if code:
                sys.exit(int(code))
    if not worker:
        run()
        return
    try:
        run()
    except BaseException as e:  # noqa: BLE001
        # a failed worker leaves at once: JAX's exit handler would wait for the other ranks
        code = e.code if isinstance(e, SystemExit) else 1
        if code in (0, None):
            raise
        if not isinstance(e, SystemExit):
            import traceback
            from . import _drop_core_frames, _strip_jax_notes
            _strip_jax_notes(e)
            _drop_core_frames(e)
            traceback.print_exc()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code if isinstance(code, int) else 1)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    cmd, rest = argv[0], argv[1:]
    if cmd == "run":
        _run(rest)
        return 0
    if cmd == "launch":
        from .parallel.cluster.run import main as launch_main
        return launch_main(rest)
    if cmd == "coverage":
        from ._coverage import main as cov_main
        return cov_main(rest)
    if cmd == "conformance":
        from .conformance.__main__ import main as conf_main
        return conf_main(rest)
    print(f"unknown command {cmd!r}\n\n{__doc__.strip()}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
