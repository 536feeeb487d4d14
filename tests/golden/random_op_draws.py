"""Issue 33's random-op draws, run the same way under MindSpore 2.10 and msjax.

``op_cases(ms)`` (``ms`` is ``mindspore`` or ``msjax``) returns ``{case: record}`` for the ops on
MindSpore's ``UniformReal``/``UniformInt``/``StandardNormal`` CPU kernels: each op under two global
seeds, with and without an explicit ``seed``, called twice in a row (the op-seed counter
advances), in three shapes (the last one larger than a parallel chunk). ``graph_cases`` runs the
same ops twice as one ``ms.jit`` function (its kernels keep their engines). A record
is the SHA-256 of the output bytes, its dtype and its first values. Only numpy and hashlib are
imported.
"""
import hashlib

import numpy as np

SHAPES = ((3,), (4, 5), (160, 130))
SEEDS = (1, 42)


def _rec(t):
    a = np.ascontiguousarray(t.asnumpy())
    return {"sha256": hashlib.sha256(a.tobytes()).hexdigest()[:32], "dtype": str(a.dtype),
            "head": [float(v) for v in a.reshape(-1)[:3]]}


def _ops(ms, shape, seed):
    ops = ms.ops
    i32 = ms.int32
    imin, imax = ms.Tensor(-7, i32), ms.Tensor(1000000007, i32)
    mean, std = ms.Tensor(np.float32(0.5)), ms.Tensor(np.float32(2.0))
    lo, hi = ms.Tensor(np.float32(-1.5)), ms.Tensor(np.float32(2.5))
    like = ms.Tensor(np.zeros(shape, np.float32))
    ilike = ms.Tensor(np.zeros(shape, np.int32))

    def uniform():
        return ops.uniform(shape, lo, hi, seed=seed)

    def uniform_int():
        return ops.uniform(shape, imin, imax, seed=seed, dtype=i32)

    def rand():
        return ops.rand(*shape, seed=seed)

    def rand_like():
        return ops.rand_like(like, seed=seed)

    def randint():
        return ops.randint(3, 17, shape, seed=seed)

    def randint_like():
        return ops.randint_like(ilike, -5, 2 ** 30, seed=seed)

    def standard_normal():
        return ops.standard_normal(shape, seed=seed)

    def normal():
        return ops.normal(shape, mean, std, seed=seed)

    def randn():
        return ops.randn(*shape, seed=seed)

    def randn_like():
        return ops.randn_like(like, seed=seed)
    return {f.__name__: f for f in (uniform, uniform_int, rand, rand_like, randint, randint_like, standard_normal,
                                    normal, randn, randn_like)}


def op_cases(ms, shapes=SHAPES, names=None):
    """PyNative calls: ``{name/shape/seeds/call: record}`` (``names`` limits the ops)."""
    out = {}
    for shape in shapes:
        for gseed in SEEDS:
            for seed in (None, 5):
                ms.set_seed(gseed)
                for name, fn in _ops(ms, shape, seed).items():
                    if names is not None and name not in names:
                        continue
                    for i in range(2):
                        out[f"{name}/{'x'.join(map(str, shape))}/g{gseed}/s{seed}/{i}"] = _rec(fn())
    return out


def graph_cases(ms, shapes=SHAPES, combos=None, names=None):
    """One ``ms.jit`` function per shape and seeds calling every op (or those in ``names``: each
    op's kernel name has its own op-seed counter, but ``uniform`` and ``uniform_int`` share one),
    run twice (its kernels keep their engines between the runs): ``{name/shape/seeds/run: record}``."""
    out = {}
    for shape in shapes:
        for gseed, seed in combos or [(g, s) for g in SEEDS for s in (None, 5)]:
            ms.set_seed(gseed)
            fns = _ops(ms, shape, seed)
            (uniform, uniform_int, rand, rand_like, randint, randint_like, standard_normal, normal, randn,
             randn_like) = fns.values()

            @ms.jit
            def run_all():
                return (uniform(), uniform_int(), rand(), rand_like(), randint(), randint_like(), standard_normal(),
                        normal(), randn(), randn_like())
            run = run_all
            if names is not None:
                fns = {k: v for k, v in fns.items() if k in names}
                chosen = list(fns.values())
                run = ms.jit(lambda: tuple(f() for f in chosen))
            names_run = list(fns)
            for i in range(2):
                for name, t in zip(names_run, run()):
                    out[f"{name}/{'x'.join(map(str, shape))}/g{gseed}/s{seed}/{i}"] = _rec(t)
    return out


def dropout_cases(ms, graph=False, shapes=SHAPES, combos=None):
    """``ops.dropout`` (the CPU ``Dropout`` kernel): PyNative calls, or two runs of an ``ms.jit``
    function; negative inputs, so dropped elements are -0.0."""
    out = {}
    for shape in shapes:
        x = ms.Tensor(-np.linspace(0.5, 2, int(np.prod(shape)), dtype=np.float32).reshape(shape))
        for gseed, seed in combos or [(g, s) for g in SEEDS for s in (None, 5)]:
            ms.set_seed(gseed)

            def drop():
                return ms.ops.dropout(x, p=0.3, seed=seed)
            call = ms.jit(drop) if graph else drop
            for i in range(2):
                out[f"dropout/{'x'.join(map(str, shape))}/g{gseed}/s{seed}/{i}"] = _rec(call())
    return out


def shuffle_cases(ms, shapes=((3,), (4, 5), (50000,))):
    """``ops.shuffle`` in PyNative (a fresh ``RandomShuffle`` kernel per call): odd and even row
    counts (one draw for two swaps) and 50000 rows (a draw per swap)."""
    out = {}
    for shape in shapes:
        x = ms.Tensor(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape))
        for gseed in SEEDS:
            for seed in (None, 5):
                ms.set_seed(gseed)
                for i in range(2):
                    out[f"shuffle/{'x'.join(map(str, shape))}/g{gseed}/s{seed}/{i}"] = _rec(ms.ops.shuffle(x, seed))
    return out


def randperm_cases(ms, sizes=(3, 20, 70000)):
    """``ops.randperm`` (``RandpermV2``: ``std::mt19937(offset or seed)`` at every call): sizes that
    take one draw for two swaps and 70000 (a draw per swap), seeds and offsets, output dtypes."""
    out = {}
    for n in sizes:
        for seed, offset in ((0, 0), (7, 0), (7, 11)):
            for i in range(2):
                out[f"randperm/{n}/s{seed}/o{offset}/{i}"] = _rec(ms.ops.randperm(n, seed, offset))
    out["randperm/float32"] = _rec(ms.ops.randperm(9, 3, 0, dtype=ms.float32))
    out["randperm/int32"] = _rec(ms.ops.randperm(9, 3, 0, dtype=ms.int32))
    return out


def multinomial_cases(ms):
    """``ops.multinomial`` with replacement (the ``Multinomial`` kernel) and without (``UniformReal``,
    log, top_k), 1-D and 2-D weights (the last with 300 rows x 100 columns), and the Primitive."""
    out = {}
    w1 = ms.Tensor(np.array([0.1, 2.0, 0.5, 1.5, 0.0, 3.0], np.float32))
    w2 = ms.Tensor(np.linspace(0.1, 3, 12, dtype=np.float32).reshape(3, 4))
    big = ms.Tensor((np.arange(30000, dtype=np.float32).reshape(300, 100) % 17) + 0.5)
    for gseed in SEEDS:
        for seed in (None, 5):
            ms.set_seed(gseed)
            tag = f"g{gseed}/s{seed}"
            for i in range(2):
                out[f"multinomial/w1/{tag}/{i}"] = _rec(ms.ops.multinomial(w1, 8, True, seed))
                out[f"multinomial/w2/{tag}/{i}"] = _rec(ms.ops.multinomial(w2, 5, True, seed))
                out[f"multinomial_norep/w1/{tag}/{i}"] = _rec(ms.ops.multinomial(w1, 4, False, seed))
                out[f"multinomial_norep/w2/{tag}/{i}"] = _rec(ms.ops.multinomial(w2, 3, False, seed))
            out[f"multinomial/big/{tag}"] = _rec(ms.ops.multinomial(big, 7, True, seed))
            out[f"multinomial_norep/big/{tag}"] = _rec(ms.ops.multinomial(big, 7, False, seed))
    op = ms.ops.Multinomial(seed=3, seed2=4)
    for i in range(2):
        out[f"Multinomial/{i}"] = _rec(op(w2, 6))
    return out


def channel_dropout_cases(ms, graph=False):
    """``Dropout2D``/``Dropout3D`` (``ops.dropout2d``/``3d``/``1d``, ``nn.Dropout2d``/``3d``): their
    kernel's engine is default-constructed, and in PyNative all calls with one keep_prob and shape
    share a kernel (the cases use shapes and probabilities no other case uses)."""
    ops, nn = ms.ops, ms.nn
    x4 = ms.Tensor(-np.ones((3, 7, 2, 2), np.float32))
    x5 = ms.Tensor(np.ones((2, 5, 1, 2, 1), np.float32))
    big = ms.Tensor(np.ones((64, 400, 1, 1), np.float32))
    out = {}
    if graph:
        cell = nn.Dropout2d(p=0.45)
        cell.set_train(True)

        @ms.jit
        def run(t):
            return cell(t)
        for i in range(2):
            out[f"graph_dropout2d_cell/{i}"] = _rec(run(x4))
        return out
    for i in range(2):
        out[f"dropout2d/{i}"] = _rec(ops.dropout2d(x4, 0.45))
    cell = nn.Dropout2d(p=0.45)
    cell.set_train(True)
    for i in range(2):
        out[f"dropout2d_cell/{i}"] = _rec(cell(x4))
    out["dropout3d"] = _rec(ops.dropout3d(x5, 0.3))
    cell3 = nn.Dropout3d(p=0.3)
    cell3.set_train(True)
    out["dropout3d_cell"] = _rec(cell3(x5))
    out["dropout1d"] = _rec(ops.dropout1d(ms.Tensor(np.ones((2, 6, 5), np.float32)), 0.35))
    out["dropout2d_large"] = _rec(ops.dropout2d(big, 0.2))
    return out


def prim_cases(ms):
    """Primitive instances keep their kernel between calls; a new instance starts again."""
    ops = ms.ops
    ms.set_seed(1)
    out = {}
    drop = ops.Dropout(keep_prob=0.6, Seed0=3, Seed1=4)
    x = ms.Tensor(np.ones((5, 3), np.float32))
    for i in range(2):
        out[f"Dropout/{i}"] = _rec(drop(x)[1])
    out["Dropout/new"] = _rec(ops.Dropout(keep_prob=0.6, Seed0=3, Seed1=4)(x)[1])
    for name, make, args in (("UniformReal", ops.UniformReal, ()),
                             ("StandardNormal", ops.StandardNormal, ()),
                             ("UniformInt", ops.UniformInt, (ms.Tensor(2, ms.int32), ms.Tensor(99, ms.int32)))):
        op = make(seed=3, seed2=4)
        for i in range(2):
            out[f"{name}/{i}"] = _rec(op((5, 3), *args))
        out[f"{name}/new"] = _rec(make(seed=3, seed2=4)((5, 3), *args))
        out[f"{name}/seed_only"] = _rec(make(seed=3)((4,), *args))
    return out
