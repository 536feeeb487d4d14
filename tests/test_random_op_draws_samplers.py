"""Issue 33: ``ops.uniform_candidate_sampler``/``UniformCandidateSampler``,
``ops.log_uniform_candidate_sampler``/``LogUniformCandidateSampler``, ``RandpermV2``,
``ops.random_gamma``/``RandomGamma``, ``ParameterizedTruncatedNormal``, ``ops.shuffle`` in GRAPH_MODE,
``mindspore.numpy.rand``/``randn``/``randint``, ``ops.rrelu``/``nn.RReLU`` and
``nn.FractionalMaxPool2d``/``3d`` draw MindSpore 2.10's CPU kernels' numbers bit for bit: three sizes
(the last with more samples than a parallel chunk) and a range wider than the engine's, two seeds,
Int32 and Int64 classes, two calls in a row, in PyNative, as Primitive instances and as ``ms.jit``
functions in GRAPH_MODE (kernels kept from run to run); ``nn.SampledSoftmaxLoss`` draws MindSpore's
negatives. ``NonDeterministicInts`` is not reproducible in MindSpore: its shape, dtype and range are
checked.

``golden/random_op_draws_samplers_mindspore.json`` holds MindSpore 2.10's records
(``golden/record_random_op_draws_samplers.py`` runs the cases of ``golden/random_op_draws_samplers.py``);
the tests replay a subset (each graph compiles; the rejection samplers are host loops), the records hold
them all (``LogUniformCandidateSampler`` in GRAPH_MODE too)."""
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

from golden.random_op_draws_samplers import (creation_cases, creation_graph_cases, fractional_pool_cases,  # noqa: E402
                                            gamma_cases,
                                            lucs_cases, prim_cases_rejection, prim_cases_samplers, ptn_cases,
                                            sampled_softmax_cases, shuffle_graph_cases, ucs_cases)

with open(os.path.join(_TESTS, "golden", "random_op_draws_samplers_mindspore.json")) as _f:
    GOLDEN = json.load(_f)


def _compare(got, want):
    bad = [k for k in got if got[k] != want[k]]
    assert not bad, (len(bad), bad[:5], [(got[k], want[k]) for k in bad[:2]])
    assert len(got) > 0


def test_pynative_draws_match_mindspore():
    _compare(ucs_cases(ms), GOLDEN["pynative"])
    _compare(lucs_cases(ms), GOLDEN["pynative"])


def test_numpy_creation_and_rrelu_match_mindspore():
    # mindspore.numpy.rand/randn/randint and ops.rrelu/nn.RReLU run MindSpore's UniformReal/StandardNormal/
    # UniformInt kernels with the seeds MindSpore derives
    _compare(creation_cases(ms, seeds=(42,)), GOLDEN["pynative"])
    _compare(fractional_pool_cases(ms, seeds=(1,)), GOLDEN["pynative"])


def test_rejection_samplers_match_mindspore():
    # RandomGamma and ParameterizedTruncatedNormal are host loops: their 20,800-sample cases under one
    # seed pair (the records hold all)
    _compare(gamma_cases(ms, combos=[(1, None)]), GOLDEN["pynative"])
    _compare(gamma_cases(ms, combos=[(1, 5), (42, None), (42, 5)], names=("small", "mid", "f16")), GOLDEN["pynative"])
    _compare(ptn_cases(ms, seeds=((3, 4),)), GOLDEN["pynative"])
    _compare(ptn_cases(ms, seeds=((0, 7),), names=("uniform", "normal", "exponential", "f16", "flip")),
             GOLDEN["pynative"])


def test_primitive_instances_match_mindspore():
    _compare(prim_cases_samplers(ms), GOLDEN["prims"])
    _compare(prim_cases_rejection(ms), GOLDEN["prims"])


def test_graph_draws_match_mindspore():
    old = ms.context.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _compare(ucs_cases(ms, graph=True, names=("small",), seeds=(77,)), GOLDEN["graph"])
        _compare(gamma_cases(ms, graph=True, names=("small",), combos=[(42, 5)]), GOLDEN["graph"])
        _compare(ptn_cases(ms, graph=True, names=("normal",), seeds=((3, 4),)), GOLDEN["graph"])
        _compare(shuffle_graph_cases(ms, shapes=((4, 5),), combos=[(42, None)]), GOLDEN["graph"])
        _compare(creation_graph_cases(ms, names=("rrelu",), seeds=(1,)), GOLDEN["graph"])
    finally:
        ms.set_context(mode=old)


def test_sampled_softmax_loss_draws_mindspores_negatives():
    # the same negatives as MindSpore's; the losses differ by float32 rounding only
    got, want = sampled_softmax_cases(ms, hits_cases=(True,)), GOLDEN["losses"]
    assert len(got) == 3 and set(got) <= set(want)
    for k in got:
        np.testing.assert_allclose(got[k], want[k], rtol=2e-5, err_msg=k)


def test_seed_zero_is_random_for_uniform_sampler_only():
    tc = ms.Tensor(np.array([[1], [2]], np.int32))
    draws = {tuple(ms.ops.uniform_candidate_sampler(tc, 1, 8, False, 2 ** 30)[0].asnumpy()) for _ in range(3)}
    assert len(draws) > 1
    tc64 = ms.Tensor(np.array([[1], [2]], np.int64))
    first, second = (ms.ops.log_uniform_candidate_sampler(tc64, 1, 8, False, 1000)[0].asnumpy() for _ in range(2))
    np.testing.assert_array_equal(first, second)


def test_non_deterministic_ints_shape_dtype_range():
    for dtype, npd in ((ms.int32, np.int32), (ms.int64, np.int64), (ms.uint32, np.uint32), (ms.uint64, np.uint64)):
        out = ms.ops.NonDeterministicInts(dtype=dtype)(ms.Tensor(np.array([40, 50], np.int32))).asnumpy()
        assert out.shape == (40, 50) and out.dtype == npd
        info = np.iinfo(npd)
        # 2,000 draws over the whole range: both halves of it are hit, and they are not all equal
        assert (out < info.min // 2 + info.max // 2).any() and (out > info.max // 2).any()
        assert len(np.unique(out)) > 1900
    assert ms.ops.NonDeterministicInts()(ms.Tensor(np.array([2, 3], np.int64))).dtype == ms.int64
    op, shape = ms.ops.NonDeterministicInts(dtype=ms.int32), ms.Tensor(np.array([8, 8], np.int32))
    step = ms.jit(lambda: op(shape))
    a, b = step().asnumpy(), step().asnumpy()        # a compiled step draws new numbers at every run
    assert a.shape == (8, 8) and a.dtype == np.int32 and not np.array_equal(a, b)


def test_sampler_errors():
    tc = ms.Tensor(np.array([[1], [3]], np.int32))
    with pytest.raises(TypeError, match="the type of 'num_true' should be 'int', but got type 'str'"):
        ms.ops.UniformCandidateSampler("1", 3, False, 4)
    with pytest.raises(ValueError, match="the value of num_sampled should be <= value of range_max: 4, but got 5"):
        ms.ops.UniformCandidateSampler(1, 5, True, 4)
    with pytest.raises(ValueError, match=r"the num_true must be equal to 1, but got 2"):
        ms.ops.UniformCandidateSampler(2, 3, False, 4)(tc)
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Int64\]\}, but got Tensor\[Int32\]"):
        ms.ops.LogUniformCandidateSampler(1, 3, False, 4, seed=1)(tc)
    with pytest.raises(ValueError, match="the argument 'seed' must >= 0, but got -2"):
        ms.ops.LogUniformCandidateSampler(1, 3, True, 4, seed=-2)
    with pytest.raises(RuntimeError, match="'Range_max' integer overflow"):
        ms.ops.log_uniform_candidate_sampler(ms.Tensor(np.array([[1]], np.int64)), 1, 3, False, 2 ** 40)
    with pytest.raises(TypeError, match=r"should be one of \[mindspore.int32, .*but got 'mindspore.float32'"):
        ms.ops.NonDeterministicInts(dtype=ms.float32)
    with pytest.raises(ValueError, match="'shape' must be at least 2-dimensional"):
        ms.ops.NonDeterministicInts()(ms.Tensor(np.array([2], np.int64)))
    with pytest.raises(ValueError, match="the input 'n' must be greater than 0, but got data: -1"):
        ms.ops.RandpermV2()(ms.Tensor(-1, ms.int64))
