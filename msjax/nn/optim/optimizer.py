"""``nn.Optimizer``: MindSpore's optimizer base class, with the update rules as optax
transformations.

What MindSpore's base class does is kept as it is (argument checks, parameter
groups with their own ``lr``/``weight_decay``/``grad_centralization``,
``order_params``, ``get_lr()``, ``decay_weight``, ``scale_grad``, the
``global_step`` counter, learning rates as a float, a list/Tensor of per-step
values or a ``LearningRateSchedule``), so user subclasses written for MindSpore
(``construct`` calling ``self.get_lr()``, ``self.decay_weight``...) work unchanged.

The built-in optimizers compute their update with an optax
``GradientTransformation`` (``self._apply_transform``). Its state lives in the
optimizer's Parameters, named like MindSpore's (``moments.fc.weight``,
``beta1_power``...): each step the state pytree is read from them, ``tx.update``
runs, and parameters and state are written back. Because everything is a
Parameter, msjax's transform core threads it through ``jax.jit``/``jax.vjp``: a
training step in GRAPH_MODE is one compiled function, and changing a learning
rate (a Parameter, or a schedule of ``global_step``) never recompiles.
Hyperparameters reach the transformation as traced values when it is built for
the step (``inject_hyperparams`` in spirit).

Like MindSpore (whose built-in optimizers' ``construct`` is decorated with
``@jit``), a built-in optimizer called in PYNATIVE_MODE runs its step compiled.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable

import jax
import jax.numpy as jnp
import numpy as np
import optax

from ..._core import context, state
from ..._core import dtype as mstype
from ..._core.parameter import Parameter, ParameterTuple
from ..._core.tensor import Tensor, to_array, wrap
from ..._core.transforms import StatefulFunction, to_tensors
from ...common._cell_cache import cell_function
from ...communication import _sharded
from ...ops._impl._util import rounded
from ..cell import Cell
from ..learning_rate_schedule import LearningRateSchedule
from .. import _validator as validator

__all__ = ["Optimizer", "opt_init_args_register"]


def opt_init_args_register(fn):
    """Record an optimizer's constructor arguments (``init_params``/``init_args``)."""
    import inspect

    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        if "params" in arguments:
            object.__setattr__(self, "init_params", {"params": arguments.pop("params")})
        if "optimizer" in arguments:
            object.__setattr__(self, "init_params", {"params": arguments.pop("optimizer").init_params["params"]})
        if "learning_rate" in arguments:
            lr = arguments.pop("learning_rate")
            if isinstance(lr, Tensor):
                lr = lr.asnumpy().tolist()
            object.__setattr__(self, "init_learning_rate", None if isinstance(lr, Cell) else lr)
        object.__setattr__(self, "init_args", arguments)
        fn(self, *args, **kwargs)

    return deco


def compiled(construct):
    """Mark a built-in optimizer's ``construct`` to run compiled in PYNATIVE_MODE
    (MindSpore's ``@jit``); a subclass overriding ``construct`` runs as written."""
    construct._ms_opt_compiled = True
    return construct


def _arr(x):
    return x._data if isinstance(x, Tensor) else to_array(x)


def step_if(optimizer, cond, gradients):
    """``if all(cond): optimizer(gradients)``, also inside a compiled step where
    ``cond`` is traced: the optimizer then runs, and every Parameter it wrote is
    picked back to its old value when ``cond`` is false, by one ``lax.cond`` over
    all of them (a ``jnp.where`` per Parameter gives the same values, but XLA then
    fuses the condition's computation into every update and compiles several
    times slower). A skipped step leaves weights and optimizer state bit-identical."""
    c = _arr(cond)
    if not isinstance(c, jax.core.Tracer):
        if bool(np.asarray(c).all()):
            optimizer(gradients)
        return
    params = list(optimizer.get_parameters())
    before = [p._data for p in params]
    optimizer(gradients)
    changed = [i for i, (p, old) in enumerate(zip(params, before)) if p._data is not old]
    if not changed:
        return
    dtypes = [jnp.result_type(before[i], params[i]._data) for i in changed]
    olds = [jax.lax.convert_element_type(before[i], t) for i, t in zip(changed, dtypes)]
    news = [jax.lax.convert_element_type(params[i]._data, t) for i, t in zip(changed, dtypes)]
    picked = jax.lax.cond(jnp.all(c), lambda o, n: n, lambda o, n: o, olds, news)
    for i, value in zip(changed, picked):
        params[i]._data = value


class _AssignAdd:
    """``P.AssignAdd()`` as the optimizers use it: ``param += value`` in place."""

    def __call__(self, variable, value):
        v = variable._data
        variable._data = (v + _arr(value).astype(v.dtype)).astype(v.dtype)
        return variable


class _Map:
    """``C.Map``/``C.HyperMap`` over tuples, for optimizer subclasses."""

    def __init__(self, ops=None, reverse=False, hyper=False):
        self.ops = ops
        self.reverse = reverse
        self.hyper = hyper

    def _apply(self, fn, args):
        seqs = [a for a in args if isinstance(a, (tuple, list))]
        if not seqs:
            return fn(*args)
        n = len(seqs[0])
        idx = range(n - 1, -1, -1) if self.reverse else range(n)
        res = [None] * n
        for i in idx:
            item = [a[i] if isinstance(a, (tuple, list)) else a for a in args]
            if self.hyper and any(isinstance(x, (tuple, list)) for x in item):
                res[i] = self._apply(fn, item)
            else:
                res[i] = fn(*item)
        return tuple(res)

    def __call__(self, *args):
        if self.ops is None:
            return self._apply(args[0], args[1:])
        return self._apply(self.ops, args)


def _grad_centralize(g):
    """MindSpore's ``Centralization``: subtract the mean over all axes but the first
    (only for Tensors of rank > 1 whose second dimension is a multiple of 16)."""
    if g.ndim < 2 or g.shape[1] % 16 != 0:
        return g
    return g - jnp.mean(g, axis=tuple(range(1, g.ndim)), keepdims=True)


class _ConvertToCell(LearningRateSchedule):
    """A fixed group learning rate beside dynamic ones (MindSpore adds and subtracts 1.0)."""

    def __init__(self, learning_rate):
        super().__init__()
        if not isinstance(learning_rate, Parameter):
            raise TypeError("For 'Optimizer', the argument 'learning_rate' must be Parameter, "
                            f"but got {type(learning_rate)}.")
        self.learning_rate = learning_rate

    def construct(self, global_step):
        lr = self.learning_rate._data
        return wrap(lr + jnp.asarray(1.0, lr.dtype) - jnp.asarray(1.0, lr.dtype))


class _IteratorLearningRate(LearningRateSchedule):
    """A list/Tensor of per-step learning rates, indexed by ``global_step``."""

    def __init__(self, learning_rate, name):
        super().__init__()
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim != 1:
                raise ValueError("For 'Optimizer', the dimension of the argument 'learning_rate' should "
                                 f"be 1, but got {learning_rate.ndim}.")
        else:
            raise TypeError("For 'Optimizer', the argument 'learning_rate' must be Tensor, "
                            f"but got {type(learning_rate)}.")
        self.learning_rate = Parameter(learning_rate, name)

    def construct(self, global_step):
        # MindSpore's Gather gives 0 past the end of the list
        return wrap(jnp.take(self.learning_rate._data, _arr(global_step), axis=0, mode="fill", fill_value=0))


class _WrappedWeightDecay(Cell):
    """A dynamic weight decay (a Cell of ``global_step``) times the loss scale."""

    def __init__(self, weight_decay, loss_scale=1.0):
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = Tensor(loss_scale, mstype.float32)

    def construct(self, global_step):
        return wrap(_arr(self.weight_decay(global_step)) * self.loss_scale._data)


def _state_slots(template):
    """(attribute name, index or None) for every leaf of an optax state pytree:
    the last NamedTuple field on the leaf's path names the optimizer attribute,
    a following sequence index selects the parameter."""
    slots = []
    for path, _ in jax.tree_util.tree_flatten_with_path(template)[0]:
        name, idx = None, None
        for k in path:
            if isinstance(k, jax.tree_util.GetAttrKey):
                name, idx = k.name, None
            elif isinstance(k, jax.tree_util.SequenceKey) and name is not None and idx is None:
                idx = k.idx
        slots.append((name, idx))
    return slots


class Optimizer(Cell):
    """Base class of optimizers (``mindspore.nn.Optimizer``).

    ``Optimizer(learning_rate, parameters, weight_decay=0.0, loss_scale=1.0)``;
    ``parameters`` is a list of Parameters or of group dicts (``'params'``,
    ``'lr'``, ``'weight_decay'``, ``'grad_centralization'``, ``'order_params'``).
    """

    _support_parallel_optimizer = False
    # optax state field name -> optimizer attribute, for optax's own transformations
    _state_alias: dict = {}

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        parameters = self._parameters_base_check(parameters, "parameters")
        self.param_rank = None
        self.optim_filter = None
        if not isinstance(parameters, list):
            raise TypeError(f"For 'Optimizer' argument 'parameters' must be 'list', but got {type(parameters)}.")
        if not all(isinstance(x, Parameter) for x in parameters) and not all(isinstance(x, dict) for x in parameters):
            raise TypeError("For 'Optimizer', all elements of the argument 'parameters' must be 'Parameter' or "
                            "'dict', please check the 'parameters'.")
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        validator.check_value_type("loss_scale", loss_scale, [float], self.cls_name)
        validator.check_positive_float(loss_scale, "loss_scale", self.cls_name)
        self.loss_scale = loss_scale
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self._unique = True
        self._target = context.get_context("device_target")
        self.dynamic_lr = False
        self.assignadd = _AssignAdd()
        self.global_step = Parameter(Tensor(np.zeros((1,), np.int32)), name="global_step")
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        learning_rate = self._preprocess_single_lr(learning_rate)
        if isinstance(parameters[0], dict):
            self.is_group = True
            self.group_params = []
            self.group_lr = []
            self.group_weight_decay = []
            self.group_grad_centralization = []
            self._init_group_params(parameters, learning_rate, weight_decay, self.grad_centralization)
        self._init_opt_attrs(learning_rate, parameters, weight_decay)

    @property
    def cls_name(self):
        return type(self).__name__

    # --- construction (MindSpore's logic) ----------------------------------------------
    def _init_opt_attrs(self, learning_rate, parameters, weight_decay):
        weight_decay = self._preprocess_weight_decay(weight_decay)
        if self.is_group_lr:
            if self.dynamic_lr:
                from ..layer.container import CellList
                self.learning_rate = CellList(self.group_lr)
            else:
                self.learning_rate = ParameterTuple(self.group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, "learning_rate")
        if self.is_group:
            self.parameters = ParameterTuple(self.group_params)
            self._parameters = self.parameters
            self.decay_flags = tuple(isinstance(x, Cell) or x > 0 for x in self.group_weight_decay)
            self.dynamic_decay_flags = tuple(isinstance(x, Cell) for x in self.group_weight_decay)
            self.weight_decay = tuple(x if flag else Tensor(x, mstype.float32)
                                      for x, flag in zip(self.group_weight_decay, self.dynamic_decay_flags))
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(self.group_grad_centralization)
        else:
            self.parameters = ParameterTuple(parameters)
            self._parameters = self.parameters
            self.decay_flags = tuple("beta" not in x.name and "gamma" not in x.name for x in self._parameters)
            self.dynamic_decay_flags = isinstance(weight_decay, Cell)
            self.exec_weight_decay = isinstance(weight_decay, Cell) or weight_decay > 0
            self.weight_decay = weight_decay if self.dynamic_decay_flags else Tensor(weight_decay, mstype.float32)
        self.reciprocal_scale = Tensor(1.0 / self.loss_scale, mstype.float32)
        self.need_scale = self.loss_scale != 1.0
        self.global_step_increase_tensor = Tensor(np.ones((1,), np.int32))
        self.param_length = len(self._parameters)
        self.map_ = _Map()
        self.map_reverse = _Map(None, True)
        self.hyper_map = _Map(hyper=True)
        self.hyper_map_reverse = _Map(None, True, hyper=True)
        self.use_parallel = False
        self.optim_filter = (True,) * self.param_length
        self.enable_tuple_broaden = True

    @staticmethod
    def _parameters_base_check(parameters, param_info):
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {param_info} can not be None.")
        if not isinstance(parameters, Iterable):
            raise TypeError(f"For 'Optimizer', the argument {param_info} must be Iterable type, "
                            f"but got {type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For 'Optimizer', the argument {param_info} must not be empty.")
        return parameters

    @staticmethod
    def _preprocess_grad_centralization(grad_centralization):
        if not isinstance(grad_centralization, bool):
            raise TypeError("For 'Optimizer', the 'gradients_centralization' must be bool type, "
                            f"but got {type(grad_centralization)}.")
        return grad_centralization

    def _preprocess_weight_decay(self, weight_decay):
        if isinstance(weight_decay, (float, int)) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)
            validator.check_non_negative_float(weight_decay, "weight_decay", self.cls_name)
            return weight_decay * self.loss_scale
        if isinstance(weight_decay, Cell):
            self.dynamic_weight_decay = True
            return _WrappedWeightDecay(weight_decay, self.loss_scale)
        raise TypeError("For 'Optimizer', the argument 'Weight_decay' must be int, "
                        f"float or Cell.but got {type(weight_decay)}")

    def _preprocess_single_lr(self, learning_rate):
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool):
            learning_rate = float(learning_rate)
            validator.check_non_negative_float(learning_rate, "learning rate", self.cls_name)
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            return Tensor(learning_rate.asnumpy(), dtype=mstype.float32)
        self.dynamic_lr = True
        if isinstance(learning_rate, LearningRateSchedule):
            return learning_rate
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim > 1:
                raise ValueError("For 'Optimizer', if 'learning_rate' is Tensor type, then the dimension of it "
                                 f"should be 0 or 1, but got {learning_rate.ndim}.")
            return Tensor(learning_rate.asnumpy(), dtype=mstype.float32)
        if isinstance(learning_rate, Iterable):
            return Tensor(np.array(list(learning_rate)).astype(np.float32))
        raise TypeError("For 'Optimizer', the argument 'learning_rate' must be int, float, Tensor, Iterable or "
                        f"LearningRateSchedule, but got {type(learning_rate)}.")

    def _build_single_lr(self, learning_rate, name):
        if isinstance(learning_rate, float):
            learning_rate = Parameter(Tensor(learning_rate, mstype.float32), name)
            if self.is_group_lr and self.dynamic_lr:
                learning_rate = _ConvertToCell(learning_rate)
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            learning_rate = Parameter(learning_rate, name)
            if self.is_group_lr and self.dynamic_lr:
                learning_rate = _ConvertToCell(learning_rate)
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1:
            return _IteratorLearningRate(learning_rate, name)
        return learning_rate

    def _check_group_params(self, parameters):
        parse_keys = ["params", "lr", "weight_decay", "order_params", "grad_centralization"]
        for group_param in parameters:
            invalid_key = [x for x in group_param.keys() if x not in parse_keys]
            if invalid_key:
                raise KeyError(f"For 'Optimizer', the key in group params must be one of in {parse_keys}, "
                               f"but got {invalid_key}.")
            if "order_params" in group_param.keys():
                if len(group_param.keys()) > 1:
                    raise ValueError("For 'Optimizer', the order params dict in group parameters should only "
                                     f"include the 'order_params' key, but got {group_param.keys()}.")
                if not isinstance(group_param["order_params"], Iterable):
                    raise TypeError("For 'Optimizer', the value of 'order_params' in group parameters should "
                                    f"be Iterable type, but got {type(group_param['order_params'])}.")
                continue
            params = self._parameters_base_check(group_param["params"], "group `params`")
            for index, param in enumerate(params):
                if not isinstance(param, Parameter):
                    raise TypeError("For 'Optimizer', the element in group parameters must be Parameter type, "
                                    f"but got {type(param)} at index {index}.")

    def _parse_group_params(self, parameters, learning_rate):
        self._check_group_params(parameters)
        tensor_lr_length = learning_rate.size if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1 else 0
        for group_param in parameters:
            if "order_params" in group_param.keys():
                self.is_group_params_ordered = True
                continue
            if "lr" in group_param.keys():
                self.is_group_lr = True
                group_lr = self._preprocess_single_lr(group_param["lr"])
                if isinstance(group_lr, Tensor) and group_lr.ndim == 1:
                    if tensor_lr_length == 0:
                        tensor_lr_length = group_lr.size
                    elif group_lr.size != tensor_lr_length:
                        raise ValueError("For 'Optimizer', the Tensor type dynamic learning rate in group must be "
                                         "the same size as the argument 'learning_rate'.")

    def _init_group_params(self, parameters, learning_rate, weight_decay, grad_centralization):
        self._parse_group_params(parameters, learning_rate)
        default_lr = self._build_single_lr(learning_rate, "learning_rate")
        params_store = []
        ordered_parameters = []
        for group_num, group_param in enumerate(parameters):
            if "order_params" in group_param.keys():
                ordered_parameters = group_param["order_params"]
                continue
            self.group_params += list(group_param["params"])
            if "lr" in group_param.keys():
                lr = self._preprocess_single_lr(group_param["lr"])
                lr = self._build_single_lr(lr, "learning_rate_group_" + str(group_num))
            else:
                lr = default_lr
            if "weight_decay" in group_param.keys():
                weight_decay_ = self._preprocess_weight_decay(group_param["weight_decay"])
            else:
                weight_decay_ = self._preprocess_weight_decay(weight_decay)
            if "grad_centralization" in group_param.keys():
                self.grad_centralization = self._preprocess_grad_centralization(group_param["grad_centralization"])
                grad_centralization_ = self.grad_centralization
            else:
                grad_centralization_ = grad_centralization
            for param in group_param["params"]:
                if param.name in params_store:
                    raise RuntimeError(f"For 'Optimizer', the {param.name} parameter already exists, it does not "
                                       "support repeated setting. Please check whether the optimizer parameter "
                                       "has been set multiple times.")
                params_store.append(param.name)
                self.group_lr.append(lr)
                self.group_weight_decay.append(weight_decay_)
                self.group_grad_centralization.append(grad_centralization_)
        if self.is_group_params_ordered and ordered_parameters:
            self._order_and_adjust_group_params(list(ordered_parameters))

    def _order_and_adjust_group_params(self, ordered_parameters):
        n = len(self.group_params)
        if len(ordered_parameters) != n:
            raise ValueError("For 'Optimizer',the length of order parameters must be the same as the length of "
                             f"group parameters, but got order parameters' length {len(ordered_parameters)}, "
                             f"group parameters' length {n}.")
        names = [p.name for p in ordered_parameters]
        out = [[None] * n for _ in range(4)]
        for param, lr, wd, gc in zip(self.group_params, self.group_lr, self.group_weight_decay,
                                     self.group_grad_centralization):
            index = names.index(param.name)
            for lst, v in zip(out, (param, lr, wd, gc)):
                lst[index] = v
        self.group_params, self.group_lr, self.group_weight_decay, self.group_grad_centralization = out

    # --- Cell plumbing ------------------------------------------------------------------
    def _check_lr_list_bounds(self):
        """MindSpore's Gather raises when ``global_step`` runs past a per-step learning-rate
        list; PYNATIVE_MODE checks it here (a compiled GRAPH_MODE step reads 0 instead)."""
        lrs = self.learning_rate if self.is_group_lr and self.dynamic_lr else (self.learning_rate,)
        n = None
        for lr in lrs:
            if isinstance(lr, _IteratorLearningRate):
                n = lr.learning_rate.shape[0]
        if n is not None:
            step = int(np.asarray(self.global_step._data).reshape(-1)[0])
            if not 0 <= step < n:
                raise RuntimeError(f"For 'Gather', the 'input_indices' should be in the range [0, {n}), "
                                   f"but got {step}, error_code[58]")

    def _check_call_gradients(self, args, kwargs):
        """MindSpore's call-argument errors: the gradients are one tuple with one
        Tensor of the parameter's shape per parameter (RuntimeError otherwise, as
        MindSpore's HyperMap raises; missing gradients are a TypeError)."""
        if len(args) + len(kwargs) == 0:
            raise TypeError(f"For '{self.cls_name}', the function construct needs the 'gradients' argument, "
                            "but got none.")
        if not args or not hasattr(self, "_parameters"):
            return
        grads, params = args[0], self._parameters
        if not isinstance(grads, (tuple, list)):
            raise RuntimeError(f"For '{self.cls_name}', the gradients must be a tuple of Tensors (one per parameter), "
                               f"but got {type(grads).__name__}.")
        if len(grads) != len(params):
            raise RuntimeError(f"For '{self.cls_name}', the tuples in HyperMap should have the same length: "
                               f"{len(grads)} gradients for {len(params)} parameters.")
        for g, p in zip(grads, params):
            if not isinstance(g, Tensor):
                if hasattr(g, "dense_shape") or hasattr(g, "indices"):
                    continue    # RowTensor / sparse gradients (LazyAdam...)
                raise RuntimeError(f"For '{self.cls_name}', every gradient must be a Tensor, but got "
                                   f"{type(g).__name__} for parameter '{p.name}'.")
            # a Parameter a launched sharded step spread over the processes: the rank's slice
            if tuple(g.shape) != tuple(p.shape) and tuple(g.shape) != _sharded.rank_shape(p._raw_get()):
                err = RuntimeError if self.cls_name == "SGD" else ValueError    # as MindSpore 2.10's kernels
                raise err(f"For '{self.cls_name}', the gradient of '{p.name}' has shape {tuple(g.shape)}, "
                          f"but the parameter has shape {tuple(p.shape)}.")

    def __call__(self, *args, **kwargs):
        if not state.frames:
            self._check_call_gradients(args, kwargs)
        if self.dynamic_lr and not state.frames and not context.is_graph_mode():
            self._check_lr_list_bounds()
        if getattr(type(self).construct, "_ms_opt_compiled", False) and not state.frames and \
                not context.is_graph_mode():
            sf = cell_function(self, "optimizer_step", lambda: StatefulFunction(self.construct, donate=True))
            return to_tensors(sf(*args, **kwargs))
        return super().__call__(*args, **kwargs)

    # --- MindSpore API ----------------------------------------------------------------------
    @property
    def unique(self):
        return self._unique

    @unique.setter
    def unique(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"For 'Optimizer', the property 'unique' must be bool, but got {type(value)}")
        self._unique = value

    @property
    def target(self):
        return self._target

    @target.setter
    def target(self, value):
        self._set_base_target(value)

    def _set_base_target(self, value):
        if not isinstance(value, str):
            raise TypeError(f"For 'Optimizer', the property 'target' must be string, but got {type(value)}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError("For 'Optimizer', the property 'target' must be one of ['CPU', 'Ascend' ,'GPU'], "
                             f"but got {value}")
        self._target = value

    def flatten_gradients(self, gradients):
        return gradients

    def decay_weight(self, gradients):
        """``gradient + weight_decay * weight`` for the parameters with decay."""
        if not self.exec_weight_decay:
            return gradients
        params = self._parameters
        weight_decay = self.get_weight_decay()
        wds = weight_decay if self.is_group else (weight_decay,) * len(params)
        out = []
        for wd, flag, p, g in zip(wds, self.decay_flags, params, gradients):
            if flag:
                w = p._data
                out.append(wrap(rounded(w * _arr(wd).astype(w.dtype)) + _arr(g)))   # Mul, then AddN
            else:
                out.append(g)
        return tuple(out)

    def gradients_centralization(self, gradients):
        if not self.is_group:
            return gradients
        return tuple(wrap(_grad_centralize(_arr(g))) if flag else g
                     for flag, g in zip(self.grad_centralization_flags, gradients))

    def scale_grad(self, gradients):
        """Undo a fixed loss scale: ``gradient / loss_scale``."""
        if not self.need_scale:
            return gradients
        r = self.reciprocal_scale._data
        return tuple(wrap(_arr(g) * r.astype(_arr(g).dtype)) for g in gradients)

    def _grad_sparse_indices_deduplicate(self, gradients):
        return gradients

    def get_weight_decay(self):
        if self.dynamic_weight_decay:
            if self.is_group:
                return tuple(wd(self.global_step) if flag else wd
                             for wd, flag in zip(self.weight_decay, self.dynamic_decay_flags))
            return self.weight_decay(self.global_step)
        return self.weight_decay

    def get_lr(self):
        """The learning rate of the current step (a tuple per parameter with group learning rates)."""
        lr = self.learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                return tuple(wrap(_arr(l(self.global_step)).reshape(())) for l in self.learning_rate)
            return wrap(_arr(self.learning_rate(self.global_step)).reshape(()))
        return lr

    def get_lr_parameter(self, param):
        def value(lr):
            if isinstance(lr, (_ConvertToCell, _IteratorLearningRate)):
                return lr.learning_rate
            return lr

        if isinstance(param, Parameter):
            param_list = [param]
        elif isinstance(param, list):
            param_list = param
        else:
            raise TypeError("For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' type, "
                            f"but got {type(param)}.")
        ids = [id(p) for p in self._parameters]
        lr = []
        for p in param_list:
            validator.check_value_type("parameter", p, [Parameter], self.cls_name)
            if id(p) not in ids:
                raise ValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in optimizer, please "
                                 "check whether the argument 'param' is correct.")
            if self.is_group_lr:
                lr.append(value(self.learning_rate[ids.index(id(p))]))
            else:
                lr.append(value(self.learning_rate))
        return lr if isinstance(param, list) else lr[0]

    def _is_dynamic_lr_or_weight_decay(self):
        return self.dynamic_lr or self.dynamic_weight_decay

    def broadcast_params(self, optim_result):
        return optim_result

    def construct(self, *hyper_params):
        raise NotImplementedError

    # --- the optax machinery -------------------------------------------------------------
    def _bind_state(self, tx):
        """Map the leaves of ``tx``'s state to this optimizer's state Parameters
        (the attributes named by the state's NamedTuple fields)."""
        p_arr = tuple(p._data for p in self._parameters)
        template = jax.eval_shape(tx.init, p_arr)
        leaves, treedef = jax.tree_util.tree_flatten(template)
        params = []
        for (name, idx), leaf in zip(_state_slots(template), leaves):
            holder = getattr(self, self._state_alias.get(name, name), None) if name else None
            p = holder[idx] if idx is not None and holder is not None else holder
            if not isinstance(p, Parameter):
                raise RuntimeError(f"{self.cls_name}: no state Parameter for optax state field {name!r}.")
            if tuple(p.shape) != tuple(leaf.shape):
                raise RuntimeError(f"{self.cls_name}: state Parameter {p.name} has shape {p.shape}, the optax "
                                   f"state expects {leaf.shape}.")
            params.append(p)
        object.__setattr__(self, "_ms_state_params", params)
        object.__setattr__(self, "_ms_state_treedef", treedef)

    def _read_state(self):
        return jax.tree_util.tree_unflatten(self._ms_state_treedef, [p._data for p in self._ms_state_params])

    def _write_state(self, old, new):
        for p, o, n in zip(self._ms_state_params, jax.tree_util.tree_leaves(old), jax.tree_util.tree_leaves(new)):
            if n is not o:
                p._data = jnp.asarray(n).astype(p._raw_get().dtype)

    def _apply_transform(self, tx, gradients, **extra_args):
        """One optax step: ``tx.update`` on the gradients with the state read from
        the state Parameters, then ``optax.apply_updates`` into the parameters."""
        params = self._parameters
        if len(gradients) != len(params):
            raise ValueError(f"For '{self.cls_name}', the number of gradients ({len(gradients)}) must equal the "
                             f"number of parameters ({len(params)}).")
        p_arr = tuple(p._data for p in params)
        g_arr = tuple(_arr(g) for g in gradients)
        for p, a, g in zip(params, p_arr, g_arr):
            if tuple(g.shape) != tuple(a.shape):     # a.shape: a rank's slice in _sharded's rank-local call
                raise ValueError(f"For '{self.cls_name}', the gradient of {p.name} has shape {tuple(g.shape)}, "
                                 f"but the parameter has shape {tuple(p.shape)}.")
        old = self._read_state()
        updates, new = tx.update(g_arr, old, p_arr, **extra_args)
        new_params = optax.apply_updates(p_arr, updates)
        for keep, p, v in zip(self.optim_filter, params, new_params):
            if keep:
                p._data = v
        self._write_state(old, new)
        return wrap(jnp.asarray(True))

    def _lr_tuple(self, lr):
        """The learning rate of every parameter, as arrays."""
        if self.is_group_lr:
            return tuple(_arr(l).reshape(()).astype(jnp.float32) for l in lr)
        a = _arr(lr).reshape(()).astype(jnp.float32)
        return (a,) * self.param_length

    def _step(self):
        """``global_step += 1``."""
        self.assignadd(self.global_step, self.global_step_increase_tensor)


# ---------------------------------------------------------------------------
# helpers for the built-in optimizers' optax transformations
# ---------------------------------------------------------------------------
def transformation(init, update):
    """An optax transformation whose ``update`` takes extra keyword arguments
    (the step's hyperparameters, e.g. ``lr=(...)`` per parameter)."""
    return optax.GradientTransformationExtraArgs(init, update)


def scale_by_lr():
    """``updates * -lr`` with one learning rate per parameter (``lr=`` tuple)."""

    def init(params):
        return optax.EmptyState()

    def update(updates, state, params=None, *, lr, **extra):
        return tuple(-(l.astype(u.dtype) * u) if jnp.issubdtype(u.dtype, jnp.floating) else -(l * u)
                     for u, l in zip(updates, lr)), state

    return transformation(init, update)


def f32(x):
    """A Float32 scalar (MindSpore keeps optimizer constants as Float32 Tensors)."""
    return jnp.asarray(x, jnp.float32)


__all__ += ["transformation", "scale_by_lr", "f32", "compiled"]
