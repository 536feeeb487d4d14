"""MindSpore's functional autodiff beyond ``grad``: ``vjp``, ``jvp``, ``jacfwd``,
``jacrev``, ``linearize`` and ``derivative``, on the one transform core (``StatefulFunction`` with
a ``VjpSpec``/``JvpSpec``), so closed-over Parameters are found and threaded
through, and every compiled function is cached per argument signature.

MindSpore 2.10 semantics kept on purpose (some are odd):

* ``vjp(fn, *inputs, weights=None, has_aux=False)`` returns ``(outputs, vjp_fn)``
  or ``(outputs[0], vjp_fn, aux)``; ``vjp_fn(*v)`` returns a tuple with one
  gradient per input (a tuple even for one input) and, with ``weights``,
  ``(input grads, weight grads)`` -- the weight part a single Tensor for a single
  Parameter, a tuple for a list. ``v`` must match the outputs' shapes and dtypes
  exactly (no broadcasting). Calling ``vjp_fn`` again recomputes the forward pass
  and warns (PyNative), as MindSpore does.
* ``jvp(fn, inputs, v)``: a tangent ``v`` that merely *broadcasts* to its input's
  shape is accepted and broadcast (MindSpore seeds its double-vjp with it); a
  tangent whose dtype differs from its input's is a ``TypeError``.
* ``jacfwd``/``jacrev`` build their unit vectors in Float32, so any other dtype
  (Float64 inputs for ``jacfwd``, Float64 outputs for ``jacrev``, integers) is a
  ``TypeError`` ("Type Join Failed") in MindSpore; msjax raises the same.
  Jacobians of several outputs and several inputs nest outputs first:
  ``jac[o][i]`` has shape ``out_o.shape + in_i.shape``; with one output or one
  input the tuple is flat, with one of each it is the Tensor itself.
  ``grad_position`` is checked when the Jacobian function is called.
* ``has_aux`` differentiates the first output only; the aux part is ``out[1]``
  for two outputs and ``out[1:]`` (a tuple) for more.
"""
from __future__ import annotations

import collections
import warnings

import jax.numpy as jnp
import numpy as np

from . import context, state
from .grad import _convert_grad_position, _GradFunction, _weights_list
from .tensor import Tensor, wrap
from .transforms import JvpSpec, StatefulFunction, VjpSpec, to_tensors

__all__ = ["vjp", "jvp", "jacfwd", "jacrev", "linearize", "derivative"]

_AUX_MSG = "When 'has_aux' is True, origin 'fn' requires more than one outputs."
_STORE, _CACHE_SIZE = "_ms_autodiff", 64


class _Transforms(collections.OrderedDict):
    """The transform objects of one function, kept in its ``__dict__`` (they die with it);
    copies are empty and unowned."""

    def __init__(self, owner=None):
        super().__init__()
        self.owner = id(owner)

    def __copy__(self):
        return _Transforms()

    def __deepcopy__(self, memo):
        return _Transforms()

    def __reduce__(self):
        return _Transforms, ()


def _cached(key, make):
    """A transform object per (function, flavour): ``jvp``/``vjp`` are called with the
    function each time, so their compiled functions live on the function (a bound
    method's on its object): a dropped function frees them. Functions without a
    ``__dict__``, or unhashable keys, get a fresh object (traced again)."""
    fn, rest = key[0], key[1:]
    owner = getattr(fn, "__self__", None) if hasattr(fn, "__func__") else None
    owner, rest = (fn, rest) if owner is None else (owner, (fn.__func__,) + rest)
    d = getattr(owner, "__dict__", None)
    if not isinstance(d, dict):
        return make()
    store = d.get(_STORE)
    if not isinstance(store, _Transforms) or store.owner != id(owner):
        store = d[_STORE] = _Transforms(owner)
    try:
        obj = store.pop(rest)
    except KeyError:
        obj = make()
    except TypeError:
        return make()
    store[rest] = obj
    while len(store) > _CACHE_SIZE:
        store.popitem(last=False)
    return obj


def _check_has_aux(has_aux):
    if not isinstance(has_aux, bool):
        raise TypeError("The 'has_aux' must be bool type.")


def _check_aux(out):
    if not isinstance(out, tuple) or len(out) < 2:
        raise ValueError(_AUX_MSG)


def _aux_part(out):
    return out[1] if len(out) == 2 else tuple(out[1:])


def _ms_dtype(dt):
    from .dtype import from_np
    return str(from_np(dt))


# ---------------------------------------------------------------------------
# vjp
# ---------------------------------------------------------------------------
def _check_tensor(inputs):
    """MindSpore's ``_check_tensor``: Tensors (or tuples/lists of them, unchecked)."""
    if not isinstance(inputs, (Tensor, tuple)):
        raise TypeError("The inputs type must be Tensor.")
    if isinstance(inputs, tuple):
        for item in inputs:
            if not isinstance(item, (Tensor, tuple, list)):
                raise TypeError("The inputs type must be Tensor.")


def _leaves(x):
    if isinstance(x, Tensor):
        return [x]
    if isinstance(x, (tuple, list)):
        return [l for item in x for l in _leaves(item)]
    return []


def vjp(fn, *inputs, weights=None, has_aux=False):
    """``mindspore.vjp``: ``(outputs, vjp_fn)`` (``(outputs[0], vjp_fn, aux)`` with
    ``has_aux``); ``vjp_fn(*v)`` gives the vector-Jacobian products (see the module
    docstring for the nesting)."""
    _check_tensor(inputs)
    _check_has_aux(has_aux)
    with state.Recorder() as rec:
        res = fn(*inputs)
    written = list(rec.writes.values())    # the forward's side effects happen once (MindSpore merges the passes)
    if has_aux:
        _check_aux(res)
    target = res[0] if has_aux else res
    w_key = None if weights is None else (tuple(id(w) for w in _weights_list(weights)), isinstance(weights, Tensor))
    grad_fn = _cached((fn, "vjp", w_key, has_aux), lambda: _GradFunction(
        fn, (0,), weights, has_aux=has_aux, get_value=True, sens_param=True, get_all_style=True))
    grad_fn.check_no_grad = False   # inside ``_no_grad()`` MindSpore's vjp gives zeros (no tape), no error
    calls = [0]

    def vjp_fn(*v):
        _check_tensor(v)
        calls[0] += 1
        if calls[0] > 1 and not context.is_graph_mode():
            warnings.warn("vjp_fn has been called multiple times; the forward pass will be recomputed.",
                          RuntimeWarning, stacklevel=2)
        sens = v[0] if len(v) == 1 else v
        for s, t in zip(_leaves(sens), _leaves(target)):
            if s._data.dtype != t._data.dtype:
                raise TypeError(f"The dtype should be {_ms_dtype(t._data.dtype)}, but got "
                                f"{_ms_dtype(s._data.dtype)}: the vector 'v' must have the dtype of the output "
                                "it seeds.")
        kept = [p._data for p in written]
        grads = grad_fn(*inputs, sens)[1]
        for p, v in zip(written, kept):
            p._data = v
        return grads

    if has_aux:
        return res[0], vjp_fn, _aux_part(res)
    return res, vjp_fn


# ---------------------------------------------------------------------------
# jvp
# ---------------------------------------------------------------------------
def _jvp_stateful(fn, n, has_aux):
    return _cached((fn, "jvp", n, has_aux), lambda: StatefulFunction(
        fn, JvpSpec(tuple(range(n)), has_aux=has_aux), check_out=_check_aux if has_aux else None))


def _tangent(t, x):
    """``t`` as the tangent of input ``x``: same dtype, broadcast to its shape."""
    if not isinstance(t, Tensor) or not isinstance(x, Tensor):
        raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
    if t._data.dtype != x._data.dtype:
        raise TypeError(f"Type Join Failed: dtype1 = {_ms_dtype(x._data.dtype)}, dtype2 = "
                        f"{_ms_dtype(t._data.dtype)}: the tangent 'v' must have its input's dtype.")
    if tuple(t.shape) == tuple(x.shape):
        return t
    try:
        ok = np.broadcast_shapes(tuple(t.shape), tuple(x.shape)) == tuple(x.shape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"For 'jvp', the tangent 'v' of shape {list(t.shape)} cannot be broadcast to the shape "
                         f"of its input {list(x.shape)}.")
    return wrap(jnp.broadcast_to(t._data, tuple(x.shape)))


def jvp(fn, inputs, v, has_aux=False):
    """``mindspore.jvp`` / ``ops.jvp``: ``(outputs, jvp)``; with ``has_aux``, ``fn``
    returns ``(output, *aux)`` and the result is ``(output, jvp, aux)``."""
    _check_has_aux(has_aux)
    if not isinstance(inputs, (Tensor, tuple, list)) or not isinstance(v, (Tensor, tuple, list)):
        raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
    n_in = 1 if isinstance(inputs, Tensor) else len(inputs)
    n_v = 1 if isinstance(v, Tensor) else len(v)
    if n_in != n_v:
        raise ValueError(f"v has invalid length: should be {n_in}, but got {n_v}")
    if isinstance(inputs, Tensor) != isinstance(v, Tensor):
        raise TypeError("Type Join Failed: the tangents 'v' must have the structure of 'inputs' (a Tensor for a "
                        "Tensor, a tuple or list for a tuple or list).")
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    v = (v,) if isinstance(v, Tensor) else tuple(v)
    tangents = [[_tangent(t, x)] for t, x in zip(v, inputs)]
    out, out_dot = _jvp_stateful(fn, len(inputs), has_aux)(*inputs, sens=tangents)
    out, out_dot = to_tensors(out), to_tensors(out_dot)
    if has_aux:
        return out[0], out_dot, _aux_part(out)
    return out, out_dot


def linearize(fn, inputs):
    """``ops.linearize(fn, inputs)``: ``(output, jvp_fn)``; ``jvp_fn(v)`` is the
    Jacobian-vector product at ``inputs`` (``v`` a Tensor, or a tuple/list with one
    tangent per input)."""
    if not isinstance(inputs, (Tensor, tuple, list)):
        raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    output = fn(*inputs)

    def jvp_fn(v):
        return jvp(fn, inputs, v if isinstance(v, (tuple, list)) else (v,))[1]
    return output, jvp_fn


def _directional(g):
    """``x -> d/dt g(x + t)``: every input moved along ones (``jvp`` with ones)."""
    def dg(*xs):
        return jvp(g, xs, tuple(wrap(jnp.ones_like(x._data)) for x in xs))[1]
    return dg


def _derivative_input(x):
    if not isinstance(x, Tensor) or x._data.dtype not in (jnp.int32, jnp.int64, jnp.float32, jnp.float64):
        raise TypeError("For `F.derivative`, the elements of primals must belong to `mstype.int32, mstype.int64, "
                        "mstype.float32, mstype.float64`, but got other dtype.")
    return wrap(x._data.astype(jnp.float32)) if x._data.dtype in (jnp.int32, jnp.int64) else x


def derivative(fn, primals, order):
    """``ops.derivative(fn, primals, order)``: ``(out_primals, out_series)``, the
    output and its ``order``-th derivative along every input moved together
    (first-order series one, higher zero: ``d^n/dt^n fn(x + t)``), by nested jvps
    compiled as one function. As in MindSpore 2.10, Int32/Int64 primals become
    Float32, and a function with several outputs gives two *lists*."""
    if not isinstance(order, int):
        raise TypeError("For `F.derivative`, the type of order must be int.")
    if order < 1:
        raise ValueError(f"For `F.derivative`, value of order should not be less than 1, but got {order}.")
    xs = tuple(primals) if isinstance(primals, tuple) else (primals,)
    xs = tuple(_derivative_input(x) for x in xs)

    def make():
        g = fn
        for _ in range(order):
            g = _directional(g)
        return StatefulFunction(lambda *a: (fn(*a), g(*a)))
    out, series = to_tensors(_cached((fn, "derivative", order), make)(*xs))
    if isinstance(out, tuple) and len(out) > 1:
        return list(out), list(series)
    return out, series


# ---------------------------------------------------------------------------
# jacfwd / jacrev
# ---------------------------------------------------------------------------
def _check_positions(grad_position, nargs):
    positions = _convert_grad_position(grad_position)
    for gp in positions:
        if gp >= nargs:
            raise ValueError("The element in grad_position must belong to [0, args_num).")
    return positions


def _check_float32(arrays):
    for x in arrays:
        if x.dtype != jnp.float32:
            raise TypeError(f"Type Join Failed: dtype1 = Float32, dtype2 = {_ms_dtype(x.dtype)}: MindSpore builds "
                            "the Jacobian's unit vectors in Float32, so only Float32 is supported.")


def _nest_jacobian(blocks):
    """MindSpore's ``_jac_postprocess``: ``blocks[o][i]`` as one Tensor, a flat
    tuple (one output or one input), or outputs-major nested tuples."""
    flat = [wrap(b) for row in blocks for b in row]
    if len(flat) == 1:
        return flat[0]
    if len(blocks) == 1 or len(blocks[0]) == 1:
        return tuple(flat)
    return tuple(tuple(wrap(b) for b in row) for row in blocks)


class _Jacobian:
    """The function ``jacfwd``/``jacrev`` return: one StatefulFunction per
    grad_position/argument count, compiled once per argument signature."""

    def __init__(self, fn, grad_position, has_aux, mode):
        _check_has_aux(has_aux)
        self._fn = fn
        self._grad_position = grad_position
        self._has_aux = has_aux
        self._mode = mode
        self._sf = {}

    def _check_out(self, out):
        if self._has_aux:
            _check_aux(out)
        if self._mode == "rev":
            target = out[0] if self._has_aux else out
            _check_float32(_array_leaves(target))

    def __call__(self, *args):
        positions = _check_positions(self._grad_position, len(args))
        if self._mode == "fwd":
            _check_float32([a._data for a in args if isinstance(a, Tensor)])
        sf = self._sf.get(positions)
        if sf is None:
            spec = (JvpSpec(positions, has_aux=self._has_aux, jacobian=True) if self._mode == "fwd" else
                    VjpSpec(positions, [], has_aux=self._has_aux, jacobian=True))
            sf = self._sf[positions] = StatefulFunction(self._fn, spec, check_out=self._check_out)
        res = sf(*args)
        out, blocks = res[0], res[1]
        jac = _nest_jacobian(blocks)
        if self._has_aux:
            return jac, _aux_part(to_tensors(out))
        return jac


def _array_leaves(x):
    if isinstance(x, (tuple, list)):
        return [l for item in x for l in _array_leaves(item)]
    return [x] if hasattr(x, "dtype") else []


def jacfwd(fn, grad_position=0, has_aux=False):
    """``mindspore.jacfwd``: a function returning the Jacobian of ``fn`` with respect
    to the inputs at ``grad_position``, by forward mode (one jvp per input element,
    vmapped); ``(jacobian, aux)`` with ``has_aux``."""
    return _Jacobian(fn, grad_position, has_aux, "fwd")


def jacrev(fn, grad_position=0, has_aux=False):
    """``mindspore.jacrev``: as ``jacfwd``, by reverse mode (one vjp per output
    element, vmapped)."""
    return _Jacobian(fn, grad_position, has_aux, "rev")
