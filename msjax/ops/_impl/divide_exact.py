"""Float division by a broadcast or constant divisor, correctly rounded as MindSpore 2.10's CPU
``RealDiv``/``Div`` kernels divide (one IEEE division per element).

XLA's algebraic simplifier rewrites ``a / broadcast(b)`` and ``a / constant`` into a product by the
reciprocal (no XLA option stops it), so a float32 quotient by a scalar, a smaller operand or a
constant came out one ulp off for some elements (1,602 of 4,000 for boxes over a (1,) scale:
FasterRCNN's ``boxes / scale_h``). On the CPU backend, outside an exporter's trace (as
``cpu_kernel_math.applies``), the divisor is broadcast to the quotient's shape (in a trace always, a
constant of that shape included) behind an optimization barrier, which the simplifier does not see
through: the division is then elementwise. The writers write the division of the operands as given
(MindSpore's ``RealDiv`` broadcasts them itself).

Differs from MindSpore: nothing measured; the broadcast divisor costs one buffer of the quotient's
size (MindSpore's kernel reads the divisor in place): ``(a / 3.0) + 1`` of a 25 MB float32 array,
compiled, medians of 21 calls 7.9-24.3 ms against 5.6-12.5 ms before (three interleaved runs each, a
2-core machine at load 7-10: up to about 2x). A Python scalar power of two (``a / 8.0``) is divided
as before (its reciprocal is exact).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import provided
from . import conv_lowering


def true_divide(a, b):
    """``a / b`` with NumPy broadcasting; a floating quotient by a broadcast divisor divided elementwise
    (see the module docstring)."""
    try:
        shape = jnp.broadcast_shapes(jnp.shape(a), jnp.shape(b))
    except ValueError:
        shape = None                                    # jnp's own error below
    dtype = jnp.result_type(a, b)
    traced = isinstance(a, jax.core.Tracer) or isinstance(b, jax.core.Tracer)
    # in a trace the divisor may be a constant (or made of constants) of the quotient's shape
    if shape is None or jnp.shape(b) == shape and not traced or not jnp.issubdtype(dtype, jnp.floating) \
            or _power_of_two(b) or jax.default_backend() != "cpu" or conv_lowering.setting() != "auto":
        return jnp.true_divide(a, b)
    return jnp.true_divide(a, lax.optimization_barrier(jnp.broadcast_to(jnp.asarray(b, dtype), shape)))


def _power_of_two(b):
    """A concrete scalar ``2**k``: ``a / b`` and XLA's ``a * 2**-k`` round the same real number."""
    if isinstance(b, jax.core.Tracer) or np.ndim(b) != 0:
        return False
    m, _ = np.frexp(np.asarray(b, np.float64))
    return bool(abs(m) == 0.5)


provided.provide("true_divide", true_divide)     # Tensor ``/`` (msjax/_core/tensor.py)
