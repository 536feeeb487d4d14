"""Activation ops: relu family, sigmoid/tanh family, softmax family, shrink ops.

Each op follows MindSpore 2.10 on CPU: the accepted dtypes (TypeError otherwise),
the integer behaviour of the ops that accept integers (results truncated back to
the integer dtype), the argument checks and the Primitive forms (``ops.ReLU()``,
``ops.Softmax(axis)``...). Differences from MindSpore: ``ops.rrelu`` draws from
msjax's key (same distribution, different numbers).

The dtype checks shared by the nn-style ops (``FLOATS``, ``F16_32``, ``check_dtype``,
``check_number``, ``tensor_arg``) live here too; ``loss`` and ``detection`` use them.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import dtype as mstype
from ..._core.registry import op
from . import cpu_kernel_math, gelu_cpu
from ._util import Tensor, wrap
from .export_names import exported
from .lowp import float32_inside
from .softmax_order import softmax_last

# float16/bfloat16 computed in float32 and rounded once (wrapped once, not per call)
_softmax32 = float32_inside(jax.nn.softmax)


def _softmax(x, axis=-1):
    if cpu_kernel_math.applies(x) and x.ndim and axis % x.ndim == x.ndim - 1 and x.shape[-1]:
        return softmax_last(x)      # float32 on the CPU along the last axis: MindSpore's kernel's bits
    return _softmax32(x, axis=axis)


def softmax32(x, axis=-1):
    """Softmax of an array (float16 computed in float32; float32 along the last axis on the CPU as
    MindSpore's kernel, ``softmax_order``); the MINDIR writer writes one ``Softmax`` node."""
    return exported("Softmax", _softmax, x, axis=axis)


log_softmax32 = float32_inside(jax.nn.log_softmax)

_F16, _F32, _F64, _BF16 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64), jnp.bfloat16
F16_32 = (_F16, _F32, np.dtype(_BF16))
FLOATS = (_F16, _F32, _F64, np.dtype(_BF16))


def _name(dt):
    return str(mstype.from_np(dt))


def tensor_arg(name, x, arg="input"):
    """The array of a Tensor argument; MindSpore's TypeError for anything else."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x._data


def check_dtype(name, a, allowed=FLOATS, arg="input_x"):
    """MindSpore's TypeError when ``a``'s dtype is not one of ``allowed``."""
    if np.dtype(a.dtype) not in allowed:
        names = ", ".join(f"Tensor[{_name(d)}]" for d in allowed)
        raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type of {{{names}}}, "
                        f"but got Tensor[{_name(a.dtype)}].")
    return a


def check_number(name, arg, value, types=(int, float)):
    if isinstance(value, bool) or not isinstance(value, types):
        tn = [t.__name__ for t in types]
        raise TypeError(f"For '{name}', the type of '{arg}' should be one of '{tn}', "
                        f"but got type '{type(value).__name__}'.")
    return value


def _float_in(name, x, allowed=FLOATS, arg="input_x"):
    return check_dtype(name, tensor_arg(name, x, arg), allowed, arg)


def _is_int(a):
    return jnp.issubdtype(a.dtype, jnp.integer)


def _axis_in_range(name, axis, ndim):
    lo, hi = -max(ndim, 1), max(ndim, 1)
    if not lo <= axis < hi:
        raise ValueError(f"For primitive[{name}], the axis must be in [{lo},{hi}), but got {axis}.")
    return axis


# --- gradients at the kinks ------------------------------------------------------------
# MindSpore's backward kernels decide the gradient where these functions have a
# kink; jnp's rules (the mean of both sides at ties of clip/where) differ there.
def _kinked(fn, slope):
    """``fn`` with derivative ``slope(x)`` (MindSpore's backward rule)."""
    f = jax.custom_jvp(fn)

    @f.defjvp
    def _jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return fn(x), t * slope(x).astype(t.dtype)
    return f


def relu_array(x):
    """MindSpore's CPU ReLU on an array: ``x`` where ``x > 0``, else 0, so NaN gives 0 (the
    kernel's ``x > 0 ? x : 0``; IEEE's ``max(x, 0)`` would keep it). Its gradient is ReLUGrad's
    ``dy * (y > 0)``: 0 at 0 and at NaN. Written as one ``ReLU`` node when exported."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return jax.nn.relu(x)
    return exported("ReLU", _relu_float, x)


@functools.partial(jax.jit, inline=True)
def _relu_float(x):
    # one program for a PyNative call (inlined into an enclosing trace, so graphs and gradients are
    # unchanged), in lax: a new shape traces it once, where ``x > 0`` and ``jnp.where`` were jits of
    # their own (four traces); the same greater, convert and select, all exact
    positive = lax.gt(x, np.zeros((), x.dtype))
    # the "else 0" is the comparison cast to x's dtype, not a broadcast scalar: an exported graph
    # with a dynamic batch dimension has no broadcast to an unknown shape (Greater, Cast, Select)
    return lax.select(positive, x, lax.convert_element_type(positive, x.dtype))


# ReLU6Grad: dy where 0 < x <= 6; NaN gives 0 (MindSpore's CPU kernel), +inf 6
_relu6_f = _kinked(lambda x: jnp.where(x > 0, jnp.minimum(x, 6), jnp.zeros((), x.dtype)),
                   lambda x: (x > 0) & (x <= 6))
# EluGrad (alpha 1): dy where x > 0, else dy * (y + 1) -- 1 at 0
_elu_f = _kinked(lambda x: jnp.where(x > 0, x, jnp.expm1(jnp.minimum(x, 0))),
                 lambda x: jnp.where(x <= 0, jnp.exp(jnp.minimum(x, 0)), 1))   # NaN: 1
# HSwishGrad: (2x + 3) / 6 on [-3, 3] (both ends included), 0 below, 1 above; the forward is
# MindSpore's piecewise definition (0 at or below -3, so -inf gives 0, not -inf * 0)
_hswish_f = _kinked(lambda x: jnp.where(x <= -3, jnp.zeros((), x.dtype), jnp.where(x >= 3, x, x * (x + 3) / 6)),
                    lambda x: jnp.where(x < -3, 0, jnp.where(x > 3, 1, (2 * x + 3) / 6)))
# SoftsignGrad: dy / (1 + |x|)^2 (0 at +-inf)
_softsign_f = _kinked(lambda x: x / (1 + jnp.abs(x)), lambda x: 1 / jnp.square(1 + jnp.abs(x)))
# HSigmoidGrad: 1/6 on (-3, 3) (both ends excluded), 0 elsewhere
_hsigmoid_f = _kinked(lambda x: jnp.clip(x + 3, 0, 6) / 6, lambda x: ~((x <= -3) | (x >= 3)) / 6)   # NaN: 1/6


# --- relu family --------------------------------------------------------------------
@op("relu", primitive="ReLU", methods="relu", family="nn")
def relu(input, inplace=False):
    """``ops.relu(input, inplace=False)``; any real or bool dtype."""
    x = tensor_arg("ReLU", input)
    if x.dtype == jnp.bool_:
        return wrap(x)
    out = wrap(relu_array(x))
    if inplace:
        input._data = out._data
        return input
    return out


@op("relu6", primitive="ReLU6", family="nn")
def relu6(x):
    """``ops.relu6(x)``: ``min(max(x, 0), 6)``; Float16/Float32 only."""
    a = _float_in("ReLU6", x, F16_32)
    return wrap(exported("ReLU6", _relu6_f, a).astype(a.dtype))


@op("leaky_relu", family="nn")
def leaky_relu(input, alpha=0.2):
    """``ops.leaky_relu(input, alpha=0.2)``: ``max(alpha * x, x)`` (``min`` when alpha > 1)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'leaky_relu', the 'input' must be a Tensor, but got '{type(input).__name__}'")
    check_number("leaky_relu", "alpha", alpha, (float, int))
    x = input._data
    a = jnp.asarray(alpha).astype(x.dtype)
    fn = jnp.minimum if alpha > 1 else jnp.maximum
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return wrap(fn(a * x, x))
    f = _kinked(lambda v: fn(a * v, v), lambda v: _pick_slope(a * v, v, alpha > 1, a))
    return wrap(f(x))


def _pick_slope(x1, x2, smaller, a):
    """The slope of ``max(x1, x2)`` (``min`` if ``smaller``) with ``x1 = a * x`` and ``x2 = x`` as
    MindSpore's Maximum/MinimumGrad give it: the chosen side, half each at a tie (0, +-inf), both at NaN."""
    first, second = (x1 < x2, x1 > x2) if smaller else (x1 > x2, x1 < x2)
    tie = jnp.where(x1 == x2, 0.5, 1.0)
    g1 = jnp.where(first, 1.0, jnp.where(second, 0.0, tie))
    g2 = jnp.where(second, 1.0, jnp.where(first, 0.0, tie))
    return a * g1 + g2


@op("elu", primitive="Elu", prim_args=("alpha",), family="nn")
def elu(input_x, alpha=1.0):
    """``ops.elu(input_x, alpha=1.0)``; MindSpore only supports ``alpha == 1.0``."""
    x = _float_in("Elu", input_x)
    if alpha != 1.0:
        raise ValueError("EluIn Elu, alpha must be 1.0f.")
    return wrap(float32_inside(_elu_f)(x).astype(x.dtype))


@op("celu", primitive="CeLU", prim_args=("alpha",), family="nn")
def celu(x, alpha=1.0):
    """``ops.celu(x, alpha=1.0)``: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    a = _float_in("CeLU", x)
    if alpha == 0:
        raise ValueError(f"For primitive[CeLU], the alpha must be not equal to 0 , but got {alpha}.")
    f = _kinked(lambda v: jnp.where(v > 0, v, alpha * jnp.expm1(jnp.minimum(v, 0) / alpha)),
                lambda v: jnp.where(v > 0, 1, jnp.exp(jnp.minimum(v, 0) / alpha)))   # CeLUGrad: 1 at 0
    return wrap(float32_inside(f)(a).astype(a.dtype))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@op("selu", primitive="SeLU", family="nn")
def selu(input_x):
    """``ops.selu(input_x)``; Int32/Int8 inputs keep their dtype (negative part truncates to 0)."""
    x = tensor_arg("SeLU", input_x, "input_x")
    ok = FLOATS + (np.dtype(np.int32), np.dtype(np.int8))
    check_dtype("SeLU", x, ok)
    if _is_int(x):
        return wrap(jnp.where(x > 0, jnp.trunc(x.astype(jnp.float32) * _SELU_SCALE), 0).astype(x.dtype))
    return wrap(_selu(x))


@jax.custom_vjp
def _selu(x):
    if x.dtype == jnp.float16:
        # MindSpore's float16 kernel: expm1 in float32 rounded to float16, then float16 products
        e = jnp.expm1(jnp.minimum(x, 0).astype(jnp.float32)).astype(x.dtype)
        return jnp.where(x > 0, x * np.float16(_SELU_SCALE), e * np.float16(_SELU_SCALE * _SELU_ALPHA))
    neg = _SELU_ALPHA * jnp.expm1(jnp.minimum(x, 0))
    return (_SELU_SCALE * jnp.where(x > 0, x, neg)).astype(x.dtype)


def _selu_fwd(x):
    y = _selu(x)
    return y, (x, y)


def _selu_bwd(res, g):
    # MindSpore's SeLU gradient: scale for x > 0, else scale * (selu(x) + 1)
    # (the ELU rule applied to the SeLU output; not the analytic derivative).
    x, y = res
    return ((g * jnp.where(x <= 0, _SELU_SCALE * (y + 1), _SELU_SCALE)).astype(x.dtype),)   # NaN: scale


_selu.defvjp(_selu_fwd, _selu_bwd)


def _gelu_erf(x):
    return x * (jax.scipy.special.erf(x / np.sqrt(2.0).astype(x.dtype)) + 1) * 0.5


def _gelu_tanh(x):
    c = np.sqrt(2.0 / np.pi).astype(x.dtype)
    return 0.5 * x * (1 + jnp.tanh(c * (x + 0.044715 * x * x * x)))


def _gelu_tanh_xla(x):
    return float32_inside(_gelu_tanh)(x).astype(x.dtype)


def _gelu_tanh_f(x):
    """On the CPU MindSpore's kernel arithmetic (:mod:`.gelu_cpu`), else the formula."""
    return gelu_cpu.gelu_tanh(x, _gelu_tanh_xla) if gelu_cpu.usable(x) else _gelu_tanh_xla(x)


def _gelu_tanh_exported(x):
    """The tanh form; one ``GeLU`` node in an exported MINDIR, as MindSpore's exporter writes
    ``nn.GELU()``, ``ops.gelu(x, 'tanh')`` and ``ops.GeLU()``."""
    return exported("GeLU", _gelu_tanh_f, x)


@op("gelu", family="nn")
def gelu(input, approximate="none"):
    """``ops.gelu(input, approximate='none')``: erf form, or the tanh form with ``'tanh'``."""
    if approximate not in ("none", "tanh"):
        raise ValueError("For ops.gelu, approximate value should be either 'none' or 'tanh'.")
    x = tensor_arg("gelu", input)
    if np.dtype(x.dtype) not in FLOATS:
        raise TypeError(f"For gelu, the input dtype must be bfloat16, float16, float32 or float64, "
                        f"but got {_name(x.dtype)}.")
    if approximate == "tanh":
        return wrap(_gelu_tanh_exported(x))
    return wrap(float32_inside(_gelu_erf)(x).astype(x.dtype))


@op("prim_gelu", primitive="GeLU", family="nn")
def prim_gelu(x):
    """``ops.GeLU()(x)``: the tanh approximation."""
    a = _float_in("GeLU", x, arg="x")
    return wrap(_gelu_tanh_exported(a))


@op("fast_gelu", primitive="FastGeLU", family="nn")
def fast_gelu(x):
    """``ops.fast_gelu(x)``: ``x / (1 + exp(-1.702|x|)) * exp(0.851 (x - |x|))``."""
    a = tensor_arg("FastGeLU", x, "x")
    if np.dtype(a.dtype) not in F16_32[:2]:
        raise TypeError(f"For 'FastGeLU', input[0] type should be float16 or float32. but got {_name(a.dtype)}")
    ab = jnp.abs(a)
    return wrap((a / (1 + jnp.exp(-1.702 * ab)) * jnp.exp(0.851 * (a - ab))).astype(a.dtype))


@op("silu", family="nn")
def silu(input):
    """``ops.silu(input)``: ``x * sigmoid(x)``."""
    x = _float_in("Sigmoid", input, arg="input")
    return wrap(x * jax.nn.sigmoid(x))


def _softplus(x):
    return jnp.logaddexp(x, jnp.zeros((), x.dtype))


@op("mish", primitive="Mish", family="nn")
def mish(x):
    """``ops.mish(x)``: ``x * tanh(softplus(x))``."""
    a = _float_in("Mish", x, FLOATS[:3])
    return wrap(a * jnp.tanh(_softplus(a)))


def _hsig_int(x):
    # integer arithmetic as MindSpore's CPU kernel: relu6(x + 3) / 6, truncated
    return jnp.clip(x + 3, 0, 6)


@op("hardswish", primitive="HSwish", family="nn")
def hardswish(input):
    """``ops.hardswish(input)``: ``x * relu6(x + 3) / 6``; integer inputs truncate."""
    x = tensor_arg("HSwish", input)
    if x.dtype == jnp.bool_ or jnp.issubdtype(x.dtype, jnp.complexfloating):
        raise TypeError(f"For primitive[HSwish], the input argument[x] must be a type of "
                        f"{{BFloat16, Float16, Float32, Float64, Int16, Int32, Int64, Int8}}, "
                        f"but got {_name(x.dtype)}.")
    if _is_int(x):
        return wrap(jax.lax.div(x * _hsig_int(x), jnp.asarray(6, x.dtype)))
    return wrap(exported("HSwish", _hswish_f, x).astype(x.dtype))


@op("hardsigmoid", primitive="HSigmoid", family="nn")
def hardsigmoid(input):
    """``ops.hardsigmoid(input)``: ``relu6(x + 3) / 6``; integer inputs truncate."""
    x = tensor_arg("HSigmoid", input)
    if x.dtype == jnp.bool_ or jnp.issubdtype(x.dtype, jnp.complexfloating):
        raise TypeError(f"For primitive[HSigmoid], the input argument[input_x] must be a type of "
                        f"{{BFloat16, Float16, Float32, Float64, Int16, Int32, Int64, Int8}}, "
                        f"but got {_name(x.dtype)}.")
    if _is_int(x):
        return wrap(jax.lax.div(_hsig_int(x), jnp.asarray(6, x.dtype)))
    return wrap(exported("HSigmoid", _hsigmoid_f, x).astype(x.dtype))


@op("hardtanh", family="nn")
def hardtanh(input, min_val=-1.0, max_val=1.0):
    """``ops.hardtanh(input, min_val=-1.0, max_val=1.0)``: ``min(max(x, min_val), max_val)``."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'hardtanh', the 'input' must be a Tensor, but got '{type(input).__name__}'")
    check_number("hardtanh", "min_val", min_val, (int, float))
    check_number("hardtanh", "max_val", max_val, (int, float))
    x = input._data
    if x.dtype == jnp.bool_:
        return wrap(x)
    lo = np.asarray(min_val, x.dtype) if not _is_int(x) or isinstance(min_val, int) else min_val
    hi = np.asarray(max_val, x.dtype) if not _is_int(x) or isinstance(max_val, int) else max_val
    y = jnp.minimum(jnp.maximum(x, lo), hi)
    return wrap(y.astype(x.dtype) if not _is_int(x) else jnp.trunc(y).astype(x.dtype))


@op("threshold", family="nn")
def threshold(input, thr, value):
    """``ops.threshold(input, thr, value)``: ``x if x > thr else value``."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'threshold', the 'input' must be a Tensor, but got '{type(input).__name__}'")
    check_number("threshold", "thr", thr, (float, int))
    check_number("threshold", "value", value, (float, int))
    x = input._data
    return wrap(jnp.where(x > thr, x, jnp.asarray(value).astype(x.dtype)))


# --- sigmoid / tanh family -------------------------------------------------------------
@op("sigmoid", primitive="Sigmoid", methods="sigmoid", family="nn")
def sigmoid(input):
    """``ops.sigmoid(input)``: ``1 / (1 + exp(-x))``; float32 on the CPU with nnacl's ``exp``, as
    MindSpore's CPU kernel (``cpu_kernel_math.sigmoid``)."""
    x = _float_in("Sigmoid", input, FLOATS + (np.dtype(np.complex64), np.dtype(np.complex128)), "input")
    return wrap(cpu_kernel_math.sigmoid(x) if cpu_kernel_math.applies(x) else jax.nn.sigmoid(x))


@op("tanh", primitive="Tanh", methods="tanh", family="nn")
def tanh(input):
    """``ops.tanh(input)``; float32 on the CPU in nnacl's rational form, as MindSpore's CPU kernel
    (``cpu_kernel_math.tanh``: up to 1e-4 from the exact tanh)."""
    x = _float_in("Tanh", input, FLOATS + (np.dtype(np.complex64), np.dtype(np.complex128)), "input")
    return wrap(cpu_kernel_math.tanh(x) if cpu_kernel_math.applies(x) else jnp.tanh(x))


def _tanh_grad_check(a, g):
    if a.dtype != g.dtype:
        raise RuntimeError(f"For TanhGrad, the grad type must be same as input type, but got grad_type: "
                           f"{mstype.from_np(a.dtype)} and x_type: {mstype.from_np(g.dtype)}")
    if a.shape != g.shape:
        if a.ndim != g.ndim:
            raise ValueError(f"For 'TanhGrad', 'y' and 'dy' must have the same shape, but got {list(a.shape)} "
                             f"and {list(g.shape)}.")
        i = next(i for i, (p, q) in enumerate(zip(a.shape, g.shape)) if p != q)
        raise ValueError(f"The {i}th dim of x({a.shape[i]}) and dout({g.shape[i]}) not equal, primitive name: "
                         "TanhGrad.")
    if not jnp.issubdtype(a.dtype, jnp.inexact):
        raise TypeError(f"For 'TanhGrad', the inputs must be float or complex Tensors, but got "
                        f"{mstype.from_np(a.dtype)}.")


@op("prim_tanh_grad", primitive="TanhGrad", family="nn")
def _tanh_grad(y, dy):
    """``ops.auto_generate.TanhGrad()(y, dy)``: ``dy * (1 - y * y)``, Tanh's backward from its output
    (float or complex, ``y`` and ``dy`` of one dtype and shape), differentiable itself."""
    if not (isinstance(y, Tensor) and isinstance(dy, Tensor)):
        raise TypeError(f'Failed calling TanhGrad with "TanhGrad()(y={type(y).__name__}, dy={type(dy).__name__})".'
                        '\nThe valid calling should be: \n"TanhGrad()(y=<Tensor>, dy=<Tensor>)".')
    a, g = y._data, dy._data
    _tanh_grad_check(a, g)
    if a.dtype in (jnp.float16, jnp.bfloat16):      # MindSpore's kernel: float32 inside, one rounding
        return wrap((g.astype(jnp.float32) * (1 - jnp.square(a.astype(jnp.float32)))).astype(a.dtype))
    return wrap(g * (jnp.ones((), a.dtype) - a * a))


@op("tanhshrink", family="nn")
def tanhshrink(input):
    """``ops.tanhshrink(input)``: ``x - tanh(x)``; integer inputs give Float32."""
    x = tensor_arg("tanhshrink", input)
    if _is_int(x):
        x = x.astype(jnp.float32)
    check_dtype("Tanh", x, FLOATS, "input")
    return wrap(x - jnp.tanh(x))


@op("softplus", primitive="Softplus", family="nn")
def softplus(input, beta=1, threshold=20):
    """``ops.softplus(input, beta=1, threshold=20)``: ``log(1 + exp(beta x)) / beta``, ``x`` above the threshold."""
    if beta == 0:
        raise ValueError("For 'softplus', the value of 'beta' cannot be 0.")
    x = _float_in("Softplus", input, FLOATS, "x")
    sx = x * beta
    out = (1 / beta) * _softplus(sx)
    return wrap(jnp.where(sx > threshold, x, out).astype(x.dtype))


@op("softsign", primitive="Softsign", family="nn")
def softsign(x):
    """``ops.softsign(x)``: ``x / (1 + |x|)``."""
    a = _float_in("Softsign", x, FLOATS[:3])
    return wrap(_softsign_f(a))


@op("logsigmoid", family="nn")
def logsigmoid(x):
    """``ops.logsigmoid(x)``: ``log(sigmoid(x))``."""
    a = _float_in("Sigmoid", x, FLOATS, "input")
    return wrap(jnp.log(jax.nn.sigmoid(a)))


@op("glu", primitive="GLU", prim_args=("axis",), family="nn")
def glu(x, axis=-1):
    """``ops.glu(x, axis=-1)``: ``a * sigmoid(b)`` where ``a, b`` are the halves of ``x`` along ``axis``."""
    a = tensor_arg("glu", x, "x")
    n = a.shape[axis]
    if n % 2:
        raise ValueError(f"For 'Split', x_shape[{axis % a.ndim}] must be divisible by output_num = 2, but got {n}")
    check_dtype("Sigmoid", a, FLOATS, "input")
    first, second = jnp.split(a, 2, axis=axis)
    return wrap(first * jax.nn.sigmoid(second))


@op("prelu", primitive="PReLU", family="nn")
def prelu(input, weight):
    """``ops.prelu(input, weight)``: ``max(0, x) + weight * min(0, x)``, ``weight`` per channel (axis 1)."""
    x = _float_in("PReLU", input, F16_32, "x")
    w = tensor_arg("PReLU", weight, "weight")
    check_dtype("PReLU", w, F16_32, "weight")
    if w.ndim > 1:
        raise ValueError("The dimension of 'weight' must be less than or equal to 1")
    channels = x.shape[1] if x.ndim >= 2 else 1
    if w.size != channels and w.size != 1:
        raise ValueError(f"For 'Prelu', the length of 'weight' must be equal to number of channels: {channels}, "
                         f"but got {w.size}.")
    w = jnp.reshape(w, (channels,) + (1,) * (x.ndim - 2)) if w.size != 1 else jnp.reshape(w, ())
    return wrap(jnp.where(x > 0, x, w * x))


@op("rrelu", family="nn")
def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):
    """``ops.rrelu(input, lower=1/8, upper=1/3)``: negative inputs scaled by ``U(lower, upper)``, drawn by
    ``ops.uniform`` as in MindSpore."""
    if isinstance(upper, bool) or not isinstance(upper, (float, int)):
        raise TypeError(f"For 'rrelu', 'upper' must be an int or a float, but got {type(upper)}")
    if isinstance(lower, bool) or not isinstance(lower, (float, int)):
        raise TypeError(f"For 'rrelu', 'lower' must be an int or a float, but got {type(lower)}")
    if lower > upper:
        raise ValueError(f"For 'rrelu', the value of 'upper' must be greater than or equal to 'lower', "
                         f"but got upper: {upper}, lower: {lower}. ")
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'rrelu', the 'input' must be a Tensor but got {type(input)}.")
    from .random import uniform
    x = input._data
    # MindSpore's ops.uniform (its UniformReal kernel, the "uniform" op-seed counter)
    mask = uniform(tuple(x.shape), Tensor(np.float32(lower)), Tensor(np.float32(upper)))._data.astype(x.dtype)
    sign = jnp.sign(x)
    total = jnp.clip(sign, None, 0) * mask * -1 + jnp.clip(sign, 0, None)
    return wrap(total * x)


# --- shrink ---------------------------------------------------------------------------
@op("hardshrink", primitive="HShrink", prim_args=("lambd",), methods="hardshrink", family="nn")
def hardshrink(input, lambd=0.5):
    """``ops.hardshrink(input, lambd=0.5)``: ``x if |x| > lambd else 0``."""
    x = _float_in("HShrink", input, F16_32)
    # HShrinkGrad: 0 inside [-lambd, lambd], dy elsewhere (NaN too)
    f = _kinked(lambda v: jnp.where(jnp.abs(v) > lambd, v, jnp.zeros((), v.dtype)),
                lambda v: ~((v >= -lambd) & (v <= lambd)))
    return wrap(f(x))


@op("softshrink", primitive="SoftShrink", prim_args=("lambd",), family="nn")
def softshrink(input, lambd=0.5):
    """``ops.softshrink(input, lambd=0.5)``: ``x - lambd`` / ``x + lambd`` outside ``[-lambd, lambd]``, else 0."""
    x = _float_in("SoftShrink", input, F16_32)
    if lambd < 0:
        raise RuntimeError(f"For 'SoftShrink', the values for lambd should be greater or equal to 0, , "
                           f"but found to be [{lambd}].")
    lam = np.asarray(lambd, x.dtype)
    f = _kinked(lambda v: jnp.where(v > lam, v - lam, jnp.where(v < -lam, v + lam, jnp.zeros((), v.dtype))),
                lambda v: ~((v >= -lam) & (v <= lam)))      # SoftShrinkGrad: dy at NaN
    return wrap(f(x))


@op("soft_shrink", methods="soft_shrink", family="nn")
def soft_shrink(input, lambd=0.5):
    """Deprecated alias of ``ops.softshrink``."""
    return softshrink(input, lambd)


# --- softmax family -------------------------------------------------------------------
def _softmax_axis(name, axis, ndim):
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            raise RuntimeError(f"For '{name}', the length of 'axis' must be 1, but got {len(axis)}.")
        axis = axis[0]
    return _axis_in_range(name, axis, ndim)


def tensor_softmax_check(axis):
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f" the type of 'axis' must be 'int', but got '{axis}' with type '{type(axis).__name__}'.")


@op("softmax", family="nn")
def softmax(input, axis=-1, *, dtype=None):
    """``ops.softmax(input, axis=-1, *, dtype=None)`` (also ``Tensor.softmax(axis, dtype=None)``)."""
    tensor_softmax_check(axis)
    return prim_softmax(input if dtype is None else wrap(tensor_arg("softmax", input).astype(mstype.to_np(dtype))),
                        axis)


@op("tensor_softmax", methods="softmax", family="nn")
def tensor_softmax(input, axis, dtype=None):
    """``Tensor.softmax(axis, dtype=None)``."""
    return softmax(input, axis, dtype=dtype)


@op("prim_softmax", primitive="Softmax", prim_args=("axis",), family="nn")
def prim_softmax(x, axis=-1):
    """``ops.Softmax(axis=-1)(x)``; ``axis`` may be an int or a 1-tuple."""
    a = tensor_arg("Softmax", x, "x")
    ax = _softmax_axis("Softmax", axis, a.ndim)
    check_dtype("Softmax", a, FLOATS, "x")
    return wrap(softmax32(a, axis=ax) if a.ndim else jnp.ones_like(a))


@op("log_softmax", primitive="LogSoftmax", prim_args=("axis",), family="nn")
def log_softmax(logits, axis=-1):
    """``ops.log_softmax(logits, axis=-1)``."""
    x = tensor_arg("LogSoftmax", logits, "logits")
    if isinstance(axis, (tuple, list)):
        raise TypeError(f'Failed calling LogSoftmax with "LogSoftmax(axis={type(axis).__name__})(logits=Tensor)".')
    _axis_in_range("LogSoftmax", axis, x.ndim)
    check_dtype("LogSoftmax", x, FLOATS, "logits")
    return wrap(log_softmax32(x, axis=axis) if x.ndim else jnp.zeros_like(x))


def _implicit_dim(ndim):
    return 0 if ndim in (0, 1, 3) else 1


@op("log_softmax_ext", primitive="LogSoftmaxExt", family="nn")
def log_softmax_ext(input, dim=None, *, dtype=None):
    """``ops.function.nn_func.log_softmax_ext(input, dim=None, *, dtype=None)`` (``nn.LogSoftmaxExt``)."""
    x = tensor_arg("LogSoftmaxExt", input)
    if dtype is not None:
        x = x.astype(mstype.to_np(dtype))
    dim = _implicit_dim(x.ndim) if dim is None else dim
    _axis_in_range("LogSoftmaxExt", dim, x.ndim)
    check_dtype("LogSoftmaxExt", x, FLOATS, "input")
    return wrap(log_softmax32(x, axis=dim) if x.ndim else jnp.zeros_like(x))


@op("softmin", family="nn")
def softmin(x, axis=-1, *, dtype=None):
    """``ops.softmin(x, axis=-1, *, dtype=None)``: ``softmax(-x)``."""
    a = tensor_arg("softmin", x, "x")
    if dtype is not None:
        a = a.astype(mstype.to_np(dtype))
    ax = _softmax_axis("Softmax", axis, a.ndim)
    check_dtype("Softmax", a, FLOATS, "x")
    return wrap(softmax32(-a, axis=ax) if a.ndim else jnp.ones_like(a))
