"""MindSpore's gradient API over the vjp core: ``grad``, ``value_and_grad`` and
``GradOperation``, with MindSpore's argument checks and output nesting.

Nesting (MindSpore 2.x): one input position (``0`` or ``(0,)``) gives one
gradient, several give a tuple; weights given as a list/ParameterTuple give a
tuple (even of one), a single Parameter gives one gradient; positions and
weights together give ``(input grads, weight grads)``. ``has_aux=True``
differentiates the first output and returns ``(grads, outputs[1:])``;
``has_aux=False`` differentiates every output (their sum). ``value_and_grad``
returns ``(outputs, grads)``.
"""
from __future__ import annotations

import contextlib
import inspect

import jax
import jax.numpy as jnp
import numpy as np

from . import float_to_int, nograd, provided, state
from .parameter import Parameter, ParameterTuple
from .tensor import Tensor, wrap
from .transforms import JvpSpec, StatefulFunction, VjpSpec, _objects_named_by, collect_state, static_int, to_tensors

__all__ = ["grad", "value_and_grad", "GradOperation", "get_grad", "JvpFunction"]


def _convert_grad_position(grad_position):
    if isinstance(grad_position, tuple):
        if len(set(grad_position)) != len(grad_position):
            raise ValueError("There are duplicate positions in `grad_position`, please check it")
        out = []
        for gp in grad_position:
            if isinstance(gp, bool):
                gp = int(gp)
            if not isinstance(gp, int):
                raise TypeError("For 'F.grad', the element in 'grad_position' must be int.")
            if gp < 0:
                raise ValueError("The element in grad_position must be >= 0.")
            out.append(gp)
        return tuple(out)
    if isinstance(grad_position, int):
        if grad_position < 0:
            raise ValueError("grad_position must be >= 0.")
        return (int(grad_position),)
    raise TypeError("For 'F.grad', the 'grad_position' must be int or tuple.")


def _check_bool(name, value, who="_Grad"):
    if not isinstance(value, bool):
        raise TypeError(f"For '{who}', the '{name}' should be bool, but got {type(value).__name__}")


def _weights_list(weights):
    """The weights as a list. Like MindSpore, a Tensor that is not a Parameter is
    accepted (its gradient is zero); anything else is an error."""
    if weights is None:
        return []
    if isinstance(weights, Tensor):
        return [weights]
    if isinstance(weights, (list, tuple, ParameterTuple)):
        for w in weights:
            if not isinstance(w, Tensor):
                raise RuntimeError(f"The weights must be Parameters, but got an element {w!r} of type "
                                   f"{type(w).__name__} (MindSpore: 'The pointer[tensor] is null.').")
        return list(weights)
    raise TypeError(f"The weights you provided is expected to be a tensor, or a list or tuple. but got {weights}")


def _live(w):
    """A weight that receives a gradient: a Parameter with requires_grad=True.
    MindSpore returns zeros for the others (plain Tensors, requires_grad=False)."""
    return isinstance(w, Parameter) and w.requires_grad


def _bind_keywords(fn, args, kwargs):
    """Keyword arguments that name positional parameters become positional, so
    ``grad_position`` can select them (MindSpore does the same)."""
    try:
        sig = inspect.signature(fn.construct if hasattr(fn, "construct") and not inspect.isfunction(fn) else fn)
        bound = sig.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return args, kwargs
    return tuple(bound.args), dict(bound.kwargs)


def _integer_input_grad(g, arg, int_out=False):
    """MindSpore's per-op backward rules cast an Int/Bool input's gradient to its dtype (truncated;
    nonzero for Bool), except ops making floats in their kernel (``x / 3``: Float32). msjax's float
    shadow cannot tell them apart: it keeps the dtype where the concrete values are whole or, traced,
    where every differentiated output is an integer (``int_out``), else Float32 (docs/differences.md)."""
    dt = arg._data.dtype
    if jnp.issubdtype(dt, jnp.inexact) or jnp.issubdtype(g.dtype, jnp.integer) or g.dtype == jnp.bool_:
        return g
    if dt == jnp.bool_:
        return g != 0
    if isinstance(g, jax.core.Tracer):
        return float_to_int.astype(g, dt) if int_out else g
    host = np.asarray(g)
    return float_to_int.astype(g, dt) if np.all(np.isfinite(host)) and np.all(host == np.round(host)) else g


def _integral(tree):
    """Whether every leaf is an integer/bool array (not a Python number)."""
    return all(not jnp.issubdtype(getattr(v, "dtype", np.float32), jnp.inexact) for v in jax.tree_util.tree_leaves(tree))


def _check_aux(out):
    if not isinstance(out, tuple) or len(out) < 2:
        raise ValueError("When has_aux is True, origin fn requires more than one outputs.")


def _combine_with_ids(grad_position, weights, out):
    """Pair every gradient with what it is the gradient of (``return_ids=True``): an
    input with its position, a weight with its Parameter name.

    The layout MindSpore documents and returns: inputs alone give a tuple of
    ``(position, grad)`` pairs, except that the single position 0 gives the bare pair
    ``(0, grad)``; weights alone give ``(name, grad)`` pairs, a single Parameter (not in
    a list) the bare pair; both give the two groups in a tuple. Positions stay Python
    ints (``static_int``) and names strings through compiled functions."""
    both = bool(grad_position) and weights is not None
    groups = []
    if grad_position:
        grads = out[0] if both else out
        if not both and isinstance(grads, tuple) and not grads:
            return ()   # no input was differentiated (none a Tensor): MindSpore gives () without ids
        if grad_position == (0,):
            groups.append((static_int(0), grads))
        else:
            groups.append(tuple((static_int(i), grads[k]) for k, i in enumerate(grad_position)))
    if weights is not None:
        grads = out[1] if both else out
        if isinstance(weights, (list, tuple, ParameterTuple)):
            groups.append(tuple((w.name, grads[k]) for k, w in enumerate(weights)))
        else:
            groups.append((weights.name, grads))
    if not groups:
        raise ValueError("output tuple should not be a empty tuple.")
    return groups[0] if len(groups) == 1 else tuple(groups)


class _GradFunction:
    """The callable ``ms.grad``/``value_and_grad``/``GradOperation`` return."""

    check_no_grad = True    # raise inside ``_no_grad()`` (MindSpore's vjp does not: zero gradients)

    def __init__(self, fn, positions, weights_arg, has_aux=False, get_value=False, return_ids=False,
                 sens_param=False, get_all_style=False, by_use=False):
        self._fn = fn
        self._by_use = by_use                 # weights_arg: candidates; give those read, in reading order
        self._use_order = {}
        self._positions = positions           # tuple or None
        self._weights_arg = weights_arg       # as given (None, Parameter, list...)
        try:
            self._weights = _weights_list(weights_arg)
            self._weights_error = None
        except (TypeError, RuntimeError) as e:   # MindSpore reports bad weights when called
            self._weights, self._weights_error = [], e
        self._live_weights = [w for w in self._weights if _live(w)]
        self._has_aux = has_aux
        self._get_value = get_value
        self._return_ids = return_ids
        self._sens_param = sens_param
        self._get_all_style = get_all_style   # GradOperation(get_all=True): all inputs
        self._sf = {}

    def _stateful(self, positions):
        sf = self._sf.get(positions)
        if sf is None:
            spec = VjpSpec(positions, self._live_weights, has_aux=self._has_aux, sens=self._sens_param)
            sf = self._sf[positions] = StatefulFunction(
                self._fn, spec, check_out=_check_aux if self._has_aux else None)
        return sf

    def __call__(self, *args, **kwargs):
        if not callable(self._fn):
            raise TypeError(f"The fn should be callable, but got {type(self._fn).__name__}")
        if self._weights_error is not None:
            raise self._weights_error
        if self.check_no_grad:
            nograd.check_grad_allowed()
        sens = None
        if self._sens_param:
            if "sens" in kwargs:
                sens = kwargs.pop("sens")
            elif args:
                sens = args[-1]
                args = args[:-1]
            else:
                raise IndexError("When 'sens_param' is True, the sensitivity (gradient with respect to output) "
                                 "must be passed as the last positional argument or as 'sens=', but got no "
                                 "arguments.")
        if kwargs:
            args, kwargs = _bind_keywords(self._fn, args, kwargs)
            if self._get_all_style and any(isinstance(v, Tensor) for v in kwargs.values()):
                return self._with_keyword_tensors(args, kwargs, sens)
        nargs = len(args)
        if self._get_all_style:
            positions = tuple(range(nargs))
        elif self._positions is None:
            positions = ()
        else:
            if not self._positions:
                raise RuntimeError("grad_position should not be empty when grad by position!")
            for gp in self._positions:
                if nargs == 0:
                    break   # no inputs at all: MindSpore's PyNative gives () for them
                if gp >= nargs:
                    self._fn(*args, **kwargs)  # MindSpore runs the forward first: its errors win
                    raise RuntimeError(f"Position index {gp} is exceed input size.")
            positions = self._positions
        if any(getattr(type(args[p]), "__ms_mutable__", False) for p in positions if p < nargs):
            return provided.need("mutable_grad")(self, args, kwargs, positions, sens)
        # Only Tensor arguments are differentiated; MindSpore gives () for the others.
        tensor_positions = tuple(p for p in positions if p < nargs and isinstance(args[p], Tensor))
        with state.Recorder() if self._by_use else contextlib.nullcontext() as rec:
            out, g_in, g_w = self._stateful(tensor_positions)(*args, sens=sens, **kwargs)
        int_out = _integral(out[0] if self._has_aux else out)
        out = to_tensors(out)
        grads = self._nest(args, positions, tensor_positions, g_in, g_w, int_out)
        if self._by_use:
            grads = self._in_use_order(grads, tensor_positions, rec.reads)
        if self._return_ids:
            grads = _combine_with_ids(self._positions, self._weights_arg, grads)
        if self._get_value:
            return out, grads
        if self._has_aux:
            return grads, tuple(out[1:])
        return grads

    def _with_keyword_tensors(self, args, kwargs, sens):
        """``GradOperation(get_all=True)`` with Tensors in ``**kwargs``: MindSpore appends their
        gradients, in the call's keyword order, after the positional inputs'. The gradient function
        of ``fn`` taking them positionally is kept per call signature (no retrace per call)."""
        names = tuple(k for k, v in kwargs.items() if isinstance(v, Tensor))
        rest = tuple((k, v) for k, v in kwargs.items() if k not in names)
        try:
            key = (len(args), names, rest)
            child = self._sf.get(key)
        except TypeError:          # an unhashable keyword value: not kept
            key, child = None, None
        if child is None:
            fn, n, rest_kw = self._fn, len(args), dict(rest)

            def positional(*a):
                return fn(*a[:n], **rest_kw, **dict(zip(names, a[n:])))
            child = _GradFunction(positional, None, self._weights_arg, has_aux=self._has_aux,
                                  get_value=self._get_value, sens_param=self._sens_param, get_all_style=True)
            if key is not None:
                self._sf[key] = child
        extra = tuple(kwargs[k] for k in names)
        return child(*args, *extra, sens=sens) if self._sens_param else child(*args, *extra)

    def _in_use_order(self, grads, key, reads):
        """The weights' gradients of the Parameters the forward read, in the order it first read them (as
        MindSpore's PyNative ``GradOperation(get_by_list=True)(cell)``). A call that did not trace (its
        program cached) reuses the order its signature's trace noted; none noted: every candidate's."""
        where = {id(w): i for i, w in enumerate(self._weights)}
        if reads:
            self._use_order[key] = [where[k] for k in reads if k in where]
        order = self._use_order.get(key, range(len(self._weights)))
        if self._positions is None and not self._get_all_style:
            return tuple(grads[i] for i in order)
        return (grads[0], tuple(grads[1][i] for i in order))

    def _nest(self, args, positions, tensor_positions, g_in, g_w, int_out=False):
        in_grads = [wrap(_integer_input_grad(gs[0], args[p], int_out)) for gs, p in zip(g_in, tensor_positions)]
        live = iter(g_w)
        w_grads = tuple(wrap(next(live)) if _live(w) else wrap(jnp.zeros(w.shape, w._data.dtype))
                        for w in self._weights)
        if self._get_all_style:
            inputs_part = tuple(in_grads)
        elif self._positions is None:
            inputs_part = None
        elif len(in_grads) == 1:
            # MindSpore drops the non-Tensor positions first: one Tensor left gives its bare
            # gradient, even from a tuple ``grad_position`` ((0, 1) on (Tensor, int)).
            inputs_part = in_grads[0]
        else:
            inputs_part = tuple(in_grads)
        if self._weights_arg is None:
            return inputs_part
        weights_part = w_grads[0] if isinstance(self._weights_arg, Tensor) else w_grads
        if inputs_part is None:
            return weights_part
        return (inputs_part, weights_part)


def _make(fn, grad_position, weights, has_aux, return_ids, sens_param, get_value):
    if grad_position is None and weights is None:
        raise ValueError("`grad_position` and `weight` can not be None at the same time.")
    for name, v in (("sens_param", sens_param), ("has_aux", has_aux), ("return_ids", return_ids)):
        _check_bool(name, v)
    positions = None if grad_position is None else _convert_grad_position(grad_position)
    return _GradFunction(fn, positions, weights, has_aux=has_aux, get_value=get_value,
                         return_ids=return_ids, sens_param=sens_param)


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """``mindspore.grad``: a function returning the gradients of ``fn``."""
    return _make(fn, grad_position, weights, has_aux, return_ids, sens_param, get_value=False)


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """``mindspore.value_and_grad``: a function returning ``(outputs, gradients)``."""
    return _make(fn, grad_position, weights, has_aux, return_ids, sens_param, get_value=True)


def _has_ids(g):
    if isinstance(g, tuple):
        if len(g) == 2 and isinstance(g[0], (int, str)) and not isinstance(g[0], bool):
            return True
        return any(_has_ids(x) for x in g)
    return False


def get_grad(gradients, identifier):
    """Pick one gradient out of a ``return_ids=True`` result by position or Parameter."""
    key = identifier.name if isinstance(identifier, Parameter) else identifier

    def search(g):
        if isinstance(g, tuple):
            if len(g) == 2 and not isinstance(g[0], (tuple, Tensor)) and g[0] == key:
                return g[1]
            for x in g:
                r = search(x)
                if r is not None:
                    return r
        return None

    if not _has_ids(gradients):
        raise ValueError("For 'get_grad', the gradients must come from a gradient function with "
                         "'return_ids=True' (pairs of position or Parameter name and gradient).")
    out = search(gradients)
    if out is None:
        raise RuntimeError(f"Can not find the gradient for position or Parameter {identifier}")
    return out


class GradOperation:
    """``ops.GradOperation(get_all=False, get_by_list=False, sens_param=False)``.

    ``GradOperation(...)(fn[, weights])`` returns the gradient function: the
    first input's gradient by default; every input's (a tuple) with ``get_all``;
    the weights' (a tuple) with ``get_by_list``; ``(inputs, weights)`` with both.
    With ``sens_param`` the last argument is the sensitivity seeding the outputs.
    """

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        for name, v in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            _check_bool(name, v, "GradOperation")
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __call__(self, fn, weights=None):
        if self.get_by_list:
            if weights is None and hasattr(fn, "trainable_params"):   # a Cell: those its forward reads, in order
                return _GradFunction(fn, (0,) if self.get_all else None, tuple(fn.trainable_params()),
                                     sens_param=self.sens_param, get_all_style=self.get_all, by_use=True)
            if weights is None:     # a function: the trainable Parameters it names (none: an empty tuple)
                named = []
                _objects_named_by(fn, 0, set(), named)
                weights = [p for p in collect_state(named) if isinstance(p, Parameter) and p.requires_grad]
            _weights_list(weights)
            weights_arg = weights if isinstance(weights, Tensor) else tuple(weights)
        else:
            weights_arg = None
        positions = None if (self.get_by_list and not self.get_all) else (0,)
        return _GradFunction(fn, positions, weights_arg, sens_param=self.sens_param,
                             get_all_style=self.get_all)


class JvpFunction:
    """``fn``'s Jacobian-vector product on the transform core (``jax.jvp``), cached
    per argument signature: ``JvpFunction(fn)(inputs, v)`` returns
    ``(outputs, jvp)``, ``v`` holding one tangent per input (a Tensor for one input,
    a tuple for several). MindSpore gets the same numbers by differentiating a
    gradient (double vjp); forward mode needs one pass."""

    def __init__(self, fn, who="jvp"):
        self._fn = fn
        self._who = who
        self._sf = {}

    def __call__(self, inputs, v):
        inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
        tangents = tuple(v) if isinstance(v, (tuple, list)) else (v,)
        if len(tangents) != len(inputs):
            raise ValueError(f"For '{self._who}', the number of tangents 'v' ({len(tangents)}) must equal the number "
                             f"of inputs ({len(inputs)}).")
        for x in inputs + tangents:
            if not isinstance(x, Tensor):
                raise TypeError(f"For '{self._who}', the inputs and 'v' must be Tensors, but got "
                                f"{type(x).__name__}.")
        positions = tuple(range(len(inputs)))
        sf = self._sf.get(positions)
        if sf is None:
            sf = self._sf[positions] = StatefulFunction(self._fn, JvpSpec(positions))
        out, out_dot = sf(*inputs, sens=[[t] for t in tangents])
        return to_tensors(out), to_tensors(out_dot)

