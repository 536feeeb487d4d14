"""Replay a Jupyter notebook's code cells the way Jupyter runs them, and compare
each cell's output with the output stored in the notebook.

    python -m msjax.conformance.notebook NOTEBOOK.ipynb [--mode pynative|graph]
    /tmp/ms/bin/python msjax/conformance/notebook.py NOTEBOOK.ipynb --record

A cell runs in one namespace shared by all cells; its stdout is captured, and
the ``repr`` of a final expression is its result (hidden by a trailing ``;``),
as in Jupyter. A cell that raises records ``Type: message``. ``%load_ext msjax``
makes ``import mindspore`` resolve to msjax (msjax's IPython extension); other
``%`` magics are not supported.

Without ``--record`` it imports msjax (``import mindspore`` resolves to msjax)
and compares every cell's output with the stored one using the conformance
comparison (``compare.py``: numbers to rel 1e-5, layout-insensitive). With
``--record`` (run under real MindSpore) it writes the outputs into the
notebook. Stdlib only, so that it runs in MindSpore's virtualenv by path.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import sys
from typing import List, Optional

try:
    from .compare import compare
except ImportError:  # run by path under MindSpore
    from compare import compare  # type: ignore

__all__ = ["cell_outputs", "run_notebook", "check_notebook", "main"]


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _magic(line: str, reference: bool) -> None:
    words = line.strip().lstrip("%").split()
    if words[:2] == ["load_ext", "msjax"]:
        if not reference:
            import msjax
            msjax.load_ipython_extension(None)
        return
    raise NotImplementedError(f"notebook magic {line.strip()!r} is not supported by this runner")


def run_cell(source: str, namespace: dict, reference: bool = False) -> str:
    """Run one cell; return what Jupyter would show (stdout, then the result or the error)."""
    code_lines = []
    for line in source.splitlines():
        if line.lstrip().startswith("%"):
            _magic(line, reference)
            code_lines.append("")
        else:
            code_lines.append(line)
    code = "\n".join(code_lines)
    out = io.StringIO()
    shown = ""
    with contextlib.redirect_stdout(out):
        try:
            tree = ast.parse(code)
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr) and not code.rstrip().endswith(";"):
                last = ast.Expression(tree.body.pop().value)
            exec(compile(tree, "<cell>", "exec"), namespace)
            if last is not None:
                value = eval(compile(last, "<cell>", "eval"), namespace)
                if value is not None:
                    shown = repr(value) + "\n"
        except Exception as e:  # noqa: BLE001 - a cell's error is its output
            shown = f"{type(e).__name__}: {e}\n"
    return out.getvalue() + shown


def cell_outputs(nb: dict, reference: bool = False) -> List[Optional[str]]:
    """The output text of every cell (None for markdown cells)."""
    namespace = {"__name__": "__main__"}
    return [run_cell(_source(c), namespace, reference) if c.get("cell_type") == "code" else None
            for c in nb["cells"]]


def stored_output(cell) -> str:
    text = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            text.append("".join(o["text"]) if isinstance(o["text"], list) else o["text"])
        elif o.get("output_type") == "execute_result":
            data = o["data"].get("text/plain", "")
            text.append(("".join(data) if isinstance(data, list) else data) + "\n")
        elif o.get("output_type") == "error":
            text.append(f"{o['ename']}: {o['evalue']}\n")
    return "".join(text)


def _as_outputs(text: str, counter: int) -> list:
    """Store a recorded cell output as one stream output (and an error output)."""
    outputs = []
    lines = text.splitlines(keepends=True)
    if lines and ": " in lines[-1] and lines[-1].split(":", 1)[0].endswith(("Error", "Exception")):
        ename, evalue = lines[-1].rstrip("\n").split(": ", 1)
        lines = lines[:-1]
        if lines:
            outputs.append({"name": "stdout", "output_type": "stream", "text": lines})
        outputs.append({"ename": ename, "evalue": evalue, "output_type": "error", "traceback": []})
        return outputs
    if lines:
        outputs.append({"name": "stdout", "output_type": "stream", "text": lines})
    return outputs


def run_notebook(path: str, reference: bool = False) -> List[Optional[str]]:
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    return cell_outputs(nb, reference)


def check_notebook(path: str, mode: Optional[str] = None) -> List[str]:
    """Replay under msjax; return a list of failure descriptions (empty: all cells match)."""
    import msjax
    if mode is not None:
        msjax.set_context(mode=msjax.GRAPH_MODE if mode == "graph" else msjax.PYNATIVE_MODE)
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    failures = []
    for i, (cell, got) in enumerate(zip(nb["cells"], cell_outputs(nb))):
        if got is None:
            continue
        res = compare(got, stored_output(cell))
        if not res.ok:
            failures.append(f"cell {i}: {res.message}\n--- got ---\n{got}--- stored ---\n{stored_output(cell)}")
    return failures


def record(path: str) -> None:
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    n = 0
    for cell, text in zip(nb["cells"], cell_outputs(nb, reference=True)):
        if text is None:
            continue
        n += 1
        cell["execution_count"] = n
        cell["outputs"] = _as_outputs(text, n)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m msjax.conformance.notebook", description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="+")
    ap.add_argument("--record", action="store_true", help="run under real MindSpore and store the outputs")
    ap.add_argument("--mode", choices=("pynative", "graph"), default=None)
    args = ap.parse_args(argv)
    bad = 0
    for path in args.notebooks:
        if args.record:
            record(path)
            print(f"recorded {path}")
            continue
        failures = check_notebook(path, args.mode)
        print(f"{path}: {'PASS' if not failures else 'FAIL'}")
        for f in failures:
            print(f)
        bad += bool(failures)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
