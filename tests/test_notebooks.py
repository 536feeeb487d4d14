"""Every notebook in notebooks/ replays on msjax with the outputs MindSpore 2.10
recorded in it (msjax/conformance/notebook.py), in both execution modes."""
import glob
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOKS = sorted(glob.glob(os.path.join(ROOT, "notebooks", "*.ipynb")))


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("path", NOTEBOOKS, ids=os.path.basename)
def test_notebook_replays_recorded_outputs(path, mode):
    p = subprocess.run([sys.executable, "-m", "msjax.conformance.notebook", path, "--mode", mode],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-4000:]


def test_runner_reports_a_changed_output(tmp_path):
    """The comparison can fail: a stored number changed by 1% is caught."""
    import json
    nb = json.load(open(NOTEBOOKS[0], encoding="utf-8"))
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream" and "step 0 loss" in "".join(out["text"]):
                out["text"] = ["".join(out["text"]).replace("step 0 loss 5.3401065", "step 0 loss 5.39")]
    bad = tmp_path / "changed.ipynb"
    bad.write_text(json.dumps(nb), encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "msjax.conformance.notebook", str(bad)],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 1 and "FAIL" in p.stdout
