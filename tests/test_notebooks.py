"""Every notebook in notebooks/ runs on a real Jupyter kernel (nbclient + ipykernel)
under msjax, and every code cell's outputs match the stored ones: recorded with
MindSpore 2.10, except cells tagged ``msjax-only`` (msjax's own displays), which
also keep their output and MIME types (msjax/conformance/notebook.py)."""
import copy
import glob
import json
import os

import pytest

from msjax.conformance import notebook

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOKS = sorted(glob.glob(os.path.join(ROOT, "notebooks", "*.ipynb")))


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def test_there_are_six_recorded_notebooks():
    assert len(NOTEBOOKS) >= 6
    for path in NOTEBOOKS:
        code = [c for c in _load(path)["cells"] if c["cell_type"] == "code"]
        assert code[0]["source"][0].startswith("%load_ext msjax"), path
        recorded = [c for c in code if "msjax-only" not in c.get("metadata", {}).get("tags", [])]
        assert sum(bool(c["outputs"]) for c in recorded) >= len(recorded) // 2, f"{path}: outputs not recorded"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=os.path.basename)
def test_notebook_on_a_kernel_matches_recorded_outputs(path):
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    failures = notebook.check_notebook(path)
    assert not failures, "\n\n".join(failures)


def test_comparison_catches_changes():
    """A changed number, a missing error and a changed output type each fail."""
    stored = _load(os.path.join(ROOT, "notebooks", "checkpoints_with_mindspore.ipynb"))
    assert notebook.compare_notebooks(stored, stored) == []
    i, cell = next((i, c) for i, c in enumerate(stored["cells"])
                   if c["cell_type"] == "code" and "Tensor(shape=[1, 2]" in notebook.cell_text(c))
    changed = copy.deepcopy(stored)
    for o in changed["cells"][i]["outputs"]:
        if o["output_type"] == "execute_result":
            o["data"]["text/plain"] = [t.replace("[[ ", "[[ 1", 1) for t in o["data"]["text/plain"]]
    assert any(f.startswith(f"cell {i}:") for f in notebook.compare_notebooks(stored, changed))
    dropped = copy.deepcopy(stored)
    dropped["cells"][i]["outputs"] = dropped["cells"][i]["outputs"][:1]
    assert notebook.compare_notebooks(stored, dropped)
    shown = _load(os.path.join(ROOT, "notebooks", "datasets_and_model_train.ipynb"))
    j = next(j for j, c in enumerate(shown["cells"]) if "msjax-only" in c.get("metadata", {}).get("tags", []))
    no_html = copy.deepcopy(shown)
    for o in no_html["cells"][j]["outputs"]:
        o.get("data", {}).pop("text/html", None)
    assert any("output types" in f for f in notebook.compare_notebooks(shown, no_html))


def test_stdout_chunks_are_one_output():
    """A kernel may send printed text in several messages (a print from compiled code
    arrives on its own): the chunks compare as one stdout output, in text and in kind."""
    def cell(*chunks):
        return {"cell_type": "code", "metadata": {"tags": ["msjax-only"]},
                "outputs": [{"output_type": "stream", "name": "stdout", "text": t} for t in chunks]}
    one, two = {"cells": [cell("a\nb\n")]}, {"cells": [cell("a\n", "b\n")]}
    assert notebook.compare_notebooks(one, two) == []
    other = {"cells": [dict(cell("a\n"), outputs=cell("a\n")["outputs"] + [
        {"output_type": "execute_result", "data": {"text/plain": "b"}}])]}
    assert notebook.compare_notebooks(one, other)
