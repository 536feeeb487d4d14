"""``mindspore._Function`` (``mindspore.common._grad_function``): a custom autograd function in the
PyTorch style, ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` called through
``apply``.

On ``jax.custom_vjp``: ``forward`` runs on the inputs' values (not differentiated itself), the
``ctx`` object carries what it saves to ``backward``, which gets one gradient per output of
``forward`` that is a Tensor and returns one per input (``None`` for an input that is not a
Tensor or has no gradient). Checked as MindSpore's executor checks them: the count of
gradients, ``None`` for a non-Tensor input, a Tensor or ``None`` otherwise; a gradient of a
broadcast shape is summed back to the input's shape and cast to its dtype.

Differs from MindSpore: ``mark_dirty`` (in-place outputs) and view outputs are recorded only;
``needs_input_grad`` says which inputs are floating Tensors (MindSpore also knows which are
differentiated); with ``set_materialize_grads(False)`` an output that was not used still gets a
zero gradient (JAX's cotangent), not ``None``.
"""
from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp
from jax.custom_derivatives import SymbolicZero

from .._core.tensor import Tensor, wrap

__all__ = ["_Function"]


def _floating(a):
    return isinstance(a, Tensor) and jnp.issubdtype(a._data.dtype, jnp.inexact)


def _grad_for(g, arg, k):
    """The gradient ``backward`` returned for input ``k``, checked and shaped as its input."""
    if not isinstance(arg, Tensor):
        if g is not None:
            raise RuntimeError(f"Input is not tensor, but gradient is not none, position: {k}")
        return None
    if g is None:
        return jnp.zeros(arg.shape, arg._data.dtype)
    if not isinstance(g, Tensor):
        raise RuntimeError(f"Gradient should be none or tensor, but got {type(g).__name__} at position {k}")
    v, shape = g._data, tuple(arg.shape)
    if v.shape != shape:
        lead = v.ndim - len(shape)
        if lead < 0 or any(n != 1 and m != n for m, n in zip(v.shape[lead:], shape) if m != n):
            raise RuntimeError(f"For custom function, grad tensor should be broadcast to input shape, but got "
                               f"grad shape {tuple(v.shape)} and input shape {shape}")
        axes = tuple(range(lead)) + tuple(lead + i for i, (m, n) in enumerate(zip(v.shape[lead:], shape)) if m != n)
        v = v.sum(axis=axes, keepdims=True).reshape(shape) if axes else v.reshape(shape)
    return v.astype(arg._data.dtype)


class _Function:
    """Subclass it with static ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` (and
    optionally ``setup_context(ctx, inputs, output)``); call ``MyFunction.apply(*args)``."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("forward function should be customized.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("backward function should be customized.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Save context information needed for the backward pass."""
        raise NotImplementedError("setup_context is not implemented.")

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = value

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` and tie ``backward`` to its Tensor outputs."""
        setup = cls.setup_context is not _Function.setup_context
        if setup:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        ctx = cls()
        ctx.needs_input_grad = tuple(_floating(a) for a in args)
        pos = [k for k, a in enumerate(args) if isinstance(a, Tensor)]
        layout = {}

        def run(values):
            full = list(args)
            for k, v in zip(pos, values):
                full[k] = wrap(v)
            out = cls.forward(*(((ctx,) if not setup else ()) + tuple(full)), **kwargs)
            if setup:
                cls.setup_context(ctx, tuple(full), out)
            outs = out if isinstance(out, tuple) else (out,)
            if any(not any(d is o for o in outs) for d in getattr(ctx, "dirty_tensors", ())):
                raise RuntimeError("The dirty tensors must all be outputs of the forward function.")
            layout["tuple"], layout["outs"] = isinstance(out, tuple), outs
            layout["tensors"] = [k for k, o in enumerate(outs) if isinstance(o, Tensor)]
            return tuple(outs[k]._data for k in layout["tensors"])

        @jax.custom_vjp
        def fn(*values):
            return run(values)

        def fwd(*primals):    # symbolic zeros: which inputs are differentiated, which outputs unused
            ctx.needs_input_grad = tuple(_floating(a) for a in args)
            for k, p in zip(pos, primals):
                ctx.needs_input_grad = ctx.needs_input_grad[:k] + (bool(p.perturbed),) + ctx.needs_input_grad[k + 1:]
            return run(tuple(p.value for p in primals)), None

        def bwd(_, cts):
            materialize = getattr(ctx, "materialize_grads", True)
            full = [None] * len(layout["outs"])     # a non-Tensor output's gradient: None
            for k, c in zip(layout["tensors"], cts):
                if isinstance(c, SymbolicZero):
                    full[k] = wrap(jnp.zeros(c.shape, c.dtype)) if materialize else None
                else:
                    full[k] = wrap(c)
            grads = cls.backward(ctx, *full)
            grads = grads if isinstance(grads, tuple) else (grads,)
            if len(grads) != len(args):
                raise RuntimeError(f"Function backward return a wrong number of gradients, expect: {len(args)} "
                                   f"but got: {len(grads)}")
            checked = [_grad_for(g, a, k) for k, (g, a) in enumerate(zip(grads, args))]
            return tuple(checked[k] for k in pos)

        fn.defvjp(fwd, bwd, symbolic_zeros=True)
        arrays = fn(*(args[k]._data for k in pos))
        outs = list(layout["outs"])
        frozen = getattr(ctx, "non_differentiable", ())
        for k, a in zip(layout["tensors"], arrays):     # mark_non_differentiable: no gradient flows back
            outs[k] = wrap(jax.lax.stop_gradient(a) if any(outs[k] is t for t in frozen) else a)
        return tuple(outs) if layout["tuple"] else outs[0]
