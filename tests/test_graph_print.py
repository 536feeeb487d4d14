"""``print``/``ops.Print`` inside compiled code print what MindSpore's graph ``Print`` op prints
(each argument on its own line, Tensors without commas, 0-d Tensors and numbers as C++ streams
them), on every call; in a PyNative gradient they print Python's text on every call.
``fixtures/graph_print_mindspore.txt`` is MindSpore 2.10's output of ``graph_print_script.py``."""
import os
import subprocess
import sys

HERE = os.path.join(os.path.dirname(__file__), "fixtures")


def test_graph_print_matches_mindspore():
    out = subprocess.run([sys.executable, "-m", "msjax", "run", os.path.join(HERE, "graph_print_script.py")],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    with open(os.path.join(HERE, "graph_print_mindspore.txt")) as f:
        assert out == f.read()
