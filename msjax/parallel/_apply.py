"""Strategies taking effect: sharding constraints on an operator's inputs and outputs.

While a semi-auto/auto-parallel step is traced (:func:`tracing`), a Primitive with a
strategy (``ops.MatMul().shard(...)``), a function given to ``ms.parallel.shard`` or a
Cell given to ``Cell.shard`` puts ``jax.lax.with_sharding_constraint`` on each Tensor
input (and output, with an ``out_strategy``); XLA's partitioner (Shardy/GSPMD) splits
the computation and inserts the collectives, as MindSpore's parallel pass does. The
first operator that consumes a Parameter decides that Parameter's sharding (as in
MindSpore): the step then keeps the Parameter's value split that way between steps,
so each device holds only its block.

Outside such a trace (one device, STAND_ALONE/DATA_PARALLEL, PyNative code that meets no
``Cell.shard``/``ms.shard`` block) strategies are ignored, as MindSpore ignores them there.
"""
from __future__ import annotations

import contextlib

import jax

from .._core import provided
from .._core.parameter import Parameter
from .._core.tensor import Tensor, wrap
from . import _strategy

__all__ = ["StepPlan", "tracing", "active", "apply", "shard_function"]

_SCOPE = []


class StepPlan:
    """What tracing one sharded step learns: the sharding each Parameter's first consumer asks for."""

    def __init__(self, devices):
        self.devices = devices
        self.param_sharding = {}      # id(Parameter) -> NamedSharding
        self.used = False             # whether any strategy took effect in the trace

    def note_param(self, p, sharding):
        self.param_sharding.setdefault(id(p), sharding)


def active():
    return _SCOPE[-1] if _SCOPE else None


@contextlib.contextmanager
def tracing(plan):
    _SCOPE.append(plan)
    try:
        yield plan
    finally:
        _SCOPE.pop()


def _is_tensor(x):
    return isinstance(x, (Tensor, jax.Array)) or isinstance(x, jax.core.Tracer)


def _raw(x):
    return x._data if isinstance(x, Tensor) else x


def _constrain(opname, values, strategy, plan, what, attrs=None):
    """Constrain the Tensors in ``values`` (a list) by ``strategy``; Parameters are noted."""
    strategies = (_strategy.op_strategies(opname, strategy, plan.devices, attrs or {}) if what == "in_strategy"
                  else None) or _strategy.to_strategies(opname, strategy, plan.devices)
    idx = [i for i, v in enumerate(values) if _is_tensor(v)]
    if len(idx) != len(strategies):
        raise RuntimeError(f"For '{opname}', the {what} {strategy} has {len(strategies)} entries, but the "
                           f"operator has {len(idx)} tensor {'inputs' if what == 'in_strategy' else 'outputs'}: "
                           "invalid strategy.")
    out = list(values)
    plan.used = True
    for k, (i, st) in enumerate(zip(idx, strategies)):
        v = values[i]
        raw = _raw(v)
        st.check_shape(opname, k, raw.shape, strategy[k])
        if isinstance(v, Parameter):
            plan.note_param(v, st.sharding)
        out[i] = wrap(jax.lax.with_sharding_constraint(raw, st.sharding)) if isinstance(v, Tensor) \
            else jax.lax.with_sharding_constraint(raw, st.sharding)
    return out


def apply(opname, in_strategy, out_strategy, fn, args, kwargs):
    """``fn(*args, **kwargs)`` with the strategies applied when a sharded step is traced."""
    plan = active()
    if plan is None or in_strategy is None:
        return fn(*args, **kwargs)
    args = _constrain(opname, list(args), in_strategy, plan, "in_strategy", kwargs)
    out = fn(*args, **kwargs)
    if out_strategy is not None:
        single = not isinstance(out, (tuple, list))
        outs = _constrain(opname, [out] if single else list(out), out_strategy, plan, "out_strategy")
        out = outs[0] if single else type(out)(outs)
    return out


def constrain_prim(prim, values):
    """``values`` (Tensors, Parameters or arrays) constrained by ``prim``'s in_strategy when a
    sharded step is traced, else unchanged: layers that compute without calling their
    Primitive attributes (``nn.Dense``'s ``matmul``/``bias_add``) honour ``.shard()`` this way."""
    plan = active()
    if plan is None or prim._in_strategy is None:
        return list(values)
    return _constrain(prim.name, list(values), prim._in_strategy, plan, "in_strategy", prim._attrs)


def shard_function(fn, in_strategy, out_strategy=None, parameter_plan=None, name=None):
    """``fn`` with strategies: the function ``ms.parallel.shard`` returns for a function."""
    _strategy.check_shard_args(name or getattr(fn, "__name__", "shard"), in_strategy, out_strategy)
    opname = name or getattr(fn, "__name__", type(fn).__name__)

    def sharded(*args, **kwargs):
        return apply(opname, in_strategy, out_strategy, fn, args, kwargs)

    sharded.__wrapped__ = fn
    sharded.__name__ = opname
    return sharded


def note_parameter_plan(parameter_plan, opname="shard"):
    """``parameter_plan`` resolved to ``[(Parameter, strategy)]``: their shardings for this step."""
    plan = active()
    if plan is None or not parameter_plan:
        return
    plan.used = True
    for p, strategy in parameter_plan:
        st = _strategy.to_strategies(opname, (strategy,), plan.devices)[0]
        st.check_shape(opname, 0, p.shape, strategy)
        plan.param_sharding[id(p)] = st.sharding


def _check_prim(name, in_strategy, out_strategy):
    _strategy.check_shard_args(name, in_strategy, out_strategy)


provided.provide("apply_shard", apply)
provided.provide("check_shard", _check_prim)
