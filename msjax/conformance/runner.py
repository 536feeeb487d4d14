"""Discover and run the conformance examples (``conformance/seed*/**.py``).

Each example ``NN_name.py`` sits beside ``NN_name.expected`` (its documented
stdout; a last line ``SomeError: message`` means the script must fail with
that exception) and optionally ``NN_name.json`` with comparison options::

    {"as_written": true,          # numbers match to the written precision
     "rtol": 1e-5, "atol": 1e-6,  # overrides of the default tolerances
     "source": "doc" | "reference",
     "note": "free text"}

Normal mode runs ``[python, -m, msjax, run, --mode, MODE, script]``;
reference mode runs ``[python, script]`` (e.g. under real MindSpore) and
imports nothing from msjax.

Stdlib only; keep it importable without importing msjax's top level.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, List, Optional, Sequence, TextIO

try:
    from .compare import DEFAULT_ATOL, DEFAULT_RTOL, compare, find_exception, split_expected
except ImportError:  # run by path (python msjax/conformance/__main__.py)
    from compare import DEFAULT_ATOL, DEFAULT_RTOL, compare, find_exception, split_expected  # type: ignore

__all__ = [
    "Case",
    "Result",
    "MODES",
    "default_root",
    "discover",
    "run_case",
    "run_all",
    "format_table",
    "main",
]

MODES = ("pynative", "graph")
DEFAULT_TIMEOUT = 180.0

# repo root = parent of the ``msjax`` package directory
_REPO_ROOT = Path(__file__).resolve().parents[2]

# Reference mode, --mode graph: switch real MindSpore to GRAPH_MODE, then run
# the script as __main__ (argv[1] = script path).
_REF_GRAPH_BOOTSTRAP = (
    "import sys, runpy, os\n"
    "import mindspore as ms\n"
    "ms.set_context(mode=ms.GRAPH_MODE)\n"
    "script = sys.argv[1]\n"
    "sys.argv = sys.argv[1:]\n"
    "sys.path.insert(0, os.path.dirname(os.path.abspath(script)))\n"
    "runpy.run_path(script, run_name='__main__')\n"
)


def default_root() -> Path:
    """``<repo>/conformance`` (beside the msjax package), else ``./conformance``."""
    cand = _REPO_ROOT / "conformance"
    if cand.is_dir():
        return cand
    return Path.cwd() / "conformance"


@dataclass
class Case:
    id: str  # e.g. "seed001/02_grads1_input0"
    script: Path
    expected_path: Path
    options: dict = field(default_factory=dict)

    @property
    def expected_text(self) -> str:
        return self.expected_path.read_text(encoding="utf-8")


@dataclass
class Result:
    case: Case
    mode: str
    passed: bool
    reason: str = ""  # one line
    details: str = field(default="", repr=False)  # full diff / stderr tail
    returncode: Optional[int] = None
    stdout: str = field(default="", repr=False)
    stderr: str = field(default="", repr=False)
    seconds: float = 0.0

    @property
    def message(self) -> str:
        head = f"{self.case.id} [{self.mode}]: {'PASS' if self.passed else 'FAIL'}"
        if self.passed:
            return head
        return f"{head}: {self.reason}\n{self.details}".rstrip()


def discover(root: Optional[os.PathLike] = None,
             filters: Optional[Sequence[str]] = None) -> List[Case]:
    """All examples under ``root/seed*/`` (recursively), sorted by id.

    ``filters``: substrings; a case is kept if its id contains any of them.
    """
    root = Path(root) if root is not None else default_root()
    if isinstance(filters, str):
        filters = [filters]
    cases = []
    for seed_dir in sorted(p for p in root.glob("seed*") if p.is_dir()):
        for script in sorted(seed_dir.rglob("*.py")):
            cid = script.relative_to(root).with_suffix("").as_posix()
            if filters and not any(f in cid for f in filters):
                continue
            opts_path = script.with_suffix(".json")
            opts = json.loads(opts_path.read_text(encoding="utf-8")) if opts_path.exists() else {}
            cases.append(Case(cid, script, script.with_suffix(".expected"), opts))
    return cases


def _filter_stderr(stderr: str) -> str:
    """Drop MindSpore's log lines (``[WARNING] ME(...)``, ``[INFO] ...``)."""
    keep = []
    for line in stderr.splitlines():
        s = line.lstrip()
        if s.startswith(("[WARNING]", "[INFO]", "[DEBUG]")):
            continue
        keep.append(line)
    return "\n".join(keep)


def _tail(text: str, n: int = 15) -> str:
    lines = text.rstrip().splitlines()
    return "\n".join(lines[-n:])


def _command(case: Case, mode: str, python: str, reference: bool) -> List[str]:
    script = str(case.script.resolve())
    if not reference:
        return [python, "-m", "msjax", "run", "--mode", mode, script]
    if mode == "graph":
        return [python, "-c", _REF_GRAPH_BOOTSTRAP, script]
    return [python, script]


def _env(reference: bool) -> dict:
    env = dict(os.environ)
    env["PYTHONIOENCODING"] = "utf-8"
    env.setdefault("GLOG_v", "3")  # quiet MindSpore's C++ logging
    if not reference:
        # make ``-m msjax`` importable even when msjax is not installed
        pp = env.get("PYTHONPATH", "")
        env["PYTHONPATH"] = str(_REPO_ROOT) + (os.pathsep + pp if pp else "")
    return env


def run_case(case: Case, mode: str = "pynative", python: Optional[str] = None,
             reference: bool = False, timeout: float = DEFAULT_TIMEOUT, runner=None) -> Result:
    """Run one example in a subprocess and compare its output. ``runner``: a
    ``preloaded.PreloadedRunner`` forks the example from a process that has msjax imported
    (same isolation, without the import's cost); not for ``reference`` runs or ``python``."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    python = python or sys.executable
    if not case.expected_path.exists():
        return Result(case, mode, False, f"missing {case.expected_path.name}")
    exp_stdout, exp_exc = split_expected(case.expected_text)
    rtol = float(case.options.get("rtol", DEFAULT_RTOL))
    atol = float(case.options.get("atol", DEFAULT_ATOL))
    as_written = bool(case.options.get("as_written", False))

    cmd = _command(case, mode, python, reference)
    t0 = time.monotonic()
    try:
        proc = None
        if runner is not None and not reference:
            rc, so, se = runner.run(cmd[3:], case.script.parent, _env(reference), timeout)
            # 255: multiprocessing got no status from the fork server for the forked example (its
            # report when that pipe gives none; seen twice in full test runs, once after the example
            # had printed part of its output), so the example runs again as the plain subprocess the
            # preloaded run stands for (an example that really exits 255 does so there too)
            if rc != 255:
                proc = subprocess.CompletedProcess(cmd, rc, so, se)
        if proc is None:
            proc = subprocess.run(cmd, cwd=str(case.script.parent), env=_env(reference),
                                  stdin=subprocess.DEVNULL, capture_output=True,
                                  timeout=timeout)
    except (subprocess.TimeoutExpired, TimeoutError) as exc:
        partial = exc.stdout if isinstance(exc, subprocess.TimeoutExpired) else exc.args[0]
        out = (partial or b"").decode("utf-8", "replace")
        return Result(case, mode, False, f"timeout after {timeout:g}s",
                      f"--- stdout so far ---\n{_tail(out)}", None, out, "",
                      time.monotonic() - t0)
    secs = time.monotonic() - t0
    out = proc.stdout.decode("utf-8", "replace")
    err = _filter_stderr(proc.stderr.decode("utf-8", "replace"))

    def res(passed: bool, reason: str = "", details: str = "") -> Result:
        return Result(case, mode, passed, reason, details, proc.returncode, out, err, secs)

    if exp_exc is None:
        if proc.returncode != 0:
            exc = find_exception(err)
            reason = (f"exit {proc.returncode}: {exc[0]}: {exc[1]}" if exc
                      else f"exit {proc.returncode}")
            return res(False, reason, f"--- stderr tail ---\n{_tail(err)}")
        cmp = compare(out, exp_stdout, rtol=rtol, atol=atol, as_written=as_written)
        if not cmp:
            first, _, rest = cmp.message.partition("\n")
            return res(False, first, rest)
        return res(True)

    # expected to raise exp_exc
    exp_type, exp_msg = exp_exc
    if proc.returncode == 0:
        return res(False, f"expected {exp_type} but the script exited 0",
                   f"--- stdout ---\n{_tail(out)}")
    got = find_exception(err)
    if got is None:
        return res(False, f"expected {exp_type}, exit {proc.returncode} without a traceback line",
                   f"--- stderr tail ---\n{_tail(err)}")
    got_type, got_msg = got
    if got_type.rsplit(".", 1)[-1] != exp_type.rsplit(".", 1)[-1]:
        return res(False, f"expected {exp_type}, got {got_type}: {got_msg}",
                   f"--- stderr tail ---\n{_tail(err)}")
    cmp_msg = compare(got_msg, exp_msg, rtol=rtol, atol=atol, as_written=as_written)
    if not cmp_msg:
        return res(False, f"{exp_type} message differs: got {got_msg!r}",
                   f"expected: {exp_msg!r}\n{cmp_msg.message}")
    cmp = compare(out, exp_stdout, rtol=rtol, atol=atol, as_written=as_written)
    if not cmp:
        first, _, rest = cmp.message.partition("\n")
        return res(False, "stdout before the exception: " + first, rest)
    return res(True)


def _modes(mode: str) -> List[str]:
    if mode == "both":
        return list(MODES)
    if mode not in MODES:
        raise ValueError(f"mode must be pynative, graph or both, got {mode!r}")
    return [mode]


def format_table(results: Iterable[Result], verbose: bool = False) -> str:
    results = list(results)
    w = max([len("example")] + [len(r.case.id) for r in results])
    lines = [f"{'example':<{w}}  {'mode':<8}  {'result':<6}  reason", "-" * (w + 40)]
    for r in results:
        reason = r.reason if len(r.reason) <= 100 else r.reason[:97] + "..."
        lines.append(f"{r.case.id:<{w}}  {r.mode:<8}  {'PASS' if r.passed else 'FAIL':<6}  {reason}")
    n_pass = sum(r.passed for r in results)
    lines.append("-" * (w + 40))
    lines.append(f"total: {len(results)}, passed: {n_pass}, failed: {len(results) - n_pass}")
    fails = [r for r in results if not r.passed]
    if fails:
        lines.append("")
        lines.append("failures:")
        for r in fails:
            lines.append("")
            lines.append(r.message if verbose or len(fails) <= 20 else
                         f"{r.case.id} [{r.mode}]: {r.reason}")
    return "\n".join(lines)


def run_all(mode: str = "pynative", python: Optional[str] = None,
            root: Optional[os.PathLike] = None, filters: Optional[Sequence[str]] = None,
            reference: bool = False, timeout: float = DEFAULT_TIMEOUT, jobs: int = 1,
            out: Optional[TextIO] = None, verbose: bool = False) -> List[Result]:
    """Run every discovered example in ``mode`` ('pynative', 'graph' or 'both').

    Returns the results (in case-id order, modes interleaved); if ``out`` is
    given, writes the pass/fail table and failure details to it.
    """
    cases = discover(root, filters)
    work = [(c, m) for c in cases for m in _modes(mode)]

    def one(cm):
        return run_case(cm[0], cm[1], python=python, reference=reference, timeout=timeout)

    if jobs > 1:
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            results = list(ex.map(one, work))
    else:
        results = [one(cm) for cm in work]
    if out is not None:
        print(format_table(results, verbose=verbose), file=out)
    return results


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m msjax.conformance",
        description="Run the MindSpore documentation conformance examples under msjax "
                    "(or, with --reference, directly under another interpreter such as "
                    "real MindSpore).")
    p.add_argument("--mode", default="pynative", choices=["pynative", "graph", "both"],
                   help="execution mode passed to 'python -m msjax run --mode' (default: pynative)")
    p.add_argument("--python", default=None, metavar="EXE",
                   help="interpreter for the subprocesses (default: this one)")
    p.add_argument("--reference", action="store_true",
                   help="run scripts as '[EXE, script]' without msjax (e.g. real MindSpore); "
                        "--mode graph then sets ms.GRAPH_MODE before running the script")
    p.add_argument("--root", default=None, metavar="DIR",
                   help="conformance directory (default: <repo>/conformance, else ./conformance)")
    p.add_argument("-k", dest="filters", action="append", default=None, metavar="SUBSTR",
                   help="only examples whose id (e.g. seed001/02_grads1_input0) contains "
                        "SUBSTR; repeatable (OR)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                   help=f"per-script timeout in seconds (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("-j", "--jobs", type=int, default=min(4, os.cpu_count() or 1),
                   help="parallel subprocesses (default: min(4, cpus))")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print full details for every failure")
    args = p.parse_args(argv)

    results = run_all(args.mode, python=args.python, root=args.root, filters=args.filters,
                      reference=args.reference, timeout=args.timeout, jobs=args.jobs,
                      out=sys.stdout, verbose=args.verbose)
    if not results:
        print("no conformance examples found", file=sys.stderr)
        return 2
    return 0 if all(r.passed for r in results) else 1
