"""Record issue 33's golden random-op draws with MindSpore 2.10 (never a test dependency):

    /tmp/ms/bin/python tests/golden/record_random_op_draws.py          # writes random_op_draws_mindspore.json
    /tmp/ms/bin/python tests/golden/record_random_op_draws.py --print  # look, don't write

The cases are in ``random_op_draws.py``: PyNative calls, the same calls as ``ms.jit`` functions in
GRAPH_MODE, and Primitive instances.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from random_op_draws import channel_dropout_cases, dropout_cases, graph_cases, op_cases, multinomial_cases, prim_cases, randperm_cases, shuffle_cases  # noqa: E402
from record_random_draws import write  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "random_op_draws_mindspore.json")

if __name__ == "__main__":
    doc = {"meta": {"mindspore": mindspore.__version__}}
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    doc["channels"] = channel_dropout_cases(mindspore)
    doc["pynative"] = op_cases(mindspore)
    doc["pynative"].update(dropout_cases(mindspore))
    doc["pynative"].update(shuffle_cases(mindspore))
    doc["pynative"].update(randperm_cases(mindspore))
    doc["pynative"].update(multinomial_cases(mindspore))
    doc["prims"] = prim_cases(mindspore)
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    doc["channels"].update(channel_dropout_cases(mindspore, graph=True))
    doc["graph"] = graph_cases(mindspore)
    doc["graph"].update(dropout_cases(mindspore, graph=True))
    write(doc, FIXTURE)
