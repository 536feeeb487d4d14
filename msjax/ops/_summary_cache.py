"""The values the summary operators (``ops.ScalarSummary``...) saw, waiting for
``SummaryRecord.record``: the last value per (plugin, name). Inside a compiled
function a value arrives through ``jax.debug.callback`` each time it runs."""
from __future__ import annotations

from collections import OrderedDict

import jax
import numpy as np

from .._core import printhook

_CACHE = OrderedDict()


def push(plugin, name, data):
    """Keep ``data`` (a JAX array, maybe traced) as the latest ``plugin`` value of ``name``."""
    def keep(value):
        _CACHE[(plugin, name)] = np.asarray(value)
    if isinstance(data, jax.core.Tracer):
        printhook.used[0] = True       # the compiled step waits for its callbacks before returning
        jax.debug.callback(keep, data)
    else:
        keep(data)


def drain():
    """``[(plugin, name, numpy array)]`` pushed since the last drain, oldest first."""
    jax.effects_barrier()
    out = [(plugin, name, value) for (plugin, name), value in _CACHE.items()]
    _CACHE.clear()
    return out
