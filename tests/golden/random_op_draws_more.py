"""Issue 33's second set of random-op draws, run the same way under MindSpore 2.10 and msjax:
``ops.bernoulli`` (the CPU ``Bernoulli`` kernel: Philox4x32-10 keyed by the op's seed),
``ops.laplace``/``ops.standard_laplace``/``ops.StandardLaplace`` (``minstd_rand0``),
``ops.random_categorical`` (``minstd_rand0`` seeded from the ``seed`` input) and
``ops.choice_with_mask``/``ops.RandomChoiceWithMask`` (``std::shuffle`` over ``minstd_rand0``),
``ops.random_poisson``/``ops.RandomPoisson`` (``std::mt19937``, Knuth's and a rejection method).

Each function takes ``ms`` (``mindspore`` or ``msjax``) and returns ``{case: record}`` (records as in
``random_op_draws.py``): three shapes (the last larger than a parallel chunk), two global seeds,
with and without an op seed, two calls in a row; ``graph=True`` runs the calls as ``ms.jit``
functions (a kernel per graph node, kept from run to run). Only numpy is imported.
"""
import numpy as np

from random_op_draws import SEEDS, SHAPES, _rec


def _tag(shape):
    return "x".join(map(str, shape))


def _call(ms, fn, graph):
    return ms.jit(fn) if graph else fn


def bernoulli_cases(ms, graph=False, shapes=SHAPES, seeds=(5, 123456789), names=None):
    """``ops.bernoulli(x, p, seed)`` with a given seed (MindSpore draws ``seed=None`` from
    /dev/urandom, whatever the global seed): a float ``p`` and a Tensor ``p``, Float32 and Int32
    inputs, two calls in a row."""
    out = {}
    for shape in shapes:
        n = int(np.prod(shape))
        x = ms.Tensor(np.zeros(shape, np.float32))
        xi = ms.Tensor(np.zeros(shape, np.int32))
        pt = ms.Tensor(np.linspace(0.05, 0.95, n, dtype=np.float32).reshape(shape))
        for seed in seeds:
            def bernoulli():
                return ms.ops.bernoulli(x, 0.3, seed)

            def bernoulli_int():
                return ms.ops.bernoulli(xi, 0.6, seed)

            def bernoulli_ptensor():
                return ms.ops.bernoulli(x, pt, seed)
            for fn in (bernoulli, bernoulli_int, bernoulli_ptensor):
                if names is not None and fn.__name__ not in names:
                    continue
                name, call = fn.__name__, _call(ms, fn, graph)
                for i in range(2):
                    out[f"{name}/{_tag(shape)}/s{seed}/{i}"] = _rec(call())
    return out


def laplace_cases(ms, graph=False, shapes=SHAPES, combos=None, names=None):
    """``ops.laplace`` (``StandardLaplace`` times ``lambda_param`` plus ``mean``) and
    ``ops.standard_laplace``."""
    out = {}
    mean, lam = ms.Tensor(np.float32(0.25)), ms.Tensor(np.float32(1.5))
    for shape in shapes:
        for gseed, seed in combos or [(g, s) for g in SEEDS for s in (None, 5)]:
            ms.set_seed(gseed)
            def laplace():
                return ms.ops.laplace(shape, mean, lam, seed)

            def standard_laplace():
                return ms.ops.standard_laplace(shape, seed)
            for fn in (laplace, standard_laplace):
                if names is not None and fn.__name__ not in names:
                    continue
                name, call = fn.__name__, _call(ms, fn, graph)
                for i in range(2):
                    out[f"{name}/{_tag(shape)}/g{gseed}/s{seed}/{i}"] = _rec(call())
    return out


def categorical_cases(ms, graph=False, seeds=(5, 77), names=None):
    """``ops.random_categorical(logits, num_sample, seed)`` (seed 0 draws a random seed in
    MindSpore), Float32 and Float64 logits, 3 x 4 and 200 x 120 (more classes and rows than a
    chunk), output dtypes."""
    out = {}
    small = ms.Tensor(np.log(np.array([[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1], [0.25] * 4], np.float32)))
    big = ms.Tensor((np.sin(np.arange(24000, dtype=np.float32)) * 3).reshape(200, 120))
    small64 = ms.Tensor(np.log(np.array([[0.5, 0.2, 0.3], [0.05, 0.9, 0.05]], np.float64)))
    for seed in seeds:
        def categorical():
            return ms.ops.random_categorical(small, 6, seed)

        def categorical_big():
            return ms.ops.random_categorical(big, 9, seed, ms.int32)

        def categorical_f64():
            return ms.ops.random_categorical(small64, 5, seed, ms.int16)
        for fn in (categorical, categorical_big, categorical_f64):
            if names is not None and fn.__name__ not in names:
                continue
            name, call = fn.__name__, _call(ms, fn, graph)
            for i in range(2):
                out[f"{name}/s{seed}/{i}"] = _rec(call())
    return out


def choice_cases(ms, graph=False, combos=None, names=None):
    """``ops.choice_with_mask(x, count, seed)``: 1-D, 2-D, 3-D (MindSpore's coordinates of a 3-D
    input divide by one column count at every axis) and a large input, ``count`` below and above
    the number of True elements (padding)."""
    out = {}
    inputs = {"1d": np.array([True, False, True, True, False, True, True]),
              "2d": (np.arange(20).reshape(4, 5) % 3) != 1,
              "3d": (np.arange(24).reshape(2, 3, 4) % 5) != 0,
              "big": (np.arange(20800).reshape(160, 130) % 7) < 4}
    for gseed, seed in combos or [(g, s) for g in SEEDS for s in (None, 5)]:
        ms.set_seed(gseed)
        for name, arr in inputs.items():
            if names is not None and name not in names:
                continue
            x = ms.Tensor(arr)
            for count in (3, 30) if name != "big" else (256,):
                def choice():
                    return ms.ops.choice_with_mask(x, count, seed)
                call = _call(ms, choice, graph)
                for i in range(2):
                    idx, mask = call()
                    out[f"choice/{name}/c{count}/g{gseed}/s{seed}/{i}"] = [_rec(idx), _rec(mask)]
    return out


def poisson_cases(ms, graph=False, combos=None, names=None):
    """``ops.random_poisson(shape, rate, seed, dtype)``: rates below 10 (Knuth's products) and from 10
    (transformed rejection), Float32/Int32/Float64 outputs, and 20,800 samples of one rate."""
    out = {}
    cases = {"small": (np.array([3], np.int32), np.array([0.5, 4.5], np.float32), ms.float32),
             "large_rates": (np.array([2, 2], np.int64), np.array([[12.0, 50.5], [9.99, 1000.0]], np.float32),
                             ms.int32),
             "f64": (np.array([4], np.int32), np.array([2.0, 15.0, 0.0], np.float64), ms.float64),
             "big": (np.array([160, 130], np.int32), np.array([3.0], np.float32), ms.float32)}
    for gseed, seed in combos or [(g, s) for g in SEEDS for s in (None, 5)]:
        ms.set_seed(gseed)
        for name, (shape, rate, dtype) in cases.items():
            if names is not None and name not in names:
                continue
            shape_t, rate_t = ms.Tensor(shape), ms.Tensor(rate)

            def poisson():
                return ms.ops.random_poisson(shape_t, rate_t, seed, dtype)
            call = _call(ms, poisson, graph)
            for i in range(2):
                out[f"poisson/{name}/g{gseed}/s{seed}/{i}"] = _rec(call())
    return out


def multinomial_wr_cases(ms, graph=False):
    """``ops.multinomial_with_replacement`` (a fresh kernel per call) with and without replacement, zero
    weights, Float16/32/64 weights, a 300 x 100 input, and the Primitive (its stream goes on)."""
    out = {}
    w1 = ms.Tensor(np.array([[0.0, 9.0, 4.0, 0.0, 1.5]], np.float32))
    w2 = ms.Tensor(np.linspace(0.1, 3, 12, dtype=np.float16).reshape(3, 4))
    w3 = ms.Tensor(np.array([0.5, 0.0, 2.0, 1.0], np.float64))
    big = ms.Tensor((np.arange(30000, dtype=np.float32).reshape(300, 100) % 17) + 0.5)
    for seed, offset in ((2, 5), (7, 0)):
        def wr():
            return (ms.ops.multinomial_with_replacement(w1, seed, offset, 7, True),
                    ms.ops.multinomial_with_replacement(w1, seed, offset, 5, False),
                    ms.ops.multinomial_with_replacement(w2, seed, offset, 3, False),
                    ms.ops.multinomial_with_replacement(w3, seed, offset, 6, True),
                    ms.ops.multinomial_with_replacement(big, seed, offset, 9, True))
        res = _call(ms, wr, graph)()
        for name, t in zip(("w1_rep", "w1_norep", "w2_f16", "w3_f64", "big"), res):
            out[f"mwr/{name}/{seed}_{offset}"] = _rec(t)
    if not graph:
        op = ms.ops.MultinomialWithReplacement(numsamples=3, replacement=True)
        for i in range(3):
            out[f"MultinomialWithReplacement/{i}"] = _rec(op(w1, ms.Tensor(4, ms.int64), ms.Tensor(1, ms.int64)))
        for i, seed in enumerate((5, 4)):          # a new seed input, then the first again
            out[f"MultinomialWithReplacement/reseed{i}"] = _rec(op(w1, ms.Tensor(seed, ms.int64),
                                                                   ms.Tensor(1, ms.int64)))
    return out


def truncated_normal_cases(ms, graph=False):
    """``ops.TruncatedNormal`` (its engine kept from call to call, or from run to run of a graph)."""
    op = ms.ops.TruncatedNormal(seed=3, seed2=4)
    shape = ms.Tensor(np.array([5, 3], np.int32))

    def trunc():
        return op(shape)
    call = _call(ms, trunc, graph)
    return {f"TruncatedNormal/{i}": _rec(call()) for i in range(2)}


def prim_cases_more(ms):
    """Primitive instances: ``StandardLaplace`` keeps its engine from call to call;
    so does ``RandomChoiceWithMask`` (seeds (0, 0) are a random seed, left out)."""
    ops = ms.ops
    out = {}
    lap = ops.StandardLaplace(seed=3, seed2=4)
    for i in range(2):
        out[f"StandardLaplace/{i}"] = _rec(lap((5, 3)))
    out["StandardLaplace/new"] = _rec(ops.StandardLaplace(seed=3, seed2=4)((5, 3)))
    x = ms.Tensor((np.arange(30).reshape(6, 5) % 4) != 0)
    for seeds in ((0, 3), (7, 0), (7, 9)):
        op = ops.RandomChoiceWithMask(count=6, seed=seeds[0], seed2=seeds[1])
        for i in range(2):
            idx, mask = op(x)
            out[f"RandomChoiceWithMask/{seeds[0]}_{seeds[1]}/{i}"] = [_rec(idx), _rec(mask)]
    bern = ops.Bernoulli(seed=3, offset=2)
    x5, half = ms.Tensor(np.zeros(5, np.float32)), ms.Tensor(np.float32(0.5))
    xi = ms.Tensor(np.zeros((4, 5), np.int64))
    pt = ms.Tensor(np.linspace(0.1, 0.9, 20, dtype=np.float32).reshape(4, 5))
    for i in range(2):
        out[f"Bernoulli/5/{i}"] = _rec(bern(x5, half))
        out[f"Bernoulli/4x5/{i}"] = _rec(bern(xi, pt))
    out["Bernoulli/big"] = _rec(ops.Bernoulli(seed=7)(ms.Tensor(np.zeros((160, 130), np.float32)),
                                                     ms.Tensor(np.float32(0.25))))
    out.update(truncated_normal_cases(ms))
    out["TruncatedNormal/f16"] = _rec(ops.TruncatedNormal(ms.float16, 1, 2)(ms.Tensor(np.array([4, 4], np.int64))))
    out["TruncatedNormal/f64_big"] = _rec(ops.TruncatedNormal(ms.float64, 0, 9)(ms.Tensor(np.array([160, 130],
                                                                                                   np.int32))))
    poisson = ops.RandomPoisson(seed=3, seed2=4)
    shape, rate = ms.Tensor(np.array([5], np.int32)), ms.Tensor(np.array([2.5, 11.0], np.float32))
    for i in range(2):
        out[f"RandomPoisson/{i}"] = _rec(poisson(shape, rate))
    return out
