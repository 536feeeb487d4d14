"""Record the float16/float32 ``MatMul`` cases with MindSpore 2.10 (never a test dependency):

    /tmp/ms/bin/python tests/golden/record_matmul_fp16.py      # writes matmul_fp16_mindspore.json

The cases are in ``matmul_fp16.py``; the fixture notes the machine (instruction set, threads). On an
AVX-512 CPU it writes ``matmul_fp16_mindspore_avx512.json`` instead (``lenet_step.record_path``)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from lenet_step import machine, record_path  # noqa: E402
from matmul_fp16 import matmul_cases  # noqa: E402
from record_random_draws import write  # noqa: E402

FIXTURE = record_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "matmul_fp16_mindspore.json"))

if __name__ == "__main__":
    mindspore.set_context(device_target="CPU", mode=mindspore.PYNATIVE_MODE)
    write({"meta": {"mindspore": mindspore.__version__, **machine()}, "cases": matmul_cases(mindspore)}, FIXTURE)
