"""Record issue 33's second set of golden random-op draws with MindSpore 2.10 (never a test
dependency):

    /tmp/ms/bin/python tests/golden/record_random_op_draws_more.py          # writes random_op_draws_more_mindspore.json
    /tmp/ms/bin/python tests/golden/record_random_op_draws_more.py --print  # look, don't write

The cases are in ``random_op_draws_more.py`` (bernoulli, laplace, random_categorical,
choice_with_mask, random_poisson and their Primitives, TruncatedNormal), in PyNative and as ``ms.jit`` functions in GRAPH_MODE.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from random_op_draws_more import (bernoulli_cases, categorical_cases, choice_cases, laplace_cases,  # noqa: E402
                                  multinomial_wr_cases, poisson_cases, prim_cases_more, truncated_normal_cases)
from record_random_draws import write  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "random_op_draws_more_mindspore.json")


def _all(graph):
    out = {}
    for cases in (bernoulli_cases, laplace_cases, categorical_cases, choice_cases, poisson_cases, multinomial_wr_cases):
        out.update(cases(mindspore, graph=graph))
    return out


if __name__ == "__main__":
    doc = {"meta": {"mindspore": mindspore.__version__}}
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    doc["pynative"] = _all(False)
    doc["prims"] = prim_cases_more(mindspore)
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    doc["graph"] = _all(True)
    doc["graph"].update(truncated_normal_cases(mindspore, graph=True))
    write(doc, FIXTURE)
