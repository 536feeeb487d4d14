"""Gradient hooks: identities whose backward rule calls Python.

One facility serves every MindSpore hook (``ops.HookBackward``,
``ops.InsertGradientOf``, ``Tensor.register_hook``, the Cell hooks):
:func:`backward_identity` returns its arrays unchanged and, when the backward
pass reaches them, hands their cotangents to a Python function that may return
replacements (a small ``jax.custom_vjp`` built per call).

:func:`run_cell` runs a Cell's ``construct`` with its hooks in MindSpore 2.10's
order: forward pre-hooks (may replace the inputs), the backward hook's input
side, ``construct``, forward hooks (may replace the output), the backward hook's
output side, the backward pre-hook. In the backward pass the pre-hook sees the
output's gradient first, then the backward hook gets ``(cell, grad_input,
grad_output)`` once the inputs' gradients are known.

Hook functions run while msjax traces the function (once per input signature,
inside the backward pass for backward hooks); ``print`` in them prints the
runtime values on every call, as everywhere in a traced function. Gradients
that reach no hooked value (forward mode: ``ms.jvp``, ``jacfwd``) bypass the
hooks: they are defined on the reverse pass only, as in MindSpore.
"""
from __future__ import annotations

import itertools
import warnings
from collections import OrderedDict

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

from . import printhook, provided, state
from .tensor import Tensor, to_array, wrap

__all__ = ["check_hook_fn", "backward_identity", "HookHandle", "_TensorHookHandle", "CellHooks", "run_cell",
           "register_tensor_hook", "apply_tensor_hooks"]

_ids = itertools.count()


def check_hook_fn(hook_fn):
    """MindSpore's check: a hook must be callable."""
    if not callable(hook_fn) or isinstance(hook_fn, Tensor):
        raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")


def _bump():
    state.bump_version()   # a registration changes how functions trace


def _inexact(x):
    return jnp.issubdtype(jnp.result_type(x), jnp.inexact)


def _replacements(new, gs, who, xp):
    """The hook's return value as one cotangent per gradient (``xp``: numpy on the
    host, jax.numpy in a trace); None keeps the gradients."""
    if new is None:
        return gs
    new = tuple(new) if isinstance(new, (tuple, list)) else (new,)
    if len(new) != len(gs):
        raise ValueError(f"For '{who}', the hook function must return {len(gs)} gradient(s), but got {len(new)}.")
    out = []
    for n, g in zip(new, gs):
        if n is None:
            out.append(g)
            continue
        a = n._data if isinstance(n, Tensor) else to_array(n)
        a = xp.asarray(a).astype(g.dtype)
        try:
            a = xp.broadcast_to(a, g.shape)
        except ValueError:
            raise ValueError(f"For '{who}', the hook function must return a gradient of shape {list(g.shape)}, "
                             f"but got shape {list(a.shape)}.") from None
        out.append(a)
    return tuple(out)


# Tracer types that mean "this backward pass is itself being differentiated"
# (grad of grad): the hook then runs inside the trace so its result stays
# differentiable; otherwise it runs on the host with concrete values.
_DIFF_TRACERS = ("JVPTracer", "LinearizeTracer")
pending: list = []      # an exception a host-side hook raised, re-raised after the call
used = [False]          # a trace placed host-side hooks (callers wait for their results)


def raise_pending():
    if pending:
        e = pending[0]
        pending.clear()
        raise e


def backward_identity(arrays, on_grad, who="hook", extra=None, at_trace=False):
    """``arrays`` (a tuple of arrays) unchanged. In the backward pass
    ``on_grad(cotangents)`` gets the cotangents of the inexact ones (a tuple of
    Tensors) and returns ``None`` or replacements (one per cotangent).

    The hook runs on the host with concrete Tensors every time the backward pass
    runs (a ``jax.pure_callback``), as in MindSpore's PyNative mode; under a
    higher-order gradient, or with ``at_trace``, it runs while the backward pass is
    traced. ``extra()`` gives more arrays (traced, of the same backward pass) passed
    as a second argument ``on_grad(cotangents, extras)``."""
    arrays = tuple(arrays)
    idx = [i for i, a in enumerate(arrays) if _inexact(a)]
    if not idx:
        return arrays

    @jax.custom_vjp
    def ident(*xs):
        return xs

    def fwd(*xs):
        return xs, xs

    def bwd(primals, gs):
        gs = tuple(gs)
        ex = tuple(extra()) if extra is not None else None
        args = (lambda t: (t,)) if ex is None else (lambda t: (t, tuple(wrap(e) for e in ex)))
        if at_trace or any(type(g).__name__ in _DIFF_TRACERS for g in gs + (ex or ()) + tuple(primals)):
            with printhook.traced_print():
                new = on_grad(*args(tuple(wrap(g) for g in gs)))
            return _replacements(new, gs, who, jnp)

        n = len(gs)

        def host(*vals):
            grads = tuple(np.asarray(v) for v in vals[:n])
            if pending:         # an earlier hook of this call failed: skip the rest
                return grads
            try:
                ts = tuple(wrap(jnp.asarray(v)) for v in grads)
                if ex is not None:
                    new = on_grad(ts, tuple(wrap(jnp.asarray(v)) for v in vals[n:n + len(ex)]))
                else:
                    new = on_grad(ts)
                return tuple(np.asarray(r, g.dtype) for r, g in zip(_replacements(new, grads, who, np), grads))
            except Exception as e:  # noqa: BLE001 - re-raised by the transform after the call
                pending.append(e)
                return grads

        used[0] = True
        shapes = tuple(jax.ShapeDtypeStruct(g.shape, g.dtype) for g in gs)
        # the primal values ride along (unused): the hook then runs after the forward
        # pass that produced them, so prints of forward hooks come out first
        operands = gs + (ex or ()) + tuple(primals)
        if any(type(x).__name__ == "BatchTracer" for x in operands):     # vmapped (Jacobians)
            return tuple(jax.pure_callback(host, shapes, *operands, vmap_method="sequential"))
        # ordered with the runtime prints of the same call (forward hooks print too)
        return tuple(io_callback(host, shapes, *operands, ordered=True))

    ident.defvjp(fwd, bwd)
    out = ident(*[arrays[i] for i in idx])
    res = list(arrays)
    for k, i in enumerate(idx):
        res[i] = out[k]
    return tuple(res)


# ---------------------------------------------------------------------------
# handles
# ---------------------------------------------------------------------------
def _not_compiled(what):
    """MindSpore rejects (un)registering Cell hooks in code it compiles (a GRAPH_MODE
    ``construct``, an ``ms.jit`` function)."""
    if state.frames and state.compiled():
        raise RuntimeError(f"Failed to compile in GRAPH_MODE because the method or function '{what}' is not "
                           "supported in 'construct' or function with @jit decorator. Register and remove hooks "
                           "outside compiled code (for example in '__init__').")


class HookHandle:
    """``mindspore.common.hook_handle.HookHandle``: ``remove()`` takes the hook off."""

    def __init__(self, hook_dict=None, *, extra_dict=None):
        self._dicts = [d for d in ([hook_dict] + list(extra_dict or ())) if d is not None]
        self.handle_id = next(_ids)

    def remove(self):
        _not_compiled("remove")
        for d in self._dicts:
            d.pop(self.handle_id, None)
        _bump()


class _TensorHookHandle:
    """What ``Tensor.register_hook`` returns (MindSpore's ``_TensorHookHandle``)."""

    def __init__(self, tensor, hook_id, traced):
        self.id = hook_id
        self._tensor = tensor
        self._traced = traced

    def remove(self):
        hooks = self._tensor.__dict__.get("_ms_grad_hooks")
        if hooks is not None:
            hooks.pop(self.id, None)
        if not self._traced:
            _bump()


# ---------------------------------------------------------------------------
# Tensor.register_hook
# ---------------------------------------------------------------------------
def _tensor_hook_runner(hooks):
    def on_grad(gs):
        g = gs[0]
        for fn in list(hooks.values()):     # removed before the backward pass: not called
            ret = fn(g)
            if ret is not None:
                g = ret if isinstance(ret, Tensor) else wrap(jnp.asarray(to_array(ret)))
        return (g,)
    return on_grad


def register_tensor_hook(tensor, hook_fn):
    """``Tensor.register_hook``: ``hook_fn(grad)`` sees (and may replace) the gradient
    of ``tensor``. On a value computed inside the differentiated function it covers
    the uses after the registration; on an input it covers the input's gradient."""
    check_hook_fn(hook_fn)
    if getattr(tensor, "requires_grad", True) is False:      # a Parameter(requires_grad=False)
        raise RuntimeError("The tensor requires grad is false, which can not register tensor hook")
    hooks = tensor.__dict__.get("_ms_grad_hooks")
    if hooks is None:
        hooks = tensor.__dict__["_ms_grad_hooks"] = OrderedDict()
        fresh = True
    else:
        fresh = False
    hid = next(_ids)
    hooks[hid] = hook_fn
    traced = isinstance(tensor._data, jax.core.Tracer)
    if traced:
        if fresh:
            tensor._data = backward_identity((tensor._data,), _tensor_hook_runner(hooks), "register_hook")[0]
    else:
        _bump()
    return _TensorHookHandle(tensor, hid, traced)


def apply_tensor_hooks(tensor, value):
    """``value`` (the traced stand-in of ``tensor`` inside a transform) routed through
    ``tensor``'s hooks, if it has any."""
    hooks = tensor.__dict__.get("_ms_grad_hooks")
    if not hooks:
        return value
    return backward_identity((value,), _tensor_hook_runner(hooks), "register_hook")[0]


# ---------------------------------------------------------------------------
# Cell hooks
# ---------------------------------------------------------------------------
class CellHooks:
    """The hooks registered on one Cell (kept out of the Cell's NNX graph)."""

    def __init__(self):
        self.forward_pre = OrderedDict()
        self.forward = OrderedDict()
        self.backward_pre = OrderedDict()
        self.backward = OrderedDict()
        self.with_kwargs = {}
        self.always_call = {}

    def __bool__(self):
        return bool(self.forward_pre or self.forward or self.backward_pre or self.backward)

    def add(self, kind, hook_fn, prepend=False, with_kwargs=False, always_call=False):
        check_hook_fn(hook_fn)
        _not_compiled(f"register_{kind}_hook")
        d = getattr(self, kind)
        handle = HookHandle(d, extra_dict=[self.with_kwargs, self.always_call])
        d[handle.handle_id] = hook_fn
        if prepend:
            d.move_to_end(handle.handle_id, last=False)
        if with_kwargs:
            self.with_kwargs[handle.handle_id] = True
        if always_call:
            self.always_call[handle.handle_id] = True
        _bump()
        return handle


def _tensor_leaves(tree):
    leaves, treedef = jax.tree_util.tree_flatten(tree, is_leaf=lambda x: isinstance(x, Tensor))
    return leaves, treedef


def _hook_tensors(tree, on_grad, who, extra=None, at_trace=False):
    """``tree`` with its Tensors routed through ``on_grad`` (a tuple of their
    gradients in, replacements or None out)."""
    leaves, treedef = _tensor_leaves(tree)
    pos = [i for i, l in enumerate(leaves) if isinstance(l, Tensor)]
    if not pos:
        return tree
    new = backward_identity(tuple(leaves[i]._data for i in pos), on_grad, who, extra=extra, at_trace=at_trace)
    leaves = list(leaves)
    for i, v in zip(pos, new):
        leaves[i] = wrap(v)
    return jax.tree_util.tree_unflatten(treedef, leaves)


def run_cell(cell, hooks, construct, args, kwargs):
    """``construct(*args, **kwargs)`` with ``cell``'s hooks, in MindSpore's order."""
    for hid, fn in list(hooks.forward_pre.items()):
        if hid in hooks.with_kwargs:
            ret = fn(cell, args, kwargs)
            if ret is not None:
                if isinstance(ret, tuple) and len(ret) == 2:
                    args, kwargs = ret
                else:
                    raise RuntimeError("forward pre hook with kwargs must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {ret}")
        else:
            ret = fn(cell, args)
            if ret is not None:
                args = ret if isinstance(ret, tuple) else (ret,)
    grad_output = []
    if hooks.backward:
        def on_input_grad(grad_input, grad_out):
            for fn in list(hooks.backward.values()):
                ret = fn(cell, grad_input, grad_out)
                if ret is not None:
                    grad_input = tuple(ret) if isinstance(ret, (tuple, list)) else (ret,)
            return grad_input
        args = tuple(_hook_tensors(tuple(args), on_input_grad, "register_backward_hook",
                                   extra=lambda: grad_output[0] if grad_output else ()))
    called, out = set(), None
    try:
        out = construct(*args, **kwargs)
        for hid, fn in list(hooks.forward.items()):
            called.add(hid)
            ret = fn(cell, args, kwargs, out) if hid in hooks.with_kwargs else fn(cell, args, out)
            if ret is not None:
                out = ret
    except Exception:
        # forward hooks registered with always_call=True still run (MindSpore: warn on their errors)
        for hid, fn in list(hooks.forward.items()):
            if hid in hooks.always_call and hid not in called:
                try:
                    fn(cell, args, kwargs, out) if hid in hooks.with_kwargs else fn(cell, args, out)
                except Exception as e:  # noqa: BLE001
                    warnings.warn("cell forward hook with ``always_call=True`` raised an exception that was "
                                  f"silenced because another error was already raised in forward: {e}")
        raise
    if hooks.backward:
        def on_output_grad(gs):
            grad_output[:] = [tuple(g._data for g in gs)]
            return None
        out = _hook_tensors(out, on_output_grad, "register_backward_hook", at_trace=True)
    if hooks.backward_pre:
        def on_pre(gs):
            for fn in list(hooks.backward_pre.values()):
                ret = fn(cell, gs)
                if ret is not None:
                    gs = tuple(ret) if isinstance(ret, (tuple, list)) else (ret,)
            return gs
        out = _hook_tensors(out, on_pre, "register_backward_pre_hook")
    return out


provided.provide("register_tensor_hook", register_tensor_hook)   # Tensor.register_hook (tensor.py)
