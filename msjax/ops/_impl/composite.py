"""Functional plumbing of ``mindspore.ops``: HyperMap, MultitypeFuncGraph, partial,
vmap, constexpr & co, HookBackward, Custom, and the single-device forms of the
float-status and collective Primitives.

The classes here are registered under their MindSpore names (``ops.HyperMap``,
``ops.HookBackward`` ...); they are not generated from a functional op because
their constructors do real work.
"""
from __future__ import annotations

import functools
import inspect
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core import hooks, printhook, runtime_checks, state
from ..._core.parameter import Parameter
from ..._core.registry import Primitive, op
from ..._core.tensor import Tensor
from ._util import arr, wrap


def _register(cls):
    op(cls.__name__, family="composite")(cls)
    return cls


# ---------------------------------------------------------------------------
# partial, MultitypeFuncGraph, HyperMap, Map
# ---------------------------------------------------------------------------
@op("partial", primitive="Partial", family="composite")
def partial(*args, **kwargs):
    """``ops.partial(func, *args)`` / ``ops.Partial()(func, *args)``: ``func`` with its
    first arguments bound. Keyword arguments bind by name in compiled code (``ms.jit``,
    GRAPH_MODE), as MindSpore's graph compiler does; PyNative rejects them, as MindSpore."""
    if kwargs and not state.compiled():
        raise TypeError(f"Partial.__call__() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if not args or not callable(args[0]):
        raise TypeError("For 'partial', the first input must be a callable.")
    return functools.partial(args[0], *args[1:], **kwargs)


def _matches(name, x):
    """Whether ``x`` is of MindSpore type ``name`` (as ``MultitypeFuncGraph.register`` spells it)."""
    if isinstance(name, mstype.Type):
        if name.np is not None:
            return isinstance(x, Tensor) and x.dtype == name
        name = name.name
    n = str(name).lower()
    if n in ("tensor", "parameter"):
        return isinstance(x, Tensor)
    if n == "number":
        return isinstance(x, numbers.Number) and not isinstance(x, Tensor)
    if n == "bool":
        return isinstance(x, bool)
    if n == "int":
        return isinstance(x, int) and not isinstance(x, bool)
    if n == "float":
        return isinstance(x, float)
    if n == "tuple":
        return isinstance(x, tuple)
    if n == "list":
        return isinstance(x, list)
    if n in ("string", "str"):
        return isinstance(x, str)
    if n in ("none", "nonetype"):
        return x is None
    if n in ("dictionary", "dict"):
        return isinstance(x, dict)
    if n in ("function", "func"):
        return callable(x) and not isinstance(x, Tensor)
    if n in ("rowtensor", "cootensor", "csrtensor"):
        return type(x).__name__.lower() == n
    kind = n.rstrip("0123456789")
    if kind != n and kind in ("int", "uint"):     # a scalar type ("Int64"): a Python int
        return isinstance(x, int) and not isinstance(x, bool)
    if kind != n and kind in ("float", "bfloat"):
        return isinstance(x, float)
    raise TypeError(f"For 'MultitypeFuncGraph', the type name '{name}' is not supported.")


@_register
class MultitypeFuncGraph:
    """``ops.MultitypeFuncGraph(name, read_value=False)``: a function overloaded on the
    MindSpore types of its arguments (``@fg.register('Tensor', 'Number')``)."""

    def __init__(self, name, read_value=False):
        self.name = name
        self.read_value = read_value
        self.entries = []
        self.default_func = None

    def register(self, *type_names):
        for t in type_names:
            if not isinstance(t, (str, mstype.Type)):
                raise TypeError(f"For 'MultitypeFuncGraph', register only support str or {mstype.Type}, but got "
                                f"'type_input': {t}.")

        def deco(fn):
            self.entries.append((tuple(type_names), fn))
            return fn
        return deco

    def __call__(self, *args):
        if callable(self.default_func):
            return self.default_func(*args)
        for a in args:
            if isinstance(a, np.ndarray):
                raise TypeError("For 'MultitypeFuncGraph', the input can not be numpy.ndarray")
        if len(self.entries) == 1:
            return self.entries[0][1](*args)
        for sigs, fn in self.entries:
            if len(sigs) == len(args) and all(_matches(s, a) for s, a in zip(sigs, args)):
                return fn(*args)
        types = tuple(type(a).__name__ for a in args)
        raise ValueError(f"For 'MultitypeFuncGraph', cannot find fn match given args. Got (sigs, fn): "
                         f"{self.entries}, and (dtype, args): {types}.")


@_register
def _sequence_of(args_list, results, who="HyperMap"):
    """MindSpore's graph compiler keeps a list a list (every argument of the level the same kind of sequence,
    all of one length: its RuntimeErrors); its PyNative HyperMap/Map (Python's ``map``) give a tuple, as
    long as the shortest argument."""
    if not (state.compiled() and state.in_transform()):
        return tuple(results)
    kind = type(args_list[0])
    if any(isinstance(a, (tuple, list)) and isinstance(a, list) != (kind is list) for a in args_list[1:]):
        raise RuntimeError("In a nonleaf situation, the types of arguments in HyperMap must be consistent, but the "
                           "types of arguments are inconsistent.")
    if len({len(a) for a in args_list if isinstance(a, (tuple, list))}) > 1:
        seq = "lists" if kind is list else "tuples"
        raise RuntimeError(f"The {seq} in HyperMap should have the same length. " if who == "HyperMap" else
                           f"For 'Map', the length of {seq} must be the same. ")
    return list(results) if kind is list else tuple(results)


class HyperMap:
    """``ops.HyperMap(ops=None, reverse=False)``: applies an operation to the elements of
    (nested) tuples/lists; arguments are zipped, leaves are passed to the operation. Lists stay
    lists in compiled code (a GRAPH_MODE ``construct``, ``ms.jit``), as MindSpore's graphs."""

    def __init__(self, ops=None, reverse=False):
        if ops is not None and not callable(ops):
            raise TypeError(f"For 'HyperMap', 'ops' must be a MultitypeFuncGraph or None, but got "
                            f"{type(ops).__name__}.")
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        func, args_list, hypermap = self.ops, args, self
        if self.ops is None:
            func, args_list = args[0], args[1:]
            hypermap = functools.partial(self, func)
        if not isinstance(args_list[0], (tuple, list)):
            return func(*args_list)
        return _sequence_of(args_list, map(hypermap, *args_list))


@_register
class Map:
    """``ops.Map(ops=None, reverse=False)``: like HyperMap (lists too), one level deep."""

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        func, args_list = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        return _sequence_of(args_list, map(func, *args_list), "Map")


# ---------------------------------------------------------------------------
# vmap
# ---------------------------------------------------------------------------
class _Slot:
    __slots__ = ("i", "source")

    def __init__(self, i, source=None):
        self.i, self.source = i, source


def _flatten_axes(arg, spec, leaves, axes):
    """Replace the Tensors of ``arg`` by slots; record each Tensor's mapped axis."""
    if isinstance(arg, Tensor):
        if isinstance(spec, (tuple, list)):
            raise RuntimeError("The 'in_axes' of 'vmap' for a Tensor argument must be an int or None, but got a "
                               f"{type(spec).__name__}.")
        if spec is not None:
            nd = builtins_max(arg.ndim, 1)
            if not -nd <= spec < nd or arg.ndim == 0:
                raise RuntimeError(f"The axis: {spec} in 'in_axes' is out of bounds for array of dimension "
                                   f"[{-nd},{nd}).")
            spec = spec % arg.ndim
        leaves.append(arg._data)
        axes.append(spec)
        return _Slot(len(leaves) - 1, arg)
    if isinstance(arg, (tuple, list)):
        if isinstance(spec, (tuple, list)):
            if len(spec) != len(arg):
                raise RuntimeError(f"The 'in_axes' of 'vmap' must match the structure of the arguments, but got "
                                   f"{len(spec)} axes for a sequence of {len(arg)} elements.")
            items = [_flatten_axes(a, s, leaves, axes) for a, s in zip(arg, spec)]
        else:
            items = [_flatten_axes(a, spec, leaves, axes) for a in arg]
        return type(arg)(items)
    if isinstance(arg, dict):
        return {k: _flatten_axes(v, spec.get(k) if isinstance(spec, dict) else spec, leaves, axes)
                for k, v in arg.items()}
    return arg


def _fill(template, values, made=None):
    """The arguments with their slots filled; ``made`` (a dict) gets each slot's Tensor with the slot."""
    if isinstance(template, _Slot):
        t = wrap(values[template.i])
        if made is not None:
            made[template.i] = (template, t)
        return t
    if isinstance(template, (tuple, list)):
        return type(template)(_fill(t, values, made) for t in template)
    if isinstance(template, dict):
        return {k: _fill(v, values, made) for k, v in template.items()}
    return template


def _written_rows(made, values):
    """The rows an in-place op (``Assign`` & co) wrote into a mapped Parameter argument, by slot."""
    return {i: t._data for i, (slot, t) in made.items()
            if isinstance(slot.source, Parameter) and t._data is not values[i]}


def builtins_max(a, b):
    return a if a > b else b


def _out_arrays(out):
    if isinstance(out, Tensor):
        return out._data
    if isinstance(out, (tuple, list)):
        return tuple(_out_arrays(o) for o in out)
    if isinstance(out, (bool, int, float)):
        return jnp.asarray(Tensor(out)._data)
    raise RuntimeError(f"The output of the function given to 'vmap' must be Tensors or tuples of Tensors, but "
                       f"got {type(out).__name__}.")


def _move_out(out, spec, top=True):
    """The batched outputs ``out`` with their batch axis moved to ``spec`` (``out_axes``). As MindSpore,
    a single output takes a sequence of one axis at the top level (``out_axes=(0,)``)."""
    if isinstance(out, tuple):
        if isinstance(spec, (tuple, list)):
            if len(spec) != len(out):
                raise RuntimeError(f"The size of vmap's 'out_axes' should be equal to the number of results of "
                                   f"'fn': {len(out)}, but got size: {len(spec)}.")
            return tuple(_move_out(o, s, False) for o, s in zip(out, spec))
        return tuple(_move_out(o, spec, False) for o in out)
    if isinstance(spec, (tuple, list)):
        if top and len(spec) != 1:
            raise RuntimeError(f"The size of vmap's 'out_axes' should be equal to the result size: 1, but got "
                               f"size: {len(spec)}.")
        if not top or isinstance(spec[0], (tuple, list)):
            inner = spec if not top else spec[0]
            raise RuntimeError(f"The axis in vmap's 'out_axes' should be a None or a scalar of type Int64Imm, but "
                               f"got a ({', '.join(str(a) for a in inner)}).")
        spec = spec[0]
    if spec is None:
        return wrap(out[0])
    nd = out.ndim
    if not -nd <= spec < nd:
        raise RuntimeError(f"The axis: {spec} in 'out_axes' is out of bounds for array of dimension "
                           f"[{-nd},{nd}).")
    return wrap(jnp.moveaxis(out, 0, spec))


@op("vmap", family="composite")
def vmap(fn, in_axes=0, out_axes=0):
    """``ops.vmap(fn, in_axes=0, out_axes=0)`` on ``jax.vmap``: ``in_axes`` an int, None or a
    tuple/list matching the arguments (nested for tuple arguments); non-Tensor arguments
    are passed unchanged to every call."""
    if getattr(type(fn), "_ms_is_cell", False) and type(fn).__name__ == "CellList":
        return _ensemble(list(fn), in_axes, out_axes)
    if not callable(fn):
        raise TypeError(f"The 'fn' of 'vmap' must be callable, but got {type(fn).__name__}.")
    if in_axes is None:
        raise RuntimeError("The 'in_axes' of 'vmap' cannot be a single None while 'fn' is not a 'CellList'.")
    if out_axes is None:
        raise RuntimeError("The 'out_axes' of 'vmap' cannot be a single None while 'fn' is not a 'CellList'.")

    @functools.wraps(fn)
    def batched(*args):
        if isinstance(in_axes, (tuple, list)) and len(in_axes) != len(args):
            raise RuntimeError(f"When vmap`s 'in_axes' is a tuple or list, and its size must be equal to the number "
                               f"of arguments of 'fn': {len(args)}, but got size: {len(in_axes)}.")
        specs = in_axes if isinstance(in_axes, (tuple, list)) else [in_axes] * len(args)
        leaves, axes = [], []
        template = [_flatten_axes(a, s, leaves, axes) for a, s in zip(args, specs)]
        sizes = [x.shape[a] for x, a in zip(leaves, axes) if a is not None]
        if not sizes:
            raise RuntimeError("The 'in_axes' of 'vmap' must map at least one Tensor argument.")
        for s in sizes[1:]:
            if s != sizes[0]:
                raise RuntimeError(f"The 'axis_size' of each argument in the scope of 'vmap' should be equal, but "
                                   f"got {sizes[0]} and {s}.")

        checks, made = [], {}

        def body(*values):   # index checks inside: one vector per example (MindSpore's kernels raise)
            with runtime_checks.collecting() as col:
                out = _out_arrays(fn(*_fill(template, values, made)))
                code = col.code()
            checks[:] = col.checks
            return out, code, _written_rows(made, values)

        out, codes, written = jax.vmap(body, in_axes=tuple(axes), out_axes=0)(*leaves)
        runtime_checks.forward(codes, checks)
        for i, rows in written.items():     # a mapped Parameter written row by row takes the rows
            made[i][0].source._data = jnp.moveaxis(rows, 0, axes[i]) if axes[i] is not None else rows[0]
        return _move_out(out, out_axes)

    return batched


def _ensemble(cells, in_axes, out_axes):
    """``vmap`` of a CellList (MindSpore's model ensembling): cell ``k`` gets slice ``k`` of each
    mapped input (the mapped size must be the number of cells) and the unmapped ones whole; the
    outputs are stacked at ``out_axes``. Each cell runs once (MindSpore stacks their Parameters
    and vectorises; the same values)."""
    def pick(a, spec, k):
        if isinstance(a, (tuple, list)):
            specs = spec if isinstance(spec, (tuple, list)) else [spec] * len(a)
            return type(a)(pick(x, s, k) for x, s in zip(a, specs))
        if spec is None or not isinstance(a, Tensor):
            return a
        if a.shape[spec] != len(cells):
            raise RuntimeError(f"The 'axis_size' of each argument in the scope of 'vmap' should be equal to the "
                               f"number of cells in the CellList: {len(cells)}, but got {a.shape[spec]}.")
        return wrap(jnp.take(a._data, k, axis=spec))

    def batched(*args):
        specs = in_axes if isinstance(in_axes, (tuple, list)) else [in_axes] * len(args)
        if len(specs) != len(args):
            raise RuntimeError(f"When vmap`s 'in_axes' is a tuple or list, and its size must be equal to the number "
                               f"of arguments of 'fn': {len(args)}, but got size: {len(specs)}.")
        outs = [_out_arrays(c(*[pick(a, sp, k) for a, sp in zip(args, specs)])) for k, c in enumerate(cells)]
        return _move_out(jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *outs),
                         0 if out_axes is None else out_axes)
    return batched


# ---------------------------------------------------------------------------
# constexpr, isconstant, add_flags, mixed_precision_cast
# ---------------------------------------------------------------------------
class _Constexpr(Primitive):
    """A Python function run on constant inputs (``@ops.constexpr``)."""

    def __init__(self, fn, name=None):
        super().__init__()
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "constexpr")
        functools.update_wrapper(self, fn, updated=())

    def __call__(self, *args, **kwargs):
        if state.compiled() and state.in_transform():   # MindSpore's graph passes a function as None
            args = tuple(None if _is_function(a) else a for a in args)
            kwargs = {k: None if _is_function(v) else v for k, v in kwargs.items()}
        return self.fn(*args, **kwargs)


def _is_function(x):
    return inspect.isfunction(x) or inspect.isbuiltin(x) or inspect.ismethod(x)


@op("constexpr", family="composite")
def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """``ops.constexpr``: marks a function computed from constants at compile time; in
    msjax it simply runs (on the Python values it receives; in compiled code a function argument
    arrives as ``None``, as in MindSpore's graphs)."""
    def deco(f):
        if get_instance:
            return _Constexpr(f, name)
        return type(name or f.__name__, (_Constexpr,), {"__init__": lambda self: _Constexpr.__init__(self, f, name)})
    return deco(fn) if fn is not None else deco


@op("isconstant", family="composite")
def isconstant(x):
    """``ops.isconstant(x)``: False only for a value being traced."""
    if isinstance(x, Tensor):
        x = x._data
    if isinstance(x, (tuple, list)):
        return all(isconstant(v) for v in x)
    return not isinstance(x, jax.core.Tracer)


@op("add_flags", family="composite")
def add_flags(fn=None, **flags):
    """``ops.add_flags(fn=None, **flags)``: records ``flags`` on ``fn`` (MindSpore's graph
    compiler reads them; here they are kept for introspection)."""
    def deco(f):
        store = getattr(f, "_func_graph_flags", None)
        if store is None:
            try:
                f._func_graph_flags = store = {}
            except AttributeError:
                return f
        store.update(flags)
        return f
    return deco(fn) if fn is not None else deco


@op("mixed_precision_cast", family="composite")
def mixed_precision_cast(dst_dtype, x):
    """``ops.mixed_precision_cast(dst_dtype, x)``: floating Tensors (also inside tuples
    and lists) cast to ``dst_dtype``; everything else unchanged."""
    if isinstance(x, Tensor):
        if jnp.issubdtype(x._data.dtype, jnp.floating):
            return wrap(x._data.astype(mstype.to_np(dst_dtype)))
        return x
    if isinstance(x, (tuple, list)):
        return tuple(mixed_precision_cast(dst_dtype, v) for v in x)
    return x


# ---------------------------------------------------------------------------
# HookBackward
# ---------------------------------------------------------------------------
@_register
class PrimitiveWithCheck(Primitive):
    """``ops.PrimitiveWithCheck`` (and ``PrimitiveWithInfer``): the base of Primitives written in
    Python. msjax has no kernel to dispatch them to: the subclass's ``__call__`` computes the
    result on Tensors and is differentiated through its ops, as MindSpore's PyNative does (which
    then ignores ``get_bprop``); ``check_*``/``infer_*`` methods are not needed and not called."""

    def __init__(self, name=None):
        self.name = name or type(self).__name__
        self._attrs = {}
        self.init_attrs = {}

    def __call__(self, *args):
        raise NotImplementedError(f"msjax cannot run Primitive '{self.name}': it has no Python __call__ (MindSpore "
                                  "would run a registered device kernel, which XLA cannot).")

    def add_prim_attr(self, name, value):
        setattr(self, name, value)
        return self

    def init_prim_io_names(self, inputs, outputs):
        self.add_prim_attr("input_names", inputs)
        self.add_prim_attr("output_names", outputs)


class PrimitiveWithInfer(PrimitiveWithCheck):
    """``ops.PrimitiveWithInfer``: see ``PrimitiveWithCheck``."""


def prim_attr_register(fn):
    """``ops.prim_attr_register``: decorates a Primitive's ``__init__`` so that its arguments (defaults
    included) become the Primitive's attributes (``init_attrs``) before the body runs."""
    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        name = getattr(type(self), "substitute_name", type(self).__name__)
        PrimitiveWithCheck.__init__(self, name)
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        for k, v in list(bound.arguments.items())[1:]:
            setattr(self, k, v)
            self.init_attrs[k] = v
        return fn(self, *args, **kwargs)
    return deco


prim_arg_register = prim_attr_register


class HookBackward(Primitive):
    """``ops.HookBackward(hook_fn, cell_id='')``: identity in the forward pass; in the
    backward pass ``hook_fn`` receives the tuple of gradients of the outputs and may return
    replacements. Works in PyNative and compiled code (prints from the hook run at run time;
    MindSpore's GRAPH_MODE skips the hook)."""

    def __init__(self, hook_fn, cell_id=""):
        hooks.check_hook_fn(hook_fn)
        super().__init__()
        self.hook_fn = hook_fn
        self.cell_id = cell_id
        if state.in_transform():    # made in a traced ``construct``: the next call traces again, with its new hook
            state.TRACE_ONLY[0] += 1

    def __call__(self, *args):
        if not args:
            raise TypeError("For 'HookBackward', at least one input is required.")
        xs = tuple(arr(a) for a in args)
        out = tuple(wrap(o) for o in hooks.backward_identity(xs, self.hook_fn, "HookBackward"))
        return out[0] if len(out) == 1 else out


@_register
class InsertGradientOf(Primitive):
    """``ops.InsertGradientOf(f)``: identity in the forward pass; the gradient flowing
    back through it becomes ``f(gradient)`` (PyNative and GRAPH_MODE)."""

    def __init__(self, f):
        super().__init__()
        self.f = f

    def __call__(self, input_x):
        if not callable(self.f):
            raise TypeError(f"For 'InsertGradientOf', the argument 'f' must be callable, "
                            f"but got {type(self.f).__name__}.")

        def on_grad(gs):
            return (self.f(gs[0]),)
        return wrap(hooks.backward_identity((arr(input_x),), on_grad, "InsertGradientOf")[0])


# ---------------------------------------------------------------------------
# Custom
# ---------------------------------------------------------------------------
def _infer(spec, values):
    return spec(*values) if callable(spec) and not isinstance(spec, mstype.Type) else spec


@_register
class Custom(Primitive):
    """``ops.Custom(func, out_shape=None, out_dtype=None, func_type='pyfunc', bprop=None,
    reg_info=None)``. Only ``func_type='pyfunc'`` works (the Python function runs on numpy
    arrays through ``jax.pure_callback``; ``bprop`` gives its gradient). Kernel types
    (aot, akg, tbe, hybrid, julia, ...) compile device code and are not supported."""

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None, reg_info=None):
        super().__init__()
        if func_type != "pyfunc":
            raise NotImplementedError(
                f"ops.Custom with func_type='{func_type}' compiles a device kernel, which msjax does not support. "
                "Use func_type='pyfunc' (a Python function on numpy arrays) or write the op with msjax/JAX ops.")
        if not callable(func):
            raise TypeError(f"For 'Custom', 'func' must be callable, but got {type(func).__name__}.")
        self.func, self.out_shape, self.out_dtype, self.bprop = func, out_shape, out_dtype, bprop
        self.func_type = func_type

    def _spec(self, arrays):
        if self.out_shape is None or self.out_dtype is None:
            raise ValueError("For 'Custom' with func_type='pyfunc', 'out_shape' and 'out_dtype' are required.")
        shape = _infer(self.out_shape, [list(a.shape) for a in arrays])
        dt = _infer(self.out_dtype, [mstype.from_np(a.dtype) for a in arrays])
        multi = isinstance(dt, (tuple, list))
        shapes = shape if multi else [shape]
        dts = dt if multi else [dt]
        return multi, [jax.ShapeDtypeStruct(tuple(s), mstype.to_np(d)) for s, d in zip(shapes, dts)]

    def __call__(self, *args):
        arrays = tuple(arr(a) for a in args)
        multi, spec = self._spec(arrays)

        def host(*xs):
            out = self.func(*[np.asarray(x) for x in xs])
            outs = out if multi else (out,)
            return tuple(np.asarray(o, s.dtype).reshape(s.shape) for o, s in zip(outs, spec))

        def call(*xs):
            return jax.pure_callback(host, tuple(spec), *xs)

        if self.bprop is not None:
            bprop = self.bprop

            @jax.custom_vjp
            def fn(*xs):
                return call(*xs)

            def fwd(*xs):
                out = call(*xs)
                return out, (xs, out)

            def bwd(res, g):
                xs, out = res
                o = tuple(wrap(v) for v in out)
                dout = tuple(wrap(v) for v in g)
                grads = bprop(*[wrap(x) for x in xs], o if multi else o[0], dout if multi else dout[0])
                grads = grads if isinstance(grads, (tuple, list)) else (grads,)
                return tuple(jnp.asarray(arr(gr), x.dtype) for gr, x in zip(grads, xs))

            fn.defvjp(fwd, bwd)
            out = fn(*arrays)
        else:
            out = call(*arrays)
        out = tuple(wrap(o) for o in out)
        return out if multi else out[0]


# ---------------------------------------------------------------------------
# float status, collectives, dataset queue
# ---------------------------------------------------------------------------
@_register
class NPUAllocFloatStatus(Primitive):
    """``ops.NPUAllocFloatStatus()()``: the Ascend overflow-status buffer. On CPU/GPU (and
    in msjax) it is a Float32 Tensor of 8 zeros; overflow is checked with ``FloatStatus`` or
    ``amp.all_finite``."""

    def __call__(self):
        return wrap(jnp.zeros((8,), jnp.float32))


@_register
class NPUGetFloatStatus(Primitive):
    """``ops.NPUGetFloatStatus()(status)``: zeros like ``status`` (no Ascend status register)."""

    def __call__(self, x):
        a = arr(x)
        return wrap(jnp.zeros(a.shape, a.dtype))


@_register
class NPUClearFloatStatus(Primitive):
    """``ops.NPUClearFloatStatus()(status)``: zeros like ``status``."""

    def __call__(self, x):
        a = arr(x)
        return wrap(jnp.zeros(a.shape, a.dtype))


@_register
class FloatStatus(Primitive):
    """``ops.FloatStatus()(x)``: Float32 ``[1.]`` if ``x`` holds an inf or nan, else ``[0.]``."""

    def __call__(self, x):
        a = arr(x)
        if a.dtype not in (np.float16, np.float32, np.float64):
            raise TypeError("For primitive[FloatStatus], the input argument[x] must be a type of {Tensor[Float16], "
                            f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{mstype.from_np(a.dtype)}].")
        return wrap(jnp.reshape(jnp.any(~jnp.isfinite(a)).astype(jnp.float32), (1,)))


@_register
class ReduceOp:
    """``ops.ReduceOp``: the reduction names of the collectives."""
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


@_register
class AllReduce(Primitive):
    """``ops.AllReduce(op=ReduceOp.SUM, group='hccl_world_group')``: reduces over the
    processes of the job (``msjax.communication._runtime``): eagerly across processes, or as
    ``lax.psum``/``pmax``... inside a compiled data-parallel step; one process: the input."""

    def __init__(self, op=ReduceOp.SUM, group="hccl_world_group"):
        if not isinstance(op, str):
            raise TypeError(f"For 'AllReduce', the 'op' must be str, but got {type(op).__name__}.")
        if op not in (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD):
            raise ValueError(f"For 'AllReduce', the 'op' must be one of 'sum', 'max', 'min', 'prod', but got {op}.")
        if not isinstance(group, str):
            raise TypeError(f"For 'AllReduce', the 'group' must be str, but got {type(group).__name__}.")
        super().__init__()
        self.op = op
        self.group = group

    def __call__(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'AllReduce', the input must be a Tensor, but got {type(x).__name__}.")
        from ...communication import _runtime as distributed
        return wrap(distributed.all_reduce(x._data, self.op))


def _check_tensor(name, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got {type(x).__name__}.")


class _Collective(Primitive):
    """A collective over the world group (``msjax.communication._runtime``)."""

    def __init__(self, group="hccl_world_group", **attrs):
        name = type(self).__name__
        if not isinstance(group, str):
            raise TypeError(f"For '{name}', the 'group' must be str, but got {type(group).__name__}.")
        super().__init__()
        self.group = group
        self.__dict__.update(attrs)


@_register
class AllGather(_Collective):
    """``ops.AllGather(group='hccl_world_group')``: every process's tensor, concatenated
    along axis 0 in rank order (eagerly, or inside a compiled data-parallel step)."""

    def __call__(self, x):
        _check_tensor("AllGather", x)
        from ...communication import _runtime as distributed
        return wrap(distributed.all_gather(x._data))


@_register
class AllGatherV(_Collective):
    """``ops.AllGatherV(group='hccl_world_group')(x, output_split_sizes)``: gathers 1-D
    tensors of different lengths (``output_split_sizes[r]`` from rank ``r``)."""

    def __call__(self, x, output_split_sizes):
        _check_tensor("AllGatherV", x)
        from ...communication import _runtime as distributed
        sizes = output_split_sizes.asnumpy().tolist() if isinstance(output_split_sizes, Tensor) \
            else list(output_split_sizes)
        return wrap(distributed.all_gather_v(x._data, [int(n) for n in sizes]))


@_register
class ReduceScatter(_Collective):
    """``ops.ReduceScatter(op=ReduceOp.SUM, group='hccl_world_group')``: the reduction over
    processes, of which each rank keeps its slice of axis 0."""

    def __init__(self, op=ReduceOp.SUM, group="hccl_world_group"):
        if op not in (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD):
            raise ValueError(f"For 'ReduceScatter', the 'op' must be one of 'sum', 'max', 'min', 'prod', "
                             f"but got {op}.")
        super().__init__(group, op=op)

    def __call__(self, x):
        _check_tensor("ReduceScatter", x)
        from ...communication import _runtime as distributed
        return wrap(distributed.reduce_scatter(x._data, self.op))


@_register
class Broadcast(_Collective):
    """``ops.Broadcast(root_rank, group='hccl_world_group')((x, ...))``: the tensors of rank
    ``root_rank`` on every rank (a tuple, as MindSpore)."""

    def __init__(self, root_rank, group="hccl_world_group"):
        if isinstance(root_rank, bool) or not isinstance(root_rank, int):
            raise TypeError(f"For 'Broadcast', the type of 'root_rank' must be int, but got "
                            f"{type(root_rank).__name__}.")
        super().__init__(group, root_rank=root_rank)

    def __call__(self, x):
        from ...communication import _runtime as distributed
        xs = x if isinstance(x, (tuple, list)) else (x,)
        for t in xs:
            _check_tensor("Broadcast", t)
        return tuple(wrap(distributed.broadcast(t._data, self.root_rank)) for t in xs)


@_register
class GetNext(Primitive):
    """``ops.GetNext(types, shapes, output_num, shared_name)``: reads the device dataset
    queue of dataset sink mode, which msjax does not have (MindSpore 2.10 has no CPU
    kernel for it either)."""

    __ms_unsupported__ = True

    def __init__(self, types, shapes, output_num, shared_name):
        super().__init__()
        self.types, self.shapes, self.output_num, self.shared_name = types, shapes, output_num, shared_name

    def __call__(self, *args):
        raise RuntimeError("ops.GetNext reads the device data queue of dataset sink mode, which msjax does not "
                           "support. Iterate over the dataset instead (Model.train(..., dataset_sink_mode=False) or "
                           "dataset.create_tuple_iterator()).")


class _VirtualDataset(Primitive):
    """MindSpore's ``comm_ops._VirtualDataset()(*inputs)``: marks where semi-auto-parallel
    redistributes a batch; on msjax (no model-parallel layout) it returns the inputs as
    a tuple."""

    def __call__(self, *inputs):
        return tuple(inputs)


class identity(Primitive):  # noqa: N801  (MindSpore's name in ops.operations)
    """``ops.operations.identity()(x)``: the deprecated Primitive form of ``ops.identity``."""

    def __call__(self, x):
        return wrap(arr(x))


__all__ = ["partial", "MultitypeFuncGraph", "HyperMap", "Map", "vmap", "constexpr", "isconstant", "add_flags",
           "mixed_precision_cast", "HookBackward", "Custom", "NPUAllocFloatStatus", "NPUGetFloatStatus",
           "NPUClearFloatStatus", "FloatStatus", "ReduceOp", "AllReduce", "AllGather", "AllGatherV", "ReduceScatter",
           "Broadcast", "GetNext", "identity"]
