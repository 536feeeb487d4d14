"""Record issue 33's training BatchNorm cases with MindSpore 2.10 (never a test dependency):

    /tmp/ms/bin/python tests/golden/record_batch_norm_bits.py          # writes batch_norm_bits_mindspore.json
    /tmp/ms/bin/python tests/golden/record_batch_norm_bits.py --print  # look, don't write

The cases are in ``batch_norm_bits.py``; the fixture notes the machine (the bits do not depend on it).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from batch_norm_bits import batch_norm_cases  # noqa: E402
from lenet_step import machine  # noqa: E402
from record_random_draws import write  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "batch_norm_bits_mindspore.json")

if __name__ == "__main__":
    mindspore.set_context(device_target="CPU")
    write({"meta": {"mindspore": mindspore.__version__, **machine()}, "cases": batch_norm_cases(mindspore)}, FIXTURE)
