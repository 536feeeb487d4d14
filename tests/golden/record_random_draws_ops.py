"""Record issue 24's golden draws of the remaining random transforms with MindSpore 2.10
(never a test dependency):

    /tmp/ms/bin/python tests/golden/record_random_draws_ops.py          # writes random_draws_ops_mindspore.json
    /tmp/ms/bin/python tests/golden/record_random_draws_ops.py --print  # look, don't write

The cases are in ``random_draws_ops.py`` (1 and 2 map workers, 2 epochs, eager calls).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from random_draws_ops import op_cases  # noqa: E402
from record_random_draws import write  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "random_draws_ops_mindspore.json")

if __name__ == "__main__":
    doc = {"meta": {"mindspore": mindspore.__version__}, "cases": op_cases(mindspore)}
    write(doc, FIXTURE)
