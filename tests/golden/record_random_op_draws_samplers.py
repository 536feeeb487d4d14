"""Record issue 33's third set of golden random-op draws with MindSpore 2.10 (never a test
dependency):

    /tmp/ms/bin/python tests/golden/record_random_op_draws_samplers.py          # writes the fixture
    /tmp/ms/bin/python tests/golden/record_random_op_draws_samplers.py --print  # look, don't write

The cases are in ``random_op_draws_samplers.py`` (the candidate samplers, RandpermV2, RandomGamma,
ParameterizedTruncatedNormal; ops.shuffle in GRAPH_MODE), in PyNative,
as Primitive instances and as ``ms.jit`` functions in GRAPH_MODE.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from random_op_draws_samplers import (creation_cases, creation_graph_cases, fractional_pool_cases,  # noqa: E402
                                      gamma_cases, lucs_cases, prim_cases_rejection, prim_cases_samplers,
                                      ptn_cases, sampled_softmax_cases, shuffle_graph_cases, ucs_cases)
from record_random_draws import write  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "random_op_draws_samplers_mindspore.json")


if __name__ == "__main__":
    doc = {"meta": {"mindspore": mindspore.__version__}}
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    doc["pynative"] = {**ucs_cases(mindspore), **lucs_cases(mindspore), **gamma_cases(mindspore),
                       **ptn_cases(mindspore), **creation_cases(mindspore), **fractional_pool_cases(mindspore)}
    doc["prims"] = {**prim_cases_samplers(mindspore), **prim_cases_rejection(mindspore)}
    doc["losses"] = sampled_softmax_cases(mindspore)
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    doc["graph"] = {**ucs_cases(mindspore, graph=True), **lucs_cases(mindspore, graph=True),
                    **gamma_cases(mindspore, graph=True), **ptn_cases(mindspore, graph=True),
                    **shuffle_graph_cases(mindspore), **creation_graph_cases(mindspore)}
    write(doc, FIXTURE)
