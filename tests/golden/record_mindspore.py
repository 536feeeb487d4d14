"""Record golden fixtures from real MindSpore.

Usage (from the repo root)::

    /tmp/ms/bin/python tests/golden/record_mindspore.py            # both modes
    /tmp/ms/bin/python tests/golden/record_mindspore.py --mode pynative
    /tmp/ms/bin/python tests/golden/record_mindspore.py --mode graph
    /tmp/ms/bin/python tests/golden/record_mindspore.py --only grad_pos0 --print
    /tmp/ms/bin/python tests/golden/record_mindspore.py --fast   # one process

Writes tests/golden/core_pynative.json and tests/golden/core_graph.json.
Other suites (``cases_<suite>.py``, each with an ``all_cases()``) record with
``--suite <suite>`` into ``<suite>_pynative.json`` (PyNative only)::

    /tmp/ms/bin/python tests/golden/record_mindspore.py --suite ops_math --mode pynative

By default every case runs in its own fresh interpreter (several in parallel):
MindSpore's PyNative executor keeps state across calls -- e.g. after a failed
grad call, ``Tensor([1., 2.])[5]`` raises TypeError instead of IndexError --
so a fixture recorded in one process would depend on case order.  ``--fast``
runs everything in one process (for quick looks; fixtures written with it are
marked in the header).  GRAPH_MODE is recorded in a temporary working
directory (graph compilation drops rank_0/om/*.ir files into the cwd).

Never import this from tests: it needs the real ``mindspore`` package.
"""
import argparse
import concurrent.futures
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

import importlib  # noqa: E402

from serialize import run_case  # noqa: E402

SUITE = "core"
CASE_TIMEOUT_S = 300


def _output(mode):
    return "%s_%s.json" % (SUITE, mode)


def _cases(mode):
    mod = importlib.import_module("cases_" + SUITE)
    if mode == "graph":
        if not hasattr(mod, "graph_cases"):
            raise SystemExit("suite %r records PyNative only" % SUITE)
        return mod.graph_cases()
    return mod.all_cases()


def _import_ms(mode):
    os.environ.setdefault("GLOG_v", "3")  # silence MindSpore WARNING lines
    warnings.filterwarnings("ignore")
    # MindSpore drops rank_0/, akg_kernel_meta/, kernel_build_tmp.key into the cwd
    os.chdir(tempfile.mkdtemp(prefix="msjax_golden_%s_" % mode))
    import mindspore as ms
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    return ms


def run_in_process(mode, names):
    """Run the given cases sequentially in this process; return {name: json}."""
    ms = _import_ms(mode)
    cases = _cases(mode)
    out = {}
    for name in names:
        sys.stderr.write("[%s] %s\n" % (mode, name))
        sys.stderr.flush()
        out[name] = run_case(cases[name], ms)
    return out


def _worker_cmd(mode, name):
    return [sys.executable, os.path.abspath(__file__), "--suite", SUITE, "--mode", mode, "--worker", name]


def _run_isolated(mode, name):
    env = dict(os.environ, GLOG_v="3")
    try:
        p = subprocess.run(_worker_cmd(mode, name), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=CASE_TIMEOUT_S, env=env)
    except subprocess.TimeoutExpired:
        return {"kind": "error", "type": "RecorderTimeout",
                "message": "case did not finish in %ds" % CASE_TIMEOUT_S}
    marker = b"\n@@GOLDEN@@"
    if p.returncode != 0 or marker not in p.stdout:
        tail = p.stderr.decode(errors="replace")[-2000:]
        return {"kind": "error", "type": "RecorderCrash",
                "message": "worker exit code %d; stderr tail:\n%s" % (p.returncode, tail)}
    payload = p.stdout.split(marker, 1)[1]
    return json.loads(payload.decode())[name]


def _meta(mode, n, isolated):
    import numpy as np
    import mindspore as ms
    return {
        "mindspore_version": ms.__version__,
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "mode": "GRAPH_MODE" if mode == "graph" else "PYNATIVE_MODE",
        "device_target": ms.get_context("device_target"),
        "recorded_utc": datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "generator": "tests/golden/record_mindspore.py",
        "isolation": "one fresh process per case" if isolated else "single process",
        "n_cases": n,
    }


def record(mode, only=None, show=False, fast=False, jobs=None, merge=False):
    names = sorted(_cases(mode))
    if only:
        names = [k for k in names if any(o in k for o in only)]
    if fast:
        results = run_in_process(mode, names)
    else:
        jobs = jobs or max(2, os.cpu_count() or 2)
        results = {}
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            futs = {pool.submit(_run_isolated, mode, n): n for n in names}
            for i, fut in enumerate(concurrent.futures.as_completed(futs), 1):
                n = futs[fut]
                results[n] = fut.result()
                sys.stderr.write("[%s %d/%d] %s\n" % (mode, i, len(names), n))
                sys.stderr.flush()
        _import_ms(mode)
    results = {k: results[k] for k in sorted(results)}
    for name, res in results.items():
        if res.get("type") in ("RecorderCrash", "RecorderTimeout"):
            sys.stderr.write("WARNING: %s: %s\n" % (name, res["message"][:500]))
        if show:
            print(name, "->", json.dumps(res, indent=1))
    path = os.path.join(HERE, _output(mode))
    if only and merge and os.path.exists(path):
        # add/replace the filtered cases in the existing fixture; drop removed cases
        with open(path) as f:
            old = json.load(f)["cases"]
        current = set(_cases(mode))
        merged = {k: v for k, v in old.items() if k in current}
        merged.update(results)
        results = {k: merged[k] for k in sorted(merged)}
        only = None
    if not only:
        with open(path, "w") as f:
            json.dump({"meta": _meta(mode, len(results), not fast), "cases": results},
                      f, indent=1, sort_keys=True, ensure_ascii=False)
            f.write("\n")
        sys.stderr.write("wrote %s (%d cases)\n" % (path, len(results)))
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--suite", default="core", help="records cases_<suite>.py")
    ap.add_argument("--mode", choices=["pynative", "graph", "both"], default="both")
    ap.add_argument("--only", nargs="*", help="substring filter; does not write files unless --merge")
    ap.add_argument("--merge", action="store_true", help="with --only: merge those cases into the fixture")
    ap.add_argument("--print", action="store_true", dest="show")
    ap.add_argument("--fast", action="store_true", help="run all cases in one process")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    global SUITE
    SUITE = args.suite
    if args.worker:
        res = run_in_process(args.mode, [args.worker])
        sys.stdout.write("\n@@GOLDEN@@" + json.dumps(res))
        sys.stdout.flush()
        return
    modes = ("pynative", "graph") if args.mode == "both" else (args.mode,)
    for mode in modes:
        if args.fast and len(modes) > 1:
            # set_context(mode=...) is process-global: one subprocess per mode
            cmd = [sys.executable, os.path.abspath(__file__), "--suite", SUITE, "--mode", mode, "--fast"]
            if args.only:
                cmd += ["--only"] + args.only
            if args.show:
                cmd.append("--print")
            rc = subprocess.call(cmd)
            if rc:
                sys.exit(rc)
        else:
            record(mode, args.only, args.show, args.fast, args.jobs, args.merge)


if __name__ == "__main__":
    main()
