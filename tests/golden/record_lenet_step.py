"""Record issue 33's LeNet5 step with MindSpore 2.10 (never a test dependency):

    /tmp/ms/bin/python tests/golden/record_lenet_step.py          # writes lenet_step_mindspore.json
    /tmp/ms/bin/python tests/golden/record_lenet_step.py --print  # look, don't write

The case is in ``lenet_step.py``; the fixture notes the machine (instruction set, threads).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from lenet_step import lenet_step_cases, machine  # noqa: E402
from record_random_draws import write  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lenet_step_mindspore.json")

if __name__ == "__main__":
    doc = {"meta": {"mindspore": mindspore.__version__, **machine()}, "cases": lenet_step_cases(mindspore)}
    write(doc, FIXTURE)
