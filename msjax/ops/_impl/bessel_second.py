"""Modified Bessel functions of the second kind (``bessel_k0/k1`` and their scaled ``k0e/k1e``) and
Bessel functions of the second kind (``bessel_y0/y1``), elementwise on Float16/Float32/Float64 Tensors.

The arithmetic is Cephes' (Chebyshev series for K, rational approximations and Hankel's expansion for
Y), evaluated in float64 and rounded once to the input dtype. Differences from MindSpore 2.10's CPU
kernels: those compute Float32 (and Float16) in float32 arithmetic, so msjax's Float32 results are
the correctly rounded ones and may differ from MindSpore's in the last bit or two (a few 1e-7
relative; more near the zeros of Y0/Y1, where the relative error of float32 arithmetic grows).
The values outside the domain are MindSpore 2.10's: K of a negative number is +inf, Y of a negative
number is -inf, Y1(0) is -inf in Float64 and NaN in Float32/Float16 (as MindSpore's kernels give).
Gradients: MindSpore's bprops (K0' = -K1, K1' = -K0 - K1/x, K0e' = K0e - K1e,
K1e' = K1e (1 - 1/x) - K0e, Y0' = -Y1, Y1' = Y0 - Y1/x).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np

from ..._core import eager
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import wrap
from .math import _named

# Chebyshev coefficients (Cephes k0.c / k1.c): K0(x) + log(x/2) I0(x) on [0, 2] in x*x - 2, and
# exp(x) sqrt(x) K0(x) on [2, inf) in 8/x - 2; the same pair for x (K1(x) - log(x/2) I1(x)) and K1.
_K0_A = (1.37446543561352307156E-16, 4.25981614279661018399E-14, 1.03496952576338420167E-11,
         1.90451637722020886025E-9, 2.53479107902614945675E-7, 2.28621210311945178607E-5,
         1.26461541144692592338E-3, 3.59799365153615016266E-2, 3.44289899924628486886E-1,
         -5.35327393233902768720E-1)
_K0_B = (5.30043377268626276149E-18, -1.64758043015242134646E-17, 5.21039150503902756861E-17,
         -1.67823109680541210385E-16, 5.51205597852431940784E-16, -1.84859337734377901440E-15,
         6.34007647740507060557E-15, -2.22751332699166985548E-14, 8.03289077536357521100E-14,
         -2.98009692317273043925E-13, 1.14034058820847496303E-12, -4.51459788337394416547E-12,
         1.85594911495471785253E-11, -7.95748924447710747776E-11, 3.57739728140030116597E-10,
         -1.69753450938905987466E-9, 8.57403401741422608519E-9, -4.66048989768794782956E-8,
         2.76681363944501510342E-7, -1.83175552271911948767E-6, 1.39498137188764993662E-5,
         -1.28495495816278026384E-4, 1.56988388573005337491E-3, -3.14481013119645005427E-2,
         2.44030308206595545468E0)
_K1_A = (-7.02386347938628759343E-18, -2.42744985051936593393E-15, -6.66690169419932900609E-13,
         -1.41148839263352776110E-10, -2.21338763073472585583E-8, -2.43340614156596823496E-6,
         -1.73028895751305206302E-4, -6.97572385963986435018E-3, -1.22611180822657148235E-1,
         -3.53155960776544875667E-1, 1.52530022733894777053E0)
_K1_B = (-5.75674448366501715755E-18, 1.79405087314755922667E-17, -5.68946255844285935196E-17,
         1.83809354436663880070E-16, -6.05704724837331885336E-16, 2.03870316562433424052E-15,
         -7.01983709041831346144E-15, 2.47715442448130437068E-14, -8.97670518232499435011E-14,
         3.34841966607842919884E-13, -1.28917396095102890680E-12, 5.13963967348173025100E-12,
         -2.12996783842756842877E-11, 9.21831518760500529508E-11, -4.19035475934189648750E-10,
         2.01504975519703286596E-9, -1.03457624656780970260E-8, 5.74108412545004946722E-8,
         -3.50196060308781257119E-7, 2.40648494783721712015E-6, -1.93619797416608296024E-5,
         1.95215518471351631108E-4, -2.85781685962277938680E-3, 1.03923736576817238437E-1,
         2.72062619048444266945E0)

# Cephes j0.c / j1.c: Hankel's expansion P/Q for x > 5 and the rational part of Y for x <= 5.
_Y0_PP = (7.96936729297347051624E-4, 8.28352392107440799803E-2, 1.23953371646414299388E0,
          5.44725003058768775090E0, 8.74716500199817011941E0, 5.30324038235394892183E0,
          9.99999999999999997821E-1)
_Y0_PQ = (9.24408810558863637013E-4, 8.56288474354474431428E-2, 1.25352743901058953537E0,
          5.47097740330417105182E0, 8.76190883237069594232E0, 5.30605288235394617618E0,
          1.00000000000000000218E0)
_Y0_QP = (-1.13663838898469149931E-2, -1.28252718670509318512E0, -1.95539544257735972385E1,
          -9.32060152123768231369E1, -1.77681167980488050595E2, -1.47077505154951170175E2,
          -5.14105326766599330220E1, -6.05014350600728481186E0)
_Y0_QQ = (1.0, 6.43178256118178023184E1, 8.56430025976980587198E2, 3.88240183605401609683E3,
          7.24046774195652478189E3, 5.93072701187316984827E3, 2.06209331660327847417E3,
          2.42005740240291393179E2)
_Y0_YP = (1.55924367855235737965E4, -1.46639295903971606143E7, 5.43526477051876500413E9,
          -9.82136065717911466409E11, 8.75906394395366999549E13, -3.46628303384729719441E15,
          4.42733268572569800351E16, -1.84950800436986690637E16)
_Y0_YQ = (1.0, 1.04128353664259848412E3, 6.26107330137134956842E5, 2.68919633393814121987E8,
          8.64002487103935000337E10, 2.02979612750105546709E13, 3.17157752842975028269E15,
          2.50596256172653059228E17)
_J0_RP = (-4.79443220978201773821E9, 1.95617491946556577543E12, -2.49248344360967716204E14,
          9.70862251047306323952E15)
_J0_RQ = (1.0, 4.99563147152651017219E2, 1.73785401676374683123E5, 4.84409658339962045305E7,
          1.11855537045356834862E10, 2.11277520115489217587E12, 3.10518229857422583814E14,
          3.18121955943204943306E16, 1.71086294081043136091E18)
_Y1_PP = (7.62125616208173112003E-4, 7.31397056940917570436E-2, 1.12719608129684925192E0,
          5.11207951146807644818E0, 8.42404590141772420927E0, 5.21451598682361504063E0,
          1.00000000000000000254E0)
_Y1_PQ = (5.71323128072548699714E-4, 6.88455908754495404082E-2, 1.10514232634061696926E0,
          5.07386386128601488557E0, 8.39985554327604159757E0, 5.20982848682361821619E0,
          9.99999999999999997461E-1)
_Y1_QP = (5.10862594750176621635E-2, 4.98213872951233449420E0, 7.58238284132545283818E1,
          3.66779609360150777800E2, 7.10856304998926107277E2, 5.97489612400613639965E2,
          2.11688757100572135698E2, 2.52070205858023719784E1)
_Y1_QQ = (1.0, 7.42373277035675149943E1, 1.05644886038262816351E3, 4.98641058337653607651E3,
          9.56231892404756170795E3, 7.99704160447350683650E3, 2.82619278517639096600E3,
          3.36093607810698293419E2)
_Y1_YP = (1.26320474790178026440E9, -6.47355876379160291031E11, 1.14509511541823727583E14,
          -8.12770255501325109621E15, 2.02439475713594898196E17, -7.78877196265950026825E17)
_Y1_YQ = (1.0, 5.94301592346128195359E2, 2.35564092943068577943E5, 7.34811944459721705660E7,
          1.87601316108706159478E10, 3.88231277496238566008E12, 6.20557727146953693363E14,
          6.87141087355300489866E16, 3.97270608116560655612E18)
_J1_RP = (-8.99971225705559398224E8, 4.52228297998194034323E11, -7.27494245221818276015E13,
          3.68295732863852883286E15)
_J1_RQ = (1.0, 6.20836478118054335476E2, 2.56987256757748830383E5, 8.35146791431949253037E7,
          2.21511595479792499675E10, 4.74914122079991414898E12, 7.84369607876235854894E14,
          8.95222336184627338078E16, 5.32278620332680085395E18)
_J0_DR1, _J0_DR2 = 5.78318596294678452118E0, 3.04712623436620863991E1
_J1_Z1, _J1_Z2 = 1.46819706421238932572E1, 4.92184563216946036703E1
_SQ2OPI = 0.79788456080286535588


def _chbevl(x, coef):
    b0, b1, b2 = jnp.full_like(x, coef[0]), jnp.zeros_like(x), jnp.zeros_like(x)
    for c in coef[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def _poly(x, coef):
    """Horner's rule, highest power first."""
    acc = jnp.full_like(x, coef[0])
    for c in coef[1:]:
        acc = acc * x + c
    return acc


def _k_parts(x, a, b, log_part):
    """K (unscaled on [0, 2], exp(x)-scaled on (2, inf)), without the domain's edges."""
    small = x <= 2
    xs = jnp.where(small, x, 1.0)
    xl = jnp.where(small, 4.0, x)
    near = _chbevl(xs * xs - 2, a) + log_part(xs)
    far = _chbevl(8.0 / xl - 2, b) / jnp.sqrt(xl)
    return small, near, far


def _k0_parts(x):
    return _k_parts(x, _K0_A, _K0_B, lambda s: -jnp.log(0.5 * s) * jsp.i0(s))


def _k1_parts(x):
    small, near, far = _k_parts(x, _K1_A, _K1_B, lambda s: 0.0)
    xs = jnp.where(small, x, 1.0)
    return small, jnp.log(0.5 * xs) * jsp.i1(xs) + near / xs, far


def _k(x, parts, scaled):
    small, near, far = parts(x)
    v = jnp.where(small, near * jnp.exp(x) if scaled else near, far if scaled else far * jnp.exp(-x))
    return jnp.where(x <= 0, jnp.inf, v)


def _hankel(x, pp, pq, qp, qq, phase):
    w = 5.0 / x
    z = w * w
    p = _poly(z, pp) / _poly(z, pq)
    q = _poly(z, qp) / _poly(z, qq)
    xn = x - phase
    return (p * jnp.sin(xn) + w * q * jnp.cos(xn)) * _SQ2OPI / jnp.sqrt(x)


def _y0_f64(x):
    small = x <= 5
    xs = jnp.where(small & (x > 0), x, 1.0)
    z = xs * xs
    j0 = jnp.where(xs < 1e-5, 1.0 - z / 4.0, (z - _J0_DR1) * (z - _J0_DR2) * _poly(z, _J0_RP) / _poly(z, _J0_RQ))
    near = _poly(z, _Y0_YP) / _poly(z, _Y0_YQ) + (2 / np.pi) * jnp.log(xs) * j0
    far = _hankel(jnp.where(small, 6.0, x), _Y0_PP, _Y0_PQ, _Y0_QP, _Y0_QQ, np.pi / 4)
    return jnp.where(x <= 0, -jnp.inf, jnp.where(small, near, far))


def _y1_f64(x):
    small = x <= 5
    xs = jnp.where(small & (x > 0), x, 1.0)
    z = xs * xs
    j1 = _poly(z, _J1_RP) / _poly(z, _J1_RQ) * xs * (z - _J1_Z1) * (z - _J1_Z2)
    near = xs * (_poly(z, _Y1_YP) / _poly(z, _Y1_YQ)) + (2 / np.pi) * (j1 * jnp.log(xs) - 1.0 / xs)
    far = _hankel(jnp.where(small, 6.0, x), _Y1_PP, _Y1_PQ, _Y1_QP, _Y1_QQ, 3 * np.pi / 4)
    return jnp.where(x <= 0, -jnp.inf, jnp.where(small, near, far))


def _kernel(f64_fn, nan_at_zero=False):
    """``f64_fn`` in float64, rounded to the input dtype; a custom_jvp (its rule is set below)."""
    @jax.custom_jvp
    def k(x):
        y = f64_fn(x.astype(jnp.float64)).astype(x.dtype)
        if nan_at_zero and x.dtype != jnp.float64:   # MindSpore's float32 Y1: 0 * log(0) - 1/0 is NaN
            y = jnp.where(x == 0, jnp.nan, y)
        return y
    return k


_k0 = _kernel(lambda w: _k(w, _k0_parts, False))
_k1 = _kernel(lambda w: _k(w, _k1_parts, False))
_k0e = _kernel(lambda w: _k(w, _k0_parts, True))
_k1e = _kernel(lambda w: _k(w, _k1_parts, True))
_y0 = _kernel(_y0_f64)
_y1 = _kernel(_y1_f64, nan_at_zero=True)

_k0.defjvp(lambda p, t: (_k0(p[0]), -_k1(p[0]) * t[0]))
_k1.defjvp(lambda p, t: (_k1(p[0]), (-_k0(p[0]) - _k1(p[0]) / p[0]) * t[0]))
_k0e.defjvp(lambda p, t: (_k0e(p[0]), (_k0e(p[0]) - _k1e(p[0])) * t[0]))
_k1e.defjvp(lambda p, t: (_k1e(p[0]), (_k1e(p[0]) * (1 - 1 / p[0]) - _k0e(p[0])) * t[0]))
_y0.defjvp(lambda p, t: (_y0(p[0]), -_y1(p[0]) * t[0]))
_y1.defjvp(lambda p, t: (_y1(p[0]), (_y0(p[0]) - _y1(p[0]) / p[0]) * t[0]))

_FLOATS = (jnp.float16, jnp.float32, jnp.float64)


def _define(name, primitive, kernel_fn):
    kernel = eager.hot(kernel_fn)

    def fn(x):
        if not isinstance(x, Tensor):
            got = {float: "Float32", int: "Int64", bool: "Bool"}.get(type(x), type(x).__name__)
            raise TypeError(f"For Primitive[{primitive}], the type of input argument[x] must be Tensor but got "
                            f"{got}.")
        if x._data.dtype not in _FLOATS:
            got = str(x.dtype)
            raise TypeError(f"For primitive[{primitive}], the input argument[x] must be a type of "
                            f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got Tensor[{got}].")
        return wrap(kernel(x._data))
    fn = _named(fn, name, f"``ops.{name}(x)``, elementwise (Float16/Float32/Float64).\n\n" + __doc__)
    op(name, primitive=primitive, family="math")(fn)
    return fn


bessel_k0 = _define("bessel_k0", "BesselK0", _k0)
bessel_k1 = _define("bessel_k1", "BesselK1", _k1)
bessel_k0e = _define("bessel_k0e", "BesselK0e", _k0e)
bessel_k1e = _define("bessel_k1e", "BesselK1e", _k1e)
bessel_y0 = _define("bessel_y0", "BesselY0", _y0)
bessel_y1 = _define("bessel_y1", "BesselY1", _y1)
