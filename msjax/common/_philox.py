"""MindSpore 2.10's host random streams for initializers, in vectorised NumPy.

MindSpore fills ``Normal``/``Uniform``/``TruncatedNormal`` (and the initializers built
on them) in C++ (``pybind_api/initializer/init_random.cc`` over
``include/common/random.h``): a Philox4x32-10 generator seeded with one 64-bit
integer (key = the seed's two words, counter = (0, 0, seed's two words)), read one
32-bit word per element by ``UniformDistribution<double>`` and
``TruncatedNormal<double>`` (inverse CDF with boost's erf_inv polynomials), and one
word per element by ``NormalDistribution<double>`` (Box-Muller on word pairs: the
even element takes the cosine, the odd one the sine). The work is split over
threads in chunks whose starts are multiples of 4 words and that ``discard`` up to
their start, so element ``i`` always reads word ``i``: the values do not depend on
the thread count, and this module computes all words at once.

The distribution's arguments pass through C++ ``float`` (rounded to Float32), the
arithmetic is in double, and each value is rounded to Float32 at the end.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["philox_words", "uniform", "normal", "truncated_normal"]

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_LO = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)
_CHUNK = 8192          # blocks of 4 words per pass: the working arrays stay in the CPU's cache


def _chunks(seed, n):
    """Yield ``(first_word, words)``: MindSpore's ``random::Philox(seed)`` stream of ``n`` 32-bit
    words, a chunk of whole 4-word blocks at a time (uint32, the last chunk cut to ``n``)."""
    seed = int(seed) % 2 ** 64
    keys, k0, k1 = [], seed & 0xFFFFFFFF, seed >> 32
    for _ in range(10):
        keys.append((k0, k1))
        k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
    blocks = (n + 3) // 4
    if blocks > 2 ** 32:
        raise ValueError(f"MindSpore's initializer stream: {n} values are more than this generator serves.")
    # A block's counter is (index, 0, seed lo, seed hi): in the first two rounds the words that
    # do not depend on the index are constants, computed once here.
    r1_c0 = ((0xCD9E8D57 * (seed & 0xFFFFFFFF)) >> 32) ^ keys[0][0]
    r1_c1 = (0xCD9E8D57 * (seed & 0xFFFFFFFF)) & 0xFFFFFFFF
    r2_t0 = 0xD2511F53 * r1_c0
    x_c2_r1 = np.uint64((seed >> 32) ^ keys[0][1])
    x_c0_r2 = np.uint64(r1_c1 ^ keys[1][0])
    x_c2_r2 = np.uint64((r2_t0 >> 32) ^ keys[1][1])
    c3_r2 = r2_t0 & 0xFFFFFFFF
    later = [(np.uint64(key0), np.uint64(key1)) for key0, key1 in keys[2:]]
    size = min(_CHUNK, blocks)
    c0, c1, c2, c3, t0, t1 = (np.empty(size, np.uint64) for _ in range(6))
    words = np.empty((size, 4), np.uint32)
    for start in range(0, blocks, _CHUNK):
        k = min(_CHUNK, blocks - start)
        a0, a1, a2, a3, b0, b1 = c0[:k], c1[:k], c2[:k], c3[:k], t0[:k], t1[:k]
        np.multiply(np.arange(start, start + k, dtype=np.uint64), _M0, out=b0)     # round 1
        np.right_shift(b0, _32, out=a2)
        np.bitwise_xor(a2, x_c2_r1, out=a2)
        np.bitwise_and(b0, _LO, out=a3)
        np.multiply(a2, _M1, out=b1)                                               # round 2
        np.right_shift(b1, _32, out=a0)
        np.bitwise_xor(a0, x_c0_r2, out=a0)
        np.bitwise_and(b1, _LO, out=a1)
        np.bitwise_xor(a3, x_c2_r2, out=a2)
        a3.fill(c3_r2)
        for key0, key1 in later:           # rounds 3 to 10, in place
            np.multiply(a0, _M0, out=b0)
            np.multiply(a2, _M1, out=b1)
            np.right_shift(b1, _32, out=a0)
            np.bitwise_xor(a0, a1, out=a0)
            np.bitwise_xor(a0, key0, out=a0)
            np.right_shift(b0, _32, out=a2)
            np.bitwise_xor(a2, a3, out=a2)
            np.bitwise_xor(a2, key1, out=a2)
            np.bitwise_and(b1, _LO, out=a1)
            np.bitwise_and(b0, _LO, out=a3)
        w = words[:k]
        w[:, 0], w[:, 1], w[:, 2], w[:, 3] = a0, a1, a2, a3
        yield 4 * start, w.reshape(-1)[:n - 4 * start]


def philox_words(seed, n):
    """The first ``n`` 32-bit words (uint32) of MindSpore's ``random::Philox(seed)``."""
    out = np.empty(n, np.uint32)
    for first, w in _chunks(seed, n):
        out[first:first + w.size] = w
    return out


def _f32(x):
    return float(np.float32(x))


def _fill(seed, shape, draw, words_per_value=1):
    """A Float32 array of ``shape`` filled chunk by chunk with ``draw(words)`` (Float64 values, one
    per word); ``words_per_value=2`` rounds the word count up to even (Box-Muller's pairs)."""
    n = int(np.prod(shape, dtype=np.int64))
    out = np.empty(n, np.float32)
    for first, w in _chunks(seed, n + n % words_per_value):
        out[first:first + w.size] = draw(w)[:n - first]
    return out.reshape(shape)


def uniform(seed, shape, a, b):
    """``_random_uniform(seed, buf, a, b)``: U[a, b) as Float32."""
    a, b = _f32(a), _f32(b)
    scale = (b - a) * 2.0 ** -32          # (b - a) * (w / 2**32), rounded once either way
    return _fill(seed, shape, lambda w: w * scale + a)


def _unit_floats(words):
    """``NormalDistribution::to_float``: the word's low 23 bits as a fraction in [0, 1)."""
    return (words & np.uint32(0x7FFFFF)) * 2.0 ** -23


def normal(seed, shape, mean, sigma):
    """``_random_normal(seed, buf, mean, sigma)``: Box-Muller on word pairs (the even element
    takes the cosine, the odd one the sine; an odd count drops the last sine), as Float32."""
    threshold, two_pi = _f32(1.0e-7), 2.0 * _f32(3.1415926)
    mean, sigma = _f32(mean), _f32(sigma)

    def draw(w):
        pairs = w.reshape(-1, 2)
        x = np.sqrt(-2.0 * np.log(np.maximum(_unit_floats(pairs[:, 0]), threshold))) * sigma
        y = two_pi * np.maximum(_unit_floats(pairs[:, 1]), threshold)
        out = np.empty(pairs.shape, np.float64)
        out[:, 0] = mean + x * np.cos(y)
        out[:, 1] = mean + x * np.sin(y)
        return out.reshape(-1)
    return _fill(seed, shape, draw, words_per_value=2)


_ROOT_TWO = _f32(1.4142135)
# boost's erf_inv rational approximations, as random.h writes them: (Y, P, Q) per range
_ERF_INV_SMALL = (0.0891314744949340820313,
                  (-0.000508781949658280665617, -0.00836874819741736770379, 0.0334806625409744615033,
                   -0.0126926147662974029034, -0.0365637971411762664006, 0.0219878681111168899165,
                   0.00822687874676915743155, -0.00538772965071242932965),
                  (1.0, -0.970005043303290640362, -1.56574558234175846809, 1.56221558398423026363,
                   0.662328840472002992063, -0.71228902341542847553, -0.0527396382340099713954,
                   0.0795283687341571680018, -0.00233393759374190016776, 0.000886216390456424707504))
_ERF_INV_MID = (2.249481201171875,
                (-0.202433508355938759655, 0.105264680699391713268, 8.37050328343119927838,
                 17.6447298408374015486, -18.8510648058714251895, -44.6382324441786960818,
                 17.445385985570866523, 21.1294655448340526258, -3.67192254707729348546),
                (1.0, 6.24264124854247537712, 3.9713437953343869095, -28.6608180499800029974,
                 -20.1432634680485188801, 48.5609213108739935468, 10.8268667355460159008,
                 -22.6436933413139721736, 1.72114765761200282724))
# the tails, by x = sqrt(-log(q)): (upper bound of x, offset, Y, P, Q)
_ERF_INV_TAILS = (
    (3.0, 1.125, 0.807220458984375,
     (-0.131102781679951906451, -0.163794047193317060787, 0.117030156341995252019, 0.387079738972604337464,
      0.337785538912035898924, 0.142869534408157156766, 0.0290157910005329060432, 0.00214558995388805277169,
      -0.679465575181126350155e-6, 0.285225331782217055858e-7, -0.681149956853776992068e-9),
     (1.0, 3.46625407242567245975, 5.38168345707006855425, 4.77846592945843778382, 2.59301921623620271374,
      0.848854343457902036425, 0.152264338295331783612, 0.01105924229346489121)),
    (6.0, 3.0, 0.93995571136474609375,
     (-0.0350353787183177984712, -0.00222426529213447927281, 0.0185573306514231072324,
      0.00950804701325919603619, 0.00187123492819559223345, 0.000157544617424960554631,
      0.460469890584317994083e-5, -0.230404776911882601748e-9, 0.266339227425782031962e-11),
     (1.0, 1.3653349817554063097, 0.762059164553623404043, 0.220091105764131249824,
      0.0341589143670947727934, 0.00263861676657015992959, 0.764675292302794483503e-4)),
    (18.0, 6.0, 0.98362827301025390625,
     (-0.0167431005076633737133, -0.00112951438745580278863, 0.00105628862152492910091,
      0.000209386317487588078668, 0.149624783758342370182e-4, 0.449696789927706453732e-6,
      0.462596163522878599135e-8, -0.281128735628831791805e-13, 0.99055709973310326855e-16),
     (1.0, 0.591429344886417493481, 0.138151865749083321638, 0.0160746087093676504695,
      0.000964011807005165528527, 0.275335474764726041141e-4, 0.282243172016108031869e-6)),
    (44.0, 18.0, 0.99714565277099609375,
     (-0.0024978212791898131227, -0.779190719229053954292e-5, 0.254723037413027451751e-4,
      0.162397777342510920873e-5, 0.396341011304801168516e-7, 0.411632831190944208473e-9,
      0.145596286718675035587e-11, -0.116765012397184275695e-17),
     (1.0, 0.207123112214422517181, 0.0169410838120975906478, 0.000690538265622684595676,
      0.145007359818232637924e-4, 0.144437756628144157666e-6, 0.509761276599778486139e-9)),
    (math.inf, 44.0, 0.99941349029541015625,
     (-0.000539042911019078575891, -0.28398759004727721098e-6, 0.899465114892291446442e-6,
      0.229345859265920864296e-7, 0.225561444863500149219e-9, 0.947846627503022684216e-12,
      0.135880130108924861008e-14, -0.348890393399948882918e-21),
     (1.0, 0.0845746234001899436914, 0.00282092984726264681981, 0.468292921940894236786e-4,
      0.399968812193862100054e-6, 0.161809290887904476097e-8, 0.231558608310259605225e-11)),
)


def _poly(coeffs, x):
    """Horner's rule from the last coefficient, multiply then add (``eval_polynomial``)."""
    acc = x * coeffs[-1]
    acc += coeffs[-2]
    for c in coeffs[-3::-1]:
        acc *= x
        acc += c
    return acc


def _erf_inv(p, q):
    """``erf_inv_imp(p, q)`` elementwise (p = 1 - q)."""
    out = np.empty_like(p)
    small = p <= 0.5
    mid = ~small & (q >= 0.25)
    tail = ~small & ~mid
    if small.any():
        y, num, den = _ERF_INV_SMALL
        ps = p[small]
        g = ps * (ps + 10.0)
        out[small] = g * y + g * (_poly(num, ps) / _poly(den, ps))
    if mid.any():
        y, num, den = _ERF_INV_MID
        qs = q[mid]
        g = np.sqrt(-2.0 * np.log(qs))
        xs = qs - 0.25
        out[mid] = g / (y + _poly(num, xs) / _poly(den, xs))
    if tail.any():
        x = np.sqrt(-np.log(q[tail]))
        res = np.empty_like(x)
        lower = -math.inf
        for upper, offset, y, num, den in _ERF_INV_TAILS:
            sel = (x >= lower) & (x < upper)
            if sel.any():
                xv = x[sel]
                xs = xv - offset
                res[sel] = y * xv + (_poly(num, xs) / _poly(den, xs)) * xv
            lower = upper
        out[tail] = res
    return out


def _erfc_inv(z):
    z = np.clip(z, float(np.nextafter(np.float32(0), np.float32(2))),
                float(np.nextafter(np.float32(2), np.float32(0))))
    q = np.minimum(z, 2.0 - z)            # z > 1: q = 2 - z, else q = z; p = 1 - q in both
    out = _erf_inv(1.0 - q, q)
    np.negative(out, out=out, where=z > 1.0)
    return out


def truncated_normal(seed, shape, a, b, mean, sigma):
    """``_truncated_normal(seed, buf, a, b, mean, sigma)``: inverse-CDF sampling of N(mean, sigma)
    restricted to [a, b], as Float32."""
    a, b, mean, sigma = _f32(a), _f32(b), _f32(mean), _f32(sigma)
    if sigma <= 0:
        raise RuntimeError(f"TruncatedNormal: invalid sigma {sigma:g}.")
    cdf_a = math.erfc(-(((a - mean) / sigma) / _ROOT_TWO)) / 2.0
    cdf_b = math.erfc(-(((b - mean) / sigma) / _ROOT_TWO)) / 2.0

    def draw(w):
        p = w * ((cdf_b - cdf_a) * 2.0 ** -32) + cdf_a
        return mean + (-_erfc_inv(2.0 * p) * _ROOT_TWO) * sigma
    return _fill(seed, shape, draw)
