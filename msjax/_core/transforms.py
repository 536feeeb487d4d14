"""The transform core: stateful user functions as cached, compiled pure functions.

``StatefulFunction`` wraps a user function (a Cell, a plain function closing over
Cells, a ``construct`` method) and runs it as a pure JAX function of
``(parameter values, tensor arguments[, sensitivity])``:

* **state discovery** -- the Parameters it touches: the ``weights`` asked for, the
  Parameters of any Cell it is, is bound to, receives, or names in its globals or
  closure, plus any other Parameter a trace records it reading or writing (found
  while lowering; the function is then traced again with that Parameter as an
  input, so no Parameter value is ever baked in as a constant);
* **swap in / write back** -- inside the trace each Parameter holds its traced
  value (``state.SwapFrame``), Parameters written by the call come back out and are
  written to the Parameters after the call;
* **caching** -- one ``jax.jit`` per (argument structure, shapes/dtypes, static
  arguments, cell training flags); calling again with the same signature neither
  traces nor compiles (``TRACES`` counts traces, for tests);
* **gradients** -- a ``VjpSpec`` differentiates with ``jax.vjp`` over the selected
  argument positions and weights, seeding every output with ones (MindSpore's
  rule: non-scalar outputs are fine, several outputs are summed) or with a given
  sensitivity; a ``JvpSpec`` pushes tangents forward with ``jax.jvp`` instead
  (``nn.Jvp``), the tangents travelling in the sensitivity slot.

Inside an enclosing transform (a Cell's ``construct`` under GRAPH_MODE calling a
gradient function, grad of grad) the function runs inline on the tracers, with
no cache. A function whose Python control flow needs concrete values cannot be
compiled; it then runs without ``jax.jit`` (the same numbers, slower).
"""
from __future__ import annotations

import copy
import dis
import functools
import inspect
import sys
import types

import jax
import jax.numpy as jnp
import numpy as np

from . import compile_cache, hooks, printhook, provided, rng, state
from . import dtype as mstype
from . import float_to_int, nograd, runtime_checks
from .parameter import Parameter
from .tensor import Tensor, to_array, wrap

__all__ = ["StatefulFunction", "VjpSpec", "JvpSpec", "TRACES", "bump_version", "collect_state"]

TRACES = [0]        # number of Python traces of user functions (tests count them)
_VERSION = state.VERSION

_CONCRETE_ERRORS = (jax.errors.ConcretizationTypeError, jax.errors.TracerIntegerConversionError,
                    jax.errors.TracerArrayConversionError, jax.errors.NonConcreteBooleanIndexError)


bump_version = state.bump_version


def _is_cell(x):
    return getattr(type(x), "_ms_is_cell", False)


def _is_tensor_leaf(x):
    return isinstance(x, Tensor)


# ---------------------------------------------------------------------------
# state discovery
# ---------------------------------------------------------------------------
def _objects_named_by(fn, depth, seen, out):
    """Cells, Parameters and functions that ``fn`` names (globals, closure, self)."""
    if depth > 3 or id(fn) in seen:
        return
    seen.add(id(fn))
    if isinstance(fn, functools.partial):
        out.extend(fn.args)
        out.extend(fn.keywords.values())
        _objects_named_by(fn.func, depth, seen, out)
        return
    if inspect.ismethod(fn):
        out.append(fn.__self__)
        fn = fn.__func__
    if _is_cell(fn):
        out.append(fn)
        return
    code = getattr(fn, "__code__", None)
    if code is None:
        call = getattr(type(fn), "__call__", None)
        if call is not None and not isinstance(fn, type) and isinstance(call, types.FunctionType):
            out.append(fn)
            _objects_named_by(call, depth + 1, seen, out)
        return
    g = getattr(fn, "__globals__", {})
    for name in _global_names(code):
        if name in g:
            out.append(g[name])
    for c in getattr(fn, "__closure__", None) or ():
        try:
            out.append(c.cell_contents)
        except ValueError:
            pass
    for o in list(out):
        if isinstance(o, types.FunctionType) and id(o) not in seen:
            _objects_named_by(o, depth + 1, seen, out)


def _outside_attributes(fn):
    """The plain Python objects ``fn`` names (and objects in their attributes, three deep) with their
    attributes: a trace that leaves a traced Tensor there runs uncompiled (MindSpore runs such a graph
    statement in Python, PyExecute), the attribute then getting the call's value."""
    named, objs, todo = [], {}, []
    _objects_named_by(fn, 0, set(), named)
    todo = [(o, 0) for o in named] + [(type(o).construct, 0) for o in named if _is_cell(o)]
    while todo and len(objs) < 256:
        o, d = todo.pop()
        if isinstance(o, types.FunctionType) and d == 0:
            extra = []
            _objects_named_by(o, 1, set(), extra)
            todo += [(x, 1) for x in extra]
        elif d <= 3 and id(o) not in objs and not isinstance(o, (type, types.ModuleType, types.FunctionType, Tensor))\
                and not _is_cell(o) and any(type(c.__dict__.get("__dict__")) is types.GetSetDescriptorType
                                            for c in type(o).__mro__):
            objs[id(o)] = (o, dict(object.__getattribute__(o, "__dict__")))   # a plain instance dict only
            todo += [(v, d + 1) for v in objs[id(o)][1].values()]
    return list(objs.values())


def _settle_outside(objs, restore):
    """Attributes of ``objs`` holding a traced Tensor: its concrete primal, else (``restore``, or none) the
    value before the call. Returns whether there were any."""
    hit = False
    for o, before in objs:
        for k, v in list(vars(o).items()):
            if isinstance(v, Tensor) and isinstance(v._data, jax.core.Tracer):
                hit = True
                primal = getattr(v._data, "primal", None)
                if not restore and primal is not None and not isinstance(primal, jax.core.Tracer):
                    setattr(o, k, wrap(primal))
                elif k in before:
                    setattr(o, k, before[k])
                else:
                    delattr(o, k)
    return hit


def _settling(body, objs):
    def run(*args):
        try:
            return body(*args)
        finally:
            _settle_outside(objs, False)
    run.msjax_uncompiled = True
    return run


def _global_names(code):
    """Names a code object loads as globals (not attribute names), nested code included."""
    names = set()
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
            names.add(ins.argval)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


def _sub_cells(cells):
    seen, out = set(), []
    for c in cells:
        for _, sub in c.cells_and_names():
            if id(sub) not in seen:
                seen.add(id(sub))
                out.append(sub)
    return out


def collect_state(objs):
    """Unique Parameters of the Cells (with their hidden state, e.g. a Dropout's random
    engines)/Parameters/sequences among ``objs``."""
    found = {}
    for o in objs:
        if isinstance(o, Parameter):
            found.setdefault(id(o), o)
        elif _is_cell(o):
            for p in list(o.get_parameters()) + o._ms_hidden_state():
                found.setdefault(id(p), p)
        elif isinstance(o, (list, tuple)) and o and all(isinstance(p, Parameter) for p in o):
            for p in o:
                found.setdefault(id(p), p)
        elif isinstance(o, Tensor) or o is None:
            continue
        elif hasattr(o, "_ms_state_objects") and not isinstance(o, type):
            found.update((id(p), p) for p in collect_state(o._ms_state_objects()))
    return list(found.values())


# ---------------------------------------------------------------------------
# argument handling
# ---------------------------------------------------------------------------
def _hashable(x):
    try:
        hash(x)
        return x
    except TypeError:
        return _Unhashable(x)


class _Unhashable:
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return id(self.obj)

    def __eq__(self, other):
        return isinstance(other, _Unhashable) and other.obj is self.obj


class _Args:
    """Positional and keyword arguments split into dynamic arrays and static parts."""

    __slots__ = ("treedefs", "offsets", "leaves", "dyn_idx", "dyn", "key")

    def __init__(self, args, kwargs):
        treedefs, leaves, offsets = [], [], [0]
        for a in args + ((kwargs,) if kwargs else ()):
            if isinstance(a, Tensor):
                treedefs.append(None)
                leaves.append(a)
            else:
                ls, td = jax.tree_util.tree_flatten(a, is_leaf=_is_tensor_leaf)
                treedefs.append(td)
                leaves.extend(ls)
            offsets.append(len(leaves))
        dyn_idx, dyn, static = [], [], []
        for i, l in enumerate(leaves):
            if isinstance(l, Tensor):
                d = l._data
                dyn_idx.append(i)
                dyn.append(d)
                static.append((d.shape, d.dtype, isinstance(l, Parameter)))
            elif isinstance(l, np.ndarray):
                d = to_array(l)
                leaves[i] = wrap(d)
                dyn_idx.append(i)
                dyn.append(d)
                static.append(("np", d.shape, d.dtype))
            else:
                static.append(_hashable(l))
        self.treedefs = tuple(treedefs)
        self.offsets = offsets
        self.leaves = leaves
        self.dyn_idx = dyn_idx
        self.dyn = dyn
        self.key = (self.treedefs, len(args), tuple(static))

    def rebuild(self, dyn_values, nargs, grad_leaves=(), param_args=None, tensors=False):
        """The arguments with ``dyn_values`` in place of the arrays. ``param_args`` (a list) gets ``(k, stand-in,
        value)`` per Parameter argument (every Tensor one with ``tensors``: GRAPH_MODE/``ms.jit`` calls), whose
        stand-in's value after the call goes to the argument, as MindSpore's in-place ops write them."""
        leaves = list(self.leaves)
        for k, (i, v) in enumerate(zip(self.dyn_idx, dyn_values)):
            orig = self.leaves[i]
            if "_ms_grad_hooks" in getattr(orig, "__dict__", ()):   # Tensor.register_hook
                v = hooks.apply_tensor_hooks(orig, v)
            leaves[i] = wrap(v)
            if param_args is not None and isinstance(orig, Tensor if tensors else Parameter):
                param_args.append((k, leaves[i], v))
            if k in grad_leaves:    # a differentiated input: PyNative's in-place ops refuse it
                leaves[i].__dict__["_ms_grad_leaf"] = True
        out = []
        for k, td in enumerate(self.treedefs):
            part = leaves[self.offsets[k]:self.offsets[k + 1]]
            out.append(part[0] if td is None else jax.tree_util.tree_unflatten(td, part))
        args = tuple(out[:nargs])
        kwargs = out[nargs] if len(out) > nargs else {}
        return args, kwargs

    def cells(self):
        return [l for l in self.leaves if _is_cell(l)]


def to_arrays(tree, constants=False):
    """Outputs of a user function as a pytree of arrays (Tensors unwrapped). With
    ``constants`` (a compiled forward function: ``ms.jit``, GRAPH_MODE), Python numbers
    stay Python numbers and dicts keep their order, as MindSpore's graphs return them."""
    if isinstance(tree, Tensor):
        return tree._data
    if isinstance(tree, tuple):     # a namedtuple stays one (JAX flattens it as a pytree node)
        return _rebuilt(tree, [to_arrays(x, constants) for x in tree])
    if isinstance(tree, list):      # a global list of constants is returned as itself
        return _StaticObject(tree) if constants and provided.need("outside_list")(tree) else \
            [to_arrays(x, constants) for x in tree]
    if isinstance(tree, dict):
        return (_OrderedOut if constants else dict)((k, to_arrays(v, constants)) for k, v in tree.items())
    if isinstance(tree, _StaticInt):
        return tree
    if getattr(type(tree), "_pytree_output", False):    # COOTensor, CSRTensor, RowTensor: traced children
        return tree
    if constants and (type(tree) in (bool, int, float) or      # a mutable() number too (returned as itself)
                      isinstance(tree, (int, float)) and hasattr(type(tree), "__ms_mutable__")):
        return _StaticNumber(tree)
    if constants and (isinstance(tree, np.generic) or not isinstance(tree, _PLAIN)):   # iterators, NumPy, classes
        value = provided.need("graph_value")(tree)
        return to_arrays(value, True) if isinstance(value, (tuple, list, int, float)) else _StaticObject(value)
    if isinstance(tree, (bool, int, float, np.ndarray, np.generic)):
        return to_array(tree)
    if tree is None:
        return None
    if isinstance(tree, str):       # a name in the output (return_ids=True): static, not traced
        return _StaticStr(tree)
    if isinstance(tree, mstype.Type):   # a dtype output (ops.DType): a constant, zero gradients as MindSpore's
        return _StaticObject(tree)
    return tree


class _StaticStr(str):
    """A string output of a compiled function: part of the output structure."""

    __slots__ = ()


class _StaticInt(int):
    """A position id in a ``return_ids`` output: stays a Python int through ``jax.jit``."""

    __slots__ = ()


class _StaticNumber:
    """A Python number returned by a compiled function: part of the output structure."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):   # 1, 1.0 and True stay apart
        return type(other) is _StaticNumber and (type(self.value), self.value) == (type(other.value), other.value)

    def __hash__(self):
        return hash((type(self.value), self.value))

    def __reduce__(self):
        return _StaticNumber, (self.value,)


class _StaticObject(_StaticNumber):
    """Any other constant a compiled function returns (a class, a NumPy array): the object itself."""

    __slots__ = ()

    def __eq__(self, other):
        return type(other) is _StaticObject and other.value is self.value

    def __hash__(self):
        return id(self.value)

    def __reduce__(self):
        return _StaticObject, (self.value,)


class _OrderedOut(dict):
    """A dict output flattened in insertion order (JAX sorts a dict's keys)."""


jax.tree_util.register_pytree_node(_OrderedOut, lambda d: (list(d.values()), tuple(d)),
                                   lambda keys, values: _OrderedOut(zip(keys, values)))
jax.tree_util.register_static(_StaticStr)
jax.tree_util.register_static(_StaticInt)
jax.tree_util.register_static(_StaticNumber)
jax.tree_util.register_static(_StaticObject)
_STATIC = (_StaticStr, _StaticInt, _StaticNumber, _StaticObject)
_PLAIN = (jax.Array, bool, int, float, str, type(None))   # outputs not handed to MindSpore's rules (graph_value)


def static_int(i):
    """``i`` as a Python int that stays one through a compiled function's outputs;
    a plain int outside any transform (``state.frames`` empty)."""
    return _StaticInt(i) if state.frames else int(i)


def _unwrap_static(x):
    if isinstance(x, _StaticObject):    # a fresh NumPy array per call, as MindSpore returns one
        return x.value.copy() if isinstance(x.value, np.ndarray) else x.value
    return str(x) if isinstance(x, _StaticStr) else x.value if isinstance(x, _StaticNumber) else int(x)


def to_tensors(tree):
    if _has_static(tree):
        tree = jax.tree_util.tree_map(lambda x: _unwrap_static(x) if isinstance(x, _STATIC) else wrap(x), tree,
                                      is_leaf=lambda x: isinstance(x, _STATIC))
        out = _plain_dicts(tree)    # a new tuple when it holds a dict: MindSpore then gives its floats in float32
        if isinstance(out, tuple) and out is not tree:
            out = _rebuilt(out, [float(np.float32(x)) if type(x) is float else x for x in out])
        return out
    return jax.tree_util.tree_map(wrap, tree)


def _plain_dicts(tree):
    if isinstance(tree, (tuple, list)):     # rebuilt only around a dict (a returned global list stays itself)
        items = [_plain_dicts(x) for x in tree]
        return tree if all(a is b for a, b in zip(items, tree)) else _rebuilt(tree, items)
    if isinstance(tree, dict):
        return {k: _plain_dicts(v) for k, v in tree.items()}
    return tree


def _rebuilt(seq, items):    # a namedtuple or a mutable() sequence stays one; other subclasses (ParameterTuple) do not
    cls = type(seq)
    if hasattr(cls, "_fields"):
        return cls(*items)
    return cls(items) if cls in (tuple, list) or getattr(cls, "__ms_mutable__", False) else \
        (list if isinstance(seq, list) else tuple)(items)


def _has_static(tree):
    if isinstance(tree, (_STATIC, _OrderedOut)):
        return True
    if isinstance(tree, (tuple, list)):
        return any(_has_static(x) for x in tree)
    if isinstance(tree, dict):
        return any(_has_static(x) for x in tree.values())
    return False


def _inexact(x):
    return jnp.issubdtype(x.dtype, jnp.inexact)


def _shadow(x):
    """A Float32 stand-in for an integer/bool input (MindSpore promotes to Float32)."""
    if _inexact(x):
        return x
    return x.astype(jnp.float32)


def _shadow_numbers(x):
    """``_shadow`` for integers only: a bool input (a mask) stays itself."""
    return x if x.dtype == jnp.bool_ else _shadow(x)


def _shadow_attempts(diff_in, diff_w):
    """Float shadows to differentiate integer/bool inputs through, most shadowed first: all of
    them; the bools kept real (masks); then also one integer input kept real at a time (the
    indices of a scatter/gather beside integer updates). Integer weights are always shadowed."""
    shadow_w = [_shadow(w) for w in diff_w]     # integer weights too (MindSpore: real gradients)
    yield [[_shadow(x) for x in g] for g in diff_in], shadow_w
    numbers = [[_shadow_numbers(x) for x in g] for g in diff_in]
    yield numbers, shadow_w
    for gi, g in enumerate(diff_in):
        for xi, x in enumerate(g):
            if not _inexact(x) and x.dtype != jnp.bool_:
                kept = [list(h) for h in numbers]
                kept[gi][xi] = x
                yield kept, shadow_w


@jax.custom_jvp
def _tied(new, entry):
    return new


_tied.defjvp(lambda primals, tangents: (primals[0], tangents[1]))


def _assigned(new, entry):
    """A Parameter written inside a gradient pass, differentiated as MindSpore's graph does: its later
    reads are the Parameter itself (their gradient goes to its value at entry), the value written gets
    none (Assign's backward gives zeros)."""
    if not hasattr(new, "dtype") or not _inexact(new):
        return new
    if entry is None or getattr(entry, "shape", None) != new.shape or entry.dtype != new.dtype:
        return jax.lax.stop_gradient(new)
    return _tied(new, entry)


COMPILED_SCOPE = state.COMPILED_SCOPE
_compiled = state.compiled


def _sens_fits(s, t):
    """A sensitivity of another shape that MindSpore accepts: a ``(1,)`` sens for a 0-d
    output everywhere; in compiled code (GRAPH_MODE, ``ms.jit``) any one-element sens for
    a one-element output, since its graph passes the sens into the backward unchecked (the
    zoo's ``sens=cast(tuple_to_array((self.sens,)))`` and loss-scale cells rely on it).
    Other shapes give rule-dependent results there and stay errors in msjax."""
    if t.ndim == 0 and tuple(s.shape) == (1,):
        return True
    return s.size == 1 and t.size == 1 and _compiled()


def _cotangent(target, sens):
    """Ones for every inexact output (MindSpore's default), or the given sens."""
    if sens is None:
        return jax.tree_util.tree_map(
            lambda t: jnp.ones(t.shape, t.dtype) if _inexact(t) else np.zeros(t.shape, jax.dtypes.float0),
            target)
    sens = to_arrays(sens)
    t_leaves, t_def = jax.tree_util.tree_flatten(target)
    s_leaves, s_def = jax.tree_util.tree_flatten(sens)
    if len(s_leaves) != len(t_leaves):
        raise RuntimeError(f"For grad with sens_param, the sensitivity must have the structure of the outputs "
                           f"({t_def}), but got {s_def}.")
    out = []
    for s, t in zip(s_leaves, t_leaves):
        if tuple(s.shape) != tuple(t.shape) and _sens_fits(s, t):
            s = jnp.reshape(s, t.shape)
        if tuple(s.shape) != tuple(t.shape):
            if s.ndim == 0:
                raise RuntimeError("For grad interface or custom function, grad tensor should be broadcast to "
                                   f"expected shape, but got {list(s.shape)} vs {list(t.shape)}")
            raise ValueError(f"The shape should be {list(t.shape)}, but got {list(s.shape)}: the sensitivity "
                             "must have the shape of the output it seeds.")
        out.append(jnp.asarray(s, t.dtype) if _inexact(t) else np.zeros(t.shape, jax.dtypes.float0))
    return jax.tree_util.tree_unflatten(t_def, out)


def _weight_grad(g, primal):
    """A weight's gradient in the weight's dtype: an integer weight's (from its float
    stand-in) truncated as MindSpore's backward casts do."""
    g = _fix_grad(g, primal)
    return g if g.dtype == primal.dtype else float_to_int.astype(g, primal.dtype)


def _fix_grad(g, primal):
    """float0 gradients (no gradient path) become zeros of the input's dtype."""
    if g.dtype == jax.dtypes.float0:
        return jnp.zeros(primal.shape, primal.dtype)
    return g


# ---------------------------------------------------------------------------
# the stateful function
# ---------------------------------------------------------------------------
class VjpSpec:
    """What a gradient transform differentiates: argument positions, weights,
    has_aux, and whether a sensitivity argument is passed."""

    __slots__ = ("positions", "weights", "has_aux", "sens", "jacobian")

    def __init__(self, positions, weights, has_aux=False, sens=False, jacobian=False):
        self.positions = tuple(positions)
        self.weights = list(weights)
        self.has_aux = has_aux
        self.sens = sens
        self.jacobian = jacobian    # seed with every unit vector (vmapped): whole Jacobians


class JvpSpec:
    """What a forward-mode transform differentiates: the argument positions whose
    tangents are passed (in the sensitivity slot: one list of leaves per position).
    ``has_aux``: only the first output is differentiated; ``jacobian``: the tangents
    are every unit vector of the inputs (vmapped, no sensitivity passed)."""

    __slots__ = ("positions", "has_aux", "jacobian")

    def __init__(self, positions, has_aux=False, jacobian=False):
        self.positions = tuple(positions)
        self.has_aux = has_aux
        self.jacobian = jacobian


def _position_groups(a, positions):
    """For each argument position, the indices (into the dynamic leaves) of its arrays."""
    return [[k for k, i in enumerate(a.dyn_idx) if a.offsets[p] <= i < a.offsets[p + 1]] for p in positions]


def _substitute(dyn, groups, values):
    leaves = list(dyn)
    for g, d in zip(groups, values):
        for k, v in zip(g, d):
            leaves[k] = v
    return leaves


def _unit_basis(arrays):
    """Every unit vector of the concatenated ``arrays``: for each array, a stack of
    shape ``(N, *array.shape)``, N the total size (row k is the k-th unit vector)."""
    sizes = [int(np.prod(x.shape)) for x in arrays]
    n, out, start = sum(sizes), [], 0
    for x, size in zip(arrays, sizes):
        out.append(jnp.eye(n, size, -start, dtype=x.dtype).reshape((n,) + tuple(x.shape)))
        start += size
    return out


def _jacobian_blocks(stacked, lead_shapes, tail_shapes):
    """Split stacks of shape ``(N, *tail)`` (N spans the ``lead_shapes`` arrays) into
    blocks ``block[j][i]`` of shape ``lead_shapes[j] + tail_shapes[i]``."""
    blocks, start = [], 0
    for lead in lead_shapes:
        size = int(np.prod(lead))
        blocks.append([s[start:start + size].reshape(tuple(lead) + tuple(t)) for s, t in zip(stacked, tail_shapes)])
        start += size
    return blocks


def _donating(traced, jitted, in_tree):
    """The traced function compiled with the buffers of the state entries it writes
    donated (opt-in: ``StatefulFunction(..., donate=True)``).

    Only written entries are donated: their Parameters receive the new values right
    after the call, so no Parameter is left holding a deleted buffer. The donating
    program calls ``jitted`` with the arguments of the one trace, which JAX answers
    from that trace's cache: the program is one call of the traced jaxpr, without
    running the user function or re-evaluating the jaxpr. A buffer that something
    else still references (a Tensor the user kept, a shared Parameter value, the
    same array passed twice) is copied first instead of donated.
    """
    written = tuple(sorted(k for k in traced.out_info[1].keys() if k >= 0))   # < 0: Parameter arguments

    def staged(*flat):
        return jitted(*jax.tree_util.tree_unflatten(in_tree, flat))

    compiled = jax.jit(staged, donate_argnums=written)
    call = _donation_call(compiled, written)
    call.lower = lambda state_vals, dyn, sens: compiled.lower(*jax.tree_util.tree_leaves((state_vals, dyn, sens)))
    return call


def _donation_call(compiled, written):
    """``compiled`` (flat arguments, ``written`` donated) called as ``(state, dynamic args, sens)``."""
    def call(state_vals, dyn, sens):
        flat = list(state_vals)
        flat += dyn
        if sens is not None:
            flat += jax.tree_util.tree_leaves(sens)
        del state_vals
        for i in written:
            x = flat[i]
            # references: the Parameter, the caller's value list, `flat`, `x`, getrefcount
            if sys.getrefcount(x) > 5 or not isinstance(x, jax.Array):
                flat[i] = jnp.array(x, copy=True)
            del x
        return compiled(*flat)

    call.written = written
    return call


class _Entry:
    __slots__ = ("state", "call", "prints", "checks")

    def __init__(self, state_params, call, prints, checks=None):
        self.state = state_params
        self.call = call        # the jitted pure function, or the pure function itself
        self.prints = prints    # the trace emitted runtime prints (flush them per call)
        self.checks = checks    # run-time checks: the call returns ((out, code), changed)


def _checked(body, box):
    """``body`` returning ``((out, code), changed)``: ``code`` the run-time checks' vector
    (``runtime_checks``), whose messages the trace leaves in ``box``."""
    def checked(state_vals, dyn, sens):
        with runtime_checks.collecting() as col:
            out, changed = body(state_vals, dyn, sens)
            code = col.code()
        box[:] = col.checks
        return (out, code), changed
    checked.__name__ = body.__name__
    return checked


class StatefulFunction:
    """``fn`` as a cached pure function; ``vjp`` (a VjpSpec) makes it a gradient."""

    def __init__(self, fn, vjp: VjpSpec | JvpSpec | None = None, check_out=None, donate=False):
        self.fn = fn
        self.vjp = vjp              # a VjpSpec (reverse mode) or a JvpSpec (forward mode)
        self.check_out = check_out   # validates the raw output (e.g. has_aux on one output)
        self.donate = donate         # donate the buffers of the Parameters the call writes
        self._cache = {}
        self._learned = {}
        self._base_state = None
        self._base_cells = None     # every Cell (and sub-Cell) the function names
        self._arg_cells = {}        # id(cell) -> its sub-Cells, for Cells passed as arguments

    def __deepcopy__(self, memo):
        """The same function on the copies of what it names (a copied Cell's ``construct``,
        copied weights), compiling for itself: nothing compiled is copied."""
        return StatefulFunction(copy.deepcopy(self.fn, memo), copy.deepcopy(self.vjp, memo),
                                self.check_out, self.donate)

    def signatures(self):
        """The keys of the compiled signatures, oldest first (one per traced call signature)."""
        return list(self._cache)

    def discard(self, signature):
        """Drop one compiled signature (if there): its next call traces and compiles again."""
        self._cache.pop(signature, None)

    # -- pure bodies ----------------------------------------------------------
    def _run_user(self, state_params, state_vals, a: _Args, dyn, nargs, constants=False, grad_leaves=None):
        param_args = []
        args, kwargs = a.rebuild(dyn, nargs, grad_leaves or (), param_args, tensors=self.vjp is None)
        for i, p in enumerate(state_params):
            if "_ms_grad_hooks" in p.__dict__:      # Parameter.register_hook
                state_vals[i] = hooks.apply_tensor_hooks(p, state_vals[i])
        tie = None if grad_leaves is None else _assigned
        with state.SwapFrame(state_params, state_vals, tie) as fr, printhook.traced_print():
            # converted inside the frame: a Parameter returned by the function gives its
            # value at return time, not the value the frame restores on exit
            out = to_arrays(self.fn(*args, **kwargs), constants)
        if self.check_out is not None:
            self.check_out(out)
        changed = {i: v for i, v in enumerate(fr.final) if v is not state_vals[i]}
        changed.update({-1 - k: t._data for k, t, v in param_args if t._data is not v})   # Parameter arguments
        return out, changed

    def _forward_body(self, state_params, a, nargs):
        def pure(state_vals, dyn, sens):
            out, changed = self._run_user(state_params, list(state_vals), a, dyn, nargs, constants=True)
            return out, changed
        return pure

    def _body(self, state_params, a, nargs):
        if isinstance(self.vjp, JvpSpec):
            return self._jvp_body(state_params, a, nargs)
        return (self._vjp_body if self.vjp else self._forward_body)(state_params, a, nargs)

    def _jvp_body(self, state_params, a, nargs):
        groups = _position_groups(a, self.vjp.positions)

        def pure(state_vals, dyn, tangents):
            def run(diff_in):
                out, changed = self._run_user(state_params, list(state_vals), a, _substitute(dyn, groups, diff_in),
                                              nargs)
                out = to_arrays(out)
                if self.vjp.has_aux:
                    return out[0], (out, changed)
                return out, (out, changed)

            diff_in = [[dyn[k] for k in g] for g in groups]
            if self.vjp.jacobian:
                return self._jacfwd(run, diff_in)
            tangents = to_arrays(tangents)
            if len(tangents) != len(groups) or any(len(t) != len(g) for t, g in zip(tangents, groups)):
                raise TypeError("For 'Jvp', the tangents 'v' must have the structure of the inputs.")
            tan = []
            for ts, g in zip(tangents, groups):
                for t, k in zip(ts, g):
                    if tuple(t.shape) != tuple(dyn[k].shape):
                        raise ValueError(f"For 'Jvp', the shape of 'v' {list(t.shape)} must equal the shape of "
                                         f"the input it goes with {list(dyn[k].shape)}.")
                tan.append([jnp.asarray(t, _shadow(dyn[k]).dtype) for t, k in zip(ts, g)])
            if all(_inexact(x) for g in diff_in for x in g):
                _, out_dot, (out, changed) = jax.jvp(run, (diff_in,), (tan,), has_aux=True)
                return (out, out_dot), changed
            # integer/bool inputs: as in the vjp, the values come from the real
            # computation and the tangents from a float shadow of it; integer
            # outputs keep their dtype (MindSpore gives Int32 tangents for Int32)
            target, (out, changed) = run(diff_in)
            shadow_in = [[_shadow(x) for x in g] for g in diff_in]
            _, out_dot, _ = jax.jvp(run, (shadow_in,), (tan,), has_aux=True)
            out_dot = jax.tree_util.tree_map(
                lambda d, t: d if _inexact(t) else jnp.round(d).astype(t.dtype), out_dot, target)
            return (out, out_dot), changed
        return state.forward_mode_body(pure)

    @staticmethod
    def _jacfwd(run, diff_in):
        """``(outputs, blocks)``: ``blocks[o][i]``, output o's Jacobian with respect
        to input i (shape ``out_o.shape + in_i.shape``), from one vmapped jvp per
        unit tangent."""
        flat_in = [x for g in diff_in for x in g]
        basis = _unit_basis(flat_in)
        target, (out, changed) = run(diff_in)
        t_leaves = jax.tree_util.tree_leaves(target)

        def push(*tangent):
            it = iter(tangent)
            tan = [[next(it) for _ in g] for g in diff_in]
            return jax.tree_util.tree_leaves(jax.jvp(lambda d: run(d)[0], (diff_in,), (tan,))[1])

        stacked = jax.vmap(push)(*basis)     # per output leaf: (N, *out.shape)
        blocks = []
        for s, t in zip(stacked, t_leaves):
            per_in = _jacobian_blocks([s], [x.shape for x in flat_in], [t.shape])
            blocks.append([jnp.moveaxis(b[0], tuple(range(len(x.shape))),
                                        tuple(range(t.ndim, t.ndim + len(x.shape))))
                           for b, x in zip(per_in, flat_in)])
        return (out, blocks), changed

    def _vjp_body(self, state_params, a, nargs):
        spec = self.vjp
        w_idx = list(range(len(spec.weights)))
        groups = _position_groups(a, spec.positions)
        leaves = {k for g in groups for k in g}

        def pure(state_vals, dyn, sens):
            def run(diff_in, diff_w):
                vals = list(state_vals)
                for j, v in zip(w_idx, diff_w):
                    vals[j] = v
                out, changed = self._run_user(state_params, vals, a, _substitute(dyn, groups, diff_in), nargs,
                                              grad_leaves=leaves)
                out = to_arrays(out)
                target = out[0] if spec.has_aux else out
                return target, (out, changed)

            diff_in = [[dyn[k] for k in g] for g in groups]
            diff_w = [state_vals[j] for j in w_idx]
            exact = all(_inexact(x) for g in diff_in for x in g) and all(_inexact(w) for w in diff_w)
            if exact:
                target, vjp_fn, (out, changed) = jax.vjp(run, diff_in, diff_w, has_aux=True)
            else:
                # MindSpore differentiates integer/bool inputs as if they were real
                # numbers. JAX does not, so the gradient pass sees float shadows of
                # them; the values come from the untouched integer computation.
                target, (out, changed) = run(diff_in, diff_w)
                for shadow_in, shadow_w in _shadow_attempts(diff_in, diff_w):
                    try:
                        state.SHADOW_PASS[0] += 1
                        shadow_target, vjp_fn, _ = jax.vjp(run, shadow_in, shadow_w, has_aux=True)
                        break
                    except Exception as e:  # noqa: BLE001 - an op that needs integers (gather
                        # indices, Embedding ids) or bools (a mask): no gradient path through
                        # them, so keep those real, and at last differentiate the real
                        # inputs; theirs are zeros as in MindSpore.
                        if isinstance(e, RuntimeError):     # MindSpore's refusals (views.py)
                            raise
                    finally:
                        state.SHADOW_PASS[0] -= 1
                else:
                    shadow_target, vjp_fn, _ = jax.vjp(run, diff_in, diff_w, has_aux=True)
            if spec.jacobian:
                t_leaves, t_def = jax.tree_util.tree_flatten(target if exact else shadow_target)
                basis = _unit_basis(t_leaves)
                g_in, _ = jax.vmap(lambda *c: vjp_fn(jax.tree_util.tree_unflatten(t_def, list(c))))(*basis)
                # blocks[o][i]: output o with respect to input i, out_o.shape + in_i.shape
                flat = [x for gs in g_in for x in gs]
                blocks = _jacobian_blocks(flat, [t.shape for t in t_leaves],
                                          [dyn[k].shape for g in groups for k in g])
                return (out, blocks, []), changed
            cot = _cotangent(target if exact else shadow_target, sens if spec.sens else None)
            g_in, g_w = vjp_fn(cot)
            g_in = [[_fix_grad(x, dyn[k]) for x, k in zip(gs, g)] for gs, g in zip(g_in, groups)]
            g_w = [_weight_grad(x, state_vals[j]) for x, j in zip(g_w, w_idx)]
            return (out, g_in, g_w), changed
        return pure

    # -- building an entry ---------------------------------------------------------
    def _discover(self):
        objs = []
        _objects_named_by(self.fn, 0, set(), objs)
        if _is_cell(self.fn):
            objs.append(self.fn)
        self._base_state = collect_state(objs)
        self._base_cells = _sub_cells([o for o in objs if _is_cell(o)])

    def _train_flags(self, a: _Args):
        """Training flags of the Cells involved: part of the cache key, so a
        train/eval switch picks the matching compiled function."""
        if self._base_cells is None:
            self._discover()
        flags = tuple(c.training for c in self._base_cells)
        for c in a.cells():
            subs = self._arg_cells.get(id(c))
            if subs is None:
                subs = self._arg_cells[id(c)] = _sub_cells([c])
            flags += tuple(s.training for s in subs)
        return flags

    def _state_for(self, a: _Args):
        if self._base_state is None:
            self._discover()
        weights = self.vjp.weights if isinstance(self.vjp, VjpSpec) else []
        cells = a.cells()
        found = {id(p): p for p in weights}
        for key in [rng.key_param()] + rng.EXTRA:   # random ops draw from (and advance) these
            found.setdefault(id(key), key)
        for p in self._base_state + (collect_state(cells) if cells else []) + list(self._learned.values()):
            found.setdefault(id(p), p)
        return list(found.values())

    def _entry_for(self, a: _Args, nargs, sens, key):
        """A new signature's entry: an earlier process's (front-end cache), or traced here."""
        fc, fp = provided.lent("frontend_cache") if compile_cache.active_path() is not None else None, None
        if fc is not None and fc.enabled():
            state_params = self._state_for(a)
            cells = list(self._base_cells) + [s for c in a.cells() for s in self._arg_cells.get(id(c), ())]
            fp = fc.fingerprint(self.fn, self.vjp, key, state_params, cells)
            if fp and (call := fc.load_call(fp, len(state_params), self.donate, _donation_call)) is not None:
                return _Entry(state_params, call, False, getattr(call, "checks", None))
        return self._build(a, nargs, sens, fp)

    def _pynative_grad(self):
        """A PyNative gradient: run op by op when small (runtime._stepwise), then never stored whole."""
        return isinstance(self.vjp, VjpSpec) and not (self.donate or state.compiled())

    def _build(self, a: _Args, nargs, sens, fingerprint=None):
        first_state = None
        for _ in range(4):
            state_params = self._state_for(a)
            first_state = [id(p) for p in state_params] if first_state is None else first_state
            body = self._body(state_params, a, nargs)
            body.__name__ = "msjax_pynative_grad" if self._pynative_grad() else body.__name__   # _host_eager.STEPWISE
            state_vals = [p._raw_get() for p in state_params]
            checks = []
            jitted = jax.jit(_checked(body, checks))
            known = {id(p) for p in state_params}
            TRACES[0] += 1
            collectives = state.COLLECTIVES_TRACED[0]
            printhook.used[0] = hooks.used[0] = False
            outside = _outside_attributes(self.fn)
            try:
                with state.Recorder() as rec:
                    traced = jitted.trace(*provided.need("trace_inputs")(state_params, state_vals, a.dyn), sens)
                leaked = _settle_outside(outside, True)
            except _CONCRETE_ERRORS:
                # Python control flow on traced values: run without jax.jit. Parameters
                # the partial trace met still join the state.
                missed = {k: p for k, p in list(rec.reads.items()) + list(rec.writes.items())
                          if k not in known and k not in rec.created}
                if missed:
                    self._learned.update(missed)
                    continue
                body.msjax_uncompiled = True   # PIJit's code records (msjax.common._pijit_records)
                return _Entry(state_params, body, False)
            # Parameters created during the trace (a Cell built inside the function) are
            # local to the call, not state
            missed = {k: p for k, p in list(rec.reads.items()) + list(rec.writes.items())
                      if k not in known and k not in rec.created}
            if not missed:
                if leaked:
                    return _Entry(state_params, _settling(body, outside), False)
                if (call := provided.need("sharded_call")(body, state_params, a.dyn, sens)) is not None:
                    return _Entry(state_params, call, printhook.used[0] or hooks.used[0])   # semi-auto/auto parallel
                if state.COLLECTIVES_TRACED[0] != collectives and provided.need("data_parallel_active")():
                    # a collective (gradient reducer, AllReduce...) under DATA_PARALLEL: one
                    # data-parallel step over the device mesh (msjax.communication's spmd_call)
                    return _Entry(state_params, provided.need("spmd_call")(body, a.dyn, state_params), False)
                stepwise = body.__name__ == "msjax_pynative_grad" and provided.need("stepwise")(traced, jitted)
                call = (_donating(traced, jitted, jax.tree_util.tree_structure((state_vals, a.dyn, sens)))
                        if self.donate else stepwise or jitted)     # stepwise: op by op (runtime._stepwise)
                prints = printhook.used[0] or hooks.used[0]
                if fingerprint is not None and not (prints or stepwise) and first_state == [id(p) for p in state_params]:
                    provided.need("frontend_cache").store(
                        fingerprint, lambda: call.lower(state_vals, a.dyn, sens) if self.donate else traced.lower(),
                        {"donate": self.donate, "n_state": len(state_vals), "written": getattr(call, "written", ()),
                         "checks": checks})
                return _Entry(state_params, call, prints, checks)
            self._learned.update(missed)
        raise RuntimeError("msjax could not determine the Parameters this function uses.")

    # -- calling -------------------------------------------------------------------
    def _sens_key(self, sens):
        if sens is None:
            return None
        leaves, td = jax.tree_util.tree_flatten(to_arrays(sens))
        return td, tuple((l.shape, l.dtype) for l in leaves)

    def __call__(self, *args, sens=None, **kwargs):
        if nograd.active() and (isinstance(self.vjp, JvpSpec) or (self.vjp is not None and self.vjp.jacobian)):
            with nograd.suspended():   # MindSpore's jvp/jacfwd/jacrev ignore no-grad
                return self(*args, sens=sens, **kwargs)
        a = _Args(args, kwargs)
        nargs = len(args)
        if state.frames or any(isinstance(d, jax.core.Tracer) for d in a.dyn):
            return self._inline(a, nargs, sens)
        key = (a.key, self._sens_key(sens), _VERSION[0], self._train_flags(a), nograd.active(),
               provided.need("parallel_mode")())   # a data-parallel step is compiled per mode
        entry, made = self._cache.get(key), state.TRACE_ONLY[0]
        if entry is None:
            entry = self._cache[key] = self._entry_for(a, nargs, sens, key)
        self.last_entry = entry    # PIJit's code records (msjax.common._pijit_records)
        state_params = entry.state
        state_vals = [p._raw_get() for p in state_params]
        sens_arr = None if sens is None else to_arrays(sens)
        result, changed = entry.call(state_vals, a.dyn, sens_arr)
        del state_vals
        code = None
        if entry.checks is not None:
            result, code = result
        if state.TRACE_ONLY[0] != made:   # traced anew next call (MindSpore rebuilds such a graph)
            self._cache.pop(key, None)
        if entry.prints:    # runtime prints and host-side hooks: wait for them, raise what a hook raised
            jax.block_until_ready(result)
            hooks.raise_pending()
        if state.recorders:
            for i, v in changed.items():
                _written(state_params, a, i)._data = v
        else:   # concrete results, no transform open: nothing to note
            for i, v in changed.items():
                _written(state_params, a, i)._raw_set(v)
        if entry.prints:
            jax.effects_barrier()
        runtime_checks.raise_failed(code, entry.checks)
        return result

    def _inline(self, a, nargs, sens):
        state_params = self._state_for(a)
        body = self._body(state_params, a, nargs)
        state_vals = [p._raw_get() for p in state_params]
        result, changed = body(state_vals, a.dyn, None if sens is None else to_arrays(sens))
        for i, v in changed.items():
            _written(state_params, a, i)._data = v
        return result


def _written(state_params, a, i):
    """The Parameter a ``changed`` key names: ``i >= 0`` the state's, ``-1 - k`` the argument
    holding dynamic input ``k`` (a Parameter passed to the call)."""
    return state_params[i] if i >= 0 else a.leaves[a.dyn_idx[-1 - i]]
