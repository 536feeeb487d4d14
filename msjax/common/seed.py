"""``mindspore.common.seed``: the global seed (``mindspore.set_seed`` lives here)."""
from __future__ import annotations

import numpy as np

from .._core.rng import get_seed
from .._core.rng import set_seed as _set_core_seed

__all__ = ["set_seed", "get_seed"]


def set_seed(seed):
    """``mindspore.set_seed``: the global seed, which also seeds numpy and the data pipeline."""
    _set_core_seed(seed)
    np.random.seed(seed)
    from ..dataset import config
    config._set_seed_from_global(seed)
