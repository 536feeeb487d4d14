"""Issue 33's third set of random-op draws, run the same way under MindSpore 2.10 and msjax:
``ops.uniform_candidate_sampler``/``UniformCandidateSampler`` (``minstd_rand0``),
``ops.log_uniform_candidate_sampler``/``LogUniformCandidateSampler`` (Philox4x32-10) and ``RandpermV2``
(``std::mt19937``, re-seeded every launch).

Each function takes ``ms`` (``mindspore`` or ``msjax``) and returns ``{case: record}`` (records as in
``random_op_draws.py``): three sizes (the last with more samples than a parallel chunk, and a range
wider than the engine's for Int64), two seeds, Int32 and Int64 classes, with and without ``unique``
and ``remove_accidental_hits``, two calls in a row; ``graph=True`` runs the calls as ``ms.jit``
functions (a kernel per graph node, kept from run to run). Only numpy is imported.
"""
import numpy as np

from random_op_draws import _rec

# (num_sampled, unique, range_max, remove_accidental_hits)
UCS = {"small": (3, True, 7, True), "mid": (10, False, 1000, False), "big": (5000, True, 100000, False),
       "wide": (40, False, 2 ** 40, False)}
LUCS = {"small": (5, True, 5), "mid": (10, False, 1000000), "big": (3000, True, 50000),
        "wide": (40, False, 2 ** 32 + 1000)}
SAMPLER_SEEDS = (5, 77)


def _classes(ms, npd):
    return ms.Tensor(np.array([[1, 3], [4, 6], [3, 0]], npd))


def _call(ms, fn, graph):
    return ms.jit(fn) if graph else fn


def ucs_cases(ms, graph=False, names=None, seeds=SAMPLER_SEEDS):
    """``ops.uniform_candidate_sampler`` (a fresh kernel per call in PyNative) on Int32 and Int64 classes."""
    out = {}
    for name, (num, unique, rmax, hits) in UCS.items():
        if names is not None and name not in names:
            continue
        for npd in ((np.int64,) if rmax > 2 ** 31 - 1 else (np.int32, np.int64)):
            tc = _classes(ms, npd)
            for seed in seeds:
                def ucs():
                    return ms.ops.uniform_candidate_sampler(tc, 2, num, unique, rmax, seed, hits)
                call = _call(ms, ucs, graph)
                for i in range(2):
                    out[f"ucs/{name}/{np.dtype(npd).name}/s{seed}/{i}"] = [_rec(t) for t in call()]
    return out


def lucs_cases(ms, graph=False, names=None, seeds=SAMPLER_SEEDS + (0,)):
    """``ops.log_uniform_candidate_sampler`` (its seed is a Philox offset: 0 is not random)."""
    out = {}
    tc = _classes(ms, np.int64)
    for name, (num, unique, rmax) in LUCS.items():
        if names is not None and name not in names:
            continue
        for seed in seeds:
            def lucs():
                return ms.ops.log_uniform_candidate_sampler(tc, 2, num, unique, rmax, seed)
            call = _call(ms, lucs, graph)
            for i in range(2):
                out[f"lucs/{name}/s{seed}/{i}"] = [_rec(t) for t in call()]
    return out


def prim_cases_samplers(ms):
    """Primitive instances keep their kernels from call to call (``RandpermV2`` re-seeds at every launch)."""
    ops = ms.ops
    out = {}
    tc = _classes(ms, np.int64)
    ucs = ops.UniformCandidateSampler(2, 6, False, 50, seed=9)
    lucs = ops.LogUniformCandidateSampler(2, 6, False, 500, seed=9)
    for i in range(3):
        out[f"UniformCandidateSampler/{i}"] = [_rec(t) for t in ucs(tc)]
        out[f"LogUniformCandidateSampler/{i}"] = [_rec(t) for t in lucs(tc)]
    out["UniformCandidateSampler/new"] = [_rec(t) for t in ops.UniformCandidateSampler(2, 6, False, 50, seed=9)(tc)]
    for n, seed, offset, dtype in ((5, 3, 0, ms.int64), (1000, 0, 0, ms.int32), (20800, 7, 11, ms.float32),
                                   (64, 2, 0, ms.uint8)):
        op = ops.RandpermV2(seed=seed, offset=offset, dtype=dtype)
        for i in range(2):
            out[f"RandpermV2/{n}/{seed}_{offset}/{i}"] = _rec(op(ms.Tensor(n, ms.int64)))
    return out


# RandomGamma: (shape, alphas, dtype)
GAMMA = {"small": ((3,), [1.0, 2.5], np.float32), "mid": ((4, 5), [0.3, 7.5], np.float64),
         "f16": ((2, 2), [[0.5, 1.0], [3.0, 1e-3]], np.float16), "big": ((160, 130), [0.7], np.float32)}


def gamma_cases(ms, graph=False, names=None, combos=None):
    """``ops.random_gamma(shape, alpha, seed)`` under two global seeds, with and without an op seed."""
    out = {}
    for gseed, seed in combos or [(g, s) for g in (1, 42) for s in (None, 5)]:
        ms.set_seed(gseed)
        for name, (shape, alphas, npd) in GAMMA.items():
            if names is not None and name not in names:
                continue
            shape_t, alpha_t = ms.Tensor(np.array(shape, np.int32)), ms.Tensor(np.array(alphas, npd))

            def gamma():
                return ms.ops.random_gamma(shape_t, alpha_t, seed)
            call = _call(ms, gamma, graph)
            for i in range(2):
                out[f"gamma/{name}/g{gseed}/s{seed}/{i}"] = _rec(call())
    return out


# ParameterizedTruncatedNormal: (shape, mean, stddev, min, max, dtype); the rows of MindSpore's kernel all
# use the first parameters
PTN = {"uniform": ((2, 3), [0.0, 5.0], [1.0], [-1.0], [1.0], np.float32),
       "normal": ((4, 5), [0.5], [2.0], [-9.0], [3.0], np.float32),
       "exponential": ((3, 4), [0.0], [1.0], [2.0], [9.0], np.float64),
       "f16": ((2, 6), [0.0], [1.0], [-3.0], [3.0], np.float16),
       "flip": ((2, 2), [0.0], [1.0], [-3.0], [-1.0], np.float32),
       "big": ((160, 130), [1.0], [0.5], [0.2], [1.5], np.float32)}


def ptn_cases(ms, graph=False, names=None, seeds=((3, 4), (0, 7))):
    """``ops.ParameterizedTruncatedNormal(seed, seed2)`` instances (no functional form), two calls each:
    the uniform, normal and exponential rejection samplers, Float16/32/64, a row of 16,640 samples."""
    out = {}
    for name, (shape, mean, std, lo, hi, npd) in PTN.items():
        if names is not None and name not in names:
            continue
        args = [ms.Tensor(np.array(shape, np.int64))] + [ms.Tensor(np.array(v, npd)) for v in (mean, std, lo, hi)]
        for seed, seed2 in seeds:
            op = ms.ops.ParameterizedTruncatedNormal(seed=seed, seed2=seed2)

            def ptn():
                return op(*args)
            call = _call(ms, ptn, graph)
            for i in range(2):
                out[f"ptn/{name}/{seed}_{seed2}/{i}"] = _rec(call())
    return out


def prim_cases_rejection(ms):
    """``ops.RandomGamma`` instances keep their Philox counter from call to call."""
    op = ms.ops.RandomGamma(seed=3, seed2=4)
    shape, alpha = ms.Tensor(np.array([3], np.int32)), ms.Tensor(np.array([1.0, 2.5, 0.2], np.float32))
    out = {f"RandomGamma/{i}": _rec(op(shape, alpha)) for i in range(3)}
    out["RandomGamma/new"] = _rec(ms.ops.RandomGamma(seed=3, seed2=4)(shape, alpha))
    return out


def shuffle_graph_cases(ms, shapes=((3,), (4, 5), (20800,)), combos=None):
    """``ops.shuffle`` as an ``ms.jit`` function in GRAPH_MODE: the node's ``RandomShuffle`` kernel keeps its
    engine from run to run (three runs)."""
    out = {}
    for shape in shapes:
        x = ms.Tensor(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape))
        for gseed, seed in combos or [(g, s) for g in (1, 42) for s in (None, 5)]:
            ms.set_seed(gseed)

            def shuffle():
                return ms.ops.shuffle(x, seed)
            call = ms.jit(shuffle)
            for i in range(3):
                out[f"shuffle/{'x'.join(map(str, shape))}/g{gseed}/s{seed}/{i}"] = _rec(call())
    return out


def sampled_softmax_cases(ms, hits_cases=(True, False)):
    """``nn.SampledSoftmaxLoss`` with a seed: its ``UniformCandidateSampler`` draws the negatives (the
    losses themselves carry float32 rounding: values, not hashes)."""
    w = ms.Tensor(np.sin(np.arange(60, dtype=np.float32)).reshape(20, 3))
    b = ms.Tensor(np.cos(np.arange(20, dtype=np.float32)))
    labels = ms.Tensor(np.array([0, 5, 7, 9], np.int32))
    x = ms.Tensor(np.sin(np.arange(12, dtype=np.float32) * 0.3).reshape(4, 3))
    out = {}
    for hits in hits_cases:
        net = ms.nn.SampledSoftmaxLoss(num_sampled=6, num_classes=20, seed=5, remove_accidental_hits=hits)
        for i in range(2):
            out[f"sampled_softmax/hits{hits}/{i}"] = net(w, b, labels, x).asnumpy().tolist()
    net = ms.nn.SampledSoftmaxLoss(num_sampled=6, num_classes=20, num_true=2, seed=7)
    two = ms.Tensor(np.array([[0, 1], [5, 3], [7, 7], [9, 2]], np.int64))
    out["sampled_softmax/num_true2"] = net(w, b, two, x).asnumpy().tolist()
    return out


def _creation_inputs(ms):
    return [ms.Tensor((np.arange(n, dtype=np.float32) - n / 2).reshape(shape)) for n, shape in
            ((4, (4,)), (20, (4, 5)), (20800, (160, 130)))]


def creation_cases(ms, seeds=(1, 42)):
    """``mindspore.numpy.rand``/``randn``/``randint`` (``UniformReal``/``StandardNormal``/``UniformInt`` with the
    seeds of the global seed) and ``ops.rrelu``/``nn.RReLU`` (``ops.uniform``), three sizes, two seeds."""
    mnp = ms.numpy
    xs = _creation_inputs(ms)
    out = {}
    for gseed in seeds:
        ms.set_seed(gseed)
        calls = {"rand": lambda: mnp.rand((2, 3)), "rand_f64": lambda: mnp.rand(160, 130, dtype=ms.float64),
                 "randn": lambda: mnp.randn(4), "randn_big": lambda: mnp.randn((160, 130)),
                 "randint": lambda: mnp.randint(0, 5, (3,)), "randint_one": lambda: mnp.randint(7),
                 "randint_big": lambda: mnp.randint(-3, 100, (160, 130))}
        for i, x in enumerate(xs):
            calls[f"rrelu{i}"] = (lambda v: lambda: ms.ops.rrelu(v))(x)
            calls[f"RReLU{i}"] = (lambda v: lambda: ms.nn.RReLU(0.2, 0.4)(v))(x)
        for name, fn in calls.items():
            for i in range(2):
                out[f"creation/{name}/g{gseed}/{i}"] = _rec(fn())
    return out


def creation_graph_cases(ms, names=("rand", "rrelu"), seeds=(1, 42)):
    """``mindspore.numpy.rand`` and ``ops.rrelu`` as ``ms.jit`` functions (their kernels kept from run to run)."""
    x = _creation_inputs(ms)[1]
    out = {}
    for gseed in seeds:
        ms.set_seed(gseed)

        def rand():
            return ms.numpy.rand((2, 3))

        def rrelu():
            return ms.ops.rrelu(x)
        for fn in (rand, rrelu):
            if fn.__name__ not in names:
                continue
            call = ms.jit(fn)
            for i in range(2):
                out[f"creation/{fn.__name__}/g{gseed}/{i}"] = _rec(call())
    return out


def fractional_pool_cases(ms, seeds=(1, 42)):
    """``nn.FractionalMaxPool2d``/``3d`` without ``_random_samples``: MindSpore's ``ops.rand(N, C, nd)``."""
    out = {}
    x2 = ms.Tensor(np.sin(np.arange(2 * 3 * 20 * 20, dtype=np.float32) * 0.37).reshape(2, 3, 20, 20))
    x3 = ms.Tensor(np.sin(np.arange(2 * 3 * 9 * 9 * 9, dtype=np.float64) * 0.37).reshape(2, 3, 9, 9, 9))
    for gseed in seeds:
        ms.set_seed(gseed)
        net = ms.nn.FractionalMaxPool2d(kernel_size=2, output_size=(7, 7), return_indices=True)
        for i in range(2):
            out[f"fractional2d/g{gseed}/{i}"] = [_rec(t) for t in net(x2)]
        net3 = ms.nn.FractionalMaxPool3d(kernel_size=2, output_ratio=(0.5, 0.5, 0.5), return_indices=True)
        out[f"fractional3d/g{gseed}"] = [_rec(t) for t in net3(x3)]
    return out
