"""``Cell.recompute()`` and ``mindspore.recompute(block, ...)`` as ``jax.checkpoint``.

Inside a function being differentiated or compiled, a recomputed Cell runs as one
``jax.checkpoint`` (rematerialised) function of its Tensor inputs and of the
Parameters in play: the backward pass recomputes the Cell's activations instead of
keeping them, as MindSpore's recompute does; values and gradients are unchanged.
Parameters the Cell writes (BatchNorm statistics) are outputs of the checkpointed
function, so nothing leaks. Outside any trace the Cell simply runs (nothing is kept
for a backward pass there).
"""
from __future__ import annotations

import jax

from .._core import state
from .._core.custom_grad import _bind, _frame_params
from .._core.transforms import _Args, to_arrays, to_tensors

__all__ = ["call_recomputed", "recomputed"]


def recomputed(owner, construct, *args, **kwargs):
    return call_recomputed(owner, construct, args, kwargs)


def call_recomputed(owner, construct, args, kwargs, policy=None):
    """``construct(*args, **kwargs)`` under ``jax.checkpoint`` when a transform is tracing."""
    if not state.frames:
        return construct(*args, **kwargs)
    args = _bind(construct, args, kwargs)
    a = _Args(args, {})
    nargs = len(args)
    params = _frame_params(list(owner.get_parameters()) if hasattr(owner, "get_parameters") else [])
    pvals = [p._data for p in params]

    def body(dyn, vals):
        call_args, _ = a.rebuild(list(dyn), nargs)
        with state.SwapFrame(params, list(vals)) as fr:
            out = to_arrays(construct(*call_args))
        changed = {i: v for i, v in enumerate(fr.final) if v is not vals[i]}
        return out, changed

    out, changed = jax.checkpoint(body, policy=policy)(list(a.dyn), pvals)
    for i, v in changed.items():
        params[i]._data = v
    return to_tensors(out)
