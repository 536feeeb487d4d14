"""Record issue 33's golden Dropout draws with MindSpore 2.10 (never a test dependency):

    /tmp/ms/bin/python tests/golden/record_dropout_draws.py          # writes dropout_draws_mindspore.json
    /tmp/ms/bin/python tests/golden/record_dropout_draws.py --print  # look, don't write

The cases are in ``dropout_draws.py``, run in PyNative and in GRAPH_MODE (both recorded).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from dropout_draws import dropout_cases  # noqa: E402
from record_random_draws import write  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dropout_draws_mindspore.json")

if __name__ == "__main__":
    doc = {"meta": {"mindspore": mindspore.__version__}}
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    doc["pynative"] = dropout_cases(mindspore)
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    doc["graph"] = dropout_cases(mindspore)
    write(doc, FIXTURE)
