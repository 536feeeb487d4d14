"""Issue 33: ``ops.bernoulli`` (with a seed), ``ops.laplace``/``standard_laplace``/``StandardLaplace``,
``ops.random_categorical``/``RandomCategorical``, ``ops.choice_with_mask``/``RandomChoiceWithMask`` and
``ops.random_poisson``/``RandomPoisson``, ``ops.multinomial_with_replacement``/``MultinomialWithReplacement``,
``ops.Bernoulli`` and ``ops.TruncatedNormal`` draw MindSpore 2.10's CPU kernels' numbers bit for bit: three shapes (the last larger than a parallel
chunk), two global seeds, with and without an op seed, two calls in a row, in PyNative, as Primitive
instances and as ``ms.jit`` functions in GRAPH_MODE (kernels kept from run to run).

``golden/random_op_draws_more_mindspore.json`` holds MindSpore 2.10's records
(``golden/record_random_op_draws_more.py`` runs the cases of ``golden/random_op_draws_more.py``); the
GRAPH_MODE test replays one small case per kernel (each graph compiles), the records hold them all."""
import json
import os
import sys

import numpy as np
import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
for _p in (_TESTS, os.path.join(_TESTS, "golden")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import msjax as ms  # noqa: E402
from msjax.ops._impl import random_kernels  # noqa: E402

from golden.random_op_draws import SHAPES  # noqa: E402
from golden.random_op_draws_more import (bernoulli_cases, categorical_cases, choice_cases, laplace_cases,  # noqa: E402
                                         multinomial_wr_cases, poisson_cases, prim_cases_more,
                                         truncated_normal_cases)

with open(os.path.join(_TESTS, "golden", "random_op_draws_more_mindspore.json")) as _f:
    GOLDEN = json.load(_f)


def _compare(got, want):
    bad = [k for k in got if got[k] != want[k]]
    assert not bad, (len(bad), bad[:5], [(got[k], want[k]) for k in bad[:2]])
    assert len(got) > 0


@pytest.fixture
def fresh_primitives():
    # ops.bernoulli's cached Primitive keeps its kernel (words left over) from call to call
    for key in [k for k in random_kernels._PRIM_ENGINES if k[0] == "Bernoulli"]:
        del random_kernels._PRIM_ENGINES[key]


def test_pynative_draws_match_mindspore(fresh_primitives):
    _compare(bernoulli_cases(ms), GOLDEN["pynative"])
    _compare(laplace_cases(ms), GOLDEN["pynative"])
    _compare(categorical_cases(ms), GOLDEN["pynative"])
    _compare(choice_cases(ms), GOLDEN["pynative"])
    _compare(multinomial_wr_cases(ms), GOLDEN["pynative"])
    # RandomPoisson is a host loop: its 20,800-sample case under one seed pair (the records hold all)
    _compare(poisson_cases(ms, combos=[(1, None)]), GOLDEN["pynative"])
    _compare(poisson_cases(ms, combos=[(1, 5), (42, None), (42, 5)], names=("small", "large_rates", "f64")),
             GOLDEN["pynative"])


def test_primitive_instances_match_mindspore():
    _compare(prim_cases_more(ms), GOLDEN["prims"])


def test_graph_draws_match_mindspore(fresh_primitives):
    old = ms.context.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        # one graph per kernel (each compiles); the records hold every op, shape and seed
        _compare(bernoulli_cases(ms, graph=True, shapes=SHAPES[:1], seeds=(5,), names=("bernoulli",)), GOLDEN["graph"])
        _compare(laplace_cases(ms, graph=True, shapes=SHAPES[2:], combos=[(42, 5)], names=("laplace",)),
                 GOLDEN["graph"])
        _compare(categorical_cases(ms, graph=True, seeds=(77,), names=("categorical",)), GOLDEN["graph"])
        _compare(choice_cases(ms, graph=True, combos=[(1, None)], names=("1d",)), GOLDEN["graph"])
        _compare(poisson_cases(ms, graph=True, combos=[(42, 5)], names=("small",)), GOLDEN["graph"])
        _compare(truncated_normal_cases(ms, graph=True), GOLDEN["graph"])
    finally:
        ms.set_context(mode=old)


def test_kernel_errors():
    x = ms.Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="shape of p is different"):
        ms.ops.bernoulli(x, ms.Tensor(np.full((3, 2), 0.5, np.float32)), seed=1)
    with pytest.raises(ValueError, match="Seed must be -1 or a non-negative integer, but got -2"):
        ms.ops.bernoulli(x, 0.5, -2)
    with pytest.raises(TypeError, match="the type of 'seed' must be 'int'"):
        ms.ops.bernoulli(x, 0.5, 1.5)
    with pytest.raises(TypeError, match="not consistent with assigned tensor data type Float64"):
        ms.ops.laplace((2,), ms.Tensor(0.0, ms.float64), ms.Tensor(np.float32(1)))
    with pytest.raises(TypeError, match="Bool"):
        ms.ops.choice_with_mask(x)
    with pytest.raises(ValueError, match="'count' must be int and must > 0"):
        ms.ops.choice_with_mask(ms.Tensor(np.ones(3, np.bool_)), 0)
    with pytest.raises(TypeError, match=r"argument\[seed\] must be a type of \{Int32, Int64\}"):
        ms.ops.random_categorical(ms.Tensor(np.zeros((2, 3), np.float32)), 2, 1.5)
    with pytest.raises(TypeError, match=r"argument\[shape\] must be a type of \{Int32, Int64\}, but got Tuple"):
        ms.ops.random_poisson((4,), ms.Tensor(np.float32(1)))


def test_host_float64_log_is_the_c_librarys():
    """MindSpore's kernels call glibc's ``std::log``; NumPy's own float64 ``log`` (AVX-512 CPUs) differs from
    it in the last bits, so the host kernels' logarithm must be the C library's on every CPU."""
    import math
    x = np.random.RandomState(0).rand(20000) + 1e-300
    got = random_kernels._log64(np, x)
    assert np.array_equal(got.view(np.uint64), np.array([math.log(v) for v in x]).view(np.uint64))
