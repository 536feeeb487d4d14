"""Record golden fixtures from real MindSpore.

Usage (from the repo root)::

    /tmp/ms/bin/python tests/golden/record_mindspore.py            # both modes
    /tmp/ms/bin/python tests/golden/record_mindspore.py --mode pynative
    /tmp/ms/bin/python tests/golden/record_mindspore.py --mode graph
    /tmp/ms/bin/python tests/golden/record_mindspore.py --only grad_pos0 --print

Writes tests/golden/core_pynative.json and tests/golden/core_graph.json.
GRAPH_MODE is recorded in a separate subprocess (set_context is global).
Never import this from tests: it needs the real ``mindspore`` package.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases_core  # noqa: E402
from serialize import run_case  # noqa: E402

OUTPUTS = {"pynative": "core_pynative.json", "graph": "core_graph.json"}


def record(mode, only=None, show=False, write=True):
    os.environ.setdefault("GLOG_v", "3")  # silence MindSpore WARNING lines
    warnings.filterwarnings("ignore")
    import mindspore as ms
    import numpy as np

    if mode == "graph":
        # graph compilation drops rank_0/om/*.ir files into the cwd
        os.chdir(tempfile.mkdtemp(prefix="msjax_golden_graph_"))
        ms.set_context(mode=ms.GRAPH_MODE)
        cases = cases_core.graph_cases()
    else:
        ms.set_context(mode=ms.PYNATIVE_MODE)
        cases = cases_core.all_cases()
    if only:
        cases = {k: v for k, v in cases.items() if any(o in k for o in only)}

    results = {}
    for name, fn in sorted(cases.items()):
        sys.stderr.write("[%s] %s\n" % (mode, name))
        sys.stderr.flush()
        results[name] = run_case(fn, ms)
        if show:
            print(name, "->", json.dumps(results[name], indent=1))

    meta = {
        "mindspore_version": ms.__version__,
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "mode": "GRAPH_MODE" if mode == "graph" else "PYNATIVE_MODE",
        "device_target": ms.get_context("device_target"),
        "recorded_utc": datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "generator": "tests/golden/record_mindspore.py",
        "n_cases": len(results),
    }
    if write and not only:
        path = os.path.join(HERE, OUTPUTS[mode])
        with open(path, "w") as f:
            json.dump({"meta": meta, "cases": results}, f, indent=1,
                      sort_keys=True, ensure_ascii=False)
            f.write("\n")
        sys.stderr.write("wrote %s (%d cases)\n" % (path, len(results)))
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["pynative", "graph", "both"], default="both")
    ap.add_argument("--only", nargs="*", help="substring filter; does not write files")
    ap.add_argument("--print", action="store_true", dest="show")
    args = ap.parse_args()
    if args.mode == "both":
        for mode in ("pynative", "graph"):
            cmd = [sys.executable, os.path.abspath(__file__), "--mode", mode]
            if args.only:
                cmd += ["--only"] + args.only
            if args.show:
                cmd.append("--print")
            rc = subprocess.call(cmd)
            if rc:
                sys.exit(rc)
    else:
        record(args.mode, args.only, args.show)


if __name__ == "__main__":
    main()
