"""Global seed (``ms.set_seed``) and the host-side generator used by initializers."""
from __future__ import annotations

import numpy as np

_seed = None
_gen = np.random.default_rng()


def set_seed(seed):
    global _seed, _gen
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"The argument 'seed' must be type of int, but got {type(seed)}.")
    if seed < 0:
        raise ValueError(f"The argument 'seed' must be greater than or equal to 0, but got {seed}.")
    _seed = seed
    _gen = np.random.default_rng(seed)


def get_seed():
    return _seed


def generator() -> np.random.Generator:
    return _gen
