"""Execute notebooks on a real Jupyter kernel (``nbclient`` + ``ipykernel``) and
compare every code cell's outputs with the outputs stored in the notebook.

    python -m msjax.conformance.notebook NOTEBOOK.ipynb ...          # check under msjax
    /tmp/ms/bin/python msjax/conformance/notebook.py NB --record     # record under MindSpore 2.10
    python -m msjax.conformance.notebook NB --record-msjax           # store the msjax-only cells

The kernel is the ``python3`` kernel of the Python running this module (so
``/tmp/ms/bin/python`` records with MindSpore, and the test suite checks with
msjax), started in the notebook's directory. ``%load_ext msjax`` in a notebook
makes ``import mindspore`` resolve to msjax; when recording under MindSpore a
stub extension of that name does nothing.

What is compared (``compare_notebooks``): per code cell, the text of its stdout
streams, of each result/display's ``text/plain`` and of an error's
``ename: evalue`` (first line), joined, with the conformance comparator
(``compare.py``: numbers to rel 1e-5, layout-insensitive); stderr streams
(warnings) are ignored. A cell tagged ``msjax-only`` (a display MindSpore has
no counterpart for: a Cell's parameter table, a loss-curve picture) is skipped
when recording under MindSpore; its stored outputs come from ``--record-msjax``
and also must have the same output types and MIME types (e.g. ``image/png``).
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import sys
import tempfile
from typing import List

try:
    from .compare import compare
except ImportError:  # run by path under MindSpore
    from compare import compare  # type: ignore

__all__ = ["execute", "cell_text", "compare_notebooks", "check_notebook", "record", "main"]

MSJAX_ONLY = "msjax-only"


def _tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def _joined(value):
    return "".join(value) if isinstance(value, list) else (value or "")


def execute(nb: dict, cwd: str, timeout: int = 300, skip_tag: str = None) -> dict:
    """Run ``nb`` (a notebook dict) on a fresh ``python3`` kernel in ``cwd``; return the
    executed copy. Cells tagged ``skip_tag`` run as empty cells."""
    import nbformat
    from nbclient import NotebookClient
    run = copy.deepcopy(nb)
    if skip_tag:
        for cell in run["cells"]:
            if cell.get("cell_type") == "code" and skip_tag in _tags(cell):
                cell["source"] = ""
    node = nbformat.reads(json.dumps(run), as_version=4)     # joins multi-line sources
    client = NotebookClient(node, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": cwd}})
    client.execute()
    return json.loads(nbformat.writes(node))


def cell_text(cell) -> str:
    """What a reader of the cell sees, as text (stdout, results, errors)."""
    parts = []
    for o in cell.get("outputs", []):
        kind = o.get("output_type")
        if kind == "stream" and o.get("name") == "stdout":
            parts.append(_joined(o.get("text")))
        elif kind in ("execute_result", "display_data"):
            parts.append(_joined(o.get("data", {}).get("text/plain")) + "\n")
        elif kind == "error":
            parts.append(f"{o.get('ename')}: {str(o.get('evalue', '')).splitlines()[0] if o.get('evalue') else ''}\n")
    return "".join(parts)


def _kinds(cell):
    """The cell's kinds of output; consecutive stdout chunks count as one (a kernel flushes
    text in as many messages as it likes: a print from compiled code arrives on its own)."""
    kinds = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream" and o.get("name") == "stderr":
            continue
        kind = (o.get("output_type"), sorted(o.get("data", {})))
        if not (kind[0] == "stream" and kinds and kinds[-1][0] == "stream"):
            kinds.append(kind)
    return kinds


def compare_notebooks(stored: dict, executed: dict) -> List[str]:
    """Failure descriptions, one per code cell whose outputs differ (empty: all match)."""
    failures = []
    for i, (want, got) in enumerate(zip(stored["cells"], executed["cells"])):
        if want.get("cell_type") != "code":
            continue
        exp, act = cell_text(want), cell_text(got)
        res = compare(act, exp)
        if not res.ok:
            failures.append(f"cell {i}: {res.message}\n--- got ---\n{act}--- stored ---\n{exp}")
        elif MSJAX_ONLY in _tags(want) and _kinds(want) != _kinds(got):
            failures.append(f"cell {i}: output types {_kinds(got)} differ from the stored {_kinds(want)}")
    return failures


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _save(path, nb):
    for i, cell in enumerate(nb["cells"]):
        cell.setdefault("id", f"c{i:02d}")
    nb["nbformat"], nb["nbformat_minor"] = 4, max(nb.get("nbformat_minor", 0), 5)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")


def check_notebook(path: str, timeout: int = 300) -> List[str]:
    """Execute ``path`` under msjax and compare it with its stored outputs."""
    nb = _load(path)
    return compare_notebooks(nb, execute(nb, os.path.dirname(os.path.abspath(path)), timeout))


def _clean_outputs(cell):
    return [o for o in cell.get("outputs", []) if not (o.get("output_type") == "stream" and o.get("name") == "stderr")]


def record(path: str, msjax_cells: bool = False) -> None:
    """Store the outputs of the cells this interpreter is the reference for: MindSpore's
    (every cell but the ``msjax-only`` ones), or with ``msjax_cells`` msjax's ``msjax-only`` cells."""
    nb = _load(path)
    stub = None
    env_before = os.environ.get("PYTHONPATH")
    try:
        if not msjax_cells:
            stub = tempfile.mkdtemp(prefix="msjax_stub_")
            with open(os.path.join(stub, "msjax.py"), "w") as f:
                f.write("def load_ipython_extension(ipython):\n    pass\n")
            os.environ["PYTHONPATH"] = stub + (os.pathsep + env_before if env_before else "")
            os.environ.setdefault("GLOG_v", "3")
        done = execute(nb, os.path.dirname(os.path.abspath(path)), skip_tag=None if msjax_cells else MSJAX_ONLY)
    finally:
        if env_before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = env_before
        if stub:
            shutil.rmtree(stub, ignore_errors=True)
    for cell, ran in zip(nb["cells"], done["cells"]):
        if cell.get("cell_type") != "code" or (MSJAX_ONLY in _tags(cell)) != msjax_cells:
            continue
        cell["outputs"] = _clean_outputs(ran)
        for o in cell["outputs"]:
            if o.get("output_type") == "error":
                o["traceback"] = []
        cell["execution_count"] = ran.get("execution_count")
    _save(path, nb)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m msjax.conformance.notebook", description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="+")
    ap.add_argument("--record", action="store_true", help="run under real MindSpore and store the outputs")
    ap.add_argument("--record-msjax", action="store_true", help="store the outputs of the msjax-only cells")
    args = ap.parse_args(argv)
    bad = 0
    for path in args.notebooks:
        if args.record or args.record_msjax:
            record(path, msjax_cells=args.record_msjax)
            print(f"recorded {path}")
            continue
        failures = check_notebook(path)
        print(f"{path}: {'PASS' if not failures else 'FAIL'}")
        for f in failures:
            print(f)
        bad += bool(failures)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
