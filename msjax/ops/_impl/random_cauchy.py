"""``ops.Cauchy(size, median=0.0, sigma=1.0)`` and ``Tensor.cauchy(median=0.0, sigma=1.0)``.

MindSpore 2.10's CPU kernel draws from a generator it does not seed from ``set_seed`` (two runs under
the same seed differ), so its numbers are reproducible nowhere; msjax draws from its JAX key
(``_core.rng.next_key``: reproducible under ``set_seed``), as ``median + sigma * tan(pi * (u - 1/2))``
of a uniform ``u`` in [0, 1). Shape, dtype (Float32; ``Tensor.cauchy`` casts to the Tensor's dtype) and
the argument checks are MindSpore's.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import rng
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import wrap


def _check(size=None, median=0.0, sigma=1.0):
    """The constructor's checks (MindSpore's ``Cauchy.__init__``)."""
    for name, v in (("median", median), ("sigma", sigma)):
        if not isinstance(v, float):
            raise TypeError(f"For 'Cauchy', the type of '{name}' should be 'float', but got type "
                            f"'{type(v).__name__}'.")
    if not isinstance(size, list):
        raise TypeError(f"For 'Cauchy', the type of 'size' should be 'list', but got type '{type(size).__name__}'.")
    for i, s in enumerate(size):
        if isinstance(s, bool) or not isinstance(s, int) or s <= 0:
            raise ValueError(f"For 'Cauchy', the 'size[{i}]' must be int and must > 0, but got '{s}' with type "
                             f"'{type(s).__name__}'.")


def _draw(shape, median, sigma):
    u = jax.random.uniform(rng.next_key(), tuple(shape), jnp.float32)
    return (median + sigma * jnp.tan(np.float32(np.pi) * (u - 0.5))).astype(jnp.float32)


@op("prim_cauchy", primitive="Cauchy", prim_args=("size", "median", "sigma"), family="random", prim_check=_check)
def _prim_cauchy(size, median=0.0, sigma=1.0):
    """``ops.Cauchy(size, median=0.0, sigma=1.0)()``: Float32 Cauchy(median, sigma) numbers of shape ``size``."""
    if len(size) == 0:
        raise ValueError("For primitive[Cauchy], the the length of 'size' must be greater than 0, but got 0.")
    return wrap(_draw(size, median, sigma))


@op("tensor_cauchy", methods="cauchy", family="random")
def _tensor_cauchy(input, median=0.0, sigma=1.0):
    """``Tensor.cauchy(median=0.0, sigma=1.0)``: a new Tensor of Cauchy(median, sigma) numbers with the
    shape and dtype of ``input`` (MindSpore's: ``Cauchy(list(shape), median, sigma)()`` cast to the dtype)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'cauchy', the input must be a Tensor, but got {type(input).__name__}.")
    _check(list(input.shape), median, sigma)
    if input.ndim == 0:
        raise ValueError("For primitive[Cauchy], the the length of 'size' must be greater than 0, but got 0.")
    return wrap(_draw(input.shape, median, sigma).astype(input._data.dtype))
