"""float16/bfloat16 arithmetic as MindSpore's kernels do it: accumulate in float32, round once.

MindSpore runs each op as one kernel. Given float16 (or bfloat16) inputs, its CPU and GPU
kernels compute a normalisation, a softmax, a loss or a sum in float32 and round the result
to float16 once; tensor cores and XLA's matrix products and convolutions accumulate float16
products in float32 too. Written op by op in ``jax.numpy``, the same formula rounds every
intermediate to float16, so ``x - mean`` cancels, ``exp`` overflows and a long sum stops
growing once its addends fall below half an ulp of the running total.

This module holds the two pieces msjax uses so that does not happen:

* :func:`float32_inside` wraps an array-level kernel (BatchNorm, LayerNorm, GroupNorm,
  softmax, log-softmax, the cross-entropy losses ...): float16/bfloat16 array arguments enter
  as float32, floating outputs leave in the low type. Reverse mode then runs in float32 inside
  the kernel as well (the transposes of the casts are casts), so gradients are rounded once,
  where they leave the op.
* The gradient of a broadcast (a bias added over a batch, BatchNorm's ``gamma``/``beta``, a
  Parameter scaled over an image) is a sum over the broadcast axes. JAX sums in the cotangent's
  own type; :func:`install` makes that sum accumulate in float32 and round once for float16 and
  bfloat16 cotangents (``jax.lax.broadcast_in_dim``'s transpose rule and the n-ary ops' implicit
  broadcasts, ``jax._src.lax.lax._unbroadcast``; process-wide: other JAX code in the same process
  gets the more accurate sums too).

Matrix products and convolutions need nothing here: XLA's CPU, GPU and TPU backends already
accumulate float16/bfloat16 ``dot_general`` and convolutions in float32 (``tests/test_low_precision.py``
checks the CPU; ``bench/low_precision_device.py`` the accelerator); on the CPU a float16 matrix product
or convolution is moreover the float32 one rounded once, as MindSpore's CPU kernels compute it
(``matmul_onednn``, ``conv_lowering.raised_to_float32``).

Difference from MindSpore: none intended beyond float rounding; MindSpore's CPU build lacks most
bfloat16 kernels, msjax runs them with the same float32 accumulation.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.interpreters import ad

LOW = (jnp.dtype(jnp.float16), jnp.dtype(jnp.bfloat16))


def is_low(x):
    """Whether ``x`` (an array or dtype) is float16 or bfloat16."""
    dt = getattr(x, "dtype", x)
    if not isinstance(dt, (np.dtype, type)):
        return False
    try:
        return jnp.dtype(dt) in LOW
    except TypeError:
        return False


def upcast(x):
    """``x`` as float32 when it is a float16/bfloat16 array, else unchanged."""
    return x.astype(jnp.float32) if is_low(x) else x


def low_dtype(*arrays):
    """The first float16/bfloat16 dtype among ``arrays`` (None when there is none)."""
    for a in arrays:
        if is_low(a):
            return jnp.dtype(a.dtype)
    return None


def round_to(tree, dtype):
    """Cast the float32 leaves of ``tree`` to ``dtype`` (no-op when ``dtype`` is None)."""
    if dtype is None:
        return tree
    return jax.tree_util.tree_map(lambda a: a.astype(dtype) if getattr(a, "dtype", None) == jnp.float32 else a,
                                  tree)


def float32_inside(fn=None, *, keep=()):
    """Decorate an array-level kernel so float16/bfloat16 array arguments are computed in float32
    and its float32 outputs are rounded once to the first low input's type. ``keep`` lists output
    positions (of a tuple result) left in float32, such as BatchNorm's batch statistics."""
    if fn is None:
        return functools.partial(float32_inside, keep=keep)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        dt = low_dtype(*args, *kwargs.values())
        if dt is None:
            return fn(*args, **kwargs)
        out = fn(*(upcast(a) for a in args), **{k: upcast(v) for k, v in kwargs.items()})
        if keep and isinstance(out, tuple):
            return tuple(o if i in keep else round_to(o, dt) for i, o in enumerate(out))
        return round_to(out, dt)

    return wrapper


_ORIGINAL = {}


def _broadcast_transpose_f32(ct, operand, **params):
    """``broadcast_in_dim``'s transpose (a sum over the broadcast axes), accumulated in float32
    for float16/bfloat16 cotangents and rounded once."""
    rule = _ORIGINAL[lax.broadcast_in_dim_p]
    if type(ct) is ad.Zero or not is_low(ct):
        return rule(ct, operand, **params)
    out, = rule(lax.convert_element_type(ct, jnp.float32), operand, **params)
    return [None if out is None else lax.convert_element_type(out, ct.dtype)]


def _unbroadcast_f32(aval, x):
    """``jax._src.lax.lax._unbroadcast`` (the transpose of an implicit size-1 broadcast in ``add``,
    ``sub``, ``mul``, ``div`` ...: a sum over the broadcast axes), accumulated in float32 for
    float16/bfloat16 cotangents and rounded once. A bias added to a float16 activation whose input
    is differentiated too (``BiasAdd`` in a float16 ``nn.Conv2d``) was summed in float16, 2 ulp off
    MindSpore's ``BiasAddGrad`` on 162 elements (``tests/test_conv_float16.py``)."""
    rule = _ORIGINAL["_unbroadcast"]
    if is_low(x) and tuple(getattr(aval, "shape", ())) != tuple(np.shape(x)):
        return lax.convert_element_type(rule(aval, lax.convert_element_type(x, jnp.float32)), x.dtype)
    return rule(aval, x)


def install():
    """Make JAX's broadcast transposes accumulate float16/bfloat16 in float32 (idempotent)."""
    if lax.broadcast_in_dim_p not in _ORIGINAL:
        _ORIGINAL[lax.broadcast_in_dim_p] = ad.primitive_transposes[lax.broadcast_in_dim_p]
        ad.primitive_transposes[lax.broadcast_in_dim_p] = _broadcast_transpose_f32
    from jax._src.lax import lax as lax_internal     # the implicit broadcasts of the n-ary ops
    if "_unbroadcast" not in _ORIGINAL and hasattr(lax_internal, "_unbroadcast"):
        _ORIGINAL["_unbroadcast"] = lax_internal._unbroadcast
        lax_internal._unbroadcast = _unbroadcast_f32


install()
