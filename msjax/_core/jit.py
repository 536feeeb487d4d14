"""``ms.jit``: compile a function or a ``construct`` method with ``jax.jit``.

The function runs through the same stateful core as gradients: Parameters it
touches become inputs, Parameters it writes are written back after each call,
and the compiled function is cached per argument signature.
"""
from __future__ import annotations

import functools

from .transforms import StatefulFunction, to_tensors

__all__ = ["jit"]


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False, backend="",
        input_signature=None, hash_args=None, jit_config=None, compile_once=False, **options):
    """``mindspore.jit`` (usable as ``@jit`` or ``@jit(...)``)."""
    if function is None:
        return functools.partial(jit, capture_mode=capture_mode, jit_level=jit_level, dynamic=dynamic,
                                 fullgraph=fullgraph, backend=backend)
    sf = StatefulFunction(function)

    @functools.wraps(function)
    def compiled(*args, **kwargs):
        return to_tensors(sf(*args, **kwargs))

    compiled.__ms_jit__ = sf
    return compiled
