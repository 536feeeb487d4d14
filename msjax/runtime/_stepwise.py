"""A small PyNative gradient program run equation by equation, as MindSpore's PyNative runs its ops.

MindSpore's PyNative ``grad`` runs the forward op by op and then the backward op by op, each op
rounding its own result. msjax traces the forward and backward into one program (named
``transforms.PYNATIVE_GRAD``). Compiled whole, that program costs 250-300 ms of XLA on a CPU core
for a small net, and XLA rounds it differently from its ops one by one (a float multiply feeding an
add becomes one FMA inside a fusion: measured 45 of 128 gradients' last bits on ``x * w + y * x``;
an ``optimization_barrier`` does not stop it, XLA:CPU removes barriers before fusing). The hook in
``_host_eager`` therefore runs a small one (at most ``MAX_EQUATIONS`` equations, operands of at most
``MAX_ELEMENTS`` elements) with ``evaluate`` on every call: each equation on its own, exact ones and
MindSpore's kernel compositions with NumPy on the host (``host``: the host path's rules for the
equation called alone), the others bound outside any trace, so each is the eager program of that
op alone (the eager store's, or compiled once and then run by JAX's C++ dispatch). Numbers are the
same on a first call, a later one, with the host path off and with the eager store's programs
(``tests/test_stepwise_grad.py``). A larger program is compiled whole as before.

Differs from MindSpore: a nested ``jit`` equation (a composition of MindSpore's kernel arithmetic,
``jax.numpy``'s helpers) is one op here, as it is in a PyNative forward call; a warm call costs the
equations' dispatch (1-3 ms for a small net, MindSpore's PyNative 40 ms) instead of one executable's.
"""
from __future__ import annotations

import numpy as np

__all__ = ["MAX_ELEMENTS", "MAX_EQUATIONS", "evaluate", "small"]

MAX_EQUATIONS = 256          # larger gradient programs compile whole: fewer dispatches per call
MAX_ELEMENTS = 1 << 16       # ... as do those with a larger operand (XLA's threads and fusion win)


def small(jaxpr):
    """Whether ``jaxpr`` (a Jaxpr) is run equation by equation."""
    if len(jaxpr.eqns) > MAX_EQUATIONS:
        return False
    for eqn in jaxpr.eqns:
        for v in list(eqn.invars) + list(eqn.outvars):
            shape = getattr(v.aval, "shape", None)
            if shape is None or np.prod(shape, dtype=np.int64) > MAX_ELEMENTS:
                return False
    return True


def _read(env, v):
    if hasattr(v, "val"):          # a Literal
        return v.val
    return env[v]


def _bind(eqn, ins):
    with eqn.ctx.manager:
        outs = eqn.primitive.bind(*ins, **eqn.primitive.get_bind_params(eqn.params))
    return list(outs) if eqn.primitive.multiple_results else [outs]


def evaluate(closed, args, host=None):
    """``closed`` (a ClosedJaxpr) on ``args``, each equation on its own: ``host(eqn, inputs)``
    (NumPy results of the equation alone, or None) or else bound eagerly. Results are Arrays,
    NumPy arrays or Python numbers."""
    jaxpr = closed.jaxpr
    env = dict(zip(jaxpr.constvars, closed.consts))
    env.update(zip(jaxpr.invars, args))
    for eqn in jaxpr.eqns:
        ins = [_read(env, v) for v in eqn.invars]
        outs = host(eqn, ins) if host is not None else None
        if outs is None:
            outs = _bind(eqn, ins)
        env.update(zip(eqn.outvars, outs))
    return [_read(env, v) for v in jaxpr.outvars]
