"""Record issue 33's golden initializer draws with MindSpore 2.10 (never a test dependency):

    /tmp/ms/bin/python tests/golden/record_init_draws.py          # writes init_draws_mindspore.json
    /tmp/ms/bin/python tests/golden/record_init_draws.py --print  # look, don't write

The cases are in ``init_draws.py`` (initializers, nn layers' defaults, LeNet5, a ResNet block).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from init_draws import init_cases  # noqa: E402
from record_random_draws import write  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "init_draws_mindspore.json")

if __name__ == "__main__":
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    doc = {"meta": {"mindspore": mindspore.__version__}, "cases": init_cases(mindspore)}
    write(doc, FIXTURE)
