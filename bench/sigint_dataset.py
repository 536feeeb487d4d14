"""Ctrl-C in a dataset-only loop, many times: how each run ends (issue 36).

Runs ``tests/golden/sigint_dataset.py`` (a generator -> map -> batch loop that sends itself SIGINT
at its third batch) ``--runs`` times under ``python -m msjax run`` (``--mindspore PYTHON``: also
that many times with MindSpore's interpreter, unmodified) and counts the return codes: -2 is
MindSpore's (killed by SIGINT after the ``KeyboardInterrupt`` traceback and the ``atexit`` hook),
-6 an abort ("FATAL: exception not rethrown": a dataset thread ended by ``pthread_exit`` inside
native code while the interpreter finalized).

    python bench/sigint_dataset.py [--runs 10] [--mindspore /tmp/ms/bin/python]
"""
from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tests", "golden", "sigint_dataset.py")


def codes(argv, runs):
    got = collections.Counter()
    for _ in range(runs):
        r = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT))
        got[r.returncode] += 1
        if "not rethrown" in r.stderr or "terminate called" in r.stderr:
            got["abort message"] += 1
    return dict(got)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--mindspore", default=None, help="MindSpore's Python interpreter")
    args = ap.parse_args()
    print("msjax:", codes([sys.executable, "-m", "msjax", "run", SCRIPT], args.runs))
    if args.mindspore:
        print("MindSpore:", codes([args.mindspore, SCRIPT], args.runs))


if __name__ == "__main__":
    main()
