"""A small PyNative gradient program run equation by equation, as MindSpore's PyNative runs its ops.

MindSpore's PyNative ``grad`` runs the forward op by op and then the backward op by op, each op
rounding its own result. msjax traces the forward and backward into one program (named
``transforms.PYNATIVE_GRAD``). Compiled whole, that program costs 250-300 ms of XLA on a CPU core
for a small net, and XLA rounds it differently from its ops one by one (a float multiply feeding an
add becomes one FMA inside a fusion: measured 45 of 128 gradients' last bits on ``x * w + y * x``;
an ``optimization_barrier`` does not stop it, XLA:CPU removes barriers before fusing). The hook in
``_host_eager`` therefore runs a small one (at most ``MAX_EQUATIONS`` equations, operands of at most
``MAX_ELEMENTS`` elements) equation by equation on every call: each equation on its own, exact ones and
MindSpore's kernel compositions with NumPy on the host (``host``: the host path's rules for the
equation called alone), the others bound outside any trace, so each is the eager program of that
op alone (the eager store's, or compiled once and then run by JAX's C++ dispatch). The program is
resolved once (``Program``: slots, each equation's host rule, equations nothing reads dropped), so a
warm call is one loop over its steps; msjax's PyNative ``grad`` calls it without JAX's jit dispatch
(``_host_eager.stepwise_runner``). Numbers are the same on a first call, a later one, with the host
path off and with the eager store's programs (``tests/test_stepwise_grad.py``). A larger program is
compiled whole as before.

Differs from MindSpore: a nested ``jit`` equation (a composition of MindSpore's kernel arithmetic,
``jax.numpy``'s helpers) is one op here, as it is in a PyNative forward call; a warm call costs the
equations' host arithmetic (0.6-0.9 ms of CPU for a small net, ``bench/stepwise_grad_warm.py``;
MindSpore's PyNative 12-40 ms) instead of one executable's (0.2 ms).
"""
from __future__ import annotations

import numpy as np

__all__ = ["MAX_ELEMENTS", "MAX_EQUATIONS", "Program", "small"]

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


def _bind(eqn, ins):
    with eqn.ctx.manager:
        outs = eqn.primitive.bind(*ins, **eqn.primitive.get_bind_params(eqn.params))
    return list(outs) if eqn.primitive.multiple_results else [outs]


def _live(jaxpr):
    """The equations a result depends on (or with an effect), in order: an equation whose results
    nothing reads (a gradient's unused input cotangent) is not run."""
    need = {v for v in jaxpr.outvars if not hasattr(v, "val")}
    kept = []
    for eqn in reversed(jaxpr.eqns):
        if eqn.effects or any(v in need for v in eqn.outvars):
            kept.append(eqn)
            need.update(v for v in eqn.invars if not hasattr(v, "val"))
    return kept[::-1]


class Program:
    """``closed`` (a ClosedJaxpr) resolved once for all its calls: every variable a slot of one flat
    list, every live equation one step ``(host, eqn, input slots, host input slots, output slots)``,
    where ``host`` is ``host_rule(eqn)`` (a callable from the values of the equation's distinct
    non-literal operands to its NumPy results, returning None to refuse a call; or None: always
    bound eagerly). A call (``run``) is one loop over the steps: no jaxpr walk, no dict."""

    def __init__(self, closed, host_rule):
        jaxpr = closed.jaxpr
        fixed = list(closed.consts)          # constants, then literals: the same every call
        slots = {v: i for i, v in enumerate(jaxpr.constvars)}

        def literal(v):
            fixed.append(v.val)
            return len(fixed) - 1
        eqns = _live(jaxpr)
        operands = [[literal(v) if hasattr(v, "val") else v for v in eqn.invars] for eqn in eqns]
        results = [literal(v) if hasattr(v, "val") else v for v in jaxpr.outvars]
        n = len(fixed)
        slots.update((v, n + i) for i, v in enumerate(jaxpr.invars))
        n += len(jaxpr.invars)
        steps = []
        for eqn, ops in zip(eqns, operands):
            ins = tuple(v if type(v) is int else slots[v] for v in ops)
            distinct = tuple(dict.fromkeys(slots[v] for v in ops if type(v) is not int))
            outs = tuple(range(n, n + len(eqn.outvars)))
            slots.update(zip(eqn.outvars, outs))
            n += len(eqn.outvars)
            steps.append((host_rule(eqn), eqn, ins, distinct, outs))
        self._fixed = fixed
        self._blank = [None] * (n - len(fixed) - len(jaxpr.invars))
        self._steps = steps
        self._outs = [v if type(v) is int else slots[v] for v in results]
        self.hosted = sum(step[0] is not None for step in steps)    # equations with a host rule

    def run(self, args, on_host=True):
        """The results (Arrays, NumPy arrays or Python numbers) and how many equations ran on the host."""
        env = self._fixed + list(args) + self._blank
        hosted = 0
        for host, eqn, ins, distinct, outs in self._steps:
            res = host([env[i] for i in distinct]) if on_host and host is not None else None
            if res is None:
                res = _bind(eqn, [env[i] for i in ins])
            else:
                hosted += 1
            for i, o in zip(outs, res):
                env[i] = o
        return [env[i] for i in self._outs], hosted
