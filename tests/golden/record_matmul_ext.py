"""Record the float32 ``ops.matmul`` cases with MindSpore 2.10 (never a test dependency):

    /tmp/ms/bin/python tests/golden/record_matmul_ext.py      # writes matmul_ext_mindspore.json

The cases are in ``matmul_ext.py``; the fixture notes the machine (instruction set, threads). On an
AVX-512 CPU it writes ``matmul_ext_mindspore_avx512.json`` instead (``lenet_step.record_path``):
MindSpore's oneDNN matmul rounds otherwise there, and the test compares with the record of its CPU."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from lenet_step import machine, record_path  # noqa: E402
from matmul_ext import matmul_ext_cases  # noqa: E402
from record_random_draws import write  # noqa: E402

FIXTURE = record_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "matmul_ext_mindspore.json"))

if __name__ == "__main__":
    mindspore.set_context(device_target="CPU", mode=mindspore.PYNATIVE_MODE)
    write({"meta": {"mindspore": mindspore.__version__, **machine()}, "cases": matmul_ext_cases(mindspore)}, FIXTURE)
