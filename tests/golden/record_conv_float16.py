"""Record issue 36's float16 convolution cases with MindSpore 2.10 (never a test dependency):

    /tmp/ms/bin/python tests/golden/record_conv_float16.py          # writes conv_float16_mindspore.json
    /tmp/ms/bin/python tests/golden/record_conv_float16.py --print  # look, don't write

The cases are in ``conv_float16.py``; the fixture notes the machine (oneDNN's bits may depend on it).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from conv_float16 import conv_float16_cases  # noqa: E402
from lenet_step import machine  # noqa: E402
from record_random_draws import write  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "conv_float16_mindspore.json")

if __name__ == "__main__":
    mindspore.set_context(device_target="CPU")
    write({"meta": {"mindspore": mindspore.__version__, **machine()}, "cases": conv_float16_cases(mindspore)}, FIXTURE)
