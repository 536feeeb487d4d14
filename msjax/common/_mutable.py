"""The objects ``mindspore.mutable`` returns: the input marked ``__ms_mutable__`` (MindSpore's
``mindspore.graph.mutable._Tuple``/``_List``/``_Dict``/``_Int``/``_Float``, here classes of the same
names). A gradient (``ms.grad``, ``GradOperation``) differentiates a marked tuple, list or dict as one
input: its gradient has the input's nesting (a Tensor's gradient for each Tensor, a zero for each
number), where an unmarked sequence is not differentiated (``()``), as MindSpore 2.10's CPU build.
The marked containers stay marked through a compiled call (JAX pytree nodes of their own)."""
import jax

from .._core import provided
from .._core.grad import _GradFunction
from .._core.tensor import Tensor


class _Tuple(tuple):
    __ms_mutable__ = True


class _List(list):
    __ms_mutable__ = True


class _Dict(dict):
    __ms_mutable__ = True


class _Int(int):
    __ms_mutable__ = True


class _Float(float):
    __ms_mutable__ = True


_MARKED = {tuple: _Tuple, list: _List, dict: _Dict, int: _Int, float: _Float}


def marked(value):
    """``value`` (checked by ``mutable``) as its marked class, which keeps the original object as
    ``__ms_origin_object__``; a bool and a Tensor stay themselves."""
    cls = _MARKED.get(type(value))
    if cls is None:
        if isinstance(value, Tensor):
            value.__ms_mutable__, value.__ms_origin_object__ = True, value
        return value
    out = cls(value)
    out.__ms_origin_object__ = value
    return out


jax.tree_util.register_pytree_node(_Tuple, lambda t: (tuple(t), None), lambda _, items: _Tuple(items))
jax.tree_util.register_pytree_node(_List, lambda t: (list(t), None), lambda _, items: _List(items))
jax.tree_util.register_pytree_node(_Dict, lambda d: (list(d.values()), tuple(d)),
                                   lambda keys, values: _Dict(zip(keys, values)))


def _is_marked(v):
    return getattr(type(v), "__ms_mutable__", False) and not isinstance(v, Tensor)


def _tensors(v, out):
    """The Tensors inside ``v`` in order (a marked container's leaves)."""
    if isinstance(v, (tuple, list)):
        for x in v:
            _tensors(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _tensors(x, out)
    elif isinstance(v, Tensor):
        out.append(v)
    return out


def _signature(v):
    """``v``'s nesting and numbers (its Tensors as one mark): the child gradient function's key."""
    if isinstance(v, (tuple, list)):
        return type(v), tuple(_signature(x) for x in v)
    if isinstance(v, dict):
        return type(v), tuple((k, _signature(x)) for k, x in v.items())
    return "T" if isinstance(v, Tensor) else (type(v), v)


def _rebuilt(v, it):
    """``v`` with each Tensor replaced by the next of ``it`` (as ``fn`` receives it)."""
    if isinstance(v, (tuple, list)):
        return type(v)(_rebuilt(x, it) for x in v)
    if isinstance(v, dict):
        return type(v)((k, _rebuilt(x, it)) for k, x in v.items())
    return next(it) if isinstance(v, Tensor) else v


def _grads(v, it):
    """The gradient of a marked input: its nesting (plain tuple/list/dict), each Tensor's gradient
    from ``it`` and a zero of each number's type (MindSpore 2.10's CPU build gives 0 for them)."""
    if isinstance(v, (tuple, list)):
        return (tuple if isinstance(v, tuple) else list)(_grads(x, it) for x in v)
    if isinstance(v, dict):
        return {k: _grads(x, it) for k, x in v.items()}
    if isinstance(v, Tensor):
        return next(it)
    return 0 if isinstance(v, int) else 0.0 if isinstance(v, float) else v


def _mutable_grad(gf, args, kwargs, positions, sens):
    """``gf(*args)`` (a ``_GradFunction``) where some differentiated input is marked: a child gradient
    function of all inputs takes each marked input's Tensors as inputs of their own."""
    marked_at = [_is_marked(a) for a in args]
    flat = [t for a, m in zip(args, marked_at) for t in (_tensors(a, []) if m else [a])]
    key = ("mutable", tuple(_signature(a) if m else None for a, m in zip(args, marked_at)),
           tuple((k, _signature(v)) for k, v in kwargs.items()))
    child = gf._sf.get(key)
    if child is None:
        templates = [a if m else None for a, m in zip(args, marked_at)]

        def fn(*a):
            it = iter(a)
            return gf._fn(*(_rebuilt(t, it) if t is not None else next(it) for t in templates), **kwargs)
        child = gf._sf[key] = _GradFunction(fn, None, gf._weights_arg, has_aux=gf._has_aux,
                                            get_value=gf._get_value, sens_param=gf._sens_param,
                                            get_all_style=True)
    out = child(*flat, sens) if gf._sens_param else child(*flat)
    grads = out[1] if gf._get_value else out[0] if gf._has_aux else out
    in_grads, w_grads = (grads, None) if gf._weights_arg is None else grads
    it = iter(in_grads)
    entries = [(True, _grads(a, it)) if m else (True, next(it)) if isinstance(a, Tensor) else (False, None)
               for a, m in zip(args, marked_at)]
    chosen = [entries[p][1] for p in positions if p < len(args) and entries[p][0]]
    part = tuple(chosen) if gf._get_all_style or len(chosen) != 1 else chosen[0]
    grads = part if gf._weights_arg is None else (part, w_grads)
    if gf._get_value:
        return out[0], grads
    return (grads, out[1]) if gf._has_aux else grads


provided.provide("mutable_grad", _mutable_grad)
