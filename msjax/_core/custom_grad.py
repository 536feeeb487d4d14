"""Custom backward rules: a Cell's ``bprop`` and function-level ``custom_vjp``.

:func:`call_with_bprop` runs ``construct`` as one ``jax.custom_vjp`` function of
the call's Tensor arguments and of the Parameters swapped in by the enclosing
transforms (``state.frames``), so every gradient transform of the core (``grad``,
``value_and_grad``, ``GradOperation``, ``vjp``, PyNative and GRAPH_MODE, nested
and higher order) uses ``bprop(*inputs, out, dout)`` instead of differentiating
``construct``. Outside any transform nothing is differentiated and ``construct``
simply runs.

MindSpore 2.10's rules (GRAPH_MODE's where its PyNative differs):

* ``bprop`` gets the inputs (keyword arguments bound to positions, defaults
  applied), the forward output and its cotangent (``dout``, the output's
  structure) and returns a tuple with at least one gradient per input; entries
  beyond the inputs are ignored; fewer is a ``RuntimeError``, a non-tuple a
  ``TypeError`` (PyNative accepts a single Tensor for one input).
* Parameters used inside such a Cell get zero gradients (the rule only speaks
  of the inputs); ``bprop`` reads them at their forward values.
* Differentiating the gradient (higher order) differentiates ``bprop`` itself.
* Forward mode (``jvp``, ``jacfwd``) uses the same rule, as MindSpore derives jvp from
  vjp: the output tangent is ``J v`` for the ``J`` that ``bprop`` is the transpose of.

Differences from MindSpore: MindSpore's PyNative runs the Cell's ``construct``
under ``_no_grad()``, so a ``construct`` that computes gradients itself raises
there; msjax follows GRAPH_MODE, where it works.
"""
from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp
import numpy as np

from . import state
from .tensor import Tensor, to_array, wrap

__all__ = ["call_with_bprop", "custom_vjp", "CustomVjp"]


def _bind(construct, args, kwargs):
    """Keyword arguments bound to positions, defaults applied (as MindSpore's
    ``_call_custom_bprop``)."""
    try:
        sig = inspect.signature(construct)
        bound = sig.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return tuple(args) + tuple(kwargs.values())
    bound.apply_defaults()
    out = list(bound.args)
    for name, value in bound.kwargs.items():
        out.append(value)
    return tuple(out)


def _frame_params(owner_params):
    """The Parameters the custom function takes as explicit inputs: those of the
    enclosing transforms (their values may be traced) and the owner's own."""
    found = {}
    for fr in state.frames:
        for p in fr.params:
            found.setdefault(id(p), p)
        for p in fr.adopted:
            found.setdefault(id(p), p)
    for p in owner_params:
        found.setdefault(id(p), p)
    return list(found.values())


def _to_arrays(tree):
    from .transforms import to_arrays
    return to_arrays(tree)


def _inexact(x):
    return jnp.issubdtype(x.dtype, jnp.inexact)


def _cotangent_tensors(ct, out):
    """JAX's cotangent of the output as Tensors; float0 (integer outputs) as zeros."""
    def fix(c, o):
        if c is None or getattr(c, "dtype", None) == jax.dtypes.float0:
            return wrap(jnp.zeros(o.shape, o.dtype))
        return wrap(c)
    return jax.tree_util.tree_map(fix, ct, out, is_leaf=lambda c: c is None)


def _check_grads(grads, n, owner):
    """bprop's gradients as a tuple (MindSpore's PyNative: a lone Tensor is the one input's gradient)."""
    grads = (grads,) if isinstance(grads, Tensor) else grads
    if not isinstance(grads, tuple):
        raise TypeError(f"For bprop function, output should be a tuple, but got {type(grads).__name__} {grads!r}.")
    if len(grads) < n:
        raise RuntimeError(f"Grad size should lager than forward inputs, but got 1 vs {n}" if len(grads) == 1 else
                           f"The output size of the 'bprop' must match the number of parameters in its "
                           f"corresponding primal function '{_owner_name(owner)}' : {len(grads)} vs. {n}.")
    return grads


def _check_signature(bprop, nargs):
    """MindSpore's (GRAPH_MODE) check: bprop takes the inputs, ``out`` and ``dout``."""
    try:
        sig = inspect.signature(bprop)
    except (TypeError, ValueError):
        return
    try:
        sig.bind(*range(nargs + 2))
    except TypeError:
        raise TypeError("The params of function 'bprop' of Primitive or Cell requires the forward inputs as well "
                        "as the 'out' and 'dout'.") from None


def _owner_name(owner):
    if hasattr(owner, "construct") and not isinstance(owner, CustomVjp):
        return f"{type(owner).__name__}()"
    fn = getattr(owner, "fwd", owner)
    return getattr(fn, "__name__", type(owner).__name__)


def _grad_leaf(g, x, owner, k):
    """One gradient returned by bprop as the cotangent of input leaf ``x``."""
    if not _inexact(x):
        return None
    if g is None:
        return jnp.zeros(x.shape, x.dtype)
    try:
        g = to_array(g) if not isinstance(g, jax.Array) else g
    except (TypeError, ValueError):
        raise TypeError(f"For the 'bprop' of '{_owner_name(owner)}', the gradient of input {k} must be a Tensor, "
                        f"but got {type(g).__name__}.") from None
    if tuple(g.shape) != tuple(x.shape):    # MindSpore broadcasts, or sums a broadcast gradient back
        try:
            g = jnp.broadcast_to(g, x.shape)
        except ValueError:
            if g.ndim < x.ndim or any(d not in (1, e) for d, e in zip(x.shape[::-1], g.shape[::-1])):
                raise RuntimeError(f"For grad interface or custom function, grad tensor should be broadcast to "
                                   f"expected shape, but got {list(g.shape)} vs {list(x.shape)}") from None
            g = g.sum(tuple(range(g.ndim - x.ndim)))
            g = g.sum(tuple(i for i, d in enumerate(x.shape) if d == 1 and g.shape[i] != 1), keepdims=True)
    return g.astype(x.dtype)


def call_with_bprop(owner, construct, bprop, args, kwargs, owner_params=()):
    """``construct(*args, **kwargs)`` whose gradient is ``bprop(*inputs, out, dout)``."""
    from .transforms import _Args
    args = _bind(construct, args, kwargs)
    a = _Args(args, {})
    if not state.frames and not any(isinstance(d, jax.core.Tracer) for d in a.dyn):
        return construct(*args)      # nothing is being differentiated
    nargs = len(args)
    _check_signature(bprop, nargs)
    params = _frame_params(owner_params)
    pvals = [p._data for p in params]       # read through _data: enclosing recorders see them
    groups = [[k for k, i in enumerate(a.dyn_idx) if a.offsets[p] <= i < a.offsets[p + 1]] for p in range(nargs)]
    meta = {}

    def body(dyn, vals):
        call_args, _ = a.rebuild(list(dyn), nargs)
        with state.SwapFrame(params, list(vals)) as fr:
            out = _to_arrays(construct(*call_args))
        meta["out_tree"] = jax.tree_util.tree_structure(out)
        changed = {i: v for i, v in enumerate(fr.final) if v is not vals[i]}
        return out, changed

    @jax.custom_vjp
    def fn(dyn, vals):
        return body(dyn, vals)

    def fwd(dyn, vals):
        out, changed = body(dyn, vals)
        return (out, changed), (dyn, vals, out)

    def bwd(res, ct):
        dyn, vals, out = res
        ct_out, _ = ct
        call_args, _ = a.rebuild(list(dyn), nargs)
        dout = _cotangent_tensors(ct_out, out)
        with state.SwapFrame(params, list(vals)):
            grads = bprop(*call_args, jax.tree_util.tree_map(wrap, out), dout)
        grads = _check_grads(grads, nargs, owner)
        g_dyn = [None] * len(dyn)
        for k, g in enumerate(grads[:nargs]):
            ks = groups[k]
            if not ks:
                continue        # a non-Tensor input: its gradient is not used
            leaves = jax.tree_util.tree_leaves(g, is_leaf=lambda t: isinstance(t, Tensor)) \
                if not isinstance(g, Tensor) else [g]
            if len(ks) == 1 and len(leaves) != 1:
                leaves = [g]
            if len(leaves) != len(ks):
                raise TypeError(f"For the 'bprop' of '{_owner_name(owner)}', the gradient of input {k} must have "
                                f"the structure of the input ({len(ks)} Tensors), but got {len(leaves)}.")
            for j, leaf in zip(ks, leaves):
                g_dyn[j] = _grad_leaf(leaf, dyn[j], owner, k)
        return list(g_dyn), [None] * len(vals)

    fn.defvjp(fwd, bwd)
    call = _forward_mode(fn, body) if state.FORWARD_MODE[0] else fn
    out, changed = call(list(a.dyn), pvals)
    for i, v in changed.items():
        params[i]._data = v
    from .transforms import to_tensors
    return to_tensors(out)


def _zero_tangent(x):
    return jnp.zeros(x.shape, x.dtype) if _inexact(x) else np.zeros(x.shape, jax.dtypes.float0)


def _forward_mode(fn, body):
    """``fn`` (the custom_vjp function) for forward mode, as MindSpore derives jvp from
    its backward rule: the tangent of the output is ``J v``, the transpose of the
    (linear) pullback ``bprop`` defines, applied to the input tangents (a vjp of the vjp)."""
    @jax.custom_jvp
    def fj(dyn, vals):
        return body(dyn, vals)

    @fj.defjvp
    def fj_jvp(primals, tangents):
        dyn, vals = primals
        t_dyn, _ = tangents
        (out, changed), vjp_fn = jax.vjp(fn, dyn, vals)
        zero_changed = jax.tree_util.tree_map(_zero_tangent, changed)

        def pull(ct_out):
            return [g for g, x in zip(vjp_fn((ct_out, zero_changed))[0], dyn) if _inexact(x)]

        ct0 = jax.tree_util.tree_map(lambda o: jnp.zeros(o.shape, o.dtype), out)
        _, pull_t = jax.vjp(pull, ct0)
        (t_out,) = pull_t([t for t, x in zip(t_dyn, dyn) if _inexact(x)])
        t_out = jax.tree_util.tree_map(
            lambda t, o: t if _inexact(o) else np.zeros(o.shape, jax.dtypes.float0), t_out, out)
        return (out, changed), (t_out, zero_changed)

    return fj


class CustomVjp:
    """A function with a custom backward rule (``custom_vjp(fn)``): ``defbwd(bwd)``
    sets ``bwd(*inputs, out, dout)``, which returns one gradient per input.

    Differences from MindSpore: MindSpore's ``CustomVjp`` is an ``nn.Cell``; here it
    is a plain callable on the same core (``isinstance(f, nn.Cell)`` is False)."""

    def __init__(self, fwd):
        self.fwd = fwd
        self.bwd = None
        self.custom_vjp = True

    def construct(self, *args):
        return self.fwd(*args)

    def defbwd(self, bwd):
        self.bwd = bwd

    def bprop(self, *args):
        if self.bwd is None:
            raise TypeError("'NoneType' object is not callable: define the backward function with "
                            f"'{getattr(self.fwd, '__name__', 'fn')}.defbwd(bwd)' before differentiating.")
        return self.bwd(*args)

    def __call__(self, *args):
        return call_with_bprop(self, self.construct, self.bprop, args, {})

    def _ms_state_objects(self):
        from .transforms import _objects_named_by
        out = []
        _objects_named_by(self.fwd, 0, set(), out)
        return out


def custom_vjp(fn=None):
    """``mindspore.ops.function.grad.grad_func.custom_vjp``: decorate ``fn`` (also
    as ``@custom_vjp()``) to give it a backward rule with ``.defbwd(bwd)``."""
    if fn is not None:
        return CustomVjp(fn)
    return CustomVjp
