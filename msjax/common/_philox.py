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
_K0, _K1 = 0x9E3779B9, 0xBB67AE85
_LO = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)


def philox_words(seed, n):
    """The first ``n`` 32-bit words (uint32) of MindSpore's ``random::Philox(seed)``."""
    seed = int(seed) % 2 ** 64
    blocks = (n + 3) // 4
    idx = np.arange(blocks, dtype=np.uint64)
    c0 = idx & _LO
    c1 = idx >> _32
    c2 = np.full(blocks, seed & 0xFFFFFFFF, np.uint64)
    c3 = np.full(blocks, seed >> 32, np.uint64)
    k0, k1 = seed & 0xFFFFFFFF, seed >> 32
    for r in range(10):
        if r:
            k0, k1 = (k0 + _K0) & 0xFFFFFFFF, (k1 + _K1) & 0xFFFFFFFF
        t0 = _M0 * c0
        t1 = _M1 * c2
        c0, c1, c2, c3 = ((t1 >> _32) ^ c1 ^ np.uint64(k0), t1 & _LO,
                          (t0 >> _32) ^ c3 ^ np.uint64(k1), t0 & _LO)
    out = np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32).reshape(-1)
    return out[:n]


def _f32(x):
    return float(np.float32(x))


def uniform(seed, shape, a, b):
    """``_random_uniform(seed, buf, a, b)``: U[a, b) as Float32."""
    n = int(np.prod(shape, dtype=np.int64))
    s = philox_words(seed, n) / 4294967296.0
    a, b = _f32(a), _f32(b)
    return ((b - a) * s + a).astype(np.float32).reshape(shape)


def _unit_floats(words):
    """``NormalDistribution::to_float``: the word's low 23 bits as a fraction in [0, 1)."""
    return (words & np.uint32(0x7FFFFF)) / 8388608.0


def normal(seed, shape, mean, sigma):
    """``_random_normal(seed, buf, mean, sigma)``: Box-Muller, as Float32."""
    n = int(np.prod(shape, dtype=np.int64))
    pairs = (n + 1) // 2
    w = philox_words(seed, 2 * pairs).reshape(pairs, 2)
    threshold = _f32(1.0e-7)
    u1 = np.maximum(_unit_floats(w[:, 0]), threshold)
    u2 = np.maximum(_unit_floats(w[:, 1]), threshold)
    mean, sigma = _f32(mean), _f32(sigma)
    x = np.sqrt(-2.0 * np.log(u1)) * sigma
    y = (2.0 * _f32(3.1415926)) * u2
    out = np.empty((pairs, 2), np.float64)
    out[:, 0] = mean + x * np.cos(y)
    out[:, 1] = mean + x * np.sin(y)
    return out.reshape(-1)[:n].astype(np.float32).reshape(shape)


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
    acc = np.full_like(x, coeffs[-1])
    for c in coeffs[-2::-1]:
        acc = acc * x + c
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
    upper = z > 1.0
    q = np.where(upper, 2.0 - z, z)
    p = np.where(upper, 1.0 - q, 1.0 - z)
    return np.where(upper, -1.0, 1.0) * _erf_inv(p, q)


def truncated_normal(seed, shape, a, b, mean, sigma):
    """``_truncated_normal(seed, buf, a, b, mean, sigma)``: inverse-CDF sampling of N(mean, sigma)
    restricted to [a, b], as Float32."""
    a, b, mean, sigma = _f32(a), _f32(b), _f32(mean), _f32(sigma)
    if sigma <= 0:
        raise RuntimeError(f"TruncatedNormal: invalid sigma {sigma:g}.")
    n = int(np.prod(shape, dtype=np.int64))
    u = philox_words(seed, n) / 4294967296.0
    cdf_a = math.erfc(-(((a - mean) / sigma) / _ROOT_TWO)) / 2.0
    cdf_b = math.erfc(-(((b - mean) / sigma) / _ROOT_TWO)) / 2.0
    p = cdf_a + u * (cdf_b - cdf_a)
    x = -_erfc_inv(2.0 * p) * _ROOT_TWO
    return (mean + x * sigma).astype(np.float32).reshape(shape)
