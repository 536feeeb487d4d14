"""``mindspore.common.seed``: the global seed (``mindspore.set_seed`` lives here)."""
from __future__ import annotations

import numpy as np

from .._core.rng import get_seed
from .._core.rng import set_seed as _set_core_seed

__all__ = ["set_seed", "get_seed"]


_DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1
_KERNEL_SEEDS = {}   # (kernel_name, op_seed) -> the op seed the next call of that kernel gets
_ALSO_SEEDED = []    # what else set_seed seeds: the data pipeline registers itself (msjax.dataset.config)


def also_seed(fn):
    """Have ``set_seed(seed)`` call ``fn(seed)`` too (a layer above registers here)."""
    _ALSO_SEEDED.append(fn)
    return fn


def set_seed(seed):
    """``mindspore.set_seed``: the global seed, which also seeds numpy and the data pipeline."""
    _set_core_seed(seed)
    for key in _KERNEL_SEEDS:
        _KERNEL_SEEDS[key] = key[1]
    np.random.seed(seed)
    for fn in _ALSO_SEEDED:
        fn(seed)


def _get_graph_seed(op_seed, kernel_name):
    """MindSpore's ``(graph seed, op seed)`` pair for a random kernel: ``(0, 0)`` when
    neither the global nor the op seed is set; otherwise the global seed (87654321
    for ``set_seed(0)``) and the op seed advanced per call of that kernel and seed,
    both modulo 2**31-1."""
    global_seed = get_seed()
    global_seed = _DEFAULT_GRAPH_SEED if global_seed == 0 else (0 if global_seed is None else global_seed)
    op_seed = 0 if op_seed is None else op_seed
    if global_seed == 0 and op_seed == 0:
        return 0, 0
    if not isinstance(op_seed, int) or isinstance(op_seed, bool) or op_seed < 0:
        raise ValueError(f"For '{kernel_name}', the 'seed' must be int and must >= 0, but got '{op_seed}' with type "
                         f"'{type(op_seed).__name__}'.")
    current = _KERNEL_SEEDS.setdefault((kernel_name, op_seed), op_seed)
    _KERNEL_SEEDS[(kernel_name, op_seed)] = current + (3528531795 ^ 3449720151)
    return global_seed % _MAXINT32, current % _MAXINT32
