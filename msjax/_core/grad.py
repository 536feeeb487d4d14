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

from .parameter import Parameter, ParameterTuple
from .tensor import Tensor, wrap
from .transforms import StatefulFunction, VjpSpec, to_tensors

__all__ = ["grad", "value_and_grad", "GradOperation", "get_grad"]


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
    if weights is None:
        return []
    if isinstance(weights, Parameter):
        return [weights]
    if isinstance(weights, (list, tuple, ParameterTuple)):
        for w in weights:
            if not isinstance(w, Parameter):
                raise TypeError("For 'grad', the 'weights' should be Parameter, ParameterTuple or a list of "
                                f"Parameters, but got an element of type {type(w).__name__}.")
        return list(weights)
    raise TypeError("For 'grad', the 'weights' should be Parameter, ParameterTuple or a list of Parameters, "
                    f"but got {type(weights).__name__}.")


def _check_aux(out):
    if not isinstance(out, tuple) or len(out) < 2:
        raise ValueError("When has_aux is True, origin fn requires more than one outputs.")


def _combine_with_ids(grad_position, weights, out):
    """MindSpore's ``return_ids`` layout (ported from its ``_combine_with_ids``)."""
    out_with_ids = []
    if grad_position:
        pos = []
        if grad_position == (0,) and weights is not None:
            pos = [0, out[0]]
        elif grad_position == (0,):
            pos = [0, out]
        elif weights is not None:
            pos = [(index, out[0][k]) for k, index in enumerate(grad_position)]
        else:
            pos = [(index, out[k]) for k, index in enumerate(grad_position)]
        if weights is not None:
            out_with_ids.append(tuple(pos))
        else:
            out_with_ids = pos
    if weights is not None:
        if isinstance(weights, (list, tuple, ParameterTuple)):
            src = out[1] if grad_position else out
            wt = [(w.name, src[k]) for k, w in enumerate(weights)]
        else:
            wt = [weights.name, out[1] if grad_position else out]
        if grad_position:
            out_with_ids.append(tuple(wt))
        else:
            out_with_ids = wt
    if not out_with_ids:
        raise ValueError("output tuple should not be a empty tuple.")
    return tuple(out_with_ids)


class _GradFunction:
    """The callable ``ms.grad``/``value_and_grad``/``GradOperation`` return."""

    def __init__(self, fn, positions, weights_arg, has_aux=False, get_value=False, return_ids=False,
                 sens_param=False, get_all_style=False):
        self._fn = fn
        self._positions = positions           # tuple or None
        self._weights_arg = weights_arg       # as given (None, Parameter, list...)
        self._weights = _weights_list(weights_arg)
        self._has_aux = has_aux
        self._get_value = get_value
        self._return_ids = return_ids
        self._sens_param = sens_param
        self._get_all_style = get_all_style   # GradOperation(get_all=True): all inputs
        self._sf = {}

    def _stateful(self, positions):
        sf = self._sf.get(positions)
        if sf is None:
            spec = VjpSpec(positions, self._weights, has_aux=self._has_aux, sens=self._sens_param)
            sf = self._sf[positions] = StatefulFunction(
                self._fn, spec, check_out=_check_aux if self._has_aux else None)
        return sf

    def __call__(self, *args, **kwargs):
        sens = None
        if self._sens_param:
            if "sens" in kwargs:
                sens = kwargs.pop("sens")
            elif args:
                sens = args[-1]
                args = args[:-1]
            else:
                raise TypeError("When 'sens_param' is True, the sensitivity (gradient with respect to output) "
                                "must be passed as the last positional argument or as 'sens='.")
        nargs = len(args)
        if self._get_all_style:
            positions = tuple(range(nargs))
        elif self._positions is None:
            positions = ()
        else:
            for gp in self._positions:
                if gp >= nargs:
                    raise ValueError("The element in grad_position must belong to [0, args_num).")
            positions = self._positions
        out, g_in, g_w = self._stateful(positions)(*args, sens=sens, **kwargs)
        out = to_tensors(out)
        grads = self._nest(args, positions, g_in, g_w)
        if self._return_ids:
            grads = _combine_with_ids(self._positions, self._weights_arg, grads)
        if self._get_value:
            return out, grads
        if self._has_aux:
            return grads, tuple(out[1:])
        return grads

    def _nest(self, args, positions, g_in, g_w):
        in_grads = []
        for p, gs in zip(positions, g_in):
            a = args[p]
            if isinstance(a, Tensor):
                in_grads.append(wrap(gs[0]))
            else:
                import jax
                leaves, td = jax.tree_util.tree_flatten(a, is_leaf=lambda x: isinstance(x, Tensor))
                it = iter(gs)
                in_grads.append(jax.tree_util.tree_unflatten(
                    td, [wrap(next(it)) if isinstance(l, Tensor) else None for l in leaves]))
        w_grads = tuple(wrap(g) for g in g_w)
        if self._get_all_style:
            inputs_part = tuple(in_grads)
        elif self._positions is None:
            inputs_part = None
        elif len(positions) == 1:
            inputs_part = in_grads[0]
        else:
            inputs_part = tuple(in_grads)
        if self._weights_arg is None:
            return inputs_part
        weights_part = w_grads[0] if isinstance(self._weights_arg, Parameter) else w_grads
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
            if weights is None:
                raise TypeError("For 'GradOperation', when 'get_by_list' is True, the 'weights' should be "
                                "Parameter, ParameterTuple or a list of Parameters, but got None.")
            if isinstance(weights, Parameter):
                weights = [weights]
            weights_arg = tuple(_weights_list(weights))
        else:
            weights_arg = None
        positions = None if (self.get_by_list and not self.get_all) else (0,)
        return _GradFunction(fn, positions, weights_arg, sens_param=self.sens_param,
                             get_all_style=self.get_all)
