"""Random ops, tested by distribution (MindSpore's bit streams cannot be matched):
shapes, dtypes, ranges, moments, reproducibility under ``ms.set_seed`` and fresh
numbers on every call (also inside compiled functions)."""
import numpy as np
import pytest

import msjax as ms
from msjax import ops

T = ms.Tensor
N = 20000


def _np(t):
    return t.asnumpy()


def test_uniform_float_and_int():
    x = ops.uniform((N,), T(1.0), T(3.0))
    assert x.dtype == ms.float32 and x.shape == (N,)
    v = _np(x)
    assert v.min() >= 1.0 and v.max() < 3.0
    assert abs(v.mean() - 2.0) < 0.03 and abs(v.std() - 2 / np.sqrt(12)) < 0.02
    i = ops.uniform((N,), T(1, ms.int32), T(5, ms.int32), seed=3, dtype=ms.int32)
    assert i.dtype == ms.int32
    assert set(np.unique(_np(i))) == {1, 2, 3, 4}
    b = ops.uniform((2,), T([1.0, 10.0]), T([2.0, 11.0]))
    assert b.shape == (2,) and 1 <= _np(b)[0] < 2 and 10 <= _np(b)[1] < 11
    assert ops.uniform((3, 1), T([0.0, 5.0]), T(6.0)).shape == (3, 2)


def test_uniform_errors():
    with pytest.raises(TypeError):
        ops.uniform((2,), 1.0, 2.0)
    with pytest.raises(TypeError):
        ops.uniform((2,), T(1.0, ms.float64), T(2.0, ms.float64))


def test_normal_family():
    x = _np(ops.normal((N,), T(1.0), T(2.0)))
    assert abs(x.mean() - 1) < 0.06 and abs(x.std() - 2) < 0.06
    assert ops.normal((2, 3), 1.0, 2.0).dtype == ms.float32
    assert ops.normal((2, 3), T(1), T(2)).dtype == ms.float32
    assert ops.normal((2,), T([[1.0], [2.0]]), T(2.0)).shape == (2, 2)
    for t in (ops.standard_normal((N,)), ops.randn(N), ops.StandardNormal(seed=1)((N,))):
        v = _np(t)
        assert t.dtype == ms.float32 and abs(v.mean()) < 0.04 and abs(v.std() - 1) < 0.04
    assert ops.randn(2, 3).shape == (2, 3) and ops.randn((2, 3)).shape == (2, 3)
    assert ops.randn(2, dtype=ms.float64).dtype == ms.float64
    assert ops.randn(2, dtype=ms.float16).dtype == ms.float16
    with pytest.raises(ValueError):
        ops.randn(2, dtype=ms.int32)
    like = ops.randn_like(T([1.0, 2.0], ms.float64))
    assert like.dtype == ms.float32 and like.shape == (2,)  # MindSpore: Float32 whatever the input's dtype


def test_rand_randint_like():
    r = ops.rand(N)
    assert r.dtype == ms.float32 and 0 <= _np(r).min() and _np(r).max() < 1
    assert ops.rand_like(T([1, 2]), dtype=ms.float32).dtype == ms.float32
    i = ops.randint(0, 5, (N,))
    assert i.dtype == ms.int64 and set(np.unique(_np(i))) == {0, 1, 2, 3, 4}
    il = ops.randint_like(T([1, 2], ms.int32), 0, 5)
    assert il.dtype == ms.int32
    with pytest.raises(ValueError):
        ops.randint_like(T([1.0, 2.0]), 0, 5)


def test_uniform_real_and_int_primitives():
    u = ops.UniformReal(seed=2)((4, 5))
    assert u.dtype == ms.float32 and u.shape == (4, 5)
    assert ops.UniformReal()(T([2, 3])).shape == (2, 3)
    v = _np(ops.UniformReal()((N,)))
    assert 0 <= v.min() and v.max() < 1 and abs(v.mean() - 0.5) < 0.02
    i = ops.UniformInt()((N,), T(1, ms.int32), T(5, ms.int32))
    assert i.dtype == ms.int32 and set(np.unique(_np(i))) == {1, 2, 3, 4}


def test_bernoulli():
    x = T(np.zeros(N, np.float32))
    b = ops.bernoulli(x, 0.3)
    assert b.dtype == ms.float32 and set(np.unique(_np(b))) <= {0.0, 1.0}
    assert abs(_np(b).mean() - 0.3) < 0.02
    bi = ops.bernoulli(T([1, 2, 3]), 1.0)
    assert bi.dtype == ms.int64 and _np(bi).tolist() == [1, 1, 1]
    bp = ops.bernoulli(T([1, 2, 3]), T([0.0, 1.0, 1.0]))
    assert _np(bp).tolist() == [0, 1, 1]
    with pytest.raises(ValueError):
        ops.bernoulli(T([0.0, 1.0]), 1.5)
    with pytest.raises(TypeError):
        ops.bernoulli(T([0, 1], ms.float16), 0.5)
    probs = T(np.full(N, 0.8, np.float32))
    tb = probs.bernoulli()
    assert tb.dtype == ms.float32 and abs(_np(tb).mean() - 0.8) < 0.02


def test_multinomial():
    w = T([0.0, 1.0, 3.0])
    s = ops.multinomial(w, 4000)
    assert s.dtype == ms.int32 and s.shape == (4000,)
    v = _np(s)
    assert 0 not in v and abs((v == 2).mean() - 0.75) < 0.04
    m = ops.multinomial(T([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]), 1, False)
    assert _np(m).tolist() == [[1], [0]]
    nr = _np(ops.multinomial(T([1.0, 1.0, 1.0, 1.0]), 4, False))
    assert sorted(nr.tolist()) == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        ops.multinomial(T([0.0, 1.0, 1.0]), 4, False)
    assert T([0.0, 1.0, 0.0]).multinomial(2).dtype == ms.int32
    assert ops.Multinomial(seed=1)(T([0.0, 1.0]), 3).shape == (3,)


def test_random_choice_with_mask():
    x = T(np.array([[True, False, True], [False, True, True]]))
    idx, mask = ops.RandomChoiceWithMask(count=6)(x)
    assert idx.dtype == ms.int32 and idx.shape == (6, 2) and mask.dtype == ms.bool_ and mask.shape == (6,)
    i, m = _np(idx), _np(mask)
    assert m.sum() == 4
    chosen = {tuple(r) for r in i[m]}
    assert chosen == {(0, 0), (0, 2), (1, 1), (1, 2)}
    assert (i[~m] == 0).all()
    i2, m2 = ops.RandomChoiceWithMask(count=2)(x)
    assert i2.shape == (2, 2) and _np(m2).all()
    i3, m3 = ops.RandomChoiceWithMask()(T([True, False, True]))
    assert i3.shape == (256, 1) and _np(m3).sum() == 2
    with pytest.raises(TypeError):
        ops.RandomChoiceWithMask()(T([1, 0]))


def test_permutations_and_categorical():
    p = _np(ops.randperm(10))
    assert sorted(p.tolist()) == list(range(10))
    s = _np(ops.shuffle(T([[1, 2], [3, 4], [5, 6]])))
    assert sorted(map(tuple, s.tolist())) == [(1, 2), (3, 4), (5, 6)]
    c = ops.random_categorical(T([[0.0, 10.0], [10.0, 0.0]]), 50)
    assert c.dtype == ms.int64 and c.shape == (2, 50)
    assert (_np(c)[0] == 1).mean() > 0.9 and (_np(c)[1] == 0).mean() > 0.9


def test_tensor_uniform_methods_in_place():
    t = T(np.zeros(N, np.float32))
    r = t.uniform(5.0, 6.0)
    assert r is not t and (_np(t) == 0).all()
    assert 5 <= _np(r).min() and _np(r).max() < 6
    out = t.uniform_(-1, 1)
    assert out is t and -1 <= _np(t).min() < -0.9 and 0.9 < _np(t).max() < 1
    p = ms.Parameter(T(np.zeros(100, np.float32)), name="p")
    p.uniform_()
    assert (_np(p) > 0).any() and (_np(p) < 1).all()
    n = T(np.zeros(N, np.float32)).normal_(2.0, 0.5)
    assert abs(_np(n).mean() - 2) < 0.02
    ri = T(np.zeros(N, np.int32)).random_(0, 5)
    assert ri.dtype == ms.int32 and set(np.unique(_np(ri))) == {0, 1, 2, 3, 4}
    with pytest.raises(RuntimeError):
        t.uniform_(2, 1)


def test_reproducible_under_set_seed_and_fresh_per_call():
    ms.set_seed(7)
    a1, b1 = _np(ops.randn(5)), _np(ops.uniform((5,), T(0.0), T(1.0)))
    ms.set_seed(7)
    a2, b2 = _np(ops.randn(5)), _np(ops.uniform((5,), T(0.0), T(1.0)))
    assert (a1 == a2).all() and (b1 == b2).all()
    assert not (_np(ops.randn(5)) == a1).all()


def test_random_inside_jit_and_graph_cell(mode):
    @ms.jit
    def draw(x):
        return x + ops.standard_normal((4,))

    z = T(np.zeros(4, np.float32))
    d1, d2 = _np(draw(z)), _np(draw(z))
    assert not (d1 == d2).all()

    class Noise(ms.nn.Cell):
        def construct(self, x):
            return x + ops.uniform(x.shape, T(0.0), T(1.0)) + ops.bernoulli(x, 0.5)

    net = Noise()
    n1, n2 = _np(net(z)), _np(net(z))
    assert not (n1 == n2).all() and (n1 >= 0).all() and (n1 < 2).all()
    # a graph compiled after set_seed repeats its numbers; a compiled graph's kernels keep their
    # engines across set_seed, as MindSpore's do
    ms.set_seed(3)
    r1 = _np(Noise()(z))
    ms.set_seed(3)
    r2 = _np(Noise()(z))
    assert (r1 == r2).all()


def test_random_inside_grad():
    def f(x):
        noise = ops.randn(3)
        return (x * ops.stop_gradient(noise)).sum(), noise

    g, aux = ms.grad(f, has_aux=True)(T([1.0, 2.0, 3.0]))
    assert np.allclose(_np(g), _np(aux[0]))


# ---------------------------------------------------------------------------
# mindspore.Generator / manual_seed / get_rng_state / set_rng_state
# ---------------------------------------------------------------------------
def _draw():
    return _np(ms.mint.randn(5))      # the default generator's stream (ops.standard_normal has its own kernels)


def test_manual_seed_repeats_draws():
    ms.manual_seed(123)
    a = _draw()
    ms.manual_seed(123)
    assert np.array_equal(_draw(), a)
    ms.manual_seed(124)
    assert not np.array_equal(_draw(), a)


def test_rng_state_roundtrip_restores_stream():
    ms.manual_seed(5)
    _draw()
    state = ms.get_rng_state()
    assert state.dtype == ms.uint8 and state.shape == (16,)
    a, b = _draw(), _draw()
    ms.seed()                      # reseeds with a random number
    ms.set_rng_state(state)
    assert ms.initial_seed() == 5
    assert np.array_equal(_draw(), a) and np.array_equal(_draw(), b)


def test_rng_state_restores_stream_inside_jit():
    f = ms.jit(lambda x: x + ms.mint.randn(3))
    x = T(np.zeros(3, np.float32))
    ms.manual_seed(9)
    state = ms.get_rng_state()
    a = _np(f(x))
    assert not np.array_equal(_np(f(x)), a)      # the key advances per call
    ms.set_rng_state(state)
    assert np.array_equal(_np(f(x)), a)


def test_generator_instance_has_its_own_stream():
    g = ms.Generator().manual_seed(3)
    state = g.get_state()
    ms.manual_seed(1)
    glob = _draw()
    x = T(np.zeros(4, np.float32))
    a = _np(x.uniform_(generator=g)).copy()
    g.set_state(state)
    b = _np(x.uniform_(generator=g))
    assert np.array_equal(a, b)
    ms.manual_seed(1)
    assert np.array_equal(_draw(), glob)         # the generator did not touch the global key
    g2 = ms.Generator().manual_seed(3)
    assert np.array_equal(_np(x.normal_(generator=g2)), _np(x.normal_(generator=ms.Generator().manual_seed(3))))


def test_set_seed_reseeds_random_ops_but_not_initial_seed():
    ms.manual_seed(11)
    ms.set_seed(4)
    a = _draw()
    ms.set_seed(4)
    assert np.array_equal(_draw(), a)
    assert ms.initial_seed() == 11


def test_generator_instance_inside_jit_advances_and_restores():
    g = ms.Generator().manual_seed(4)
    x = T(np.zeros(3, np.float32))
    f = ms.jit(lambda x: x.uniform(generator=g) + 0)
    state = g.get_state()
    a = _np(f(x))
    assert not np.array_equal(_np(f(x)), a)
    g.set_state(state)
    assert np.array_equal(_np(f(x)), a)
