"""Random state: ``ms.set_seed``, the host generator used by initializers, and
the JAX key that random ops draw from.

The JAX key lives in a Parameter (``key_param()``), so every transform threads
it like any other state: a random op inside a compiled or differentiated
function splits the key and writes the new one back, and the next call draws
fresh numbers. Differences from MindSpore: the bit streams differ (same seed,
different numbers); reproducibility under one seed holds.
"""
from __future__ import annotations

import os

import numpy as np

_seed = None
_gen = np.random.default_rng()
_key = None


def set_seed(seed):
    global _seed, _gen
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"The argument 'seed' must be type of int, but got {type(seed)}.")
    if seed < 0:
        raise ValueError(f"The argument 'seed' must be greater than or equal to 0, but got {seed}.")
    _seed = seed
    _gen = np.random.default_rng(seed)
    if _key is not None:
        _key.set_data(_initial_key(seed))


def get_seed():
    return _seed


def generator() -> np.random.Generator:
    return _gen


def _initial_key(seed):
    import jax
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    return jax.random.key_data(jax.random.PRNGKey(seed))


def key_param():
    """The Parameter holding the global JAX key (created on first use)."""
    global _key
    if _key is None:
        from .parameter import Parameter
        _key = Parameter(_initial_key(_seed), name="_msjax_rng_key", requires_grad=False)
    return _key


def next_key():
    """A fresh JAX key; the global key advances (inside a transform too)."""
    import jax
    p = key_param()
    new, sub = jax.random.split(jax.random.wrap_key_data(p._data))
    p._data = jax.random.key_data(new)
    return sub
