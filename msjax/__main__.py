"""``python -m msjax run [--mode pynative|graph] script.py [args...]``

Runs an unmodified MindSpore script with ``mindspore`` resolved to msjax.
``python -m msjax conformance ...`` runs the conformance suite (same as
``python -m msjax.conformance``).
``python -m msjax coverage`` prints, per MindSpore namespace, how many public
names msjax provides and how many are checked against MindSpore.
"""
from __future__ import annotations

import argparse
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
    if ns.mode is not None:
        msjax.set_context(mode=msjax.GRAPH_MODE if ns.mode == "graph" else msjax.PYNATIVE_MODE)
    sys.argv = [ns.script] + ns.args
    sys.path.insert(0, os.path.dirname(os.path.abspath(ns.script)))
    runpy.run_path(ns.script, run_name="__main__")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    cmd, rest = argv[0], argv[1:]
    if cmd == "run":
        _run(rest)
        return 0
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
